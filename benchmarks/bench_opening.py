"""A class's openings in one process, without HTTP: the CPU and the reads from an opening to the last phone's card.

    python -m benchmarks.bench_opening [--students 1000] [--rounds 3] [--window 20]

The laptop case of ``load_live_room`` (one process, SQLite with its file's watcher) with the phones' own code and
none of the rest: every student's event stream is the routes' ``card_stream`` in this process's event loop, and
each student answers through the routes' ``submit`` at a random moment within ``--window`` seconds of seeing the
card, as ``load_live_room``'s phones do. Each round the teacher opens a "Predict the NDCG" activity; reported per
round: the seconds and the process's CPU until every phone had the card (the class's first answers, stored
meanwhile, included) and the reads made meanwhile, counted: the class's reads of the answers
(``Answers.by_student``), a student's own (``Answers.of_student``: one per phone when the class's read could not
serve) and the room's (``Rooms.get``). The counts say what the timings on a loaded machine cannot; the day's speed
(``bench_mistakes.day_speed``) and the load are printed beside them. An older checkout, whose routes were
``ui.routes``, runs it too (copy this file there): the before and after of one change, side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import os
import random
import tempfile
import time
import warnings
from typing import Any

COUNTED = (("of_student", "answers", "Answers"), ("by_student", "answers", "Answers"), ("get", "rooms", "Rooms"))


def counting(counts: dict[str, int], key: str, real: Any) -> Any:
    """``real`` counting its calls in ``counts[key]``."""

    def counted(*args: Any, **kwargs: Any) -> Any:
        counts[key] += 1
        return real(*args, **kwargs)

    return counted


def count_reads() -> dict[str, int]:
    """Count the calls of the reads in ``COUNTED`` from now on (each still runs); the counts, kept up to date."""
    counts: dict[str, int] = {}
    for name, module, owner in COUNTED:
        cls = getattr(importlib.import_module(f"ndcg_core.classroom.storage.{module}"), owner)
        counts[f"{module}.{name}"] = 0
        setattr(cls, name, counting(counts, f"{module}.{name}", getattr(cls, name)))
    return counts


async def run(students: int, rounds: int, window: float) -> None:
    import sqlalchemy as sa

    from ndcg_core.classroom import rules
    from ndcg_core.classroom.kinds.lists import random_list
    from ndcg_core.classroom.kinds.predict import Predict
    from ndcg_core.classroom.storage import engine as tables
    from ui import database

    try:
        routes: Any = importlib.import_module("ui.phones.routes")
    except ImportError:  # a checkout from before the phones' package
        routes = importlib.import_module("ui.routes")
    counts = count_reads()
    store = database.db()
    room, key = store.rooms.create()
    code = room.code
    ids = [rules.new_student_id() for _ in range(students)]
    now = store.database.clock()
    with store.database.engine.begin() as conn:  # the class joined, in one transaction: joins are not measured
        conn.execute(
            tables.students.insert(),
            [
                {"room": code, "id": s, "number": i + 1, "joined_at": now, "tokens": 5.0, "tokens_at": now}
                for i, s in enumerate(ids)
            ],
        )
        conn.execute(sa.update(tables.rooms).where(tables.rooms.c.code == code).values(student_count=students))
    for student in ids:
        database.learned_member(code, student)
    hub = database.notices()
    current: dict[str, Any] = {"id": None, "got": set(), "done": asyncio.Event()}
    answering: list[asyncio.Future[Any]] = []

    async def answer(student: str, activity: int) -> None:
        await asyncio.sleep(random.uniform(0, window))
        body = {"activity": activity, "values": [[0, f"0.{random.randint(10, 99)}"]]}
        await routes.run_in_threadpool(routes.submit, code, student, "en", body)

    async def phone(student: str) -> None:
        revision = database.room_revision(code)
        async for text in routes.card_stream(code, student, "en", None, revision):
            if not text.startswith("id:") or "event: card" not in text:
                continue
            activity = json.loads(text.split("data: ", 1)[1]).get("activity")
            if activity is not None and activity == current["id"] and student not in current["got"]:
                current["got"].add(student)
                answering.append(asyncio.ensure_future(answer(student, activity)))
                if len(current["got"]) == students:
                    current["done"].set()

    phones = [asyncio.ensure_future(phone(s)) for s in ids]
    await asyncio.sleep(2.0)  # every stream open and waiting
    for number in range(rounds):
        current.update(got=set(), done=asyncio.Event())
        before = dict(counts)
        cpu, start = time.process_time(), time.monotonic()
        row = await asyncio.to_thread(store.rooms.open_activity, code, key, Predict(random_list(number + 1)))
        current["id"] = row.id
        database.room_changed(code)  # as the teacher's command on this process does
        await current["done"].wait()
        cpu, seconds = time.process_time() - cpu, time.monotonic() - start
        reads = ", ".join(f"{k} {counts[k] - before[k]}" for k in counts)
        print(
            f"opening {number + 1}: {students} cards in {seconds:.2f} s, CPU {cpu:.3f} s "
            f"({1000 * cpu / students:.2f} ms per phone); reads meanwhile: {reads}",
            flush=True,
        )
        await asyncio.gather(*answering)
        answering.clear()
        await asyncio.sleep(1.5)
    hub.close()
    await asyncio.gather(*phones, return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--window", type=float, default=20.0, help="seconds over which each round's answers come")
    args = parser.parse_args()
    os.environ["NDCG_LAB_DATA_DIR"] = tempfile.mkdtemp(prefix="bench-opening-")
    os.environ["NDCG_LAB_MAX_STUDENTS"] = str(max(args.students, 500))
    logging.disable(logging.WARNING)
    warnings.filterwarnings("ignore")  # Streamlit's caches used outside a running app say so at each call
    from benchmarks.bench_mistakes import day_speed

    print(f"day's speed {1000 * day_speed():.0f} ms; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    random.seed(1)
    asyncio.run(run(args.students, args.rounds, args.window))


if __name__ == "__main__":
    main()
