"""How tests/data/peers/recorded.json was made: each tool's own number on ties.qrels and ties.run (30 queries whose
scores tie often), printed to full precision, with the tool's version. Run by hand in a virtual environment holding
the tools (``pip install ranx==0.3.21``); the tests read the JSON and never import the tools."""

import json
from importlib.metadata import version
from pathlib import Path

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
    }
}
(HERE / "recorded.json").write_text(json.dumps(recorded, indent=1) + "\n")
