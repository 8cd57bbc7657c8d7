"""The seats around the table and the connections that watch it: who is who, and how each seat is doing.

Small questions about the journaled seats (state.Seat), and each seat's live side (`Links`): the room changes
seats only through its journal, their connections as they come and go.
"""

from __future__ import annotations

import secrets
import weakref
from dataclasses import dataclass, field

from ...i18n import DEFAULT_LANGUAGE
from ...phones.bots import STRENGTHS
from ...rules.names import name_key
from ..defences.limits import LIMITS
from .refused import Refused
from .state import Seat

__all__ = [
    "COLOURS",
    "DROP_GRACE_S",
    "RECONNECT_GRACE_S",
    "Link",
    "Links",
    "Viewer",
    "bot_name",
    "check_name",
    "check_strength",
    "check_seat",
    "away",
    "free_colour",
    "health",
    "seat_of",
    "vip",
]

# A phone that locks or roams drops its socket; Socket.IO's pings notice within about 25 s and the
# phone's client retries within seconds of waking. Until this long it is "reconnecting", then "gone".
RECONNECT_GRACE_S = LIMITS.reconnect_grace_s
# A seat whose connection drops is shown to the others as reconnecting only if it is not back within this
# long: a phone whose socket dropped and came straight back makes nobody else redraw.
DROP_GRACE_S = LIMITS.drop_grace_s

# Seat colours; the TV also prints each name, so colour is never the only signal.
COLOURS = (  # each >= 3:1 on the table's greens; ordered so small tables get the most distinct hues first
    "#ffab40",
    "#82b1ff",
    "#ffffff",
    "#ea80fc",
    "#c6ff00",
    "#ff8a80",
    "#84ffff",
    "#d7ccc8",
    "#ffd23f",
    "#b388ff",
    "#b9f6ca",
    "#ff80ab",
)


@dataclass
class Link:
    """A seat's live side, which no journal keeps: the connections playing it, and since when none has."""

    sids: set[str] = field(default_factory=set)
    gone_since: float | None = None


class Links:
    """Each seat's `Link`, looked up by the seat itself (a seat moved or renamed is the same seat; one removed is
    forgotten with it)."""

    def __init__(self) -> None:
        self._links: weakref.WeakKeyDictionary[Seat, Link] = weakref.WeakKeyDictionary()

    def __getitem__(self, seat: Seat) -> Link:
        link = self._links.get(seat)
        if link is None:
            link = self._links[seat] = Link()
        return link


@dataclass(frozen=True)
class Viewer:
    """One connection: what it is to the room (host, player, guest) and the language it reads."""

    role: str  # "host", "player" or "guest" (not seated: may join or watch)
    token: str | None = None
    lang: str = DEFAULT_LANGUAGE  # the language this connection reads: its refusals and notices come in it
    ticket: str | None = None  # the rejoin ticket it came into a locked room with (one connection a ticket)


def seat_of(seats: list[Seat], token: str | None) -> int | None:
    """The seat whose token this is (compared in constant time), or None."""
    for index, seat in enumerate(seats):
        if token is not None and seat.token is not None and secrets.compare_digest(seat.token, token):
            return index
    return None


def vip(seats: list[Seat]) -> int | None:
    """The seat of the first-joined person still here (never a bot or an open seat): their phone runs the evening.

    A seat taken over from a bot or a person who left counts as joined when it was taken.
    """
    people = [i for i, s in enumerate(seats) if s.robot is None and s.token is not None]
    return min(people, key=lambda i: seats[i].joined) if people else None


def check_seat(seats: list[Seat], seat: int) -> None:
    """Refuse a seat number that is not at the table."""
    if not 0 <= seat < len(seats):
        raise Refused("error.no_seat")


def check_name(seats: list[Seat], name: str, seat: int | None = None) -> None:
    """Refuse a name people would read as one already seated ("Alice", "alice", "Аlice" with a Cyrillic А)."""
    key = name_key(name)
    if any(name_key(s.name) == key for i, s in enumerate(seats) if i != seat):
        raise Refused("error.name_taken", name=name)


def free_colour(seats: list[Seat]) -> str:
    """The first colour nobody at the table wears."""
    used = {s.colour for s in seats}
    return next(c for c in COLOURS if c not in used)


def health(seat: Seat, link: Link, now: float) -> str:
    """Connected, reconnecting, gone (longer than a phone takes to come back), open, a bot, or without a phone."""
    if seat.robot is not None:
        return "bot"
    if seat.phoneless:
        return "phoneless"
    if seat.token is None:
        return "open"
    if link.sids:
        return "connected"
    if link.gone_since is None or now - link.gone_since < RECONNECT_GRACE_S:
        return "reconnecting"
    return "gone"


def away(seats: list[Seat], links: Links, now: float, after: float) -> tuple[frozenset[int], float | None]:
    """The seats (by index) played from phones that have all been gone `after` seconds or more, and when the next
    seat gone for less will count among them (None: none will): whom nobody can tap for now. A phone-less seat,
    an open one or a bot's is never away: it has no phone to lose."""
    gone, later = set(), []
    for index, seat in enumerate(seats):
        link = links[seat]
        if seat.token is None or link.sids or link.gone_since is None:
            continue
        if now >= link.gone_since + after:
            gone.add(index)
        else:
            later.append(link.gone_since + after)
    return frozenset(gone), min(later, default=None)


def check_strength(strength: str) -> None:
    """Refuse a bot strength nobody wrote."""
    if strength not in STRENGTHS:
        raise Refused("error.no_such_bot")


def bot_name(seats: list[Seat]) -> str:
    """The first "Bot n" nobody at the table is called."""
    return next(f"Bot {n}" for n in range(1, 100) if all(s.name.casefold() != f"bot {n}" for s in seats))
