"""Who gets in (server/defences/admission.py): no guest can lock the TV or the seated phones out.

The quotas themselves, then a live server (tests/lan_server.py) that counts only 127.0.0.1 and ::1 as the
laptop, attacked by guests whose sockets are bound to 127.0.0.2, 127.0.0.3…: each a device of its own on the
Wi-Fi, all traffic on loopback. Limits are set small and clocks short, so each flood lasts seconds.
"""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from partyrummy.rules.variants import default_variants
from partyrummy.server.defences.admission import GUEST, LOCAL, SEAT, Connections, Quota, SeatAddresses, Sessions
from partyrummy.server.defences.limits import Share

from .live import Client, LiveServer, Refused, guest, lan_server
from .real_helpers import REAL_VARIANTS, phase_is, refused

LAPTOP = "127.0.0.1"


def laptop(address: str) -> bool:
    return address == LAPTOP


# -- The quotas, pure ---------------------------------------------------------


def share(per_address: int, guests: int, local: int, seat_reserve: int = 0, seat_reserves: int = 0) -> Share:
    return Share(per_address, guests, seat_reserve, seat_reserves, local)


def test_guests_cannot_use_up_what_the_laptop_holds() -> None:
    quota = Quota(share(per_address=3, guests=5, local=4), is_local=laptop)
    taken = [quota.take(guest(n)) for n in (1, 1, 1, 1, 2, 2, 2)]
    assert taken == [GUEST, GUEST, GUEST, None, GUEST, GUEST, None]  # 3 an address, 5 for all guests
    assert [quota.take(LAPTOP) for _ in range(5)] == [LOCAL] * 4 + [None]  # the laptop's own four, untouched
    quota.give(guest(1), GUEST)  # a place freed: anyone's, under their own cap; then full again
    assert quota.take(guest(2)) == GUEST and quota.take(guest(3)) is None


def test_a_seats_address_draws_on_its_own_reserve_once_guests_hold_everything() -> None:
    seats = SeatAddresses(per_seat=2, limit=2)
    quota = Quota(share(per_address=2, guests=2, local=1, seat_reserve=2, seat_reserves=3), laptop, seats)
    assert [quota.take(guest(1)) for _ in range(3)] == [GUEST, GUEST, None]  # a stranger holds all guests may
    assert quota.take(guest(2)) is None  # a newcomer: no room
    seats.add("seat-a", guest(2))  # a seat was seen at this address
    assert [quota.take(guest(2)) for _ in range(3)] == [SEAT, SEAT, None]  # its reserve: two, no more
    assert quota.take(guest(3), seated=True) == SEAT  # a seat's token from an address not yet known
    assert quota.take(guest(4), seated=True) is None  # the reserves hold three in all
    quota.give(guest(2), SEAT)
    assert quota.take(guest(4), seated=True) == SEAT
    for token in ("seat-b", "seat-c"):  # the tokens remembered up to the limit, the oldest forgotten first
        seats.add(token, guest(5))
    assert guest(2) not in seats and guest(5) in seats


def test_a_seats_token_brought_from_many_addresses_makes_only_its_last_few_a_seats() -> None:
    seats = SeatAddresses(per_seat=2, limit=10)
    for n in range(10, 60):  # one seat's token, from fifty addresses
        seats.add("mallory", guest(n))
    assert [guest(n) in seats for n in (10, 57, 58, 59)] == [False, False, True, True]
    seats.add("ana", guest(58))  # another seat's phone at one of them
    seats.forget("mallory")  # Mallory's seat released: her token is no key
    assert guest(58) in seats and guest(59) not in seats


def test_a_seats_connections_leave_the_reserve_with_their_seat() -> None:
    connections = Connections(Quota(share(2, 2, 4, seat_reserve=2, seat_reserves=4), laptop))
    assert connections.admit("w1", guest(1)) and connections.admit("w2", guest(1))  # the guests' share, full
    assert connections.admit("a", guest(2), seated=True) and connections.admit("b", guest(3), seated=True)
    assert connections.oldest({"b", "a"}) == "a"
    assert not connections.unseated("a")  # its seat released, and no guest's place for it: it must go
    assert connections.address_of("a") is None
    connections.forget("w1")
    assert connections.unseated("b") and connections.address["b"] == (guest(3), GUEST)  # a watcher now
    assert connections.admit("c", guest(4), seated=True)  # the reserve it held is a seat's again


def test_a_session_that_never_connects_is_overdue_and_one_that_connects_is_not() -> None:
    now = [0.0]
    sessions = Sessions(Quota(share(2, 10, 10), laptop), connect_s=5, clock=lambda: now[0])
    assert sessions.open("a", guest(1)) and sessions.open("b", guest(1))
    assert not sessions.open("c", guest(1))  # two an address, connected or not
    assert sessions.opened_by("a") == guest(1) and sessions.opened_by("nope") is None
    sessions.connected("a")
    now[0] = 5.0
    assert sessions.overdue() == ["b"]
    sessions.close("b")
    assert sessions.open("c", guest(1))  # its place is free again
    sessions.idle("a")  # its connection ended, the session lives on: it must connect again in time
    now[0] = 10.0
    assert set(sessions.overdue()) == {"a", "c"}


def test_a_seated_connection_gets_in_when_guests_hold_every_connection() -> None:
    connections = Connections(Quota(share(3, 4, 4, seat_reserve=1, seat_reserves=2), laptop))
    for n, address in enumerate((guest(1), guest(1), guest(1), guest(2))):
        assert connections.admit(f"w{n}", address)
    assert not connections.admit("w4", guest(3))  # full: a watcher waits
    assert connections.admit("tv", LAPTOP, seated=True)  # the laptop has its own room
    assert connections.admit("seat-a", guest(4), seated=True)  # a seat's token: the reserve
    assert not connections.admit("seat-a2", guest(4), seated=True)  # one each
    connections.forget("seat-a")
    assert connections.admit("seat-a", guest(4), seated=True)  # given back, taken again


# -- A live server, attacked from several addresses --------------------------------------------------


@contextmanager
def clients_of(server: LiveServer, kill: bool = False) -> Iterator[list[Client]]:
    """A list for the clients a test opens on `server`: each closed at the end, then the server stopped (`kill`:
    killed, as a crash would, for a restart on its journal)."""
    clients: list[Client] = []
    try:
        yield clients
    finally:
        for client in clients:
            client.close()
        if kill:
            server.kill()
        else:
            server.stop()


def handshake(server: LiveServer, source: str) -> str | None:
    """A bare Engine.IO session (long-polling handshake) from `source`, never connected: its sid, or None if refused."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(source, 0))
    try:
        conn.request("GET", "/socket.io/?EIO=4&transport=polling")
        response = conn.getresponse()
        body = response.read().decode()
    finally:
        conn.close()
    if response.status != 200:
        return None
    return json.loads(body[1:])["sid"]  # "0{...}": the open packet


def alive(server: LiveServer, source: str, sid: str) -> bool:
    """Whether a session is still open: a pong posted to it is taken (a closed one is unknown to the server)."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(source, 0))
    try:
        conn.request("POST", f"/socket.io/?EIO=4&transport=polling&sid={sid}", body=b"3")
        return conn.getresponse().status == 200
    finally:
        conn.close()


@pytest.mark.slow
def test_bare_sessions_from_one_address_hold_at_most_its_cap_and_the_tv_and_a_phone_still_get_in() -> None:
    cap = 6
    server = lan_server({"LIMITS": {"sessions": {"per_address": cap, "guests": 8}, "connect_s": 1.0}})
    with clients_of(server) as clients:
        attacker = guest(1)
        held: list[str] = []
        most = opened = 0
        first: str | None = None
        end = time.monotonic() + 5
        while time.monotonic() < end:  # handshakes as fast as the server takes them, never a CONNECT
            sid = handshake(server, attacker)
            if sid is not None:
                opened += 1
                first = first or sid
                held.append(sid)
            held = [s for s in held if alive(server, attacker, s)]  # a pong keeps each alive, if it still is
            most = max(most, len(held))
            if opened and len(clients) == 0:  # mid-flood: the TV and a new phone, from their own addresses
                code, token = server.tv_page()
                clients.append(Client(server.url, code, role="host", token=token))
                clients.append(Client(server.url, code, source=guest(2)))
                assert clients[-1].join("Ana")["ok"]
        assert most <= cap, most  # never more than its cap at once
        assert opened > cap  # sessions that never connected were closed, and their places reused
        assert not alive(server, attacker, first)
        # Still in, after the flood: the TV again, and another phone.
        code, token = server.tv_page()
        clients.append(Client(server.url, code, role="host", token=token))
        clients.append(Client(server.url, code, source=guest(3)))
        assert clients[-1].join("Bob")["ok"]


def test_seven_addresses_at_their_caps_leave_the_tv_and_a_returning_seated_phone_their_way_in() -> None:
    per_address, total = 4, 24  # seven guest addresses at their caps would hold 28
    server = lan_server({"LIMITS": {"connections": {"per_address": per_address, "guests": total}}})
    watchers: list[Client] = []
    others: list[Client] = []
    try:
        code, token = server.tv_page()
        tv = Client(server.url, code, role="host", token=token)
        others.append(tv)
        ana = Client(server.url, code, source=guest(9))
        others.append(ana)
        assert ana.join("Ana")["ok"]
        seat_token = ana.token
        ana.close()
        for n in range(1, 8):
            for _ in range(per_address):
                try:
                    watchers.append(Client(server.url, code, source=guest(n)))
                except Exception:  # noqa: BLE001  the guests' total is met: refused
                    break
        assert len(watchers) == total - 0  # every place guests may hold is held (Ana's went when she left)
        with pytest.raises(Refused) as refusal:
            others.append(Client(server.url, code, source=guest(8)))  # a newcomer: no room
        assert refusal.value.code == "too_many"
        others.append(Client(server.url, code, role="host", token=token))  # the TV: always
        back = Client(server.url, code, token=seat_token, source=guest(9))  # Ana's phone, back with her token
        others.append(back)
        assert back.state["room"]["you"]["seat"] == 0 and back.state["room"]["you"]["role"] == "player"
        assert all(w.sio.connected for w in watchers)  # from the seats' reserve: nobody was pushed out for her
    finally:
        for client in watchers + others:
            client.close()
        server.stop()


def play_hand_one(tv: Client, ana: Client, bob: Client) -> None:
    """Real cards, hand 1 to scored: Ana matches; Ana 0, Bob 10, Grandma (seat 2, the TV answers) 7."""
    assert tv.call("call_now") == {"ok": True}  # cards are dealt: Draw!
    tv.wait_for(phase_is("ready"))
    for client in (ana, bob):  # Grandma, without a phone, is Ready at each "Draw!" by herself
        assert client.call("ready", {}) == {"ok": True}
    tv.wait_for(phase_is("reveal"))
    assert ana.call("match") == {"ok": True}
    tv.wait_for(phase_is("last_ready"))
    assert bob.call("ready", {}) == {"ok": True}
    tv.wait_for(phase_is("entry"))
    for client, points, extra in ((ana, 0, {}), (bob, 10, {}), (tv, 7, {"seat": 2})):
        assert client.call("points", {"points": points, **extra}) == {"ok": True}
    tv.wait_for(phase_is("scored"))


def vip_seat(state: dict) -> int | None:
    return next((row["seat"] for row in state["room"]["seats"] if row["vip"]), None)


@pytest.mark.slow
def test_claiming_a_phoneless_seat_never_hands_over_the_vips_controls_even_after_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "rooms.sqlite3"
    server = lan_server({}, "--variants", str(REAL_VARIANTS), data=data)
    with clients_of(server, kill=True) as clients:
        code, token = server.tv_page()
        tv = Client(server.url, code, role="host", token=token)
        clients.append(tv)
        assert tv.call("mode", {"mode": "real"})["ok"] and tv.call("variant", {"name": "realparty"})["ok"]
        assert tv.call("add_person", {"name": "Grandma"}) == {"ok": True, "seat": 0}  # before anyone joins
        ana, bob = Client(server.url, code, source=guest(1)), Client(server.url, code, source=guest(2))
        clients += [ana, bob]
        assert ana.join("Ana")["ok"] and bob.join("Bob")["ok"]
        assert tv.call("move", {"seat": 0, "to": 2})["ok"]  # Ana 0, Bob 1, Grandma 2
        assert tv.call("start")["ok"]
        play_hand_one(tv, ana, bob)
        assert vip_seat(tv.state) == 0
        ticket = tv.call("rejoin_code", {"seat": 2})["url"].split("#claim=")[1]
        claimer = Client(server.url, code, source=guest(3))
        clients.append(claimer)
        assert claimer.call("claim", {"ticket": ticket})["ok"]
        state = claimer.wait_for(lambda s: s["room"]["you"]["seat"] == 2)
        assert not state["room"]["you"]["controls"] and vip_seat(state) == 0
        assert refused(claimer.call("correct", {"hand": 1, "seat": 0, "points": 30}), "refused")
        assert refused(claimer.call("pause", {"paused": True}), "refused")
        assert ana.call("pause", {"paused": True}) == {"ok": True}  # Ana still runs the evening
        assert ana.call("pause", {"paused": False}) == {"ok": True}
        assert tv.sync()["state"]["game"]["sheet"][0][0]["points"] == 0  # her hand 1 untouched
    # After a restart the VIP order is the journal's: still Ana.
    again = lan_server({}, "--variants", str(REAL_VARIANTS), data=data)
    try:
        tv = Client(again.url, code, role="host", token=token)
        assert vip_seat(tv.state) == 0
        tv.close()
    finally:
        again.stop()


def test_a_locked_room_lets_in_the_tv_seated_phones_and_ticket_holders_only() -> None:
    server = lan_server({})
    with clients_of(server) as clients:
        code, token = server.tv_page()
        tv = Client(server.url, code, role="host", token=token)
        ana, bob = Client(server.url, code, source=guest(1)), Client(server.url, code, source=guest(2))
        clients += [tv, ana, bob]
        assert ana.join("Ana")["ok"] and bob.join("Bob")["ok"]
        watcher = Client(server.url, code, source=guest(3))  # here before the lock: may watch, not join
        clients.append(watcher)
        assert refused(ana.call("lock", {"locked": True}), "refused")  # the host's switch, not the VIP's
        assert tv.call("lock", {"locked": True}) == {"ok": True}
        state = tv.wait_for(lambda s: s["room"]["locked"])
        assert not state["room"]["can_join"]
        assert refused(watcher.call("join", {"name": "Mallory"}), "refused", "locked")
        for n in (4, 5):  # a new phone, a would-be watcher: told plainly
            with pytest.raises(Refused) as refusal:
                clients.append(Client(server.url, code, source=guest(n), lang="en"))
            assert refusal.value.code == "locked"
            assert "locked" in refusal.value.message and "host" in refusal.value.message
        # Bob's phone drops and comes back with his token.
        bob_token = bob.token
        bob.close()
        back = Client(server.url, code, token=bob_token, source=guest(2))
        clients.append(back)
        assert back.state["room"]["you"]["seat"] == 1
        # A rejoin ticket the TV shows lets its holder in, once.
        ticket = tv.call("rejoin_code", {"seat": 0})["url"].split("#claim=")[1]
        holder = Client(server.url, code, source=guest(6), ticket=ticket)
        clients.append(holder)
        assert holder.call("claim", {"ticket": ticket})["ok"]
        assert tv.call("lock", {"locked": False}) == {"ok": True}
        late = Client(server.url, code, source=guest(7))
        clients.append(late)
        assert late.join("Carla")["ok"]


def test_the_lock_holds_however_a_guest_tries_it() -> None:
    """A stale watcher, a rejoin ticket used twice, a released seat's old token, the bots' path: only the TV, the
    seats' phones and a ticket's one holder get in."""
    from partyrummy.client.remote_bots import BotsError, seat_bots

    server = lan_server({})
    with clients_of(server) as clients:

        def locked_out(**kwargs) -> None:
            with pytest.raises(Refused) as refusal:
                clients.append(Client(server.url, code, lang="en", **kwargs))
            assert refusal.value.code == "locked", refusal.value

        code, token = server.tv_page()
        tv = Client(server.url, code, role="host", token=token)
        ana, bob = Client(server.url, code, source=guest(1)), Client(server.url, code, source=guest(2))
        watcher = Client(server.url, code, source=guest(3))
        clients += [tv, ana, bob, watcher]
        assert ana.join("Ana")["ok"] and bob.join("Bob")["ok"]
        assert tv.call("variant", {"name": "fast"})["ok"] and tv.call("start")["ok"]
        assert tv.call("lock", {"locked": True}) == {"ok": True}
        # The watcher from before the lock may watch, no more; once it drops it is a stranger.
        assert refused(watcher.call("join", {"name": "Mallory"}), "refused", "locked")
        assert refused(watcher.call("take", {"seat": 0, "name": "Mallory"}), "refused", "locked")
        assert refused(watcher.call("claim", {"ticket": "guessed"}), "refused")
        watcher.close()
        locked_out(source=guest(3))
        # A ticket lets in one device, once: not a second while the first holds it, nobody after it is claimed.
        ticket = tv.call("rejoin_code", {"seat": 0})["url"].split("#claim=")[1]
        holder = Client(server.url, code, source=guest(4), ticket=ticket)
        clients.append(holder)
        locked_out(source=guest(5), ticket=ticket)
        assert holder.call("claim", {"ticket": ticket})["ok"]
        locked_out(source=guest(5), ticket=ticket)
        ana_token = ana.token  # Ana's phone: its seat was claimed by the ticket's holder, its token is no key now
        ana.close()
        locked_out(source=guest(1), token=ana_token)
        # A released seat: its old phone is a stranger, and nobody takes the seat while the room is locked.
        bob_token = bob.token
        assert tv.call("release", {"seat": 1})["ok"]
        bob.close()
        locked_out(source=guest(2), token=bob_token)
        # The bots' path (from the laptop itself): they would join as guests, and are told why not.
        with pytest.raises(BotsError, match="locked"):
            seat_bots(server.url, code, 1, "easy", {})
        assert tv.call("add_bot", {"strength": "easy"})["ok"]  # the TV may still seat one
        assert tv.sync()["state"]["room"]["locked"]


def test_the_server_holds_a_bounded_number_of_rooms(tmp_path) -> None:
    """The cap on rooms in memory: the longest-asleep let go for a new one (back from the journal on its code);
    when every room held is awake, a new one is refused in plain words."""
    from partyrummy.server.room.room import Refused
    from partyrummy.server.room.rooms import Rooms
    from partyrummy.server.storage.journal import Journal

    journal = Journal(tmp_path / "rooms.sqlite3", holder="test")
    started: list[str] = []
    rooms = Rooms(
        default_variants(),
        lambda *a: None,
        lambda room: started.append(room.code),
        journal=journal,
        limit=3,
    )
    try:
        first, second, third = rooms.create(), rooms.create(), rooms.create()
        with pytest.raises(Refused) as full:
            rooms.create()  # all three awake
        assert full.value.key == "error.too_many_rooms"
        for room in (first, second):
            room.asked = 0.0
            assert rooms.sleep(room)  # nobody connected: asleep
        fourth = rooms.create()
        assert first.code not in rooms.by_code and second.code in rooms.by_code  # the longest asleep went
        assert len(rooms.by_code) == 3
        second.asked = 0.0
        assert rooms.sleep(fourth) is True
        back = rooms.get(first.code)  # woken from the journal on its code, in place of another asleep one
        assert back is not None and back.code == first.code and len(rooms.by_code) == 3
        assert third.code in rooms.by_code  # awake rooms are never let go
    finally:
        journal.close()
