"""A lesson file's shape, looked at before ``tomllib`` reads it: how deep its lists and tables nest and how many
dotted parts its keys have.

``tomllib`` takes time quadratic in the parts of one dotted key (a 200 KB ``[a.a.a...]`` header kept a server
busy for 36 s) and recurses once per level of nesting (a file of ten thousand ``[`` raised ``RecursionError``).
A lesson needs neither: its deepest value is a list of tables of lists, its longest key two parts. One linear
pass, which knows TOML's strings and comments so that a ``[`` or a ``.`` inside them counts for nothing, refuses
such a file with the line it found it on.
"""

from __future__ import annotations

import re

from ..errors import InputError

MAX_DEPTH = 8  # brackets and braces open at once; a lesson's deepest value opens 3 (a header's [[ ]] opens 2)
MAX_KEY_PARTS = 8  # parts of one dotted key or table name; a lesson's longest has 2

_BARE = re.compile(r"[A-Za-z0-9_+\-]+")  # a bare key, or a number's digits (a float is two parts: 0 . 5)
_BASIC_STOP = re.compile(r'[\\"\n]')
_LITERAL_STOP = re.compile(r"['\n]")
_MULTI_BASIC_STOP = re.compile(r'\\.|"""', re.DOTALL)
_OPENING = "[{"
_CLOSING = "]}"


def check_shape(text: str, file: str) -> None:
    """Refuse ``text`` if its lists and tables nest deeper than ``MAX_DEPTH`` or a key has more than
    ``MAX_KEY_PARTS`` dotted parts (``lesson.too_deep``, ``lesson.key_parts``, with the line)."""
    depth = 0
    parts = 0  # parts of the dotted key just read (a number's digits count too: at most two)
    carried = 0  # the parts a next part adds to: the key's, after a dot; 0 after anything else
    i, end = 0, len(text)
    while i < end:
        c = text[i]
        if c in " \t\r":
            i += 1
            continue
        if c == "#":
            stop = text.find("\n", i)
            i = end if stop < 0 else stop
            continue
        if c in "\"'":
            stop = _string_end(text, i)
            parts, carried = _part(carried, text, i, file), 0
            i = stop
            continue
        bare = _BARE.match(text, i)
        if bare is not None:
            parts, carried = _part(carried, text, i, file), 0
            i = bare.end()
            continue
        if c == ".":
            carried = parts
        else:
            parts = carried = 0
            if c in _OPENING:
                depth += 1
                if depth > MAX_DEPTH:
                    raise InputError("lesson.too_deep", file=file, line=_line(text, i), limit=MAX_DEPTH)
            elif c in _CLOSING:
                depth = max(0, depth - 1)
        i += 1


def _part(carried: int, text: str, at: int, file: str) -> int:
    parts = carried + 1
    if parts > MAX_KEY_PARTS:
        raise InputError("lesson.key_parts", file=file, line=_line(text, at), limit=MAX_KEY_PARTS)
    return parts


def _string_end(text: str, start: int) -> int:
    """Where the string opening at ``start`` ends (one past its closing quote; the line's or the text's end if it
    is never closed, which ``tomllib`` then reports)."""
    quote = text[start]
    if text.startswith(quote * 3, start):
        i = start + 3
        if quote == "'":
            stop = text.find("'''", i)
        else:
            stop = -1
            for closing in _MULTI_BASIC_STOP.finditer(text, i):
                if closing.group() == '"""':
                    stop = closing.start()
                    break
        if stop < 0:
            return len(text)
        stop += 3
        for _ in range(2):  # a string may end with one or two quotes of its own before the closing three
            if stop < len(text) and text[stop] == quote:
                stop += 1
        return stop
    # One line: a basic string ends at its closing quote past its escapes, a literal one at its quote (it has no
    # escapes); either at the line's end if not closed there.
    stops = _BASIC_STOP if quote == '"' else _LITERAL_STOP
    i = start + 1
    while True:
        found = stops.search(text, i)
        if found is None:
            return len(text)
        if found.group() == "\\":
            i = found.start() + 2
            continue
        return found.start() + (1 if found.group() == quote else 0)


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1
