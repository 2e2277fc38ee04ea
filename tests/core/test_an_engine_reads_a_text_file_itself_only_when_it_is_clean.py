"""An out-of-core engine reads a text file itself only when it is clean (``files.scan``): no NUL byte, no carriage
return but before a line feed, UTF-8 throughout, gzipped or not; anything else is ``Unclean``, for the default
reader to say why. A tidy file (fields separated by single spaces only) is read the fastest way. The scan keeps the
file's first and last 64 KiB and one chunk, never the whole file, and a problem split between two chunks is found."""

import gzip
import tracemalloc

import pytest

from ndcg_core.trec.engines import files

KIB = 1024
LINE = b"q1 Q0 d1 1 2.5 t\n"


def written(tmp_path, data, gzipped=False):
    path = tmp_path / ("file.gz" if gzipped else "file")
    path.write_bytes(gzip.compress(data) if gzipped else data)
    return path


@pytest.mark.parametrize("gzipped", [False, True])
def test_a_tidy_file_is_clean_and_tidy(tmp_path, gzipped):
    data = LINE * 3
    assert files.scan(written(tmp_path, data, gzipped), gzipped) == (data, data, True)


UNTIDY = {
    "a tab": LINE + b"q1\tQ0 d2 2 1.5 t\n",
    "a carriage return before a line feed": LINE + b"q1 Q0 d2 2 1.5 t\r\n",
    "a vertical tab": LINE + b"q1 Q0 d2 2 1.5\x0bt\n",
    "a form feed": LINE + b"q1 Q0 d2 2 1.5\x0ct\n",
    "two spaces": LINE + b"q1 Q0  d2 2 1.5 t\n",
    "a space before a line's end": LINE + b"q1 Q0 d2 2 1.5 t \n",
    "a space starting a line": LINE + b" q1 Q0 d2 2 1.5 t\n",
    "a space starting the file": b" " + LINE,
    "a space ending the file": LINE + b"q1 Q0 d2 2 1.5 t ",
}


@pytest.mark.parametrize("case", sorted(UNTIDY))
@pytest.mark.parametrize("gzipped", [False, True])
def test_other_blanks_between_fields_are_clean_but_not_tidy(tmp_path, case, gzipped):
    data = UNTIDY[case]
    assert files.scan(written(tmp_path, data, gzipped), gzipped) == (data, data, False)


UNCLEAN = {
    "a NUL byte": LINE + b"q1 Q0 d\x002 2 1.5 t\n",
    "a carriage return within a line": LINE + b"q1 Q0 d2\r2 1.5 t\n",
    "a carriage return at a line's start": LINE + b"\rq1 Q0 d2 2 1.5 t\n",
    "a carriage return ending the file": LINE + b"q1 Q0 d2 2 1.5 t\r",
    "a byte that is not UTF-8": LINE + b"q1 Q0 caf\xe9 2 1.5 t\n",
    "a character cut short by the file's end": LINE + b"q1 Q0 d2 2 1.5 \xc3",
}


@pytest.mark.parametrize("case", sorted(UNCLEAN))
@pytest.mark.parametrize("gzipped", [False, True])
def test_a_file_that_is_not_clean_is_left_to_the_default_reader(tmp_path, case, gzipped):
    with pytest.raises(files.Unclean):
        files.scan(written(tmp_path, UNCLEAN[case], gzipped), gzipped)


def test_a_large_file_gives_its_first_and_last_64_kib(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "_CHUNK", 5000)  # no divisor of 64 KiB: the chunk that fills the head is cut
    data = b"".join(f"q{n} Q0 d{n} 1 {n}.5 t\n".encode() for n in range(12_000))
    assert len(data) > 2 * 64 * KIB + 5000
    assert files.scan(written(tmp_path, data), False) == (data[: 64 * KIB], data[-64 * KIB :], True)


# The two bytes (of a problem, or of a character) fall in two chunks of 1 KiB: one ends the first, one starts the next.
SPLIT = {
    "a carriage return, then a letter": (b"\r", b"q", "unclean"),
    "a line feed, then a space": (b"\n", b" ", "untidy"),
    "a space, then a space": (b" ", b" ", "untidy"),
    "a space, then a line feed": (b" ", b"\n", "untidy"),
    "a carriage return, then a line feed": (b"\r", b"\n", "untidy"),
    "an é cut in two": ("é".encode()[:1], "é".encode()[1:], "tidy"),
}


@pytest.mark.parametrize("case", sorted(SPLIT))
def test_what_two_chunks_split_is_seen_whole(tmp_path, monkeypatch, case):
    monkeypatch.setattr(files, "_CHUNK", KIB)
    first, second, verdict = SPLIT[case]
    start = LINE * 50
    data = start + b"x" * (KIB - len(start) - len(first)) + first + second + LINE * 2
    path = written(tmp_path, data)
    if verdict == "unclean":
        with pytest.raises(files.Unclean):
            files.scan(path, False)
    else:
        assert files.scan(path, False) == (data, data, verdict == "tidy")


def test_the_scan_never_holds_the_whole_file(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "_CHUNK", 4 * KIB)
    path = written(tmp_path, LINE * (2 * KIB * KIB // len(LINE)))  # 2 MiB
    tracemalloc.start()
    try:
        files.scan(path, False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The head, the tail and the tail with the next chunk before it is cut, a chunk and its copy: about 270 KiB.
    assert peak < 512 * KIB
