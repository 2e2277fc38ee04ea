"""``deploy.postgres.restart_in_place``: the load benchmark's database fault restarts the cluster in place, with its
options and data, and waits until it accepts connections again."""

import shutil
import tempfile
from pathlib import Path

import pytest
import sqlalchemy as sa

from deploy.postgres import postgres_bin, restart_in_place, start_cluster, stop_cluster


def test_a_restarted_cluster_answers_on_the_same_address_with_its_data_and_a_new_server_process():
    bin_dir = postgres_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    base = Path(tempfile.mkdtemp(prefix="ndcg-lab-pg-restart-"))
    try:
        cluster = start_cluster(base, bin_dir)
        engine = sa.create_engine(cluster.url, poolclass=sa.pool.NullPool)
        with engine.begin() as conn:
            conn.execute(sa.text("CREATE TABLE kept (n int)"))
            conn.execute(sa.text("INSERT INTO kept VALUES (7)"))
            before = conn.execute(sa.text("SELECT pg_backend_pid(), pg_postmaster_start_time()")).one()
        restart_in_place(cluster.datadir, bin_dir)
        with engine.connect() as conn:  # at once: the restart returns once the server accepts connections
            after = conn.execute(sa.text("SELECT pg_postmaster_start_time()")).scalar_one()
            assert conn.execute(sa.text("SELECT n FROM kept")).scalar_one() == 7
        assert after > before[1]
        engine.dispose()
    finally:
        stop_cluster(base / "data", bin_dir)
        shutil.rmtree(base, ignore_errors=True)
