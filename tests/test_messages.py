"""Error messages from the core, shown in the page's language (ui.messages)."""

import re

import pytest
from conftest import ROOT, plain
from streamlit.testing.v1 import AppTest

from ndcg_core import evaluate, read_qrels, read_run, validate_grades, validate_k
from ndcg_core.evaluate import validate_cutoffs
from ndcg_core.exercises import Exercise, check, check_seed, parse_number
from ndcg_core.ranked_list import (
    check_grade,
    check_label,
    check_size,
    check_top_grade,
    make_items,
)
from ui.editing import (
    apply_table_edits,
    grades_from_text,
    parse_gain_mapping,
    typed_queries_to_trec,
)
from ui.evaluate_view import parse_cutoffs
from ui.i18n import Translator, catalogue
from ui.messages import SHAPES, WHERE, localise
from ui.metrics_view import parse_ranking
from ui.share import decode_playground, encode_playground, whole_number
from ui.sortable import apply_action
from ui.stats import paired_comparison


def message_of(call):
    try:
        call()
    except ValueError as err:
        return str(err)
    raise AssertionError("no ValueError")


def link_with(**changes):
    """A valid Playground link with some fields replaced, as a tampered link would have."""
    import base64
    import json

    param = encode_playground(make_items(["a", "b"], [3, 1]), extra=[], k=2, top=4, gain="linear", gain_map={},
                              discount="log2", jk_base=2.0, ideal="list")
    state = json.loads(base64.urlsafe_b64decode(param + "=" * (-len(param) % 4)))
    state.update(changes)
    for key in [k for k, v in changes.items() if v is None]:
        del state[key]
    return base64.urlsafe_b64encode(json.dumps(state).encode()).decode().rstrip("=")


# Real messages, made by calling the code with bad input: if a message's wording changes, its shape
# no longer matches and test_every_message_has_a_known_shape fails.
CALLS = {
    "blank grade": lambda: validate_grades(["3", " "]),
    "word grade": lambda: validate_grades(["3", "x"]),
    "bool grade": lambda: validate_grades([True]),
    "nan grade": lambda: validate_grades([float("nan")]),
    "infinite grade": lambda: validate_grades([float("inf")]),
    "negative grade": lambda: validate_grades([2, -1]),
    "negative judged grade": lambda: validate_grades([1, -1], "judged grade"),
    "grade above top": lambda: check_grade(9, 4, "row 2, grade"),
    "typed grade above top": lambda: check_grade(7, 4, "grade 3"),
    "new grade": lambda: check_grade("x", 4, "the new grade"),
    "blank label": lambda: check_label(" ", "row 3, label"),
    "long label": lambda: check_label("x" * 500, "label 2"),
    "top grade": lambda: check_top_grade(99),
    "too many items": lambda: check_size(10_000),
    "k zero": lambda: validate_k(0),
    "k fraction": lambda: validate_k(1.5),
    "repeated cutoffs": lambda: validate_cutoffs([5, 5]),
    "no answer typed": lambda: parse_number(" "),
    "decimal comma": lambda: parse_number("0,5"),
    "word answer": lambda: parse_number("half"),
    "infinite answer": lambda: parse_number("inf"),
    "no choice": lambda: check(Exercise("better_order", 1, 1, {}, "A"), None),
    "seed word": lambda: check_seed("abc"),
    "seed range": lambda: check_seed(-4),
    "run columns": lambda: read_run(b"q Q0 a 1\n", name="run.txt"),
    "qrels columns": lambda: read_qrels(b"q 0 a\nq 0 b\nq 0 c\nq 0 d\nq 0 e\n", name="qrels.txt"),
    "run score": lambda: read_run(b"q Q0 a 1 high s\n", name="run.txt"),
    "run nan score": lambda: read_run(b"q Q0 a 1 nan s\n", name="run.txt"),
    "qrels fraction": lambda: read_qrels(b"q 0 a 1.5\n", name="qrels.txt"),
    "run duplicate": lambda: read_run(b"q Q0 a 1 2 s\nq Q0 a 2 1 s\n", name="run.txt"),
    "qrels duplicate": lambda: read_qrels(b"q 0 a 1\nq 0 a 2\n", name="qrels.txt"),
    "binary": lambda: read_run(b"\x89PNG\r\n\x1a\n\x00\x00", name="run.txt"),
    "not utf-8": lambda: read_run(b"q Q0 \xff\xfe 1 1 s\n", name="run.txt"),
    "bad gzip": lambda: read_run(b"\x1f\x8bgarbage", name="run.gz"),
    "empty file": lambda: read_run(b"", name="run.txt"),
    "only comments": lambda: read_run(b"# nothing\n", name="run.txt"),
    "csv header": lambda: read_qrels(b"qid,docno\nq,a\n", name="qrels.csv"),
    "csv columns": lambda: read_run(b"qid,docno,score\nq,a,1\nq,b\n", name="run.csv"),
    "csv header only": lambda: read_run(b"qid,docno,score\n", name="run.csv"),
    "csv empty docno": lambda: read_run(b"qid,docno,score\nq,,1\n", name="run.csv"),
    "no shared query": lambda: evaluate(read_qrels(b"1 0 a 1\n", name="q.txt"), read_run(b"2 Q0 a 1 1 s\n", name="r.txt")),
    "custom gain word": lambda: parse_gain_mapping({1: "x"}, 4),
    "custom gain infinite": lambda: parse_gain_mapping({2: float("inf")}, 4),
    "table blank query": lambda: typed_queries_to_trec([{"query": "", "document": "a", "grade": "1"}]),
    "table spaced document": lambda: typed_queries_to_trec([{"query": "q", "document": "a b", "grade": "1"}]),
    "table no grade or rank": lambda: typed_queries_to_trec([{"query": "q", "document": "a"}]),
    "table word grade": lambda: typed_queries_to_trec([{"query": "q", "document": "a", "grade": "x"}]),
    "table fraction grade": lambda: typed_queries_to_trec([{"query": "q", "document": "a", "grade": "1.5"}]),
    "table fraction rank": lambda: typed_queries_to_trec([{"query": "q", "document": "a", "rank": "1.5"}]),
    "table rank zero": lambda: typed_queries_to_trec([{"query": "q", "document": "a", "rank": "0"}]),
    "table only ranks": lambda: typed_queries_to_trec([{"query": "q", "document": "a", "rank": "1"}]),
    "table only grades": lambda: typed_queries_to_trec([{"query": "q", "document": "a", "grade": "1"}]),
    "edited list empty": lambda: apply_table_edits(make_items(["a"], [1]), {"deleted_rows": [0]}, 4),
    "typed list empty": lambda: grades_from_text(make_items(["a"], [1]), " , ", 4),
    "last item removed": lambda: apply_action(make_items(["a"], [1]), {"type": "remove", "id": 1}, 4),
    "ranking empty": lambda: parse_ranking(" "),
    "ranking long": lambda: parse_ranking("1 " * 500),
    "no k": lambda: parse_cutoffs(" "),
    "k word": lambda: parse_cutoffs("5, ten"),
    "k range": lambda: parse_cutoffs("5, 0"),
    "k many": lambda: parse_cutoffs(" ".join(str(k) for k in range(1, 40))),
    "paired lengths": lambda: paired_comparison([0.1, 0.2], [0.3]),
    "paired one query": lambda: paired_comparison([0.1], [0.3]),
    "link empty": lambda: decode_playground(""),
    "link long": lambda: decode_playground("x" * 100_000),
    "link damaged": lambda: decode_playground("%%%"),
    "link version": lambda: decode_playground(link_with(v=99)),
    "link gain": lambda: decode_playground(link_with(gain="cubic")),
    "link lacks": lambda: decode_playground(link_with(k=None)),
    "link kind": lambda: decode_playground(link_with(k="two")),
    "link k": lambda: decode_playground(link_with(k=9)),
    "link label": lambda: decode_playground(link_with(l=["a", ""])),
    "link step word": lambda: whole_number("two", "step", 1, 6),
    "link step range": lambda: whole_number("9", "step", 1, 6),
}
MESSAGES = {name: message_of(call) for name, call in CALLS.items()}
ENGLISH_WORDS = re.compile(r"\b(is|not|must|line|expected|the|link|grade|rank|query|document|table|number|of|got|at|position|row|label|gain)\b")


def shape_of(line):
    return next((name for name, shape in SHAPES.items() if shape.fullmatch(line)), None)


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_every_message_has_a_known_shape(name):
    for line in MESSAGES[name].split("\n"):
        shape = shape_of(line)
        assert shape, f"no shape for {line!r}"
        where = SHAPES[shape].fullmatch(line).groupdict().get("where")
        assert where is None or any(w.fullmatch(where) for w in WHERE.values()), f"no place for {where!r}"


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_the_english_templates_give_back_the_core_message(name):
    assert localise(MESSAGES[name], Translator("en")) == MESSAGES[name]


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_chinese_has_no_english_left_outside_the_quoted_values(name):
    zh = localise(MESSAGES[name], Translator("zh"))
    assert re.search(r"[\u4e00-\u9fff]", zh), zh
    # What stays as it came: quoted values, file names and lists of column names.
    quoted = re.sub(r"'[^']*'|\"[^\"]*\"|[(（][^)）]*\b(qid|rel|docno|score)\b[^)）]*[)）]|[\w.-]+\.(txt|csv|gz)", "", zh)
    assert not ENGLISH_WORDS.search(quoted), zh


def test_the_quoted_lines_of_a_file_message_are_translated_too():
    message = MESSAGES["qrels columns"]
    assert message.count("\n") == 4 and "and 2 more bad lines" in message
    zh = localise(message, Translator("zh")).split("\n")
    assert zh[0] == "qrels.txt 第 1 行：应有 4 列（qid iter docno rel），实际有 3 列"
    assert zh[1] == "  第 1 行：'q 0 a'（应有 4 列（qid iter docno rel），实际有 3 列）"
    assert zh[-1] == "  ……另有 2 行有误"


def test_a_message_of_an_unknown_shape_is_shown_as_it_came():
    assert localise("something new went wrong", Translator("zh")) == "something new went wrong"


def test_every_shape_and_place_has_a_text_in_every_language():
    for lang in ("en", "zh"):
        texts = catalogue(lang)
        assert not [n for n in SHAPES if f"error.{n}" not in texts]
        assert not [n for n in WHERE if f"where.{n}" not in texts]


def test_a_bad_grade_on_the_chinese_home_page_is_explained_in_chinese():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.session_state["lang"] = "zh"
    at.run()
    at.text_input(key="home_grades").set_value("3, x, 2").run()
    assert not at.exception
    assert "第 2 位的等级是 'x'：这不是数字" in plain(at.error[0].value)


def test_a_file_over_the_line_limit_is_explained_in_chinese(monkeypatch):
    from ui import evaluate_view

    monkeypatch.setattr(evaluate_view, "MAX_ROWS", 1)
    message = message_of(lambda: evaluate_view._parsed("run", "over-limit", "big.txt", b"1 Q0 a 1 1 t\n1 Q0 b 2 0 t\n"))
    assert localise(message, Translator("en")) == message
    assert localise(message, Translator("zh")) == "big.txt 有 2 行；NDCG Lab 最多读取 1 行：请按查询拆分"
