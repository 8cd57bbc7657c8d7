"""Attacks on a live server, as a guest on the Wi-Fi would make them.

The server is `partyrummy` started through tests/lan_server.py, which takes a request's peer address from
its X-Test-Peer header: every request goes to 127.0.0.1, and the server sees 192.168.x.y.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from .live import Client, LiveServer, join_all, phase
from .raw import RawSocket

LAN = [sys.executable, "-m", "tests.lan_server"]
HOST_ONLY = {  # every host control, with a payload the TV could send
    "start": {},
    "call_now": {},
    "pause": {"paused": True},
    "remove": {"seat": 1},
    "release": {"seat": 1},
    "rejoin_code": {"seat": 1},
    "add_bot": {"strength": "easy"},
    "bot_seat": {"seat": 1, "strength": "easy"},
    "move": {"seat": 1, "to": 2},
    "variant": {"name": "fast"},
    "allow_bot_takeover": {"allow": True},
}
VIP_MAY = {"start", "call_now", "pause"}

pytestmark = pytest.mark.server(command=LAN)  # the module's live server: tests/lan_server.py


def lan(n: int) -> dict[str, str]:
    """Headers that make a request come from a phone on the LAN (one address per n)."""
    return {"X-Test-Peer": f"192.168.1.{n}"}


def request(server: LiveServer, path: str, method: str = "GET", headers: dict | None = None, data: bytes | None = None):
    """(status, headers, body) of one HTTP request, errors included."""
    req = urllib.request.Request(server.url + path, method=method, headers=headers or {}, data=data)
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers, error.read().decode()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def fresh_room(server: LiveServer, variant: str = "fast3") -> Client:
    """A new room made as the TV makes it (a POST from this laptop), and its host connected."""
    opener = urllib.request.build_opener(NoRedirect)
    req = urllib.request.Request(server.url + "/new", method="POST", headers={"Origin": server.url})
    with pytest.raises(urllib.error.HTTPError) as moved:  # the redirect back to the TV page
        opener.open(req, timeout=10)
    moved.value.close()
    assert moved.value.code in (302, 303)
    code, token = server.tv_page()
    host = Client(server.url, code, role="host", token=token)
    assert host.call("variant", {"name": variant})["ok"]
    return host


def test_a_guest_who_takes_a_bots_seat_never_gets_the_vips_controls(server) -> None:
    host = fresh_room(server)
    assert host.call("add_bot", {"strength": "easy"})["ok"]  # the bot joined before any person
    alice, bob = Client(server.url, host.room, headers=lan(10)), Client(server.url, host.room, headers=lan(11))
    assert alice.join("Alice")["ok"] and bob.join("Bob")["ok"]
    assert host.call("start")["ok"]
    guest = Client(server.url, host.room, headers=lan(12))
    assert not guest.state["room"]["allow_bot_takeover"]
    assert guest.call("take", {"seat": 0, "name": "Mallory"})["error"]["code"] == "refused"  # not allowed yet
    assert alice.call("allow_bot_takeover", {"allow": True})["error"]["code"] == "refused"  # the VIP may not
    assert host.call("allow_bot_takeover", {"allow": True})["ok"]
    assert guest.call("take", {"seat": 0, "name": "Mallory"})["ok"]
    state = guest.wait_for(lambda s: s["room"]["you"]["seat"] == 0)
    assert not state["room"]["you"]["controls"] and [s["vip"] for s in state["room"]["seats"]] == [False, True, False]
    for event, payload in HOST_ONLY.items():
        assert guest.call(event, payload)["error"]["code"] == "refused", event
    # The VIP goes: the next person by when they sat down is Bob, not the newcomer in the bot's old seat.
    assert host.call("remove", {"seat": 1})["ok"]
    state = guest.wait_for(lambda s: len(s["room"]["seats"]) == 2)
    assert [s["vip"] for s in state["room"]["seats"]] == [False, True]
    assert not state["room"]["you"]["controls"]
    for client in (host, alice, bob, guest):
        client.close()


def test_the_vip_phone_runs_the_evening_and_nothing_else_and_no_phone_sees_a_ticket(server) -> None:
    host = fresh_room(server)
    phones = [Client(server.url, host.room, headers=lan(20 + i)) for i in range(3)]
    join_all(phones)
    vip = phones[0]
    assert vip.state["room"]["you"]["controls"]
    for event, payload in HOST_ONLY.items():
        if event not in VIP_MAY:
            ack = vip.call(event, payload)
            assert ack["error"]["code"] == "refused" and ack["error"]["message"], event
    assert vip.call("start")["ok"]
    vip.wait_for(lambda s: phase(s) == "draw")
    assert vip.call("pause", {"paused": True})["ok"] and vip.call("pause", {"paused": False})["ok"]
    assert vip.call("call_now")["ok"]
    ticket = host.call("rejoin_code", {"seat": 1})["url"].split("#claim=")[1]
    assert host.call("rejoin_code", {"seat": 0})["ok"]
    version = host.sync()["state"]["v"]
    for phone in phones:
        phone.wait_for(lambda s: s["v"] >= version)
        heard = json.dumps(phone.messages)
        assert ticket not in heard and "claim=" not in heard
        seat = phone.state["room"]["you"]["seat"]
        for data in phone.views:  # each phone holds its own hand only (whole views and those updates made)
            if data["game"] and data["game"]["you"]:
                assert data["game"]["you"]["seat"] == seat
    # A ticket is used once; used again it has expired, and one never issued says it does not exist.
    borrowed = Client(server.url, host.room, headers=lan(23))
    assert borrowed.call("claim", {"ticket": ticket})["ok"]
    again = borrowed.call("claim", {"ticket": ticket})["error"]["message"]
    never = borrowed.call("claim", {"ticket": "never-issued"})["error"]["message"]
    assert "expired" in again and "does not exist" in never
    for client in (host, *phones, borrowed):
        client.close()


def test_a_foreign_host_name_gets_no_tv_page_and_rooms_are_made_by_post_from_the_tv(server) -> None:
    port = server.port
    status, headers, body = request(server, "/", headers={"Host": f"evil.example:{port}"})
    assert status == 421 and "data-host-token" not in body
    status, _, _ = request(server, "/socket.io/?EIO=4&transport=polling", headers={"Host": f"evil.example:{port}"})
    assert status == 421
    for name in (f"127.0.0.1:{port}", f"localhost:{port}"):
        status, headers, body = request(server, "/", headers={"Host": name})
        assert status == 200 and "data-host-token" in body
    assert headers["Permissions-Policy"].startswith("camera=()")
    assert request(server, "/new")[0] == 405  # no room from a link or an <img>
    assert request(server, "/new", "POST", {"Origin": "http://evil.example"})[0] == 403
    assert request(server, "/new", "POST", lan(30))[0] == 403  # a guest is not the TV
    before = server.tv_page()[0]
    fresh_room(server).close()
    assert server.tv_page()[0] != before


def test_room_codes_cannot_be_listed_over_http(server) -> None:
    statuses = [request(server, f"/join/{code}", headers=lan(40))[0] for code in ("WXYZ", "AAAA") * 8]
    assert statuses[:12] == [404] * 12 and set(statuses[12:]) == {429}
    assert request(server, "/room/WXYZ/scores.csv", headers=lan(40))[0] == 429
    assert {request(server, "/join/WXYZ")[0] for _ in range(20)} == {404}  # the laptop itself is not limited


def test_names_are_read_as_people_read_them(server) -> None:
    host = fresh_room(server)
    alice = Client(server.url, host.room, headers=lan(50))
    assert alice.join("Alice")["ok"]
    guest = Client(server.url, host.room, headers=lan(51))
    for name, code in [
        ("\u0410lice", "refused"),  # a Cyrillic А
        ("ALICE", "refused"),
        ("A\u200blice", "bad_command"),  # an invisible space
        ("Eve\u202e", "bad_command"),  # a right-to-left override
        ("\ud800Eve", "bad_command"),  # a lone surrogate
        ("\u0301\u0301", "bad_command"),  # nothing but accents
    ]:
        assert guest.call("join", {"name": name})["error"]["code"] == code, name
    assert guest.join("\uff22\uff4f\uff42")["ok"]  # full-width letters: Bob
    assert guest.wait_for(lambda s: len(s["room"]["seats"]) == 2)["room"]["seats"][1]["name"] == "Bob"
    for client in (host, alice, guest):
        client.close()


def round_trips(client: Client, n: int) -> list[float]:
    """n sync round trips, paced at 8 a second (a phone's own rate limit is 10)."""
    times = []
    for _ in range(n):
        start = time.perf_counter()
        assert client.call("sync")["ok"]
        times.append(time.perf_counter() - start)
        time.sleep(0.125)  # pacing, not waiting for anything
    return times


def threads_of(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"Threads:\s+(\d+)", status).group(1))


@pytest.mark.slow
def test_a_flood_from_a_lan_address_leaves_the_other_phones_round_trip_within_twice_idle(server) -> None:
    host = fresh_room(server)
    phone = Client(server.url, host.room, headers=lan(60))
    assert phone.join("Pat")["ok"]
    round_trips(phone, 5)  # warm up
    idle = statistics.median(round_trips(phone, 40))
    # 40 connections from one guest's address, each sending as fast as it can, and back when cut off.
    flood = subprocess.Popen(
        [sys.executable, "-m", "tests.raw", server.url, host.room, "192.168.1.61", "40", "8"],
        stdout=subprocess.PIPE,
        text=True,
    )
    connected, refused = map(int, re.findall(r"\d+", flood.stdout.readline()))  # the flood is on
    busy = statistics.median(round_trips(phone, 40))
    threads = threads_of(server.proc.pid)
    cut = flood.stdout.readline()
    flood.wait(30)
    flood.stdout.close()
    print(f"round trip median: idle {idle * 1000:.2f} ms, flooded {busy * 1000:.2f} ms; server threads {threads}")
    print(f"flood: {connected} connected at first, {refused} refused; {cut.strip()}")
    assert connected <= 16 and refused >= 24  # an address connects 12 at once, then one every 2 s
    # Within twice idle; at ~2.5 ms a scheduler hiccup is a millisecond or more, so 5 ms of slack (the
    # old code's 12 ms against 2.4 ms idle fails this all the same).
    assert busy <= 2 * idle + 0.005
    assert threads < 80  # a thread or two per connection, none per event
    assert phone.call("sync")["ok"]
    host.close()
    phone.close()


def test_oversized_polling_posts_hold_nothing_even_with_256_files_and_connections_are_capped(monkeypatch) -> None:
    monkeypatch.setenv("PARTYRUMMY_TEST_NOFILE", "256")
    monkeypatch.setenv("PARTYRUMMY_TEST_CONFIG", '{"LIMITS": {"connections": {"per_address": 5}}}')
    server = LiveServer(command=LAN)
    try:
        # One guest's address holds at most its cap of connections; the laptop's own are not counted.
        tv = Client(server.url, server.tv_page()[0], role="host", token=server.tv_page()[1])
        sockets, refusals = [], []
        for _ in range(8):
            try:
                sockets.append(RawSocket(server.url, tv.room, "192.168.1.72"))
            except ConnectionError as error:
                refusals.append(str(error))
        assert len(sockets) == 5 and len(refusals) == 3 and all('"too_many"' in r for r in refusals)
        assert sockets[0].ask('["sync"]')["ok"]
        sockets.pop().close()
        sockets.append(RawSocket(server.url, tv.room, "192.168.1.72"))  # one closed: one may come
        for sock in sockets:
            sock.close()
        tv.close()

        status, _, body = request(server, "/socket.io/?EIO=4&transport=polling", headers=lan(70))
        sid = json.loads(body[1:])["sid"]
        big = b"4" + b"x" * 200_000
        path = f"/socket.io/?EIO=4&transport=polling&sid={sid}"

        def post(_: int) -> int:
            return request(server, path, "POST", {**lan(70), "Content-Type": "text/plain"}, big)[0]

        with ThreadPoolExecutor(16) as pool:
            statuses = list(pool.map(post, range(300)))
        assert set(statuses) == {413}
        assert request(server, "/")[0] == 200  # the laptop's TV still answers at once
        files = len(os.listdir(f"/proc/{server.proc.pid}/fd"))
        assert files < 64, files
        # Bare handshakes from one address: a burst, then refused, with no session made.
        handshakes = [request(server, "/socket.io/?EIO=4&transport=polling", headers=lan(71))[0] for _ in range(40)]
        assert handshakes.count(200) <= 25 and 429 in handshakes
    finally:
        server.stop()


@pytest.mark.slow
def test_a_connection_that_never_sends_a_request_is_closed_and_the_tv_still_answers(server) -> None:
    import socket

    from partyrummy.server.defences.limits import LIMITS

    HEAD_TIMEOUT_S = LIMITS.head_s

    silent = [socket.create_connection(("127.0.0.1", server.port), timeout=HEAD_TIMEOUT_S + 10) for _ in range(20)]
    trickle = socket.create_connection(("127.0.0.1", server.port), timeout=HEAD_TIMEOUT_S + 10)
    trickle.sendall(b"GET / HTTP/1.1\r\n")  # a head begun and never finished
    assert request(server, "/")[0] == 200  # the laptop's TV answers meanwhile
    started = time.monotonic()
    for sock in [*silent, trickle]:
        assert sock.recv(1) == b""  # closed by the server (a timeout here would raise instead)
        sock.close()
    assert time.monotonic() - started < HEAD_TIMEOUT_S + 5
