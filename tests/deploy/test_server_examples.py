"""The server example files in Deployment: ``deploy/nginx-site.conf.example``, filled in with a throwaway self-signed
certificate, passes ``nginx -t`` and serves: HTTP redirects to HTTPS, the affinity cookie (``Secure``) keeps a
browser on one process and moves it when that one is down, websocket headers reach the process; it carries the
same affinity, websocket, timeout and upload settings as ``deploy/nginx.conf.template``. ``systemd-analyze verify``
accepts ``deploy/systemd/ndcg-lab@.service`` (its paths pointed at this checkout)."""

import http.client
import http.server
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from deploy.launcher import max_upload_mb
from support import ROOT, free_port

NGINX = shutil.which("nginx", path="/usr/sbin:/usr/bin")
OPENSSL = shutil.which("openssl")
SYSTEMD_ANALYZE = shutil.which("systemd-analyze")
SITE = ROOT / "deploy" / "nginx-site.conf.example"
TEMPLATE = ROOT / "deploy" / "nginx.conf.template"
UNIT = ROOT / "deploy" / "systemd" / "ndcg-lab@.service"
DOMAIN = "ndcg.example.edu"
TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")

needs_nginx = pytest.mark.skipif(NGINX is None or OPENSSL is None, reason="nginx and openssl are needed")


def _location_lines(text):
    """The directives of the ``location /`` block, one per line, comments and blank lines left out."""
    block = text[text.index("location / {") :]
    block = block[: block.index("\n        }") if "\n        }" in block else block.index("\n    }")]
    lines = [line.split("#")[0].strip() for line in block.splitlines()[1:]]
    return [line for line in lines if line]


def test_the_site_has_the_launchers_affinity_websocket_timeouts_and_upload_size():
    site, template = SITE.read_text(), TEMPLATE.read_text()
    # The template's location block, with the site's "ndcg_" prefix on its variables, is in the site's.
    site_lines = _location_lines(site)
    for line in _location_lines(template):
        line = re.sub(r"\$(replica_cookie|replica|answered|connection_upgrade)\b", r"$ndcg_\1", line)
        assert line in site_lines, line
    assert f"client_max_body_size {max_upload_mb()}m;" in site
    assert "ip_hash" not in "\n".join(line.split("#")[0] for line in site.splitlines())  # said only in comments
    assert '"ndcg_replica=$ndcg_answered; Path=/; HttpOnly; SameSite=Lax; Secure"' in site
    assert re.search(r"listen 443 ssl;", site) and "return 301 https://$host$request_uri;" in site


class _Backend(http.server.ThreadingHTTPServer):
    """A stand-in for one app process: answers 200 (503 under ``/api/down``, as the phones' card route does while
    the database is not answering) and keeps the headers of the last request."""

    def __init__(self):
        self.seen = {}
        backend = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                backend.seen = dict(self.headers)
                self.send_response(503 if self.path.startswith("/api/down") else 200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        super().__init__(("127.0.0.1", free_port()), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def stop(self):
        self.shutdown()
        self.server_close()


def _filled(folder, http_port, https_port, backends):
    """The site file as an operator fills it in, on test ports: certificate paths, listen ports, process ports."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-keyout", str(key),
         "-out", str(cert), "-subj", f"/CN={DOMAIN}", "-addext", f"subjectAltName=DNS:{DOMAIN}"],
        check=True, capture_output=True,
    )  # fmt: skip
    text = SITE.read_text()
    text = text.replace(f"/etc/ssl/certs/{DOMAIN}.pem", str(cert)).replace(f"/etc/ssl/private/{DOMAIN}.key", str(key))
    text = "\n".join(line for line in text.splitlines() if "listen [::]:" not in line)  # no IPv6 in the test
    text = text.replace("/var/log/nginx/ndcg-lab.access.log", str(folder / "access.log"))
    text = text.replace("listen 80;", f"listen 127.0.0.1:{http_port};")
    text = text.replace("listen 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;")
    for example, backend in zip(("8601", "8602"), backends, strict=True):
        text = text.replace(example, str(backend.server_port))
    (folder / "site.conf").write_text(text)
    # nginx's main file around it, as Debian's /etc/nginx/nginx.conf includes sites-enabled/ in its http block.
    (folder / "nginx.conf").write_text(
        f"daemon off;\nworker_processes 1;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log warn;\n"
        "events { worker_connections 64; }\n"
        f"http {{\n    access_log {folder}/access.log;\n"
        + "".join(f"    {kind}_temp_path {folder}/{kind};\n" for kind in TEMP_PATHS)
        + f"    include {folder}/site.conf;\n}}\n"
    )  # fmt: skip
    return cert


def _get(port, path, cafile=None, cookie=None, headers=()):
    if cafile is None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    else:
        context = ssl.create_default_context(cafile=str(cafile))
        context.check_hostname = False  # the name is the test's, the address loopback; the chain is still checked
        connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=10, context=context)
    sent = {"Host": DOMAIN, **dict(headers)}
    if cookie:
        sent["Cookie"] = f"ndcg_replica={cookie}"
    connection.request("GET", path, headers=sent)
    reply = connection.getresponse()
    reply.read()
    connection.close()
    return reply.status, reply.headers


@needs_nginx
def test_the_site_passes_nginx_t_and_serves_with_tls_affinity_and_failover():
    folder = Path(tempfile.mkdtemp(prefix="ndcg-lab-site-"))
    os.chmod(folder, 0o711)  # nginx's workers (not root when the master is) reach their temp paths in it
    backends = [_Backend(), _Backend()]
    http_port, https_port = free_port(), free_port()
    nginx = None
    try:
        cert = _filled(folder, http_port, https_port, backends)
        command = [NGINX, "-c", str(folder / "nginx.conf"), "-p", str(folder), "-e", str(folder / "error.log")]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        assert "syntax is ok" in checked.stderr and "test is successful" in checked.stderr

        nginx = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 20
        while True:
            try:
                status, fresh = _get(https_port, "/", cafile=cert)
                break
            except OSError:
                assert nginx.poll() is None and time.monotonic() < deadline, (folder / "error.log").read_text()
                time.sleep(0.2)  # nginx is starting: there is no event to wait on

        assert status == 200
        # Plain HTTP: a redirect to the same address over HTTPS.
        status, plain = _get(http_port, "/Classroom?room=ABC234")
        assert (status, plain["Location"]) == (301, f"https://{DOMAIN}/Classroom?room=ABC234")

        # A new browser: a process, named by X-Replica and by a Secure cookie; with the cookie, the same one.
        first, cookie = fresh["X-Replica"], fresh["Set-Cookie"]
        assert first in {"1", "2"}
        assert cookie == f"ndcg_replica={first}; Path=/; HttpOnly; SameSite=Lax; Secure"
        for _ in range(3):
            status, headers = _get(https_port, "/", cafile=cert, cookie=first)
            assert (status, headers["X-Replica"], headers["Set-Cookie"]) == (200, first, None)

        # Websocket headers, the name and the scheme reach the process.
        upgrade = {"Upgrade": "websocket", "Connection": "Upgrade"}
        status, headers = _get(https_port, "/_stcore/stream", cafile=cert, cookie="2", headers=upgrade)
        seen = {name.lower(): value for name, value in backends[1].seen.items()}
        assert (seen["upgrade"], seen["connection"], seen["host"], seen["x-forwarded-proto"]) == (
            "websocket", "upgrade", DOMAIN, "https"
        )  # fmt: skip

        # A 503 (the database is down, for every process alike) reaches the browser as it is: nginx neither moves the
        # browser to the other process nor counts its process as failed (which would answer 502 for 10 s after).
        for _ in range(3):
            status, headers = _get(https_port, "/api/down/revision", cafile=cert, cookie=first)
            assert (status, headers["X-Replica"], headers["Set-Cookie"]) == (503, first, None)
        status, headers = _get(https_port, "/", cafile=cert, cookie=first)
        assert (status, headers["X-Replica"]) == (200, first)

        # Process 2 goes away: its browsers are answered by process 1, and the cookie follows.
        backends[1].stop()
        status, headers = _get(https_port, "/", cafile=cert, cookie="2")
        assert (status, headers["X-Replica"]) == (200, "1")
        assert headers["Set-Cookie"].startswith("ndcg_replica=1;")
    finally:
        if nginx is not None:
            os.killpg(nginx.pid, signal.SIGTERM)
            nginx.wait(timeout=10)
        for backend in backends:
            backend.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.skipif(SYSTEMD_ANALYZE is None, reason="systemd-analyze is not installed")
def test_systemd_analyze_verify_accepts_the_app_unit(tmp_path):
    # The example's paths, pointed at this checkout and this Python, so that verify finds the program it runs.
    text = UNIT.read_text()
    assert "Restart=on-failure" in text and "EnvironmentFile=/etc/ndcg-lab/ndcg-lab.env" in text
    text = text.replace("/opt/ndcg-lab/venv", sys.prefix).replace("/opt/ndcg-lab/app", str(ROOT))
    (tmp_path / "ndcg-lab@.service").write_text(text)
    checked = subprocess.run(
        [SYSTEMD_ANALYZE, "verify", str(tmp_path / "ndcg-lab@8601.service")], capture_output=True, text=True
    )
    # verify exits 0 on a misspelt key or value too, and says so: nothing may be said.
    assert (checked.returncode, checked.stderr.strip(), checked.stdout.strip()) == (0, "", "")
    for variable in ("NDCG_LAB_DATABASE_URL", "STREAMLIT_SERVER_COOKIE_SECRET", "NDCG_LAB_PUBLIC_URL"):
        assert re.search(rf"^{variable}=", (UNIT.parent / "ndcg-lab.env.example").read_text(), re.MULTILINE)
