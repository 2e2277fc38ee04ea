"""The Evaluate page through AppTest: its numbers are the CLI's and trec_eval's, bad files are messages."""

import subprocess
import sys
from math import log2

import pytest
from streamlit.testing.v1 import AppTest

from ndcg_core import EvaluationOptions, Scoring, evaluate, query_ranking, read_qrels, read_run
from support import ROOT, TREC, means, plain, seed_state
from ui.editing import typed_queries_to_trec
from ui.state import EXAMPLE_TYPED_ROWS
from ui.views.evaluate import FileInput, parse_cutoffs, trec_eval_text

SAMPLE = ROOT / "ui" / "sample"


def published_all(name):
    """trec_eval's own 'all' line for a measure, from out.test.a."""
    for line in (TREC / "out.test.a").read_text().splitlines():
        measure, qid, value = line.split()
        if measure == name and qid == "all":
            return value
    raise KeyError(name)


def open_page(**state):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/2_Evaluate.py")
    seed_state(at, **state)
    return at.run()


def metrics(at):
    return {m.label: m.value for m in at.metric}


def errors(at):
    return plain(" ".join(e.value for e in at.error))


@pytest.fixture(scope="module")
def sample_page():
    """The page as it opens, on the sample files: read, never changed, by the tests that ask for it (a page's first
    run is most of such a test's time)."""
    return open_page()


@pytest.fixture(scope="module")
def cutoffs_page():
    """One page for the tests that each type their own cutoffs into it."""
    return open_page()


def test_sample_means_equal_trec_evals_published_values(sample_page):
    at = sample_page
    assert not at.exception
    shown = metrics(at)
    for k in (5, 10, 20):
        assert shown[f"Mean NDCG@{k}"] == published_all(f"ndcg_cut_{k}")
    assert shown["Mean NDCG"] == published_all("ndcg") == "0.4021"


def test_the_export_is_what_the_command_line_prints(sample_page):
    qrels, run = SAMPLE / "qrels.test", SAMPLE / "results.test"
    cli = subprocess.run(
        [sys.executable, "-m", "ndcg_core", "-q", "-m", "ndcg", "-m", "ndcg_cut.5,10,20", str(qrels), str(run)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    page = trec_eval_text(evaluate(read_qrels(qrels), read_run(run), EvaluationOptions(cutoffs=(5, 10, 20))))
    assert page == cli
    assert any("ndcg-lab-eval -q -m ndcg -m ndcg_cut.5,10,20" in plain(c.value) for c in sample_page.caption)


def test_changing_k_and_the_settings_recomputes_with_ndcg_core():
    at = open_page()
    at.text_input(key="_w_ev_cutoffs").input("3, 30").run()
    at.checkbox(key="_w_ev_complete").check().run()
    at.selectbox(key="_w_ev_gain").set_value("exponential").run()
    expected = evaluate(
        read_qrels(SAMPLE / "qrels.test"),
        read_run(SAMPLE / "results.test"),
        EvaluationOptions(Scoring(gain="exponential", ideal="pool"), cutoffs=(3, 30), complete=True),
    )
    expected = means(expected)
    shown = metrics(at)
    assert shown["Mean NDCG@3"] == f"{expected['ndcg_cut_3']:.4f}"
    assert shown["Mean NDCG@30"] == f"{expected['ndcg_cut_30']:.4f}"


@pytest.mark.parametrize(
    "text, message",
    [("", "at least one k"), ("5, ten", "k must be a whole number, got 'ten'"), ("0", "k must be at least 1, got 0")],
)
def test_bad_k_values_are_a_message(cutoffs_page, text, message):
    at = cutoffs_page
    at.text_input(key="_w_ev_cutoffs").input(text).run()
    assert not at.exception
    assert message in errors(at)
    assert not at.metric


def test_the_comparison_reports_wins_and_a_reading(sample_page):
    at = sample_page
    shown = metrics(at)
    a = evaluate(
        read_qrels(SAMPLE / "qrels.test"), read_run(SAMPLE / "results.test"), EvaluationOptions(cutoffs=(5, 10, 20))
    ).table()
    b = evaluate(
        read_qrels(SAMPLE / "qrels.test"), read_run(SAMPLE / "results.trunc"), EvaluationOptions(cutoffs=(5, 10, 20))
    ).table()
    common = [q for q in a.index if q in b.index]
    diff = b.loc[common, "ndcg_cut_5"] - a.loc[common, "ndcg_cut_5"]
    assert shown["Mean difference in NDCG@5 (B - A)"] == f"{diff.mean():+.4f}"
    assert int(shown["B better"]) == int((diff > 1e-12).sum())
    assert any("p = " in i.value for i in at.info)


def test_typed_queries_are_evaluated_like_files():
    at = open_page(ev_source="typed")
    qrels_text, run_text = typed_queries_to_trec(EXAMPLE_TYPED_ROWS)
    expected = evaluate(
        read_qrels(qrels_text.encode()), read_run(run_text.encode()), EvaluationOptions(cutoffs=(5, 10, 20))
    )
    expected = means(expected)
    assert metrics(at)["Mean NDCG@5"] == f"{expected['ndcg_cut_5']:.4f}"


@pytest.mark.parametrize(
    "files, message",
    [
        ({"qrels": b"301 0 d1 x\n", "a": b"301 Q0 d1 1 2.0 t\n"}, "line 1"),
        ({"qrels": b"301 0 d1 1\n", "a": b"301 Q0 d1 1\n"}, "line 1 of run.txt"),
        ({"qrels": b"301 0 d1 1\n", "a": b"301 Q0 d1 1 2.0 t\n301 Q0 d1 2 1.0 t\n"}, "d1"),
        ({"qrels": b"", "a": b"301 Q0 d1 1 2.0 t\n"}, "qrels.txt"),
        ({"qrels": b"301 0 d1 1\n", "a": b"\x00\x01\x02junk\xff"}, "run.txt"),
        ({"qrels": b"301 0 d1 1\n", "a": b"999 Q0 d1 1 2.0 t\n"}, "None of the queries in run.txt is judged"),
        (
            {"qrels": b"301 Q0 d1 1 2.0 t\n", "a": b"301 0 d1 1\n"},
            "qrels.txt looks like a run and run.txt like qrels: are the two files swapped?",
        ),
    ],
)
def test_bad_files_are_messages_naming_the_file(files, message):
    uploads = {
        role: FileInput("qrels.txt" if role == "qrels" else "run.txt", f"test:{role}:{data!r}", data)
        for role, data in files.items()
    }
    at = open_page(ev_source="upload", ev_uploads=uploads)
    assert not at.exception
    assert message.lower() in errors(at).lower()
    assert not at.metric  # nothing half-computed is shown


def test_open_a_query_in_the_playground():
    at = open_page()
    at.button(key="btn_ev_open_playground").click().run()
    assert not at.exception
    items = at.session_state["playground"].spec.items
    assert at.session_state["playground"].spec.ideal == "pool"
    qrels, run = read_qrels(SAMPLE / "qrels.test"), read_run(SAMPLE / "results.test")
    frame = evaluate(qrels, run, EvaluationOptions(cutoffs=(5, 10, 20))).table()
    first = (frame["idcg_cut_5"] - frame["dcg_cut_5"]).idxmax()  # the drill-down opens on the largest gap
    ranking = query_ranking(qrels, run, first)
    assert [it.label for it in items] == ranking["docnos"][:100]
    assert [it.grade for it in items] == [max(0, g or 0) for g in ranking["grades"][:100]]


def test_a_query_opened_in_the_playground_keeps_judged_documents_below_its_first_100_in_the_ideal(tmp_path):
    # d150 (grade 3) is retrieved at rank 150: the Playground shows ranks 1 to 100, yet NDCG@5's ideal has d150.
    run = "".join(f"q1 Q0 d{i} {i} {200 - i} t\n" for i in range(1, 151)).encode()
    qrels = b"q1 0 d1 1\nq1 0 d150 3\n"
    uploads = {"qrels": FileInput("qrels.txt", "below:q", qrels), "a": FileInput("run.txt", "below:a", run)}
    at = open_page(ev_source="upload", ev_uploads=uploads, ev_cutoffs="5")
    at.button(key="btn_ev_open_playground").click().run()
    assert not at.exception
    assert len(at.session_state["playground"].spec.items) == 100
    assert [(it.label, it.grade) for it in at.session_state["playground"].spec.extra] == [("d150", 3)]
    (tmp_path / "qrels").write_bytes(qrels)
    (tmp_path / "run").write_bytes(run)
    trec = evaluate(read_qrels(tmp_path / "qrels"), read_run(tmp_path / "run"), EvaluationOptions(cutoffs=(5,))).table()
    expected = 1 / (3 + 1 / log2(3))  # DCG@5 is d1's 1; IDCG@5 is 3, then 1 at position 2
    assert trec.loc["q1", "ndcg_cut_5"] == pytest.approx(expected)
    assert metrics(at)["NDCG@5"] == f"{expected:.4f}"


def test_parse_cutoffs_sorts_and_deduplicates():
    assert parse_cutoffs("20, 5，10 5") == (5, 10, 20)
    with pytest.raises(ValueError, match="at most 8"):
        parse_cutoffs(" ".join(str(k) for k in range(1, 10)))


@pytest.mark.parametrize(
    "rows, message",
    [
        ([{"query": "q1", "document": "d1", "grade": "x", "rank": "1"}], "row 1: the grade 'x' is not a number"),
        ([{"query": "q1", "document": "d1", "grade": "1", "rank": "0"}], "rank must be 1 or more"),
        ([{"query": "q 1", "document": "d1", "grade": "1", "rank": "1"}], "has a space"),
        ([{"query": "q1", "document": "", "grade": "1", "rank": "1"}], "document is blank"),
        ([{"query": "q1", "document": "d1", "grade": None, "rank": None}], "give a grade, a rank, or both"),
        ([{"query": "q1", "document": "d1", "grade": "1", "rank": None}], "no ranks"),
        ([{"query": "q1", "document": "d1", "grade": "1.5", "rank": "1"}], "whole number"),
    ],
)
def test_typed_rows_name_the_bad_cell(rows, message):
    with pytest.raises(ValueError, match=message):
        typed_queries_to_trec(rows)


def test_queries_without_relevant_judgments_can_be_left_out():
    qrels = b"q1 0 d1 2\nq1 0 d2 0\nq2 0 d3 0\n"
    run = b"q1 Q0 d2 1 2.0 t\nq1 Q0 d1 2 1.0 t\nq2 Q0 d3 1 1.0 t\n"
    uploads = {"qrels": FileInput("q.txt", "t:q", qrels), "a": FileInput("r.txt", "t:r", run)}
    at = open_page(ev_source="upload", ev_uploads=uploads)
    q1 = (2 / log2(3)) / 2  # d1 (grade 2) at rank 2, against the ideal: the 2 at rank 1
    assert metrics(at)["Mean NDCG@5"] == f"{(q1 + 0) / 2:.4f}"  # trec_eval: q2 counts as 0
    at.checkbox(key="_w_ev_relevant_only").check().run()
    assert metrics(at)["Mean NDCG@5"] == f"{q1:.4f}"
    assert any("does not do" in c.value for c in at.caption)


def test_scores_compared_as_32_bit_floats_is_a_setting_off_by_default():
    # 1.000000001 and 1.0: two doubles, one float32. As doubles d1 (grade 1) ranks first: NDCG = 1.
    # As float32 they tie and d2 goes first, by docno descending: NDCG = 1 / log2(3).
    qrels = b"q1 0 d1 1\nq1 0 d2 0\n"
    run = b"q1 Q0 d1 1 1.000000001 t\nq1 Q0 d2 2 1.0 t\n"
    uploads = {"qrels": FileInput("q.txt", "t:q32", qrels), "a": FileInput("r.txt", "t:r32", run)}
    at = open_page(ev_source="upload", ev_uploads=uploads)
    assert not at.exception and at.session_state["evaluate"].float32 is False
    assert metrics(at)["Mean NDCG"] == "1.0000"
    at.checkbox(key="_w_ev_float32").check().run()
    assert not at.exception
    assert metrics(at)["Mean NDCG"] == f"{1 / log2(3):.4f}"
    assert any(
        "ndcg-lab-eval -q -m ndcg -m ndcg_cut.5,10,20 --float32-scores q.txt r.txt" in plain(c.value)
        for c in at.caption
    )
    assert at.dataframe[-1].value.iloc[0, 1] == "d2"  # the drill-down ranks as the evaluation does


def test_judged_only_is_a_setting_off_by_default_and_the_drill_down_ranks_as_it_scores():
    # d1 (unjudged) above d2 (grade 1): NDCG = 1 / log2(3); judged only, d2 moves up to rank 1: NDCG = 1.
    qrels = b"q1 0 d2 1\nq1 0 d3 0\n"
    run = b"q1 Q0 d1 1 3.0 t\nq1 Q0 d2 2 2.0 t\nq1 Q0 d3 3 1.0 t\n"
    uploads = {"qrels": FileInput("q.txt", "t:qJ", qrels), "a": FileInput("r.txt", "t:rJ", run)}
    at = open_page(ev_source="upload", ev_uploads=uploads)
    assert not at.exception and at.session_state["evaluate"].judged_only is False
    assert metrics(at)["Mean NDCG"] == f"{1 / log2(3):.4f}"
    at.checkbox(key="_w_ev_judged_only").check().run()
    assert not at.exception
    assert metrics(at)["Mean NDCG"] == "1.0000"
    assert any("ndcg-lab-eval -q -J -m ndcg -m ndcg_cut.5,10,20 q.txt r.txt" in plain(c.value) for c in at.caption)
    assert at.dataframe[-1].value.iloc[:, 1].tolist() == ["d2", "d3"]  # the drill-down: judged documents only


def test_the_judged_only_setting_reads_in_chinese():
    at = open_page(lang="zh")
    labels = [c.label for c in at.checkbox]
    assert "只对已评判的文档计分（trec_eval -J）" in labels
