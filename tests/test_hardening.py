"""Hardening: no eval/exec, XSRF on, no network at runtime, limits on uploads, and fuzzing of every public
function of ndcg_core and of the readers (HYPOTHESIS_PROFILE=deep for a long run)."""

import ast
import math
import socket
import tomllib

import numpy as np
import pytest
from conftest import ROOT, plain
from hypothesis import given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

import ndcg_core
from ndcg_core import conventions, exercises, metrics, ranked_list
from ui import share
from ui.evaluate_view import FileInput

SOURCES = [ROOT / "app.py", *ROOT.glob("pages/*.py"), *ROOT.glob("ui/*.py"), *ROOT.glob("ndcg_core/*.py")]


def test_no_eval_or_exec_anywhere():
    calls = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in {
                    "eval", "exec", "compile", "__import__"}:
                calls.append((path.name, node.lineno, node.func.id))
    assert not calls


def test_no_user_text_is_rendered_as_html():
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        assert "unsafe_allow_html=True" not in text, path.name
        assert "st.components.v1.html" not in text, path.name


def test_server_config_keeps_xsrf_and_limits_uploads():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    server = config["server"]
    assert server.get("enableXsrfProtection", True) is True
    assert server.get("enableCORS", True) is True
    assert 250 <= server["maxUploadSize"] <= 500
    assert config["browser"]["gatherUsageStats"] is False


@pytest.fixture
def no_network(monkeypatch):
    """Any connection off this machine fails the test."""
    real_connect = socket.socket.connect

    def guarded(self, address):
        host = address[0] if isinstance(address, tuple) else address
        if isinstance(host, str) and host not in ("127.0.0.1", "localhost", "::1") and not host.startswith("/"):
            raise AssertionError(f"network call to {address!r}")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.mark.parametrize("page", ["app.py"] + [f"pages/{p.name}" for p in sorted((ROOT / "pages").glob("*.py"))])
def test_no_page_makes_a_network_call(no_network, page):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    if page != "app.py":
        at.switch_page(page)
    at.run()
    assert not at.exception


def test_chart_export_makes_no_network_call(no_network):
    from ndcg_core.ranked_list import Settings, list_breakdown, make_items
    from ui import charts, export

    frame = list_breakdown(make_items(["a", "b"], [1, 0]), Settings(k=2))
    assert export.chart_png(charts.chart_spec("contribution", frame, top=4, k=2))[:4] == b"\x89PNG"


def test_an_upload_over_the_row_limit_is_a_message(monkeypatch):
    import ui.evaluate_view as view

    monkeypatch.setattr(view, "MAX_ROWS", 3)
    view._parsed_qrels.clear()
    run = b"".join(b"1 Q0 d%d 1 %d.0 t\n" % (i, i) for i in range(5))
    uploads = {"qrels": FileInput("q.txt", "limit:q", b"1 0 d1 1\n"), "a": FileInput("big.txt", "limit:r", run)}
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/2_Evaluate.py")
    at.session_state["ev_source"] = "upload"
    at.session_state["ev_uploads"] = uploads
    at.run()
    assert "big.txt has 5 lines; NDCG Lab reads at most 3" in plain(" ".join(e.value for e in at.error))
    assert not at.metric


# --- fuzzing ------------------------------------------------------------------------------------

anything = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8), st.binary(max_size=8),
    st.lists(st.one_of(st.integers(-3, 5), st.floats(-2, 6), st.text(max_size=3), st.none()), max_size=8),
    st.dictionaries(st.integers(-2, 5), st.floats(-5, 5), max_size=3),
)
grade_lists = st.lists(st.one_of(st.integers(0, 4), st.floats(0, 4, allow_nan=False)), max_size=12)


def only_value_errors(call, *args, **kwargs):
    try:
        return call(*args, **kwargs)
    except ValueError:
        return None


@given(anything, anything, anything)
def test_single_list_functions_raise_only_value_errors(a, b, c):
    for fn in (ndcg_core.dcg, ndcg_core.idcg, ndcg_core.ndcg_at_k):
        only_value_errors(fn, a, b)
        only_value_errors(fn, a, 3, gain=c)
        only_value_errors(fn, a, 3, discount=c)
        if fn is not ndcg_core.dcg:  # dcg has no ideal
            only_value_errors(fn, a, 3, ideal=b)
    only_value_errors(ndcg_core.breakdown, a, b)
    only_value_errors(ndcg_core.ideal_grades, a, b)
    only_value_errors(ndcg_core.ndcg_at_every_k, a, ideal=b)
    only_value_errors(ndcg_core.validate_grades, a)
    only_value_errors(ndcg_core.validate_k, a)
    only_value_errors(ndcg_core.ndcg_bounds, a, b, 3, gain=c)
    for fn in (ndcg_core.ndcg_from_scores, ndcg_core.dcg_from_scores):
        only_value_errors(fn, a, b, 3)
        only_value_errors(fn, a, b, 3, ties=c)
    only_value_errors(ndcg_core.order_by_scores, a, b, ties=c)
    for fn in (metrics.precision_at_k, metrics.recall_at_k):
        only_value_errors(fn, a, b)
    only_value_errors(metrics.reciprocal_rank, a)
    only_value_errors(metrics.average_precision, a, n_relevant=b)
    only_value_errors(metrics.err, a, b, max_grade=c)
    only_value_errors(ndcg_core.parse_measure, a)
    only_value_errors(exercises.parse_number, a)
    only_value_errors(exercises.check_seed, a)
    only_value_errors(ranked_list.check_grade, a, 4, "g")
    only_value_errors(ranked_list.check_label, a, "l")
    only_value_errors(ranked_list.check_top_grade, a)


@given(grade_lists, st.integers(1, 15), st.sampled_from(["linear", "exponential"]), st.sampled_from(["log2", "jk"]),
       st.lists(st.integers(0, 4), max_size=5))
def test_ndcg_stays_in_zero_one_for_non_negative_gains(grades, k, gain, discount, extra):
    every = list(ndcg_core.ndcg_at_every_k(grades, gain=gain, discount=discount)) if grades else []
    for value in (ndcg_core.ndcg_at_k(grades, k, gain=gain, discount=discount),
                  ndcg_core.ndcg_at_k(grades, k, gain=gain, discount=discount, ideal=list(grades) + extra), *every):
        assert 0.0 <= value <= 1.0 + 1e-12 and math.isfinite(value)
    scores = [float(i % 3) for i in range(len(grades))]
    for ties in ("trec_eval", "average", "best", "worst"):
        value = ndcg_core.ndcg_from_scores(grades, scores, k, ties=ties, gain=gain, discount=discount)
        assert 0.0 <= value <= 1.0 + 1e-12


@given(st.binary(max_size=300))
def test_readers_on_arbitrary_bytes_give_a_file_or_a_value_error(data):
    for read in (ndcg_core.read_qrels, ndcg_core.read_run):
        only_value_errors(read, data, name="fuzz.txt")


line = st.lists(st.one_of(st.sampled_from(["q1", "q2", "Q0", "d1", "d2", "#", "0", "1", "2.5", "-1", "x", "nan",
                                           "", "\t", "1e400"]), st.text(max_size=4)), max_size=7)


@given(st.lists(line, max_size=8), st.lists(line, max_size=8))
def test_evaluating_arbitrary_text_files_gives_ndcg_in_range_or_a_value_error(qrels_lines, run_lines):
    qrels_text = "\n".join(" ".join(x) for x in qrels_lines).encode("utf-8", "surrogatepass")
    run_text = "\n".join(" ".join(x) for x in run_lines).encode("utf-8", "surrogatepass")
    try:
        qrels, run = ndcg_core.read_qrels(qrels_text, name="q"), ndcg_core.read_run(run_text, name="r")
        result = ndcg_core.evaluate(qrels, run, cutoffs=(1, 5))
    except ValueError:
        return
    for column in result.measure_columns():
        values = np.asarray(result.columns[column])
        assert np.all((values >= 0) & (values <= 1 + 1e-12))


@given(st.text(max_size=200))
def test_share_links_decode_or_give_a_value_error(text):
    only_value_errors(share.decode_playground, text)


@given(st.lists(st.dictionaries(st.sampled_from(["item", "score", "grade"]), anything, max_size=3), max_size=4),
       anything)
def test_convention_examples_from_arbitrary_rows(rows, k):
    only_value_errors(conventions.example_from_rows, rows, [], k)
