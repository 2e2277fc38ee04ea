"""The projector counts a class's estimates at every run of its live part: each distinct estimate of a list is
judged (read for a slip or a mistake) once per process, not once per run, and the memo gives the same verdicts as
judging afresh."""

import pytest

from ndcg_core.classroom.kinds import tally
from ndcg_core.classroom.kinds.lists import activity_list

SPEC = activity_list(("r1", "r2", "r3", "r4", "r5"), (3, 2, 3, 0, 1), 3)  # the seeds' list, k = 3
# Right, close, a slip (position 3's 1.50 written 1.05), the DCG typed for the NDCG, and other numbers; repeated as
# a class types them.
TYPED = ["0.94", "0.9", "0.90", "4.76", "0.12", "0.33", "0.94", "0.12", "4.76", "0.33"]


@pytest.fixture
def counted(monkeypatch):
    tally._judged.cache_clear()
    calls = []
    real = tally.read_answer

    def counting(spec, guess, **kwargs):
        calls.append(guess)
        return real(spec, guess, **kwargs)

    monkeypatch.setattr(tally, "read_answer", counting)
    yield calls
    tally._judged.cache_clear()


def test_each_distinct_estimate_is_read_once_over_many_runs(counted):
    first = tally.estimate_groups(SPEC, TYPED)
    read_first = sorted(counted)
    for _ in range(3):
        again = tally.estimate_groups(SPEC, TYPED * 100)
        assert [(g.code, g.count) for g in again] == [(g.code, 100 * g.count) for g in first]
    assert sorted(counted) == read_first  # no estimate read again
    assert len(counted) == len(set(counted))  # none read twice in the first run either


def test_the_memo_gives_the_verdicts_judged_afresh(counted):
    truth = SPEC.ndcg()
    for guess in TYPED:
        assert tally.estimate_verdict(SPEC, guess) == tally._judge(SPEC, guess, truth)


def test_a_number_and_its_text_are_judged_apart(counted):
    # "0.90" (two decimals typed) and 0.9 (a number) are not one key: a verdict may depend on the decimals written.
    tally.estimate_verdict(SPEC, "0.90")
    tally.estimate_verdict(SPEC, 0.9)
    assert tally._judged.cache_info().currsize == 2
