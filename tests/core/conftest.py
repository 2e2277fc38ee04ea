"""Fixtures the core tests share."""

import shutil

import pytest
from storage_support import Clock, FreshPostgres

from ndcg_core import read_run
from ndcg_core.classroom.rules import Limits
from ndcg_core.classroom.storage import Classroom
from ndcg_core.trec import segmented
from ndcg_core.trec.cli import main
from ndcg_core.trec.engines.duckdb_sql import DuckDBEngine


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


def make_tables(url):
    Classroom(url).close()


@pytest.fixture(scope="session")
def sqlite_made(tmp_path_factory):
    """A SQLite file with the classroom's tables of this version, all empty: made once, copied for each test."""
    path = tmp_path_factory.mktemp("sqlite-made") / "classroom.sqlite3"
    make_tables(f"sqlite:///{path}")
    return path


@pytest.fixture(scope="session")
def postgres_made(request):
    """``FreshPostgres`` on the session's PostgreSQL: a call empties it for the next test."""
    fresh = FreshPostgres(request.getfixturevalue("postgres_url"), make_tables)
    yield fresh
    fresh.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    """A new database with the classroom's tables of this version, all empty: a SQLite file (a copy of one made
    once), or the test session's PostgreSQL emptied (``FreshPostgres``)."""
    if request.param == "sqlite":
        path = tmp_path / "classroom.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_made"), path)
        yield f"sqlite:///{path}"
        return
    request.getfixturevalue("postgres_made")()
    yield request.getfixturevalue("postgres_url")


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def make(url, clock):
    """``make(**limits)``: a classroom on the test's database with these limits (each closed afterwards)."""
    made = []

    def make_store(**limits):
        store = Classroom(url, limits=Limits(**limits), clock=clock)
        made.append(store)
        return store

    yield make_store
    for store in made:
        store.close()


@pytest.fixture(scope="session")
def duckdb_engine():
    """One DuckDB engine (one connection) for every test that evaluates with ``--engine duckdb``."""
    with DuckDBEngine(memory_limit="256MB", threads=1) as engine:
        yield engine


# Spark for small files on 2 cores: no whole-stage code generation (compiling it costs more than these files take
# to run), no adaptive re-planning, the JVM's quick compiler only; measured on this project's test machine.
SPARK_TEST_CONFIG = {
    "spark.sql.shuffle.partitions": "2",
    "spark.default.parallelism": "2",
    "spark.sql.adaptive.enabled": "false",
    "spark.sql.codegen.wholeStage": "false",
    "spark.sql.codegen.factoryMode": "NO_CODEGEN",
    "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
}


@pytest.fixture(scope="session")
def spark_engine():
    """One Spark session (``local[2]``) for every test that evaluates with ``--engine spark``: starting one
    takes longer than all of their evaluations."""
    from ndcg_core.trec.engines.spark_sql import SparkEngine

    with SparkEngine("local[2]", SPARK_TEST_CONFIG) as engine:
        yield engine


@pytest.fixture(params=["numpy", "duckdb"])
def eval_main(request):
    """``ndcg-lab-eval``'s ``main`` with each engine in turn (DuckDB's on the one shared connection)."""
    if request.param == "numpy":
        return main
    engine = request.getfixturevalue("duckdb_engine")
    return lambda argv: main([*argv, "--engine", "duckdb"], engine=engine)
