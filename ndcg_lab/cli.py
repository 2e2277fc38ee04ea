"""``ndcg-lab``: the app and its tools from one command, in a checkout or an install.

    ndcg-lab serve [--port P] [--address A]     the app (``streamlit run serve.py``, the phone routes included)
    ndcg-lab eval [OPTIONS] QRELS RUN            trec_eval's NDCG measures (the same as ``ndcg-lab-eval``)
    ndcg-lab compare QRELS RUN [RUN ...]         runs against the first, query by query, with paired tests
    ndcg-lab lesson check FILE                   a lesson file's outline, or its first problem
    ndcg-lab deploy up [--replicas N] ...        N app processes behind nginx on PostgreSQL (``python -m deploy up``)

Bad arguments are one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NoReturn

from ndcg_lab import ENTRY, app_command, app_dir, is_installed

PROG = "ndcg-lab"
DEFAULT_PORT = 8501  # Streamlit's own
# The store's variables (ndcg_core.classroom's storage): a database URL, else a folder for its SQLite file.
DATABASE_ENV, DATA_DIR_ENV = "NDCG_LAB_DATABASE_URL", "NDCG_LAB_DATA_DIR"
PASSED_ON = {"eval", "compare", "deploy"}  # commands whose own parser reads the rest of the line


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """``ndcg-lab``'s parser; ``eval``, ``compare`` and ``deploy`` are listed here but read by their own programs'
    parsers."""
    parser = _Parser(
        prog=PROG,
        description="NDCG Lab: learn, teach and check NDCG.",
        epilog=f"'{PROG} COMMAND --help' tells more about each command.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    serve = commands.add_parser(
        "serve",
        help="start the app in this process (Ctrl-C stops it)",
        description="Start the app: every page, the classroom's phone page and its routes (serve.py).",
        epilog=f"Rooms and lessons are kept in the SQLite file of {DATA_DIR_ENV} (in an install, "
        f"~/.local/share/ndcg-lab by default), or in the database of {DATABASE_ENV}.",
    )
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="P", help="the port (default 8501)")
    serve.add_argument(
        "--address",
        metavar="A",
        help="the IP address to listen on (default: every interface, so that phones on the room's network reach "
        "it; 127.0.0.1 keeps it on this machine)",
    )
    commands.add_parser("eval", help="NDCG of a TREC run against qrels, as trec_eval prints it", add_help=False)
    commands.add_parser(
        "compare", help="runs against a baseline, query by query, with paired significance tests", add_help=False
    )
    lesson = commands.add_parser("lesson", help="lesson files", description="Lesson files (TOML).")
    lesson_commands = lesson.add_subparsers(dest="lesson_command", required=True, metavar="COMMAND")
    check = lesson_commands.add_parser(
        "check",
        help="check a lesson file and print its outline",
        description="Print a lesson file's outline (exit 0), or its first problem in one line naming the activity "
        "and the field (exit 2).",
    )
    check.add_argument("file", metavar="FILE")
    commands.add_parser("deploy", help="N app processes behind nginx on PostgreSQL (deploy up)", add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ndcg-lab`` with ``argv``; returns the exit status (``serve`` replaces this process and never returns)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in PASSED_ON:
        return _passed_on(argv[0], argv[1:])
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        return serve(args.port, args.address)
    from ndcg_core.classroom.__main__ import main as lesson_main

    return lesson_main(["check", args.file])


def _passed_on(command: str, argv: list[str]) -> int:
    if command == "eval":
        from ndcg_core.trec.cli import main as eval_main

        return eval_main(argv, prog=f"{PROG} eval")
    if command == "compare":
        from ndcg_core.trec.compare_cli import main as compare_main

        return compare_main(argv, prog=f"{PROG} compare")
    from deploy.launcher import main as deploy_main

    return deploy_main(argv, prog=f"{PROG} deploy")


def serve(port: int, address: str | None) -> int:
    """Check the port and address, then become ``streamlit run serve.py`` (the same process id)."""
    from deploy.launcher import listen_address, port_is_free

    if not 1 <= port <= 65535:
        return _usage_error(f"--port must be between 1 and 65535, not {port}")
    if address is not None:
        try:
            address = listen_address(address)
        except ValueError:
            return _usage_error(f"--address must be an IP address such as 0.0.0.0 or 127.0.0.1, not {address!r}")
    if not port_is_free(port, address or "0.0.0.0"):
        return _usage_error(f"port {port} is in use")
    folder = app_dir()
    if not (folder / ENTRY).is_file():
        print(f"{PROG}: the app's files are missing from {folder} (reinstall ndcg-lab)", file=sys.stderr)
        return 1
    data_dir = default_data_dir(os.environ, is_installed())
    if data_dir is not None:
        os.environ[DATA_DIR_ENV] = str(data_dir)
        print(f"{PROG}: rooms and lessons are kept in {data_dir} (set {DATA_DIR_ENV} to change it)", file=sys.stderr)
    command = app_command(port, address, script=str(folder / ENTRY))
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(command[0], command)  # Streamlit in this process: a signal to this pid stops the server


def default_data_dir(environ: Mapping[str, str], installed: bool) -> Path | None:
    """Where an installed app keeps its SQLite file when neither store variable is set: the user's data folder
    (``$XDG_DATA_HOME/ndcg-lab``, else ``~/.local/share/ndcg-lab``), never site-packages. ``None``: leave it to
    the store (a variable is set, or this is a checkout, whose ``data/`` it uses)."""
    if not installed or environ.get(DATABASE_ENV, "").strip() or environ.get(DATA_DIR_ENV):
        return None
    base = environ.get("XDG_DATA_HOME") or str(Path(environ.get("HOME") or Path.home()) / ".local" / "share")
    return Path(base) / "ndcg-lab"


def _usage_error(message: str) -> int:
    print(f"{PROG} serve: {message}", file=sys.stderr)
    return 2


def script() -> None:
    """The ``ndcg-lab`` process. ``eval`` ends as ``ndcg-lab-eval`` does (allocator settings, no freeing at exit)."""
    argv = sys.argv[1:]
    if argv[:1] == ["eval"]:
        from ndcg_core.trec.cli import keep_freed_memory
        from ndcg_core.trec.cli import main as eval_main

        keep_freed_memory()
        status = eval_main(argv[1:], prog=f"{PROG} eval")
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(main(argv))
