"""Numbers between Arrow and numpy without pyarrow's pandas round trip.

pyarrow's ``to_numpy()`` and ``pa.array()`` import pandas on first use, a quarter of a second that the
command line does not otherwise spend; these convert through the buffers instead.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa


def as_numpy(values: pa.Array | pa.ChunkedArray, fill: float | None = None) -> np.ndarray:
    """A numeric Arrow array as a numpy array (read-only); nulls become ``fill``."""
    if isinstance(values, pa.ChunkedArray):
        values = values.chunk(0) if values.num_chunks == 1 else values.combine_chunks()
    kind = values.type
    if pa.types.is_boolean(kind) and not values.null_count:
        bits = np.unpackbits(np.frombuffer(values.buffers()[1], np.uint8), bitorder="little")
        return bits[values.offset : values.offset + len(values)].view(bool)
    if not (pa.types.is_floating(kind) or pa.types.is_integer(kind)):
        raise TypeError(f"expected numbers, got Arrow type {kind}")
    code = "f" if pa.types.is_floating(kind) else "i" if pa.types.is_signed_integer(kind) else "u"
    dtype = np.dtype(f"{code}{kind.bit_width // 8}")
    if len(values) == 0:
        return np.empty(0, dtype)
    validity, data = values.buffers()[:2]
    out = np.frombuffer(data, dtype=dtype, count=len(values), offset=values.offset * dtype.itemsize)
    if values.null_count:
        if fill is None:
            raise TypeError("these numbers have gaps (nulls) and no value to fill them with")
        bits = np.unpackbits(np.frombuffer(validity, np.uint8), bitorder="little")
        out = np.where(bits[values.offset : values.offset + len(values)].astype(bool), out, fill).astype(dtype)
    return out


def as_arrow(values: np.ndarray) -> pa.Array:
    """A numeric numpy array as an Arrow int64, uint64 or float64 array."""
    kinds = {"i": (np.int64, pa.int64()), "u": (np.uint64, pa.uint64()), "f": (np.float64, pa.float64())}
    if values.dtype.kind not in kinds:
        raise TypeError(f"expected numbers, got numpy dtype {values.dtype}")
    dtype, kind = kinds[values.dtype.kind]
    values = np.ascontiguousarray(values, dtype=dtype)
    return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(values)])
