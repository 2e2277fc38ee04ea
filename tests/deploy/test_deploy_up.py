"""``python -m deploy up``: nginx in front of two replicas, through plain HTTP and a websocket handshake; with
``--listen 127.0.0.1``, nginx on this machine only (another loopback address, 127.0.0.2, which a phone on the network
stands for, is refused) and the replicas told nginx's address (``NDCG_LAB_FRONT_ADDRESS``, which the control page's
warning is drawn from: ``tests/ui/test_a_teacher_behind_a_local_nginx_is_told_the_launchers_option.py``). By default
nginx listens on every interface: ``tests/browser/test_browser_replica_killed_mid_class.py`` checks 127.0.0.2 answers
there and the join link names nginx's port."""

import http.server
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest
import websockets

from deploy.launcher import NginxTemplate, render_nginx_conf
from ndcg_core.classroom.joining import FRONT_ADDRESS_VARIABLE
from support import ROOT, answers_on, free_port, run_coroutine

pytestmark = pytest.mark.skipif(
    shutil.which("nginx", path="/usr/sbin:/usr/bin") is None, reason="nginx is not installed (apt-get install nginx)"
)
NGINX = shutil.which("nginx", path="/usr/sbin:/usr/bin") or "nginx"


def _env():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    env.pop("NDCG_LAB_DATABASE_URL", None)
    return env


@pytest.fixture
def deployment():
    """A running ``up --replicas 2 --listen 127.0.0.1``: its process, the public URL, and what it printed before
    ``ready``."""
    port = free_port()
    launcher = subprocess.Popen(
        [sys.executable, "-m", "deploy", "up", "--replicas", "2", "--port", str(port), "--listen", "127.0.0.1"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    lines = []
    deadline = time.monotonic() + 90
    try:
        for line in launcher.stdout:
            lines.append(line.strip())
            if line.startswith("ready ") or time.monotonic() > deadline:
                break
        assert lines and lines[-1] == f"ready http://127.0.0.1:{port}", (lines, launcher.stderr)
        yield launcher, f"http://127.0.0.1:{port}", lines
    finally:
        if launcher.poll() is None:
            launcher.send_signal(signal.SIGTERM)
            launcher.wait(timeout=60)
        launcher.stdout.close()
        launcher.stderr.close()


def _printed(lines):
    """{"database": pid, "1": pid, "2": pid, "nginx": pid} and the temporary folder, from the launcher's lines."""
    pids = {}
    for line in lines:
        if found := re.match(r"replica (\d+) pid (\d+) port \d+$", line):
            pids[found[1]] = int(found[2])
        elif found := re.match(r"nginx pid (\d+) port \d+ listen \S+$", line):
            pids["nginx"] = int(found[1])
        elif found := re.match(r"database postgresql\+psycopg://\S+ datadir (\S+) pid (\d+)$", line):
            pids["database"] = int(found[2])
            run_dir = Path(found[1]).parent.parent
    return pids, run_dir


def _get(url, cookie=None):
    request = urllib.request.Request(url, headers={"Cookie": f"ndcg_replica={cookie}"} if cookie else {})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return reply.status, reply.headers


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by its parent) is gone for our purpose.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0] != "Z"


def _environment(pid):
    with open(f"/proc/{pid}/environ", "rb") as raw:
        return dict(item.split("=", 1) for item in raw.read().decode().split("\0") if "=" in item)


def test_on_this_machine_only_with_affinity_spread_websocket_failover_and_stop(deployment):
    launcher, url, lines = deployment
    pids, run_dir = _printed(lines)
    assert set(pids) == {"database", "1", "2", "nginx"}, lines
    assert run_dir.is_dir()

    # --listen 127.0.0.1: nginx on this machine only, and the replicas told so (they listen on 127.0.0.1 always).
    port = int(url.rsplit(":", 1)[1])
    assert any(line.endswith(f"port {port} listen 127.0.0.1") for line in lines), lines
    assert answers_on("127.0.0.1", port) and not answers_on("127.0.0.2", port)
    assert [_environment(pids[n])[FRONT_ADDRESS_VARIABLE] for n in ("1", "2")] == ["127.0.0.1", "127.0.0.1"]

    status, headers = _get(url + "/")
    assert status == 200
    replica = headers["X-Replica"]
    assert replica in {"1", "2"}
    assert headers["Set-Cookie"].startswith(f"ndcg_replica={replica};")

    # With the cookie: the same replica every time, and no new cookie.
    for _ in range(5):
        status, headers = _get(url + "/", cookie=replica)
        assert (status, headers["X-Replica"], headers["Set-Cookie"]) == (200, replica, None)

    # Without it: nginx spreads new clients over both.
    assert {_get(url + "/_stcore/health")[1]["X-Replica"] for _ in range(20)} == {"1", "2"}

    async def handshake():
        host = url.removeprefix("http://")
        async with websockets.connect(
            f"ws://{host}/_stcore/stream",
            origin=url,
            subprotocols=["streamlit"],
            additional_headers={"Cookie": f"ndcg_replica={replica}"},
        ) as socket_:
            return socket_.response.status_code, socket_.response.headers["X-Replica"]

    assert run_coroutine(handshake()) == (101, replica)

    # The replica the cookie names goes away: the next request is answered by the other, which the cookie now names.
    os.kill(pids[replica], signal.SIGKILL)
    other = "2" if replica == "1" else "1"
    status, headers = _get(url + "/", cookie=replica)
    assert (status, headers["X-Replica"]) == (200, other)
    assert headers["Set-Cookie"].startswith(f"ndcg_replica={other};")

    launcher.send_signal(signal.SIGTERM)
    assert launcher.wait(timeout=60) == 0
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in pids.values()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [name for name, pid in pids.items() if _alive(pid)] == []
    assert not run_dir.exists()


def test_bad_arguments_give_one_line_and_exit_2():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for args, says in [
            (["--replicas", "0", "--port", str(free_port())], "--replicas must be at least 1"),
            (["--replicas", "x"], "invalid int value"),
            (["--replicas", "2", "--port", str(port), "--listen", "127.0.0.1"], f"port {port} on 127.0.0.1 is in use"),
            (["--listen", "every"], "--listen must be an IP address such as 0.0.0.0 or 127.0.0.1, not 'every'"),
        ]:
            done = subprocess.run(
                [sys.executable, "-m", "deploy", "up", *args], cwd=ROOT, capture_output=True, text=True, env=_env()
            )
            assert done.returncode == 2
            assert done.stdout == ""
            assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr
            assert "Traceback" not in done.stderr


@pytest.mark.parametrize("replicas", [1, 2, 3, 7])
def test_template_is_filled_and_nginx_accepts_it(tmp_path, replicas):
    ports = [free_port() + i for i in range(replicas)]
    text = render_nginx_conf(tmp_path, 8080, ports, 300)
    assert "@" not in text
    template = NginxTemplate((ROOT / "deploy" / "nginx.conf.template").read_text())
    assert template.is_valid()
    assert set(template.get_identifiers()) == {
        "run_dir", "listen", "port", "max_upload_mb", "upstreams", "split", "known_replicas", "answered"
    }  # fmt: skip
    # Every interface unless told otherwise, so phones on the room's network reach it.
    assert re.search(r"^\s*listen 0\.0\.0\.0:8080;$", text, re.M)
    local = render_nginx_conf(tmp_path, 8080, ports, 300, "127.0.0.1")
    assert re.search(r"^\s*listen 127\.0\.0\.1:8080;$", local, re.M)
    assert re.search(r"^\s*listen \[::\]:8080;$", render_nginx_conf(tmp_path, 8080, ports, 300, "::"), re.M)
    for needed in ["client_max_body_size 300m;", "proxy_read_timeout 4h;", "proxy_send_timeout 4h;", "daemon off;"]:
        assert needed in text
    assert "ip_hash" not in text
    for port in ports:
        assert f"server 127.0.0.1:{port} max_fails=1" in text
    conf = tmp_path / "nginx.conf"
    conf.write_text(text)
    checked = subprocess.run(
        [NGINX, "-t", "-c", str(conf), "-p", str(tmp_path), "-e", str(tmp_path / "error.log")],
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr
    assert "syntax is ok" in checked.stderr


def test_the_event_streams_pass_unbuffered_and_two_thousand_phones_fit(tmp_path):
    text = render_nginx_conf(tmp_path, 8080, [free_port()], 300)
    # Each regular-expression location, and what it holds: the phones' streams and the teachers' pages' must match one.
    locations = dict(re.findall(r"location ~ (\S+) \{(.*?)\n        \}", text, re.S))
    for path in ("/api/room/ABC234/events", "/api/room/ABC234/watch"):
        blocks = [block for pattern, block in locations.items() if re.search(pattern, path)]
        assert blocks, f"no location of its own for the event stream {path}"
        block = blocks[0]
        for needed in [
            "proxy_buffering off;",
            "proxy_cache off;",
            "proxy_http_version 1.1;",
            'proxy_set_header Connection "";',
            "proxy_read_timeout 4h;",
        ]:
            assert needed in block, (path, needed)
    # Each phone: its stream and its requests to nginx, and nginx's connection to a replica for each.
    connections = int(re.search(r"worker_connections (\d+);", text)[1])
    assert connections >= 2_000 * 2 * 2 * 1.5


class _CountingBackend(http.server.ThreadingHTTPServer):
    """A stand-in for one app process speaking HTTP/1.1 (keep-alive, as uvicorn does): counts the connections it
    accepted and keeps the Connection header of each request."""

    def __init__(self):
        self.accepted = 0
        self.connection_headers = []
        backend = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                backend.connection_headers.append(self.headers.get("Connection"))
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        super().__init__(("127.0.0.1", free_port()), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def get_request(self):
        self.accepted += 1
        return super().get_request()


def test_plain_requests_reuse_a_kept_connection_to_the_replica_and_a_websocket_still_upgrades():
    # A class's phones each send their answer on a connection of its own; nginx passes them on over connections it
    # keeps open to the replica, instead of the replica accepting (and closing) one per request.
    folder = Path(tempfile.mkdtemp(prefix="ndcg-lab-keepalive-"))
    os.chmod(folder, 0o711)  # nginx's workers (not root when the master is) reach their temp paths in it
    backend, port = _CountingBackend(), free_port()
    (folder / "nginx.conf").write_text(render_nginx_conf(folder, port, [backend.server_port], 300, "127.0.0.1"))
    command = [NGINX, "-c", str(folder / "nginx.conf"), "-p", str(folder), "-e", str(folder / "error.log")]
    nginx = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read()
                break
            except OSError:
                assert nginx.poll() is None and time.monotonic() < deadline, (folder / "error.log").read_text()
                time.sleep(0.2)  # nginx is starting: there is no event to wait on
        for _ in range(5):  # five phones, a connection each
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/room/ABC234/answer", timeout=10).read()
        assert backend.accepted == 1 and backend.connection_headers == [None] * 6
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/_stcore/stream", headers={"Upgrade": "websocket", "Connection": "Upgrade"}
        )
        urllib.request.urlopen(request, timeout=10).read()
        assert backend.connection_headers[-1] == "upgrade"
    finally:
        os.killpg(nginx.pid, signal.SIGTERM)
        nginx.wait(timeout=10)
        backend.shutdown()
        backend.server_close()
        shutil.rmtree(folder, ignore_errors=True)
