"""How long a lesson of 20 activities takes to open: read its TOML file, start a room (SQLite in a temporary folder),
attach the lesson, open its first step, and draw the teacher's control page (Streamlit's AppTest, the whole page
with its live panel) and a student's phone. Each part is timed on its own; the first round, which imports and warms
caches, is reported apart. Usage:

    python -m benchmarks.bench_lesson [--repeat 5] [--activities 20]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def lesson_text(activities: int) -> str:
    """The shipped English lesson's activities repeated up to ``activities``, as a TOML file."""
    from ndcg_core.classroom.lessons import lesson_to_toml, read_lesson_file

    shipped = read_lesson_file(ROOT / "lessons" / "ndcg-in-20-minutes.en.toml")
    steps = [shipped.steps[i % len(shipped.steps)] for i in range(activities)]
    return lesson_to_toml(replace(shipped, title=f"{activities} activities", steps=tuple(steps)))


def one_round(path: Path) -> dict[str, float]:
    """One lesson opened, each part's seconds."""
    from streamlit.testing.v1 import AppTest

    from ndcg_core.classroom.lessons import read_lesson_file
    from ui.database import db
    from ui.state import ClassroomState

    times: dict[str, float] = {}
    start = time.perf_counter()
    lesson = read_lesson_file(path)
    times["read file"] = time.perf_counter() - start

    start = time.perf_counter()
    room, key = db().rooms.create()
    db().lessons.use(room.code, key, lesson)
    times["start room"] = time.perf_counter() - start

    start = time.perf_counter()
    db().lessons.step(room.code, key, 0)
    times["first step"] = time.perf_counter() - start

    start = time.perf_counter()
    teacher = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    teacher.switch_page("pages/7_Classroom.py")
    teacher.session_state["classroom"] = ClassroomState(room=room.code, key=key)
    teacher.query_params["room"] = room.code
    teacher.run()
    assert not teacher.exception, teacher.exception
    assert any("Activity 1 of" in m.value for m in teacher.markdown)
    times["render control page"] = time.perf_counter() - start
    times["total"] = sum(times.values())
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--activities", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ["NDCG_LAB_DATA_DIR"] = folder
        os.environ.pop("NDCG_LAB_DATABASE_URL", None)
        path = Path(folder) / "lesson.toml"
        path.write_text(lesson_text(args.activities), encoding="utf-8")
        first = one_round(path)
        rounds = [one_round(path) for _ in range(args.repeat)]
        from ui.database import db

        db().close()
    print(f"A lesson of {args.activities} activities opened {args.repeat} times (after one warm-up round)")
    print(f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()}")
    print(f"{'part':<22}{'first':>9}{'median':>9}{'max':>9}  (seconds)")
    for part in first:
        values = [r[part] for r in rounds]
        print(f"{part:<22}{first[part]:>9.3f}{statistics.median(values):>9.3f}{max(values):>9.3f}")


if __name__ == "__main__":
    main()
