"""The UI's Streamlit-free logic: table edits, typed grades, component actions, the text catalogues."""

import json
import re

import pytest

from ndcg_core.lists.items import MAX_ITEMS, make_items
from support import ROOT  # noqa: E402
from ui.editing import (
    apply_table_edits,
    grades_from_text,
    parse_gain_mapping,
    table_rows,
)
from ui.errors import TEMPLATES
from ui.i18n import LANGUAGES, Translator, catalogue
from ui.widgets.sortable import apply_action, component_data


def five():
    return make_items(["doc A", "doc B", "doc C", "doc D", "doc E"], [3, 2, 3, 0, 1])


def test_table_rows_show_grades_without_trailing_zeros():
    assert table_rows(make_items(["a"], [2.0]) + make_items(["b"], [2.5], first_id=2)) == [
        {"label": "a", "grade": "2"},
        {"label": "b", "grade": "2.5"},
    ]


def test_table_edits_apply_edits_deletions_and_additions_together():
    edits = {
        "edited_rows": {1: {"grade": "4"}, 2: {"label": "<b>bold</b>"}},
        "deleted_rows": [0],
        "added_rows": [{"label": "new", "grade": "2"}, {}],
    }
    out = apply_table_edits(five(), edits, top=4)
    assert [(it.label, it.grade) for it in out] == [
        ("doc B", 4),
        ("<b>bold</b>", 3),
        ("doc D", 0),
        ("doc E", 1),
        ("new", 2),
        ("item 7", 0),
    ]
    assert len({it.id for it in out}) == len(out)


@pytest.mark.parametrize(
    "edits, message",
    [
        ({"edited_rows": {2: {"grade": ""}}}, "row 3, grade is blank"),
        ({"edited_rows": {2: {"grade": "three"}}}, "row 3, grade is 'three': not a number"),
        ({"edited_rows": {0: {"grade": "7"}}}, "row 1, grade is 7: the top grade is 4"),
        ({"edited_rows": {0: {"grade": "-2"}}}, "row 1, grade is '-2': grades cannot be negative"),
        ({"edited_rows": {4: {"label": "  "}}}, "row 5, label is blank"),
        ({"deleted_rows": [0, 1, 2, 3, 4]}, "cannot be empty"),
        ({"edited_rows": {9: {"grade": "1"}}}, "row 10, but it has 5 rows"),
        ({"added_rows": [{}] * (MAX_ITEMS - 4)}, f"at most {MAX_ITEMS}"),
    ],
)
def test_bad_table_edits_name_the_row_and_change_nothing(edits, message):
    items = five()
    with pytest.raises(ValueError, match=re.escape(message)):
        apply_table_edits(items, edits, top=4)
    assert items == five()


def test_pool_table_may_be_emptied():
    assert apply_table_edits(five()[:1], {"deleted_rows": [0]}, top=4, allow_empty=True) == []


def test_typed_grades_keep_labels_and_add_or_drop_items():
    out = grades_from_text(five(), "4 4", top=4)
    assert [(it.label, it.grade) for it in out] == [("doc A", 4), ("doc B", 4)]
    out = grades_from_text(five()[:1], "1，2, 3", top=4)  # a Chinese comma works too
    assert [(it.label, it.grade) for it in out] == [("doc A", 1), ("item 2", 2), ("item 3", 3)]


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "cannot be empty"),
        ("3, x", "grade 2 is 'x'"),
        ("9", "top grade is 4"),
        ("1 -1", "grade 2 is '-1'"),
        (" ".join(["1"] * 101), "at most 100"),
    ],
)
def test_bad_typed_grades_are_messages(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        grades_from_text(five(), text, top=4)


def test_custom_gain_mapping_defaults_to_the_grade_and_rejects_text():
    assert parse_gain_mapping({2: 9}, top=2) == {0.0: 0.0, 1.0: 1.0, 2.0: 9.0}
    with pytest.raises(ValueError, match="the gain of grade 1 is 'x': not a number"):
        parse_gain_mapping({1: "x"}, top=2)


# --- the sortable list's actions go through the one move function ------------------------------


def test_a_move_action_moves_by_id():
    items = five()
    out, moved = apply_action(items, {"type": "move", "id": items[4].id, "to": 1, "via": "drag", "nonce": 1.5}, top=4)
    assert moved == (4, 1)
    assert [it.label for it in out] == ["doc A", "doc E", "doc B", "doc C", "doc D"]


def test_grade_and_remove_actions():
    items = five()
    out, moved = apply_action(items, {"type": "grade", "id": items[3].id, "grade": 4}, top=4)
    assert moved is None and out[3].grade == 4
    out, _ = apply_action(items, {"type": "remove", "id": items[0].id}, top=4)
    assert [it.label for it in out] == ["doc B", "doc C", "doc D", "doc E"]


@pytest.mark.parametrize(
    "action, message",
    [
        ("move", "not an action"),
        ({"type": "move", "id": 1, "to": 9}, "positions 1 to 5"),
        ({"type": "move", "id": 42, "to": 0}, "no item has id 42"),
        ({"type": "grade", "id": 1, "grade": 5}, "top grade"),
        ({"type": "jump"}, "unknown action 'jump'"),
    ],
)
def test_malformed_actions_are_value_errors(action, message):
    with pytest.raises(ValueError, match=message):
        apply_action(five(), action, top=4)


def test_the_last_item_cannot_be_removed():
    one = five()[:1]
    with pytest.raises(ValueError, match="at least one item"):
        apply_action(one, {"type": "remove", "id": one[0].id}, top=4)


def test_component_data_carries_labels_as_data_and_one_colour_per_grade():
    data = component_data(
        make_items(["<img src=x onerror=alert(1)>", "b", "c"], [3, 3, 0]), k=2, top=4, texts={"hint": "h"}
    )
    assert data["items"][0]["label"] == "<img src=x onerror=alert(1)>"
    assert data["items"][0]["color"] == data["items"][1]["color"] != data["items"][2]["color"]
    assert data["items"][0]["grade"] == 3 and isinstance(data["items"][0]["grade"], int)
    json.dumps(data)


def test_the_component_never_parses_labels_as_html():
    js = (ROOT / "ndcg_lab" / "components" / "sortable.js").read_text()
    assert "innerHTML" not in js.replace("never innerHTML", "")
    assert "label.textContent = item.label" in js


# --- text catalogues ---------------------------------------------------------------------------

# Error texts may leave out a field that only exists in English (Python's own gzip error, say).
MAY_OMIT = {"error.file_gzip": {"detail"}, "error.file_header_missing": {"what"}, "error.file_header_only": {"what"}}


def test_both_catalogues_have_the_same_keys_and_fields():
    # Error, place and frame templates: the English ones are the core's (ndcg_core.errors), the others in zh.json.
    en = {**catalogue("en"), **TEMPLATES}
    zh = catalogue("zh")
    assert set(en) == set(zh), sorted(set(en) ^ set(zh))
    assert not set(catalogue("en")) & set(TEMPLATES)  # one English text per error: the core's
    for key in en:
        fields = set(re.findall(r"\{(\w+)\}", en[key]))
        assert set(re.findall(r"\{(\w+)\}", zh[key])) == fields - MAY_OMIT.get(key, set()), key


def test_every_key_the_code_uses_is_in_the_catalogue():
    used = set()
    for path in [ROOT / "app.py", *ROOT.glob("pages/*.py"), *ROOT.glob("ui/*.py")]:
        used |= set(re.findall(r"""\bt\(\s*f?["']([a-z_]+\.[a-z_.]+)["']""", path.read_text()))
    static = {key for key in used if "{" not in key}
    assert static, "no keys found: the pattern is wrong"
    missing = static - set(catalogue("en"))
    assert not missing, sorted(missing)


def test_translator_fills_fields_and_falls_back_to_english():
    assert Translator("zh")("playground.ndcg_at", k=5) == "NDCG@5"
    assert Translator("xx").lang == "en"
    assert set(LANGUAGES) == {"en", "zh"}
    with pytest.raises(KeyError, match="no catalogue"):
        catalogue("fr")


def test_breakdown_table_data_formats_cells_and_marks_rows_after_k():
    from ndcg_core.lists.items import list_breakdown
    from ndcg_core.lists.scoring import Scoring
    from ui.widgets.table import COLUMNS, table_data

    frame = list_breakdown(make_items(["a", "<b>"], [3, 0]), Scoring(k=1))
    data = table_data(frame, {c: c.upper() for c in COLUMNS}, "cap", "not counted")
    assert data["columns"][0] == "POSITION" and data["inside"] == [True, False]
    assert data["rows"][0] == ["1", "a", "3", "3 / log2(2) = 3.000", "3.0000", "3", "3.0000", "1.0000"]
    assert data["rows"][1][1] == "<b>"
    assert data["numeric"] == [True, False, True, False, True, True, True, True]
    js = (ROOT / "ndcg_lab" / "components" / "table.js").read_text()
    assert "innerHTML" not in js and "td.textContent = cell" in js
