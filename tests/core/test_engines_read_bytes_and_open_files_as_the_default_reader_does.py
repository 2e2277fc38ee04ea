"""Every engine reads qrels and a run given as bytes, a buffer or an open file (binary, text, or any object with a
``read``) as it reads the same text from a path, and refuses anything else with the default reader's error."""

import io
import math

import pytest

from ndcg_core import InputError
from ndcg_core.trec.engines import provider

QRELS = "q 0 a 1\nq 0 é 2\n"
RUN = "q Q0 a 1 1.5 t\nq Q0 é 2 0.5 t\n"
# a (grade 1) then é (grade 2): DCG 1 + 2/log2(3); the ideal puts é first: 2 + 1/log2(3).
NDCG = (1 + 2 / math.log2(3)) / (2 + 1 / math.log2(3))


class Reader:
    """Not an ``io`` stream: only a ``read`` giving the whole text."""

    def __init__(self, text: str) -> None:
        self._text = text

    def read(self) -> str:
        return self._text


SOURCES = {
    "bytes": lambda text: text.encode(),
    "bytearray": lambda text: bytearray(text.encode()),
    "memoryview": lambda text: memoryview(text.encode()),
    "binary file": lambda text: io.BytesIO(text.encode()),
    "text file": io.StringIO,
    "object with read": Reader,
}


@pytest.fixture(params=["numpy", "duckdb"])
def engine(request):
    if request.param == "duckdb":
        return request.getfixturevalue("duckdb_engine")
    with provider("numpy").open() as opened:
        return opened


@pytest.mark.parametrize("form", sorted(SOURCES))
def test_qrels_and_a_run_in_memory_are_evaluated(engine, form):
    result = engine.evaluate_files(SOURCES[form](QRELS), SOURCES[form](RUN))
    assert list(result.qids) == ["q"]
    assert result.columns["ndcg"].tolist() == pytest.approx([NDCG], abs=1e-12)


def test_a_source_of_another_kind_is_refused_by_its_type(engine):
    with pytest.raises(InputError) as refused:
        engine.evaluate_files(42, SOURCES["bytes"](RUN))
    assert refused.value.code == "file.source"
    assert str(refused.value) == "cannot read a int: give a path, bytes or an open file"


class Named(Reader):
    """An object with a ``read`` and a ``name``, as an upload is."""

    def __init__(self, text: str, name: str) -> None:
        super().__init__(text)
        self.name = name


@pytest.mark.parametrize("form", ["bytes", "binary file", "object with read"])
def test_a_source_without_a_name_is_called_input(engine, form):
    result = engine.evaluate_files(SOURCES[form](QRELS), SOURCES[form](RUN))
    assert (result.qrels_name, result.run_name) == ("input", "input")


def test_an_open_file_or_a_named_reader_is_called_by_its_name(engine, tmp_path):
    path = tmp_path / "qrels.txt"
    path.write_text(QRELS, encoding="utf-8")
    with open(path, "rb") as qrels:
        result = engine.evaluate_files(qrels, Named(RUN, "upload.run"))
    assert (result.qrels_name, result.run_name) == (str(path), "upload.run")


def test_an_empty_name_is_called_input(engine):
    result = engine.evaluate_files(Named(QRELS, ""), Named(RUN, ""))
    assert (result.qrels_name, result.run_name) == ("input", "input")


def test_the_default_reader_reads_a_file_as_qrels_or_as_a_run_and_nothing_else():
    from ndcg_core.trec.engines.files import default_read

    qrels, run = default_read("qrels", b"q1 0 d1 2\n"), default_read("run", b"q1 Q0 d1 1 1.5 tag\n")
    assert (type(qrels).__name__, qrels.rel.tolist()) == ("Qrels", [2])
    assert (type(run).__name__, run.docno.to_pylist()) == ("Run", ["d1"])
    for kind in ("rank", "RUN", "Qrels", None):
        with pytest.raises(KeyError) as refused:
            default_read(kind, b"q1 0 d1 2\n")
        assert refused.value.args == (f"a file is read as 'qrels' or 'run', not {kind!r}",)
