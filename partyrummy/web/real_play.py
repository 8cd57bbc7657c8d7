"""The game part of a room played with real cards: who answers for a seat, the caller, and each viewer's view.

The room keeps the lobby, the seats, the connections, its lock and its journal for both ways of playing;
when the night is played with real cards (`state.mode == "real"`) it hands the game to this part (the
same face as phones_play.py's), which drives `realcards.scorebook` instead of the cards-on-phones engine.
The caller: `setup` waits for the host's "Cards are dealt: Draw!" (`call_now`); then "Discard!" once every
seat is Ready (after the variant's beat) or when the hurry runs out; the match window lasts
`match_window_s`; with turns the table waits for Done/Out! (or the host's `call_now`); after `scored`,
`call_now` deals the next hand.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import RummyError
from ..realcards import scorebook
from ..realcards.commands import (
    Arrive,
    Call,
    CallMatch,
    Command,
    Confirm,
    Done,
    Draft,
    Leave,
    Out,
    Pause,
    Ready,
    Resume,
    TypePoints,
    Withdraw,
    command_to_dict,
)
from ..realcards.phases import Phase, TableHand, hurry_deadline
from ..realcards.scorebook import Scorebook
from ..realcards.views import draft_view, table_view, view_for, view_for_host
from .refused import Refused
from .room_view import TableCache
from .seats import Viewer

if TYPE_CHECKING:
    from .room import Room

__all__ = ["SEAT_EVENTS", "RealPace", "RealPlay"]

# A seat's events with real cards, each made into its engine command from (seat, by, payload).
SEAT_EVENTS: dict[str, Callable[[int, int | None, dict[str, Any]], Command]] = {
    "ready": lambda s, by, d: Ready(s, d.get("ready", True), by, d.get("cycle")),
    "match": lambda s, by, d: CallMatch(s, by),
    "withdraw": lambda s, by, d: Withdraw(s, by),
    "done": lambda s, by, d: Done(s, by, d.get("cycle")),
    "out": lambda s, by, d: Out(s, by, d.get("cycle")),
    "draft": lambda s, by, d: Draft(s, tuple(d["cards"]), by),
    "confirm": lambda s, by, d: Confirm(s, by),
    "points": lambda s, by, d: TypePoints(s, d["points"], by),
}
# What the host's pause stops: the calls of the pace. Score entry and corrections go on.
_PACED = (Ready, CallMatch, Withdraw, Done, Out)
# Taps that change only the tapper's own line: they may wait for the next batch of updates.
_BATCHED = (Ready, Draft)


@dataclass
class RealPace:
    """The caller's clock of the current phase, in the engine's time (seconds)."""

    key: tuple = ()
    since: float = 0.0  # when this phase began: the match window counts from it
    all_ready_at: float | None = None  # when the last seat tapped Ready this cycle

    def track(self, hand: TableHand, now: float) -> bool:
        """After a change: start the clocks of a new phase. Returns whether the table moved on."""
        key = (hand.hand_no, hand.cycle, hand.phase)
        moved = key != self.key
        if moved:
            self.key, self.since, self.all_ready_at = key, now, None
        everyone = hand.phase in (Phase.READY, Phase.LAST_READY) and not hand.waiting_for()
        if not everyone:
            self.all_ready_at = None
        elif self.all_ready_at is None:
            self.all_ready_at = now
        return moved

    def resume(self, now: float) -> None:
        """After a pause: the match window and the beat start again from now (the engine keeps the hurry)."""
        self.since = now
        self.all_ready_at = now if self.all_ready_at is not None else None


class RealPlay:
    """The real-cards game of one room; the room calls it under its lock."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.pace = RealPace()
        # The engine's `now` is wall-clock seconds (the room's monotonic clock, shifted), so the times the
        # journal keeps (when "Draw!" was called) still mean the same after a restart.
        self.epoch = time.time() - room.clock()
        self.tables = TableCache()  # the public table, once a version
        self.pickers = TableCache()  # the phone-less seats' pickers laid out, once a version (the solver is dear)

    @property
    def book(self) -> Scorebook | None:
        """The game being played (or the last one)."""
        return self.room.state.book

    def now(self) -> float:
        """The engine's time now."""
        return self.room.clock() + self.epoch

    # -- Seats coming and going mid-game: refused by the engine before anything is written --------

    def check_arrive(self, fields: dict[str, Any]) -> None:
        """Whether a newcomer (`fields["phoneless"]`: without a phone) may be dealt in at the next hand."""
        scorebook.apply(self.book, Arrive(bool(fields.get("phoneless"))))

    def check_leave(self, seat: int) -> None:
        """Whether the hand can lose this seat (raises if not)."""
        scorebook.apply(self.book, Leave(seat))

    # -- Commands ------------------------------------------------------------

    def answer(self, viewer: Viewer, event: str, data: dict[str, Any]) -> None:
        """A seat's event: for the sender's own seat, or (`seat`) for another the engine lets it answer for.

        The TV answers as the host (`by` None); a phone as its seat, so the engine's rules decide.
        """
        own = self.room.seat_for(viewer)
        host = viewer.role == "host"
        if own is None and not host:
            raise Refused("error.join_first")
        seat = data.get("seat", own)
        if seat is None:
            raise Refused("error.no_seat")
        self.play(SEAT_EVENTS[event](seat, None if host else own, data))

    def play(self, command: Command) -> None:
        """Check a command against the engine, journal it, then make it; a refusal changes nothing."""
        state = self.room.state
        if state.book is None:
            raise Refused("error.not_started")
        if self.room.paused and isinstance(command, _PACED):
            raise Refused("error.paused")
        result = scorebook.apply(state.book, command)  # pure: refuses before anything is written
        self.room.journal({"t": "real", "cmd": command_to_dict(command)})
        state.set_game(*result)
        self.room.changed(batch=isinstance(command, _BATCHED))

    def call_now(self) -> None:
        """The host's "call now": deal is done (Draw!), Discard! without the slow ones, end a turn, next hand."""
        if self.room.paused:
            raise Refused("error.paused")
        self.play(Call(self.now(), force=True))

    def pause(self, paused: bool) -> None:
        """The room was paused or resumed: the engine's hurry clock stops or runs on (where the phase has one)."""
        book = self.book
        if book is None or book.over or (book.hand.paused_at is not None) == paused:
            return
        try:
            self.play(Pause(self.now()) if paused else Resume(self.now()))
        except RummyError:  # score entry has no clock to stop
            pass
        if not paused:
            self.pace.resume(self.now())

    # -- The caller ------------------------------------------------------------

    def track(self) -> bool:
        """After any change: the pace's clocks. Returns whether the table moved on (its view goes out at once)."""
        return self.book is not None and self.pace.track(self.book.hand, self.now())

    def tick(self) -> float | None:
        """Make the call due now, if any; return when to look again (the room's clock; None: until a change)."""
        book = self.book
        if book is None or book.over or self.room.paused:
            return None
        due = self._due(book.hand)
        if due is None:
            return None
        if self.now() < due:
            return due - self.epoch
        self.play(Call(self.now()))
        return self.tick()

    def _due(self, hand: TableHand) -> float | None:
        """When the caller calls next (engine time), or None: it waits for people (or the host)."""
        variant = hand.variant
        if hand.phase is Phase.REVEAL:
            return self.pace.since + variant.match_window_s
        if hand.phase in (Phase.READY, Phase.LAST_READY):
            if self.pace.all_ready_at is not None:
                return self.pace.all_ready_at + variant.beat_s
            return hurry_deadline(hand)
        return None  # setup, turns, entry, scored: the people (or the host's call_now) move the table on

    def clocks(self, paused: bool) -> dict[str, Any]:
        """The countdowns the screens show, in seconds from now: the hurry, and the match window's end."""
        book, now = self.book, self.now()
        hurry = match_ends_in = None
        if book is not None and not book.over and not paused:
            hand = book.hand
            end = hurry_deadline(hand)
            if end is not None and self.pace.all_ready_at is None:
                start = end - hand.variant.hurry_countdown_s
                hurry = {"starts_in": round(start - now, 2), "ends_in": round(end - now, 2)}
            if hand.phase is Phase.REVEAL:
                match_ends_in = round(self.pace.since + hand.variant.match_window_s - now, 2)
        return {"hurry": hurry, "match_ends_in": match_ends_in}

    # -- Views -------------------------------------------------------------------

    def view(self, viewer: Viewer, seat: int | None) -> dict[str, Any] | None:
        """The game as this viewer may see it: a seat its own picker (and those it may answer for), the TV the
        pickers of the seats without a phone, a guest the table alone."""
        book = self.book
        if book is None:
            return None
        version = self.room.version
        table = self.tables.get(version, lambda: table_view(book))
        hand = book.hand
        if seat is None:
            view = view_for_host(book, table)
            return {**view, "drafts": self._drafts(book)} if viewer.role == "host" else view
        if seat >= hand.players:  # a newcomer waiting for the next deal
            return {**table, "you": seat, "draft": None, "entry": None, "helping": {}}
        helping = {s: d for s, d in self._drafts(book).items() if s != str(seat)} if hand.helpers else {}
        return {**view_for(book, seat, table), "helping": helping}

    def _drafts(self, book: Scorebook) -> dict[str, dict[str, Any]]:
        """The pickers of the seats without a phone still to enter this hand, by seat (as JSON keys)."""
        return self.pickers.get(self.room.version, lambda: _pickers(book))


def _pickers(book: Scorebook) -> dict[str, dict[str, Any]]:
    hand = book.hand
    if hand.phase is Phase.SCORED:
        return {}
    seats = (s for s in range(hand.players) if hand.phoneless[s] and hand.entries[s] is None)
    return {str(s): draft_view(book, s) for s in seats}
