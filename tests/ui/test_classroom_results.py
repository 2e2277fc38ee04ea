"""The results CSV and the end-of-class summary in the teacher's words: option labels students saw rather than
codes, each question's details, a row for a student who did not answer, per-student totals, in English and
Chinese, from a real room on a temporary SQLite file and on PostgreSQL."""

import csv
import io

import pytest

from ndcg_core.classroom import activities as A
from ndcg_core.classroom import rules
from ndcg_core.classroom.store import Store
from ui.classroom_results import results_csv, summary_frame
from ui.i18n import Translator

T0 = 1_800_000_000.0


@pytest.fixture
def room(classroom_db):
    """A compare (Ana votes B, wrong; the other student does not vote), revealed, run again (Ana votes A, the
    other "the same"); a Practice of 5 (Ana: exercise 5, a swap, "up"; the other: exercise 1, 1.5); a rank (Ana
    sends the best order). The second student has no nickname."""
    now = [T0]
    store = Store(classroom_db, clock=lambda: now[0])
    code, key = store.create_room()
    code = code.code
    ana, other = rules.new_student_id(), rules.new_student_id()
    store.join(code, ana, "=Ana")
    store.join(code, other)
    first = store.open_activity(code, key, A.compare_activity("seed003", "ndcg"))
    store.answer(code, ana, first.id, [(0, "b")])
    store.set_phase(code, key, "revealed")
    now[0] += 60
    second = store.run_again(code, key)
    store.answer(code, ana, second.id, [(0, "a")])
    store.answer(code, other, second.id, [(0, "same")])
    practice = store.open_activity(code, key, A.practice_activity(2026, 5))
    store.answer(code, ana, practice.id, [(4, "up")])
    store.answer(code, other, practice.id, [(0, "1.5")])
    rank = store.open_activity(code, key, A.rank_activity(A.preset_list("five"), "small_k"))
    store.answer(code, ana, rank.id, [(0, [0, 2, 1, 4, 3])])
    yield store.results(code), store.class_summary(code)
    store.close()


def read(data):
    assert data.startswith(b"\xef\xbb\xbf")  # UTF-8 with a BOM: spreadsheets read Chinese right
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def test_the_csv_in_english_has_labels_details_unanswered_rows_and_totals(room):
    results, _ = room
    header, *rows = read(results_csv(Translator("en"), results))
    assert header == [
        "Activity",
        "Round",
        "Kind",
        "Details",
        "Exercise",
        "Student",
        "Answer",
        "Correct answer",
        "Right",
        "NDCG reached",
        "Answered at (UTC)",
    ]
    assert len(rows) == 2 + 2 + 2 * 5 + 2 + 2  # two students on each question, then two totals
    compare = "under NDCG@5; A: 成都3天游攻略:4, 成都美食推荐:2"
    first, second = rows[0], rows[1]
    assert first[:3] == ["1", "1", "Which is better?"] and first[3].startswith(compare)
    assert first[3].endswith("judged grades 4, 2, 2, 2, 1, 0, 0, 0, 0; k = 5")
    assert first[5:10] == ["'=Ana", "B", "A", "no", ""]  # a formula-like nickname is quoted
    assert first[10] == "2027-01-15T08:00:00+00:00"
    assert second[:2] == ["1", "1"] and second[5:10] == ["student 2", "", "A", "no answer", ""]
    assert [r[:2] + r[5:9] for r in rows[2:4]] == [
        ["2", "2", "'=Ana", "A", "A", "yes"],
        ["2", "2", "student 2", "The same", "A", "no"],
    ]
    practice = rows[4:14]
    assert practice[0][2:7] == ["Practice together", "seed 2026, exercise 1 of 5: one DCG term", "1", "'=Ana", ""]
    assert practice[4][3:10] == [
        "seed 2026, exercise 5 of 5: predict a swap",
        "5",
        "'=Ana",
        "It rises",  # the choice as its button said, not "up"
        "It falls",
        "no",
        "",
    ]
    assert practice[5][4:9] == ["1", "student 2", "1.5", "1.5000", "yes"]
    rank = rows[14]
    assert rank[2] == "Rank it best"
    assert rank[3] == (
        "list doc A:3, doc B:2, doc C:3, doc D:0, doc E:1; k = 3; gain: Linear; "
        "ideal: the list's own grades; twist: a small k (3)"
    )
    assert rank[6:10] == [
        "doc A > doc C > doc B > doc E > doc D",
        "doc A > doc C > doc B > doc E > doc D (NDCG@k 1.0000)",
        "yes",
        "1.0000",
    ]
    assert rows[15][5:9] == ["student 2", "", rank[7], "no answer"]
    # Ana: 2 compare rounds + 5 exercises + 1 rank = 8 questions, answered 4 (1 compare, 1 exercise, 1 rank, and
    # round 2), right 2 (round 2 and the rank); the other: answered round 2 and exercise 1, right 1.
    assert rows[16] == ["total", "", "", "", "", "'=Ana", "answered 4 of 8", "", "2 right", "1.0000", ""]
    assert rows[17] == ["total", "", "", "", "", "student 2", "answered 2 of 8", "", "1 right", "", ""]


def test_the_csv_in_chinese_words_headers_labels_and_totals_in_chinese(room):
    results, _ = room
    header, *rows = read(results_csv(Translator("zh"), results))
    assert header[:3] == ["活动", "轮次", "类型"] and header[8] == "是否答对"
    assert rows[0][2] == "哪个更好？" and rows[0][3].startswith("按 NDCG@5 评判")
    assert rows[1][5:9] == ["学生 2", "", "A", "未作答"]
    assert rows[3][6] == "一样好"  # the vote as the Chinese phone showed it
    assert rows[8][6:8] == [Translator("zh")("practice.choice.up"), Translator("zh")("practice.choice.down")]
    assert rows[16][0] == "合计" and rows[16][6] == "8 题中答了 4 题" and rows[16][8] == "答对 2 题"


def test_the_summary_gives_participation_and_share_right_per_activity(room):
    _, summary = room
    assert [(o.number, o.kind, o.round, o.joined, o.answered, o.answers, o.right) for o in summary] == [
        (1, "compare", 1, 2, 1, 1, 0),
        (2, "compare", 2, 2, 2, 2, 1),
        (3, "practice", 1, 2, 2, 2, 1),  # Ana's swap is wrong; the other's DCG term, 3 / log2(3 + 1) = 1.5, is right
        (4, "rank", 1, 2, 1, 1, 1),
    ]
    frame = summary_frame(Translator("en"), summary)
    assert list(frame.columns) == ["Activity", "Answered", "Right answers", "Share right"]
    assert frame.iloc[1].tolist() == ["Activity 2: Which is better? · Round 2", "2 of 2", "1 of 2", "50%"]
    assert frame.iloc[0].tolist() == ["Activity 1: Which is better?", "1 of 2", "0 of 1", "0%"]
