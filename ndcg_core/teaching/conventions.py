"""The conventions that make NDCG libraries disagree, as named presets scored on one example.

An ``Example`` is a ranking given as item ids with scores (so ties can happen) and grades,
plus judged items the system did not retrieve. Each entry of ``CONVENTIONS`` scores it one
way (a ``Scoring``) and carries its formula, where it is used, and (for libraries) a snippet that
reproduces the number there; the tests run the scikit-learn and pytrec_eval snippets.
Scores are compared as doubles (trec_eval 10.0), except under ``float32_scores`` (trec_eval 9.x, pytrec_eval).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .. import validate
from ..errors import InputError, Place
from ..lists.ndcg import validate_grades, validate_k
from ..lists.scores import ndcg_from_scores
from ..lists.scoring import TREC_EVAL, Scoring
from ..registry import Entry, Registry


@dataclass(frozen=True)
class Example:
    """A scored ranking with its judgments: ``items``, ``scores`` and ``grades`` line up; ``extra`` is
    (item, grade) for judged items not retrieved; ``k`` is the cutoff."""

    items: tuple[str, ...]
    scores: tuple[float, ...]
    grades: tuple[float, ...]
    extra: tuple[tuple[str, float], ...] = ()
    k: int | None = 5  # None: the whole list

    def __post_init__(self) -> None:
        if len(self.items) != len(self.grades):
            raise InputError("count.items", items=len(self.items), grades=len(self.grades))
        if len(self.scores) != len(self.grades):
            raise InputError("count.scores", scores=len(self.scores), grades=len(self.grades))
        if not self.items:
            raise InputError("list.empty")
        validate.one_word_ids(
            [*self.items, *(i for i, _ in self.extra)],
            [
                *(Place("table.item", row=r) for r in range(1, len(self.items) + 1)),
                *(Place("extra.item", row=r) for r in range(1, len(self.extra) + 1)),
            ],
        )
        validate_grades(self.scores, "scores")
        validate_grades(self.grades)
        for row, (_, grade) in enumerate(self.extra, start=1):
            validate.grade(grade, Place("extra.grade", row=row))
        validate_k(self.k)

    @property
    def pool(self) -> list[float]:
        """Grades of every judged item, retrieved or not."""
        return [*self.grades, *(g for _, g in self.extra)]

    def judged(self) -> dict[str, float]:
        return {**dict(zip(self.items, self.grades, strict=False)), **dict(self.extra)}


def example_from_rows(rows: Sequence[dict[str, Any]], extra_rows: Sequence[dict[str, Any]], k: Any) -> Example:
    """An ``Example`` from table rows ({item, score, grade}); an ``InputError`` names the row and column."""
    items, scores, grades, extra = [], [], [], []
    for i, row in enumerate(rows, start=1):
        if all(row.get(c) in (None, "") for c in ("item", "score", "grade")):
            continue
        items.append(str(row.get("item") or "").strip())
        scores.append(validate.number(row.get("score"), Place("table.score", row=i)))
        grades.append(validate.grade(row.get("grade"), Place("table.grade", row=i)))
    for i, row in enumerate(extra_rows, start=1):
        if all(row.get(c) in (None, "") for c in ("item", "grade")):
            continue
        extra.append(
            (str(row.get("item") or "").strip(), validate.grade(row.get("grade"), Place("extra.grade", row=i)))
        )
    return Example(tuple(items), tuple(scores), tuple(grades), tuple(extra), validate_k(k))


WIKIPEDIA = Example(
    items=("D1", "D2", "D3", "D4", "D5", "D6"),
    scores=(0.9, 0.8, 0.8, 0.6, 0.5, 0.4),  # D2 and D3 tie
    grades=(3, 2, 3, 0, 1, 2),
    extra=(("D7", 3), ("D8", 2)),
    k=5,
)


@dataclass(frozen=True)
class Convention:
    """One way of computing NDCG: a ``Scoring`` (its k is the example's), its formula and, for a library, a
    snippet. ``whole``: no cutoff, the whole ranking and the whole ideal (trec_eval's ``ndcg``)."""

    name: str
    scoring: Scoring
    formula: str
    library: str = "ndcg_core"
    snippet: Callable[[Example], str] = field(default=lambda ex: "")
    whole: bool = False

    def score(self, example: Example) -> float:
        """NDCG of ``example`` under this convention."""
        s = self.scoring
        k = max(len(example.grades), len(example.pool)) if self.whole else example.k
        return ndcg_from_scores(
            example.grades,
            example.scores,
            k,
            items=example.items,
            ties=s.ties,
            gain=s.gain_function(),
            discount=s.discount_function(),
            pool=s.pool(example.grades, [g for _, g in example.extra]),
            float32_scores=s.float32_scores,
        )


CONVENTIONS: Registry[Convention] = Registry("convention")

LINEAR_LOG2 = r"\mathrm{NDCG@}k = \frac{\sum_{i=1}^{k} \mathrm{rel}_i / \log_2(i+1)}{\mathrm{IDCG@}k}"


def _ids(example: Example) -> str:
    return repr(list(example.items))


def _core_snippet(call: str) -> Callable[[Example], str]:
    def make(ex: Example) -> str:
        return (
            "from ndcg_core import ndcg_from_scores\n"
            f"grades = {list(ex.grades)!r}\nscores = {list(ex.scores)!r}\nitems = {_ids(ex)}\n"
            f"pool = grades + {[g for _, g in ex.extra]!r}  # every judged item\n"
            f"print(round({call.format(k=ex.k)}, 4))\n"
        )

    return make


def _pytrec_snippet(measure: str, key: str) -> Callable[[Example], str]:
    def make(ex: Example) -> str:
        qrels = {"q": {item: int(g) for item, g in ex.judged().items()}}
        run = {"q": dict(zip(ex.items, ex.scores, strict=False))}
        return (
            "import pytrec_eval\n"
            f"qrels = {qrels!r}\nrun = {run!r}\n"
            f"result = pytrec_eval.RelevanceEvaluator(qrels, {{{measure.format(k=ex.k)!r}}}).evaluate(run)\n"
            f"print(round(result['q'][{key.format(k=ex.k)!r}], 4))\n"
        )

    return make


def _sklearn_snippet(ex: Example) -> str:
    return (
        "from sklearn.metrics import ndcg_score\n"
        f"print(round(ndcg_score([{list(ex.grades)!r}], [{list(ex.scores)!r}], k={ex.k}), 4))\n"
    )


def _ranx_snippet(ex: Example) -> str:
    qrels = {"q": {item: int(g) for item, g in ex.judged().items()}}
    run = {"q": dict(zip(ex.items, ex.scores, strict=False))}
    return (
        "from ranx import Qrels, Run, evaluate\n"
        f"print(round(evaluate(Qrels({qrels!r}), Run({run!r}), 'ndcg_burges@{ex.k}'), 4))\n"
    )


@CONVENTIONS.register(
    "sklearn",
    "scikit-learn ndcg_score",
    "scikit-learn's ndcg_score(y_true, y_score, k): linear gain, log2 discount, the ideal from the "
    "list's own grades, tied scores averaged.",
)
def _sklearn() -> Convention:
    return Convention(
        "sklearn",
        Scoring(ties="average"),
        LINEAR_LOG2 + r",\ \text{ideal from the list, ties averaged}",
        "scikit-learn",
        _sklearn_snippet,
    )


@CONVENTIONS.register(
    "trec_eval_ndcg",
    "trec_eval ndcg",
    "trec_eval's ndcg: no cutoff, the ideal from every judged item, scores compared as doubles "
    "(trec_eval 10.0), ties by item id descending. pytrec_eval agrees unless two scores are "
    "equal only as 32-bit floats.",
)
def _trec_eval_ndcg() -> Convention:
    return Convention(
        "trec_eval_ndcg",
        TREC_EVAL,
        r"\mathrm{NDCG} = \frac{\sum_{i=1}^{n} \mathrm{rel}_i / \log_2(i+1)}{\mathrm{IDCG}_{\text{all judged}}}",
        "pytrec_eval",
        _pytrec_snippet("ndcg", "ndcg"),
        whole=True,
    )


@CONVENTIONS.register(
    "trec_eval_ndcg_cut",
    "trec_eval ndcg_cut",
    "trec_eval's ndcg_cut.k: as ndcg, cut at k, the ideal's top k from every judged item.",
)
def _trec_eval_ndcg_cut() -> Convention:
    return Convention(
        "trec_eval_ndcg_cut",
        TREC_EVAL,
        LINEAR_LOG2 + r",\ \text{ideal from all judgments}",
        "pytrec_eval",
        _pytrec_snippet("ndcg_cut.{k}", "ndcg_cut_{k}"),
    )


@CONVENTIONS.register(
    "float32_scores",
    "Scores as 32-bit floats (trec_eval 9.x, pytrec_eval)",
    "trec_eval ndcg_cut with scores rounded to 32-bit floats before ranking, as trec_eval 9.x and "
    "pytrec_eval do: scores equal as float32 (1.000000001 and 1.0) tie and go by item id "
    "descending. It changes the result only when two scores differ beyond float32 precision "
    "(about 7 significant digits).",
)
def _float32_scores() -> Convention:
    return Convention(
        "float32_scores",
        replace(TREC_EVAL, float32_scores=True),
        LINEAR_LOG2 + r",\ \text{scores rounded to 32-bit floats}",
        "pytrec_eval",
        _pytrec_snippet("ndcg_cut.{k}", "ndcg_cut_{k}"),
    )


@CONVENTIONS.register(
    "burges",
    "Exponential gain (Burges et al. 2005)",
    "Gain 2^rel - 1, which stresses highly relevant items: RankNet/LambdaRank papers, ranx's "
    "ndcg_burges, LightGBM and XGBoost's ndcg by default.",
)
def _burges() -> Convention:
    return Convention(
        "burges",
        replace(TREC_EVAL, gain="exponential"),
        r"\mathrm{DCG@}k = \sum_{i=1}^{k} \frac{2^{\mathrm{rel}_i} - 1}{\log_2(i+1)}",
        "ranx",
        _ranx_snippet,
    )


@CONVENTIONS.register(
    "jk",
    "Järvelin-Kekäläinen (2002), b = 2",
    "The original DCG: positions before b are not discounted; from position b on the discount is "
    "1/log_b(i), of the position i itself (not i + 1). With b = 2, positions 1 and 2 both count in full.",
)
def _jk() -> Convention:
    return Convention(
        "jk",
        replace(TREC_EVAL, discount="jk"),
        r"\mathrm{DCG@}k = \sum_{i<b} \mathrm{rel}_i + \sum_{b \le i \le k} \frac{\mathrm{rel}_i}{\log_b i}",
        "ndcg_core",
        _core_snippet('ndcg_from_scores(grades, scores, {k}, items=items, discount="jk", pool=pool)'),
    )


@CONVENTIONS.register(
    "ideal_list",
    "Ideal from the list only",
    "The ideal is the retrieved items re-sorted: judged items the system missed are ignored, so "
    "the score is higher (many tutorials, scikit-learn).",
)
def _ideal_list() -> Convention:
    return Convention(
        "ideal_list",
        Scoring(),
        LINEAR_LOG2 + r",\ \text{ideal from the list}",
        "ndcg_core",
        _core_snippet("ndcg_from_scores(grades, scores, {k}, items=items)"),
    )


def _ties(policy: str, label: str) -> None:
    @CONVENTIONS.register(
        f"ties_{policy}",
        f"Ties: {label}",
        f"Equal scores ordered by the {policy} policy; the ideal from all judgments, cut at k.",
    )
    def _make() -> Convention:
        return Convention(
            f"ties_{policy}",
            replace(TREC_EVAL, ties=policy),
            LINEAR_LOG2 + rf",\ \text{{ties: {policy}}}",
            "ndcg_core",
            _core_snippet(f'ndcg_from_scores(grades, scores, {{k}}, items=items, ties="{policy}", pool=pool)'),
        )


for _policy, _label in (
    ("trec_eval", "trec_eval's order"),
    ("average", "averaged"),
    ("best", "best order"),
    ("worst", "worst order"),
):
    _ties(_policy, _label)


# The convention Learn and Practice score under (``exercises.GAIN``, ``exercises.DISCOUNT``, the ideal from the
# list's own grades): the Conventions page starts from it, as the one the learner knows.
LEARNT = "ideal_list"


def learnt_first() -> list[Entry[Convention]]:
    """Every convention, the one Learn and Practice use (``LEARNT``) first, then the others in registry order."""
    return [CONVENTIONS[LEARNT], *(entry for entry in CONVENTIONS if entry.name != LEARNT)]


def score_all(example: Example) -> dict[str, float]:
    """Every convention's NDCG for ``example``, keyed by name."""
    return {entry.name: entry.build().score(example) for entry in CONVENTIONS}
