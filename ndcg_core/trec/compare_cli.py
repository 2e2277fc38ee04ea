"""``ndcg-lab compare QRELS RUN [RUN ...]``: each run against the first on one measure, printed as a table, and
written as CSV (per query), JSON or LaTeX on request. Bad input is one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from .compare import ALPHA, TESTS, compare
from .readers import read_qrels, read_run

PROG = "ndcg-lab compare"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    """The command's parser."""
    parser = _Parser(
        prog=prog,
        description="Compare runs query by query on one measure: each run against the first (the baseline), with "
        "wins, ties and losses, a paired t-test, the Wilcoxon signed-rank test and a randomization test, the "
        "p-values Holm-corrected for the number of runs. Every judged query counts; one a run did not answer "
        "counts 0 (trec_eval -c).",
    )
    parser.add_argument("-m", default="ndcg_cut.10", metavar="MEASURE", help="the measure (default ndcg_cut.10)")
    parser.add_argument("--test", choices=TESTS, default="t", help="the test whose p-value marks a run with * (t)")
    parser.add_argument("--alpha", type=float, default=ALPHA, help=f"the significance level (default {ALPHA})")
    parser.add_argument("--csv", metavar="FILE", help="write every query's values and differences to FILE")
    parser.add_argument("--json", metavar="FILE", help="write the whole comparison to FILE as JSON")
    parser.add_argument("--latex", metavar="FILE", help="write a LaTeX table (booktabs) to FILE")
    parser.add_argument("qrels", metavar="QRELS", help="TREC qrels file (or CSV/TSV with a header, or .gz)")
    parser.add_argument("runs", metavar="RUN", nargs="+", help="run files, the baseline first")
    return parser


def run(argv: Sequence[str], prog: str = PROG) -> str:
    """Parse, compare, write the files asked for, and return the table to print; ``InputError`` on bad input."""
    args = build_parser(prog).parse_args(argv)
    if not 0 < args.alpha < 1:
        build_parser(prog).error(f"--alpha must be between 0 and 1, not {args.alpha}")
    qrels = read_qrels(args.qrels)
    runs = [read_run(path) for path in args.runs]
    names = [Path(path).name for path in args.runs]
    if len(set(names)) != len(names):
        names = list(args.runs)  # two files of one name in two folders: their paths tell them apart
    compared = compare(qrels, runs, args.m, names=names)
    for path, text in ((args.csv, compared.to_csv), (args.json, compared.to_json), (args.latex, None)):
        if path:
            Path(path).write_text(text() if text else compared.to_latex(args.test, args.alpha), encoding="utf-8")
    return "".join(f"{line}\n" for line in compared.lines(args.test, args.alpha))


def main(argv: Sequence[str] | None = None, prog: str = PROG) -> int:
    """Entry point: prints the table; bad input is one line on stderr and exit status 2."""
    try:
        text = run(sys.argv[1:] if argv is None else argv, prog)
    except (ValueError, OSError) as err:
        sys.stderr.write(f"{prog}: {'; '.join(line.strip() for line in str(err).splitlines())}\n")
        return 2
    except SystemExit as exit_:
        return int(exit_.code or 0)
    sys.stdout.write(text)
    return 0
