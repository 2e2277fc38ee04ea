"""A spare app process for ``python -m deploy up``: Python with Streamlit and the heavy libraries the app imports
already imported, waiting on its standard input for the arguments of a replica that exited, then running that
replica (``streamlit run serve.py ...``) in this very process.

A fresh process spends most of its start importing (pandas, Altair, Streamlit: 5 s of CPU, half a minute on two
busy cores); the spare has done that while nothing was wrong, so a killed replica answers again in the time its
server takes to start. It imports no module of the app itself (those use Streamlit's runtime as they load), only
libraries, and ``ndcg_core``, which needs none. The launcher writes one line of JSON: ``{"args": [...], "log":
PATH}``, Streamlit's command-line arguments and the replica's log, to which this process's output then goes. End
of input without a line: the launcher stopped, and so does the spare. Once its imports are done, it creates the
file WARM_FILE (empty) to say so. While it imports and waits, it runs at a lower priority (``SPARE_NICENESS``) when
it may raise it back on becoming a replica (as root, or with RLIMIT_NICE): the replicas serving a class come first.

    python -m deploy.spare WARM_FILE
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import resource
import sys
from pathlib import Path

# What a replica imports before it answers, heaviest first; ndcg_core needs no Streamlit runtime to load.
WARM = (
    "pandas",
    "altair",
    "numpy",
    "sqlalchemy",
    "psycopg",
    "starlette.routing",
    "streamlit",
    "streamlit.web.cli",
    "streamlit.web.bootstrap",
    "streamlit.runtime",
    "ndcg_core",
    "ndcg_core.classroom.service",
)


SPARE_NICENESS = 10  # while it imports and waits: the replicas serving a class come first


def may_lower_and_restore_priority() -> bool:
    """Whether this process may lower its priority and raise it back later: as root, or when RLIMIT_NICE lets it
    go back to niceness 0 (raising a priority again is a privilege; a replica must not stay below the others)."""
    return os.geteuid() == 0 or resource.getrlimit(resource.RLIMIT_NICE)[0] >= 20


def main() -> int:
    """Import, wait for the order, run the replica it names (returns when Streamlit does, 0 without an order)."""
    niced = may_lower_and_restore_priority()
    if niced:
        os.setpriority(os.PRIO_PROCESS, 0, SPARE_NICENESS)
    for name in WARM:
        # Not installed here (psycopg without PostgreSQL): the replica does without it too.
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    Path(sys.argv[1]).touch()
    line = sys.stdin.readline()
    if not line.strip():
        return 0
    order = json.loads(line)
    if niced:
        os.setpriority(os.PRIO_PROCESS, 0, 0)  # a replica now, as the others
    log = os.open(order["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(log, sys.stdout.fileno())
    os.dup2(log, sys.stderr.fileno())
    os.close(log)
    sys.argv = ["streamlit", *order["args"]]
    from streamlit.web import cli

    cli.main(prog_name="streamlit")  # as python -m streamlit does
    return 0


if __name__ == "__main__":
    sys.exit(main())
