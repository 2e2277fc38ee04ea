"""Hardening: no eval/exec, XSRF on, no network at runtime, limits on uploads, and fuzzing of every public
function of ndcg_core and of the readers (HYPOTHESIS_PROFILE=deep for a long run)."""

import ast
import math
import socket
import tomllib

import numpy as np
import pytest
from hypothesis import event, example, given
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

import ndcg_core
from ndcg_core.lists import items as ranked_list
from ndcg_core.lists.scoring import Scoring
from ndcg_core.lists.spec import ListSpec
from ndcg_core.teaching import conventions, exercises, metrics
from support import ROOT, plain, seed_state
from trec_files import file_pairs, garbled, read_as_the_reference_does
from ui.views.evaluate import FileInput

SOURCES = [ROOT / "app.py", *ROOT.glob("pages/*.py"), *ROOT.glob("ui/*.py"), *ROOT.glob("ndcg_core/*.py")]


def test_no_eval_or_exec_anywhere():
    calls = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in {"eval", "exec", "compile", "__import__"}
            ):
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


def test_no_page_makes_a_network_call(no_network):
    """Home, then every page in turn in the same session (as a reader clicks through them; one session, not one
    per page: each page's own run is what could call out)."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    assert not at.exception
    titles = [at.title[0].value]
    for page in sorted((ROOT / "pages").glob("*.py")):
        at.switch_page(f"pages/{page.name}")
        at.run()
        assert not at.exception, page.name
        titles.append(at.title[0].value)
    assert len(set(titles)) == len(titles), titles  # each page itself ran, not the last one again


def test_chart_export_makes_no_network_call(no_network):
    from ndcg_core.lists.items import list_breakdown, make_items
    from ndcg_core.lists.scoring import Scoring
    from ui import charts, export

    frame = list_breakdown(make_items(["a", "b"], [1, 0]), Scoring(k=2))
    assert export.chart_png(charts.chart_spec("contribution", frame, top=4, k=2))[:4] == b"\x89PNG"


def test_an_upload_over_the_row_limit_is_a_message(monkeypatch):
    import ui.views.evaluate as view

    monkeypatch.setattr(view, "MAX_ROWS", 3)
    view._parsed_qrels.clear()
    run = b"".join(b"1 Q0 d%d 1 %d.0 t\n" % (i, i) for i in range(5))
    uploads = {"qrels": FileInput("q.txt", "limit:q", b"1 0 d1 1\n"), "a": FileInput("big.txt", "limit:r", run)}
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.switch_page("pages/2_Evaluate.py")
    seed_state(at, ev_source="upload", ev_uploads=uploads)
    at.run()
    assert "big.txt has 5 lines; NDCG Lab reads at most 3" in plain(" ".join(e.value for e in at.error))
    assert not at.metric


# --- fuzzing ------------------------------------------------------------------------------------

anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 10),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.binary(max_size=8),
    st.lists(st.one_of(st.integers(-3, 5), st.floats(-2, 6), st.text(max_size=3), st.none()), max_size=8),
    st.dictionaries(st.integers(-2, 5), st.floats(-5, 5), max_size=3),
    # Values some function accepts, so that the checks of what an accepted input gives are reached.
    st.lists(st.integers(0, 4), max_size=8),
    st.lists(st.floats(-3, 3).map(lambda x: round(x, 1)), max_size=8),
    st.integers(1, 6),
    st.sampled_from(
        [
            "linear",
            "exponential",
            "log2",
            "jk",
            "trec_eval",
            "average",
            "best",
            "worst",
            "ndcg",
            "ndcg_cut.5,10",
            "ndcg.1=3,2=9",
            " 2 ",
            "0.25",
        ]
    ),
)
grade_lists = st.lists(st.one_of(st.integers(0, 4), st.floats(0, 4, allow_nan=False)), max_size=12)


def only_value_errors(call, *args, **kwargs):
    try:
        return call(*args, **kwargs)
    except ValueError:
        return None


REFUSED = object()


def attempt(call, *args, **kwargs):
    """The call's result, or REFUSED when it refuses its input with a ValueError (anything else fails the test).
    Records which, so --hypothesis-show-statistics shows how often each check of a result is reached."""
    name = getattr(call, "__name__", repr(call))
    try:
        result = call(*args, **kwargs)
    except ValueError:
        event(f"{name}: refused")
        return REFUSED
    event(f"{name}: accepted, result checked")
    return result


# What an accepted input means, worked out without ndcg_core.


def as_floats(values):
    return [float(v) for v in values]


def as_k(value):
    return None if value is None else int(float(value))


def gain_of(name_or_mapping):
    if name_or_mapping == "exponential":
        return lambda g: 2.0**g - 1
    if isinstance(name_or_mapping, dict):  # grades left out keep their grade
        table = {float(key): float(value) for key, value in name_or_mapping.items()}
        return lambda g: table.get(g, g)
    return lambda g: g


def discount_of(name):
    if name == "jk":  # Järvelin-Kekäläinen with b = 2: rank 1 in full, then 1 / log2(i)
        return lambda i: 1.0 if i < 2 else 1 / math.log2(i)
    return lambda i: 1 / math.log2(i + 1)


LINEAR, LOG2 = gain_of("linear"), discount_of("log2")


def hand_dcg(gains, k=None, discount=LOG2):
    top = list(gains) if k is None else list(gains)[:k]
    return sum(g * discount(i) for i, g in enumerate(top, start=1))


def hand_ndcg(grades, k=None, gain=LINEAR, discount=LOG2, pool=None):
    """DCG@k over the DCG@k of the pool's positive gains, best first (at most 1; 0 with no positive gain)."""
    ideal = hand_dcg(
        sorted((x for x in map(gain, grades if pool is None else pool) if x > 0), reverse=True),
        len(grades) if k is None else k,
        discount,
    )
    return min(hand_dcg(map(gain, grades), k, discount) / ideal, 1.0) if ideal > 0 else 0.0


def ranked(grades, scores, ties, gain=LINEAR):
    """Grades by score, highest first; ties by the policy (trec_eval: position as text, descending)."""
    by_id = sorted(range(len(scores)), key=str, reverse=True)
    if ties in ("best", "worst"):
        by_id = sorted(by_id, key=lambda i: gain(grades[i]), reverse=ties == "best")
    return [grades[i] for i in sorted(by_id, key=lambda i: -scores[i])]


def close(x, y):
    return math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-12)


@st.composite
def three_values(draw):
    """Three values for the calls below: often a list of grades (b its scores, a pool that holds it or a k) or
    a typed text, and c a name or a grade-to-gain mapping, so that the checks of accepted inputs are reached."""
    a = draw(
        draw(
            st.sampled_from(
                [
                    anything,
                    st.lists(st.integers(0, 4), min_size=1, max_size=8),
                    st.sampled_from(
                        ["ndcg", "ndcg_cut.5,10", "ndcg.1=3,2=9", "ndcg_cut.0", " 2 ", "0.25", "7", "1e3", "abc"]
                    ),
                ]
            )
        )
    )
    how = draw(st.sampled_from(["anything", "k", "scores", "pool"]))
    if isinstance(a, list) and how == "scores":
        b = draw(st.lists(st.integers(-2, 2) | st.floats(-3, 3), min_size=len(a), max_size=len(a)))
    elif isinstance(a, list) and how == "pool":
        b = a + draw(st.lists(st.integers(0, 4), max_size=3))
    elif how == "k":
        b = draw(st.integers(1, 6))
    else:
        b = draw(anything)
    c = draw(
        st.sampled_from(
            [
                anything,
                st.dictionaries(st.integers(0, 4), st.integers(0, 9), max_size=3),
                st.sampled_from(["linear", "exponential", "log2", "jk", "trec_eval", "average", "best", "worst"]),
            ]
        )
    )
    return a, b, draw(c)


@given(three_values())
def test_single_list_functions_raise_only_value_errors(values):
    a, b, c = values
    # Each call either refuses with a ValueError or gives what the formula written out above gives.
    lin = gain_of("linear")
    for fn, ideal_from in ((ndcg_core.dcg, None), (ndcg_core.idcg, "list"), (ndcg_core.ndcg_at_k, "list")):

        def expected(k, gain=lin, discount=LOG2, pool=None, fn=fn):
            grades = as_floats(a)
            if fn is ndcg_core.dcg:
                return hand_dcg(map(gain, grades), k, discount)
            if fn is ndcg_core.idcg:
                positive = sorted((x for x in map(gain, grades if pool is None else pool) if x > 0), reverse=True)
                return hand_dcg(positive, len(grades) if k is None else k, discount)
            return hand_ndcg(grades, k, gain, discount, pool)

        if (r := attempt(fn, a, b)) is not REFUSED:
            assert close(r, expected(as_k(b)))
        if (r := attempt(fn, a, 3, gain=c)) is not REFUSED:
            assert close(r, expected(3, gain=gain_of(c)))
        if (r := attempt(fn, a, 3, discount=c)) is not REFUSED:
            assert close(r, expected(3, discount=discount_of(c)))
        if ideal_from and (r := attempt(fn, a, 3, pool=b)) is not REFUSED:
            assert close(r, expected(3, pool=None if b is None else as_floats(b)))
            if fn is ndcg_core.ndcg_at_k:
                assert 0.0 <= r <= 1.0
    if (frame := attempt(ndcg_core.breakdown, a, b)) is not REFUSED:
        assert len(frame) == len(a)
        if len(a):
            assert close(frame["cumulative_dcg"].iloc[-1], hand_dcg(as_floats(a)))
            assert frame["ndcg"].between(0, 1).all()
    if (r := attempt(ndcg_core.ideal_grades, a, b)) is not REFUSED:
        assert list(r) == sorted(as_floats(a if b is None else b), reverse=True)
    if (r := attempt(ndcg_core.ndcg_at_every_k, a, pool=b)) is not REFUSED:
        pool = None if b is None else as_floats(b)
        assert len(r) == len(a) and all(close(v, hand_ndcg(as_floats(a), i, pool=pool)) for i, v in enumerate(r, 1))
    if (r := attempt(ndcg_core.validate_grades, a)) is not REFUSED:
        assert list(r) == as_floats(a) and all(v >= 0 for v in r)
    if (r := attempt(ndcg_core.validate_k, a)) is not REFUSED:
        assert r == as_k(a) and (r is None or r >= 1)
    if (r := attempt(ndcg_core.ndcg_bounds, a, b, 3, gain=c)) is not REFUSED:
        grades, scores, gain = as_floats(a), as_floats(b), gain_of(c)
        assert close(r[0], hand_ndcg(ranked(grades, scores, "worst", gain), 3, gain, pool=grades))
        assert close(r[1], hand_ndcg(ranked(grades, scores, "best", gain), 3, gain, pool=grades))
    for fn in (ndcg_core.ndcg_from_scores, ndcg_core.dcg_from_scores):

        def by_hand(ties, fn=fn):
            grades = as_floats(a)
            order = ranked(grades, as_floats(b), ties)
            return hand_ndcg(order, 3, pool=grades) if fn is ndcg_core.ndcg_from_scores else hand_dcg(order, 3)

        if (r := attempt(fn, a, b, 3)) is not REFUSED:
            assert close(r, by_hand("trec_eval"))
        if (r := attempt(fn, a, b, 3, ties=c)) is not REFUSED:
            if c == "average":
                assert by_hand("worst") - 1e-12 <= r <= by_hand("best") + 1e-12
            else:
                assert close(r, by_hand(c))
    for ties in ("trec_eval", c):
        if (r := attempt(ndcg_core.order_by_scores, b, a, ties=ties)) is not REFUSED:
            scores, grades = as_floats(b), as_floats(a)
            assert sorted(r.tolist()) == list(range(len(scores)))
            assert all(scores[i] >= scores[j] for i, j in zip(r, r[1:], strict=False))
            tied = [(i, j) for i, j in zip(r, r[1:], strict=False) if scores[i] == scores[j]]
            if ties in ("best", "worst"):
                assert all((grades[i] >= grades[j]) == (ties == "best") or grades[i] == grades[j] for i, j in tied)
            elif ties == "trec_eval":  # item ids (positions) descending as text
                assert all(str(i) > str(j) for i, j in tied)
    if (r := attempt(metrics.precision_at_k, a, b)) is not REFUSED:
        assert close(r, sum(g >= 1 for g in as_floats(a)[: as_k(b)]) / as_k(b))
    if (r := attempt(metrics.recall_at_k, a, b)) is not REFUSED:
        total = sum(g >= 1 for g in as_floats(a))
        assert close(r, sum(g >= 1 for g in as_floats(a)[: as_k(b)]) / total if total else 0.0)
    if (r := attempt(metrics.reciprocal_rank, a)) is not REFUSED:
        hits = [i for i, g in enumerate(as_floats(a), start=1) if g >= 1]
        assert close(r, 1 / hits[0] if hits else 0.0)
    if (r := attempt(metrics.average_precision, a, n_relevant=b)) is not REFUSED:
        hits = [i for i, g in enumerate(as_floats(a), start=1) if g >= 1]
        total = len(hits) if b is None else b
        assert close(r, sum(n / i for n, i in enumerate(hits, start=1)) / total if total else 0.0)
    if (r := attempt(metrics.err, a, b, max_grade=c)) is not REFUSED:
        grades = as_floats(a)
        top = max(grades, default=0.0) if c is None else float(c)
        if top < 1000:  # 2 ** top as a Python float
            stop = [(2**g - 1) / 2**top for g in grades[: as_k(b)]]
            assert close(r, sum(s / i * math.prod(1 - x for x in stop[: i - 1]) for i, s in enumerate(stop, start=1)))
        assert 0.0 <= r <= 1.0
    if (r := attempt(ndcg_core.parse_measure, a)) is not REFUSED:
        assert {m.family for m in r} == {a.split(".")[0]} and a.split(".")[0] in ("ndcg", "ndcg_cut")
        if a.startswith("ndcg_cut."):
            assert [m.cutoff for m in r] == sorted({int(x) for x in a.split(".", 1)[1].split(",")})
    if (r := attempt(exercises.parse_number, a)) is not REFUSED:
        assert r == float(str(a).strip()) and math.isfinite(r)
    if (r := attempt(exercises.check_seed, a)) is not REFUSED:
        assert r == int(str(a).strip()) and 0 <= r <= 10**9
    if (r := attempt(ranked_list.check_grade, a, 4, "g")) is not REFUSED:
        assert r == float(a.strip() if isinstance(a, str) else a) and 0 <= r <= 4
    if (r := attempt(ranked_list.check_label, a, "l")) is not REFUSED:
        assert r == str(a).strip() and 1 <= len(r) <= 60
    if (r := attempt(ranked_list.check_top_grade, a)) is not REFUSED:
        assert r == int(float(a)) and 1 <= r <= 10


@given(
    grade_lists,
    st.integers(1, 15),
    st.sampled_from(["linear", "exponential"]),
    st.sampled_from(["log2", "jk"]),
    st.lists(st.integers(0, 4), max_size=5),
)
def test_ndcg_stays_in_zero_one_for_non_negative_gains(grades, k, gain, discount, extra):
    every = list(ndcg_core.ndcg_at_every_k(grades, gain=gain, discount=discount)) if grades else []
    for value in (
        ndcg_core.ndcg_at_k(grades, k, gain=gain, discount=discount),
        ndcg_core.ndcg_at_k(grades, k, gain=gain, discount=discount, pool=list(grades) + extra),
        *every,
    ):
        assert 0.0 <= value <= 1.0 + 1e-12 and math.isfinite(value)
    scores = [float(i % 3) for i in range(len(grades))]
    for ties in ("trec_eval", "average", "best", "worst"):
        value = ndcg_core.ndcg_from_scores(grades, scores, k, ties=ties, gain=gain, discount=discount)
        assert 0.0 <= value <= 1.0 + 1e-12


@given(st.one_of(st.binary(max_size=300), garbled("qrels"), garbled("run")))
@example(b"doc\tQ\t\x01\t\x01\n\x01")  # a CSV header without a grade column (found by CI, 2026-12-07)
def test_readers_on_arbitrary_bytes_give_a_file_or_a_value_error(data):
    # Bytes, and valid files with bytes inserted, deleted or replaced: each reader refuses with a ValueError
    # naming a bad line, or gives the rows a reference reader written out in tests/trec_files.py gives.
    for kind in ("qrels", "run"):
        read_as_the_reference_does(data, kind)


line = st.lists(
    st.one_of(
        st.sampled_from(["q1", "q2", "Q0", "d1", "d2", "#", "0", "1", "2.5", "-1", "x", "nan", "", "\t", "1e400"]),
        st.text(max_size=4),
    ),
    max_size=7,
)
text_file = st.lists(line, max_size=8).map(
    lambda lines: "\n".join(" ".join(x) for x in lines).encode("utf-8", "surrogatepass")
)


@given(st.one_of(st.tuples(text_file, text_file), file_pairs().map(lambda pair: pair[1:])))
def test_evaluating_arbitrary_text_files_gives_ndcg_in_range_or_a_value_error(texts):
    qrels_text, run_text = texts
    try:
        qrels, run = ndcg_core.read_qrels(qrels_text, name="q"), ndcg_core.read_run(run_text, name="r")
        result = ndcg_core.evaluate(qrels, run, ndcg_core.EvaluationOptions(cutoffs=(1, 5)))
    except ValueError:
        event("refused")
        return
    event("evaluated, range checked")
    judged = set(qrels.qid.to_pylist()) & set(run.qid.to_pylist())
    assert sorted(result.qids) == sorted(judged)
    for column in [m.column for m in result.measures]:
        values = np.asarray(result.columns[column])
        assert np.all((values >= 0) & (values <= 1))


@st.composite
def playground_links(draw):
    """Links the Playground writes, for lists drawn here, and such links with one character changed."""
    n = draw(st.integers(1, 6))
    top = draw(st.integers(1, 10))
    items = ranked_list.make_items(
        draw(st.lists(st.text(min_size=1, max_size=5).map(str.strip).filter(bool), min_size=n, max_size=n)),
        draw(st.lists(st.integers(0, top), min_size=n, max_size=n)),
    )
    extras = draw(st.integers(0, 2))
    extra = ranked_list.make_items(["x", "y"][:extras], [top, 0][:extras], first_id=n + 1)
    gain = draw(st.sampled_from(["linear", "exponential", "custom"]))
    scoring = Scoring(
        gain=gain,
        gain_table=((1, 3.0),) if gain == "custom" else (),
        discount=draw(st.sampled_from(["log2", "jk"])),
        k=draw(st.integers(1, n)),
        ideal=draw(st.sampled_from(["list", "pool"])),
    )
    link = ListSpec(tuple(items), scoring, top, tuple(extra)).to_link()
    if draw(st.booleans()):
        at = draw(st.integers(0, len(link) - 1))
        link = link[:at] + draw(st.sampled_from("AZaz09-_=+/%")) + link[at + 1 :]
    return link


@given(st.one_of(st.text(max_size=200), playground_links()))
def test_share_links_decode_or_give_a_value_error(text):
    state = attempt(ListSpec.from_link, text)
    if state is REFUSED:
        return
    items, top, k = state.items, state.top, state.k
    assert 1 <= len(items) <= ranked_list.MAX_ITEMS and 1 <= k <= len(items) and 1 <= top <= 10
    assert all(0 <= it.grade <= top and it.label == it.label.strip() and it.label for it in items + state.extra)
    # What a link gives, written again, gives the same state.
    assert ListSpec.from_link(state.to_link()) == state


example_rows = st.lists(
    st.fixed_dictionaries(
        {
            "item": st.sampled_from(["a", "b", "c", "d", "e", "f"]),
            "score": st.integers(-2, 3) | st.floats(-1, 1),
            "grade": st.integers(0, 3),
        }
    ),
    min_size=1,
    max_size=5,
    unique_by=lambda row: row["item"],
)


@given(
    st.one_of(
        st.tuples(
            st.lists(st.dictionaries(st.sampled_from(["item", "score", "grade"]), anything, max_size=3), max_size=4),
            anything,
        ),
        st.tuples(example_rows, st.integers(1, 6) | anything),
    )
)
def test_convention_examples_from_arbitrary_rows(rows_and_k):
    rows, k = rows_and_k
    example = attempt(conventions.example_from_rows, rows, [], k)
    if example is REFUSED:
        return
    kept = [r for r in rows if not all(r.get(c) in (None, "") for c in ("item", "score", "grade"))]
    assert list(example.items) == [str(r["item"]).strip() for r in kept]
    assert list(example.grades) == [float(r["grade"]) for r in kept]
    assert example.k == (None if k is None else int(float(k)))
    scores = conventions.score_all(example)
    assert all(0.0 <= value <= 1.0 for value in scores.values())
    assert scores["ties_worst"] <= scores["ties_average"] + 1e-12 <= scores["ties_best"] + 2e-12
