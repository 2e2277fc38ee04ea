"""The results CSV (issue 45): a Practice "one DCG term" row names the position it asks about, a number answer is
given as typed ("1,5") beside the number it was read as (1.5), and Right and Close are columns apart, as the
projector counts them, in English and Chinese."""

import csv
import io
from math import log2

from ndcg_core.classroom.kinds.base import Answer
from ndcg_core.classroom.kinds.lists import preset_list
from ndcg_core.classroom.kinds.practice import ExerciseAnswer, practice_activity
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.results import Taken, room_results
from ui.classroom_results import results_csv
from ui.i18n import Translator

PRACTICE = practice_activity(2026, 1)  # seed 2026's first exercise: one DCG term, grade 3 at position 3
PREDICT = Predict(preset_list("five"))


def table(lang, results):
    return list(csv.DictReader(io.StringIO(results_csv(Translator(lang), results).decode("utf-8-sig"))))


def test_a_dcg_term_row_names_its_position_and_gives_the_answer_as_typed_and_as_read():
    [ex] = PRACTICE.exercises()
    assert ex.kind == "dcg_term"
    position = ex.data["position"]
    assert ex.answer == ex.data["grades"][position - 1] / log2(position + 1) == 3 / log2(3 + 1)  # the term asked
    typed = "1,5"  # a decimal comma, as many phones type it
    answers = (Answer(1, "Ana", 0, PRACTICE.check(typed)),)
    [row, _total] = table("en", room_results([Taken(1, 1, PRACTICE, answers, ())]))
    assert row["Position asked about"] == str(position) == "3"
    assert (row["Answer"], row["Answer as read"]) == ("1,5", "1.5")
    assert row["Right"] == "yes"
    [row_zh, _] = table("zh", room_results([Taken(1, 1, PRACTICE, answers, ())]))
    assert (row_zh["所问的位置"], row_zh["回答"], row_zh["读作的数值"]) == ("3", "1,5", "1.5")


def test_a_choice_has_no_number_read_and_an_unanswered_row_none():
    swap = practice_activity(2026, 5)  # its fifth exercise: predict a swap, a choice
    answers = (Answer(1, "Ana", 4, ExerciseAnswer("up", False)),)
    rows = table("en", room_results([Taken(1, 1, swap, answers, ())]))
    assert [(r["Exercise"], r["Answer as read"]) for r in rows[:5]] == [(str(n), "") for n in range(1, 6)]


def test_right_and_close_are_columns_apart_as_the_projector_counts_them():
    truth = PREDICT.truth()
    exact, close, far = f"{truth:.2f}", f"{truth - 0.04:.2f}", f"{truth - 0.3:.2f}"
    answers = tuple(Answer(n, f"s{n}", 0, PREDICT.check(v)) for n, v in enumerate((exact, close, far), start=1))
    rows = table("en", room_results([Taken(1, 1, PREDICT, answers, ())]))
    assert [(r["Right"], r["Close (within 0.05)"]) for r in rows[:3]] == [("yes", "no"), ("no", "yes"), ("no", "no")]
    assert [(r["Right"], r["Close (within 0.05)"]) for r in rows[3:]] == [
        ("1 right", "0 close"),
        ("0 right", "1 close"),
        ("0 right", "0 close"),
    ]
    zh = table("zh", room_results([Taken(1, 1, PREDICT, answers, ())]))
    assert [(r["是否答对"], r["接近（相差 0.05 以内）"]) for r in zh[:3]] == [("对", "错"), ("错", "对"), ("错", "错")]
