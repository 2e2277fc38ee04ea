"""The projector view through Streamlit's AppTest: what it shows is for the class, not the lecturer (while answers
are open it says neutrally that the answer comes later; the control page keeps the lecturer's instruction), in both
languages, and a room that has ended says so on the projector instead of inviting phones to join."""

import pytest
from test_classroom_page import button, open_activity, session, start_room, texts

LECTURER = ("you press Reveal", "按下“揭晓”")


@pytest.fixture
def data_dir(classroom_db):
    return classroom_db


def projector(teacher, code, lang="en"):
    """The projector view opened in the teacher's browser (which holds the key)."""
    screen = session(lang, room=code, view="screen")
    screen.session_state["classroom"].key = teacher.session_state["classroom"].key  # as the browser's memory does
    screen.run()
    assert not screen.exception, screen.exception
    return screen


@pytest.mark.parametrize(
    "kind, choices, control_line, screen_line",
    [
        (
            "predict",
            {"_w_cr_source": "preset", "_w_cr_preset": "five"},
            "The true value stays hidden until you press Reveal.",
            "The true value is shown once the answers are in.",
        ),
        (
            "judge",
            {"_w_cr_source": "preset", "_w_cr_preset": "five"},
            "appear when you press Reveal.",
            "are shown once the grades are in.",
        ),
    ],
)
def test_while_answers_are_open_the_projector_says_the_answer_comes_later_not_what_the_lecturer_presses(
    data_dir, kind, choices, control_line, screen_line
):
    teacher, code = start_room(data_dir)
    open_activity(teacher, kind, **choices)
    assert control_line in texts(teacher)  # the lecturer's own instruction stays on the control page
    for lang in ("en", "zh"):
        shown = texts(projector(teacher, code, lang))
        assert not [words for words in LECTURER if words in shown], shown
    shown = texts(projector(teacher, code))
    assert screen_line in shown and control_line not in shown


def test_an_ended_room_says_so_on_the_projector_and_invites_nobody_to_join(data_dir, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_PUBLIC_URL", "https://ndcg.example.edu")  # a join link the projector could show
    teacher, code = start_room(data_dir)
    open_activity(teacher, "predict", _w_cr_source="preset", _w_cr_preset="five")
    screen = projector(teacher, code)
    assert "Join with a phone" in texts(screen) and [b.key for b in screen.button] == ["btn_cr_big_qr"]
    button(teacher, "btn_cr_end").click().run()
    for lang, ended in (("en", "This room has ended."), ("zh", "本房间已结束。")):
        screen = projector(teacher, code, lang)
        shown = texts(screen)
        assert ended in shown
        assert "Join with a phone" not in shown and "用手机加入" not in shown
        assert f"room={code}" not in shown and not screen.image and not screen.button  # no link, QR code or button


def test_practice_together_gives_its_seed_to_the_lecturer_not_the_class(data_dir):
    teacher, code = start_room(data_dir)
    open_activity(teacher, "practice", _w_cr_practice_seed=2026, _w_cr_practice_count=3)
    assert "Exercise set 2026" in texts(teacher)  # to run the same set again
    for lang in ("en", "zh"):
        shown = texts(projector(teacher, code, lang))
        assert "2026" not in shown and "seed" not in shown.lower() and "种子" not in shown
    assert "3 exercises. Answer on your phone" in texts(projector(teacher, code))
