"""Every limit of the server, in one place: what one message may be, how fast a connection may send, and what
the laptop, a seat's address and any other guest may hold of the server.

docs/protocol.md ("Limits, refusals and what a VIP phone may do") states each number; tests/test_limits.py
reads them there and holds them to these. The catalogs' sentences that name a limit are formatted from here.

What is held is counted in three shares (admission.Quota): the laptop's own (127.0.0.1 and ::1: its TV tab,
`partyrummy bots`, benchmarks), which guests cannot use up; every guest address's, up to a cap each and one for
all guests together; and a reserve for addresses a seat was seen at, drawn on only when the guests' share is
full, so a seated phone coming back (or the TV on another screen) finds room whatever strangers hold.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["Limits", "Share", "Rate", "LIMITS", "FILES_KEPT"]


@dataclass(frozen=True)
class Rate:
    """A token bucket's shape: `burst` at once, then `per_s` a second."""

    burst: float
    per_s: float


@dataclass(frozen=True)
class Share:
    """What the guests may hold of one thing: `per_address` for one address and `guests` for all of them; a seat's
    address a reserve beyond that (`seat_reserve` each, `seat_reserves` in all); the laptop `local` of its own."""

    per_address: int
    guests: int
    seat_reserve: int
    seat_reserves: int
    local: int

    def scaled(self, capacity: int) -> Share:
        """With the laptop's own share raised by `capacity` (load tests from this machine: bench/load.py)."""
        return replace(self, local=self.local + capacity)


# Descriptors kept back from every socket cap: the rooms' file and its lock, the listening socket, gevent's
# own, the standard streams, a browser the host opens with --open.
FILES_KEPT = 64


@dataclass(frozen=True)
class Limits:
    """The server's limits (the numbers of docs/protocol.md). Times in seconds, sizes in bytes."""

    # One message
    message_bytes: int = 16_384  # characters of one event's JSON; a game's largest is well under 1 KB
    message_depth: int = 32  # how deep its arrays and objects may nest; a game's deepest is 2
    number_digits: int = 100  # digits of one number in it
    transport_bytes: int = 131_072  # Engine.IO's own limit on one message (and a long-polling POST's body)
    form_bytes: int = 1024  # a page's own small POST (a night's guest giving a name, its screen's actions)
    name_length: int = 20  # characters of a player's name (and an audience member's)
    hand_faces: int = 20  # real cards: faces of one hand tapped in ("7H", "10S", "JK"; the engine says what is wrong
    face_length: int = 4  # with one that fits: a bad face, too many cards for the hand, too many copies), each so long
    text_length: int = 40  # characters of any other text field (a rule set's name, a language, a question's key)
    # How fast: in events a second of one connection (`--event-rate` sets `event_rate`)
    event_rate: float = 10
    event_burst: float = 2  # a connection may send this many seconds' worth at once
    host_burst: float = 20  # the TV answers for several seats at once: this many seconds' worth at once …
    host_rate: float = 5  # … then this many times the event rate
    flood_burst: float = 10  # a WebSocket sending this many seconds' worth at once is cut off …
    flood_rate: float = 2  # … or this many times the event rate for long
    # Guests (neither the laptop nor a seat nor the TV: a guest not seated, the audience) share a budget of events:
    address_burst: float = 4  # one guest address, all its connections together: this many seconds' worth at once …
    address_rate: float = 2  # … then this many times the event rate
    guests_burst: float = 40  # all guests together: this many seconds' worth at once …
    guests_rate: float = 15  # … then this many times the event rate (an address under its fair share goes on)
    member_burst: float = 1  # an audience member, on all its connections together: this many seconds' worth …
    member_rate: float = 0.2  # … then this many times the event rate (three guesses a hand, and a change or two)
    joins: Rate = Rate(12, 0.5)  # Socket.IO connections from one guest address
    local_joins: Rate = Rate(200, 20)  # … and from the laptop
    handshakes: Rate = Rate(24, 1.0)  # new Engine.IO sessions from one guest address (the laptop: unlimited)
    lookups: Rate = Rate(12, 0.5)  # /join/CODE and /room/CODE/scores.csv from one guest address
    # What may be held. The guests' shares hold a full table and a full audience (12 + `audience` phones) twice
    # over: a phone that wakes from sleep connects again before its old connection is dropped (up to ~45 s).
    connections: Share = Share(per_address=32, guests=450, seat_reserve=8, seat_reserves=200, local=200)
    sessions: Share = Share(per_address=32, guests=500, seat_reserve=8, seat_reserves=300, local=300)
    requests: Share = Share(per_address=80, guests=900, seat_reserve=16, seat_reserves=600, local=600)
    # TCP connections, counted as they are accepted: sized under the process's descriptors (`for_descriptors`). A
    # phone opening the page holds up to six at once for a moment: two hundred arriving together, 1,200.
    sockets: Share = field(
        default_factory=lambda: Share(per_address=64, guests=2048, seat_reserve=32, seat_reserves=512, local=8192)
    )
    # The audience: the most members predicting in one room (the host may cap it lower: audience.CAPS)
    audience: int = 200
    audience_per_device: int = 4  # members one guest address may bring, taken out by the host or not (a shared tablet)
    audience_caps: tuple[int, ...] = (10, 20, 50, 100)  # the caps the host may choose, besides none (`audience`)
    # How long
    head_s: float = 10.0  # a connection sends a request's whole head (request line and headers) within this
    body_s: float = 10.0  # a long-polling POST's whole body arrives within this
    connect_s: float = 5.0  # an Engine.IO session sends its Socket.IO CONNECT within this
    drop_grace_s: float = 3.0  # a seat's dropped connection is shown to the table only after this
    reconnect_grace_s: int = 60  # … as reconnecting for this long (a phone that locked comes back), then gone
    ticket_s: int = 600  # a rejoin QR code opens its seat for this long
    send_s: float = 10.0  # a WebSocket whose client leaves one frame unread this long is dropped
    # What waits unread for one connection: past this in its Engine.IO queue it is dropped (a whole view of a dealt
    # hand of 12 is about 8 KB); the kernel keeps `send_buffer` for it, not the megabytes it would grow to
    backlog_bytes: int = 1_048_576
    send_buffer: int = 262_144
    # How many
    rooms: int = 300  # rooms held in memory (a room of 12 holds 2-3 MB): the most a leaked TV key can make it hold
    seat_screens: int = 4  # connections one seat's token holds at once, and addresses it makes a seat's: the latest
    seat_addresses: int = 4096  # seats' tokens whose addresses are remembered (the oldest forgotten first)

    def for_descriptors(self, files: int) -> Limits:
        """These limits with the TCP connections sized under `files` descriptors (the process's soft limit): the
        laptop's share first, so however many guests connect the TV still can; a share a machine with few
        descriptors cannot give is cut down in proportion."""
        spare = max(files - FILES_KEPT, 16)
        wanted = self.sockets
        total = wanted.guests + wanted.seat_reserves + wanted.local
        if spare >= total:
            return replace(self, sockets=replace(wanted, local=spare - wanted.guests - wanted.seat_reserves))
        guests, seats = spare * 3 // 8, spare // 4
        sockets = Share(
            per_address=min(wanted.per_address, guests),
            guests=guests,
            seat_reserve=min(wanted.seat_reserve, max(seats // 4, 1)),
            seat_reserves=seats,
            local=spare - guests - seats,
        )
        return replace(self, sockets=sockets)

    def changed(self, changes: dict[str, Any]) -> Limits:
        """These limits with some changed: a field's new value, or for a `Share` or `Rate` a dict of its fields."""
        fields = {}
        for name, value in changes.items():
            old = getattr(self, name)
            fields[name] = replace(old, **value) if isinstance(value, dict) else value
        return replace(self, **fields)

    def scaled(self, capacity: int) -> Limits:
        """With the laptop's share of everything held raised by `capacity` (load tests from this machine)."""
        held = ("connections", "sessions", "requests", "sockets")
        return replace(self, **{name: getattr(self, name).scaled(capacity) for name in held})

    def rate(self, kind: str) -> Rate:
        """The token bucket of one connection's events (`events`), the TV's (`host_events`), a WebSocket's flood
        cut (`flood`), one guest address's events (`address`), all guests' (`guests`) or one audience member's
        (`member`), from the event rate."""
        times = {"events": (self.event_burst, 1), "host_events": (self.host_burst, self.host_rate)}
        times["flood"] = (self.flood_burst, self.flood_rate)
        times["address"] = (self.address_burst, self.address_rate)
        times["guests"] = (self.guests_burst, self.guests_rate)
        times["member"] = (self.member_burst, self.member_rate)
        burst, per = times[kind]
        return Rate(burst * self.event_rate, per * self.event_rate)


LIMITS = Limits()
