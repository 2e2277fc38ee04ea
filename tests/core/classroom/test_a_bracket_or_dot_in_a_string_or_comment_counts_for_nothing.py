"""The shape check reads TOML's strings and comments as TOML does: a bracket or a dot inside any kind of string (basic,
literal, multi-line, with escapes, with quotes of its own before the closing three, never closed) or a comment
counts for nothing, and one outside them counts, with the line it is on."""

import re

import pytest

from ndcg_core.classroom.lesson_shape import MAX_DEPTH, MAX_KEY_PARTS, check_shape
from ndcg_core.errors import InputError

DEEP = "[" * (MAX_DEPTH + 1)  # one level too deep, if it counted
FULL = "[" * MAX_DEPTH + "0" + "]" * MAX_DEPTH  # as deep as a file may nest
KEY = ".".join("bcdefghij"[:MAX_KEY_PARTS])  # as many parts as a key may have
LONG_KEY = ".".join("bcdefghij"[: MAX_KEY_PARTS + 1])

# (the text, what the check says: None when it passes, else (code, line))
CASES = [
    # Basic strings, with escapes.
    (f'x = "{DEEP}"', None),
    (f'x = "\\"{DEEP}"', None),
    (f'x = ["\\\\", "{DEEP}"]', None),
    (f'"a\n.{LONG_KEY[2:]}.z = 1', ("lesson.key_parts", 2)),  # an unclosed string ends at its line's end
    (f'"a\n.{KEY[2:]}.z = 1', None),
    # Literal strings: no escapes; closed on their line or ended by it.
    (f"x = ['a\\', \"{DEEP}\"]", None),
    (f"x = ['{DEEP}', 'b']", None),
    (f"x = ['', '{DEEP}']", None),
    (f"x = ['a', {DEEP}0]", ("lesson.too_deep", 1)),
    (f"x = 'abc\ny = {DEEP}0\nz = 1", ("lesson.too_deep", 2)),
    (f"x = '\ny = {DEEP}0", ("lesson.too_deep", 2)),
    (f"x = '{DEEP}", None),
    (f"'a'.{KEY[2:]} = 1", None),
    (f"'a'.{LONG_KEY[2:]} = 1", ("lesson.key_parts", 1)),
    (f'"a".{LONG_KEY[2:]} = 1', ("lesson.key_parts", 1)),
    (f"x = ['a', {DEEP}0, 'b']", ("lesson.too_deep", 1)),  # each literal string ends at its own quote
    (f"x = 'abc\ny = {DEEP}0\nz = 'q'", ("lesson.too_deep", 2)),
    ("x = ['abc", None),  # never closed, on the text's last line
    (f"x = 1\n'a'.{LONG_KEY[2:]} = 1", ("lesson.key_parts", 2)),  # opening a line
    (f"'a\n.{LONG_KEY[2:]}.z = 1", ("lesson.key_parts", 2)),  # an unclosed literal string ends at its line's end
    (f"'a\n.{KEY[2:]}.z = 1", None),
    # Multi-line strings: empty, over lines, with escapes, ending with quotes of their own, never closed.
    (f'x = """"""\ny = {DEEP}0', ("lesson.too_deep", 2)),
    (f"x = ''''''\ny = {DEEP}0", ("lesson.too_deep", 2)),
    (f"x = '''a'''\ny = {DEEP}0\nz = '''b'''", ("lesson.too_deep", 2)),
    (f'x = """a"""\ny = {DEEP}0\nz = """b"""', ("lesson.too_deep", 2)),
    (f'x = """\n{DEEP}\n"""', None),
    (f'x = """\\n {DEEP} """', None),
    (f'x = """abc {DEEP}', None),
    (f'x = """a"""{DEEP}0', ("lesson.too_deep", 1)),
    (f'x = """a""""{DEEP}0', ("lesson.too_deep", 1)),
    (f'x = """a""""""{DEEP}', None),
    ('x = """a"""', None),
    (f"x = '''a''''{DEEP}0", ("lesson.too_deep", 1)),
    (f'"""a""""{DEEP}0', ("lesson.too_deep", 1)),  # the text's first string
    # Comments, closed by their line's end or by the text's.
    (f"# {DEEP}\ny = {DEEP}0\n", ("lesson.too_deep", 2)),
    (f"x = 1 # {DEEP}", None),
    ("x = [ # a comment", None),  # the text's last line
    # Depth and key parts outside strings: spaces and brackets between parts, the limits themselves.
    (FULL, None),
    (f"a = {FULL}\nb = {FULL}", None),
    (f"x = [[0], {DEEP[1:]}0]", ("lesson.too_deep", 1)),
    (f"{DEEP}0", ("lesson.too_deep", 1)),
    (f"\nx = {DEEP}0", ("lesson.too_deep", 2)),
    (f".{KEY} = 1", None),
    (f"a = .{KEY}", None),
    (LONG_KEY.replace(".", ". ") + " = 1", ("lesson.key_parts", 1)),
    (" ".join("abcdefghij"), None),
    (f"X.{LONG_KEY[2:]} = 1", ("lesson.key_parts", 1)),  # capitals are a bare key's too
    (f"X = {DEEP}0", ("lesson.too_deep", 1)),
    (f"x = {KEY}", None),  # a part after an "=" starts a key of its own
    (f"a {KEY} = 1", None),  # so does one after another part with no dot between
    (f'"a" {KEY} = 1', None),  # or after a quoted part
    (f"x = {LONG_KEY}", ("lesson.key_parts", 1)),
    (KEY.replace(".", "..", 1) + " = 1", None),  # a dot after a dot carries the parts on
    (LONG_KEY.replace(".", "..", 1) + " = 1", ("lesson.key_parts", 1)),
]


def node_id(text):
    """The case's text as a test id a command line can select again: no backslash, quote or line break."""
    return re.sub(r"[^A-Za-z0-9 =.#,\[\]]", "_", text)[:40]


@pytest.mark.parametrize(("text", "verdict"), CASES, ids=[node_id(c[0]) for c in CASES])
def test_only_brackets_and_dots_outside_strings_and_comments_count(text, verdict):
    if verdict is None:
        check_shape(text, "mine.toml")
        return
    with pytest.raises(InputError) as caught:
        check_shape(text, "mine.toml")
    code, line = verdict
    assert (caught.value.code, caught.value.fields["line"], caught.value.fields["file"]) == (code, line, "mine.toml")
