"""A throwaway PostgreSQL cluster on a free loopback port in a folder of its own, for the launcher and the tests."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from deploy import free_port


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's ``bin`` folder (Debian's layout), or None when there is none."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


@dataclass
class Cluster:
    """A running cluster: its SQLAlchemy URL and data folder; :meth:`stop` ends it (the folder stays),
    :meth:`start` starts it again on the same port, :meth:`restart` does both (for fault tests)."""

    url: str
    datadir: Path
    bin_dir: Path
    options: str = ""  # the server's command-line options (port, socket folder, ...), for starting it again

    def stop(self) -> None:
        """Stop the server at once (the folder stays)."""
        stop_cluster(self.datadir, self.bin_dir)

    def start(self) -> None:
        """Start the stopped server again with its options, and wait until it takes connections."""
        log = str(self.datadir.parent / "log")
        subprocess.run(
            [*_as_postgres(), str(self.bin_dir / "pg_ctl"), "-D", str(self.datadir), "-w", "-l", log]
            + ["-o", self.options, "start"],
            check=True,
            capture_output=True,
        )

    def restart(self) -> None:
        """Restart the server as a crash would (``immediate``: every connection is cut), and wait for it."""
        restart_cluster(self)


def restart_cluster(cluster: Cluster) -> None:
    """Stop ``cluster``'s server at once and start it again on the same port and folder."""
    cluster.stop()
    cluster.start()


def stop_cluster(datadir: Path, bin_dir: Path) -> None:
    """Stop the server of ``datadir`` at once, if one runs: nothing in a throwaway cluster needs a clean shutdown."""
    if (datadir / "postmaster.pid").exists():
        subprocess.run(
            [*_as_postgres(), str(bin_dir / "pg_ctl"), "-D", str(datadir), "-m", "immediate", "stop"],
            capture_output=True,
        )


def _as_postgres() -> list[str]:
    # PostgreSQL refuses to run as root: as root, the cluster belongs to Debian's ``postgres`` user.
    return ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []


def start_cluster(base: Path, bin_dir: Path) -> Cluster:
    """Create and start a cluster in ``base`` (an empty folder, which this makes the server's own).

    Trust authentication on 127.0.0.1 only and no fsync: it is for one machine's tests and demonstrations.
    Raises ``subprocess.CalledProcessError`` when ``initdb`` or ``pg_ctl`` fails.
    """
    if _as_postgres():
        shutil.chown(base, "postgres", "postgres")
    os.chmod(base, 0o700)
    data, port = base / "data", free_port()

    def run(*args: str) -> None:
        subprocess.run([*_as_postgres(), *args], check=True, capture_output=True, text=True)

    run(str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
    options = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
    run(str(bin_dir / "pg_ctl"), "-D", str(data), "-w", "-l", str(base / "log"), "-o", options, "start")
    return Cluster(f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", data, bin_dir, options)


def restart_in_place(datadir: Path, bin_dir: Path) -> None:
    """Restart the server of ``datadir`` with its options (fast: open connections are cut, as in a database
    failure) and wait until it accepts connections again. Raises ``subprocess.CalledProcessError`` on failure."""
    # -l: the server's output must not go to this call's pipe, which would then never end.
    log = str(datadir.parent / "log")
    subprocess.run(
        [*_as_postgres(), str(bin_dir / "pg_ctl"), "-D", str(datadir), "-l", log, "-m", "fast", "-w", "restart"],
        check=True,
        capture_output=True,
        text=True,
    )
