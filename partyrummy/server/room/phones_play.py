"""The game part of a night played with cards on the phones: the engine's commands, its caller, and the views.

Here the server deals: the caller's pacing is pace.py's, bots and open seats play at once (`play_robots`), and each
viewer gets the engine's view (views.py). The part's face is game_part.GamePart.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any, ClassVar

from ...phones import commands as phone_commands
from ...phones import game as engine
from ...phones.bots import bot_move
from ...phones.commands import (
    AutoPlay,
    Call,
    CallMatch,
    Choose,
    Command,
    Draw,
    Event,
    Ready,
    command_to_dict,
)
from ...phones.game import GameState
from ...phones.hand import ACTING, MATCH_WINDOWS, HandState, Phase
from ...phones.views import seat_view, table_view
from ...rules.errors import BadCommand, NotComplete, OutOfPhase, RummyError
from ...rules.variants import Variant
from .game_part import PacedPart, SeatEvent, Table, seat_schema
from .pace import Beat, Due, Timing, plan
from .refused import Refused
from .score_sheet import PLAYED, Score
from .seats import DROP_GRACE_S, Viewer, away
from .state import RoomState, Seat

__all__ = ["PhonesPlay"]

# Each event this way of playing takes: a seat's own move, made into its engine command.
_EVENTS = {
    "draw": SeatEvent(
        {"source": ("source", True), "cycle": ("int", False)}, lambda s, by, d: Draw(s, d["source"], d.get("cycle"))
    ),
    "choose": SeatEvent(
        {"card_id": ("card", True), "cycle": ("int", False)}, lambda s, by, d: Choose(s, d["card_id"], d.get("cycle"))
    ),
    "match": SeatEvent(seat_schema(), lambda s, by, d: CallMatch(s)),
    "ready": SeatEvent(
        seat_schema(ready=("bool", False), cycle=("int", False)),
        lambda s, by, d: Ready(s, d.get("ready", True), d.get("cycle")),
    ),
}

# A seat's own moves that reach the others with the next batch (outbox.BATCH_S): a draw, a pick, and a "Play on" in a
# Match! window (twelve taps within a moment go out as one or two updates, not twelve; real cards batch Ready too).
# A Match! goes out at once, and so does any move that moves the table on (Room.changed).
_BATCHED = (Draw, Choose, Ready)


class PhonesPlay(PacedPart):
    """The cards-on-phones game of one room; the room calls it under its lock."""

    mode: ClassVar[str] = "phones"
    events: ClassVar[dict[str, SeatEvent]] = _EVENTS
    commands: ClassVar[ModuleType] = phone_commands

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self.hints: dict = {}  # hints already worked out, by hand: a hand that did not change is not solved again
        self.false_match: dict[str, Any] | None = None  # the last Match! that was not: shown until the phase moves on

    # -- Its journal events -----------------------------------------------------------

    def begin(self, state: RoomState, variant: Variant, seed: int, draws: str = "one-shoe") -> None:
        self._begun(state, *engine.new_game(variant, len(state.seats), seed, draws))
        self.hints.clear()

    def _run(self, state: RoomState, game: GameState, command: Command) -> tuple[GameState, list[Event]]:
        return engine.apply(game, command)

    # -- The lobby's rules --------------------------------------------------------------

    def check_seat(self, fields: dict[str, Any]) -> None:
        """Everyone holds a phone (or is a bot)."""
        if fields.get("phoneless"):
            raise Refused("error.real_only")

    def check_draws(self, draws: str) -> None:
        """The server deals: one shoe, or a stack per seat, alike."""

    # -- Play ------------------------------------------------------------------------

    def answer(self, viewer: Viewer, seat: int | None, event: str, data: dict[str, Any]) -> None:
        """A seat's own move: draw, choose or match, for the sender's own seat only."""
        if event not in _EVENTS:
            raise Refused("error.real_only")
        if seat is None:
            raise Refused("error.join_first")
        if data.get("seat", seat) != seat:
            raise BadCommand("error.answer_for")  # as the real-cards engine says it
        try:
            self.play(_EVENTS[event].command(seat, seat, data))
        except NotComplete as refusal:
            if event == "match":  # the claim costs nothing, but the table hears of it ("Not yet, Ana: 11 points")
                self.false_match = {"seat": seat, "points": refusal.params["points"], "key": self.pace.key}
                self.moments.append({"kind": "false", "seat": seat})
                self.table.changed(False)
            raise

    def play(self, command: Command) -> None:
        """Apply one command; a RummyError leaves everything as it was (and unrecorded)."""
        state = self.table.state
        if state.game is None:
            raise OutOfPhase("error.not_started")
        if state.paused and not isinstance(command, AutoPlay):  # the table stops: nobody acts until resume
            raise Refused("error.paused")
        outcome = self._run(state, state.game, command)  # pure: refuses before anything is written
        self.table.journal({"t": "cmd", "cmd": command_to_dict(command)})
        if isinstance(command, Choose):  # a player's pick, or a change of it: the flip waits its minimum from now
            self.pace.changed(self.table.clock())
        self._commit(state, *outcome)
        self.table.changed(isinstance(command, _BATCHED))

    def call_now(self) -> None:
        """The host's "Call now": play for whoever is slow, then call at once."""
        if self.game is None:
            raise OutOfPhase("error.not_started")
        if self.table.state.paused:
            raise Refused("error.paused")
        self._hurry()
        self.play(Call())

    def _hurry(self, only_due: bool = False) -> None:
        """Play for the slow seats (`only_due`: those whose time is up; a late drawer has its minimum to choose)."""
        now = self.table.clock()
        for seat in self.game.hand.slow_seats():
            due = self.pace.seat_due(seat, self._timing())
            if only_due and (due is None or due > now):
                continue
            had_drawn = self.game.hand.drawn[seat] is not None
            self.play(AutoPlay(seat))
            hand = self.game.hand
            pick = hand.picks[seat] if seat < hand.players else None
            face = hand.faces[pick] if pick is not None else None
            key = "notice.played_pick" if had_drawn else "notice.played_for"
            # With the hand and the cycle it was played in: the phone says so until the next "Draw!", not after; and
            # whether the TV drew too, for the phone to say what still holds once its player changes the pick.
            extra = {"card": face and face.symbol, "hand": hand.hand_no, "cycle": hand.cycle, "drew": not had_drawn}
            self.table.tell(seat, "played_for", key, {"card": face or "—"}, extra)

    # -- The caller -------------------------------------------------------------------------

    def _beat(self) -> Beat | None:
        game = self.game
        if game is None or game.over:
            return None
        hand = game.hand
        acting = hand.phase in ACTING
        scored = hand.phase is Phase.SCORED
        slow = frozenset(hand.slow_seats())
        window = hand.phase in MATCH_WINDOWS
        return Beat(
            key=(hand.hand_no, hand.cycle, hand.phase),
            acting=acting,
            done=hand.window_done() if window else acting and not slow,
            window=window,
            draws=hand.phase in (Phase.DRAW, Phase.LAST_DRAW),
            next=scored,
            slow=slow,
            drawn=frozenset(s for s in slow if hand.drawn[s] is not None),
        )

    def _timing(self) -> Timing:
        """The variant's times for cards on the phones, at the night's pace."""
        v = self.game.variant
        timing = Timing(
            v.beat_s, v.match_window_s, v.hurry_after_s, v.hurry_countdown_s, True, v.choose_min_s, v.flip_min_s,
            v.next_hand_s,
        )
        return timing.times(v.paces[self.table.state.pace])

    def tick(self) -> float | None:
        state = self.table.state
        if state.game is None or state.game.over or state.paused:
            return None
        # The seats whose phones dropped off the table (shown to it after DROP_GRACE_S), and when the next will.
        dropped, back_at = away(state.seats, self.table.links, self.table.clock(), DROP_GRACE_S)
        if play_robots(state.seats, lambda: state.game.hand, self.play, dropped):
            return self.tick()
        now = self.table.clock()
        beat = self._beat()
        due, later = plan(beat, self._timing(), self.pace, now)
        match due:
            case Due.CALL:
                self.play(Call())
            case Due.HURRY:
                self._hurry(only_due=True)
                self.table.changed(False)
            case Due.WAIT:
                if beat.window and back_at is not None:  # a phone off the table since: the window stops waiting
                    return back_at if later is None else min(later, back_at)
                return later
        return self.tick()

    # -- What it shows ----------------------------------------------------------------------

    def mine(self, viewer: Viewer, seat: int | None) -> dict[str, Any] | None:
        """What this viewer alone sees: a seat its own hand (`you`), the TV and guests nothing (`you` null)."""
        game = self.game
        if game is None:
            return None
        if seat is None:
            return {"you": None}
        you = seat_view(game, seat, self.hints)
        if you.get("drawn") is not None and you.get("pick") is None and not self.table.state.paused:
            # Drawn late: this seat's own time to choose, when it runs past the table's hurry.
            due, window = self.pace.seat_due(seat, self._timing()), self.pace.hurry_window(self._timing())
            if due is not None and window is not None and due > window[1]:
                you = {**you, "choose_ends_in": round(due - self.table.clock(), 2)}
        return {"you": you}

    def _table(self, game: GameState) -> dict[str, Any]:
        """The public table, and the last false Match! while its phase lasts."""
        false = self.false_match if self.false_match and self.false_match["key"] == self.pace.key else None
        told = {"seat": false["seat"], "points": false["points"]} if false else None
        return {**table_view(game), "false_match": told}

    def sheet(self, game: GameState) -> list[list[Score | None]]:
        """Every score was played: the engine dealt and scored the hand."""
        return [
            [None if points[seat] is None else Score(points[seat], PLAYED) for points in game.history]
            for seat in range(game.players)
        ]


def play_robots(
    seats: list[Seat],
    hand: Callable[[], HandState],
    play: Callable[[Command], None],
    away: frozenset[int] = frozenset(),
) -> bool:
    """Bots' seats make their moves at once, and open seats get the caller's play; in a Match! window, seats whose
    phones dropped off (`away`) go on at once too, as nobody there can tap. True if any moved.

    `hand` gives the hand as it is now (each move changes it); `play` applies and journals one command.
    """
    moved = False
    for index, seat in enumerate(seats[: hand().players]):
        answered = seat.open or index in away  # nobody can tap for this seat now: the caller answers for it
        if seat.robot is not None:
            command = bot_move(hand(), index, seat.robot)
        elif seat.open and index in hand().slow_seats():
            command = AutoPlay(index)  # nobody holds it: play it rather than hold up the table
        elif answered and hand().phase in MATCH_WINDOWS and index not in (*hand().going_on, *hand().matched):
            command = Ready(index, True, hand().cycle)  # nor a window
        else:
            continue
        if command is None:
            continue
        try:
            play(command)
        except RummyError:  # a move the hand no longer allows (an empty shoe): the caller's own play
            if index not in hand().slow_seats():
                continue
            play(AutoPlay(index))
        moved = True
    return moved
