"""How long a killed replica of ``python -m deploy up`` takes to answer again: two replicas behind nginx on a
throwaway PostgreSQL, replica 2 killed (SIGKILL to its process id) ``--kills`` times, each once the launcher's spare
process has done its imports (``--no-spare``: none is kept, each restart is a fresh process), each time from the
kill to its port's health check answering (the launcher started it again) and to nginx sending a client pinned to
it there again (``X-Replica: 2``), beside the day's speed (``bench_mistakes.day_speed``) and the load average.

    python -m benchmarks.bench_replica_restart [--kills 3]
"""

from __future__ import annotations

import argparse
import functools
import os
import signal
import statistics
import sys
import time
import urllib.request
from collections.abc import Callable

from benchmarks.bench_instant import load, machine
from benchmarks.bench_mistakes import day_speed
from deploy import HEALTH, answers, free_port
from deploy.launcher import Deployment

GIVE_UP_SECONDS = 120.0  # a kill whose replica is not back by then is reported as such, and the run stops
SETTLE_SECONDS = 35.0  # between kills: longer than the supervisor's quick-failure window, so each kill is a first


def pinned_to(url: str, replica: int) -> str | None:
    """The replica nginx answered a client pinned to ``replica`` from, or None."""
    request = urllib.request.Request(url + HEALTH, headers={"Cookie": f"ndcg_replica={replica}"})
    try:
        with urllib.request.urlopen(request, timeout=5) as reply:
            return reply.headers["X-Replica"]
    except OSError:
        return None


def started_again(running: Deployment, old_pid: int) -> bool:
    """Whether replica 2 is a new process that answers its health check."""
    return running.apps[1].pid != old_pid and answers(f"http://127.0.0.1:{running.ports[1]}{HEALTH}")


def until(condition: Callable[[], bool], start: float) -> float | None:
    """Seconds from ``start`` until ``condition()`` holds (looked at every 50 ms), or None after GIVE_UP_SECONDS."""
    while time.monotonic() - start < GIVE_UP_SECONDS:
        if condition():
            return time.monotonic() - start
        time.sleep(0.05)  # a process starting gives no event to wait on
    return None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--kills", type=int, default=3, help="how many times replica 2 is killed (default 3)")
    parser.add_argument("--no-spare", action="store_true", help="keep no spare process (a fresh start each time)")
    args = parser.parse_args(argv)
    print(f"{machine()}; {load()}; day speed {day_speed():.3f} s; {'no spare' if args.no_spare else 'a spare'}")
    ports: list[float] = []
    proxied: list[float] = []
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    running = Deployment(2, port, env={"NDCG_LAB_PUBLIC_URL": url}, listen="127.0.0.1", spare=not args.no_spare)
    try:
        running.start(lambda line: None, lambda line: print(f"  deploy: {line}"))
        for kill in range(1, args.kills + 1):
            if kill > 1:
                time.sleep(SETTLE_SECONDS)
            # As in a class, where a replica fails long after the start: the spare has done its imports.
            if not args.no_spare and until(running.spare_is_warm, time.monotonic()) is None:
                print(f"kill {kill}: no spare ready within {GIVE_UP_SECONDS:.0f} s")
                return 1
            victim = running.apps[1]
            os.kill(victim.pid, signal.SIGKILL)
            killed = time.monotonic()
            port = until(functools.partial(started_again, running, victim.pid), killed)
            through = until(lambda: pinned_to(url, 2) == "2", killed)
            if port is None or through is None:
                print(f"kill {kill}: replica 2 not back within {GIVE_UP_SECONDS:.0f} s")
                return 1
            ports.append(port)
            proxied.append(through)
            print(f"kill {kill}: its port answers after {port:.1f} s, nginx sends it its clients after {through:.1f} s")
    finally:
        running.stop()
    spans = [f"{min(s):.1f}-{max(s):.1f} s (median {statistics.median(s):.1f})" for s in (ports, proxied)]
    print(f"{args.kills} kills: its port answers in {spans[0]}, through nginx {spans[1]}; {load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
