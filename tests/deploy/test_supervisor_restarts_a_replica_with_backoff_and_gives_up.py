"""``deploy/supervisor.py`` without processes: a replica that exits is started again at once, a replica that keeps
exiting soon after it starts waits 1, 2, 4 ... s between tries and is given up in one clear line, and the count the
replicas read (``Processes``) follows each step. Stand-in processes and a clock of the test's own."""

from deploy.supervisor import GIVE_UP_AFTER, QUICK_SECONDS, RestartPolicy, Supervisor
from ndcg_core.classroom.processes import Processes


def expected_delay(failures):
    """The backoff as the policy states it: at once after the first failure, then doubling from 1 s."""
    return 0.0 if failures == 1 else 2.0 ** (failures - 2)


def test_quick_failures_in_a_row_wait_longer_each_time_then_are_given_up():
    policy = RestartPolicy()
    failures, decisions = 0, []
    for _ in range(GIVE_UP_AFTER):
        decision = policy.after_exit(failures, ran_for=1.0)
        failures = decision.failures
        decisions.append(decision.delay)
    assert decisions == [expected_delay(n) for n in range(1, GIVE_UP_AFTER)] + [None]
    assert policy.after_exit(GIVE_UP_AFTER - 1, ran_for=1.0).gives_up


def test_a_replica_that_ran_a_while_is_started_again_at_once_and_its_count_starts_over():
    policy = RestartPolicy()
    decision = policy.after_exit(GIVE_UP_AFTER - 1, ran_for=QUICK_SECONDS + 1)
    assert (decision.failures, decision.delay) == (1, 0.0)


def test_the_pause_never_exceeds_the_longest():
    policy = RestartPolicy(give_up_after=100, max_delay=30.0)
    assert policy.after_exit(20, ran_for=0.5).delay == 30.0
    assert policy.after_exit(5, ran_for=0.5).delay == expected_delay(6)  # 16 s, under the cap


class FakeProcess:
    """A started replica as the supervisor sees it: running until ``exit`` is called."""

    def __init__(self, pid):
        self.pid, self.returncode = pid, None

    def poll(self):
        return self.returncode

    def exit(self, code):
        self.returncode = code


class Room:
    """Two replicas under a supervisor, on a clock the test moves: what it said, published, started and ended."""

    def __init__(self, new_process_exits=None):
        self.now = 1000.0
        self.pids = iter(range(500, 600))
        self.lines, self.published, self.spawned, self.ended = [], [], [], []
        self.new_process_exits = new_process_exits  # a code: each process started again exits at once with it
        self.answering = set()
        self.processes = [FakeProcess(next(self.pids)) for _ in range(2)]
        self.supervisor = Supervisor(
            self.processes,
            self.now,
            spawn=self.spawn,
            healthy=lambda number: number in self.answering,
            say=self.lines.append,
            publish=self.published.append,
            end=self.ended.append,
        )

    def spawn(self, number):
        process = FakeProcess(next(self.pids))
        if self.new_process_exits is not None:
            process.exit(self.new_process_exits)
        self.spawned.append((number, self.now))
        self.processes[number - 1] = process
        return process

    def step(self, seconds=0.25):
        self.now += seconds
        self.supervisor.step(self.now)


def test_a_killed_replica_is_started_again_at_once_and_the_count_follows():
    room = Room()
    assert room.published == [Processes(started=2, alive=2)]
    room.step(QUICK_SECONDS + 5)  # it has served a while
    killed = room.processes[1]
    killed.exit(-9)
    room.step()
    assert room.lines == [f"replica 2 (pid {killed.pid}) exited with code -9; starting it again"]
    assert room.ended == [killed]  # what it started goes with it
    assert room.published[-1] == Processes(started=2, alive=1, restarting=1)
    room.step()
    assert room.spawned == [(2, room.now)]  # at once
    room.step()  # started, not answering yet
    assert room.published[-1] == Processes(started=2, alive=1, restarting=1)
    room.answering.add(2)
    room.step()
    assert room.lines[-1] == f"replica 2 pid {room.processes[1].pid} answers again, {3 * 0.25:.1f} s after it exited"
    assert room.published[-1] == Processes(started=2, alive=2)
    assert len(room.published) == 3  # published when the count changed, not at every step


def test_a_replica_that_keeps_failing_waits_longer_each_time_then_is_given_up_in_one_line():
    room = Room(new_process_exits=1)
    room.processes[0].exit(1)
    for _ in range(400):  # 100 s on the test's clock
        room.step()
    starts = [at for number, at in room.spawned if number == 1]
    assert len(starts) == GIVE_UP_AFTER - 1
    # Each start after the first: the pause its policy gives, after the failure before it (seen at the next step).
    gaps = [later - earlier for earlier, later in zip(starts, starts[1:], strict=False)]
    for failures, gap in zip(range(2, GIVE_UP_AFTER), gaps, strict=True):
        assert expected_delay(failures) <= gap <= expected_delay(failures) + 0.5, (failures, gaps)
    given_up = [line for line in room.lines if "not starting it again" in line]
    assert len(given_up) == 1 and given_up[0] == room.lines[-1]
    assert given_up[0].startswith(f"replica 1 (pid {room.processes[0].pid}) exited with code 1: ")
    assert f"failed {GIVE_UP_AFTER} times in a row, each before it had served {QUICK_SECONDS:.0f} s;" in given_up[0]
    assert room.published[-1] == Processes(started=2, alive=1, failed=1)
    assert [number for number, _ in room.spawned] == [1] * (GIVE_UP_AFTER - 1)  # replica 2 left alone


def test_a_replica_started_again_that_never_answers_is_ended_and_counted_as_a_failure():
    room = Room()
    room.processes[0].exit(-9)
    room.step()
    room.step()
    hung = room.processes[0]
    for _ in range(int(room.supervisor.start_seconds / 0.25) + 2):
        room.step()
    assert hung in room.ended
    assert any(line.startswith(f"replica 1 (pid {hung.pid}) did not answer within 90 s") for line in room.lines)
    assert room.lines[-1].endswith(f"starting it again in {expected_delay(2):.0f} s")  # its second failure in a row
    for _ in range(int(expected_delay(2) / 0.25) + 1):
        room.step()
    assert [number for number, _ in room.spawned] == [1, 1]
