"""``python -m ndcg_core.classroom check FILE``: a lesson's outline (exit 0), or its first problem on stderr in one
line naming the activity and the field (exit 2). ``python -m ndcg_core.classroom schema``: the lesson format's JSON
Schema (``--write`` updates ``lesson.schema.json`` beside the code)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import NoReturn

from ..errors import InputError
from .lessons import SCHEMA_FILE, json_schema, outline, read_lesson_file


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
