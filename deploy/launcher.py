"""Start the app as N Streamlit processes behind nginx on this machine, in the foreground, and stop it all.

``python -m deploy up --replicas N --port P [--listen ADDRESS]``: a throwaway PostgreSQL cluster (unless
``NDCG_LAB_DATABASE_URL`` is set), N replicas of ``serve.py`` on free loopback ports sharing that database and one
``server.cookieSecret``, and nginx on ADDRESS:P (every interface, ``0.0.0.0``, by default, so that phones on the
room's network reach it; ``--listen 127.0.0.1`` keeps it on this machine) with cookie affinity, websockets and
failover (``deploy/nginx.conf.template``). It prints one line per part, then ``ready http://127.0.0.1:P``. A replica
that exits is started again on its port (``deploy/supervisor.py``: at once, then after a growing pause, and given up
after it failed again and again soon after starting, in one line on stderr); the replicas read how many of them serve
from a file the launcher keeps (``NDCG_LAB_PROCESSES_FILE``), which the teacher's control page tells. SIGINT or
SIGTERM stops every process it started (by process group, so their children too) and removes its temporary folder.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import ipaddress
import json
import os
import secrets
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import FrameType
from typing import NoReturn

from deploy import HEALTH, answers, app_command, free_port
from deploy.postgres import postgres_bin, start_cluster, stop_cluster
from deploy.supervisor import Supervisor, with_group
from ndcg_core.classroom.joining import FRONT_ADDRESS_VARIABLE
from ndcg_core.classroom.processes import PROCESSES_VARIABLE, Processes, write_processes
from ndcg_lab import app_dir

ROOT = app_dir()  # serve.py and .streamlit/config.toml: the checkout's top level, or ndcg_lab/app/ when installed
TEMPLATE = Path(__file__).resolve().parent / "nginx.conf.template"
DATABASE_ENV = "NDCG_LAB_DATABASE_URL"
NGINX = "/usr/sbin/nginx"
START_TIMEOUT = 90.0  # seconds: N Streamlit processes importing at once on two cores
EVERY_INTERFACE = "0.0.0.0"
UPLOAD_ENV = "NDCG_LAB_MAX_UPLOAD_MB"  # megabytes an upload may have, through nginx and in the app alike
# The addresses whose X-Forwarded-For a replica believes: nginx's, on this machine. The replicas listen on 127.0.0.1
# only, so nothing else reaches them; the app takes the client's address from the header only from these.
TRUSTED_PROXIES_ENV = "NDCG_LAB_TRUSTED_PROXIES"
TRUSTED_PROXIES = "127.0.0.1"
SUPERVISE_SECONDS = 0.25  # how often the supervisor looks at the replicas: a killed one is noticed this soon


class NginxTemplate(string.Template):
    """``string.Template`` with ``@{name}`` placeholders, since nginx's own variables are written ``$name``."""

    delimiter = "@"


def max_upload_mb(config: Path = ROOT / ".streamlit" / "config.toml") -> int:
    """The app's ``server.maxUploadSize`` (megabytes; ``NDCG_LAB_MAX_UPLOAD_MB`` when set, as ``app_command`` passes
    it on), so that nginx lets the same uploads through."""
    upload_mb = os.environ.get("NDCG_LAB_MAX_UPLOAD_MB", "")
    if upload_mb.isdigit() and int(upload_mb) >= 1:
        return int(upload_mb)
    try:
        size = tomllib.loads(config.read_text(encoding="utf-8")).get("server", {}).get("maxUploadSize", 200)
    except (OSError, tomllib.TOMLDecodeError):
        size = 200  # Streamlit's default
    return int(size)


def upload_limit_mb(environ: Mapping[str, str], config: Path = ROOT / ".streamlit" / "config.toml") -> int:
    """The largest upload, in megabytes: ``NDCG_LAB_MAX_UPLOAD_MB`` when set, else the app's configuration's
    (:func:`max_upload_mb`). ValueError when the variable is not a whole number from 1 to 10,000."""
    text = environ.get(UPLOAD_ENV, "").strip()
    if not text:
        return max_upload_mb(config)
    if not text.isdigit() or not 1 <= int(text) <= 10_000:
        raise ValueError(f"{UPLOAD_ENV} must be a whole number of megabytes from 1 to 10000, not {text!r}")
    return int(text)


def render_nginx_conf(
    run_dir: Path, port: int, replica_ports: Sequence[int], upload_mb: int, listen: str = EVERY_INTERFACE
) -> str:
    """nginx's configuration for replicas 1..N on ``replica_ports`` (127.0.0.1), listening on ``listen``:``port``
    (an IP address; IPv6 in brackets, as nginx writes it)."""
    names = [str(i) for i in range(1, len(replica_ports) + 1)]
    upstreams = []
    for name, own in zip(names, replica_ports, strict=True):
        # A replica that refused a connection is skipped for 3 s, then tried again: a refusal costs nothing, and
        # a replica started again after it exited gets its clients back within seconds of answering.
        servers = [f"        server 127.0.0.1:{own} max_fails=1 fail_timeout=3s;"]
        servers += [f"        server 127.0.0.1:{other} backup;" for other in replica_ports if other != own]
        # Connections kept open to the app processes (a phone's every request was a new one): shorter-lived
        # than the app's own keep-alive (uvicorn's 5 s), so nginx never sends on one the app has just closed.
        servers += ["        keepalive 64;", "        keepalive_timeout 4s;"]
        upstreams.append(f"    upstream replica_{name} {{\n" + "\n".join(servers) + "\n    }")
    # split_clients takes percentages with at most two decimals; the last replica takes the rest ("*").
    share = int(10000 / len(names)) / 100
    split = [f'        {share:.2f}% "replica_{name}";' for name in names[:-1]] + [f'        * "replica_{names[-1]}";']
    return NginxTemplate(TEMPLATE.read_text(encoding="utf-8")).substitute(
        run_dir=str(run_dir),
        listen=_nginx_host(listen),
        port=port,
        max_upload_mb=upload_mb,
        upstreams="\n".join(upstreams),
        split="\n".join(split),
        known_replicas="\n".join(f'        "{name}" "replica_{name}";' for name in names),
        # The last address tried is the one that answered: "127.0.0.1:a, 127.0.0.1:b" after a failover.
        answered="\n".join(f'        "~:{p}$" "{name}";' for name, p in zip(names, replica_ports, strict=True)),
    )


def listen_address(text: str) -> str:
    """``--listen``'s value as an IP address (``0.0.0.0``, ``127.0.0.1``, ``::``, ``::1``, ...), or ValueError."""
    return str(ipaddress.ip_address(text.strip().strip("[]")))


def _nginx_host(address: str) -> str:
    return f"[{address}]" if ":" in address else address


def port_is_free(port: int, address: str = "127.0.0.1") -> bool:
    """Whether this process could listen on ``address``:``port`` now."""
    with socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET) as s:
        try:
            s.bind((address, port))
        except OSError:
            return False
        return True


class Stop(Exception):
    """SIGINT or SIGTERM arrived: unwind to the clean-up."""


class StartError(Exception):
    """A part did not start; the message says which."""


class Deployment:
    """The processes and folder of one ``up``: started by :meth:`start`, all ended by :meth:`stop`."""

    def __init__(
        self,
        replicas: int,
        port: int,
        env: Mapping[str, str] | None = None,
        listen: str = EVERY_INTERFACE,
        spare: bool = True,
    ) -> None:
        """``env``: variables for the replicas besides this process's own (e.g. ``NDCG_LAB_PUBLIC_URL``);
        ``listen``: the address nginx listens on; ``spare``: keep a spare process (``deploy/spare.py``) ready to
        take a replica's place when it exits."""
        self.replicas, self.port, self.listen, self.keep_spare = replicas, port, listen, spare
        self.env = dict(env or {})
        self.run_dir = Path(tempfile.mkdtemp(prefix="ndcg-lab-deploy-"))
        # Traversable, not listable: nginx's workers (not root when the master is) reach their temp paths in it,
        # and the postgres user its cluster.
        os.chmod(self.run_dir, 0o711)
        # The cluster's data folder and bin folder, known before it starts: a signal may come while it starts.
        self.postgres: tuple[Path, Path] | None = None
        self.apps: list[subprocess.Popen[bytes]] = []
        self.ports: list[int] = []
        self.nginx: subprocess.Popen[bytes] | None = None
        # What the replicas read to know how many of them serve (ndcg_core.classroom.processes).
        self.processes_file = self.run_dir / "processes.json"
        self.supervisor: Supervisor | None = None
        self.command: Callable[[int], list[str]] = app_command  # how a replica is started on a port
        self.spare: subprocess.Popen[bytes] | None = None
        self._spares = 0  # spares started so far, each with its own log and "warm" file
        self._stopping = threading.Event()
        self._supervising: threading.Thread | None = None

    def _spawn(
        self, command: list[str], log_name: str, env: dict[str, str] | None = None, append: bool = False
    ) -> subprocess.Popen[bytes]:
        # A replica started again writes after what it said before it exited: the log keeps why it did.
        with open(self.run_dir / log_name, "ab" if append else "wb") as log:
            # A session of its own: the process group is stopped as a whole, and a terminal's Ctrl-C reaches
            # only the launcher, which then stops the parts in order.
            return subprocess.Popen(
                command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )

    def _wait(self, what: str, ready: Callable[[], bool], process: subprocess.Popen[bytes] | None) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while not ready():
            if process is not None and process.poll() is not None:
                raise StartError(f"{what} exited with code {process.returncode} while starting")
            if time.monotonic() > deadline:
                raise StartError(f"{what} did not answer within {START_TIMEOUT:.0f} s")
            time.sleep(0.3)  # polling a server that is starting: there is no event to wait on

    def start(self, say: Callable[[str], None], warn: Callable[[str], None] | None = None) -> None:
        """Start the database, the replicas and nginx, saying one line for each, then ``ready <url>``; then keep
        the replicas running (a thread of its own, until :meth:`stop`), telling ``warn`` (else ``say``) of each
        exit, restart and give-up."""
        try:
            upload_mb = upload_limit_mb({**os.environ, **self.env})
        except ValueError as error:
            raise StartError(str(error)) from None
        url = os.environ.get(DATABASE_ENV)
        if url:
            say(f"database {_without_password(url)} (from {DATABASE_ENV})")
        else:
            bin_dir = postgres_bin()
            if bin_dir is None:
                raise StartError(f"PostgreSQL is not installed (apt-get install postgresql), nor is {DATABASE_ENV} set")
            base = self.run_dir / "postgres"
            base.mkdir()
            self.postgres = (base / "data", bin_dir)
            try:
                cluster = start_cluster(base, bin_dir)
            except subprocess.CalledProcessError as error:
                raise StartError(f"PostgreSQL did not start: {(error.stderr or '').strip()}") from None
            url = cluster.url
            pid = (cluster.datadir / "postmaster.pid").read_text().split()[0]
            say(f"database {url} datadir {cluster.datadir} pid {pid}")

        # One secret for all: Streamlit signs cookies and derives the XSRF token for uploads from it, and a client
        # may be served by another replica after a failover. Given in the environment, not on the command line,
        # where any local user could read it in ps.
        env = {**os.environ, **self.env, DATABASE_ENV: url, "STREAMLIT_SERVER_COOKIE_SECRET": secrets.token_hex(32)}
        # The replicas listen on 127.0.0.1; the Classroom page judges what phones reach by nginx's address instead.
        env[FRONT_ADDRESS_VARIABLE] = self.listen
        env[TRUSTED_PROXIES_ENV] = TRUSTED_PROXIES
        env[PROCESSES_VARIABLE] = str(self.processes_file)
        # The app refuses what nginx would refuse, and nothing nginx lets through.
        env[UPLOAD_ENV] = env["STREAMLIT_SERVER_MAX_UPLOAD_SIZE"] = str(upload_mb)
        self.ports = ports = [free_port() for _ in range(self.replicas)]
        for number, port in enumerate(ports, start=1):
            self.apps.append(self._spawn(self.command(port), f"replica-{number}.log", env))
        for number, (app, port) in enumerate(zip(self.apps, ports, strict=True), start=1):
            self._wait(f"replica {number}", functools.partial(answers, f"http://127.0.0.1:{port}{HEALTH}"), app)
            say(f"replica {number} pid {app.pid} port {port}")

        conf = self.run_dir / "nginx.conf"
        conf.write_text(render_nginx_conf(self.run_dir, self.port, ports, upload_mb, self.listen), encoding="utf-8")
        # -e: the error log before the configuration is read, which otherwise is /var/log/nginx (root's).
        nginx = [NGINX, "-c", str(conf), "-p", str(self.run_dir), "-e", str(self.run_dir / "nginx-error.log")]
        self.nginx = self._spawn(nginx, "nginx.out")
        public = f"http://127.0.0.1:{self.port}"
        self._wait("nginx", functools.partial(answers, public + HEALTH), self.nginx)
        say(f"nginx pid {self.nginx.pid} port {self.port} listen {self.listen}")
        self._supervise(env, warn or say)
        say(f"ready {public}")

    def _supervise(self, env: dict[str, str], warn: Callable[[str], None]) -> None:
        """Keep the replicas running from a thread of its own (nginx sends a dead one's clients to the others
        meanwhile), until :meth:`stop`."""

        def spawn(number: int) -> subprocess.Popen[bytes]:
            command = self.command(self.ports[number - 1])
            process = self._hand_over(command, number)
            if process is None:
                process = self._spawn(command, f"replica-{number}.log", env, append=True)
            self.apps[number - 1] = process  # stop() ends the process that runs now
            return process

        def healthy(number: int) -> bool:
            return answers(f"http://127.0.0.1:{self.ports[number - 1]}{HEALTH}")

        def publish(processes: Processes) -> None:
            write_processes(self.processes_file, processes)

        supervisor = Supervisor(self.apps, time.monotonic(), spawn, healthy, warn, publish)
        self.supervisor = supervisor

        def run() -> None:
            while not self._stopping.wait(SUPERVISE_SECONDS):
                try:
                    supervisor.step(time.monotonic())
                    self._keep_a_spare(env, supervisor, warn)
                except OSError as error:  # a replica could not be started, or the status not written: try again
                    warn(f"keeping the replicas running: {error}")

        self._supervising = threading.Thread(target=run, name="replica supervisor", daemon=True)
        self._supervising.start()

    def _keep_a_spare(self, env: dict[str, str], supervisor: Supervisor, warn: Callable[[str], None]) -> None:
        """Start a spare when there is none, once no replica is starting (a spare's imports would slow its start)."""
        if not self.keep_spare:
            return
        if self.spare is not None and self.spare.poll() is not None:
            # It ended before it was needed (its log says why): replicas are started afresh from now on.
            warn(f"the spare process (pid {self.spare.pid}) exited with code {self.spare.returncode}; none is kept now")
            _close_input(self.spare)
            self.spare, self.keep_spare = None, False
            return
        counted = supervisor.count()
        if self.spare is None and counted.alive + counted.failed == counted.started:
            self._spares += 1
            command = [sys.executable, "-m", "deploy.spare", str(self._warm_file())]
            with open(self.run_dir / f"spare-{self._spares}.log", "wb") as log:
                self.spare = subprocess.Popen(
                    command, cwd=ROOT, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT, env=env,
                    start_new_session=True,
                )  # fmt: skip

    def _warm_file(self) -> Path:
        return self.run_dir / f"spare-{self._spares}.warm"

    def spare_is_warm(self) -> bool:
        """Whether a spare waits with its imports done (a replica that exits now is back soonest)."""
        return self.spare is not None and self.spare.poll() is None and self._warm_file().exists()

    def _hand_over(self, command: list[str], number: int) -> subprocess.Popen[bytes] | None:
        """The spare, told to become replica ``number`` by ``command`` (Streamlit's arguments), or None when
        there is no spare alive or ``command`` is not one it runs (``python -m streamlit ...``)."""
        spare = self.spare
        if spare is None or spare.stdin is None or spare.poll() is not None:
            return None
        if command[:3] != [sys.executable, "-m", "streamlit"]:
            return None
        order = {"args": command[3:], "log": str(self.run_dir / f"replica-{number}.log")}
        self.spare = None
        try:
            spare.stdin.write(json.dumps(order).encode() + b"\n")
            spare.stdin.close()
        except OSError:  # it ended meanwhile: a fresh start instead
            _close_input(spare)
            with_group(spare.pid, signal.SIGKILL)
            return None
        return spare

    def watch(self, warn: Callable[[str], None]) -> int:
        """Stay in the foreground until a signal (raises :class:`Stop`) or nginx's end (returns 1); the replicas
        are kept running meanwhile (:meth:`start`)."""
        while True:
            assert self.nginx is not None
            if self.nginx.poll() is not None:
                warn(f"nginx exited with code {self.nginx.returncode}; stopping")
                return 1
            time.sleep(0.5)

    def stop(self) -> None:
        """End nginx, the replicas and the cluster (each process group: SIGTERM, then SIGKILL after 10 s), and
        remove the temporary folder."""
        # No replica is started again from now on.
        self._stopping.set()
        if self._supervising is not None:
            self._supervising.join(timeout=30)
        processes = [p for p in (self.nginx, *self.apps, self.spare) if p is not None]
        for process in processes:
            _close_input(process)
            with_group(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with_group(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
            # The group may outlive its leader (a child Streamlit started): end what is left of it.
            with_group(process.pid, signal.SIGKILL)
        if self.postgres is not None:
            stop_cluster(*self.postgres)
        shutil.rmtree(self.run_dir, ignore_errors=True)


def _close_input(process: subprocess.Popen[bytes]) -> None:
    if process.stdin is not None:
        with contextlib.suppress(OSError):  # a pipe whose reader is gone
            process.stdin.close()


def _without_password(url: str) -> str:
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "(unparsable URL)"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # One clear line, not argparse's usage block: a launcher's misuse is read in a terminal or a log.
        command = self.prog.removesuffix(" up")
        self.exit(2, f"deploy: {message} ({command} up --replicas N --port P [--listen ADDRESS])\n")


def _parser(prog: str = "python -m deploy") -> argparse.ArgumentParser:
    parser = _Parser(prog=prog, description=__doc__.split("\n\n")[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    up = commands.add_parser("up", help="start the database, N replicas and nginx; stop them on SIGINT/SIGTERM")
    up.add_argument("--replicas", type=int, default=2, help="number of app processes (default 2)")
    up.add_argument("--port", type=int, default=8080, help="nginx's port (default 8080)")
    up.add_argument(
        "--listen",
        default=EVERY_INTERFACE,
        metavar="ADDRESS",
        help="the address nginx listens on (default 0.0.0.0, every interface, so phones reach it; "
        "127.0.0.1 keeps it on this machine)",
    )
    return parser


def main(argv: Sequence[str], prog: str = "python -m deploy") -> int:
    """Run ``python -m deploy`` (``prog``, as help and errors name it); returns the exit code (2 for bad arguments)."""
    args = _parser(prog).parse_args(argv)
    if args.replicas < 1:
        return _usage_error(f"--replicas must be at least 1, not {args.replicas}")
    if not 1 <= args.port <= 65535:
        return _usage_error(f"--port must be between 1 and 65535, not {args.port}")
    try:
        listen = listen_address(args.listen)
    except ValueError:
        return _usage_error(f"--listen must be an IP address such as 0.0.0.0 or 127.0.0.1, not {args.listen!r}")
    if not port_is_free(args.port, listen):
        return _usage_error(f"port {args.port} on {listen} is in use")

    def on_signal(signum: int, frame: FrameType | None) -> None:
        raise Stop

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    deployment = Deployment(args.replicas, args.port, listen=listen)
    try:
        deployment.start(lambda line: print(line, flush=True), _warn)
        return deployment.watch(_warn)
    except StartError as error:
        print(f"deploy: {error}", file=sys.stderr, flush=True)
        return 1
    except Stop:
        return 0
    finally:
        # A second signal during the clean-up must not leave processes behind.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        deployment.stop()


def _warn(line: str) -> None:
    print(f"deploy: {line}", file=sys.stderr, flush=True)


def _usage_error(message: str) -> int:
    print(f"deploy: {message}", file=sys.stderr)
    return 2
