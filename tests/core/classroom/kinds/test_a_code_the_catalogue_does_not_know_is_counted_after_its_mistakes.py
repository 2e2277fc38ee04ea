"""``grouped`` counts any code it is given: a code the mistake catalogue does not know (a caller's own group) is
kept with its count, ordered by that count like the mistakes, and after the catalogue's mistakes of the same count
(their order is the catalogue's, the likeliest first; the unknown ones have no place in it)."""

from ndcg_core.classroom.kinds.tally import Group, grouped, mistake_codes

UNKNOWN = "slip_of_the_pen"


def test_the_unknown_code_is_no_code_of_the_catalogue():
    assert UNKNOWN not in mistake_codes()


def test_an_unknown_code_comes_after_the_known_mistakes_of_its_count():
    first, second = mistake_codes()[:2]
    assert grouped([UNKNOWN, second, first, "right", "other"]) == (
        Group("right", 1),
        Group(first, 1),
        Group(second, 1),
        Group(UNKNOWN, 1),
        Group("other", 1),
    )


def test_an_unknown_code_counted_more_often_comes_first_and_unknown_ones_tie_by_name():
    known = mistake_codes()[0]
    codes = ["zz_own", known, UNKNOWN, "aa_own", UNKNOWN, "zz_own", known, "zz_own"]
    assert grouped(codes) == (
        Group("zz_own", 3),
        Group(known, 2),
        Group(UNKNOWN, 2),
        Group("aa_own", 1),
    )
