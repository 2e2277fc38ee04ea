"""A lesson given as text is measured as the file it would be, in UTF-8 bytes, so that text at the limit in
characters but over it in bytes is refused as its file would be; a file that cannot be read is named with the
system's reason, or the error's kind when the system gives none; and a TOML error with no place in its message is
given whole."""

import pathlib
import tomllib
import types

from ndcg_core.classroom import lessons
from ndcg_core.classroom.lessons import MAX_FILE_BYTES, read_lesson, read_lesson_file
from support import error_of


def test_text_at_the_limit_in_characters_but_over_it_in_bytes_is_too_large():
    text = "# é" + "x" * (MAX_FILE_BYTES - 3)  # MAX_FILE_BYTES characters, one of them two bytes in UTF-8
    assert len(text) == MAX_FILE_BYTES
    error = error_of(read_lesson, text, "mine.toml")
    assert (error.code, error.fields) == (
        "lesson.too_large",
        {"file": "mine.toml", "count": MAX_FILE_BYTES + 1, "limit": MAX_FILE_BYTES},
    )
    assert error_of(read_lesson, text.encode(), "mine.toml").fields["count"] == MAX_FILE_BYTES + 1
    # The same number of characters, all ASCII: as large as a file may be, so read (and refused for what it lacks).
    assert error_of(read_lesson, "# " + "x" * (MAX_FILE_BYTES - 2), "mine.toml").code != "lesson.too_large"


def test_a_file_that_cannot_be_read_is_named_with_the_system_s_reason_or_the_error_s_kind(tmp_path, monkeypatch):
    path = tmp_path / "locked.toml"
    path.write_text('title = "t"\n', encoding="utf-8")
    for raised, reason in (
        (PermissionError(13, "Permission denied"), "Permission denied"),
        (PermissionError(), "PermissionError"),
    ):

        def fail(self, raised=raised):
            raise raised

        monkeypatch.setattr(pathlib.Path, "read_bytes", fail)
        error = error_of(read_lesson_file, path)
        assert (error.code, error.fields) == ("file.unreadable", {"file": "locked.toml", "reason": reason})


def test_a_toml_error_without_a_place_is_given_whole(monkeypatch):
    def loads(text):
        raise tomllib.TOMLDecodeError("Something odd")

    monkeypatch.setattr(lessons, "tomllib", types.SimpleNamespace(loads=loads, TOMLDecodeError=tomllib.TOMLDecodeError))
    error = error_of(read_lesson, 'title = "t"\n', "mine.toml")
    assert (error.code, error.fields) == ("lesson.syntax_end", {"file": "mine.toml", "reason": "Something odd"})
