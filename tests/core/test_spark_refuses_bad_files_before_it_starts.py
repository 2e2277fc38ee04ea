"""``--engine spark`` refuses a missing, unreadable or malformed file before it starts Spark's JVM (half a minute),
with the default engine's own error, and starts it only for files whose first lines are good."""

import gzip

import pytest

import ndcg_core.trec.engines.spark_sql as spark_sql
from ndcg_core.errors import InputError
from ndcg_core.trec.cli import run
from support import DATA

QRELS, RESULTS = str(DATA / "trec_eval" / "qrels.test"), str(DATA / "trec_eval" / "results.test")


class NotStarted(Exception):
    """Spark was asked to start."""


@pytest.fixture
def no_spark(monkeypatch):
    def refuse(*args, **kwargs):
        raise NotStarted

    monkeypatch.setattr(spark_sql.SparkEngine, "__init__", refuse)


def refusal(argv):
    with pytest.raises(InputError) as refused:
        run(argv)
    return refused.value


def test_a_missing_file_is_refused_as_the_default_engine_refuses_it(no_spark, tmp_path):
    missing = str(tmp_path / "nothing.run")
    by_spark = refusal(["--engine", "spark", QRELS, missing])
    assert by_spark.code == "file.missing"
    assert str(by_spark) == str(refusal([QRELS, missing]))
    assert refusal(["--engine", "spark", str(tmp_path), RESULTS]).code == "file.folder"


@pytest.mark.parametrize("compress", [False, True])
def test_a_malformed_first_line_is_refused_before_spark_starts(no_spark, tmp_path, compress):
    bad = tmp_path / ("bad.run.gz" if compress else "bad.run")
    text = b"301 Q0 doc1 1 x STANDARD\n" + b"301 Q0 doc2 2 1.0 STANDARD\n"
    bad.write_bytes(gzip.compress(text) if compress else text)
    by_spark = refusal(["--engine", "spark", QRELS, str(bad)])
    assert by_spark.code == "run.score_not_number"
    assert str(by_spark) == str(refusal([QRELS, str(bad)]))


def test_good_files_go_on_to_spark(no_spark):
    with pytest.raises(NotStarted):
        run(["--engine", "spark", QRELS, RESULTS])


def test_java_s_start_up_notice_is_dropped_and_the_rest_passed_on(capfd):
    import subprocess

    with spark_sql.java_notices_dropped():
        # A stand-in for the JVM: started inside the block, it writes Java's notice, then a real error, after it.
        child = subprocess.Popen(
            ["sh", "-c", "echo 'WARNING: Using incubator modules: jdk.incubator.vector' >&2; sleep 0.2; echo real >&2"]
        )
    child.wait(timeout=10)
    import time

    deadline = time.monotonic() + 5
    err = ""
    while "real" not in err and time.monotonic() < deadline:
        time.sleep(0.05)
        err += capfd.readouterr().err
    assert "real" in err
    assert "incubator" not in err
