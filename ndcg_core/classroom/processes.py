"""How many of a deployment's app processes are serving, as ``python -m deploy up`` tells its replicas.

The launcher starts N replicas and restarts one that exits; it writes what it knows (:class:`Processes`) to a small
JSON file whose path it gives every replica in ``PROCESSES_VARIABLE``. A replica reads that file when the teacher's
control page asks: no process keeps state another needs, and a replica learns of the others without talking to
them. Served without the launcher (one ``ndcg-lab serve``, systemd), the variable is not set and nothing is said.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path

PROCESSES_VARIABLE = "NDCG_LAB_PROCESSES_FILE"


@dataclass(frozen=True)
class Processes:
    """``started`` replicas, of which ``alive`` answer now, ``restarting`` are being started again after they
    exited, and ``failed`` exited again and again soon after starting and are no longer restarted."""

    started: int
    alive: int
    restarting: int = 0
    failed: int = 0

    @property
    def short(self) -> bool:
        """Whether the room runs on fewer processes than it was started with."""
        return self.alive < self.started


def write_processes(path: Path, processes: Processes) -> None:
    """Write ``processes`` to ``path`` whole: a reader sees the old file or the new one, never half of one."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(asdict(processes)), encoding="utf-8")
    os.replace(partial, path)


def read_processes(path: Path) -> Processes | None:
    """What ``path`` says, or None when it is missing or not a status the launcher writes."""
    try:
        fields = json.loads(path.read_text(encoding="utf-8"))
        counts = {name: fields[name] for name in ("started", "alive", "restarting", "failed")}
    except (OSError, ValueError, TypeError, KeyError):
        return None
    if not all(type(n) is int and n >= 0 for n in counts.values()) or counts["alive"] > counts["started"]:
        return None
    return Processes(**counts)


def processes_now(environ: Mapping[str, str] | None = None) -> Processes | None:
    """What the launcher last wrote for this replica (``PROCESSES_VARIABLE``), or None when not under one."""
    path = (os.environ if environ is None else environ).get(PROCESSES_VARIABLE)
    return read_processes(Path(path)) if path else None
