"""The join link a teacher projects is one a phone in the room can open: the public URL when the server has one,
this machine's network address when the page was opened at localhost, the page's own host otherwise, and no
link at all (rather than a QR code of a loopback address) when there is nothing a phone could reach."""

import pytest

from ndcg_core.classroom.joining import JoinLink, is_loopback, join_link, read_public_url, usable_network_address
from support import error_of

CODE = "K7P3QX"


def link(public=None, page="http://localhost:8501/Classroom", address="192.168.1.23", listen=""):
    return join_link(CODE, public_url=public, page_url=page, network_address=address, listen_address=listen)


# --- NDCG_LAB_PUBLIC_URL ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "public, url",
    [
        ("https://ndcg.example.edu", "https://ndcg.example.edu/Classroom?room=K7P3QX"),
        ("https://ndcg.example.edu/", "https://ndcg.example.edu/Classroom?room=K7P3QX"),
        ("  https://ndcg.example.edu  ", "https://ndcg.example.edu/Classroom?room=K7P3QX"),
        ("https://host.example.org/ndcg", "https://host.example.org/ndcg/Classroom?room=K7P3QX"),
        ("https://host.example.org/courses/ir/ndcg/", "https://host.example.org/courses/ir/ndcg/Classroom?room=K7P3QX"),
        ("http://10.0.0.5:8080", "http://10.0.0.5:8080/Classroom?room=K7P3QX"),
        ("HTTPS://NDCG.example.edu", "https://NDCG.example.edu/Classroom?room=K7P3QX"),
        ("https://[2001:db8::7]:8443/lab", "https://[2001:db8::7]:8443/lab/Classroom?room=K7P3QX"),
        ("https://host.example.org/LAB-X/", "https://host.example.org/LAB-X/Classroom?room=K7P3QX"),  # only "/" trimmed
    ],
)
def test_a_public_url_is_the_base_of_the_join_link_whatever_the_page_was_opened_on(public, url):
    for page in ("http://localhost:8501/Classroom", "http://10.1.2.3:8501/Classroom", None):
        assert link(public, page=page) == JoinLink(url, "public")


@pytest.mark.parametrize("blank", [None, "", "   "])
def test_an_unset_or_blank_public_url_is_not_used(blank):
    assert link(blank) == JoinLink("http://192.168.1.23:8501/Classroom?room=K7P3QX", "network")


@pytest.mark.parametrize(
    "value, code",
    [
        ("ndcg.example.edu", "room.public_url_scheme"),
        ("ftp://ndcg.example.edu", "room.public_url_scheme"),
        ("https:ndcg.example.edu", "room.public_url_scheme"),
        ("javascript:alert(1)", "room.public_url_scheme"),
        ("https://", "room.public_url_host"),
        ("https:///ndcg", "room.public_url_host"),
        ("https://ndcg.example.edu:port", "room.public_url_host"),
        ("https://ndcg.example.edu:99999", "room.public_url_host"),
        ("https://ndcg.example.edu/?room=1", "room.public_url_extra"),
        ("https://ndcg.example.edu/#top", "room.public_url_extra"),
        ("https://ndcg.example.edu?", "room.public_url_extra"),
        ("https://ndcg example.edu", "room.public_url_space"),
        ("https://ndcg.example.edu/a\tb", "room.public_url_space"),
        ("https://ndcg.example.edu/a\x01b", "room.public_url_space"),  # a control character, not a space
        ("https://ndcg.example.edu/a\x7fb", "room.public_url_space"),  # DEL
        ("https://ndcg.example.edu/#", "room.public_url_extra"),  # an empty fragment is a fragment still
    ],
)
def test_a_bad_public_url_is_an_error_naming_the_variable_and_value(value, code):
    error = error_of(read_public_url, value)
    assert error.code == code
    assert error.fields == {"name": "NDCG_LAB_PUBLIC_URL", "value": repr(value)}
    assert str(error).startswith(f"NDCG_LAB_PUBLIC_URL is {value!r}: ")


def test_a_password_in_a_bad_public_url_is_masked_and_a_long_one_is_shortened():
    # The message is on the teacher's page, which a projector shows.
    error = error_of(read_public_url, "https://teacher:secret@ndcg.example.edu")
    assert (error.code, error.fields["value"]) == ("room.public_url_extra", "'https://***@ndcg.example.edu'")
    long = "https://ndcg.example.edu/" + "a" * 100 + "?x"
    assert error_of(read_public_url, long).fields["value"] == repr(long)[:97] + "..."


def test_a_bad_public_url_is_set_aside_and_the_link_falls_back_with_the_problem_kept():
    result = link("ndcg.example.edu")
    assert (result.url, result.case) == ("http://192.168.1.23:8501/Classroom?room=K7P3QX", "network")
    assert result.problem is not None and result.problem.code == "room.public_url_scheme"
    assert str(result.problem) == (
        "NDCG_LAB_PUBLIC_URL is 'ndcg.example.edu': it must start with http:// or https://, e.g. https://ndcg.example.edu"
    )
    fallback = link("https://x.example/?a", page="http://lab.example.edu:8501/Classroom")
    assert (fallback.url, fallback.case, fallback.problem.code) == (
        "http://lab.example.edu:8501/Classroom?room=K7P3QX",
        "page",
        "room.public_url_extra",
    )
    nothing = link("https://", address=None)
    assert (nothing.url, nothing.case, nothing.problem.code) == (None, "none", "room.public_url_host")
    unopened = link("https://", page=None)  # no page address either: the problem is still the teacher's to see
    assert (unopened.url, unopened.case, unopened.problem.code) == (None, "none", "room.public_url_host")


# --- a page opened on this machine's own address ------------------------------------------------------------


@pytest.mark.parametrize(
    "page, url",
    [
        ("http://localhost:8501/Classroom", "http://192.168.1.23:8501/Classroom?room=K7P3QX"),
        ("http://LOCALHOST:8501/Classroom", "http://192.168.1.23:8501/Classroom?room=K7P3QX"),
        ("http://127.0.0.1:8501/Classroom", "http://192.168.1.23:8501/Classroom?room=K7P3QX"),
        ("http://127.0.1.1:9000/Classroom", "http://192.168.1.23:9000/Classroom?room=K7P3QX"),
        ("http://[::1]:8501/Classroom", "http://192.168.1.23:8501/Classroom?room=K7P3QX"),
        ("http://[::ffff:127.0.0.1]:8501/Classroom", "http://192.168.1.23:8501/Classroom?room=K7P3QX"),
        ("http://0.0.0.0:8501/Classroom", "http://192.168.1.23:8501/Classroom?room=K7P3QX"),
        ("http://lab.localhost:8501/Classroom", "http://192.168.1.23:8501/Classroom?room=K7P3QX"),
        ("http://localhost/Classroom", "http://192.168.1.23/Classroom?room=K7P3QX"),  # no port: none added
        ("http://localhost:8501/ndcg/Classroom", "http://192.168.1.23:8501/ndcg/Classroom?room=K7P3QX"),
        ("https://localhost:8443/Classroom", "https://192.168.1.23:8443/Classroom?room=K7P3QX"),
        ("http://localhost:99999/Classroom", "http://192.168.1.23/Classroom?room=K7P3QX"),  # no such port: none added
    ],
)
def test_a_page_opened_at_localhost_links_to_this_machines_network_address_and_the_pages_port(page, url):
    assert link(page=page) == JoinLink(url, "network")


@pytest.mark.parametrize("address", [None, "", "127.0.0.1", "127.0.1.1", "0.0.0.0", "::1", "fe80::1", "not an ip"])
def test_no_network_address_means_no_link_not_a_loopback_qr_code(address):
    assert link(address=address) == JoinLink(None, "none")
    assert link(page="http://[::1]:8501/Classroom", address=address) == JoinLink(None, "none")


def test_a_server_listening_only_on_loopback_is_flagged_on_a_network_link():
    for listen in ("127.0.0.1", "localhost", "::1"):
        assert link(listen=listen) == JoinLink(
            "http://192.168.1.23:8501/Classroom?room=K7P3QX", "network", server_local=True
        )
    for listen in ("", "0.0.0.0", "::", "192.168.1.23"):
        assert link(listen=listen).server_local is False
    # A page opened on another host reached the server already: nothing to flag.
    assert link(page="http://10.1.2.3:8501/Classroom", listen="127.0.0.1").server_local is False


def front(listen, front_address, page="http://localhost:8080/Classroom"):
    """A replica of ``deploy up`` (Streamlit on 127.0.0.1) behind nginx listening on ``front_address``."""
    return join_link(
        CODE,
        public_url=None,
        page_url=page,
        network_address="192.168.1.23",
        listen_address=listen,
        front_address=front_address,
    )


def test_behind_deploy_up_nginxs_address_decides_and_the_link_keeps_nginxs_port():
    # The replica listens on 127.0.0.1 by design: nginx on every interface reaches phones, and the link names
    # nginx's port, the one the teacher's page was opened on.
    for everywhere in ("0.0.0.0", "::", " 0.0.0.0 "):
        assert front("127.0.0.1", everywhere) == JoinLink(
            "http://192.168.1.23:8080/Classroom?room=K7P3QX", "network", listen_option="--listen"
        )
    # nginx kept local (--listen 127.0.0.1): flagged, naming the launcher's option, not Streamlit's.
    local = front("127.0.0.1", "127.0.0.1")
    assert (local.server_local, local.listen_option) == (True, "--listen")
    # Not behind the launcher (unset or blank): Streamlit's own address decides, and its option is named.
    for unset in (None, "", "  "):
        alone = front("127.0.0.1", unset)
        assert (alone.server_local, alone.listen_option) == (True, "--server.address")


# --- a page opened on another host ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "page, url",
    [
        ("http://192.168.1.23:8501/Classroom", "http://192.168.1.23:8501/Classroom?room=K7P3QX"),
        ("http://10.0.0.9:8501/Classroom", "http://10.0.0.9:8501/Classroom?room=K7P3QX"),
        ("https://ndcg.cs.example.edu/Classroom", "https://ndcg.cs.example.edu/Classroom?room=K7P3QX"),
        ("https://host.example.org/ndcg/Classroom", "https://host.example.org/ndcg/Classroom?room=K7P3QX"),
        ("http://[fe80::1]:8501/Classroom", "http://[fe80::1]:8501/Classroom?room=K7P3QX"),
        ("http://lecturer-laptop.local:8501/Classroom", "http://lecturer-laptop.local:8501/Classroom?room=K7P3QX"),
    ],
)
def test_a_page_opened_on_another_host_links_to_that_host_as_it_is(page, url):
    assert link(page=page) == JoinLink(url, "page")
    assert link(page=page, address=None) == JoinLink(url, "page")  # no network address is needed


@pytest.mark.parametrize(
    "page", [None, "", "about:blank", "file:///tmp/x.html", "ftp://10.0.0.9/Classroom", "http:///Classroom"]
)
def test_a_page_without_a_web_address_gives_no_link(page):
    assert link(page=page) == JoinLink(None, "none")


def test_the_room_code_is_the_links_only_query():
    assert link(page="http://10.0.0.9:8501/Classroom").url.endswith("/Classroom?room=K7P3QX")
    assert join_link(
        "ABCDEF", public_url=None, page_url="http://10.0.0.9:8501/Classroom", network_address=None, listen_address=""
    ) == JoinLink("http://10.0.0.9:8501/Classroom?room=ABCDEF", "page")


# --- the small rules -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host, loopback",
    [
        ("localhost", True),
        ("localhost.", True),
        ("a.localhost", True),
        ("127.0.0.1", True),
        ("127.200.3.4", True),
        ("::1", True),
        ("[::1]", True),
        ("::ffff:127.0.0.1", True),
        ("0.0.0.0", False),
        ("::", False),
        ("localhost.example.edu", False),
        ("mylocalhost", False),
        ("LOCALHOSTX", False),  # a longer name, whatever its case
        ("128.0.0.1", False),
        ("192.168.1.23", False),
        ("::2", False),
        ("ndcg.example.edu", False),
    ],
)
def test_loopback_hosts(host, loopback):
    assert is_loopback(host) is loopback
    assert is_loopback(host, unspecified=True) is (loopback or host in ("0.0.0.0", "::"))


@pytest.mark.parametrize(
    "address, usable",
    [
        ("192.168.1.23", "192.168.1.23"),
        ("10.0.0.5", "10.0.0.5"),
        ("172.20.10.2", "172.20.10.2"),  # an iPhone hotspot's network
        ("127.0.0.1", None),
        ("0.0.0.0", None),
        ("::1", None),
        ("2001:db8::5", None),  # IPv4 only: the address a phone types or scans stays short
        ("", None),
        (None, None),
        ("192.168.1.300", None),
    ],
)
def test_only_a_non_loopback_ipv4_address_is_a_network_address(address, usable):
    assert usable_network_address(address) == usable


# --- the phones' own join page (serve.py) ------------------------------------------------------------------


@pytest.mark.parametrize(
    "public, page, address, url, case",
    [
        ("https://ndcg.example.edu/", None, None, "https://ndcg.example.edu/join/K7P3QX", "public"),
        ("https://host.example.org/ndcg", None, None, "https://host.example.org/ndcg/join/K7P3QX", "public"),
        (None, "http://10.0.0.9:8501/Classroom", None, "http://10.0.0.9:8501/join/K7P3QX", "page"),
        (None, "https://host.example.org/ndcg/Classroom", None, "https://host.example.org/ndcg/join/K7P3QX", "page"),
        (None, "https://host.example.org/ndcg/Classroom/", None, "https://host.example.org/ndcg/join/K7P3QX", "page"),
        (None, "http://localhost:8501/Classroom", "192.168.1.23", "http://192.168.1.23:8501/join/K7P3QX", "network"),
        (None, "http://localhost:8080/", "192.168.1.23", "http://192.168.1.23:8080/join/K7P3QX", "network"),
        # Made on another page (any name): the join page beside it, under the same base path.
        (None, "https://host.example.org/ndcg/Playground", None, "https://host.example.org/ndcg/join/K7P3QX", "page"),
    ],
)
def test_where_serve_py_serves_the_join_page_the_link_is_join_code_beside_the_classroom_page(
    public, page, address, url, case
):
    made = join_link(CODE, public_url=public, page_url=page, network_address=address, listen_address="", join_page=True)
    assert (made.url, made.case) == (url, case)


def test_the_join_page_changes_only_the_path_not_which_address_phones_get():
    for page, address in [("http://localhost:8501/Classroom", None), (None, "192.168.1.23"), ("about:blank", None)]:
        plain = join_link(CODE, public_url=None, page_url=page, network_address=address, listen_address="")
        joining = join_link(
            CODE, public_url=None, page_url=page, network_address=address, listen_address="", join_page=True
        )
        assert (plain.url, plain.case) == (None, "none") == (joining.url, joining.case)


def test_a_public_url_on_a_server_listening_on_loopback_is_not_flagged_and_is_the_join_pages_base():
    # The public address reaches the server through its proxy: nothing to flag, whatever the server listens on,
    # and the QR code's link is the public join page (the browser test of a server started with it was folded here).
    for listen in ("127.0.0.1", "localhost", "::1", ""):
        made = join_link(
            CODE,
            public_url="https://ndcg.example.edu",
            page_url="http://127.0.0.1:8501/Classroom",
            network_address="192.168.1.23",
            listen_address=listen,
            join_page=True,
        )
        assert made == JoinLink("https://ndcg.example.edu/join/K7P3QX", "public")
        assert made.server_local is False
