"""The SQL the out-of-core engines share names its text values as parameters in Spark's dialect: every one it
names is one the Spark engine passes (``TEXT_PARAMS``, and a CSV's ``header`` and ``delimiter``), and each value
it needs is named. Checked on the text, without starting Spark (its own tests run it: ``-m spark``)."""

import re

import pytest

from ndcg_core.trec.engines.sql import SPARK, TEXT_PARAMS, csv_select, trec_select

CSV_PARAMS = {"space", "other_space", "content", "number", "delimiter", "header"}  # what a CSV's lines need


def named(sql):
    return set(re.findall(r"(?<![:\w]):([A-Za-z_]\w*)", sql))


@pytest.mark.parametrize("kind", ["qrels", "run"])
def test_trec_text_names_its_blanks_numbers_and_untidy_lines(kind):
    assert named(trec_select(SPARK, kind, "{lines}")) == {"space", "blanks", "number", "untidy"}


@pytest.mark.parametrize(
    "kind, names",
    [("qrels", ["qid", "docno", "rel"]), ("run", ["qid", "docno", "score"]), ("run", ["query", "doc", "rank"])],
)
def test_a_csv_names_its_header_delimiter_and_the_shared_values(kind, names):
    sql = csv_select(SPARK, kind, "{lines}", (",", names), header_text=True)
    assert sql is not None
    assert named(sql) == CSV_PARAMS
    assert CSV_PARAMS - {"header", "delimiter"} <= set(TEXT_PARAMS)


@pytest.mark.parametrize("kind", ["qrels", "run"])
def test_spark_reads_only_the_line_its_text_source_gives(kind):
    # Spark's lines are one column (value AS line): no "nul" column, which DuckDB's reader adds.
    for sql in (
        trec_select(SPARK, kind, "{lines}"),
        csv_select(SPARK, kind, "{lines}", (",", ["qid", "docno", "rel" if kind == "qrels" else "score"])),
    ):
        assert sql is not None and not re.search(r"\bnul\b", sql, re.IGNORECASE)
