"""The results CSV and the end-of-class summary in the teacher's words: option labels students saw rather than
codes, each question's details, a row for a student who did not answer, per-student totals, in English and
Chinese, from a real room on a temporary SQLite file and on PostgreSQL."""

import csv
import io
from math import log2

import pytest

from ndcg_core import ndcg_at_k
from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.base import Scale
from ndcg_core.classroom.kinds.compare import compare_activity
from ndcg_core.classroom.kinds.judge import Judge
from ndcg_core.classroom.kinds.lists import activity_list, preset_list
from ndcg_core.classroom.kinds.practice import practice_activity
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.kinds.rank import rank_activity
from ndcg_core.classroom.storage import Classroom
from ndcg_core.lists.discounts import DISCOUNTS
from ui.classroom_results import results_csv, summary_frame
from ui.i18n import Translator

T0 = 1_800_000_000.0


@pytest.fixture
def room(classroom_db):
    """A compare (Ana votes B, wrong; the other student does not vote), revealed, run again (Ana votes A, the
    other "the same"); a Practice of 5 (Ana: exercise 5, a swap, "up"; the other: exercise 1, 1.5); a rank (Ana
    sends the best order). The second student has no nickname."""
    now = [T0]
    store = Classroom(classroom_db, clock=lambda: now[0])
    code, key = store.rooms.create()
    code = code.code
    ana, other = rules.new_student_id(), rules.new_student_id()
    store.students.join(code, ana, "=Ana")
    store.students.join(code, other)
    first = store.rooms.open_activity(code, key, compare_activity("seed003", "ndcg"))
    store.answers.submit(code, ana, first.id, [(0, "b")])
    store.rooms.set_phase(code, key, "revealed")
    now[0] += 60
    second = store.rooms.run_again(code, key)
    store.answers.submit(code, ana, second.id, [(0, "a")])
    store.answers.submit(code, other, second.id, [(0, "same")])
    practice = store.rooms.open_activity(code, key, practice_activity(2026, 5))
    store.answers.submit(code, ana, practice.id, [(4, "up")])
    store.answers.submit(code, other, practice.id, [(0, "1.5")])
    rank = store.rooms.open_activity(code, key, rank_activity(preset_list("five"), "small_k"))
    store.answers.submit(code, ana, rank.id, [(0, [0, 2, 1, 4, 3])])
    yield store.answers.results(code), store.answers.class_summary(code)
    store.close()


def read(data):
    assert data.startswith(b"\xef\xbb\xbf")  # UTF-8 with a BOM: spreadsheets read Chinese right
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


HEADER = [
    "Activity",
    "Round",
    "Kind",
    "Query",
    "Details",
    "Exercise",
    "Position asked about",
    "Grades in ranked order",
    "Grades of judged results not retrieved",
    "Metric",
    "Cutoff k",
    "Gain",
    "Discount",
    "Discount base",
    "Ideal from",
    "Student",
    "Answer",
    "Answer as read",
    "Correct answer",
    "Right",
    "Close (within 0.05)",
    "Mistake",
    "Class median grade",
    "Grade minus class median",
    "NDCG reached",
    "Answered at (UTC)",
]


def cells(row, *names):
    return [row[HEADER.index(name)] for name in names]


def test_the_csv_in_english_has_labels_details_unanswered_rows_and_totals(room):
    results, _ = room
    header, *rows = read(results_csv(Translator("en"), results))
    assert header == HEADER
    assert len(rows) == 2 + 2 + 2 * 5 + 2 + 2  # two students on each question, then two totals
    compare = "under NDCG@5; A: 成都3天游攻略:4, 成都美食推荐:2"
    first, second = rows[0], rows[1]
    assert first[:3] == ["1", "1", "Which is better?"] and first[4].startswith(compare)
    assert first[4].endswith("judged grades 4, 2, 2, 2, 1, 0, 0, 0, 0; k = 5")
    # What the vote is judged under, a value a column: NDCG@5, linear gain, log2, every judged result as the ideal.
    assert cells(first, "Metric", "Cutoff k", "Gain", "Discount", "Discount base", "Ideal from") == [
        "NDCG",
        "5",
        "Linear",
        "log2(i + 1)",
        "",
        "every judged result",
    ]
    assert cells(first, "Student", "Answer", "Correct answer", "Right", "NDCG reached") == ["'=Ana", "B", "A", "no", ""]
    assert first[-1] == "2027-01-15T08:00:00+00:00"
    assert second[:2] == ["1", "1"] and cells(second, "Student", "Answer", "Correct answer", "Right") == [
        "student 2",
        "",
        "A",
        "no answer",
    ]
    # Round 2 is a round of activity 1, as every screen numbers it.
    assert [r[:2] + cells(r, "Student", "Answer", "Correct answer", "Right") for r in rows[2:4]] == [
        ["1", "2", "'=Ana", "A", "A", "yes"],
        ["1", "2", "student 2", "The same", "A", "no"],
    ]
    practice = rows[4:14]
    assert practice[0][:3] == ["2", "1", "Practice together"]
    # One DCG term: the other's 1.5 is 3 / log2(3 + 1), the term at position 3, which the row names.
    assert cells(practice[0], "Details", "Exercise", "Position asked about", "Student", "Answer") == [
        "seed 2026, exercise 1 of 5: one DCG term",
        "1",
        "3",
        "'=Ana",
        "",
    ]
    assert cells(practice[4], "Details", "Exercise", "Student", "Answer", "Correct answer", "Right") == [
        "seed 2026, exercise 5 of 5: predict a swap",
        "5",
        "'=Ana",
        "It rises",  # the choice as its button said, not "up"
        "It falls",
        "no",
    ]
    assert cells(practice[4], "Position asked about", "Answer as read") == ["", ""]  # a choice: no position, no number
    assert cells(practice[5], "Exercise", "Student", "Answer", "Answer as read", "Correct answer", "Right") == [
        "1",
        "student 2",
        "1.5",
        "1.5",
        "1.5000",
        "yes",
    ]
    rank = rows[14]
    assert rank[:3] == ["3", "1", "Rank it best"]
    assert rank[4] == (
        "list doc A:3, doc B:2, doc C:3, doc D:0, doc E:1; k = 3; gain: Linear; "
        "ideal: the list's own grades; twist: a small k (3)"
    )
    assert cells(rank, "Grades in ranked order", "Cutoff k", "Ideal from") == [
        "3 2 3 0 1",
        "3",
        "the list's own grades",
    ]
    assert cells(rank, "Answer", "Correct answer", "Right", "NDCG reached") == [
        "doc A > doc C > doc B > doc E > doc D",
        "doc A > doc C > doc B > doc E > doc D (NDCG@3 1.0000)",
        "yes",
        "1.0000",
    ]
    assert cells(rows[15], "Student", "Answer", "Correct answer", "Right") == [
        "student 2",
        "",
        *cells(rank, "Correct answer"),
        "no answer",
    ]
    # Ana: 2 compare rounds + 5 exercises + 1 rank = 8 questions, answered 4 (1 compare, 1 exercise, 1 rank, and
    # round 2), right 2 (round 2 and the rank); the other: answered round 2 and exercise 1, right 1.
    total = ["Total", *[""] * 14]
    assert rows[16] == [*total, "'=Ana", "answered 4 of 8", "", "", "2 right", "0 close", "", "", "", "1.0000", ""]
    assert rows[17] == [*total, "student 2", "answered 2 of 8", "", "", "1 right", "0 close", "", "", "", "", ""]


def test_every_header_of_the_csv_starts_with_a_capital(room):
    results, _ = room
    header = read(results_csv(Translator("en"), results, points=True))[0]
    assert [h for h in header if not h[0].isupper()] == []
    total_rows = [r for r in read(results_csv(Translator("en"), results))[1:] if r[0].lower() == "total"]
    assert {r[0] for r in total_rows} == {"Total"}


def test_the_csv_in_chinese_words_headers_labels_and_totals_in_chinese(room):
    results, _ = room
    header, *rows = read(results_csv(Translator("zh"), results))
    assert header[:3] == ["活动", "轮次", "类型"] and header[19:21] == ["是否答对", "接近（相差 0.05 以内）"]
    assert rows[0][2] == "哪个更好？" and rows[0][4].startswith("按 NDCG@5 评判")
    assert rows[1][15:20] == ["学生 2", "", "", "A", "未作答"]
    assert rows[3][16] == "一样好"  # the vote as the Chinese phone showed it
    assert [rows[8][16], rows[8][18]] == [
        Translator("zh")("practice.choice.up"),
        Translator("zh")("practice.choice.down"),
    ]
    assert rows[16][0] == "合计" and rows[16][16] == "8 题中答了 4 题" and rows[16][19:21] == ["答对 2 题", "接近 0 题"]


def test_the_summary_gives_participation_and_share_right_per_activity(room):
    _, summary = room
    assert [(o.number, o.kind, o.round, o.joined, o.answered, o.answers, o.right) for o in summary] == [
        (1, "compare", 1, 2, 1, 1, 0),
        (1, "compare", 2, 2, 2, 2, 1),  # round 2 of activity 1, not activity 2
        (2, "practice", 1, 2, 2, 2, 1),  # Ana's swap is wrong; the other's DCG term, 3 / log2(3 + 1) = 1.5, is right
        (3, "rank", 1, 2, 1, 1, 1),
    ]
    frame = summary_frame(Translator("en"), summary)
    assert list(frame.columns) == ["Activity", "Answered", "Right answers", "Share right", "Mistakes"]
    assert frame.iloc[1].tolist() == ["Activity 1: Which is better? · Round 2", "2 of 2", "1 of 2", "50%", ""]
    assert frame.iloc[0].tolist() == ["Activity 1: Which is better?", "1 of 2", "0 of 1", "0%", ""]


@pytest.fixture
def judged_room(classroom_db):
    """A Predict under exponential gain and Järvelin-Kekäläinen's discount, with two judged results the list
    missed (Ana estimates 0.9, off by more than 0.05); then three students judge three results: grades (2, 1, 0),
    (3, 1, 4), (2, 2, 4)."""
    store = Classroom(classroom_db, clock=lambda: T0)
    room, key = store.rooms.create()
    code = room.code
    students = [rules.new_student_id() for _ in range(3)]
    for number, student in enumerate(students):
        store.students.join(code, student, ("Ana", "Bo", "Cy")[number])
    spec = activity_list(("doc A", "doc B", "doc C", "doc D"), (1, 3, 0, 2), 3, "exponential", (3, 1), "a query", "jk")
    predict = store.rooms.open_activity(code, key, Predict(spec))
    store.answers.submit(code, students[0], predict.id, [(0, 0.9)])
    judge_list = activity_list(("r1", "r2", "r3"), (2, 1, 3), 3, query="judged query")
    judge = store.rooms.open_activity(code, key, Judge(judge_list, Scale(0, 4)))
    for student, grades in zip(students, ((2, 1, 0), (3, 1, 4), (2, 2, 4)), strict=True):
        store.answers.submit(code, student, judge.id, list(enumerate(grades)))
    yield store.answers.results(code), store.answers.class_summary(code)
    store.close()


def test_a_predict_figure_is_recomputed_from_the_csvs_own_columns(judged_room):
    results, _ = judged_room
    t = Translator("en")
    header, *rows = read(results_csv(t, results))
    row = dict(zip(header, rows[0], strict=True))
    assert (row["Kind"], row["Query"]) == ("Predict the NDCG", "a query")
    gains = {t(f"gain.{name}.label"): name for name in ("linear", "exponential")}
    discounts = {t(f"discount.{name}.label"): name for name in DISCOUNTS.names()}
    grades = [float(g) for g in row["Grades in ranked order"].split()]
    missed = [float(g) for g in row["Grades of judged results not retrieved"].split()]
    assert row["Ideal from"] == "every judged result"
    discount = DISCOUNTS.build(discounts[row["Discount"]], base=float(row["Discount base"]))
    figure = ndcg_at_k(
        grades, int(row["Cutoff k"]), gain=gains[row["Gain"]], discount=discount, pool=[*grades, *missed]
    )
    assert row["Correct answer"] == f"{figure:.4f}"
    # The same figure by hand: gains 2^g - 1 = 1, 7, 0 at positions 1-3, no discount at 1 and 2 (base 2), then
    # 1/log2(3); the ideal from every judged grade, 3 3 2 1 0 0 -> 7, 7, 3.
    by_hand = (1 + 7 + 0 / log2(3)) / (7 + 7 + 3 / log2(3))
    assert row["Correct answer"] == f"{by_hand:.4f}"
    assert (row["Metric"], row["Gain"], row["Discount"], row["Discount base"]) == (
        "NDCG",
        "Exponential",
        "Järvelin-Kekäläinen",
        "2",
    )


def test_judge_rows_carry_the_grade_and_its_distance_from_the_class_median_not_right_or_wrong(judged_room):
    results, summary = judged_room
    header, *rows = read(results_csv(Translator("en"), results))
    judge = [dict(zip(header, r, strict=True)) for r in rows if r[2] == "Judge the results"]
    # Medians per result: (2, 3, 2) -> 2, (1, 1, 2) -> 1, (0, 4, 4) -> 4.
    assert [(r["Student"], r["Answer"], r["Class median grade"], r["Grade minus class median"]) for r in judge] == [
        ("Ana", "2", "2", "0"),
        ("Ana", "1", "1", "0"),
        ("Ana", "0", "4", "-4"),  # a plain number, not quoted as a formula
        ("Bo", "3", "2", "1"),
        ("Bo", "1", "1", "0"),
        ("Bo", "4", "4", "0"),
        ("Cy", "2", "2", "0"),
        ("Cy", "2", "1", "1"),
        ("Cy", "4", "4", "0"),
    ]
    assert {r["Right"] for r in judge} == {""}
    assert {r["Query"] for r in judge} == {"judged query"}
    totals = {r[HEADER.index("Student")]: r[HEADER.index("Right")] for r in rows if r[0] == "Total"}
    assert totals == {"Ana": "0 right", "Bo": "0 right", "Cy": "0 right"}  # Ana's estimate is off; grades count none
    answered = {r[HEADER.index("Student")]: r[HEADER.index("Answer")] for r in rows if r[0] == "Total"}
    assert answered == {"Ana": "answered 4 of 4", "Bo": "answered 3 of 4", "Cy": "answered 3 of 4"}
    judged = summary[1]
    assert (judged.kind, judged.answered, judged.answers, judged.right, judged.share_right) == ("judge", 3, 9, 0, None)
    frame = summary_frame(Translator("en"), summary)
    assert frame.iloc[1].tolist() == [
        "Activity 2: Judge the results",
        "3 of 3",
        "no right answer: grades are judgements",
        "",
        "",
    ]
