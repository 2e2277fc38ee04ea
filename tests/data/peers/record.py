"""How tests/data/peers/recorded.json was made: each tool's own number on ties.qrels and ties.run (30 queries whose
scores tie often), printed to full precision, with the tool's version. Run by hand in a virtual environment holding
the tools (``pip install ranx==0.3.21 ir-measures==0.4.3``); the tests read the JSON and never import the tools."""

import json
from importlib.metadata import version
from pathlib import Path

import ir_measures
from ir_measures import nDCG
from ranx import Qrels, Run, evaluate

HERE = Path(__file__).parent


def read(path, columns):
    out = {}
    for line in (HERE / path).read_text().splitlines():
        fields = line.split()
        out.setdefault(fields[0], {})[fields[columns[0]]] = columns[1](fields[columns[2]])
    return out


qrels = Qrels(read("ties.qrels", (2, int, 3)))
run = Run(read("ties.run", (2, float, 4)))  # a dict keeps the file's order
recorded = {
    "ranx": {
        "version": version("ranx"),
        "values": {m: float(evaluate(qrels, run, m)) for m in ("ndcg@5", "ndcg@10", "ndcg_burges@10")},
    },
    # ir_measures reads the files itself; by default it asks pytrec_eval (32-bit scores, trec_eval's tie order).
    "ir_measures": {
        "version": version("ir-measures"),
        "values": {
            str(m): float(v)
            for m, v in ir_measures.calc_aggregate(
                [nDCG @ 5, nDCG @ 10, nDCG, nDCG(cutoff=10, judged_only=True), nDCG(judged_only=True)],
                list(ir_measures.read_trec_qrels(str(HERE / "ties.qrels"))),
                list(ir_measures.read_trec_run(str(HERE / "ties.run"))),
            ).items()
        },
    },
}
(HERE / "recorded.json").write_text(json.dumps(recorded, indent=1) + "\n")
