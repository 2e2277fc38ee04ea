"""Predict first on the Playground: with the switch on, a move is held (the list stays) until the learner has
guessed which way NDCG@k goes and roughly how far; the reveal makes it, puts the guess beside the truth and names
the mistake behind a wrong guess. Changes of NDCG are written from the formula."""

from math import log2

from streamlit.testing.v1 import AppTest

from ndcg_core.lists.items import make_items, move
from support import ROOT, playground_list, seed_state
from ui.state import Change, Held

ITEMS = make_items(list("ABCDE"), [3, 2, 3, 0, 1])  # the seeds' list
DCG = 3 + 2 / log2(3) + 3 / 2 + 1 / log2(6)
IDCG = 3 + 3 / log2(3) + 2 / 2 + 1 / log2(5)


def held_move(lang="en"):
    """The Playground holding E (a 1) moved from 5 to 1."""
    before = playground_list(ITEMS)
    after = before.with_items(move(ITEMS, 4, 0))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=30)
    at.switch_page("pages/1_Playground.py")
    held = Held(after, Change("move", before, {"label": "E", "src": "5", "dst": "1"}))
    seed_state(at, pg_spec=before, pg_predict=True, pg_held=held, lang=lang)
    return at.run()


def test_a_held_move_asks_first_and_leaves_the_list_as_it_was():
    at = held_move()
    assert any("Before moving E from 5 to 1: what will it do to NDCG@5?" in m.value for m in at.markdown)
    assert at.metric[0].value == f"{DCG / IDCG:.4f}"  # not made yet
    assert at.session_state["playground"].spec.labels == tuple("ABCDE")


def test_revealing_without_a_direction_is_refused_in_words():
    at = held_move()
    at.button(key="btn_reveal").click().run()
    assert at.session_state["playground"].held is not None
    errors = [e.value for e in at.error]
    assert any("Choose first whether NDCG goes up, goes down or stays the same" in e for e in errors), errors


def test_a_wrong_guess_is_shown_beside_the_truth_with_its_mistake_named():
    at = held_move()
    at.radio(key="_w_pg_guess_direction").set_value("up").run()
    at.radio(key="_w_pg_guess_size").set_value("small").run()
    at.button(key="btn_reveal").click().run()
    new_dcg = 1 + 3 / log2(3) + 2 / 2 + 3 / log2(5)
    change = (new_dcg - DCG) / IDCG
    assert at.metric[0].value == f"{new_dcg / IDCG:.4f}"
    (warning,) = at.warning
    assert warning.value.startswith(
        f"Not quite: you guessed up, a little (under 0.05), but NDCG@5 went down, a lot (0.15 or more) ({change:+.4f})."
    )
    assert "every item it passed moved one place the other way" in warning.value
    # The explanation of the move is there as after any move.
    assert any(f"DCG@5: {DCG:.4f} → {new_dcg:.4f}" in m.value for m in at.markdown)


def test_a_right_guess_says_so_in_chinese():
    at = held_move("zh")
    at.radio(key="_w_pg_guess_direction").set_value("down").run()
    at.radio(key="_w_pg_guess_size").set_value("large").run()
    at.button(key="btn_reveal").click().run()
    (success,) = at.success
    assert success.value.startswith("猜对了")
    assert not at.warning


def test_cancelling_drops_the_held_move():
    at = held_move()
    at.button(key="btn_cancel_held").click().run()
    assert at.session_state["playground"].held is None
    assert at.session_state["playground"].spec.labels == tuple("ABCDE")
    assert not any("what will it do" in m.value for m in at.markdown)
