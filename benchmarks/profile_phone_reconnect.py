"""What a phone's page costs when its websocket comes back (a reconnect: a new session on the server, as after a
server process died): CPU time per page run, and where it goes.

    python -m benchmarks.profile_phone_reconnect [--runs 100] [--kind predict|rank|practice] [--top 25] [--no-profile]

Starts the app (``serve.py``, SQLite in a temporary folder) in a process whose script runs are timed (the script
thread's own CPU time, ``time.thread_time``) and profiled (``cProfile`` on the same clock); a student joins by link
and the teacher opens an activity; then, again and again, the phone connects anew with its link (``me=``), runs the
page as a browser does after a reconnect (with the browser memory's report and the rerun it asks for) and goes.
Its activity itself is drawn by the browser from the card route (``ui/widgets/phone_card.js``), which costs no page
run. Reported: CPU per page run (the script thread, median and mean), the whole server process's CPU per
reconnect (the session's start and the event loop's sending included), the bytes sent per reconnect, and the
profile's top functions by cumulative and own time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.load_classroom import ServerMonitor
from benchmarks.load_live_room import Client, Errors
from benchmarks.server import end_with_parent, free_port

ROOT = Path(__file__).resolve().parent.parent
ENV_OUT = "NDCG_LAB_PROFILE_OUT"
ENV_NO_PROFILE = "NDCG_LAB_PROFILE_OFF"
PROBE = "probe=1"  # in the measured phone's address (the page ignores it); the other phone's runs are not measured


def serve(port: int) -> None:
    """The server side: Streamlit with the probe phone's page runs timed and profiled; the figures are written to
    ``$NDCG_LAB_PROFILE_OUT`` when it is asked to stop (SIGTERM)."""
    import cProfile
    import marshal
    import signal

    from streamlit.runtime.scriptrunner import script_runner
    from streamlit.web import cli

    out = Path(os.environ[ENV_OUT])
    profiling = not os.environ.get(ENV_NO_PROFILE)  # cProfile's own cost is in the times while it runs
    times: list[float] = []
    profiles: list[cProfile.Profile] = []
    original = script_runner.ScriptRunner._run_script

    def timed(self, rerun_data):
        if rerun_data.fragment_id_queue or rerun_data.is_auto_rerun or PROBE not in rerun_data.query_string:
            return original(self, rerun_data)
        # The thread's own CPU time as the profile's clock: wall time would count waits for the interpreter lock.
        profile = cProfile.Profile(time.thread_time)
        started = time.thread_time()
        if profiling:
            profile.enable()
        try:
            return original(self, rerun_data)
        finally:
            profile.disable()
            times.append(time.thread_time() - started)
            if profiling:
                profiles.append(profile)

    script_runner.ScriptRunner._run_script = timed

    def dump(signum, frame) -> None:
        import pstats

        if profiles:
            stats = pstats.Stats(profiles[0])
            for p in profiles[1:]:
                stats.add(p)
            stats.dump_stats(str(out) + ".prof")
        out.write_bytes(marshal.dumps(times))
        os._exit(0)

    signal.signal(signal.SIGTERM, dump)
    sys.argv = ["streamlit", "run", "serve.py", "--server.port", str(port), "--server.address", "127.0.0.1"]
    sys.argv += ["--server.headless", "true", "--browser.gatherUsageStats", "false"]
    sys.argv += ["--server.fileWatcherType", "none"]
    cli.main()


async def drive(url: str, runs: int, kind: str, monitor: ServerMonitor) -> dict:
    from ndcg_core.classroom import activities as acts
    from ndcg_core.classroom import rules
    from ndcg_core.classroom.rules import Limits
    from ndcg_core.classroom.store import Store, database_url

    store = Store(database_url(), limits=Limits.from_environment())
    room, key = store.create_room()
    me = rules.new_student_id()
    phone = Client(url, f"room={room.code}&me={me}", "phone", Errors())
    await phone.connect()
    await phone.run()
    phone.set_text("Nickname (optional)", "p")
    join_id, fragment = phone.button("Join")
    await phone.run(fragment, trigger=join_id)
    assert phone.shows("You are"), phone.texts
    keeps = phone.keeps  # the browser's storage, which a reconnecting tab still has
    await phone.ws.close()
    make = {
        "predict": lambda: acts.Predict(acts.random_list(1)),
        "rank": lambda: acts.Rank(acts.random_list(1), next(iter(acts.TWISTS))),
        "practice": lambda: acts.Practice(1, (1, 2, 3)),
    }[kind]
    store.open_activity(room.code, key, make())
    sizes: list[int] = []
    wall: list[float] = []
    process_cpu = 0.0
    for _ in range(runs):
        again = Client(url, f"room={room.code}&me={me}&{PROBE}", "phone", Errors())
        again.keeps = dict(keeps)
        cpu_before = monitor._cpu_seconds()
        started = time.monotonic()
        await again.connect()
        received: list[int] = []
        original_recv = again.ws.recv

        async def counting_recv(original_recv=original_recv, received=received):
            message = await original_recv()
            received.append(len(message))
            return message

        again.ws.recv = counting_recv
        await again.run()
        wall.append(time.monotonic() - started)
        if not again.card_data or not again.shows("You are"):
            raise SystemExit(f"the phone's page did not come back: {again.texts[:3]}")
        await again.ws.close()
        await asyncio.sleep(0.05)  # the server's last bookkeeping after the run
        process_cpu += monitor._cpu_seconds() - cpu_before
        sizes.append(sum(received))
        if again.errors.plain:
            raise SystemExit(f"error on the phone: {again.errors.plain[0]}")
    store.close()
    return {"process_cpu": process_cpu / runs, "bytes": sizes, "wall": wall}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--kind", choices=["predict", "rank", "practice"], default="predict")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--no-profile", action="store_true", help="time the runs only (no cProfile overhead)")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    import marshal
    import pstats

    folder = Path(tempfile.mkdtemp(prefix="ndcg-lab-profile-"))
    out = folder / "times"
    env = {**os.environ, ENV_OUT: str(out), "NDCG_LAB_DATA_DIR": str(folder)}
    if args.no_profile:
        env[ENV_NO_PROFILE] = "1"
    env.pop("NDCG_LAB_DATABASE_URL", None)
    os.environ.update({"NDCG_LAB_DATA_DIR": str(folder)})
    os.environ.pop("NDCG_LAB_DATABASE_URL", None)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "benchmarks.profile_phone_reconnect", "--serve", str(port)],
        cwd=ROOT,
        env=env,
        preexec_fn=end_with_parent,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        import urllib.request

        for _ in range(300):
            try:
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        monitor = ServerMonitor(server.pid)
        figures = asyncio.run(drive(url, args.runs, args.kind, monitor))
    finally:
        server.terminate()
        server.wait(timeout=30)
    times = marshal.loads(out.read_bytes())
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{args.kind}: {len(figures['wall'])} reconnects, {len(times)} page runs; script thread CPU per page run: "
        f"median {1000 * statistics.median(times):.2f} ms, mean {1000 * statistics.mean(times):.2f} ms; whole server "
        f"process per reconnect (session start, runs, sending): {1000 * figures['process_cpu']:.2f} ms; sent per "
        f"reconnect: {statistics.median(figures['bytes']):.0f} bytes; wall median "
        f"{1000 * statistics.median(figures['wall']):.1f} ms"
    )
    if not args.no_profile:
        stats = pstats.Stats(str(out) + ".prof")
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.sort_stats("tottime").print_stats(args.top)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
