"""The game part of a room played with cards on the phones: the engine's commands, its caller, and the views.

The room keeps the lobby, the seats, the connections, its lock and its journal for both ways of playing;
its game part is this one or real_play.py's, with the same face: `play`, `answer`, `call_now`, `pause`,
`tick` (the caller), `track`, `clocks` and `view`, and `check_arrive`/`check_leave` for seats coming and
going mid-game. Here the server deals: the caller's pacing is pace.py's, bots and open seats play through
robots.py, and each viewer gets the engine's view (views.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import game as engine
from ..commands import Arrive, AutoPlay, Call, CallMatch, Choose, Command, Draw, Leave, command_to_dict
from ..errors import BadCommand, OutOfPhase
from ..views import table_view
from .pace import Due, Pace, clocks, plan
from .refused import Refused
from .robots import play_robots
from .room_view import TableCache, game_view
from .seats import Viewer

if TYPE_CHECKING:
    from .room import Room

__all__ = ["PhonesPlay"]


class PhonesPlay:
    """The cards-on-phones game of one room; the room calls it under its lock."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.pace = Pace()
        self.tables = TableCache()

    # -- Seats coming and going mid-game: refused by the engine before anything is written --------

    def check_arrive(self, fields: dict[str, Any]) -> None:
        """Whether a newcomer may be dealt in at the next hand (raises if not)."""
        engine.apply(self.room.game, Arrive())

    def check_leave(self, seat: int) -> None:
        """Whether the hand can lose this seat (raises if not)."""
        engine.apply(self.room.game, Leave(seat))

    # -- Commands ------------------------------------------------------------

    def play(self, command: Command) -> None:
        """Apply one command; a RummyError leaves everything as it was (and unrecorded)."""
        room = self.room
        if room.game is None:
            raise OutOfPhase("error.not_started")
        if room.paused and not isinstance(command, AutoPlay):  # the table stops: nobody acts until resume
            raise Refused("error.paused")
        result = engine.apply(room.game, command)  # pure: refuses before anything is written
        room.journal({"t": "cmd", "cmd": command_to_dict(command)})
        room.state.set_game(*result)
        room.changed(batch=isinstance(command, (Draw, Choose)))

    def answer(self, viewer: Viewer, event: str, data: dict[str, Any]) -> None:
        """A seat's event: with cards on the phones only `match`, for the sender's own seat."""
        seat = self.room.seat_for(viewer)
        if event != "match":
            raise Refused("error.real_only")
        if seat is None:
            raise Refused("error.join_first")
        if data.get("seat", seat) != seat:
            raise BadCommand("error.answer_for")  # as the real-cards engine says it
        self.play(CallMatch(seat))

    def call_now(self) -> None:
        """The host's "Call now": play for whoever is slow, then call at once."""
        if self.room.game is None:
            raise OutOfPhase("error.not_started")
        if self.room.paused:
            raise Refused("error.paused")
        self._hurry()
        self.play(Call())

    def pause(self, paused: bool) -> None:
        """The room was paused or resumed: on resume the caller's clocks start again from now."""
        if not paused:
            self.pace.resume(self.room.clock())

    def _hurry(self) -> None:
        hand = self.room.game.hand
        for seat in hand.slow_seats():
            had_drawn = self.room.game.hand.drawn[seat] is not None
            self.play(AutoPlay(seat))
            self._tell_played_for(seat, "notice.played_pick" if had_drawn else "notice.played_for")

    def _tell_played_for(self, seat: int, key: str) -> None:
        """The slow seat's phones hear that the caller played for them: what it did (`key`), which card went."""
        room = self.room
        hand = room.game.hand
        pick = hand.picks[seat] if seat < hand.players else None
        card = hand.faces[pick].symbol if pick is not None else None
        for sid in room.seats[seat].sids:
            message = room.catalogs.text(room.viewers[sid].lang, key, card=card or "—")
            room.send(sid, "notice", {"code": "played_for", "message": message, "card": card})

    # -- The caller ------------------------------------------------------------

    def track(self) -> bool:
        """After any change: the pace's clocks. Returns whether the table moved on (its view goes out at once)."""
        key = self.pace.key
        if self.room.game is not None:
            self.pace.track(self.room.game, self.room.clock())
        return self.pace.key != key

    def tick(self) -> float | None:
        """Make any call that is due now; return when to look again (None: wait for a change)."""
        room = self.room
        game = room.game
        if game is None or game.over or room.paused:
            return None
        now = room.clock()
        if play_robots(room.seats, lambda: room.game.hand, self.play):
            return self.tick()
        due, later = plan(game, self.pace, now)
        match due:
            case Due.CALL:
                self.play(Call())
            case Due.HURRY:
                self._hurry()
                room.changed()
            case Due.WAIT:
                return later
        return self.tick()

    def clocks(self, paused: bool) -> dict[str, Any]:
        """The countdowns the screens show, in seconds from now: the hurry, and the match window's end."""
        return clocks(self.room.game, self.pace, paused, self.room.clock())

    # -- Views -------------------------------------------------------------------

    def view(self, viewer: Viewer, seat: int | None) -> dict[str, Any] | None:
        """The game from a seat (its own hand only), or the host's/a watcher's view; None before the first deal."""
        room = self.room
        game = room.game
        table = self.tables.get(room.version, lambda: table_view(game)) if game is not None else None
        return game_view(room.game, seat, room.hints, table)
