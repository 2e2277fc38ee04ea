"""The catalogue of NDCG conventions an explanation searches: the changes from this project's default, and the tools.

Each axis (``AXES``: gain, discount, where the ideal comes from, judged documents only, tie policy, -M depth, cut
style, queries without results, score precision) has this project's default (trec_eval 10.0's) and its other values,
each a ``CHANGES`` entry with one sentence on why a tool does it and a source. A ``Variant`` picks one value per
axis; ``LIBRARIES`` names the tools as variants. Where a learner's mistake (``mistakes.MISTAKES``) is the same
change, the change names it (``Change.mistake``), so the learner's catalogue and the practitioner's are one where
they overlap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..errors import InputError, shown
from ..lists.scoring import TREC_EVAL, Scoring
from ..registry import Registry
from ..trec.evaluate import EvaluationOptions
from ..trec.measures import Measure


@dataclass(frozen=True)
class Change:
    """One value of one axis that differs from the default: why a tool does it, a source, and the learner's mistake
    that is the same change (a ``MISTAKES`` code), if any. ``evaluated``: False for a value that gives the same NDCG
    as the default by algebra (a log's base cancels), listed beside a match rather than searched."""

    axis: str
    value: str
    source: str
    mistake: str | None = None
    evaluated: bool = True


CHANGES: Registry[Change] = Registry("explain_change")

# Each axis's values, the default first (trec_eval 10.0: linear gain, log2(i + 1), the ideal from the qrels, every
# retrieved document scored, ties by docno, no -M, ndcg_cut, queries without results left out, scores compared as
# doubles). The depth's other value stands for any -M N (``Variant.depth`` holds N, as digits).
AXES: dict[str, tuple[str, ...]] = {
    "gain": ("linear", "exponential", "binary"),
    "discount": ("log2", "jk2", "jk10", "ln"),
    "ideal": ("qrels", "run"),
    "judged": ("all", "only"),
    "ties": ("trec_eval", "average", "best", "worst", "file"),
    "depth": ("all", "M"),
    "cut": ("ndcg_cut", "max_docs", "ndcg"),
    "queries": ("left_out", "complete"),
    "scores": ("double", "float32"),
}


def _change(name: str, label: str, why: str, axis: str, value: str, source: str, **more: Any) -> None:
    CHANGES.register(name, label, why)(lambda: Change(axis, value, source, **more))


_change(
    "gain.exponential",
    "Exponential gain 2^g - 1",
    "gdeval, ranx's ndcg_burges, LightGBM, TF-Ranking and Elasticsearch weigh a grade g as 2^g - 1, stressing highly "
    "relevant documents, where trec_eval uses g itself.",
    "gain",
    "exponential",
    "https://github.com/castorini/anserini/issues/92",
    mistake="gain_exponential",
)
_change(
    "gain.binary",
    "Binary gain",
    "Spark MLlib's ndcgAt without relevance values counts every relevant document as 1, whatever its grade.",
    "gain",
    "binary",
    "https://spark.apache.org/docs/latest/api/python/reference/api/pyspark.mllib.evaluation.RankingMetrics.html",
)
_change(
    "discount.jk2",
    "Järvelin-Kekäläinen discount, b = 2",
    "The original DCG (Järvelin and Kekäläinen 2002) leaves positions before b undiscounted and divides by log_b(i), "
    "not log2(i + 1).",
    "discount",
    "jk2",
    "https://doi.org/10.1145/582415.582418",
    mistake="discount_log_i",
)
_change(
    "discount.jk10",
    "Järvelin-Kekäläinen discount, b = 10",
    "Järvelin and Kekäläinen's discount with a patient user's base 10: the first nine positions count in full.",
    "discount",
    "jk10",
    "https://doi.org/10.1145/582415.582418",
)
_change(
    "discount.ln",
    "Natural log ln(i + 1)",
    "ML.NET and many hand-written NDCGs divide by ln(i + 1): the log's base cancels in NDCG, so it gives the same "
    "number (only DCG differs).",
    "discount",
    "ln",
    "https://learn.microsoft.com/dotnet/api/microsoft.ml.data.rankingmetrics",
    mistake="log_natural",
    evaluated=False,
)
_change(
    "ideal.run",
    "Ideal from the run",
    "scikit-learn, TF-Ranking and many hand-written NDCGs sort only the retrieved documents for the ideal, so judged "
    "documents the run missed do not lower the score.",
    "ideal",
    "run",
    "https://github.com/usnistgov/trec_eval/issues/11",
    mistake="ideal_from_list",
)
_change(
    "judged.only",
    "-J: judged documents only",
    "trec_eval -J and ir_measures' judged_only drop the documents the qrels do not grade from each ranking before "
    "scoring it, so the judged ones move up; the ideal is the same.",
    "judged",
    "only",
    "https://github.com/usnistgov/trec_eval/blob/master/form_res_rels.c",
)
_change(
    "ties.average",
    "Ties averaged",
    "scikit-learn's ndcg_score gives each group of tied scores its average gain instead of ordering it.",
    "ties",
    "average",
    "https://scikit-learn.org/stable/modules/generated/sklearn.metrics.ndcg_score.html",
)
_change(
    "ties.best",
    "Ties in their best order",
    "A tool that keeps the input order of tied documents, given them best first, orders ties by grade.",
    "ties",
    "best",
    "https://github.com/usnistgov/trec_eval/issues/22",
)
_change(
    "ties.worst",
    "Ties in their worst order",
    "A tool that keeps the input order of tied documents, given them worst first: trec_eval orders ties by document "
    "id instead.",
    "ties",
    "worst",
    "https://github.com/usnistgov/trec_eval/issues/22",
)
_change(
    "ties.file",
    "Ties in file order",
    "ranx, and any tool that sorts a run file with a stable sort, keeps tied documents in the order of the file; "
    "trec_eval orders them by document id instead.",
    "ties",
    "file",
    "https://github.com/AmenRa/ranx/blob/master/ranx/metrics/ndcg.py",
)
_change(
    "depth.M",
    "-M N: each ranking cut at N documents",
    "trec_eval -M N (TREC's official runs use -M 1000) scores only the first N documents of each ranking, whatever "
    "the measure; the ideal is not cut by it.",
    "depth",
    "M",
    "https://github.com/usnistgov/trec_eval/blob/master/README",
)
_change(
    "cut.max_docs",
    "-M k: the run cut, the ideal not",
    "trec_eval's ndcg with -M k cuts the run at k but keeps the whole ideal, which is not ndcg_cut.k.",
    "cut",
    "max_docs",
    "https://github.com/cvangysel/pytrec_eval/issues/40",
    mistake="ideal_not_cut",
)
_change(
    "cut.ndcg",
    "ndcg: nothing cut",
    "trec_eval's ndcg scores the whole ranking against the whole ideal: it is not NDCG@k.",
    "cut",
    "ndcg",
    "https://github.com/usnistgov/trec_eval/issues/11",
    mistake="nothing_cut",
)
_change(
    "queries.complete",
    "-c: queries without results count as 0",
    "trec_eval -c, MTEB and the fixed spiceai count a judged query the run did not answer as 0; without -c it is left "
    "out of the mean, which raises it.",
    "queries",
    "complete",
    "https://github.com/spiceai/spiceai/issues/12277",
)
_change(
    "scores.float32",
    "Scores as 32-bit floats",
    "trec_eval 9.x and pytrec_eval read scores as 32-bit floats, so scores equal to about 7 digits tie and go by "
    "document id.",
    "scores",
    "float32",
    "https://github.com/usnistgov/trec_eval/issues/22",
)


@dataclass(frozen=True)
class Variant:
    """One value per axis (``AXES``); the defaults are trec_eval 10.0's ``ndcg_cut``."""

    gain: str = "linear"
    discount: str = "log2"
    ideal: str = "qrels"
    judged: str = "all"
    ties: str = "trec_eval"
    depth: str = "all"  # or -M's N, as digits
    cut: str = "ndcg_cut"
    queries: str = "left_out"
    scores: str = "double"

    def __post_init__(self) -> None:
        for axis in AXES:
            value = getattr(self, axis)
            if value not in AXES[axis] and not (axis == "depth" and value.isdigit() and int(value) > 0):
                raise InputError("variant.parameter", value=shown(value), parameter=axis, variant="explain")

    def changes(self, measure: Measure | None = None) -> tuple[str, ...]:
        """The ``CHANGES`` names of the axes that differ from the default, in ``AXES`` order (for a whole-ranking
        ``measure``, the default cuts nowhere)."""
        default = DEFAULT if measure is None or measure.cutoff is not None else replace(DEFAULT, cut="ndcg")
        return tuple(
            f"{axis}.{'M' if axis == 'depth' else getattr(self, axis)}"
            for axis in AXES
            if getattr(self, axis) != getattr(default, axis)
        )

    @property
    def max_docs(self) -> int | None:
        """-M's N, if this variant cuts each ranking."""
        return None if self.depth == "all" else int(self.depth)

    def options(self, grades: Iterable[int], cutoffs: tuple[int, ...], max_docs: int | None) -> EvaluationOptions:
        """The ``EvaluationOptions`` of this variant's evaluated axes (``scoring``; judged-only), with these cutoffs
        and ``max_docs`` (a given -M; the depth axis is read from cutoffs' columns, not evaluated)."""
        return EvaluationOptions(
            self.scoring(grades), cutoffs=cutoffs, max_docs=max_docs, judged_only=self.judged == "only"
        )

    def scoring(self, grades: Iterable[int]) -> Scoring:
        """The ``Scoring`` of this variant (``grades``: every grade judged, for the binary gain's table)."""
        gain = "custom" if self.gain == "binary" else self.gain
        table = tuple((float(g), 1.0) for g in sorted(set(grades)) if g > 0) if self.gain == "binary" else ()
        discount, base = ("jk", float(self.discount[2:])) if self.discount.startswith("jk") else ("log2", 2.0)
        return replace(
            TREC_EVAL,
            gain=gain,
            gain_table=table,
            discount=discount,
            base=base,
            ideal="pool" if self.ideal == "qrels" else "list",
            ties=self.ties,
            float32_scores=self.scores == "float32",
        )


DEFAULT = Variant()


@dataclass(frozen=True)
class Library:
    """A named tool as a variant: the axes it changes from the default, and a source for it. ``unstable``: its sort
    of tied documents is not stable, so its order of ties is only mostly its convention's (a near number, not one)."""

    changes: Mapping[str, str]
    source: str
    unstable: bool = False

    def variant(self, measure: Measure) -> Variant:
        """The tool's variant for ``measure`` (a whole-ranking measure is cut nowhere)."""
        v = replace(DEFAULT, **dict(self.changes))
        return replace(v, cut="ndcg") if measure.cutoff is None else v


LIBRARIES: Registry[Library] = Registry("explain_library")


def _library(name: str, label: str, why: str, source: str, *, unstable: bool = False, **changes: str) -> None:
    LIBRARIES.register(name, label, why)(lambda: Library(changes, source, unstable))


_library(
    "trec_eval_10",
    "trec_eval 10.0",
    "This project's default: linear gain, log2(i + 1), the ideal from the qrels, ties by document id descending.",
    "https://github.com/usnistgov/trec_eval",
)
_library(
    "trec_eval_9",
    "trec_eval 9.x",
    "Reads scores as 32-bit floats, so scores equal to about 7 digits tie and go by document id.",
    "https://github.com/usnistgov/trec_eval/issues/22",
    scores="float32",
)
_library(
    "pytrec_eval",
    "pytrec_eval",
    "Wraps trec_eval 9.0.x, scores read as 32-bit floats; its ndcg with -M is not ndcg_cut (pytrec_eval#40).",
    "https://github.com/cvangysel/pytrec_eval/issues/40",
    scores="float32",
)
_library(
    "ir_measures",
    "ir_measures nDCG@k",
    "Computes nDCG@k through pytrec_eval by default, so it prints what pytrec_eval prints.",
    "https://ir-measur.es/en/latest/measures.html",
    scores="float32",
)
_library(
    "trec_eval_J",
    "trec_eval 10.0 -J",
    "trec_eval with -J scores only the judged documents of each ranking, in their order.",
    "https://github.com/usnistgov/trec_eval/blob/master/form_res_rels.c",
    judged="only",
)
_library(
    "ir_measures_judged",
    "ir_measures nDCG@k(judged_only=True)",
    "Asks pytrec_eval for trec_eval's -J (judged_docs_only_flag): judged documents only, scores as 32-bit floats.",
    "https://github.com/terrierteam/ir_measures/blob/main/ir_measures/providers/pytrec_eval_provider.py",
    judged="only",
    scores="float32",
)
_library(
    "gdeval",
    "gdeval.pl",
    "The TREC Web track's gdeval weighs a grade g as 2^g - 1 (0.5618 against trec_eval's 0.5371 in OpenNIR#14).",
    "https://github.com/Georgetown-IR-Lab/OpenNIR/issues/14",
    gain="exponential",
)
_library(
    "sklearn",
    "scikit-learn ndcg_score",
    "Sees only the scores and grades it is given: the ideal from those, tied scores averaged.",
    "https://scikit-learn.org/stable/modules/generated/sklearn.metrics.ndcg_score.html",
    ideal="run",
    ties="average",
)
_library(
    "ranx",
    "ranx ndcg",
    "ranx's ndcg is trec_eval's (linear gain, the ideal from the qrels) but keeps tied documents in the order of "
    "the run file.",
    "https://amenra.github.io/ranx/metrics/",
    ties="file",
    unstable=True,
)
_library(
    "ranx_burges",
    "ranx ndcg_burges",
    "ranx's ndcg_burges weighs a grade g as 2^g - 1 (Burges et al. 2005) and keeps tied documents in file order.",
    "https://amenra.github.io/ranx/metrics/",
    gain="exponential",
    ties="file",
    unstable=True,
)
_library(
    "spark",
    "Spark MLlib RankingMetrics.ndcgAt",
    "Knows one gain, 1 per relevant document, and builds its ideal from the label set in the order given.",
    "https://spark.apache.org/docs/latest/api/python/reference/api/pyspark.mllib.evaluation.RankingMetrics.html",
    gain="binary",
)
_library(
    "tf_ranking",
    "TF-Ranking NDCGMetric",
    "Weighs a grade g as 2^g - 1 and sorts only the list it is given for the ideal.",
    "https://www.tensorflow.org/ranking/api_docs/python/tfr/keras/metrics/NDCGMetric",
    gain="exponential",
    ideal="run",
)
_library(
    "elasticsearch",
    "Elasticsearch rank_eval dcg (normalize)",
    "Weighs a rating r as 2^r - 1; the ideal from every rated document of the request.",
    "https://www.elastic.co/guide/en/elasticsearch/reference/current/search-rank-eval.html",
    gain="exponential",
)
