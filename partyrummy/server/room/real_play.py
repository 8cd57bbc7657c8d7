"""The game part of a night played with real cards: who answers for a seat, the caller, and each viewer's view.

The people hold the cards; the engine (`realcards.scorebook`) keeps the pace and the score. The caller:
`setup` waits for the host's "Cards are dealt: Draw!" (`call_now`); then "Discard!" once every seat is Ready
(after the variant's beat) or when the hurry runs out (pace.py, as with cards on the phones); the match window
lasts `match_window_s`; with turns the table waits for Done/Out! (or the host's `call_now`); after `scored`,
`call_now` deals the next hand. Who plays without a phone, and whether phones may answer for them, are the
room's (its seats, its `allow_helpers`): the engine is told with each command. The part's face is
game_part.GamePart.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, ClassVar

from ...realcards import commands as real_commands
from ...realcards import scorebook
from ...realcards.commands import (
    Call,
    CallMatch,
    Command,
    Confirm,
    Correct,
    Done,
    Draft,
    Out,
    Ready,
    TypePoints,
    UndoCorrection,
    Withdraw,
    command_to_dict,
)
from ...realcards.events import Event
from ...realcards.phases import Phase
from ...realcards.scorebook import Scorebook
from ...realcards.views import draft_view, seat_view, table_view
from ...rules.errors import BadCommand
from ...rules.variants import Variant
from .game_part import PacedPart, SeatEvent, Table, seat_schema
from .pace import Beat, Due, Timing, plan
from .refused import Refused
from .room_view import TableCache
from .score_sheet import Score
from .seats import Links, Viewer, away
from .state import RoomState

__all__ = ["RealPlay"]

# Each event this way of playing takes, made into its engine command from (seat, by, payload); `by` is the
# answering phone's seat (None: the host). The host's own (the VIP's phone may send them too): a correction and
# its undo.
_EVENTS = {
    "ready": SeatEvent(
        seat_schema(ready=("bool", False), cycle=("int", False)),
        lambda s, by, d: Ready(s, d.get("ready", True), by, d.get("cycle")),
    ),
    "match": SeatEvent(seat_schema(), lambda s, by, d: CallMatch(s, by)),
    "withdraw": SeatEvent(seat_schema(), lambda s, by, d: Withdraw(s, by)),
    "done": SeatEvent(seat_schema(cycle=("int", False)), lambda s, by, d: Done(s, by, d.get("cycle"))),
    "out": SeatEvent(seat_schema(cycle=("int", False)), lambda s, by, d: Out(s, by, d.get("cycle"))),
    "draft": SeatEvent(seat_schema(cards=("cards", True)), lambda s, by, d: Draft(s, tuple(d["cards"]), by)),
    "confirm": SeatEvent(seat_schema(), lambda s, by, d: Confirm(s, by)),
    "points": SeatEvent(seat_schema(points=("points", True)), lambda s, by, d: TypePoints(s, d["points"], by)),
    "correct": SeatEvent(
        {"hand": ("int", True), "seat": ("int", True), "points": ("points", True)},
        lambda s, by, d: Correct(d["hand"], d["seat"], d["points"]),
        who="vip",
    ),
    "undo_correction": SeatEvent({}, lambda s, by, d: UndoCorrection(), who="vip"),
}
_HOSTS = frozenset(name for name, event in _EVENTS.items() if event.who != "seat")  # not a seat's move
# What the host's pause stops: the calls of the pace. Score entry and corrections go on.
_PACED = (Ready, CallMatch, Withdraw, Done, Out)
# Taps that change only the tapper's own line: they may wait for the next batch of updates.
_BATCHED = (Ready, Draft)


class RealPlay(PacedPart):
    """The real-cards game of one room; the room calls it under its lock."""

    mode: ClassVar[str] = "real"
    events: ClassVar[dict[str, SeatEvent]] = _EVENTS
    commands: ClassVar[ModuleType] = real_commands

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.pickers = TableCache()  # the TV's seats' pickers laid out, once a version (the solver is dear)
        self.host_entering: set[int] = set()  # seats with a phone whose hand the host chose to enter on the TV
        self.stood_in: set[tuple] = set()  # (phase key, seat): counted Ready by the TV once in that phase

    @property
    def book(self) -> Scorebook | None:
        """The game being played (or the last one): a scorebook."""
        return self.game

    # -- Its journal events -----------------------------------------------------------

    def begin(self, state: RoomState, variant: Variant, seed: int, draws: str = "one-shoe") -> None:
        self._begun(state, *scorebook.new_book(variant, len(state.seats), seed))  # `draws` is always one shoe

    def _run(self, state: RoomState, book: Scorebook, command: Command) -> tuple[Scorebook, list[Event]]:
        """The engine is told which seats a phone may answer for (the room's)."""
        return scorebook.apply(book, command, state.helped)

    # -- The lobby's rules --------------------------------------------------------------

    def check_seat(self, fields: dict[str, Any]) -> None:
        """Real cards are held by people: no bots."""
        if fields.get("bot"):
            raise Refused("error.no_bots_real")

    def check_draws(self, draws: str) -> None:
        """The people deal from their own shoe: there is no stack per seat on the server to draw from."""
        if draws != "one-shoe":
            raise Refused("error.own_order_real")

    # -- Play ------------------------------------------------------------------------

    def answer(self, viewer: Viewer, seat: int | None, event: str, data: dict[str, Any]) -> None:
        """An event of this game: for the sender's own seat, or (`seat` in the payload) for another the engine
        lets it answer for. The TV answers as the host (`by` None); a phone as its seat, so the engine decides."""
        if event not in _EVENTS:
            raise Refused("error.phones_only")
        host = viewer.role == "host"
        if event not in _HOSTS and seat is None and not host:
            raise Refused("error.join_first")
        target = seat if event in _HOSTS else data.get("seat", seat)
        if target is None and event not in _HOSTS:
            raise Refused("error.no_seat")
        if host and event not in _HOSTS:
            self._host_may_answer(target, data.get("override", False))
        self.play(_EVENTS[event].command(target, None if host else seat, data))
        if host and event in ("confirm", "points") and self.table.state.seats[target].token is not None:
            self.table.tell(target, "entered_for_you", "notice.entered_for_you", {}, {})

    def _host_may_answer(self, seat: int, override: bool) -> None:
        """The TV answers for a seat without a phone, for one whose phone is not connected (no seat ever blocks
        the hand), and for any seat when the host says so (`override`: the seat's panel, "Enter it on the TV")."""
        seats = self.table.state.seats
        if not isinstance(seat, int) or not 0 <= seat < len(seats):
            return  # the engine says it is no seat
        connected = bool(self.table.links[seats[seat]].sids)
        if override and seat not in self.host_entering:
            self.host_entering.add(seat)
            if connected:  # its phone is told, and shows the hand the TV enters
                self.table.tell(seat, "entering_for_you", "notice.entering_for_you", {}, {})
        if not (seats[seat].phoneless or not connected or seat in self.host_entering):
            raise BadCommand("error.answer_connected", name=seats[seat].name)

    def play(self, command: Command) -> None:
        """Check a command against the engine, journal it, then make it; a refusal changes nothing."""
        state = self.table.state
        if state.game is None:
            raise Refused("error.not_started")
        if state.paused and isinstance(command, _PACED):
            raise Refused("error.paused")
        before = state.game.hand
        outcome = self._run(state, state.game, command)  # pure: refuses before anything is written
        self.table.journal({"t": "cmd", "cmd": command_to_dict(command)})
        self._commit(state, *outcome)
        self.table.changed(isinstance(command, _BATCHED))
        if (state.game.hand.hand_no, state.game.hand.cycle, state.game.hand.phase) != (
            before.hand_no,
            before.cycle,
            before.phase,
        ):
            self._stand_in()

    def _stand_in(self) -> float | None:
        """Count Ready (at "Draw!", and in the Match! window: it goes on) the seats nobody taps for: without a
        phone, when the host's switch says so, and those whose phone has been gone `table_gone_after_s`, when the
        night's rules say so (`table_gone`). Each once a phase: the host may untick one who is slow. Returns when
        a phone still away will count as gone (None: none)."""
        state, hand, now = self.table.state, self.book.hand, self.table.clock()
        if hand.phase not in (Phase.READY, Phase.LAST_READY, Phase.REVEAL) or state.paused:
            return None
        variant, key = self.book.variant, (hand.hand_no, hand.cycle, hand.phase)
        self.stood_in = {done for done in self.stood_in if done[0][0] == hand.hand_no}  # this hand's only
        # Phones gone that long stand in only where the night's rules say so; else the table waits for them.
        gone, later = (frozenset(), None) if variant.table_gone != "ready" else away(
            state.seats[: hand.players], self.table.links, now, variant.table_gone_after_s)
        for seat in range(hand.players):
            stands = state.phoneless_ready if state.seats[seat].phoneless else seat in gone
            if stands and (key, seat) not in self.stood_in and seat not in hand.matched and not hand.ready[seat]:
                self.stood_in.add((key, seat))
                self.play(Ready(seat, True, None, hand.cycle))
                hand = self.book.hand
                if (hand.hand_no, hand.cycle, hand.phase) != key:
                    return None  # the table moved on meanwhile: its new phase was stood in for
        return later

    def call_now(self) -> None:
        """The host's "call now": deal is done (Draw!), Discard! without the slow ones, end a turn, next hand."""
        if self.table.state.paused:
            raise Refused("error.paused")
        self.play(Call(force=True))

    # -- The caller -------------------------------------------------------------------------

    def _beat(self) -> Beat | None:
        book = self.book
        if book is None or book.over:
            return None
        hand = book.hand
        turns = hand.phase in (Phase.TURN, Phase.LAST_TURN)  # each turn is a cycle: a slow turn is counted down
        acting = turns or hand.phase in (Phase.READY, Phase.LAST_READY)
        slow = frozenset(hand.waiting_for()) if acting else frozenset()
        window = hand.phase is Phase.REVEAL  # setup waits for the host's "Cards are dealt: Draw!"
        return Beat(
            key=(hand.hand_no, hand.cycle, hand.phase),
            acting=acting,
            # A turn ends with Done/Out!, not after a beat; the window once everyone called Match! or went on.
            done=hand.window_done() if window else acting and not turns and not slow,
            window=window,
            draws=acting,
            slow=slow,
        )

    def _timing(self) -> Timing:
        """The variant's times for a table holding real cards, at the night's pace."""
        v = self.book.variant
        acts = v.table_hurry_end == "discard"
        timing = Timing(v.table_beat_s, v.table_match_window_s, v.table_hurry_after_s, v.table_hurry_countdown_s, acts)
        return timing.times(v.paces[self.table.state.pace])

    def tick(self) -> float | None:
        book = self.book
        if book is None or book.over or self.table.state.paused:
            return None
        gone = self._stand_in()  # a phone gone since the phase began counts now
        due, later = plan(self._beat(), self._timing(), self.pace, self.table.clock())
        match due:
            case Due.CALL:
                self.play(Call())
            case Due.HURRY:  # "Discard!" without the slow ones (with turns: the slow turn ends)
                self.play(Call(force=True))
            case Due.WAIT:
                return min((t for t in (later, gone) if t is not None), default=None)
        return self.tick()

    # -- What it shows ----------------------------------------------------------------------

    def _table(self, book: Scorebook) -> dict[str, Any]:
        return table_view(book)

    def mine(self, viewer: Viewer, seat: int | None) -> dict[str, Any] | None:
        """What this viewer alone sees: a seat its own picker and entry (and the pickers it may answer for), the
        TV the pickers it may fill, a guest nothing."""
        book = self.book
        if book is None:
            return None
        if seat is None:
            return {"you": None, "drafts": self._drafts(book)} if viewer.role == "host" else {"you": None}
        helped = self.table.state.helped
        helping = {s: d for s, d in self._drafts(book).items() if int(s) in helped and int(s) != seat}
        return {"you": {**seat_view(book, seat), "helping": helping}}

    def _drafts(self, book: Scorebook) -> dict[str, dict[str, Any]]:
        """The pickers the TV may fill, of seats still to enter this hand, by seat (as JSON keys): those without
        a phone, those whose phone is not connected, and those the host chose to enter (`host_entering`)."""
        table = self.table
        return self.pickers.get(table.version(), lambda: _pickers(book, table.state, table.links, self.host_entering))

    def sheet(self, book: Scorebook) -> list[list[Score | None]]:
        """Each seat's cells, hand by hand: solved from cards or typed, and what a correction replaced."""
        hands = range(1, len(book.history) + 1)
        return [[_cell(book, h, seat) for h in hands] for seat in range(book.players)]


def _pickers(book: Scorebook, state: RoomState, links: Links, entering: set[int]) -> dict[str, dict[str, Any]]:
    hand = book.hand
    if hand.phase is Phase.SCORED:
        entering.clear()  # the next hand starts with every phone entering its own
        return {}
    seat = state.seats
    tv = (s for s in range(hand.players) if seat[s].phoneless or not links[seat[s]].sids or s in entering)
    return {str(s): draft_view(book, s) for s in tv if hand.entries[s] is None}


def _cell(book: Scorebook, hand_no: int, seat: int) -> Score | None:
    cell = book.cell(hand_no, seat)
    return None if cell is None else Score(cell.points, cell.how, cell.corrected_from)
