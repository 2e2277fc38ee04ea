"""The reach exercise's move count (ndcg_core.lists.move_count): one item carried to a new place is one move,
whether dragged there at once or stepped there by ▲ or ▼ one place per tap, as the exercise's fewest moves count
them (take one item, put it anywhere)."""

from bisect import bisect_left

from hypothesis import given
from hypothesis import strategies as st

from ndcg_core.lists.items import make_items, move
from ndcg_core.lists.move_count import MoveCount

# The seeds' list: doc A to doc E graded 3, 2, 3, 0, 1 (ids 1 to 5).
FIVE = make_items([f"doc {c}" for c in "ABCDE"], [3, 2, 3, 0, 1])
D = FIVE[3].id


def counted(actions, items=FIVE):
    """The count after ``actions`` (each: the place an item is taken from, the place it is put) on ``items``, and
    the list they leave."""
    count = MoveCount()
    for source, to in actions:
        count = count.after(items[source].id, source, to)
        items = move(items, source, to)
    return count.count, items


def test_three_taps_of_up_count_as_the_one_drag_that_does_the_same():
    # D from place 4 to place 1: one drag, or ▲ three times (4 -> 3 -> 2 -> 1). Both leave D, A, B, C, E.
    drag, by_drag = counted([(3, 0)])
    taps, by_taps = counted([(3, 2), (2, 1), (1, 0)])
    assert [it.label for it in by_taps] == [it.label for it in by_drag] == ["doc D", "doc A", "doc B", "doc C", "doc E"]
    assert drag == taps == 1


def test_moves_of_different_items_count_one_each():
    # ▲ on D (4 -> 3), then ▲ on E (5 -> 4), then ▼ on A (1 -> 2): three items carried, three moves.
    assert counted([(3, 2), (4, 3), (0, 1)])[0] == 3


def test_an_item_taken_up_again_later_is_a_new_move():
    # D up one place, E up one place, D up again: D's second run starts after another item moved.
    assert counted([(3, 2), (4, 3), (2, 1)])[0] == 3


def test_an_item_stepped_back_to_where_it_was_has_not_moved():
    # ▲ then ▼ on D: the list is as it was, as after a drag dropped where it began (which sends nothing).
    count, items = counted([(3, 2), (2, 3)])
    assert items == FIVE and count == 0
    # Carried on past its place, it is one move again: D from 4 to 5.
    assert counted([(3, 2), (2, 3), (3, 4)])[0] == 1


def test_a_move_to_the_same_place_counts_nothing():
    assert counted([(2, 2)])[0] == 0
    assert MoveCount().after(D, 1, 1) == MoveCount()


def fewest_single_moves(order):
    """The fewest take-one-put-anywhere moves from the ids 1..n in order to ``order``: n minus its longest
    increasing run (patience sorting)."""
    tails: list[int] = []
    for x in order:
        i = bisect_left(tails, x)
        tails[i : i + 1] = [x]
    return len(order) - len(tails)


actions = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=20)


@given(actions)
def test_the_count_is_never_fewer_than_the_moves_needed_nor_more_than_the_actions(steps):
    items = make_items([f"doc {i}" for i in range(6)], [0] * 6)
    count, final = counted(steps, items)
    assert fewest_single_moves([it.id for it in final]) <= count <= sum(a != b for a, b in steps)


@given(st.integers(0, 5), st.integers(0, 5))
def test_stepping_one_item_one_place_at_a_time_counts_as_one_drag(source, to):
    items = make_items([f"doc {i}" for i in range(6)], [0] * 6)
    step = 1 if to > source else -1
    taps = [(i, i + step) for i in range(source, to, step)]
    assert counted(taps, items) == counted([(source, to)], items)
    assert counted(taps, items)[0] == (source != to)
