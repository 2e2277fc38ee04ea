"""Anyone may make a short link, so their number is bounded (``ndcg_core.links.LinkLimits``), on SQLite and on
PostgreSQL: one client makes at most ``short_links_per_hour`` new links in any hour (the same link asked for again
costs nothing, and another client is not held back), and the table keeps at most ``max_short_links``, a new link
taking the place of one unused for its days, else of the least lately used. Both limits are read from the
environment."""

import pytest
from storage_support import T0, table

from ndcg_core.links import HOUR, LinkLimits, ShortLinks
from support import error_of


def test_a_client_makes_at_most_its_hourly_links_and_then_is_told_why(make, clock):
    links = ShortLinks(make().database, limits=LinkLimits(short_links_per_hour=3, max_short_links=100))
    made = [links.save("learn", {"step": str(n)}, "10.0.0.1") for n in range(3)]
    assert len(set(made)) == 3
    error = error_of(links.save, "learn", {"step": "3"}, "10.0.0.1")
    assert (error.code, error.fields) == ("go.too_many", {"count": 3})
    assert links.save("learn", {"step": "1"}, "10.0.0.1") == made[1]  # asked for again: not a new link
    assert links.save("learn", {"step": "3"}, "10.0.0.2")  # another client is not held back
    clock.now = T0 + HOUR  # the first three are an hour old now: forgotten
    assert links.save("learn", {"step": "4"}, "10.0.0.1")


def test_the_server_keeps_at_most_its_links_and_a_new_one_takes_the_least_used_one_s_place(make, clock):
    classroom = make()
    links = ShortLinks(classroom.database, limits=LinkLimits(short_links_per_hour=100, max_short_links=3))
    first, second, third = (links.save("learn", {"step": str(n)}, f"10.0.0.{n}") for n in range(3))
    for step, code in ((1, second), (2, third), (0, first)):
        clock.now += 1
        assert links.load(code) == ("learn", {"step": str(step)})  # first is now the one most lately used
    clock.now += 1
    fourth = links.save("learn", {"step": "3"})
    assert sorted(r["code"] for r in table(classroom, "short_links")) == sorted([first, third, fourth])
    assert error_of(links.load, second).code == "go.unknown"


def test_links_unused_for_their_days_make_way_first(make, clock):
    classroom = make()
    links = ShortLinks(classroom.database, keep_days=1, limits=LinkLimits(max_short_links=2))
    old = links.save("learn", {"step": "0"})
    clock.now += 2 * 86400
    recent = links.save("learn", {"step": "1"})
    newest = links.save("learn", {"step": "2"})
    assert sorted(r["code"] for r in table(classroom, "short_links")) == sorted([recent, newest])
    assert old not in (recent, newest)


def test_the_limits_are_read_from_the_environment():
    assert LinkLimits.from_environment({}) == LinkLimits(short_links_per_hour=60, max_short_links=10_000)
    env = {"NDCG_LAB_SHORT_LINKS_PER_HOUR": "5", "NDCG_LAB_MAX_SHORT_LINKS": "200"}
    assert LinkLimits.from_environment(env) == LinkLimits(short_links_per_hour=5, max_short_links=200)
    for bad in ("0", "-1", "many", "1.5"):
        error = error_of(LinkLimits.from_environment, {"NDCG_LAB_MAX_SHORT_LINKS": bad})
        assert (error.code, error.fields["name"]) == ("room.setting", "NDCG_LAB_MAX_SHORT_LINKS")


@pytest.mark.parametrize("client", ["local", "192.0.2.7", "2001:db8::1"])
def test_a_short_link_s_maker_is_kept_for_an_hour_only(make, clock, client):
    classroom = make()
    links = ShortLinks(classroom.database)
    links.save("learn", {"step": "1"}, client)
    assert [(r["client"], r["made_at"]) for r in table(classroom, "short_link_makers")] == [(client, T0)]
    clock.now = T0 + HOUR + 1
    links.save("learn", {"step": "2"}, client)
    assert [(r["client"], r["made_at"]) for r in table(classroom, "short_link_makers")] == [(client, T0 + HOUR + 1)]
