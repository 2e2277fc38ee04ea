"""Keeping ``deploy up``'s replicas running: a replica that exits is started again on its port, at once the first
time and then after a growing pause; one that keeps exiting soon after it starts is given up, in one clear line.

:class:`RestartPolicy` decides (no processes, no clock: what the tests pin down); :class:`Supervisor` applies it
to the replicas at each :meth:`Supervisor.step`, which the launcher calls from a thread of its own a few times a
second, and tells the replicas how many of them serve (:mod:`ndcg_core.classroom.processes`).
"""

from __future__ import annotations

import contextlib
import enum
import os
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ndcg_core.classroom.processes import Processes

QUICK_SECONDS = 30.0  # a replica that exits sooner than this after it started failed quickly
GIVE_UP_AFTER = 5  # quick failures in a row, after which a replica is not started again
MAX_DELAY = 30.0  # seconds: the longest pause before starting a replica again
START_SECONDS = 90.0  # a replica started again that does not answer within this is ended (a failure)


@dataclass(frozen=True)
class Decision:
    """What to do after a replica exited: start it again after ``delay`` seconds, or give up (``delay`` None).
    ``failures``: its quick failures in a row, this exit included (1 after a replica that had run a while)."""

    failures: int
    delay: float | None

    @property
    def gives_up(self) -> bool:
        return self.delay is None


@dataclass(frozen=True)
class RestartPolicy:
    """The backoff: the first exit is answered at once (a killed replica is back as soon as it starts), each
    further quick failure in a row waits twice as long as the one before (1, 2, 4 ... up to ``max_delay`` s), and
    the ``give_up_after``-th quick failure in a row is not answered at all."""

    quick_seconds: float = QUICK_SECONDS
    give_up_after: int = GIVE_UP_AFTER
    max_delay: float = MAX_DELAY

    def after_exit(self, failures_before: int, ran_for: float) -> Decision:
        """The decision for a replica that ran ``ran_for`` seconds, with ``failures_before`` quick failures in a
        row before this exit."""
        failures = failures_before + 1 if ran_for < self.quick_seconds else 1
        if failures >= self.give_up_after and ran_for < self.quick_seconds:
            return Decision(failures, None)
        return Decision(failures, 0.0 if failures == 1 else min(2.0 ** (failures - 2), self.max_delay))


class Process(Protocol):
    """What the supervisor needs of a started replica (a ``subprocess.Popen``)."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    def poll(self) -> int | None: ...


class State(enum.Enum):
    ALIVE = "alive"  # answered its health check since it (re)started
    STARTING = "starting"  # started again, not answering yet
    WAITING = "waiting"  # exited; to be started again at ``restart_at``
    FAILED = "failed"  # given up


@dataclass
class Replica:
    """One replica as the supervisor follows it (``number`` from 1, as the launcher's lines name it)."""

    number: int
    process: Process
    started_at: float
    alive_since: float | None  # when it last answered after (re)starting; None while it has not
    state: State = State.ALIVE
    failures: int = 0
    exited_at: float | None = None  # when it last exited (for "answers again, N s after it exited")
    restart_at: float = 0.0


class Supervisor:
    """The replicas of one deployment, kept running by ``policy``.

    ``spawn(number)`` starts replica ``number`` again (on its port) and returns the process; ``healthy(number)``
    says whether it answers; ``say`` takes one line per event; ``publish`` is given the replicas' count whenever
    it changes (and once at the start); ``end`` ends what is left of a process that exited or hangs (by default
    its process group, with SIGKILL)."""

    def __init__(
        self,
        processes: Sequence[Process],
        now: float,
        spawn: Callable[[int], Process],
        healthy: Callable[[int], bool],
        say: Callable[[str], None],
        publish: Callable[[Processes], None],
        policy: RestartPolicy = RestartPolicy(),
        start_seconds: float = START_SECONDS,
        end: Callable[[Process], None] | None = None,
    ) -> None:
        self.replicas = [Replica(n, p, now, now) for n, p in enumerate(processes, start=1)]
        self.spawn, self.healthy, self.say, self.publish = spawn, healthy, say, publish
        self.policy, self.start_seconds = policy, start_seconds
        self.end = end or (lambda process: with_group(process.pid, signal.SIGKILL))
        self.published = self.count()
        publish(self.published)

    def count(self) -> Processes:
        """How many replicas there are, answer, are being started again, and were given up."""
        states = [r.state for r in self.replicas]
        return Processes(
            started=len(states),
            alive=states.count(State.ALIVE),
            restarting=states.count(State.STARTING) + states.count(State.WAITING),
            failed=states.count(State.FAILED),
        )

    def step(self, now: float) -> None:
        """Look at every replica once at time ``now`` (``time.monotonic()``) and act on what changed."""
        for replica in self.replicas:
            self._step(replica, now)
        counted = self.count()
        if counted != self.published:
            self.published = counted
            self.publish(counted)

    def _step(self, replica: Replica, now: float) -> None:
        if replica.state in (State.ALIVE, State.STARTING) and replica.process.poll() is not None:
            self._exited(replica, now, f"exited with code {replica.process.returncode}")
        elif replica.state is State.STARTING and self.healthy(replica.number):
            replica.state, replica.alive_since = State.ALIVE, now
            after = f", {now - replica.exited_at:.1f} s after it exited" if replica.exited_at is not None else ""
            self.say(f"replica {replica.number} pid {replica.process.pid} answers again{after}")
        elif replica.state is State.STARTING and now - replica.started_at > self.start_seconds:
            self._exited(replica, now, f"did not answer within {self.start_seconds:.0f} s of starting; ended")
        elif replica.state is State.WAITING and now >= replica.restart_at:
            replica.process = self.spawn(replica.number)
            replica.started_at, replica.alive_since, replica.state = now, None, State.STARTING

    def _exited(self, replica: Replica, now: float, how: str) -> None:
        # What the replica started may outlive it, holding its port: the group goes with it.
        self.end(replica.process)
        # A replica that never answered since it started failed as quickly as one that exited at once.
        served = 0.0 if replica.alive_since is None else now - replica.alive_since
        decision = self.policy.after_exit(replica.failures, served)
        replica.failures, replica.exited_at = decision.failures, now
        what = f"replica {replica.number} (pid {replica.process.pid}) {how}"
        if decision.delay is None:
            replica.state = State.FAILED
            self.say(
                f"{what}: it failed {decision.failures} times in a row, each before it had served "
                f"{self.policy.quick_seconds:.0f} s; not starting it again (its log tells why); "
                "the others serve its clients"
            )
            return
        replica.state, replica.restart_at = State.WAITING, now + decision.delay
        self.say(f"{what}; starting it again" + (f" in {decision.delay:.0f} s" if decision.delay else ""))


def with_group(pid: int, sig: signal.Signals) -> None:
    """Send ``sig`` to the process group ``pid`` leads, if it is still there."""
    with contextlib.suppress(ProcessLookupError, PermissionError):  # already gone
        os.killpg(pid, sig)
