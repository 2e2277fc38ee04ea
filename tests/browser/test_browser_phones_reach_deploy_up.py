"""Phones reach ``python -m deploy up``: nginx listens on every interface unless ``--listen`` keeps it on this
machine, the join link and QR code name nginx's port, and the one warning names the launcher's own option.

Traffic goes to loopback addresses only: 127.0.0.2 answers when nginx listens on every interface, and is refused
when it listens on 127.0.0.1 alone, which is the difference a phone on the network would see. With ``--listen`` the
launcher gives its replicas nginx's address (``NDCG_LAB_FRONT_ADDRESS``, read from the replica's environment here);
the control page's warning drawn from it, naming the launcher's option, is AppTest's
(``tests/ui/test_a_teacher_behind_a_local_nginx_is_told_the_launchers_option.py``), so that case opens no browser."""

import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect
from test_browser_join_link import join_link_text, qr_codes, start_room, this_machines_address

from ndcg_core.classroom.joining import FRONT_ADDRESS_VARIABLE
from support import ROOT, free_port

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists("/usr/sbin/nginx"), reason="nginx is not installed (apt-get install nginx)"),
]


def up(tmp_path, *listen):
    """``deploy up --replicas 1`` on SQLite (no PostgreSQL needed for this), with ``listen`` passed on; returns the
    launcher and nginx's port once it is ready."""
    port = free_port()
    env = {**os.environ, "NDCG_LAB_DATABASE_URL": f"sqlite:///{tmp_path / 'rooms.db'}"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    launcher = subprocess.Popen(
        [sys.executable, "-m", "deploy", "up", "--replicas", "1", "--port", str(port), *listen],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert launcher.stdout is not None
    lines = []
    for line in launcher.stdout:
        lines.append(line.strip())
        if line.startswith("ready ") or len(lines) > 10:
            break
    assert lines[-1] == f"ready http://127.0.0.1:{port}", (lines, launcher.stderr)
    return launcher, port, lines


def down(launcher):
    launcher.send_signal(signal.SIGTERM)
    assert launcher.wait(timeout=60) == 0
    launcher.stdout.close()
    launcher.stderr.close()


def answers_on(host, port):
    """Whether nginx answers its health route at ``host``:``port`` (a refused connection is False)."""
    deadline = time.monotonic() + 5
    while True:
        try:
            with urllib.request.urlopen(f"http://{host}:{port}/_stcore/health", timeout=5) as reply:
                return reply.status == 200
        except urllib.error.URLError as error:
            if isinstance(error.reason, ConnectionRefusedError):
                return False
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_by_default_nginx_listens_on_every_interface_and_the_join_link_names_its_port(browser, tmp_path):
    launcher, port, lines = up(tmp_path)
    try:
        assert any(line.endswith(f"port {port} listen 0.0.0.0") for line in lines), lines
        assert answers_on("127.0.0.1", port) and answers_on("127.0.0.2", port)
        context, teacher, screen, code = start_room(browser, f"http://localhost:{port}")
        address = this_machines_address()
        if address is not None:
            join = f"http://{address}:{port}/join/{code}"
            for page in (teacher, screen):
                expect(join_link_text(page)).to_have_text(join)
            assert qr_codes(screen, 2) == [join, join]  # the join bar's, and the waiting screen's large one
        # The replica listens on 127.0.0.1 behind nginx: no warning that phones cannot reach it.
        expect(teacher.get_by_text("listens only on this computer's own address")).to_have_count(0)
        context.close()
    finally:
        down(launcher)


def replica_environment(lines):
    """The environment replica 1 was started with, from its pid in the launcher's lines."""
    pid = next(int(found[1]) for line in lines if (found := re.match(r"replica 1 pid (\d+) port \d+$", line)))
    with open(f"/proc/{pid}/environ", "rb") as raw:
        return dict(item.split("=", 1) for item in raw.read().decode().split("\0") if "=" in item)


def test_listen_127_0_0_1_keeps_nginx_local_and_tells_the_replicas_so(tmp_path):
    launcher, port, lines = up(tmp_path, "--listen", "127.0.0.1")
    try:
        assert answers_on("127.0.0.1", port) and not answers_on("127.0.0.2", port)
        # What the control page's warning is drawn from: nginx's own address, not the replica's (127.0.0.1 always).
        assert replica_environment(lines)[FRONT_ADDRESS_VARIABLE] == "127.0.0.1"
    finally:
        down(launcher)
