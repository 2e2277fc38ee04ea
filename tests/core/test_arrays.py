"""Numbers between Arrow and numpy (``ndcg_core.arrays``): dtypes kept exactly (unsigned, empty, filled) and the
messages of what cannot be converted."""

import numpy as np
import pyarrow as pa
import pytest

from ndcg_core.arrays import as_arrow, as_numpy

# --- dtypes kept exactly, and what cannot be converted --------------------------------------------------------------


def test_unsigned_numbers_stay_unsigned():
    got = as_numpy(pa.array([200, 7], pa.uint8()))
    assert got.dtype == np.uint8 and got.tolist() == [200, 7]
    filled = as_numpy(pa.array([None, 65535], pa.uint16()), fill=1)
    assert filled.dtype == np.uint16 and filled.tolist() == [1, 65535]


def test_an_empty_or_filled_array_keeps_its_dtype():
    for kind, dtype in ((pa.int32(), np.int32), (pa.float32(), np.float32), (pa.uint64(), np.uint64)):
        assert as_numpy(pa.array([], kind)).dtype == dtype
    filled = as_numpy(pa.array([3, None, 5], pa.int64()), fill=-1)
    assert filled.dtype == np.int64 and filled.tolist() == [3, -1, 5]


def test_what_cannot_be_converted_says_why():
    with pytest.raises(TypeError, match=r"^expected numbers, got Arrow type string$"):
        as_numpy(pa.array(["a"]))
    with pytest.raises(TypeError, match=r"^these numbers have gaps \(nulls\) and no value to fill them with$"):
        as_numpy(pa.array([1, None]))
    with pytest.raises(TypeError, match=r"^expected numbers, got numpy dtype <U1$"):
        as_arrow(np.array(["a"]))


def test_numpy_numbers_become_arrow_64_bit_numbers():
    assert as_arrow(np.array([1, 2], np.uint32)).type == pa.uint64()
    assert as_arrow(np.array([1, 2], np.uint32)).to_pylist() == [1, 2]
    assert as_arrow(np.array([-1], np.int8)).type == pa.int64()
    assert as_arrow(np.array([0.5], np.float32)).type == pa.float64()
