"""What one phone's rerun costs when the teacher opens an activity: CPU time per rerun, and where it goes.

    python -m benchmarks.profile_phone_rerun [--reruns 200] [--kind predict|rank|practice] [--top 25] [--no-profile]

Starts the app (``serve.py``, SQLite in a temporary folder) in a process whose script runs are timed (the script
thread's own CPU time, ``time.thread_time``) and profiled (``cProfile`` on the same clock); two students join by
link, then, again and again, the teacher's action changes the room (through the database, as a teacher on another
process) and each phone's room watcher reruns its fragment, as ``ui/widgets/room_watch.js`` does when the revision
changes. The first phone's run reads the room's new revision and state for the process (as the first of a class
does); only the second phone's runs, which find them cached as the rest of a class does, are timed and profiled.
Reported: CPU per rerun (the script thread, median and mean), the whole server process's CPU per rerun (its
event loop serializes and sends what the script drew), the bytes sent per rerun, and the profile's top functions
by cumulative and own time. The machine's other load adds to neither CPU figure much.
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
    """The server side: Streamlit with its script runs timed and, for fragment runs that are not timer runs,
    profiled; the figures are written to ``$NDCG_LAB_PROFILE_OUT`` when it is asked to stop (SIGTERM)."""
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
        if not rerun_data.fragment_id_queue or rerun_data.is_auto_rerun or PROBE not in rerun_data.query_string:
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


async def drive(url: str, reruns: int, kind: str, monitor: ServerMonitor) -> dict:
    from ndcg_core.classroom import activities as acts
    from ndcg_core.classroom import rules
    from ndcg_core.classroom.rules import Limits
    from ndcg_core.classroom.store import Store, database_url

    store = Store(database_url(), limits=Limits.from_environment())
    room, key = store.create_room()
    phones = []
    for query in ("", "&" + PROBE):
        phone = Client(url, f"room={room.code}&me={rules.new_student_id()}{query}", "phone", Errors())
        await phone.connect()
        await phone.run()
        phone.set_text("Nickname (optional)", "p")
        join_id, fragment = phone.button("Join")
        await phone.run(fragment, trigger=join_id)
        assert phone.shows("You are"), phone.texts
        phones.append(phone)
    first, phone = phones
    make = {
        "predict": lambda i: acts.Predict(acts.random_list(i)),
        "rank": lambda i: acts.Rank(acts.random_list(i), next(iter(acts.TWISTS))),
        "practice": lambda i: acts.Practice(i, (1, 2, 3)),
    }[kind]
    sizes: list[int] = []
    wall: list[float] = []
    process_cpu = 0.0
    for i in range(reruns):
        store.open_activity(room.code, key, make(i + 1))
        component_id, fragment_id, data = phone.watch
        received = []
        original_recv = phone.ws.recv

        async def counting_recv(original_recv=original_recv, received=received):
            message = await original_recv()
            received.append(len(message))
            return message

        phone.ws.recv = counting_recv
        await asyncio.sleep(0.45)  # past the server's revision cache (REVISION_TTL), as a phone's next poll is
        # The class's first phone on this process reads the new revision and room (shared by the others, as in a
        # class); the measured one is one of the others.
        f_component, f_fragment, _ = first.watch
        cpu_before = monitor._cpu_seconds()
        await first.run(f_fragment, component=(f_component, "changed", {"revision": -1, "nonce": i}))
        started = time.monotonic()
        await phone.run(fragment_id, component=(component_id, "changed", {"revision": -1, "nonce": i}))
        wall.append(time.monotonic() - started)
        await asyncio.sleep(0.05)  # the server's last bookkeeping after the run
        process_cpu += monitor._cpu_seconds() - cpu_before
        phone.ws.recv = original_recv
        sizes.append(sum(received))
        if phone.errors.plain:
            raise SystemExit(f"error on the phone: {phone.errors.plain[0]}")
    await phone.ws.close()
    await first.ws.close()
    store.close()
    return {"process_cpu": process_cpu / reruns / 2, "bytes": sizes, "wall": wall}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reruns", type=int, default=200)
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
        [sys.executable, "-m", "benchmarks.profile_phone_rerun", "--serve", str(port)],
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
        figures = asyncio.run(drive(url, args.reruns, args.kind, monitor))
    finally:
        server.terminate()
        server.wait(timeout=30)
    times = marshal.loads(out.read_bytes())
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"{args.kind}: {len(times)} fragment reruns; script thread CPU per rerun: median "
        f"{1000 * statistics.median(times):.2f} ms, mean {1000 * statistics.mean(times):.2f} ms; whole server "
        f"process per rerun (both phones', with the event loop's sending): {1000 * figures['process_cpu']:.2f} ms; "
        f"sent per rerun: {statistics.median(figures['bytes']):.0f} bytes; wall median "
        f"{1000 * statistics.median(figures['wall']):.1f} ms"
    )
    if not args.no_profile:
        stats = pstats.Stats(str(out) + ".prof")
        stats.sort_stats("cumulative").print_stats(args.top)
        stats.sort_stats("tottime").print_stats(args.top)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
