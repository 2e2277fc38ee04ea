"""Streamlit keeps each uploaded file in the server's memory until its visitor removes it or leaves: an upload
(PUT to Streamlit's upload route) larger than a file may be (``NDCG_LAB_MAX_UPLOAD_MB``, at most Streamlit's
``server.maxUploadSize``), or one that would make the process hold more than ``NDCG_LAB_UPLOADS_MB`` for all its
visitors, uploads under way counted, is refused before its body is read (``ui.uploads.UploadBudget``, mounted by
``serve.py``); one that does not say its size too."""

import asyncio
import re
import threading

from support import ROOT, run_coroutine
from ui.uploads import MB, UploadBudget, UploadLimits

URL = "/_stcore/upload_file/session/file"


class Reply:
    def __init__(self, status: int, text: str) -> None:
        self.status_code, self.text = status, text


class Server:
    """A stand-in for Streamlit's upload route behind the middleware: it reads the body and holds it (``held``);
    ``put`` sends one request as an ASGI server would."""

    def __init__(self, limits, arrived=None, wait=None):
        self.held = []
        self.arrived, self.wait = arrived, wait
        self.budget = UploadBudget(self.upload, get_limits=lambda: limits, held=lambda: sum(self.held))

    async def upload(self, scope, receive, send):
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        if self.wait is not None:
            self.arrived.set()
            await asyncio.to_thread(self.wait.wait, 10)
        self.held.append(len(body))
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    def put(self, path, size, *, sized=True):
        headers = [(b"content-length", str(size).encode())] if sized else []
        scope = {"type": "http", "method": "PUT", "path": path, "headers": headers}
        sent = []

        async def receive():
            return {"type": "http.request", "body": b"x" * size, "more_body": False}

        async def send(message):
            sent.append(message)

        run_coroutine(self.budget(scope, receive, send))
        return Reply(sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:]).decode())


def test_a_file_larger_than_a_file_may_be_is_refused_before_it_is_read():
    client = Server(UploadLimits(per_file_mb=2, total_mb=100))
    assert client.put(URL, 2 * MB).status_code == 204
    refused = client.put(URL, 3 * MB + 1)  # beyond the megabyte the form's own framing may take
    assert (refused.status_code, refused.text) == (413, "A file may be 2 MB at most.")
    assert client.held == [2 * MB]


def test_the_server_holds_at_most_its_total_and_says_so():
    client = Server(UploadLimits(per_file_mb=2, total_mb=5))
    for _ in range(2):
        assert client.put(URL, 2 * MB).status_code == 204
    refused = client.put(URL, 2 * MB)  # 6 MB held would pass the 5
    assert refused.status_code == 413 and "holds 5 MB of uploads already" in refused.text
    assert client.put(URL, MB).status_code == 204  # exactly 5 MB
    assert client.held == [2 * MB, 2 * MB, MB]
    assert client.put("/other", 3 * MB).status_code == 204  # not an upload: not counted


def test_uploads_under_way_count_against_the_total():
    arrived, wait = threading.Event(), threading.Event()
    slow = Server(UploadLimits(per_file_mb=4, total_mb=6), arrived, wait)
    first = threading.Thread(target=lambda: slow.put(URL, 4 * MB))
    first.start()
    assert arrived.wait(10)  # the first 4 MB are being taken, not held yet
    slow.wait = None
    assert slow.put(URL, 4 * MB).status_code == 413
    wait.set()
    first.join(10)
    assert slow.held == [4 * MB]


def test_an_upload_that_does_not_say_its_size_is_refused():
    client = Server(UploadLimits(per_file_mb=2, total_mb=5))
    assert client.put(URL, 10, sized=False).status_code == 411
    assert client.held == []


def test_the_limits_come_from_the_environment_within_streamlit_s_own():
    assert UploadLimits.from_environment(300, {}) == UploadLimits(300, 1000)
    env = {"NDCG_LAB_MAX_UPLOAD_MB": "50", "NDCG_LAB_UPLOADS_MB": "200"}
    assert UploadLimits.from_environment(300, env) == UploadLimits(50, 200)
    assert UploadLimits.from_environment(300, {"NDCG_LAB_MAX_UPLOAD_MB": "500"}).per_file_mb == 300
    assert UploadLimits.from_environment(300, {"NDCG_LAB_MAX_UPLOAD_MB": "0", "NDCG_LAB_UPLOADS_MB": "x"}) == (
        UploadLimits(300, 1000)
    )


def test_serve_py_mounts_the_budget():
    text = (ROOT / "serve.py").read_text(encoding="utf-8")
    assert re.search(r"middleware=\[[^\]]*Middleware\(UploadBudget\)", text)
