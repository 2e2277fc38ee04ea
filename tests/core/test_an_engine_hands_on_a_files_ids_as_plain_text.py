"""What the default reader read, an out-of-core engine hands on as plain text columns (``files.plain``): the
query ids, which the reader keeps dictionary-encoded (each id once), come as their values, in the file's order;
a column already plain is handed on as it is."""

import io

import pyarrow as pa

from ndcg_core.trec.engines import files
from ndcg_core.trec.readers import read_qrels

QRELS = b"q2 0 a 1\nq1 0 b 0\nq2 0 c 2\n"


def test_the_query_ids_the_reader_encodes_come_as_their_values_in_the_files_order():
    qid = read_qrels(io.BytesIO(QRELS)).qid
    assert pa.types.is_dictionary(qid.type)  # the reader's encoding, which the engines' tables do not take
    values = files.plain(qid)
    assert values.type == pa.string()
    assert values.to_pylist() == ["q2", "q1", "q2"]


def test_a_plain_column_is_handed_on_as_it_is():
    docno = pa.array(["a", "b", "c"])
    assert files.plain(docno) is docno
