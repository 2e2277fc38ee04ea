"""Issue 46: one client could keep every teacher out by starting rooms (83 from one address, then the server's 100
open rooms refused teachers). Now a client may start ``rooms_per_client_hour`` rooms an hour, a room nobody joins
expires after ``empty_room_minutes`` (from its start or its teacher's last action) and so stops counting toward
``max_open_rooms``, and a server can ask a lecturer's passphrase. On SQLite and on PostgreSQL; the client's address
behind trusted proxies (``ndcg_core.classroom.clients``)."""

import ipaddress

import pytest
from storage_support import HOUR, T0, fields, predict, sid

from ndcg_core.classroom import clients, rules
from ndcg_core.classroom.storage import Classroom
from support import error_of

MINUTE = 60.0


def test_a_client_starts_at_most_its_rooms_an_hour_and_others_still_can(make, clock):
    limits = rules.Limits()
    s = make()
    for _ in range(limits.rooms_per_client_hour):
        s.rooms.create(source="203.0.113.5")
    error = error_of(s.rooms.create, source="203.0.113.5")
    # The earliest of them leaves the hour in 60 minutes: "try again in 61 minutes" at most, whole minutes up.
    assert fields(error) == ("room.started_many", {"limit": limits.rooms_per_client_hour, "minutes": 61})
    s.rooms.create(source="198.51.100.7")  # a teacher elsewhere is not refused
    clock.now = T0 + HOUR - 1
    assert error_of(s.rooms.create, source="203.0.113.5").code == "room.started_many"
    clock.now = T0 + HOUR  # the starts are an hour old: the client starts again
    s.rooms.create(source="203.0.113.5")


def test_the_attack_of_issue_46_no_longer_keeps_a_teacher_out(make, clock):
    """83 rooms tried from one address, a minute apart: at most ``rooms_per_client_hour`` an hour are made, and
    those nobody joined expire, so a teacher elsewhere starts a room at every moment."""
    limits = rules.Limits()
    s = make()
    made = 0
    for minute in range(83):
        clock.now = T0 + minute * MINUTE
        try:
            s.rooms.create(source="203.0.113.5")
            made += 1
        except Exception as err:  # noqa: BLE001 - the refusal is checked below
            assert getattr(err, "code", None) == "room.started_many"
        room, key = s.rooms.create(source=f"teacher-{minute}")
        s.rooms.end(room.code, key)  # the teacher's room ends: it counts no more
    assert made <= limits.rooms_per_client_hour * 2  # 83 minutes: two hours' worth at most


def test_an_empty_room_expires_and_stops_counting_toward_the_open_rooms(make, clock):
    s = make(max_open_rooms=2)
    empty, _ = s.rooms.create(source="a")
    joined, _ = s.rooms.create(source="b")
    s.students.join(joined.code, sid(1))
    assert error_of(s.rooms.create, source="c").code == "room.too_many"
    clock.now = T0 + 30 * MINUTE - 1
    assert s.rooms.get(empty.code).code == empty.code
    assert error_of(s.rooms.create, source="c").code == "room.too_many"
    clock.now = T0 + 30 * MINUTE  # nobody joined the first within its 30 minutes: gone, and a new one starts
    assert error_of(s.rooms.get, empty.code).code == "room.unknown"
    s.rooms.create(source="c")
    assert s.rooms.get(joined.code).expires_at == T0 + 12 * HOUR  # a room somebody joined lives its hours


def test_a_teachers_action_keeps_an_empty_room_open_and_a_join_gives_it_its_hours(make, clock):
    s = make()
    room, key = s.rooms.create()
    clock.now = T0 + 20 * MINUTE
    s.rooms.open_activity(room.code, key, predict())
    assert s.rooms.get(room.code).expires_at == T0 + 20 * MINUTE + 30 * MINUTE
    clock.now = T0 + 49 * MINUTE
    s.students.join(room.code, sid(1))
    assert s.rooms.get(room.code).expires_at == T0 + 12 * HOUR
    clock.now = T0 + 12 * HOUR - 1
    assert s.rooms.get(room.code).students == 1


def test_an_empty_room_never_outlives_its_hours(make, clock):
    s = make(room_hours=0.25)  # 15 minutes, less than an empty room's 30
    room, _ = s.rooms.create()
    assert s.rooms.get(room.code).expires_at == T0 + 15 * MINUTE


def test_a_server_with_a_passphrase_starts_rooms_only_for_who_gives_it(url, clock):
    s = Classroom(url, clock=clock, passphrase="lecturers of NDCG")
    try:
        for wrong in (None, "", "lecturers of ndcg", "lecturers of NDCG!", 42):
            assert fields(error_of(s.rooms.create, passphrase=wrong)) == ("room.passphrase", {})
        room, key = s.rooms.create(passphrase=" lecturers of NDCG ")  # spaces around it, as pasted, forgiven
        assert s.rooms.is_teacher(room.code, key)
        assert s.without_retries().rooms.passphrase == "lecturers of NDCG"
    finally:
        s.close()


def test_the_passphrase_setting_and_its_comparison():
    assert clients.teacher_passphrase({}) is None
    assert clients.teacher_passphrase({"NDCG_LAB_TEACHER_PASSPHRASE": "   "}) is None
    assert clients.teacher_passphrase({"NDCG_LAB_TEACHER_PASSPHRASE": " open sesame "}) == "open sesame"
    assert clients.passphrase_matches("anything", None) and clients.passphrase_matches(None, None)
    assert clients.passphrase_matches("open sesame", "open sesame")
    assert not clients.passphrase_matches("open sesam", "open sesame")
    assert not clients.passphrase_matches(b"open sesame", "open sesame")


PROXIES = (ipaddress.ip_network("127.0.0.1/32"), ipaddress.ip_network("10.0.0.0/8"))


@pytest.mark.parametrize(
    "peer, forwarded, address",
    [
        ("198.51.100.7", None, "198.51.100.7"),  # no proxy
        ("198.51.100.7", "1.2.3.4", "198.51.100.7"),  # a client's own header is not believed
        ("127.0.0.1", "203.0.113.5", "203.0.113.5"),  # nginx on the same machine
        ("127.0.0.1", "1.2.3.4, 203.0.113.5", "203.0.113.5"),  # what the client wrote before nginx's is not believed
        ("127.0.0.1", "203.0.113.5, 10.1.2.3", "203.0.113.5"),  # two proxies of ours
        ("127.0.0.1", " , ", "127.0.0.1"),
        ("127.0.0.1", "10.1.2.3", "10.1.2.3"),  # nothing but proxies: the farthest
        ("127.0.0.1", "2001:db8::1", "2001:db8::1"),
        (None, None, "local"),
        (None, "203.0.113.5", "local"),  # no peer: nobody vouches for the header
        ("127.0.0.1", "203.0.113.5, , 10.1.2.3", "203.0.113.5"),  # an empty hop is skipped, not the end
        ("127.0.0.1", "203.0.113.5, unknown", "unknown"),  # what a proxy could not name is no proxy of ours
    ],
)
def test_the_clients_address_is_read_from_x_forwarded_for_only_behind_a_trusted_proxy(peer, forwarded, address):
    assert clients.client_address(peer, forwarded, PROXIES) == address


def test_the_trusted_proxies_setting():
    assert clients.trusted_proxies({}) == ()
    assert clients.trusted_proxies({"NDCG_LAB_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8,,::1"}) == (
        ipaddress.ip_network("127.0.0.1/32"),
        ipaddress.ip_network("10.0.0.0/8"),
        ipaddress.ip_network("::1/128"),
    )
    # A network written with its host's bits (an address and its mask) is that network.
    assert clients.trusted_proxies({"NDCG_LAB_TRUSTED_PROXIES": "10.1.2.3/8"}) == (ipaddress.ip_network("10.0.0.0/8"),)
    error = error_of(clients.trusted_proxies, {"NDCG_LAB_TRUSTED_PROXIES": "127.0.0.1, nginx"})
    assert fields(error) == ("room.proxy_setting", {"name": "NDCG_LAB_TRUSTED_PROXIES", "value": "'nginx'"})


def test_the_new_limits_are_settable_by_the_environment():
    limits = rules.Limits.from_environment(
        {
            "NDCG_LAB_ROOMS_PER_CLIENT_HOUR": "3",
            "NDCG_LAB_EMPTY_ROOM_MINUTES": "10",
            "NDCG_LAB_JOIN_BURST": "50",
            "NDCG_LAB_JOINS_PER_SECOND": "2.5",
            "NDCG_LAB_MAX_JOIN_FAILURES": "100",
        }
    )
    assert (limits.rooms_per_client_hour, limits.empty_room_minutes, limits.join_burst) == (3, 10.0, 50)
    assert (limits.joins_per_second, limits.max_join_failures) == (2.5, 100)


def test_the_settings_are_read_from_the_process_environment_when_none_is_given(monkeypatch):
    monkeypatch.setenv("NDCG_LAB_TRUSTED_PROXIES", "127.0.0.1")
    monkeypatch.setenv("NDCG_LAB_TEACHER_PASSPHRASE", "open sesame")
    assert clients.trusted_proxies() == (ipaddress.ip_network("127.0.0.1/32"),)
    assert clients.teacher_passphrase() == "open sesame"
