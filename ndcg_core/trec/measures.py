"""NDCG measures as values, parsed once from trec_eval's spelling (``ndcg``, ``ndcg.1=3,2=9``, ``ndcg_cut.5,10``).

A ``Measure`` is one figure per query: the whole ranking's NDCG (``ndcg``, with an optional gain per grade) or
NDCG at one cutoff (``ndcg_cut`` at 10). The command line, ``Evaluation`` and the Evaluate page pass measures
between them, never column names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .. import validate
from ..errors import InputError, Place, shown

TREC_EVAL_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
MEASURE_FAMILIES = "ndcg, ndcg.LEVEL=GAIN,..., ndcg_cut, ndcg_cut.K,... and all_trec"
FAMILIES = ("ndcg", "ndcg_cut")  # trec_eval's own order, in which it prints them


@dataclass(frozen=True)
class Measure:
    """One NDCG measure: the whole ranking (``family="ndcg"``, with ``gains`` per grade if any) or the top
    ``cutoff`` positions (``family="ndcg_cut"``). ``params`` is trec_eval's text after the dot, which it prints
    back in the measure's name."""

    family: str
    cutoff: int | None = None
    gains: tuple[tuple[int, float], ...] = ()
    params: str = ""

    def __post_init__(self) -> None:
        if self.family not in FAMILIES or (self.family == "ndcg_cut") != (self.cutoff is not None):
            raise InputError("measure.unknown", value=shown(self.family), families=MEASURE_FAMILIES)

    @classmethod
    def parse(cls, text: str) -> Measure:
        """The one measure ``text`` names (``ndcg``, ``ndcg_cut.10``); a text naming several is an error."""
        measures = parse_measure(text)
        if len(measures) != 1:
            raise InputError("measure.not_one", value=shown(text), count=len(measures))
        return measures[0]

    @property
    def column(self) -> str:
        """Where ``Evaluation`` keeps this measure's values."""
        return "ndcg" if self.family == "ndcg" else f"ndcg_cut_{self.cutoff}"

    @property
    def name(self) -> str:
        """The name trec_eval prints: ``ndcg``, ``ndcg_1=3,2=9``, ``ndcg_cut_10``."""
        if self.family == "ndcg_cut":
            return f"ndcg_cut_{self.cutoff}"
        return f"ndcg_{self.params}" if self.params else "ndcg"

    @property
    def label(self) -> str:
        """The name on a page: ``NDCG``, ``NDCG@10``."""
        return "NDCG" if self.family == "ndcg" else f"NDCG@{self.cutoff}"

    @property
    def gain_mapping(self) -> dict[int, float] | None:
        """The custom gain per grade, or None for the grades themselves."""
        return dict(self.gains) if self.gains else None

    def __str__(self) -> str:
        return self.name


def ndcg_cut(k: int) -> Measure:
    """NDCG at cutoff ``k``."""
    return Measure("ndcg_cut", validate.whole(k, Place("k")))


NDCG = Measure("ndcg")


def parse_measure(text: str) -> tuple[Measure, ...]:
    """The measures one ``-m`` argument names, read the way trec_eval reads its NDCG measures."""
    if not isinstance(text, str):
        raise InputError("measure.not_text", value=shown(text))
    name, _, params = text.partition(".")
    if name == "ndcg":
        if not params:
            return (NDCG,)
        return (Measure("ndcg", gains=tuple(_parse_gain_params(params, text).items()), params=params),)
    if name == "ndcg_cut":
        if not params:
            return tuple(Measure("ndcg_cut", k) for k in TREC_EVAL_CUTOFFS)
        # trec_eval reads a cutoff of 23.4 as 23.
        place = Place("measure.cutoff", measure=shown(text))
        cutoffs = validate.cutoffs(params.split(","), place, truncate=True)
        return tuple(Measure("ndcg_cut", k, params=params) for k in cutoffs)
    raise InputError("measure.unknown", value=shown(text), families=MEASURE_FAMILIES)


def _parse_gain_params(params: str, text: str) -> dict[int, float]:
    gains: dict[int, float] = {}
    measure = shown(text)
    for pair in params.split(","):
        level, eq, value = pair.partition("=")
        if not eq:
            raise InputError("measure.gain_pair", measure=measure, value=shown(pair))
        grade = validate.whole(level, Place("measure.level", measure=measure), low=0)
        if grade in gains:
            # trec_eval would take one gain for the ranking and the other for its ideal.
            raise InputError("measure.level_twice", measure=measure, level=grade)
        gains[grade] = validate.number(value, Place("measure.gain", level=grade, measure=measure))
    return gains


def trec_eval_measures(requests: Sequence[Sequence[Measure]]) -> list[Measure]:
    """The measures trec_eval computes for these ``-m`` arguments (each parsed), in the order it prints them.

    Its own table order (ndcg before ndcg_cut); of a family named more than once, the first request with
    parameters decides (trec_eval reads the first ``-m`` that names it with a "."), else the default.
    """
    chosen: dict[str, Sequence[Measure]] = {}
    for request in requests:
        family, params = request[0].family, request[0].params
        if family not in chosen or (params and not chosen[family][0].params):
            chosen[family] = request
    return [measure for family in FAMILIES if family in chosen for measure in chosen[family]]
