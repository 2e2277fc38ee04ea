"""The server's CPU per move on the Playground: the figure that depends least on how loaded the machine is.

    python -m benchmarks.bench_cpu_per_move [--moves 300] [--warmup 30] [--rounds 2] [--profile FILE]

Starts the app on 127.0.0.1 (a free port), opens one session with a client of Streamlit's websocket protocol
(``bench_instant.Other``: the same list trigger a browser sends) and makes ``--moves`` moves one after the other,
each waited for to the end of its run (``script_finished``). The server process's user + system CPU time (from
``/proc``) over those moves, less what it spends idle in as long (measured right after, for ``IDLE_SECONDS``),
divided by their number, is the figure; wall time per move is printed beside it, and
the day's speed (``speed_loop()`` of ``bench_from_frame``) and the load average, since the CPU time of the same
work still grows a little on a loaded machine. ``--warmup`` moves come first and are not counted. Moves are
random (seeded), so a five-item list keeps coming back to orders the server has seen, as a class does;
``--same`` swaps the first two items back and forth instead (the floor: every figure found in the caches).

``--profile FILE`` records the measured moves with ``py-spy record`` (if installed) into a speedscope file.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from benchmarks.bench_from_frame import speed_loop
from benchmarks.bench_instant import Other, random_move
from benchmarks.server import start_server

IDLE_SECONDS = 10.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process so far, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def moves(
    url: str, pid: int, count: int, warmup: int, seed: int, profile: str | None, same: bool = False
) -> tuple[float, float, float, float]:
    """CPU seconds (idle cost taken off) and wall seconds per move over ``count`` moves after ``warmup`` ones,
    the idle CPU in core-seconds per second and the bytes the server sent per move (``same``: the first two
    items swapped back and forth, so every figure after the first two moves is found in ``ui.live``'s caches)."""
    rng = random.Random(seed)
    errors: list[str] = []
    other = Other(url, errors)
    await other.connect()
    await other.run()
    if not other.order:
        raise RuntimeError("the Playground drew no list")

    async def one() -> None:
        event, expected = random_move(other.order, rng, *((0, 1) if same else (None, None)))
        headline, _ = await other.run(event)
        if headline is None or other.order != expected:
            errors.append("a move was not drawn")

    for _ in range(warmup):
        await one()
    spy = None
    if profile:
        spy = subprocess.Popen(
            ["py-spy", "record", "--pid", str(pid), "--format", "speedscope", "--output", profile]
            + ["--rate", "250", "--gil"],  # only what holds the interpreter: the CPU, not the sleeps
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        await asyncio.sleep(1.5)  # py-spy attaches
    cpu0, wall0, received0 = cpu_seconds(pid), time.monotonic(), other.received
    for _ in range(count):
        await one()
    cpu, wall = cpu_seconds(pid) - cpu0, time.monotonic() - wall0
    sent = (other.received - received0) / count
    idle0, quiet0 = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(IDLE_SECONDS)  # what the server spends with no move, per second (its pollers, timers)
    idle = (cpu_seconds(pid) - idle0) / (time.monotonic() - quiet0)
    cpu -= idle * wall  # on a loaded machine a move takes longer and its share of the idle cost grows
    if spy is not None:
        spy.send_signal(2)  # SIGINT: py-spy writes its file
        spy.wait(timeout=60)
    await other.ws.close()
    if errors:
        raise RuntimeError(f"{len(errors)} errors, first: {errors[0]}")
    return cpu / count, wall / count, idle, sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument(
        "--same", action="store_true", help="swap the first two items back and forth (every figure cached)"
    )
    parser.add_argument("--profile", help="a py-spy speedscope file of the first round's measured moves")
    args = parser.parse_args()
    if args.profile and not shutil.which("py-spy"):
        parser.error("--profile needs py-spy on the PATH")
    print(f"{time.strftime('%Y-%m-%d %H:%M')} UTC; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"day's speed: speed_loop() {speed_loop():.0f} ms (benchmarks/bench_from_frame.py)")
    server, url = start_server(seconds=180)
    try:
        figures = []
        for round_ in range(args.rounds):
            profile = args.profile if round_ == 0 else None
            cpu, wall, idle, sent = asyncio.run(
                moves(url, server.pid, args.moves, args.warmup, round_, profile, args.same)
            )
            figures.append(cpu)
            print(
                f"round {round_ + 1}: server CPU {1000 * cpu:.1f} ms per move (idle {100 * idle:.1f}% of a core "
                f"taken off), wall {1000 * wall:.1f} ms per move, {sent / 1000:.1f} kB sent per move"
            )
        print(f"server CPU per move: median {1000 * statistics.median(figures):.1f} ms over {args.rounds} rounds")
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
