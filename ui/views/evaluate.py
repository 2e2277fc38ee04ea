"""The Evaluate page: NDCG over many queries from TREC files, two systems compared, drill-down, export.

Every figure comes from ``ndcg_core.trec.evaluate`` (the same function the command line uses);
this module reads widgets, caches parsed files and evaluations, and renders.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from ndcg_core import (
    GAINS,
    IDEALS,
    TIE_POLICIES,
    Evaluation,
    Measure,
    format_trec_eval,
    query_ranking,
    validate,
)
from ndcg_core.classroom.kinds.lists import MAX_LIST, activity_list
from ndcg_core.classroom.kinds.predict import Predict
from ndcg_core.classroom.lessons import Lesson, Step, lesson_to_toml, read_lesson
from ndcg_core.errors import InputError
from ndcg_core.lists.items import MAX_ITEMS, make_items
from ndcg_core.lists.scoring import Scoring
from ndcg_core.lists.spec import ListSpec
from ndcg_core.trec.compare import Compared, compare_values, p_text
from ndcg_core.trec.evaluate import IDEAL_SOURCE, EvaluationOptions, ideal_word
from ndcg_core.trec.measures import ndcg_cut
from ndcg_core.trec.readers import Qrels, Run, looks_swapped, read_qrels, read_query
from ndcg_core.trec.segmented import evaluate_files
from ndcg_core.validate import MAX_CUTOFF, MAX_TOP_GRADE
from ui import charts, explain_number, uploads
from ui.cache import ResultCache
from ui.editing import TYPED_COLUMNS, typed_queries_to_trec
from ui.format import md_escape, metric_text
from ui.i18n import Translator
from ui.state import bind, classroom_state, evaluate_state, playground_state, widget_value
from ui.stats import reading_key

SAMPLE = Path(__file__).parent.parent / "sample"
SAMPLE_FILES = {"qrels": "qrels.test", "a": "results.test", "b": "results.trunc"}
SOURCES = ("sample", "upload", "typed")
ROLES = ("qrels", "a", "b")
KEEP_UPLOADS_UP_TO = 50 * 1024 * 1024  # files this size or less are kept for a visit to another page
MAX_CUTOFFS = 8
MAX_QUERIES_PLOTTED = 8
MAX_ROWS = 20_000_000  # lines per file; a 7,000 x 1,000 run has 7 million


@dataclass(frozen=True)
class FileInput:
    """One input file: its name, a key that identifies its content, and its bytes."""

    name: str
    key: str
    data: bytes


# --- parsing and evaluating, cached --------------------------------------------------------------


def _check_lines(name: str, data: bytes) -> None:
    rows = data.count(b"\n")
    if rows > MAX_ROWS:
        raise InputError("file.too_long", file=name, count=f"{rows:,}", limit=f"{MAX_ROWS:,}")


@st.cache_resource(max_entries=4, ttl=3600, show_spinner=False)
def _parsed_qrels(key: str, name: str, _data: bytes) -> Qrels:
    """Judgments parsed once per content (keyed by ``key``); shared read-only between sessions."""
    _check_lines(name, _data)
    return read_qrels(_data, name=name)


@st.cache_resource(show_spinner=False)
def _evaluations() -> ResultCache:
    """Evaluations shared by every session, keyed by the files' contents and the settings."""
    return ResultCache(max_entries=16, ttl=3600)


def _evaluated(
    qrels_key: str, options: EvaluationOptions, qrels: Qrels, run: FileInput, progress: Callable[[float], None]
) -> Evaluation:
    """A run evaluated once per (files, settings), read in segments in place as the command line reads it.

    No parsed copy of the run is kept: only the per-query figures, so a 250 MB upload costs little more
    than its own bytes.
    """
    key = (qrels_key, run.key, options)
    evaluation = _evaluations().get(key)
    if evaluation is None:
        _check_lines(run.name, run.data)
        evaluation = evaluate_files(qrels, run.data, options, run_name=run.name, progress=progress)
        _evaluations().put(key, evaluation)
    return evaluation


@st.cache_resource(max_entries=8, ttl=3600, show_spinner=False)
def _query_run(run_key: str, qid: str, one_block: bool, _run: FileInput) -> Run:
    """One query's lines of a run, for the drill-down."""
    return read_query(_run.data, qid, _run.name, one_block=one_block)


def upload_limit_mb() -> int:
    """The largest upload the server takes, in MB (``NDCG_LAB_MAX_UPLOAD_MB``, at most Streamlit's
    ``server.maxUploadSize`` in .streamlit/config.toml; ``ui/uploads.py``)."""
    return uploads.limits().per_file_mb


def render_upload_room(t: Translator) -> None:
    """What the server takes: a file's limit, the whole's, and, when the uploads it holds leave less room than a
    file may take, how much is left (the upload route refuses more: ``ui.uploads.UploadBudget``)."""
    bound = uploads.limits()
    st.caption(
        t("evaluate.upload_limit", megabytes=bound.per_file_mb, lines=f"{MAX_ROWS:,}")
        + " "
        + t("evaluate.uploads_total", total=f"{bound.total_mb:,}")
    )
    held = uploads.held_bytes() // uploads.MB
    free = bound.total_mb - held
    if free < bound.per_file_mb:
        st.warning(
            t("evaluate.uploads_full", held=f"{held:,}", total=f"{bound.total_mb:,}", free=f"{max(free, 0):,}"),
            icon=":material/hourglass_top:",
        )


def content_key(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def sample_inputs() -> dict[str, FileInput]:
    out = {}
    for role, filename in SAMPLE_FILES.items():
        data = (SAMPLE / filename).read_bytes()
        out[role] = FileInput(filename, f"sample:{filename}", data)
    return out


def typed_inputs(rows: Sequence[dict]) -> dict[str, FileInput]:
    qrels_text, run_text = typed_queries_to_trec(rows)
    q, r = qrels_text.encode(), run_text.encode()
    return {
        "qrels": FileInput("typed judgments", content_key(q), q),
        "a": FileInput("typed ranking", content_key(r), r),
    }


def parse_cutoffs(text: str) -> tuple[int, ...]:
    """k values typed as "5, 10, 20"; an ``InputError`` names a bad one."""
    return validate.cutoffs(str(text), limit=MAX_CUTOFF, max_count=MAX_CUTOFFS)


# --- state ---------------------------------------------------------------------------------------


def _remember_upload(role: str) -> None:
    uploaded = widget_value(f"_w_ev_upload_{role}")
    kept = dict(evaluate_state().uploads)
    if uploaded is None:
        kept.pop(role, None)
    else:
        data = uploaded.getvalue()
        if len(data) <= KEEP_UPLOADS_UP_TO:
            kept[role] = FileInput(uploaded.name, content_key(data), data)
        else:
            kept.pop(role, None)
    evaluate_state().uploads = kept


def uploaded_inputs() -> dict[str, FileInput]:
    """Files from the uploaders this run, or those kept from an earlier visit.

    Each upload's content is hashed once (then remembered by its upload id), so the same
    content uploaded again is not parsed again.
    """
    out = dict(evaluate_state().uploads)
    hashes = evaluate_state().upload_hashes
    for role in ROLES:
        uploaded = widget_value(f"_w_ev_upload_{role}")
        if uploaded is not None:
            data = uploaded.getvalue()
            if uploaded.file_id not in hashes:
                hashes[uploaded.file_id] = content_key(data)
            out[role] = FileInput(uploaded.name, hashes[uploaded.file_id], data)
    return out


def open_in_playground(evaluation: Evaluation, qrels: Qrels, run: Run, qid: str, k: int, t: Translator) -> str | None:
    """Load one query into the Playground (its ranking, and its other judged documents as the pool).

    Returns a message if the query cannot be shown there, else ``None``.
    """
    ranking = query_ranking(
        qrels,
        run,
        qid,
        max_docs=evaluation.options.max_docs,
        float32_scores=evaluation.options.scoring.float32_scores,
        judged_only=evaluation.options.judged_only,
    )
    docnos = ranking["docnos"][:MAX_ITEMS]
    # trec_eval's meaning: an unjudged document and a negative grade are worth 0.
    grades = [max(0, g or 0) for g in ranking["grades"][: len(docnos)]]
    # The ideal needs every judged document the list does not show, including those ranked below its end.
    retrieved = set(docnos)
    unretrieved = sorted(
        ((d, max(0, g)) for d, g in ranking["pool"].items() if d not in retrieved), key=lambda x: -x[1]
    )[:MAX_ITEMS]
    top = max([*grades, *(g for _, g in unretrieved), 1])
    if top > MAX_TOP_GRADE:
        return t("evaluate.drill.too_high", top=top, max=MAX_TOP_GRADE)
    items = make_items(docnos, grades)
    extra = make_items([d for d, _ in unretrieved], [g for _, g in unretrieved], first_id=len(items) + 1)
    if not items:
        return t("evaluate.drill.empty", qid=md_escape(qid))
    playground = playground_state()
    # Scored as the evaluation's ndcg_cut: linear gain, log2 discount, the ideal from every judged document.
    origin = ListSpec(tuple(items), Scoring(k=min(k, len(items)), ideal="pool"), int(top), tuple(extra), query=qid)
    playground.restore(origin, keep_scoring=False)
    return None


def lesson_list(evaluation: Evaluation, qrels: Qrels, run: Run, qid: str, k: int) -> tuple[ListSpec, int]:
    """One query as a class list, and how many documents run A retrieved for it: the top ``MAX_LIST`` in
    rank order with their grades (unjudged or negative: 0, trec_eval's meaning), k (at most the list's length) and,
    as the ideal's pool, the grades of every other judged document, those the run missed and those ranked below
    the list's end (as the evaluation's ideal has them). An ``InputError`` if the run retrieved nothing."""
    ranking = query_ranking(
        qrels,
        run,
        qid,
        max_docs=evaluation.options.max_docs,
        float32_scores=evaluation.options.scoring.float32_scores,
        judged_only=evaluation.options.judged_only,
    )
    docnos = tuple(ranking["docnos"][:MAX_LIST])
    grades = tuple(float(max(0, g or 0)) for g in ranking["grades"][: len(docnos)])
    shown = set(docnos)
    # A grade of 0 adds nothing to the ideal: the pool keeps the file short.
    pool = sorted((float(g) for d, g in ranking["pool"].items() if d not in shown and g > 0), reverse=True)
    spec = activity_list(docnos, grades, max(1, min(k, len(docnos))), pool=tuple(pool), query=qid)
    return spec, len(ranking["docnos"])


def add_to_lesson(evaluation: Evaluation, qrels: Qrels, run: Run, qid: str, k: int, t: Translator) -> tuple[bool, str]:
    """Add one query to the lesson draft of the Classroom page's editor as a Predict activity (its kind can be
    changed there), checked as the lesson's file would be. Whether it was added, and the message saying so or why
    not."""
    try:
        spec, retrieved = lesson_list(evaluation, qrels, run, qid, k)
        step = Step(Predict(spec))
        read_lesson(lesson_to_toml(Lesson("-", (*classroom_state().draft, step))))
    except InputError as err:
        return False, t.explain(err)
    number = classroom_state().add_to_draft(step)
    text = t("evaluate.drill.added", qid=md_escape(qid), number=number, k=spec.k)
    if retrieved > MAX_LIST:
        text += " " + t("evaluate.drill.added_top", shown=MAX_LIST, count=retrieved)
    return True, text


# --- drawing -------------------------------------------------------------------------------------


def render_inputs(t: Translator) -> dict[str, FileInput] | None:
    st.radio(
        t("evaluate.source"),
        SOURCES,
        format_func=lambda s: t(f"evaluate.source.{s}"),
        horizontal=True,
        **bind(evaluate_state(), "source"),
    )
    source = evaluate_state().source
    if source == "sample":
        st.caption(t("evaluate.sample_note"))
        return sample_inputs()
    if source == "upload":
        cols = st.columns(3)
        for col, role in zip(cols, ROLES, strict=False):
            col.file_uploader(
                t(f"evaluate.upload.{role}"),
                key=f"_w_ev_upload_{role}",
                on_change=_remember_upload,
                args=(role,),
                help=t("evaluate.upload_help"),
                max_upload_size=upload_limit_mb(),
            )
        render_upload_room(t)
        kept = uploaded_inputs()
        if "qrels" not in kept or "a" not in kept:
            st.info(t("evaluate.upload_needed"))
            return None
        return kept
    st.caption(t("evaluate.typed_help"))
    edited = st.data_editor(
        pd.DataFrame(evaluate_state().typed_rows, columns=list(TYPED_COLUMNS)),
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        key="ev_typed",
        column_config={c: st.column_config.TextColumn(t(f"evaluate.typed.{c}")) for c in TYPED_COLUMNS},
    )
    rows = edited.astype(object).where(edited.notna(), None).to_dict("records")
    try:
        return typed_inputs(rows)
    except ValueError as err:
        st.error(t("evaluate.typed_error", message=t.explain(err)))
        return None


def render_settings(t: Translator) -> EvaluationOptions | None:
    with st.expander(t("evaluate.settings"), expanded=False):
        a, b = st.columns(2)
        a.text_input(t("evaluate.cutoffs"), help=t("evaluate.cutoffs_help"), **bind(evaluate_state(), "cutoffs"))
        a.selectbox(
            t("playground.gain"),
            [n for n in GAINS.names() if n != "custom"],
            format_func=lambda n: t.entry("gain", GAINS[n], "label"),
            **bind(evaluate_state(), "gain"),
        )
        b.selectbox(
            t("evaluate.ties"),
            TIE_POLICIES.names(),
            format_func=lambda n: t.entry("ties", TIE_POLICIES[n], "label"),
            **bind(evaluate_state(), "ties"),
        )
        b.caption(t.entry("ties", TIE_POLICIES[evaluate_state().ties], "description"))
        a.radio(
            t("evaluate.ideal"),
            IDEALS,
            format_func=lambda n: t(f"evaluate.ideal.{n}"),
            **bind(evaluate_state(), "ideal"),
        )
        b.checkbox(t("evaluate.complete"), help=t("evaluate.complete_help"), **bind(evaluate_state(), "complete"))
        b.checkbox(
            t("evaluate.judged_only"), help=t("evaluate.judged_only_help"), **bind(evaluate_state(), "judged_only")
        )
        b.checkbox(
            t("evaluate.relevant_only"),
            help=t("evaluate.relevant_only_help"),
            **bind(evaluate_state(), "relevant_only"),
        )
        b.checkbox(t("evaluate.float32"), help=t("evaluate.float32_help"), **bind(evaluate_state(), "float32"))
    try:
        cutoffs = parse_cutoffs(evaluate_state().cutoffs)
    except ValueError as err:
        st.error(t("evaluate.bad_cutoffs", message=t.explain(err)))
        return None
    state = evaluate_state()
    scoring = Scoring(
        gain=state.gain, ideal=IDEAL_SOURCE[state.ideal], ties=state.ties, float32_scores=bool(state.float32)
    )
    return EvaluationOptions(
        scoring, cutoffs=cutoffs, complete=bool(state.complete), judged_only=bool(state.judged_only)
    )


def counted(evaluation: Evaluation) -> Evaluation:
    """The evaluation over the queries the learner chose to count."""
    return evaluation.with_relevant_only() if evaluate_state().relevant_only else evaluation


def parse_qrels(inputs: dict[str, FileInput], t: Translator) -> Qrels | None:
    item = inputs["qrels"]
    try:
        return _parsed_qrels(item.key, item.name, item.data)
    except InputError as err:
        if "a" in inputs and looks_swapped(err, inputs["a"].data):
            err = InputError("files.swapped", qrels=item.name, run=inputs["a"].name)
        st.error(t("evaluate.bad_file", role=t("evaluate.role.qrels"), message=t.explain(err)))
        return None


def evaluate_all(
    qrels: Qrels, inputs: dict[str, FileInput], options: EvaluationOptions, t: Translator
) -> dict[str, Evaluation] | None:
    out: dict[str, Evaluation] = {}
    for role in ("a", "b"):
        if role not in inputs:
            continue
        run = inputs[role]
        bar = st.empty()

        def show(fraction: float, run: FileInput = run, bar: Any = bar) -> None:
            bar.progress(min(1.0, fraction), text=t("evaluate.reading", name=md_escape(run.name)))

        try:
            evaluation = _evaluated(inputs["qrels"].key, options, qrels, run, show)
        except InputError as err:
            if err.code != "files.no_shared_query":
                bar.empty()
                st.error(t("evaluate.bad_file", role=t(f"evaluate.role.{role}"), message=t.explain(err)))
                return None
            evaluation = None  # a run that shares no query with the qrels
        bar.empty()
        if evaluation is None or not evaluation.qids or not evaluation.columns["in_run"].any():
            st.error(t("evaluate.no_common", run=md_escape(run.name), qrels=md_escape(qrels.name)))
            return None
        out[role] = counted(evaluation)
        if not out[role].qids:
            st.error(t("evaluate.no_relevant"))
            return None
    return out


def _measure_order(evaluation: Evaluation) -> list[Measure]:
    """The measures as the page lists them: each cutoff, then the whole ranking."""
    return [*evaluation.measures[1:], evaluation.measures[0]]


def per_query_table(evaluation: Evaluation, t: Translator) -> pd.DataFrame:
    first = ndcg_cut(evaluation.cutoffs[0])
    columns: dict[str, Any] = {m.label: evaluation.per_query(m) for m in _measure_order(evaluation)}
    columns[f"DCG@{first.cutoff}"] = evaluation.dcg(first)
    columns[f"IDCG@{first.cutoff}"] = evaluation.idcg(first)
    counts = evaluation.table()
    for name, key in (
        ("num_judged", "judged"),
        ("num_rel", "relevant"),
        ("num_ret", "retrieved"),
        ("num_rel_ret", "relevant_retrieved"),
    ):
        columns[t(f"evaluate.col.{key}")] = counts[name].to_numpy()
    table = pd.DataFrame(columns, index=pd.Index(evaluation.qids, name=t("evaluate.col.query")))
    return table


def render_summary(evaluation: Evaluation, t: Translator) -> None:
    measures = _measure_order(evaluation)
    st.markdown(t("evaluate.summary_intro", n=len(evaluation.qids)))
    for chunk in range(0, len(measures), 4):
        cols = st.columns(4)
        for col, m in zip(cols, measures[chunk : chunk + 4], strict=False):
            median = metric_text(evaluation.median(m))
            col.metric(
                t("evaluate.mean_of", measure=m.label),
                metric_text(evaluation.mean(m)),
                help=t("evaluate.median_is", value=median),
            )
            col.caption(t("evaluate.median_caption", value=median))
    long = pd.concat(
        [
            pd.DataFrame({"qid": evaluation.qids, "measure": m.label, "value": evaluation.per_query(m)})
            for m in measures
        ],
        ignore_index=True,
    )
    st.markdown(f"**{t('evaluate.distribution')}**")
    st.altair_chart(charts.distribution_chart(long, t.group("chart")), width="stretch")
    st.caption(t("evaluate.distribution_alt"))


def render_gaps(evaluation: Evaluation, t: Translator) -> None:
    k = evaluation.cutoffs[0]
    at_k = ndcg_cut(k)
    gap = pd.DataFrame(
        {
            t("evaluate.col.query"): evaluation.qids,
            t("evaluate.col.gap", k=k): evaluation.gap(k),
            f"DCG@{k}": evaluation.dcg(at_k),
            f"IDCG@{k}": evaluation.idcg(at_k),
            at_k.label: evaluation.per_query(at_k),
        }
    ).sort_values(t("evaluate.col.gap", k=k), ascending=False, kind="stable")
    st.markdown(f"**{t('evaluate.gaps', k=k)}**")
    st.caption(t("evaluate.gaps_help"))
    st.dataframe(
        gap.head(10),
        hide_index=True,
        width="stretch",
        column_config={c: st.column_config.NumberColumn(format="%.4f") for c in gap.columns[1:]},
    )


def render_by_k(evaluation: Evaluation, t: Translator) -> None:
    qids = evaluation.qids
    first = evaluation.per_query(ndcg_cut(evaluation.cutoffs[0]))
    default = [qids[i] for i in np.argsort(first, kind="stable")[:3]]
    chosen = st.multiselect(
        t("evaluate.by_k_queries"), qids, default=default, max_selections=MAX_QUERIES_PLOTTED, key="ev_by_k_choice"
    )
    if not chosen:
        return
    where = {q: i for i, q in enumerate(qids)}
    rows = [
        {"qid": q, "k": k, "value": float(evaluation.per_query(ndcg_cut(k))[where[q]])}
        for q in chosen
        for k in evaluation.cutoffs
    ]
    st.altair_chart(charts.by_k_chart(pd.DataFrame(rows), t.group("chart")), width="stretch")
    st.caption(t("evaluate.by_k_alt"))


def render_drill_down(evaluation: Evaluation, qrels: Qrels, inputs: dict[str, FileInput], t: Translator) -> None:
    k = evaluation.cutoffs[0]
    order = [evaluation.qids[i] for i in np.argsort(-evaluation.gap(k), kind="stable")]
    qid = st.selectbox(t("evaluate.drill.query"), order, key="ev_drill_query", help=t("evaluate.drill.help"))
    run = _query_run(inputs["a"].key, qid, evaluation.queries_in_blocks, inputs["a"])
    ranking = query_ranking(
        qrels,
        run,
        qid,
        max_docs=None,
        float32_scores=evaluation.options.scoring.float32_scores,
        judged_only=evaluation.options.judged_only,
    )
    shown = pd.DataFrame(
        {
            t("table.position"): range(1, len(ranking["docnos"]) + 1),
            t("evaluate.col.document"): ranking["docnos"],
            t("table.grade"): pd.array(ranking["grades"], dtype="Int64"),  # blank where not judged
            t("evaluate.col.score"): ranking["scores"],
        }
    )
    st.dataframe(shown.head(200), hide_index=True, width="stretch", height=260)
    play, lesson = st.columns(2)
    if play.button(t("evaluate.drill.open"), key="btn_ev_open_playground", type="primary", width="stretch"):
        problem = open_in_playground(evaluation, qrels, run, qid, k, t)
        if problem:
            st.error(problem)
        else:
            st.switch_page("pages/1_Playground.py")
    if lesson.button(
        t("evaluate.drill.lesson"),
        key="btn_ev_add_lesson",
        help=t("evaluate.drill.lesson_help", limit=MAX_LIST),
        icon=":material/playlist_add:",
        width="stretch",
    ):
        added, text = add_to_lesson(evaluation, qrels, run, qid, k, t)
        (st.success if added else st.error)(text)


def render_comparison(evals: dict[str, Evaluation], inputs: dict[str, FileInput], t: Translator) -> None:
    a, b = evals["a"], evals["b"]
    measure = st.selectbox(
        t("evaluate.compare.measure"), _measure_order(a), format_func=lambda m: m.label, key="ev_compare_measure"
    )
    common = [q for q in a.qids if q in set(b.qids)]
    if len(common) < 2:
        st.warning(t("evaluate.compare.too_few", n=len(common)))
        return
    where_a, where_b = {q: i for i, q in enumerate(a.qids)}, {q: i for i, q in enumerate(b.qids)}
    fa = a.per_query(measure)[[where_a[q] for q in common]]
    fb = b.per_query(measure)[[where_b[q] for q in common]]
    names = ["A", "B"] if inputs["a"].name == inputs["b"].name else [inputs["a"].name, inputs["b"].name]
    compared = compare_values(measure, common, names, np.column_stack([fa, fb]))
    result = compared.against[0].comparison
    st.markdown(t("evaluate.compare.systems", a=md_escape(inputs["a"].name), b=md_escape(inputs["b"].name), n=result.n))
    c1, c2, c3, c4 = st.columns(4)
    c1.metric(t("evaluate.compare.mean_diff", measure=measure.label), f"{result.mean_difference:+.4f}")
    c2.metric(t("evaluate.compare.wins"), result.wins)
    c3.metric(t("evaluate.compare.ties"), result.ties)
    c4.metric(t("evaluate.compare.losses"), result.losses)
    st.altair_chart(
        charts.difference_chart(pd.DataFrame({"qid": common, "difference": fb - fa}), t.group("chart")), width="stretch"
    )
    st.caption(t("evaluate.compare.chart_alt"))
    tests = pd.DataFrame(
        {
            t("evaluate.compare.test"): [
                t("evaluate.compare.t_test"),
                t("evaluate.compare.wilcoxon"),
                t("evaluate.compare.randomization"),
            ],
            t("evaluate.compare.p"): [result.t_p_value, result.wilcoxon_p_value, result.randomization_p_value],
        }
    )
    # Text, not a number column: a p of 3.7e-5 must not show as 0.0000.
    tests[t("evaluate.compare.p")] = [p_text(p) for p in tests[t("evaluate.compare.p")]]
    st.dataframe(tests, hide_index=True)
    render_comparison_export(compared, t)
    st.info(
        t(
            reading_key(result.t_p_value),
            p=p_text(result.t_p_value),
            better=md_escape(inputs["b"].name if result.mean_difference > 0 else inputs["a"].name),
        )
    )


def render_comparison_export(compared: Compared, t: Translator) -> None:
    """The comparison as the command line writes it: per-query CSV, JSON and a LaTeX table."""
    stem = "comparison"
    files = (
        ("csv", compared.to_csv, "text/csv"),
        ("json", compared.to_json, "application/json"),
        ("tex", compared.to_latex, "application/x-tex"),
    )
    for column, (ext, make, mime) in zip(st.columns(len(files)), files, strict=True):
        column.download_button(
            t(f"evaluate.compare.export.{ext}"),
            data=make(),
            file_name=f"{stem}.{ext}",
            mime=mime,
            key=f"btn_ev_compare_{ext}",
            width="stretch",
        )


def csv_key(evaluation: Evaluation) -> str:
    """Which evaluation a prepared CSV belongs to (the cached evaluation object, its files and its options)."""
    return f"{id(evaluation)}:{evaluation.qrels_name}:{evaluation.run_name}:{evaluation.options!r}"


def prepare_csv(evaluation: Evaluation, lang: str) -> None:
    """Make the per-query CSV of ``evaluation`` and keep it for the download button (a callback)."""
    state = evaluate_state()
    state.csv = (csv_key(evaluation), per_query_table(evaluation, Translator(lang)).to_csv().encode("utf-8"))


def render_export(evaluation: Evaluation, inputs: dict[str, FileInput], t: Translator) -> None:
    # The CSV is made when it is asked for, not on every run: for thousands of queries it cost a tenth of the
    # page's first results. It is made by a button, then downloaded: a file made on the download's own press belongs
    # to no session, and a busy server's clean-up can delete it before the browser fetches it.
    prepared = evaluate_state().csv
    if prepared is None or prepared[0] != csv_key(evaluation):
        st.button(
            t("evaluate.export.prepare_csv"),
            on_click=prepare_csv,
            args=(evaluation, t.lang),
            key="btn_ev_prepare_csv",
            icon=":material/table_view:",
        )
    else:
        st.download_button(
            t("evaluate.export.csv"),
            prepared[1],
            file_name="ndcg_per_query.csv",
            mime="text/csv",
            key="btn_ev_csv",
            type="primary",
        )
    text = trec_eval_text(evaluation)
    st.download_button(
        t("evaluate.export.trec"),
        text.encode("utf-8"),
        file_name="ndcg.trec_eval.txt",
        mime="text/plain",
        key="btn_ev_trec",
    )
    command = cli_command(evaluation, inputs)
    st.caption(t("evaluate.export.trec_help", command=md_escape(command)) if command else t("evaluate.export.no_cli"))
    st.code(text[-2000:], language=None)


def trec_eval_text(evaluation: Evaluation) -> str:
    """What ``ndcg-lab-eval -q -m ndcg -m ndcg_cut.<ks>`` prints for this evaluation."""
    return format_trec_eval(evaluation, evaluation.measures, per_query=True)


def cli_command(evaluation: Evaluation, inputs: dict[str, FileInput]) -> str | None:
    """The command line that prints the same lines (``None`` if the CLI has no such option)."""
    options, scoring = evaluation.options, evaluation.options.scoring
    if evaluation.relevant_only:
        return None
    flags = ["-q", "-m ndcg", "-m ndcg_cut." + ",".join(str(k) for k in evaluation.cutoffs)]
    if options.complete:
        flags.insert(0, "-c")
    if options.judged_only:
        flags.insert(flags.index("-q") + 1, "-J")
    if scoring.float32_scores:
        flags.append("--float32-scores")
    if scoring.gain != "linear":
        flags.append(f"--gain {scoring.gain}")
    if scoring.ties != "trec_eval":
        flags.append(f"--ties {scoring.ties}")
    if scoring.ideal != "pool":
        flags.append(f"--ideal {ideal_word(scoring)}")
    return f"ndcg-lab-eval {' '.join(flags)} {inputs['qrels'].name} {inputs['a'].name}"


def render_page(t: Translator) -> None:
    st.title(t("evaluate.title"))
    st.caption(t("evaluate.intro"))
    inputs = render_inputs(t)
    options = render_settings(t)
    if inputs is None or options is None:
        return
    with st.status(t("evaluate.working"), expanded=False) as status:
        qrels = parse_qrels(inputs, t)
        evals = None if qrels is None else evaluate_all(qrels, inputs, options, t)
        status.update(
            label=t("evaluate.done") if evals else t("evaluate.failed"), state="complete" if evals else "error"
        )
    if qrels is None or not evals:  # no qrels means no evaluations either
        return
    evaluation = evals["a"]
    tabs = st.tabs(
        [
            t("evaluate.tab.summary"),
            t("evaluate.tab.queries"),
            t("evaluate.tab.drill"),
            t("evaluate.tab.compare"),
            t("evaluate.tab.export"),
        ]
    )
    with tabs[0]:
        render_summary(evaluation, t)
        run = inputs["a"]
        explain_number.render_for_run(t, qrels, inputs["qrels"].key, run.key, run.name, run.data, evaluation.measures)
        render_gaps(evaluation, t)
    with tabs[1]:
        st.dataframe(
            per_query_table(evaluation, t),
            width="stretch",
            column_config={
                c: st.column_config.NumberColumn(format="%.4f")
                for c in [*(f"NDCG@{k}" for k in evaluation.cutoffs), "NDCG"]
            },
        )
        render_by_k(evaluation, t)
    with tabs[2]:
        render_drill_down(evaluation, qrels, inputs, t)
    with tabs[3]:
        if "b" in evals:
            render_comparison(evals, inputs, t)
        else:
            st.info(t("evaluate.compare.need_b"))
    with tabs[4]:
        render_export(evaluation, inputs, t)
