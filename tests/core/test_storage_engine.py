"""The classroom's database (``ndcg_core.classroom.storage.engine``): where it is, its engine and settings, the
dialects' inserts, a restart losing nothing, and faults: a lost connection retried, a commit whose answer was lost
not repeated, a database that stays down, read-only or full a ``StoreUnavailable`` with nothing half-written (on
SQLite and on PostgreSQL, the ``postgres_url`` fixture's cluster)."""

import sqlite3
import threading
from dataclasses import replace
from pathlib import Path

import psycopg
import pytest
import sqlalchemy as sa
from storage_support import fields, lose_replies, lost, outage_of, predict, sid, student_id

import ndcg_core
from ndcg_core.classroom import rules
from ndcg_core.classroom.kinds.practice import practice_activity
from ndcg_core.classroom.storage import (
    Classroom,
    Database,
    DatabaseSettings,
    Limits,
    Student,
    database_url,
    fault,
    make_engine,
    metadata,
)
from ndcg_core.classroom.storage.engine import meta
from ndcg_core.errors import StoreUnavailable
from ndcg_core.links import ShortLinks
from support import error_of


def test_a_restart_loses_no_room_and_no_answer(url, clock):
    first = Classroom(url, clock=clock)
    room, key = first.rooms.create()
    me = first.students.join(room.code, student_id(), "Cai")
    activity = first.rooms.open_activity(room.code, key, practice_activity(2026, 3))
    first.answers.submit(room.code, me.id, activity.id, [(0, "1.26"), (1, "2")])
    first.close()
    second = Classroom(url, clock=clock)  # a new process: nothing but the database carries over
    try:
        assert second.rooms.get(room.code).current.id == activity.id
        assert second.rooms.is_teacher(room.code, key)
        assert second.students.join(room.code, me.id).number == 1
        assert set(second.answers.of_student(activity.id, me.id)) == {0, 1}
    finally:
        second.close()


def test_the_database_url_from_the_environment(monkeypatch, tmp_path):
    assert database_url({"NDCG_LAB_DATABASE_URL": " postgresql+psycopg://u@h/db "}) == "postgresql+psycopg://u@h/db"
    assert database_url({"NDCG_LAB_DATA_DIR": str(tmp_path)}) == f"sqlite:///{tmp_path}/classroom.sqlite3"
    assert database_url({"NDCG_LAB_DATABASE_URL": "  ", "NDCG_LAB_DATA_DIR": "/x"}) == "sqlite:////x/classroom.sqlite3"
    checkout = Path(ndcg_core.__file__).resolve().parent.parent  # the folder that holds the package
    assert database_url({}) == f"sqlite:///{checkout}/data/classroom.sqlite3"
    monkeypatch.setenv("NDCG_LAB_DATABASE_URL", "postgresql+psycopg://me@there/lab")
    assert database_url() == "postgresql+psycopg://me@there/lab"


def test_a_sqlite_engine_makes_its_folders_and_sets_its_pragmas(tmp_path):
    path = tmp_path / "a" / "b" / "classroom.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    try:
        with engine.connect() as conn:
            pragma = {p: conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in ("journal_mode", "foreign_keys")}
            pragma.update({p: conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in ("busy_timeout", "synchronous")})
        assert pragma == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 15000, "synchronous": 1}
        assert path.exists() and (engine.pool.size(), engine.pool._max_overflow, engine.pool._timeout) == (15, 0, 10)
    finally:
        engine.dispose()
    engine = make_engine(f"sqlite:///{path}", DatabaseSettings(pool_size=2, max_overflow=0, pool_timeout=3.5))
    assert (engine.pool.size(), engine.pool._max_overflow, engine.pool._timeout) == (2, 0, 3.5)
    engine.dispose()


def test_a_server_engine_checks_connections_before_use_and_sets_its_timeouts():
    engine = make_engine("postgresql+psycopg://u@localhost/lab")
    assert (engine.pool.size(), engine.pool._max_overflow, engine.pool._pre_ping) == (15, 0, True)
    assert str(engine.url) == "postgresql+psycopg://u@localhost/lab"
    settings = DatabaseSettings(
        pool_size=3,
        max_overflow=4,
        connect_timeout=2,
        statement_timeout=1.5,
        lock_timeout=0.25,
        idle_in_transaction_timeout=30,
    )
    engine = make_engine("postgresql+psycopg://u@localhost/lab", settings)
    assert (engine.pool.size(), engine.pool._max_overflow) == (3, 4)
    options = "-c statement_timeout=1500 -c lock_timeout=250 -c idle_in_transaction_session_timeout=30000"
    assert driver_arguments(engine) == {"connect_timeout": 2, "options": options}


def driver_arguments(engine):
    """The keyword arguments the engine hands the driver when it connects (caught before any connection)."""
    seen = {}

    @sa.event.listens_for(engine, "do_connect")
    def catch(dialect, record, cargs, cparams):
        seen.update(cparams)
        raise LookupError("caught")

    with pytest.raises(LookupError):
        engine.connect()
    return {k: seen[k] for k in ("connect_timeout", "options")}


def test_each_database_gets_its_own_insert_with_on_conflict():
    from types import SimpleNamespace

    from sqlalchemy.dialects import postgresql, sqlite

    server = SimpleNamespace(engine=make_engine("postgresql+psycopg://u@localhost/lab"))
    assert isinstance(Database.insert(server, meta), postgresql.Insert)
    embedded = SimpleNamespace(engine=make_engine("sqlite://"))
    made = Database.insert(embedded, meta)
    assert isinstance(made, sqlite.Insert) and not isinstance(made, postgresql.Insert)
    embedded.engine.dispose()


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_a_classroom_in_memory(url, clock):
    # These URLs were refused with a TypeError (pool sizes given to SQLite's in-memory pool).
    s = Classroom(url, clock=clock)
    try:
        room, key = s.rooms.create()
        assert s.students.join(room.code, sid(1), "Ana") == Student(room.code, sid(1), 1, "Ana")
        joined = []  # a second thread (as the app's server uses) sees the same database
        helper = threading.Thread(target=lambda: joined.append(s.students.join(room.code, sid(2))))
        helper.start()
        helper.join()
        assert joined == [Student(room.code, sid(2), 2, None)]
        assert s.rooms.get(room.code).students == 2 and s.rooms.is_teacher(room.code, key)
    finally:
        s.close()


def test_database_settings_come_from_the_environment_and_a_bad_one_is_named():
    assert DatabaseSettings.from_environment({}) == DatabaseSettings()
    assert (DatabaseSettings().pool_size, DatabaseSettings().max_overflow) == (15, 0)
    got = DatabaseSettings.from_environment(
        {"NDCG_LAB_DB_POOL_SIZE": "3", "NDCG_LAB_DB_MAX_OVERFLOW": "0", "NDCG_LAB_DB_RETRY_SECONDS": "2.5"}
    )
    assert (got.pool_size, got.max_overflow, got.retry_seconds, got.lock_timeout) == (3, 0, 2.5, 10.0)
    for name, value, expected in [
        ("NDCG_LAB_DB_POOL_SIZE", "0", ("store.setting", "'0'", 1)),
        ("NDCG_LAB_DB_POOL_SIZE", "2.5", ("store.setting", "'2.5'", 1)),
        ("NDCG_LAB_DB_MAX_OVERFLOW", "-1", ("store.setting", "'-1'", 0)),
        ("NDCG_LAB_DB_CONNECT_TIMEOUT", "soon", ("store.setting", "'soon'", 1)),
    ]:
        error = error_of(DatabaseSettings.from_environment, {name: value})
        assert fields(error) == (expected[0], {"name": name, "value": expected[1], "low": expected[2]})
    for value in ("0", "-1", "nan", "inf", "x"):
        error = error_of(DatabaseSettings.from_environment, {"NDCG_LAB_DB_STATEMENT_TIMEOUT": value})
        assert fields(error) == ("room.setting", {"name": "NDCG_LAB_DB_STATEMENT_TIMEOUT", "value": repr(value)})
    assert DatabaseSettings.from_environment({"NDCG_LAB_DB_LOCK_TIMEOUT": "0.25"}).lock_timeout == 0.25


def test_database_settings_are_read_from_the_process_environment_by_default(monkeypatch):
    monkeypatch.setenv("NDCG_LAB_DB_POOL_SIZE", "7")
    assert DatabaseSettings.from_environment().pool_size == 7


def test_the_settings_given_to_a_classroom_reach_its_engine(tmp_path):
    settings = DatabaseSettings(pool_size=2, max_overflow=1, pool_timeout=3.5, retry_seconds=1.0)
    store = Classroom(f"sqlite:///{tmp_path / 'classroom.sqlite3'}", settings=settings)
    try:
        pool = store.database.engine.pool
        assert store.database.settings == settings and (pool.size(), pool._max_overflow, pool._timeout) == (2, 1, 3.5)
    finally:
        store.close()


def test_a_write_transaction_holds_sqlites_write_lock_from_its_start(tmp_path):
    """``BEGIN IMMEDIATE``: a writer waits for the lock before it reads, so two writers never both read, then
    find they cannot write (a deadlock SQLite can only refuse)."""
    path = tmp_path / "classroom.sqlite3"
    db = Database(f"sqlite:///{path}")
    other = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        with db.write(), pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
        with db.read():
            other.execute("BEGIN IMMEDIATE")  # a read takes no write lock
            other.execute("ROLLBACK")
    finally:
        other.close()
        db.close()


@pytest.mark.parametrize(("end", "jitter"), [(0, 0.5), (1, 1.0)])
def test_retries_back_off_doubling_up_to_a_most_with_jitter_until_the_retry_time_is_spent(monkeypatch, end, jitter):
    """Each pause is the backoff step (doubling from ``BACKOFF_FIRST`` up to ``BACKOFF_MOST``) times a random
    part between a half and one; a pause ending exactly at ``retry_seconds`` is still taken, the next is not."""
    from types import SimpleNamespace

    from ndcg_core.classroom.storage import engine

    steps = [min(engine.BACKOFF_FIRST * 2**i, engine.BACKOFF_MOST) for i in range(8)]
    expected = [step * jitter for step in steps]
    now, pauses, tries = [0.0], [], []

    def sleep(pause):
        assert len(pauses) < 20, "the retries never give up"
        pauses.append(pause)
        now[0] += pause

    def uniform(low, high):
        return (low, high)[end]  # the random part at one end of its range

    monkeypatch.setattr(engine, "time", SimpleNamespace(monotonic=lambda: now[0], sleep=sleep))
    monkeypatch.setattr(engine, "random", SimpleNamespace(uniform=uniform))
    spent = 0.0
    for pause in expected[:7]:
        spent += pause  # summed as the clock moves, so the last pause ends exactly at the retry time
    db = Database("sqlite://", settings=DatabaseSettings(retry_seconds=spent))

    def down():
        tries.append(1)
        raise lost("SELECT")

    with pytest.raises(StoreUnavailable):
        db.attempts(down)
    assert pauses == expected[:7] and len(tries) == 8
    db.close()


def test_writes_whose_commit_happened_before_the_connection_was_lost_are_not_repeated(make):
    s = make(answer_burst=1, answers_per_second=0.001)
    room, key = s.rooms.create()
    lose_replies(s)
    assert s.students.join(room.code, sid(1), "Ana") == Student(
        room.code, sid(1), 1, "Ana"
    )  # retried: the same student
    revision = s.rooms.get(room.code).revision
    left = lose_replies(s)
    first = s.rooms.open_activity(room.code, key, predict(), after=revision)
    assert left == [0] and [a.id for a in s.rooms.activity_list(room.code)] == [first.id]
    assert s.rooms.get(room.code).revision == revision + 1
    lose_replies(s)
    s.answers.submit(room.code, sid(1), first.id, [(0, "0.5")])  # retried with no token left: stored, not refused
    assert s.answers.of_student(first.id, sid(1)) == {0: 0.5}
    s.rooms.set_phase(room.code, key, "revealed")
    revision = s.rooms.get(room.code).revision
    lose_replies(s)
    second = s.rooms.run_again(room.code, key, after=revision)
    assert [(a.id, a.round) for a in s.rooms.activity_list(room.code)] == [(first.id, 1), (second.id, 2)]
    lose_replies(s)
    s.rooms.end(room.code, key)
    assert s.rooms.get(room.code).ended and s.rooms.get(room.code).revision == revision + 2
    s.rooms.end(room.code, key)  # ending an ended room: nothing, no error
    assert s.rooms.get(room.code).revision == revision + 2


def test_a_lost_connection_is_retried_then_the_store_is_unavailable_and_bad_input_is_never_retried(make, monkeypatch):
    s = make()
    room, _ = s.rooms.create()
    s.database.settings = DatabaseSettings(retry_seconds=0.5)
    tries = []
    real = Database.read

    def down(self):
        tries.append(1)
        raise lost("SELECT")

    monkeypatch.setattr(Database, "read", down)
    error = outage_of(s.rooms.get, room.code)
    assert fields(error) == ("store.unavailable", {}) and isinstance(error.__cause__, sa.exc.OperationalError)
    assert len(tries) > 1
    monkeypatch.setattr(Database, "read", real)
    tries.clear()
    monkeypatch.setattr(rules, "read_code", lambda *a: tries.append(1) or real_read_code(*a))
    assert error_of(s.rooms.get, "K0").code == "room.code_length" and len(tries) == 1
    tries.clear()
    monkeypatch.setattr(rules, "new_code", lambda: tries.append(1) or room.code)  # a taken code: IntegrityError
    with pytest.raises(RuntimeError, match="could not draw"):
        s.rooms.create()
    assert len(tries) == 20  # each code once: a constraint violation is not retried


real_read_code = rules.read_code


def test_the_store_tells_faults_apart():
    def sqlite_error(message, name):
        orig = sqlite3.OperationalError(message)
        orig.sqlite_errorname = name
        return sa.exc.OperationalError("INSERT", {}, orig)

    def postgres_error(state):
        orig = psycopg.errors.lookup(state)("")
        return sa.exc.OperationalError("SELECT", {}, orig)

    assert fault(sqlite_error("attempt to write a readonly database", "SQLITE_READONLY")) == (False, "store.read_only")
    assert fault(sqlite_error("unable to open database file", "SQLITE_CANTOPEN")) == (False, "store.read_only")
    assert fault(sqlite_error("database or disk is full", "SQLITE_FULL")) == (False, "store.full")
    assert fault(sqlite_error("database is locked", "SQLITE_BUSY")) == (True, "store.unavailable")
    assert fault(sqlite_error("database table is locked", "SQLITE_LOCKED")) == (True, "store.unavailable")
    assert fault(sa.exc.OperationalError("INSERT", {}, sqlite3.OperationalError("no name"))) == (False, None)
    # A connection the driver found dead is retried, whatever its error says otherwise.
    invalidated = sqlite_error("no such table: rooms", "SQLITE_ERROR")
    invalidated.connection_invalidated = True
    assert fault(invalidated) == (True, "store.unavailable")
    assert fault(sqlite_error("no such table: rooms", "SQLITE_ERROR")) == (False, None)
    for state in ("08006", "08001", "57P01", "57P02", "57P03", "40P01"):
        assert fault(postgres_error(state)) == (True, "store.unavailable"), state
    assert fault(postgres_error("53100")) == (False, "store.full")
    assert fault(postgres_error("25006")) == (False, "store.read_only")
    assert fault(postgres_error("57014")) == (False, "store.unavailable")  # a statement timeout: busy, not retried
    assert fault(postgres_error("42P01")) == (False, None)  # undefined table: a bug, raised as it is
    assert fault(sa.exc.IntegrityError("INSERT", {}, postgres_error("23505").orig)) == (False, None)
    assert fault(sa.exc.OperationalError("SELECT", {}, psycopg.OperationalError("connection refused"))) == (
        True,
        "store.unavailable",
    )
    assert fault(lost()) == (True, "store.unavailable")
    assert fault(sa.exc.TimeoutError()) == (False, "store.unavailable")
    assert fault(ValueError()) == (False, None)
    assert fault(sa.exc.ProgrammingError("SELECT", {}, Exception("no SQLSTATE"))) == (False, None)  # a bug


@pytest.fixture
def sqlite_url(tmp_path):
    return f"sqlite:///{tmp_path / 'classroom.sqlite3'}"


def with_pragma(url, pragma):
    """The store's engine for ``url`` with ``pragma`` run on each new connection (a read-only or full database)."""
    engine = make_engine(url)

    @sa.event.listens_for(engine, "connect")
    def run(dbapi_connection, _record):
        cursor = dbapi_connection.cursor()
        cursor.execute(pragma(cursor) if callable(pragma) else pragma)
        cursor.close()

    return engine


def snapshot(url):
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        rows = {t.name: sorted(map(tuple, conn.execute(sa.select(t)))) for t in metadata.sorted_tables}
    engine.dispose()
    return rows


def test_a_read_only_sqlite_database_shows_its_rooms_and_refuses_every_write_whole(sqlite_url, clock):
    writer = Classroom(sqlite_url, clock=clock)
    room, key = writer.rooms.create()
    writer.students.join(room.code, sid(1), "Ana")
    activity = writer.rooms.open_activity(room.code, key, predict())
    writer.close()
    before = snapshot(sqlite_url)
    s = Classroom(engine=with_pragma(sqlite_url, "PRAGMA query_only=ON"), clock=clock)  # as root, chmod stops nothing
    try:
        assert s.rooms.get(room.code).students == 1 and s.answers.results(room.code).activities
        for write in (
            lambda: s.students.join(room.code, sid(2)),
            lambda: s.answers.submit(room.code, sid(1), activity.id, [(0, "0.5")]),
            lambda: s.rooms.open_activity(room.code, key, predict()),
            lambda: s.rooms.set_phase(room.code, key, "locked"),
            s.rooms.create,
            lambda: ShortLinks(s.database).save("learn", {"a": "1"}),
        ):
            assert fields(outage_of(write)) == ("store.read_only", {})
    finally:
        s.close()
    assert snapshot(sqlite_url) == before


def test_a_full_sqlite_disk_is_a_clear_error_and_leaves_nothing_half_written(sqlite_url, clock):
    writer = Classroom(sqlite_url, clock=clock)
    room, key = writer.rooms.create()
    writer.close()
    s = Classroom(
        engine=with_pragma(
            sqlite_url, lambda c: f"PRAGMA max_page_count={c.execute('PRAGMA page_count').fetchone()[0] + 1}"
        ),
        clock=clock,
    )
    joined = []
    try:
        with pytest.raises(StoreUnavailable) as caught:
            for n in range(1000):
                joined.append(s.students.join(room.code, sid(n), "x" * 24).id)
        assert fields(caught.value) == ("store.full", {}) and 0 < len(joined) < 1000
        # The failed join's count update and its student row went together: the count is every stored student.
        assert s.rooms.get(room.code).students == len(s.students.roster(room.code)) == len(joined)
        assert s.students.get(room.code, sid(len(joined))) is None
    finally:
        s.close()


@pytest.fixture
def cluster(postgres_cluster):
    """The session's PostgreSQL, emptied, started again after the test whatever it did to the server."""
    engine = sa.create_engine(postgres_cluster.url)
    metadata.drop_all(engine)
    engine.dispose()
    yield postgres_cluster
    if not (postgres_cluster.datadir / "postmaster.pid").exists():
        postgres_cluster.start()


def class_with_an_answer(url, clock, **settings):
    s = Classroom(url, clock=clock, settings=DatabaseSettings(**settings))
    room, key = s.rooms.create()
    s.students.join(room.code, sid(1), "Ana")
    s.students.join(room.code, sid(2), "Bo")
    activity = s.rooms.open_activity(room.code, key, predict())
    s.answers.submit(room.code, sid(1), activity.id, [(0, "0.5")])  # acknowledged
    return s, room, activity


def test_postgresql_restarting_between_two_answers_loses_neither(cluster, clock):
    s, room, activity = class_with_an_answer(cluster.url, clock)
    try:
        cluster.stop()
        back = threading.Timer(1.0, cluster.start)  # the server comes back while the next answer is being sent
        back.start()
        s.answers.submit(room.code, sid(2), activity.id, [(0, "0.25")])  # retried until the server is back
        back.join()
        assert [(a.student, a.value) for a in s.answers.for_activity(activity.id)] == [(1, 0.5), (2, 0.25)]
        cluster.restart()  # a restart between two calls: the pool's dead connections are replaced
        s.answers.submit(room.code, sid(1), activity.id, [(0, "0.75")])
        assert [(a.student, a.value) for a in s.answers.for_activity(activity.id)] == [(1, 0.75), (2, 0.25)]
    finally:
        s.close()


def test_postgresql_down_longer_than_the_retries_is_unavailable_and_nothing_acknowledged_is_lost(cluster, clock):
    s, room, activity = class_with_an_answer(cluster.url, clock, retry_seconds=1.0, connect_timeout=2)
    try:
        cluster.stop()
        error = outage_of(s.answers.submit, room.code, sid(2), activity.id, [(0, "0.25")])
        assert fields(error) == ("store.unavailable", {}) and isinstance(error.__cause__, sa.exc.DBAPIError)
        assert fields(outage_of(s.rooms.get, room.code)) == ("store.unavailable", {})
        cluster.start()
        s.answers.submit(room.code, sid(2), activity.id, [(0, "0.25")])  # sent again by the student: stored
        assert [(a.student, a.value) for a in s.answers.for_activity(activity.id)] == [(1, 0.5), (2, 0.25)]
    finally:
        s.close()


def test_a_classroom_without_retries_shares_the_engine_and_tries_each_call_once(tmp_path, monkeypatch):
    settings = DatabaseSettings(pool_size=2, retry_seconds=0.3)
    store = Classroom(f"sqlite:///{tmp_path / 'classroom.sqlite3'}", limits=Limits(max_students=3), settings=settings)
    room, _ = store.rooms.create()
    once = store.without_retries()
    try:
        assert once.database.engine is store.database.engine and once.limits == store.limits
        assert once.database.settings == replace(settings, retry_seconds=0.0) and store.database.settings == settings
        assert once.rooms.get(room.code).code == room.code  # a call that succeeds is as before
        tries = []

        def down(self):
            tries.append(1)
            raise lost("SELECT")

        monkeypatch.setattr(Database, "read", down)
        assert fields(outage_of(once.rooms.get, room.code)) == ("store.unavailable", {}) and len(tries) == 1
        tries.clear()
        outage_of(store.rooms.get, room.code)
        assert len(tries) > 1  # the classroom it came from still retries
    finally:
        store.close()


def test_a_burst_of_requests_after_another_opens_no_connection(url):
    # A class's load comes and goes with each activity; a connection opened in one burst and closed when returned
    # would be opened again in the next (on PostgreSQL a new server process each time).
    engine = make_engine(url)
    opened = []
    sa.event.listen(engine, "connect", lambda *_: opened.append(1))
    try:
        for _ in range(3):
            held = [engine.connect() for _ in range(12)]
            for conn in held:
                conn.execute(sa.text("SELECT 1"))
            for conn in held:
                conn.close()
        assert len(opened) == 12
    finally:
        engine.dispose()


def test_a_class_answering_at_once_waits_for_the_pools_connections(make):
    # More answers at once than the pool holds: each waits for a connection, and every one is stored.
    store = make(max_students=60)
    room, key = store.rooms.create()
    ids = [store.students.join(room.code, student_id()).id for _ in range(45)]
    activity = store.rooms.open_activity(room.code, key, predict())
    opened = []
    sa.event.listen(store.engine, "connect", lambda *_: opened.append(1))
    start = threading.Barrier(len(ids))
    failed = []

    def answer(me):
        start.wait()
        try:
            for value in ("0.1", "0.2", "0.3"):
                store.answers.submit(room.code, me, activity.id, [(0, value)])
        except Exception as err:  # noqa: BLE001 - counted below, a thread's error is lost otherwise
            failed.append(err)

    threads = [threading.Thread(target=answer, args=(me,)) for me in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == [] and [a.value for a in store.answers.for_activity(activity.id)] == [0.3] * len(ids)
    assert len(opened) <= DatabaseSettings().pool_size
