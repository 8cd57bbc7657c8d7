"""The caller's pacing, for either way to play: the clock of the current phase, and which call is due when.

A game part says where its hand is (`Beat`); the pace keeps the clocks (when the phase began, when "Draw!"
came, when the last seat acted) and decides: call now, hurry the slow, or wait until when. Pure decisions
over the beat and the clocks; the part makes the calls (under the room's lock, right after a command or from
the caller thread), so the journal sees each one before anyone else does. The pause is the room's: on resume
the clocks start again from then.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from ..variants import Variant

__all__ = ["Beat", "Due", "Pace", "clocks", "plan"]


class Due(Enum):
    """What the caller must do now."""

    CALL = "call"  # call the table on ("Draw!", "Discard!", close the match window)
    HURRY = "hurry"  # the hurry ran out: play for the slow seats, or call without them
    WAIT = "wait"  # nothing yet


@dataclass(frozen=True)
class Beat:
    """Where a hand is, as the caller sees it (each part makes one from its own hand)."""

    key: tuple  # (hand, cycle, phase): a new key starts the phase's clocks
    acting: bool  # the seats act now (draw and pick, or Ready): the hurry may run
    done: bool  # every seat has acted: the call comes after the variant's beat
    window: bool  # a match window: the call comes when it closes
    draws: bool  # this phase began with "Draw!": the hurry counts from it


@dataclass
class Pace:
    """The caller's clock for the current phase (monotonic seconds)."""

    key: tuple = ()
    since: float = 0.0  # when this phase began
    cycle_since: float = 0.0  # when "Draw!" was called this cycle
    all_acted_at: float | None = None

    def track(self, beat: Beat, now: float) -> bool:
        """After a change: start the clocks of a new phase, and note when everyone has acted. Returns whether
        the table moved on (a new phase)."""
        moved = beat.key != self.key
        if moved:
            self.key = beat.key
            self.since = now
            if beat.draws:
                self.cycle_since = now
                self.all_acted_at = None
        if not (beat.acting and beat.done):
            self.all_acted_at = None
        elif self.all_acted_at is None:
            self.all_acted_at = now
        return moved

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


def plan(beat: Beat, variant: Variant, pace: Pace, now: float) -> tuple[Due, float | None]:
    """What the caller must do at `now`, and, when waiting, until when (None: until a change)."""
    if beat.window:
        due = pace.since + variant.match_window_s
        return (Due.CALL, None) if now >= due else (Due.WAIT, due)
    if beat.acting:
        if pace.all_acted_at is not None:
            due = pace.all_acted_at + variant.beat_s
            return (Due.CALL, None) if now >= due else (Due.WAIT, due)
        hurry = pace.hurry_window(variant)
        if hurry is None:
            return Due.WAIT, None
        start, end = hurry
        if now >= end:
            return Due.HURRY, None
        return Due.WAIT, start if now < start else end
    return Due.WAIT, None  # the people (or the host) move the table on


def clocks(beat: Beat | None, variant: Variant, pace: Pace, paused: bool, now: float) -> dict[str, Any]:
    """The countdowns the screens show, counted from `now`: the hurry, and the match window's end."""
    hurry = match_ends_in = None
    if beat is not None and not paused:
        window = pace.hurry_window(variant) if beat.acting else None
        if window and pace.all_acted_at is None:
            hurry = {"starts_in": round(window[0] - now, 2), "ends_in": round(window[1] - now, 2)}
        if beat.window:
            match_ends_in = round(pace.since + variant.match_window_s - now, 2)
    return {"hurry": hurry, "match_ends_in": match_ends_in}
