"""No guest can stop the party, with Socket.IO itself: a guest's script on many WebSockets from many addresses of its
own (tests/flood.py, a process of its own) asks for the whole view and never reads, fills the audience, brings a
seat's token from everywhere, or floods the audience's picks; what the party sees meanwhile is measured.

The server is tests/lan_server.py, which counts only 127.0.0.1 as the laptop: the TV is on it; the seated phones
(127.0.0.2 and up) and the attacker (127.0.0.20 and up) are guests with addresses of their own.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from partyrummy.server.defences.limits import LIMITS

from .live import Client, LiveServer, Refused, guest, lan_server

pytestmark = pytest.mark.slow  # each attack held for seconds on a server of its own
ROOT = Path(__file__).resolve().parent.parent
ATTACK_S = 12.0
TIMEOUT_S = 10.0


def attackers(n: int, first: int = 20) -> list[str]:
    return [f"127.0.0.{first + i}" for i in range(n)]


@contextmanager
def flood(server: LiveServer, attack: str, sources: list[str], room: str, *options: str) -> Iterator[dict]:
    """tests/flood.py running `attack` for ATTACK_S; the dict it reports fills in as the block ends."""
    command = [sys.executable, "-m", "tests.flood", attack, server.url, str(ATTACK_S), *sources, "--room", room]
    process = subprocess.Popen([*command, *options], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    said: dict = {}
    try:
        assert process.stdout.readline().strip() == "on"
        yield said
        said.update(json.loads(process.stdout.readline()))
    finally:
        process.kill()
        process.wait(10)
        process.stdout.close()


class RoundTrips:
    """A connection asking for its whole view every `every` seconds until stopped: each round trip (a call not
    answered in TIMEOUT_S counts as that long)."""

    def __init__(self, client: Client, every: float) -> None:
        self.client, self.every = client, every
        self.times: list[float] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.wait(self.every):
            began = time.monotonic()
            try:
                ok = self.client.sio.call("sync", {}, timeout=TIMEOUT_S)["ok"]
            except Exception:  # noqa: BLE001  not answered in time, or the connection dropped
                ok = False
            self.times.append(time.monotonic() - began if ok else TIMEOUT_S)

    def end(self) -> list[float]:
        self.stop.set()
        self.thread.join(TIMEOUT_S + 5)
        return self.times


def p95(times: list[float]) -> float:
    return sorted(times)[int(0.95 * (len(times) - 1))]


def back_in(server: LiveServer, code: str, token: str, source: str) -> float:
    """A seated phone that dropped connects again with its token: seconds until it holds its seat's view."""
    began = time.monotonic()
    while True:
        try:
            phone = Client(server.url, code, token=token, source=source)
            break
        except Refused:
            assert time.monotonic() - began < TIMEOUT_S, "the seated phone was kept out"
            time.sleep(0.25)  # a phone tries again
    took = time.monotonic() - began
    assert phone.state["room"]["you"]["role"] == "player"
    phone.close()
    return took


def lobby(server: LiveServer, bots: int) -> tuple[str, str, Client]:
    """The TV's room with `bots` bots seated: its code, the host's token, and the TV's link."""
    code, token = server.tv_page()
    tv = Client(server.url, code, role="host", token=token)
    for _ in range(bots):
        assert tv.call("add_bot", {"strength": "easy"})["ok"]
    return code, token, tv


def dealt_table(server: LiveServer, phones: int, seats: int = 12) -> tuple[str, Client, list[Client]]:
    """The TV's room with `phones` seated phones (guests 1, 2, …) and bots up to `seats`, its first hand dealt at
    the party's own pace (views as large as they get)."""
    code, _, tv = lobby(server, bots=seats - phones)
    seated = [Client(server.url, code, source=guest(n + 1)) for n in range(phones)]
    for n, phone in enumerate(seated):
        assert phone.join(f"Phone {n + 1}")["ok"]
    assert tv.call("start")["ok"]
    tv.wait_for(lambda s: s.get("game") is not None and s["game"]["hand_no"] == 1)
    return code, tv, seated


def test_busy_sockets_that_never_read_keep_nobody_waiting_and_are_dropped() -> None:
    """228 WebSockets from 19 addresses ask for the whole view 9 times a second each and never read: the TV's and
    the seats' round trips stay short, a seated phone that drops is back at once, and the connections that never
    read are dropped (their window kept small, and the server's clock for an unread frame short, to see it soon)."""
    server = lan_server({"LIMITS": {"send_s": 2.0, "send_buffer": 16_384}})
    clients: list[Client] = []
    try:
        code, tv, phones = dealt_table(server, 4)
        clients += [tv, *phones]
        dropping = phones.pop()
        dropping.close()
        askers = [RoundTrips(tv, 0.25)] + [RoundTrips(phone, 0.5) for phone in phones]
        returns = []
        with flood(server, "busy", attackers(19), code, "--per-address", "12", "--rcvbuf", "4096") as report:
            end = time.monotonic() + ATTACK_S
            while time.monotonic() < end - 3:
                time.sleep(2)
                returns.append(back_in(server, code, dropping.token, guest(4)))
        times = [asker.end() for asker in askers]
        print(f"attacker: {report}; TV p95 {p95(times[0]):.3f} s, phones' p95 {[round(p95(t), 3) for t in times[1:]]}")
        print(f"a seated phone back in {[round(r, 3) for r in returns]} s")
        assert report["opened"] >= 200 and report["sent"] > 10 * report["opened"]  # the flood was on
        for asker in times:
            assert len(asker) >= 10 and p95(asker) < 1.0 and max(asker) < 3.0
        assert returns and max(returns) < 3.0
        assert report["dropped"] > 0 and report["first_dropped_after"] < ATTACK_S  # what never reads is let go
    finally:
        for client in clients:
            client.close()
        server.stop()


def test_one_device_brings_four_to_the_audience_and_the_host_takes_them_out_for_good(tmp_path: Path) -> None:
    server = lan_server({}, data=tmp_path / "rooms.sqlite3")
    clients: list[Client] = []
    try:
        code, token, tv = lobby(server, bots=2)
        clients.append(tv)
        with flood(server, "crowd", attackers(1), code) as report:
            time.sleep(5)
        print(f"one device joining the audience: {report}")
        assert report["joined"] == LIMITS.audience_per_device
        assert report["answers"].get("refused", 0) > 0  # a member already on that connection, or the device's four
        roster = tv.wait_for(lambda s: len(s["room"].get("audience_roster") or []) == 4)["room"]["audience_roster"]
        assert all(m["together"] == 3 for m in roster)
        # A real newcomer, from a phone of her own, joins.
        zoe = Client(server.url, code, role="audience", source=guest(1))
        clients.append(zoe)
        assert zoe.call("audience_join", {"name": "Zoe"})["ok"]
        # The host takes the script's four out at once, from any one of them.
        ack = tv.call("audience_remove", {"member": roster[0]["member"], "together": True})
        assert ack == {"ok": True, "removed": 4}
        left = tv.wait_for(lambda s: s["room"]["audience"]["members"] == 1)
        assert [m["name"] for m in left["room"]["audience_roster"]] == ["Zoe"]
        assert tv.call("audience_remove", {"member": roster[0]["member"]})["error"]["code"] == "refused"  # gone
        assert zoe.call("audience_remove", {"member": 0})["error"]["code"] == "refused"  # the host's alone
        # The device that brought them brings no more; a restart keeps all of it.
        with flood(server, "crowd", attackers(1), code) as report:
            time.sleep(2)
        assert report["joined"] == 0 and report["answers"].get("refused", 0) > 0, report
        for client in clients:
            client.close()
        clients.clear()
        server.kill()
        server = lan_server({}, data=tmp_path / "rooms.sqlite3")
        tv = Client(server.url, code, role="host", token=token)
        clients.append(tv)
        assert [m["name"] for m in tv.state["room"]["audience_roster"]] == ["Zoe"]
        assert tv.state["room"]["audience"]["members"] == 1
    finally:
        for client in clients:
            client.close()
        server.stop()


def test_a_seats_token_from_fifty_nine_addresses_keeps_no_seated_phone_nor_newcomer_out() -> None:
    server = lan_server({})
    clients: list[Client] = []
    try:
        code, tv, phones = dealt_table(server, 2, seats=11)
        clients += [tv, *phones]
        mallory = Client(server.url, code, source=guest(60))  # a guest takes the last seat, and brings its token along
        clients.append(mallory)
        assert mallory.join("Mallory")["ok"]
        coming_back = phones.pop()
        coming_back.close()
        returns, newcomers = [], []
        with flood(server, "seat", attackers(59), code, f"--token={mallory.token}", "--per-address", "12") as report:
            end = time.monotonic() + ATTACK_S
            while time.monotonic() < end - 4:
                time.sleep(2)
                returns.append(back_in(server, code, coming_back.token, guest(2)))
                newcomer = Client(server.url, code, role="audience", source=guest(30 + len(newcomers)))
                newcomers.append(newcomer.state["room"]["you"]["role"])
                newcomer.close()
        print(f"a seat's token from 59 addresses: {report}; the seated phone back in {[round(r, 2) for r in returns]}")
        assert report["opened"] >= 59 * 4  # her token got in from everywhere…
        assert report["alive_at_end"] <= LIMITS.seat_screens  # … and kept four screens: each fifth let the first go
        assert returns and max(returns) < 3.0
        assert newcomers and set(newcomers) == {"audience"}  # new guests got in all along
    finally:
        for client in clients:
            client.close()
        server.stop()


def test_a_flood_of_one_members_picks_writes_a_few_rows() -> None:
    """One member's token on 120 WebSockets from 10 addresses, each predicting 9 times a second: what the journal
    keeps grows by the member's budget, not the flood's."""
    server = lan_server({})
    clients: list[Client] = []
    try:
        code, _, tv = lobby(server, bots=3)
        clients.append(tv)
        fan = Client(server.url, code, role="audience", source=guest(1))
        clients.append(fan)
        member = fan.call("audience_join", {"name": "Flooder"})
        assert member["ok"]
        fan.wait_for(lambda s: s["room"]["audience"]["round"] is not None and s["room"]["audience"]["round"]["open"])
        before = picks_kept(server.data)
        with flood(server, "picks", attackers(10), code, f"--token={member['audience_token']}") as report:
            time.sleep(ATTACK_S)
        kept = picks_kept(server.data) - before
        budget = LIMITS.rate("member")
        print(f"one member's picks from 120 WebSockets: {report}; {kept} picks written")
        assert report["sent"] > 5_000  # the flood was on
        assert 0 < kept <= budget.burst + budget.per_s * (ATTACK_S + 5)
    finally:
        for client in clients:
            client.close()
        server.stop()


def picks_kept(data: Path) -> int:
    with sqlite3.connect(f"file:{data}?mode=ro", uri=True) as db:
        return db.execute("SELECT COUNT(*) FROM events WHERE event LIKE ?", ('%"do": "pick"%',)).fetchone()[0]
