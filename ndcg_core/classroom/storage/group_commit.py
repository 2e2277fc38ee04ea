"""Many threads' writes made as one: a group commit.

A class of 2,000 sends its answers within a few seconds, and each one alone is a transaction of its own: the same
room and activity read again, half a dozen round trips and a commit, for a single row. ``GroupCommit`` lets the
first thread to arrive write everything queued meanwhile in one call (``write``, one transaction for the lot), and
hands each waiting thread its own result or error. While one batch is written the next one gathers; a lone write
is made at once, as before. No thread waits on a timer: the batch is whatever came in while the last one was
written, so the wait is never more than one batch's writing.

Two items with the same ``key`` (the same student sending again before their first answer is stored) never share a
batch: the later one waits for the next, so they are stored in the order they came.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")

MOST = 256  # items written in one batch at most (one transaction, and one statement's parameters)


class _Waiting(Generic[T, R]):
    """One item on its way: its result (or error) once written, or the lead handed to it."""

    def __init__(self, item: T) -> None:
        self.item = item
        self.woken = threading.Event()
        self.done = False
        self.result: R | None = None
        self.error: BaseException | None = None


class GroupCommit(Generic[T, R]):
    """Items written in batches by whichever calling thread leads: ``write`` takes a batch and gives back, in the
    same order, each item's result or the exception to raise in its caller's thread."""

    def __init__(
        self,
        write: Callable[[Sequence[T]], Sequence[R | BaseException]],
        key: Callable[[T], Hashable],
        most: int = MOST,
    ) -> None:
        self._write = write
        self._key = key
        self._most = most
        self._lock = threading.Lock()
        self._queue: list[_Waiting[T, R]] = []
        self._leading = False

    def submit(self, item: T) -> R:
        """Write ``item`` (in a batch with whatever else is queued) and give back its result, or raise its error."""
        mine: _Waiting[T, R] = _Waiting(item)
        with self._lock:
            self._queue.append(mine)
            lead = not self._leading
            self._leading = True
        if not lead:
            mine.woken.wait()  # its result, or the lead handed over
        if not mine.done:
            self._lead(mine)
        if mine.error is not None:
            raise mine.error
        return mine.result  # type: ignore[return-value]

    def _lead(self, mine: _Waiting[T, R]) -> None:
        """Write batches until ``mine`` is written, then hand the lead to the first item still queued (or give it
        up): a thread's own reply never waits for later batches."""
        while True:
            with self._lock:
                batch: list[_Waiting[T, R]] = []
                rest: list[_Waiting[T, R]] = []
                keys: set[Hashable] = set()
                for waiting in self._queue:
                    key = self._key(waiting.item)
                    if key in keys or len(batch) >= self._most:
                        rest.append(waiting)
                    else:
                        keys.add(key)
                        batch.append(waiting)
                self._queue = rest
            self._write_batch(batch)
            with self._lock:
                if not mine.done:
                    continue  # its key was in the batch before: the next one has it
                if self._queue:
                    heir = self._queue[0]
                else:
                    self._leading = False
                    return
            heir.woken.set()  # it leads the next batch (it is not done: it wakes to write)
            return

    def _write_batch(self, batch: list[_Waiting[T, R]]) -> None:
        try:
            outcomes: Sequence[R | BaseException] = self._write([waiting.item for waiting in batch])
            if len(outcomes) != len(batch):
                raise RuntimeError(f"a batch of {len(batch)} came back with {len(outcomes)} outcomes")
        except BaseException as err:  # noqa: BLE001 - every caller of the batch raises it, in its own thread
            outcomes = [err] * len(batch)
        for waiting, outcome in zip(batch, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                waiting.error = outcome
            else:
                waiting.result = outcome
            waiting.done = True
            waiting.woken.set()
