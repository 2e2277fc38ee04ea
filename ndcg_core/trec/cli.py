"""``ndcg-lab-eval`` (also ``python -m ndcg_core``): trec_eval's NDCG measures from the command line,
printed as trec_eval prints them."""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence

from ..errors import InputError, shown
from ..lists.gains import GAINS
from ..lists.scoring import Scoring
from ..lists.ties import TIE_POLICIES
from .engines import DEFAULT_ENGINE, ENGINES, SPARK_MASTER, Engine, provider
from .evaluate import IDEAL_SOURCE, IDEALS, EvaluationOptions
from .measures import TREC_EVAL_CUTOFFS, Measure, parse_measure, trec_eval_measures
from .output import format_trec_eval
from .readers import Source

PROG = "ndcg-lab-eval"  # the console script pyproject.toml declares; python -m ndcg_core is the same program
ALIASES = {"all_trec": ("ndcg", "ndcg_cut")}  # trec_eval's everything, narrowed to its NDCG measures
STDIN = "-"
STDIN_NAME = "standard input"
MEASURE_HELP = (
    ("ndcg", "NDCG of the whole ranking"),
    ("ndcg.LEVEL=GAIN,...", "ndcg with a gain per grade, as ndcg.1=3,2=9"),
    ("ndcg_cut", f"NDCG@k for k = {','.join(map(str, TREC_EVAL_CUTOFFS))}"),
    ("ndcg_cut.K,...", "NDCG@k for the cutoffs given, as ndcg_cut.5,10"),
    ("all_trec", "ndcg and ndcg_cut: trec_eval's all_trec, its NDCG part"),
)


class _OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: {message} (see --help)\n")
        raise SystemExit(2)


def build_parser(prog: str = PROG) -> argparse.ArgumentParser:
    """The parser of the program called ``prog`` (``ndcg-lab eval`` names itself so in usage and errors)."""
    measures = "\n".join(f"  {name:<22}{text}" for name, text in MEASURE_HELP)
    parser = _OneLineParser(
        prog=prog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="NDCG of a TREC run against TREC qrels, printed as trec_eval 10.0 prints it.",
        epilog=(
            f"measures (-m MEASURE, may repeat; without -m: ndcg and ndcg_cut):\n{measures}\n\n"
            "Scores are compared as doubles, as trec_eval 10.0 does; --float32-scores\n"
            "compares them as 32-bit floats, as trec_eval 9.x and pytrec_eval do.\n"
            "RUN may be - to read the run from standard input. The options from --gain\n"
            "on change the convention and are off by default."
        ),
    )
    parser.add_argument("-q", action="store_true", help="print each query's values before the 'all' line")
    parser.add_argument(
        "-c", action="store_true", help="count judged queries missing from the run as 0 (without -c they are left out)"
    )
    parser.add_argument("-M", type=int, metavar="N", help="keep only the first N documents of each ranking")
    parser.add_argument(
        "-J",
        action="store_true",
        help="score only judged documents: those the qrels do not grade (or grade below 0) leave each ranking, "
        "the rest moving up, after -M's cut (as trec_eval -J, ir_measures' judged_only)",
    )
    parser.add_argument(
        "-m", action="append", metavar="MEASURE", default=[], help="a measure (see the list below); may repeat"
    )
    parser.add_argument(
        "-l",
        type=int,
        metavar="LEVEL",
        default=1,
        help="accepted for trec_eval compatibility; NDCG does not depend on it",
    )
    parser.add_argument(
        "--float32-scores",
        action="store_true",
        help="compare scores as 32-bit floats, as trec_eval 9.x and pytrec_eval do "
        "(default: as doubles, as trec_eval 10.0)",
    )
    parser.add_argument(
        "--gain",
        choices=[n for n in GAINS.names() if n != "custom"],
        default="linear",
        help="gain applied to every grade (default: linear, as trec_eval)",
    )
    parser.add_argument(
        "--ties",
        choices=TIE_POLICIES.names(),
        default="trec_eval",
        help="how equal scores are ordered (default: trec_eval's docno order)",
    )
    parser.add_argument(
        "--ideal",
        choices=list(IDEALS),
        default="qrels",
        help="ideal ranking from every judged document (default) or from the run only",
    )
    parser.add_argument(
        "--explain",
        metavar="VALUE",
        help="instead of evaluating, list the conventions and tools that give VALUE (the number another tool "
        "printed, to its printed precision) for the one measure -m names",
    )
    engines = "; ".join(f"{entry.name}: {entry.description}" for entry in ENGINES)
    others = [name for name in ENGINES.names() if name != DEFAULT_ENGINE]
    parser.add_argument(
        "--engine",
        metavar="{" + ",".join(ENGINES.names()) + "}",
        default=DEFAULT_ENGINE,
        help=f"{engines}; {' and '.join(others)} also read Parquet and take --ties trec_eval only",
    )
    parser.add_argument(
        "--spark-master",
        metavar="URL",
        help=f"with --engine spark: the Spark master to run on (default: {SPARK_MASTER}, every core here); "
        "the files must be at the same path on every executor",
    )
    parser.add_argument(
        "qrels", metavar="QRELS", help="TREC qrels file (qid iter docno rel), CSV/TSV with a header, or .gz"
    )
    parser.add_argument(
        "run",
        metavar="RUN",
        help="TREC run file (qid Q0 docno rank score tag), CSV/TSV with a header, or .gz; - reads standard input",
    )
    return parser


def _measures(names: Sequence[str]) -> list[Measure]:
    """The measures trec_eval prints for these ``-m`` arguments (``all_trec`` names both families)."""
    expanded: list[str] = []
    for name in names or ("ndcg", "ndcg_cut"):
        expanded.extend(ALIASES.get(name, (name,)))
    return trec_eval_measures([parse_measure(n) for n in expanded])


def run(argv: Sequence[str] | None = None, prog: str = PROG, *, engine: Engine | None = None) -> str:
    """Parse arguments, evaluate (or explain) and return the text to print; raises ``InputError`` on bad input.

    ``engine``: an open engine to use when ``--engine`` names it (one is opened and closed otherwise).
    """
    args, measures = parse(argv if argv is not None else sys.argv[1:], prog)
    chosen = provider(args.engine)  # an unknown engine fails before the files are read
    options = None
    if args.explain is not None:
        _explained_value(args, measures)
    else:
        options = evaluation_options(args, measures)
    run_source = _standard_input() if args.run == STDIN else args.run
    if engine is not None and engine.name == chosen.name:
        return _output(engine, args, measures, run_source, options)
    settings = {"master": args.spark_master} if args.spark_master else {}
    with chosen.opened(args.qrels, run_source, **settings) as opened:
        return _output(opened, args, measures, run_source, options)


def _output(
    engine: Engine,
    args: argparse.Namespace,
    measures: Sequence[Measure],
    run: Source,
    options: EvaluationOptions | None,
) -> str:
    """What the engine prints: trec_eval's lines for ``options``, or the explanation (``options`` None)."""
    if options is None:
        return _answer(engine, args, measures, run)
    return format_trec_eval(engine.evaluate_files(args.qrels, run, options), measures, per_query=args.q)


def parse(argv: Sequence[str], prog: str = PROG) -> tuple[argparse.Namespace, list[Measure]]:
    """The arguments and the measures to print of a command line (``evaluation_options`` makes its options)."""
    args = build_parser(prog).parse_args(argv)
    return args, _measures(args.m)


def evaluation_options(args: argparse.Namespace, measures: Sequence[Measure]) -> EvaluationOptions:
    """The options a parsed command line evaluates with, for these measures."""
    cut = tuple(m.cutoff for m in measures if m.cutoff is not None)
    full = next((m for m in measures if m.family == "ndcg"), None)
    full_gain = full.gain_mapping if full is not None else None
    if full_gain is not None and args.gain != "linear":
        raise InputError("cli.gain_and_custom")
    ideal = IDEAL_SOURCE[args.ideal]
    scoring = Scoring(gain=args.gain, ideal=ideal, ties=args.ties, float32_scores=args.float32_scores)
    return EvaluationOptions(
        scoring,
        cutoffs=cut,
        full_gain=None if full_gain is None else tuple(full_gain.items()),
        complete=args.c,
        max_docs=args.M,
        judged_only=args.J,
    )


def _explained_value(args: argparse.Namespace, measures: Sequence[Measure]) -> None:
    """``--explain``'s VALUE and measure checked before the files are read."""
    from ..teaching.explain import read_printed

    read_printed(args.explain)  # a VALUE that is not a number fails before the files are read
    if len(measures) != 1:
        raise InputError("measure.not_one", value=shown(" ".join(args.m) or "ndcg ndcg_cut"), count=len(measures))


def _answer(engine: Engine, args: argparse.Namespace, measures: Sequence[Measure], run: Source) -> str:
    """``--explain``: the conventions and tools that give the number, one per line (``explain.explanation_lines``),
    searched over the engine's rankings of the files."""
    from ..teaching.explain import explain_rankings, explanation_lines

    rankings = engine.rankings(args.qrels, run)
    explanation = explain_rankings(rankings, measures[0], args.explain, max_docs=args.M)
    return "".join(f"{line}\n" for line in explanation_lines(explanation))


def _standard_input() -> io.BytesIO:
    """The run's bytes from standard input, named for messages; read whole, never mapped."""
    stream = getattr(sys.stdin, "buffer", sys.stdin)
    data = stream.read() if stream is not None else b""
    source = io.BytesIO(data.encode("utf-8") if isinstance(data, str) else data)
    source.name = STDIN_NAME
    return source


def keep_freed_memory() -> None:
    """Ask glibc and Arrow's allocator (mimalloc) to keep freed blocks for reuse.

    Evaluation allocates and frees the same few MB for each segment of a run; on a virtual
    machine a page fault costs microseconds, and giving memory back then faulting it in again
    was a third of a 7M-line run's time. Only for a process that ends after one evaluation
    (``script``), not for a library caller or a server.
    """
    os.environ.setdefault("MIMALLOC_PURGE_DELAY", "-1")  # read by mimalloc on its first large allocation
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return  # not glibc: keep the platform's allocator as it is
    m_trim_threshold, m_mmap_threshold = -1, -3
    libc.mallopt(m_mmap_threshold, 32 << 20)  # glibc's largest allowed value on 64-bit
    libc.mallopt(m_trim_threshold, (1 << 31) - 1)


def main(argv: Sequence[str] | None = None, prog: str = PROG, *, engine: Engine | None = None) -> int:
    """Entry point: prints trec_eval lines; bad input is one line on stderr, starting with ``prog``, and exit
    status 2. ``engine``: an open engine to use when ``--engine`` names it."""
    try:
        text = run(argv, prog, engine=engine)
    except ValueError as err:
        sys.stderr.write(f"{prog}: {'; '.join(line.strip() for line in str(err).splitlines())}\n")
        return 2
    except MemoryError:
        sys.stderr.write(f"{prog}: not enough memory for these files\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"{prog}: interrupted\n")
        return 130
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    return 0


def script() -> None:
    """The ``ndcg-lab-eval`` and ``python -m ndcg_core`` process: evaluate, print, and exit with main's status."""
    keep_freed_memory()
    status = main()
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip freeing a few GB of arrays one by one at exit: the process is done with them.
    os._exit(status)
