"""A Parquet file cut short, given to an engine as an open file, is refused as the default reader refuses it (as
text: the NUL byte of its second line) under the open file's name, the name the user knows it by, not as an
unnamed "input": by the default engine and by DuckDB alike (DuckDB tries a copy of its bytes first)."""

import io

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from ndcg_core import InputError
from ndcg_core.trec.engines import provider

RUN = b"q Q0 a 1 1.5 t\n"


def parquet_cut_short() -> bytes:
    out = io.BytesIO()
    pq.write_table(pa.table({"qid": ["q"], "docno": ["a"], "rel": [1]}), out)
    data = out.getvalue()
    return data[: len(data) // 2]


@pytest.mark.parametrize("name", ["numpy", "duckdb"])
def test_a_damaged_parquet_file_given_open_is_refused_under_its_own_name(tmp_path, name):
    path = tmp_path / "qrels.parquet"
    data = parquet_cut_short()
    assert data.startswith(b"PAR1") and data.count(b"\n") >= 1  # Parquet's magic, then a line holding a NUL byte
    path.write_bytes(data)
    with provider(name).open() as engine, open(path, "rb") as qrels, pytest.raises(InputError) as refused:
        engine.evaluate_files(qrels, io.BytesIO(RUN))
    assert refused.value.code == "file.nul"
    assert refused.value.place.fields["file"] == str(path)
    assert str(path) in str(refused.value)
