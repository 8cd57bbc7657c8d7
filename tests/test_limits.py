"""The limits of docs/protocol.md are the code's: each number the section states, read there and held to
partyrummy/server/defences/limits.py; and the socket caps sized under the machine's descriptors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from partyrummy.server.defences.limits import FILES_KEPT, LIMITS, Limits

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def section() -> str:
    text = DOC.read_text()
    start = text.index("## Limits, refusals and what a VIP phone may do")
    return " ".join(text[start : text.index("\n## ", start + 1)].split())


L = LIMITS
KB = 1024
# Each sentence of the section that states a limit (its number the one group), and the code's value.
STATED = [
    (r"One message is at most (\d+) KB of JSON", L.message_bytes // KB),
    (r"nested at most (\d+) deep", L.message_depth),
    (r"numbers at most (\d+) digits", L.number_digits),
    (r"A message over (\d+) KB \(the transport's own limit\)", L.transport_bytes // KB),
    (r"not back within (\d+) seconds", L.drop_grace_s),
    (r"cards tapped in holds at most (\d+) faces", L.hand_faces),
    (r"faces of at most (\d+) characters each", L.face_length),
    (r"any other text field at most (\d+) characters", L.text_length),
    (r"`reconnecting` for (\d+) seconds, then `gone`", L.reconnect_grace_s),
    (r"opens its seat once, for (\d+) minutes", L.ticket_s / 60),
    (r"the host may cap it at (\d+), \d+, \d+ or \d+", L.audience_caps[0]),
    (r"the host may cap it at \d+, (\d+), \d+ or \d+", L.audience_caps[1]),
    (r"the host may cap it at \d+, \d+, (\d+) or \d+", L.audience_caps[2]),
    (r"the host may cap it at \d+, \d+, \d+ or (\d+)", L.audience_caps[3]),
    (r"A connection may send (\d+) events at once", L.rate("events").burst),
    (r"events at once, then (\d+) a second", L.rate("events").per_s),
    (r"several seats at once, (\d+) at once", L.rate("host_events").burst),
    (r"several seats at once, \d+ at once, then (\d+) a second", L.rate("host_events").per_s),
    (r"a guest's address (\d+) events at once", L.rate("address").burst),
    (r"a guest's address \d+ events at once, then (\d+) a second", L.rate("address").per_s),
    (r"all guests together (\d+) at once, then", L.rate("guests").burst),
    (r"all guests together \d+ at once, then (\d+) a second", L.rate("guests").per_s),
    (r"its fair share of it \((\d+) a second over", L.rate("guests").per_s),
    (r"on however many connections, (\d+) events at once", L.rate("member").burst),
    (r"on however many connections, \d+ events at once, then (\d+) a second", L.rate("member").per_s),
    (r"more than (\d+) KB waits unsent", L.backlog_bytes // KB),
    (r"left a frame unread for (\d+) seconds", L.send_s),
    (r"the kernel keeps (\d+) KB for each connection", L.send_buffer // KB),
    (r"makes only the last (\d+) addresses it came from", L.seat_screens),
    (r"a seat is open on at most (\d+) connections at once", L.seat_screens),
    (r"and a guest's address (\d+), counting those the host took out", L.audience_per_device),
    (r"more than (\d+) messages at once", L.rate("flood").burst),
    (r"or more than (\d+) a second for long", L.rate("flood").per_s),
    (r"a guest's address may hold (\d+), all guests 2048", L.sockets.per_address),
    (r"may hold \d+, all guests (\d+), a seat's address", L.sockets.guests),
    (r"all guests \d+, a seat's address (\d+) more", L.sockets.seat_reserve),
    (r"a seat's address \d+ more \((\d+) in all\); the laptop the rest", L.sockets.seat_reserves),
    (r"A guest's address may connect (\d+) times at once", L.joins.burst),
    (r"then once every (\d+) seconds \(`too_many_tries`\)", 1 / L.joins.per_s),
    (r"the laptop itself (\d+) at once, then", L.local_joins.burst),
    (r"at once, then (\d+) a second\. A guest's address may hold", L.local_joins.per_s),
    (r"A guest's address may hold (\d+) connections", L.connections.per_address),
    (r"and all guests together (\d+) \(`too_many`\)", L.connections.guests),
    (r"a seat's token (\d+) more from its address", L.connections.seat_reserve),
    (r"more from its address \((\d+) in all\)", L.connections.seat_reserves),
    (r"all\); the laptop (\d+) of its own\. Only a connection", L.connections.local),
    (r"(\d+) new ones at once from a guest's address", L.handshakes.burst),
    (r"then one a second \(HTTP 429\)", L.handshakes.per_s),
    (r"a guest's address may hold (\d+), all guests together 500", L.sessions.per_address),
    (r"all guests together (\d+), a seat's address 8 more \(300", L.sessions.guests),
    (r"all guests together \d+, a seat's address (\d+) more \(300", L.sessions.seat_reserve),
    (r"a seat's address \d+ more \((\d+) in all\), the laptop 300", L.sessions.seat_reserves),
    (r"the laptop (\d+) of its own \(beyond: HTTP 401", L.sessions.local),
    (r"CONNECT within (\d+) seconds of its handshake", L.connect_s),
    (r"The server holds at most (\d+) rooms in memory", L.rooms),
    (r"scores\.csv` answer a guest's address (\d+) times at once", L.lookups.burst),
    (r"times at once, then once every (\d+) seconds \(HTTP 429\)", 1 / L.lookups.per_s),
    (r"One guest address may have (\d+) requests open", L.requests.per_address),
    (r"requests open at once, all guests together (\d+)", L.requests.guests),
    (r"all guests together \d+, a seat's address (\d+) more \(600 in all\), the laptop", L.requests.seat_reserve),
    (r"a seat's address \d+ more \((\d+) in all\), the laptop 600", L.requests.seat_reserves),
    (r"the laptop (\d+) of its own \(HTTP 503\)", L.requests.local),
    (r"\(its request line and headers\) within (\d+) seconds", L.head_s),
    (r"at most (\d+) KB \(HTTP 413\)", L.transport_bytes // KB),
    (r"arriving whole within (\d+) seconds \(HTTP 408\)", L.body_s),
    (r"\(Unicode NFKC, spaces collapsed\), 1 to (\d+) characters", L.name_length),
    (r"A room's audience holds at most (\d+) members predicting", L.audience),
    (r"a full audience of (\d+) from 200 addresses", L.audience),
    (r"so an audience of (\d+) from 200", L.audience),
]


@pytest.mark.parametrize(("said", "value"), STATED, ids=[pattern for pattern, _ in STATED])
def test_each_limit_the_protocol_states_is_the_codes(said: str, value: float) -> None:
    found = re.search(said, section())
    assert found, f"docs/protocol.md no longer says: {said}"
    stated = float(found.group(1)) if found.groups() else 1.0  # "one a second"
    assert stated == value, said


def test_the_socket_caps_fit_under_the_descriptors_the_machine_allows_the_laptop_first() -> None:
    for files in (256, 1024, 4096, 20_000, 1_048_576):
        sockets = LIMITS.for_descriptors(files).sockets
        assert sockets.guests + sockets.seat_reserves + sockets.local + FILES_KEPT <= max(files, FILES_KEPT + 16)
        assert sockets.local >= sockets.guests  # however many guests connect, the TV can
        assert 0 < sockets.seat_reserve <= sockets.seat_reserves and 0 < sockets.per_address <= sockets.guests
    roomy = LIMITS.for_descriptors(20_000).sockets
    assert (roomy.per_address, roomy.guests, roomy.seat_reserve) == (64, 2048, 32)  # what the protocol says


def test_a_change_to_a_share_keeps_its_other_fields() -> None:
    changed = Limits().changed({"sessions": {"per_address": 6}, "connect_s": 1.0})
    assert changed.sessions.per_address == 6 and changed.sessions.guests == LIMITS.sessions.guests
    assert changed.connect_s == 1.0 and changed.scaled(100).sessions.local == LIMITS.sessions.local + 100
