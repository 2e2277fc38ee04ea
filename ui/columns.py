"""A breakdown's columns as Python lists, read from its frame once.

The Playground's charts and table are built from the same few columns of ``ndcg_core``'s breakdown after every
move; reading a column from a pandas frame costs far more than the rest of the work (``benchmarks/
bench_cpu_per_move.py``), so ``ui.live`` keeps each list's columns as lists beside its frame, and the builders
take either.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

import pandas as pd


@dataclass(frozen=True, eq=False)
class Columns:
    """Every column of a frame as a list (shared: read it, never change it); ``len`` is the number of rows."""

    lists: Mapping[str, list[Any]]
    rows: int

    @classmethod
    def of(cls, frame: pd.DataFrame) -> Columns:
        return cls({str(name): frame[name].tolist() for name in frame.columns}, len(frame))

    def __getitem__(self, name: str) -> list[Any]:
        return self.lists[name]

    def __len__(self) -> int:
        return self.rows


Table: TypeAlias = pd.DataFrame | Columns


def column(table: Table, name: str) -> list[Any]:
    """Column ``name`` of a frame or of its ``Columns``, as a list."""
    return table[name] if isinstance(table, Columns) else table[name].tolist()
