"""Every response of a real ``serve.py`` (Streamlit's page and files, the phones' pages and JSON routes) says
``Referrer-Policy: no-referrer``, ``X-Content-Type-Options: nosniff`` and ``X-Frame-Options: DENY``; the phones' own
pages carry a Content Security Policy that lets only their own script and style run, by a nonce new with each
response (issue 46). ``tests/browser/test_browser_phone_page_runs_under_its_csp.py`` shows the page still works."""

import re
from urllib.parse import urlencode

import pytest
from serve_support import room_on
from storage_support import predict

from ui.http_security import SECURITY_HEADERS


@pytest.fixture(scope="module")
def served(serve_py):
    with room_on(serve_py) as running:
        running.store.rooms.open_activity(running.code, running.key, predict())
        yield running


def paths(served):
    me = urlencode({"me": served.me, "lang": "en"})
    return {
        "Streamlit's page": "/",
        "Streamlit's health check": "/_stcore/health",
        "the phone page": f"/phone/{served.code}?{me}",
        "a stranger's phone page": f"/phone/{served.code}?me=nobody",
        "the join page": f"/join/{served.code}",
        "the card": f"/api/room/{served.code}/card?{me}",
        "a stranger's card": f"/api/room/{served.code}/card?me=nobody",
    }


def test_every_response_carries_the_security_headers(served):
    for what, path in paths(served).items():
        status, headers, _ = served.request("GET", path)
        assert status < 500, what
        for name, value in SECURITY_HEADERS.items():
            assert headers.get(name.lower()) == value, (what, name, headers)
    status, headers, _ = served.request(
        "POST", f"/api/room/{served.code}/answer", b"{}", {"Content-Type": "application/json"}
    )
    assert all(headers.get(name.lower()) == value for name, value in SECURITY_HEADERS.items())


def policy_and_page(served, path):
    status, headers, body = served.request("GET", path)
    return status, headers.get("content-security-policy", ""), body.decode()


@pytest.mark.parametrize("which", ["the phone page", "the join page", "a stranger's phone page"])
def test_a_phone_page_lets_only_its_own_script_and_style_run_by_a_nonce_new_each_time(served, which):
    path = paths(served)[which]
    status, policy, page = policy_and_page(served, path)
    nonce = re.search(r"script-src 'nonce-([\w-]+)'", policy)
    assert nonce and f"style-src 'nonce-{nonce[1]}'" in policy
    for directive in ("default-src 'none'", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"):
        assert directive in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    # Every script that runs and every style block carries the nonce; the card's data is JSON, which never runs.
    tags = re.findall(r"<(script|style)\b([^>]*)>", page)
    assert tags
    for tag, attributes in tags:
        assert f'nonce="{nonce[1]}"' in attributes or 'type="application/json"' in attributes, (tag, attributes)
    markup = re.sub(r"<(script|style)\b.*?</\1>", "", page, flags=re.S)
    assert not re.search(r"<[^>]*\s(style|on\w+)=", markup)  # no inline style or handler, which the policy stops
    _, again, _ = policy_and_page(served, path)
    assert again != policy  # a nonce is never used twice
