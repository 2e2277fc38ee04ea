"""Fixtures the core tests share."""

import pytest

from ndcg_core import read_run
from ndcg_core.trec import segmented


@pytest.fixture
def segments(monkeypatch):
    """Make the segmented reader cut files into segments of a given size; what it returns counts the files handed
    to ``read_run`` (the reader's fallback for a file it cannot read in segments)."""

    def of(segment_bytes):
        monkeypatch.setattr(segmented, "SEGMENT_BYTES", segment_bytes)
        calls = []

        def counted(*args, **kwargs):
            calls.append(args)
            return read_run(*args, **kwargs)

        monkeypatch.setattr(segmented, "read_run", counted)
        return calls

    return of
