"""``python -m ndcg_core.classroom check FILE``: a lesson's outline (exit 0), or its first problem on stderr in one
line naming the activity and the field (exit 2). ``python -m ndcg_core.classroom schema``: the lesson format's JSON
Schema (``--write`` updates ``lesson.schema.json`` beside the code)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from ..errors import InputError, number_text
from .activities import Compare, Judge, Practice, Predict, Rank
from .lessons import SCHEMA_FILE, Lesson, Step, json_schema, read_lesson_file


def _ndcg(spec: object) -> str:
    from .activities import ListSpec

    assert isinstance(spec, ListSpec)
    ideal = "every judged result" if spec.pool else "the list"
    return f"NDCG@{spec.k} ({spec.gain} gain, {spec.discount} discount, ideal from {ideal})"


def _quoted(query: str) -> str:
    return f' "{query}"' if query else ""


def describe(step: Step) -> str:
    """One line of a lesson's outline: the activity, its content and conventions, and the right answer."""
    a = step.activity
    if isinstance(a, Predict):
        line = f"Predict the NDCG{_quoted(a.spec.query)}: {len(a.spec.grades)} results, {_ndcg(a.spec)} = "
        line += f"{a.truth():.4f}"
    elif isinstance(a, Rank):
        shown = "shown" if a.show_grades else "hidden"
        line = f"Rank it best{_quoted(a.spec.query)}: {len(a.spec.grades)} results, grades {shown}, {_ndcg(a.spec)}"
        line += f" from {a.spec.ndcg():.4f} to at best {a.maximum():.4f}"
    elif isinstance(a, Compare):
        va, vb = a.values(a.metric)
        metric = {"ndcg": f"NDCG@{a.pair.k}", "mrr": "MRR", "precision": f"P@{a.pair.k}"}[a.metric]
        line = f"Which is better?{_quoted(a.query)} A or B under {metric}: A {va:.4f}, B {vb:.4f}"
    elif isinstance(a, Practice):
        kinds = ", ".join(ex.kind for ex in a.exercises())
        line = f"Practice together: seed {a.seed}, {len(a.numbers)} exercises ({kinds})"
    else:
        assert isinstance(a, Judge)
        line = (
            f"Judge the results{_quoted(a.spec.query)}: {len(a.spec.grades)} results on a scale of "
            f"{a.scale.low} to {a.scale.high}; {_ndcg(a.spec)} under the teacher's grades = {a.spec.ndcg():.4f}"
        )
    if step.question.en or step.question.zh:
        line += "; own wording"
    if step.time_limit is not None:
        line += f"; {number_text(step.time_limit)} s to answer"
    return line


def outline(lesson: Lesson) -> str:
    """The lesson as the check command prints it: its title and settings, then one numbered line per activity."""
    scores = "scores on" if lesson.scores else "scores off"
    head = f"{lesson.title}: {len(lesson.steps)} activities, {scores}, judging scale {lesson.scale.low} to "
    head += f"{lesson.scale.high}"
    return "\n".join([head, *(f"{n:>3}. {describe(step)}" for n, step in enumerate(lesson.steps, start=1))])


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="python -m ndcg_core.classroom", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="check a lesson file and print its outline")
    check.add_argument("file")
    schema = commands.add_parser("schema", help="print the lesson format's JSON Schema")
    schema.add_argument("--write", action="store_true", help=f"write it to {SCHEMA_FILE.name} beside the code")
    args = parser.parse_args(argv)
    if args.command == "schema":
        text = json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n"
        if args.write:
            SCHEMA_FILE.write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
        return 0
    try:
        lesson = read_lesson_file(args.file)
    except InputError as error:
        message = str(error).splitlines()[0]
        # Messages about the contents name the activity and field but not the file: say which file.
        prefix = "" if message.startswith(args.file.rsplit("/", 1)[-1]) else f"{args.file}: "
        print(prefix + message, file=sys.stderr)
        return 2
    print(outline(lesson))
    return 0


if __name__ == "__main__":
    sys.exit(main())
