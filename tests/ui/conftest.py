"""Fixtures the page tests share: the classroom's database, SQLite or PostgreSQL; one real ``serve.py``."""

import pytest
from serve_support import LIMITED, started

from ndcg_core.classroom.storage import database_url
from support import empty_database, free_port, start_app, stop_app


def forget_stores():
    """Close the stores this process's pages made and empty ``ui.database``'s caches (a new database each test)."""
    from ui import database

    for cached in (
        database._quick_classroom_for,
        database._classroom_for,
        database._links_for,
        database._service_for,
        database._runtime_for,
        database._revisions,
    ):
        cached.clear()


# The pages' tests run on SQLite, the default; the storage, notices and deployment tests run on both databases, and
# the page tests whose behaviour the database changes (how a live part hears of a change, a room's identity) ask for
# both with ``classroom_db_both``.
DATABASES = ["sqlite", "postgresql"]


@pytest.fixture(params=DATABASES[:1])
def classroom_db(request, tmp_path, monkeypatch):
    """The database the Classroom page uses for this test, empty: a SQLite file in a temporary
    ``NDCG_LAB_DATA_DIR``; its URL."""
    yield from _classroom_db(request, tmp_path, monkeypatch)


@pytest.fixture(params=DATABASES)
def classroom_db_both(request, tmp_path, monkeypatch):
    """``classroom_db`` on each database in turn: a SQLite file, then the session's PostgreSQL through
    ``NDCG_LAB_DATABASE_URL``."""
    yield from _classroom_db(request, tmp_path, monkeypatch)


def _classroom_db(request, tmp_path, monkeypatch):
    monkeypatch.setenv("NDCG_LAB_DATA_DIR", str(tmp_path))
    if request.param == "sqlite":
        monkeypatch.delenv("NDCG_LAB_DATABASE_URL", raising=False)
    else:
        url = request.getfixturevalue("postgres_url")
        empty_database(url)
        monkeypatch.setenv("NDCG_LAB_DATABASE_URL", url)
    forget_stores()
    yield database_url()
    if request.param == "postgresql":
        from ui import database

        database.db().close()
    forget_stores()


@pytest.fixture(scope="session")
def serve_py(tmp_path_factory):
    """One real ``serve.py`` on a SQLite file of its own, with the default settings, for the tests of the phones'
    routes as a client meets them: each module makes its own room on it (``serve_support.room_on``)."""
    with started(tmp_path_factory.mktemp("serve-py")) as server:
        yield server


@pytest.fixture(scope="session")
def serve_py_limited(tmp_path_factory):
    """One real ``serve.py`` with ``serve_support.LIMITED``'s small limits, for the tests of those limits (the wrong
    join codes an address may send, the streams a student or an address may hold): each module makes its own room on
    it. Apart from ``serve_py``, whose tests join from 127.0.0.1, which the wrong codes sent here would slow."""
    env = {name: str(value) for name, value in LIMITED.items()}
    with started(tmp_path_factory.mktemp("serve-py-limited"), **env) as server:
        yield server


@pytest.fixture(scope="session")
def postgres_of_its_own(postgres_cluster):
    """The URL of a database of its own in the session's PostgreSQL cluster, made once: a server kept for the
    session works on it while other tests empty the cluster's own database (``empty_database``)."""
    import sqlalchemy as sa

    url = sa.engine.make_url(postgres_cluster.url)
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text("CREATE DATABASE served_apart"))
    engine.dispose()
    return url.set(database="served_apart").render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def serve_py_on_postgres(postgres_of_its_own, tmp_path_factory):
    """One real ``serve.py`` on PostgreSQL (``postgres_of_its_own``) for the tests of the streams it sends when
    another process changes a room (``NOTIFY``): ``test_phone_card_stream``'s and ``test_room_watch_stream``'s, each
    test on a room of its own. (its port, its process)."""
    folder = tmp_path_factory.mktemp("serve-py-postgres")
    port = free_port()
    with open(folder / "serve.log", "w") as log:
        process = start_app(port, log, {"NDCG_LAB_DATABASE_URL": postgres_of_its_own})
    yield port, process
    stop_app(process)
