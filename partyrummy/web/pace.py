"""The caller's pacing: the clock of the current phase, and which call is due when.

Pure decisions over the game and the pace; the room makes the calls (under its lock, from its caller
thread or right after a command), so the journal sees each one before anyone else does.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..game import GameState
from ..hand import ACTING, MATCH_WINDOWS, Phase
from ..variants import Variant

__all__ = ["Due", "Pace", "clocks", "plan"]


class Due(Enum):
    """What the caller must do now."""

    CALL = "call"  # call the table on ("Draw!", "Discard!", close the match window)
    HURRY = "hurry"  # play for the slow seats: the hurry countdown ran out
    WAIT = "wait"  # nothing yet


@dataclass
class Pace:
    """The caller's clock for the current phase (monotonic seconds)."""

    key: tuple = ()
    since: float = 0.0  # when this phase began
    cycle_since: float = 0.0  # when "Draw!" was called this cycle
    all_acted_at: float | None = None

    def track(self, game: GameState, now: float) -> None:
        """After a change: start the clocks of a new phase, and note when everyone has acted."""
        hand = game.hand
        key = (hand.hand_no, hand.cycle, hand.phase)
        if key != self.key:
            self.key = key
            self.since = now
            if hand.phase in (Phase.DRAW, Phase.LAST_DRAW):
                self.cycle_since = now
                self.all_acted_at = None
        everyone = hand.phase in ACTING and not hand.slow_seats()
        if not everyone:
            self.all_acted_at = None
        elif self.all_acted_at is None:
            self.all_acted_at = now

    def resume(self, now: float) -> None:
        """After a pause: the clocks start again from now."""
        self.since = self.cycle_since = now
        self.all_acted_at = now if self.all_acted_at is not None else None

    def hurry_window(self, variant: Variant) -> tuple[float, float] | None:
        """When the countdown starts and ends this cycle (monotonic), or None if never."""
        if not variant.hurry_after_s:
            return None
        start = self.cycle_since + variant.hurry_after_s
        return start, start + variant.hurry_countdown_s


def plan(game: GameState, pace: Pace, now: float) -> tuple[Due, float | None]:
    """What the caller must do at `now`, and, when waiting, until when (None: until a change)."""
    hand = game.hand
    v = game.variant
    if hand.phase in MATCH_WINDOWS:
        due = pace.since + v.match_window_s
        return (Due.CALL, None) if now >= due else (Due.WAIT, due)
    if hand.phase in ACTING:
        if pace.all_acted_at is not None:
            due = pace.all_acted_at + v.beat_s
            return (Due.CALL, None) if now >= due else (Due.WAIT, due)
        hurry = pace.hurry_window(v)
        if hurry is None:
            return Due.WAIT, None
        start, end = hurry
        if now >= end:
            return Due.HURRY, None
        return Due.WAIT, start if now < start else end
    return Due.WAIT, None  # scored: the host moves on to the next hand


def clocks(game: GameState | None, pace: Pace, paused: bool, now: float) -> dict[str, Any]:
    """The countdowns the screens show, counted from `now`: the hurry, and the match window's end."""
    hurry = None
    if game is not None and not game.over and game.hand.phase in ACTING:
        window = pace.hurry_window(game.variant)
        if window and pace.all_acted_at is None and not paused:
            hurry = {"starts_in": round(window[0] - now, 2), "ends_in": round(window[1] - now, 2)}
    match_ends_in = None  # the match window's clock, counted from when this view is received
    if game is not None and game.hand.phase in MATCH_WINDOWS and not paused:
        match_ends_in = round(pace.since + game.variant.match_window_s - now, 2)
    return {"hurry": hurry, "match_ends_in": match_ends_in}
