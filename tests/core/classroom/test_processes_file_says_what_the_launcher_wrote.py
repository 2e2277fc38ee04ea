"""``ndcg_core.classroom.processes``: what the launcher writes, a replica reads back; a file missing, half-written
or not the launcher's says nothing (None) rather than a wrong count."""

from ndcg_core.classroom.processes import (
    PROCESSES_VARIABLE,
    Processes,
    processes_now,
    read_processes,
    write_processes,
)


def test_what_is_written_is_read_back_whole(tmp_path):
    path = tmp_path / "processes.json"
    for processes in [Processes(2, 2), Processes(2, 1, restarting=1), Processes(3, 1, restarting=1, failed=1)]:
        write_processes(path, processes)
        assert read_processes(path) == processes
        assert processes_now({PROCESSES_VARIABLE: str(path)}) == processes
    assert list(tmp_path.iterdir()) == [path]  # nothing half-written left beside it
    assert Processes(2, 1).short and not Processes(2, 2).short


def test_a_file_that_is_not_the_launchers_says_nothing(tmp_path):
    path = tmp_path / "processes.json"
    assert read_processes(path) is None  # missing
    assert processes_now({}) is None  # not under the launcher
    for text in [
        "",
        '{"started": 2, "alive": 1, "restarting": 1',
        "[2, 1]",
        '{"started": 2, "alive": 1}',
        '{"started": 2, "alive": 3, "restarting": 0, "failed": 0}',
        '{"started": 2, "alive": -1, "restarting": 0, "failed": 0}',
        '{"started": 2, "alive": true, "restarting": 0, "failed": 0}',
        '{"started": "2", "alive": 1, "restarting": 0, "failed": 0}',
    ]:
        path.write_text(text)
        assert read_processes(path) is None, text


def test_a_write_replaces_what_a_launcher_that_died_mid_write_left_beside_the_file(tmp_path):
    path = tmp_path / "processes.json"
    (tmp_path / "processes.json.partial").write_text('{"started": 2, "al')  # the last write, cut short
    write_processes(path, Processes(2, 2))
    assert list(tmp_path.iterdir()) == [path] and read_processes(path) == Processes(2, 2)


def test_a_replica_reads_the_file_its_environment_names(tmp_path, monkeypatch):
    path = tmp_path / "processes.json"
    write_processes(path, Processes(3, 2, restarting=1))
    monkeypatch.setenv(PROCESSES_VARIABLE, str(path))
    assert processes_now() == Processes(3, 2, restarting=1)
    monkeypatch.delenv(PROCESSES_VARIABLE)
    assert processes_now() is None
