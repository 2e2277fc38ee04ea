"""Runs compared query by query: each run against the first (the baseline) on one measure, with wins, ties and
losses, a paired t-test, the Wilcoxon signed-rank test and a randomization test, each corrected for the number of
runs compared (Holm), written as a table, CSV, JSON or LaTeX.

``paired_comparison`` compares two vectors of per-query values; ``compare`` evaluates the runs (every judged query,
a query a run did not answer counting 0, as trec_eval's ``-c``: a paired test needs the same queries) and compares
each with the baseline. SciPy does the tests; it is imported when a test is run.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from ..errors import InputError, shown
from .evaluate import EvaluationOptions, evaluate
from .measures import Measure, parse_measure
from .readers import Qrels, Run

if TYPE_CHECKING:
    import pandas as pd

TIE_TOLERANCE = 1e-12  # differences this small count as ties (the two runs agree to rounding)
PERMUTATIONS = 10_000
SEED = 20091  # the randomization test is seeded, so a comparison gives the same p-value every time
ALPHA = 0.05
TESTS = ("t", "wilcoxon", "randomization")


@dataclass(frozen=True)
class Comparison:
    """System B against system A over the same queries (differences are B - A); p-values two-sided."""

    n: int
    wins: int
    ties: int
    losses: int
    mean_difference: float
    t_statistic: float
    t_p_value: float
    wilcoxon_p_value: float
    randomization_p_value: float

    def p_value(self, test: str) -> float:
        """The p-value of one of ``TESTS``."""
        return {"t": self.t_p_value, "wilcoxon": self.wilcoxon_p_value, "randomization": self.randomization_p_value}[
            test
        ]


def paired_comparison(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> Comparison:
    """Paired t-test, Wilcoxon signed-rank test and a randomization test of B - A (two-sided)."""
    from scipy import stats  # imported here: only a comparison needs SciPy

    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        raise InputError("paired.mismatch", a=len(x), b=len(y))
    if len(x) < 2:
        raise InputError("paired.too_few", count=len(x))
    d = y - x
    wins, losses = int(np.sum(d > TIE_TOLERANCE)), int(np.sum(d < -TIE_TOLERANCE))
    if np.all(np.abs(d) <= TIE_TOLERANCE):
        t_stat, p_t, p_w, p_r = 0.0, 1.0, 1.0, 1.0
    else:
        if np.ptp(d) <= TIE_TOLERANCE:  # one and the same non-zero difference everywhere: no variance
            t_stat, p_t = float(np.sign(d.mean()) * np.inf), 0.0
        else:
            t = stats.ttest_rel(y, x)
            t_stat, p_t = float(t.statistic), float(t.pvalue)
        p_w = float(stats.wilcoxon(y, x, zero_method="wilcox").pvalue)
        p_r = float(
            stats.permutation_test(
                (d,),
                np.mean,
                permutation_type="samples",
                n_resamples=PERMUTATIONS,
                alternative="two-sided",
                random_state=SEED,
            ).pvalue
        )
    return Comparison(len(d), wins, len(d) - wins - losses, losses, float(d.mean()), t_stat, p_t, p_w, p_r)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of p-values of several tests (each at most 1, never below a smaller p's)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def p_text(p: float) -> str:
    """A p-value as printed: four decimals, or scientific notation below 0.001 (never "0.0000")."""
    return f"{p:.4f}" if p >= 1e-3 or p == 0 else f"{p:.1e}"


@dataclass(frozen=True)
class RunAgainstBaseline:
    """One run against the baseline: its mean, the paired comparison, and the Holm-corrected p-values (by test)."""

    name: str
    mean: float
    comparison: Comparison
    corrected: dict[str, float]

    def significant(self, test: str = "t", alpha: float = ALPHA) -> bool:
        """Whether the corrected p-value of ``test`` is below ``alpha``."""
        return self.corrected[test] < alpha


@dataclass(frozen=True)
class Compared:
    """Several runs on one measure: per-query values (one column per run, the baseline first) and each run against
    the baseline."""

    measure: Measure
    qids: tuple[str, ...]
    names: tuple[str, ...]
    values: np.ndarray  # queries x runs
    against: tuple[RunAgainstBaseline, ...]

    @property
    def baseline_mean(self) -> float:
        """The baseline's mean over the queries compared."""
        return float(self.values[:, 0].mean())

    def per_query(self) -> pd.DataFrame:
        """One row per query: each run's value, then each run's difference from the baseline."""
        import pandas as pd

        frame = pd.DataFrame(self.values, columns=list(self.names), index=pd.Index(self.qids, name="qid"))
        for name in self.names[1:]:
            frame[f"{name} - {self.names[0]}"] = frame[name] - frame[self.names[0]]
        return frame

    def table(self) -> pd.DataFrame:
        """One row per run (the baseline first): mean, difference, wins, ties, losses, each test's p-value and
        its Holm-corrected one."""
        import pandas as pd

        rows = [{"run": self.names[0], "mean": self.baseline_mean}]
        for r in self.against:
            c = r.comparison
            row = {"run": r.name, "mean": r.mean, "difference": c.mean_difference}
            row.update({"wins": c.wins, "ties": c.ties, "losses": c.losses})
            for test in TESTS:
                row[f"p_{test}"] = c.p_value(test)
                row[f"p_{test}_holm"] = r.corrected[test]
            rows.append(row)
        return pd.DataFrame(rows).set_index("run")

    def to_csv(self) -> str:
        """The per-query values and differences as CSV, every digit kept."""
        return str(self.per_query().to_csv(float_format="%.17g"))

    def to_json(self) -> str:
        """The whole comparison as JSON: the measure, the runs, each against the baseline, every query's values."""
        document = {
            "measure": self.measure.name,
            "baseline": self.names[0],
            "queries": len(self.qids),
            "correction": "holm",
            "runs": [{"run": self.names[0], "mean": self.baseline_mean}]
            + [
                {
                    "run": r.name,
                    "mean": r.mean,
                    "difference": r.comparison.mean_difference,
                    "wins": r.comparison.wins,
                    "ties": r.comparison.ties,
                    "losses": r.comparison.losses,
                    "p": {test: r.comparison.p_value(test) for test in TESTS},
                    "p_holm": dict(r.corrected),
                }
                for r in self.against
            ],
            "per_query": {
                qid: dict(zip(self.names, map(float, row), strict=True))
                for qid, row in zip(self.qids, self.values, strict=True)
            },
        }
        return json.dumps(document, indent=1, allow_nan=False)

    def to_latex(self, test: str = "t", alpha: float = ALPHA) -> str:
        """A LaTeX table (booktabs): each run's mean, its difference, wins/ties/losses and the corrected p-value of
        ``test``; a dagger marks a run significantly different from the baseline."""
        lines = [
            r"\begin{tabular}{lrrrr}",
            r"\toprule",
            f"Run & {_latex(self.measure.name)} & $\\Delta$ & W/T/L & $p$ (Holm) \\\\",
            r"\midrule",
            f"{_latex(self.names[0])} & {self.baseline_mean:.4f} & & & \\\\",
        ]
        for r in self.against:
            c = r.comparison
            mark = "$^\\dagger$" if r.significant(test, alpha) else ""
            lines.append(
                f"{_latex(r.name)} & {r.mean:.4f}{mark} & {c.mean_difference:+.4f} & {c.wins}/{c.ties}/{c.losses} & "
                f"{_latex_p(r.corrected[test])} \\\\"
            )
        lines += [r"\bottomrule", r"\end{tabular}"]
        return "\n".join(lines) + "\n"

    def lines(self, test: str = "t", alpha: float = ALPHA) -> list[str]:
        """The comparison as the command line prints it: a heading, then one line per run."""
        head = (
            f"{self.measure.name} over {len(self.qids)} queries; baseline {self.names[0]}; "
            f"p-values two-sided, Holm-corrected for {len(self.against)} run(s); * p < {alpha} ({test}-test)"
        )
        width = max(len(n) for n in self.names)
        header = f"{'run':<{width}}  {'mean':>6}  {'diff':>7}  {'W/T/L':>11}  {'p t':>8}  {'p wilcoxon':>10}  "
        header += f"{'p random':>8}"
        out = [head, header, f"{self.names[0]:<{width}}  {self.baseline_mean:.4f}"]
        for r in self.against:
            c = r.comparison
            mark = "*" if r.significant(test, alpha) else " "
            wtl = f"{c.wins}/{c.ties}/{c.losses}"
            ps = [p_text(r.corrected[t]) for t in TESTS]
            out.append(
                f"{r.name:<{width}}  {r.mean:.4f}  {c.mean_difference:+.4f}{mark} {wtl:>11}  {ps[0]:>8}  {ps[1]:>10}  "
                f"{ps[2]:>8}"
            )
        return out


def _latex(text: str) -> str:
    """Text as LaTeX prints it: its special characters escaped."""
    special = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{"}
    special.update({"}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"})
    return "".join(special.get(ch, ch) for ch in text)


def _latex_p(p: float) -> str:
    if p >= 1e-3 or p == 0:
        return f"{p:.4f}"
    mantissa, exponent = f"{p:.1e}".split("e")
    return f"${mantissa} \\times 10^{{{int(exponent)}}}$"


def compare(
    qrels: Qrels,
    runs: Sequence[Run],
    measure: Measure | str = "ndcg_cut.10",
    *,
    options: EvaluationOptions | None = None,
    names: Sequence[str] | None = None,
) -> Compared:
    """Each run after the first against the first, query by query, on ``measure`` (a ``Measure`` or its trec_eval
    name): every judged query counts, a query a run did not answer as 0 (``-c``), so every run has the same queries.
    ``options`` (trec_eval's by default) score every run; ``names`` label them (their file names by default)."""
    if len(runs) < 2:
        raise InputError("compare.runs", count=len(runs))
    chosen = _measure(measure)
    names = tuple(names) if names is not None else tuple(run.name for run in runs)
    if len(names) != len(runs):
        raise InputError("compare.names", names=len(names), runs=len(runs))
    if len(set(names)) != len(names):
        raise InputError("compare.same_name", value=shown(next(n for n in names if names.count(n) > 1)))
    base = options or EvaluationOptions()
    cutoffs = tuple(sorted({*base.cutoffs, chosen.cutoff})) if chosen.cutoff is not None else base.cutoffs
    scored = replace(base, cutoffs=cutoffs, complete=True)
    evaluations = [evaluate(qrels, run, scored) for run in runs]
    qids = tuple(evaluations[0].qids)
    for evaluation in evaluations[1:]:  # every judged query, in trec_eval's order: the same list for every run
        if tuple(evaluation.qids) != qids:
            raise InputError("paired.mismatch", a=len(qids), b=len(evaluation.qids))
    return compare_values(chosen, qids, names, np.column_stack([e.per_query(chosen) for e in evaluations]))


def compare_values(measure: Measure, qids: Sequence[str], names: Sequence[str], values: np.ndarray) -> Compared:
    """The comparison of per-query ``values`` already computed (queries x runs, the baseline's column first): the
    Evaluate page's two runs over the queries both answered, or ``compare``'s."""
    values = np.asarray(values, dtype=np.float64)
    comparisons = [paired_comparison(values[:, 0], values[:, i]) for i in range(1, values.shape[1])]
    corrected = {test: holm([c.p_value(test) for c in comparisons]) for test in TESTS}
    against = tuple(
        RunAgainstBaseline(names[i + 1], float(values[:, i + 1].mean()), c, {t: corrected[t][i] for t in TESTS})
        for i, c in enumerate(comparisons)
    )
    return Compared(measure, tuple(qids), tuple(names), values, against)


def _measure(measure: Measure | str) -> Measure:
    if isinstance(measure, Measure):
        return measure
    parsed = parse_measure(measure)
    if len(parsed) != 1 or parsed[0].gains:
        raise InputError("measure.not_one", value=shown(measure), count=len(parsed))
    return parsed[0]
