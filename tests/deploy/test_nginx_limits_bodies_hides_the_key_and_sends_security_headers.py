"""A real nginx from ``deploy/nginx.conf.template`` in front of a stand-in app process: a phone's route takes no
body over 16 KB (a 1 MB POST gets 413 and never reaches the app), uploads pass up to the app's limit and no
further, the access log keeps no query string (the control link's ``key=``) nor the Referer, every response, error
pages too, carries the security headers and no nginx version, and the app is told the address nginx saw, not one a
client wrote in X-Forwarded-For."""

import http.client
import http.server
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from deploy.launcher import render_nginx_conf
from support import free_port, wait_until

NGINX = shutil.which("nginx", path="/usr/sbin:/usr/bin")
pytestmark = [pytest.mark.deploy, pytest.mark.skipif(NGINX is None, reason="nginx is not installed")]

UPLOAD_MB = 2  # the app's upload limit in this test (megabytes), as the launcher passes it to the template
KEY = "k3yOfTheRoom9"
SECURITY_HEADERS = {
    "X-Frame-Options": "SAMEORIGIN",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
CSP_PARTS = ("default-src 'self'", "frame-ancestors 'self'", "object-src 'none'", "base-uri 'self'")


class Backend(http.server.ThreadingHTTPServer):
    """A stand-in for one app process: reads any body, answers 200 (404 under ``/missing``), and keeps each
    request's method, path, body size and headers."""

    def __init__(self):
        self.seen = []
        backend = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def answer(self):
                size = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(size)
                backend.seen.append((self.command, self.path, size, dict(self.headers)))
                self.send_response(404 if self.path.startswith("/missing") else 200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            do_GET = do_POST = do_PUT = answer

            def log_message(self, *args):
                pass

        super().__init__(("127.0.0.1", free_port()), Handler)
        threading.Thread(target=self.serve_forever, daemon=True).start()


@pytest.fixture(scope="module")
def nginx():
    """(nginx's port, the stand-in app, the access log's path) for nginx from the template on 127.0.0.1."""
    folder = Path(tempfile.mkdtemp(prefix="ndcg-lab-nginx-guards-"))
    os.chmod(folder, 0o711)  # nginx's workers (not root when the master is) reach their temp paths in it
    backend, port = Backend(), free_port()
    (folder / "nginx.conf").write_text(render_nginx_conf(folder, port, [backend.server_port], UPLOAD_MB, "127.0.0.1"))
    command = [NGINX, "-c", str(folder / "nginx.conf"), "-p", str(folder), "-e", str(folder / "error.log")]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                request(port, "GET", "/_stcore/health")
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, (folder / "error.log").read_text()
                time.sleep(0.2)  # nginx is starting: there is no event to wait on
        yield port, backend, folder / "nginx-access.log"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
        backend.shutdown()
        backend.server_close()
        shutil.rmtree(folder, ignore_errors=True)


def request(port, method, path, body=None, headers=None):
    """(status, headers, body) of one request to nginx on its own connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        reply = connection.getresponse()
        return reply.status, reply.headers, reply.read()
    finally:
        connection.close()


def reached(backend, path):
    return [seen for seen in backend.seen if seen[1] == path]


def test_a_megabyte_to_a_phones_route_gets_413_and_never_reaches_the_app(nginx):
    port, backend, _ = nginx
    for route in ("/api/room/ABC234/answer", "/api/room/ABC234/join"):
        status, _, _ = request(port, "POST", route, body=b"x" * 1024 * 1024, headers={"Content-Type": "text/plain"})
        assert status == 413, route
        assert reached(backend, route) == []
        # An answer's size (16 KB at most) passes.
        status, _, _ = request(port, "POST", route, body=b'{"value": "0.5"}' + b" " * (16 * 1024 - 20))
        assert status == 200 and len(reached(backend, route)) == 1


def test_uploads_pass_up_to_the_apps_limit_and_other_paths_take_no_large_body(nginx):
    port, backend, _ = nginx
    upload = "/_stcore/upload_file/session/file"
    status, _, _ = request(port, "PUT", upload, body=b"x" * (UPLOAD_MB * 1024 * 1024 - 4096))
    assert status == 200 and reached(backend, upload)[-1][2] == UPLOAD_MB * 1024 * 1024 - 4096
    status, _, _ = request(port, "PUT", upload + "2", body=b"x" * (UPLOAD_MB * 1024 * 1024 + 4096))
    assert status == 413 and reached(backend, upload + "2") == []
    # Anywhere else, nginx's own 1 MB: the app's upload limit is not a limit for every path.
    status, _, _ = request(port, "POST", "/Evaluate", body=b"x" * (1024 * 1024 + 4096))
    assert status == 413 and reached(backend, "/Evaluate") == []


def test_the_access_log_keeps_neither_the_query_string_nor_the_referer(nginx):
    port, _, log = nginx
    control_link = f"/Classroom?room=ABC234&key={KEY}&lang=en"
    status, _, _ = request(port, "GET", control_link)
    assert status == 200
    # A page opened from the control link (a browser without Referrer-Policy would send the link as Referer).
    request(port, "GET", "/_stcore/host-config", headers={"Referer": f"http://127.0.0.1:{port}{control_link}"})
    assert wait_until(lambda: "/_stcore/host-config" in log.read_text(), seconds=10)
    text = log.read_text()
    assert '"GET /Classroom HTTP/1.1" 200' in text  # the visit is logged, by its path
    assert KEY not in text and "key=" not in text
    assert "?" not in text  # no query string at all (a phone's link has its room code there)


def test_every_response_carries_the_security_headers_and_no_nginx_version(nginx):
    port, _, _ = nginx
    answered = {
        "page": request(port, "GET", "/"),
        "app's 404": request(port, "GET", "/missing"),
        "nginx's 413": request(port, "POST", "/api/room/ABC234/answer", body=b"x" * (64 * 1024)),
        "phone's route": request(port, "GET", "/api/room/ABC234/card"),
    }
    assert [status for status, _, _ in answered.values()] == [200, 404, 413, 200]
    for what, (_, headers, body) in answered.items():
        for name, value in SECURITY_HEADERS.items():
            assert headers[name] == value, (what, name)
        policy = headers["Content-Security-Policy"]
        assert policy is not None and all(part in policy for part in CSP_PARTS), (what, policy)
        assert headers["Server"] == "nginx", what  # "nginx/1.22.1" names what to attack
        assert b"nginx/" not in body, what


def test_the_app_is_told_the_address_nginx_saw_not_one_a_client_wrote(nginx):
    port, backend, _ = nginx
    for path in ("/api/room/ABC234/card", "/Classroom", "/api/room/ABC234/events"):
        request(port, "GET", path, headers={"X-Forwarded-For": "203.0.113.9"})
        headers = {name.lower(): value for name, value in reached(backend, path)[-1][3].items()}
        assert headers["x-forwarded-for"] == "127.0.0.1", path
