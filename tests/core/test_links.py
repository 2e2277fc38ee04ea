"""Short links (``ndcg_core.links``), on SQLite and on PostgreSQL: stable codes, their limits and errors, when
each was used, codes drawn again, and links unused for their days purged. They keep their own table, in the
classroom's database but not among its tables."""

import json

import pytest
from storage_support import T0, fields, table

from ndcg_core import InputError
from ndcg_core.classroom import rules
from ndcg_core.classroom.storage import metadata
from ndcg_core.errors import Place
from ndcg_core.links import ShortLinks
from support import error_of


@pytest.fixture
def links(make):
    """The short links over the test's classroom database."""
    return ShortLinks(make().database)


def test_short_links_keep_their_own_table_in_the_classroom_s_database(make):
    classroom = make()
    assert "short_links" not in metadata.tables  # not a table of the classroom's schema
    links = ShortLinks(classroom.database)
    code = links.save("learn", {"step": "2"})
    assert [(r["code"], r["page"]) for r in table(classroom, "short_links")] == [(code, "learn")]
    assert not hasattr(classroom, "save_link") and not hasattr(classroom.rooms, "save_link")
    assert ShortLinks(classroom.database).load(code) == ("learn", {"step": "2"})  # a second one: the table is there


def test_links_unused_for_their_days_are_purged_at_their_instant(make, clock):
    classroom = make()
    links = ShortLinks(classroom.database, keep_days=1)
    kept = links.save("learn", {"a": "1"})
    clock.now = T0 + 86400  # unused for exactly a day: kept
    assert links.purge() == 0 and classroom.rooms.purge() == 0
    assert links.load(kept) == ("learn", {"a": "1"})  # used again now
    clock.now = T0 + 2 * 86400 + 0.5
    assert links.purge() == 1 and table(classroom, "short_links") == []


def test_short_links_are_stable_and_unknown_ones_are_errors(links):
    store = links
    code = store.save("playground", {"s": "eyJ2IjoxfQ", "lang": "zh"})
    assert store.save("playground", {"lang": "zh", "s": "eyJ2IjoxfQ"}) == code
    assert store.load(code.lower()) == ("playground", {"lang": "zh", "s": "eyJ2IjoxfQ"})
    assert store.save("learn", {"step": "2"}) != code
    with pytest.raises(InputError) as caught:
        store.load("ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY")
    assert caught.value.code == "go.unknown"
    with pytest.raises(InputError) as caught:
        store.save("evaluate", {})
    assert caught.value.code == "go.page"


def test_a_short_link_holds_up_to_25000_characters_of_compact_json(links):
    s = links
    fixed = len('{"p":""}')
    code = s.save("playground", {"p": "é" * (25_000 - fixed)})  # é counts as one character
    assert s.load(code) == ("playground", {"p": "é" * (25_000 - fixed)})
    assert table(s.db, "short_links")[0]["params"] == json.dumps(
        {"p": "é" * (25_000 - fixed)}, ensure_ascii=False, separators=(",", ":")
    )
    error = error_of(s.save, "playground", {"p": "x" * (25_001 - fixed)})
    assert fields(error) == ("link.too_long", {"count": 25_001, "limit": 25_000})
    assert fields(error_of(s.save, "home", {})) == (
        "go.page",
        {"value": "'home'", "choices": "playground, learn, practice"},
    )


def test_saving_or_opening_a_link_marks_only_that_link_used(links, clock):
    s = links
    first = s.save("learn", {"a": "1"})
    second = s.save("learn", {"a": "2"})
    clock.now = T0 + 100
    assert s.save("learn", {"a": "1"}) == first
    used = {r["code"]: r["used_at"] for r in table(s.db, "short_links")}
    assert used == {first: T0 + 100, second: T0}
    clock.now = T0 + 200
    assert s.load(second.lower()) == ("learn", {"a": "2"})
    used = {r["code"]: r["used_at"] for r in table(s.db, "short_links")}
    assert used == {first: T0 + 100, second: T0 + 200}


def test_an_unknown_or_misspelt_short_code(links):
    s = links
    assert fields(error_of(s.load, "ABCDEF")) == ("go.unknown", {"code": "ABCDEF"})
    assert fields(error_of(s.load, "")) == ("room.code_blank", {"place": Place("go.code")})


def test_a_taken_link_code_is_drawn_again_twenty_times_at_most(links, monkeypatch):
    s = links
    taken = s.save("learn", {"a": "1"})
    codes = iter([taken, "ABCDEF"])
    monkeypatch.setattr(rules, "new_code", lambda: next(codes))
    assert s.save("learn", {"a": "2"}) == "ABCDEF"
    drawn = []
    monkeypatch.setattr(rules, "new_code", lambda: drawn.append(1) or taken)
    with pytest.raises(RuntimeError, match="^could not draw a free short-link code$"):
        s.save("learn", {"a": "3"})
    assert len(drawn) == 20
