"""The caller's pacing, for either way to play: the clock of the current phase, and which call is due when.

A game part says where its hand is (`Beat`) and how long things take (`Timing`: its variant's times for that
way to play, times the night's pace factor); the pace keeps the clocks (when the phase began, when "Draw!"
came, when each seat drew, when the last seat acted) and decides: call now, hurry the slow, or wait until
when. Pure decisions over the beat and the clocks; the part makes the calls (under the room's lock, right
after a command or from the caller thread), so the journal sees each one before anyone else does. The pause
is the room's: on resume the clocks start again from then.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

__all__ = ["Beat", "Due", "Pace", "Timing", "clocks", "deadlines", "plan"]


class Due(Enum):
    """What the caller must do now."""

    CALL = "call"  # call the table on ("Draw!", "Discard!", close the match window)
    HURRY = "hurry"  # the hurry ran out: play for the slow seats whose time is up, or call without them
    WAIT = "wait"  # nothing yet


@dataclass(frozen=True)
class Timing:
    """How long the caller gives, in seconds (a part builds it from its variant and the night's pace)."""

    beat_s: float  # after everyone has acted, before the call (the flip's countdown)
    window_s: float  # a match window
    hurry_after_s: float  # from "Draw!" to the hurry's countdown (0: never hurry)
    hurry_countdown_s: float
    hurry_acts: bool = True  # at the countdown's end the caller acts for the slow; False: it keeps waiting
    choose_min_s: float = 0.0  # a seat that drew late still has this long to choose before it is played for
    flip_min_s: float = 0.0  # the flip never comes sooner than this after a player's last pick (never scaled)
    next_hand_s: float = 0.0  # after a scored hand, the caller deals the next this long after (0: the host does)

    def times(self, factor: float) -> Timing:
        """Every time scaled by the night's pace (relaxed, normal, quick), but the flip's minimum after a change:
        a trial pick is never the discard, however quick the night."""
        return replace(
            self,
            beat_s=self.beat_s * factor,
            window_s=self.window_s * factor,
            hurry_after_s=self.hurry_after_s * factor,
            hurry_countdown_s=self.hurry_countdown_s * factor,
            choose_min_s=self.choose_min_s * factor,
            next_hand_s=self.next_hand_s * factor,
        )


@dataclass(frozen=True)
class Beat:
    """Where a hand is, as the caller sees it (each part makes one from its own hand)."""

    key: tuple  # (hand, cycle, phase): a new key starts the phase's clocks
    acting: bool  # the seats act now (draw and pick, or Ready): the hurry may run
    done: bool  # every seat has acted (in a window: called Match! or gone on): the call comes after the beat
    window: bool  # a match window: the call comes when it closes, or once everyone is done, whichever first
    draws: bool  # this phase began with "Draw!": the hurry counts from it
    next: bool = False  # a hand scored with another to deal: the next comes from the host, or after next_hand_s
    slow: frozenset[int] = frozenset()  # the seats the table waits for
    drawn: frozenset[int] = frozenset()  # of those, the ones that have drawn (still to choose)


@dataclass
class Pace:
    """The caller's clock for the current phase (monotonic seconds)."""

    key: tuple = ()
    since: float = 0.0  # when this phase began
    cycle_since: float = 0.0  # when "Draw!" was called this cycle
    all_acted_at: float | None = None
    drawn_at: dict[int, float] = field(default_factory=dict)  # this cycle: when each slow seat was seen drawn
    changed_at: float | None = None  # this cycle: a player's last pick or change of pick

    def track(self, beat: Beat, now: float) -> bool:
        """After a change: start the clocks of a new phase, and note who drew and when everyone has acted.
        Returns whether the table moved on (a new phase)."""
        moved = beat.key != self.key
        if moved:
            self.key = beat.key
            self.since = now
            if beat.draws:
                self.cycle_since = now
                self.all_acted_at = None
                self.drawn_at = {}
                self.changed_at = None
        for seat in beat.drawn:
            self.drawn_at.setdefault(seat, now)
        if not ((beat.acting or beat.window) and beat.done):
            self.all_acted_at = None
        elif self.all_acted_at is None:
            self.all_acted_at = now
        return moved

    def changed(self, now: float) -> None:
        """A player picked or changed their pick: the flip waits at least the variant's minimum from now."""
        self.changed_at = now

    def call_due(self, timing: Timing) -> float | None:
        """When the call comes once everyone has acted: a beat after the last to act, and never sooner than the
        flip's minimum after a player's last change (None: someone has still to act)."""
        if self.all_acted_at is None:
            return None
        due = self.all_acted_at + timing.beat_s
        return due if self.changed_at is None else max(due, self.changed_at + timing.flip_min_s)

    def resume(self, now: float) -> None:
        """After a pause: the clocks start again from now."""
        self.since = self.cycle_since = now
        self.drawn_at = dict.fromkeys(self.drawn_at, now)
        self.all_acted_at = now if self.all_acted_at is not None else None
        self.changed_at = now if self.changed_at is not None else None

    def hurry_window(self, timing: Timing) -> tuple[float, float] | None:
        """When the countdown starts and ends this cycle (monotonic), or None if never."""
        if not timing.hurry_after_s:
            return None
        start = self.cycle_since + timing.hurry_after_s
        return start, start + timing.hurry_countdown_s

    def seat_due(self, seat: int, timing: Timing) -> float | None:
        """When the caller plays for a slow seat: the hurry's end, or later for one that drew late (None: never)."""
        window = self.hurry_window(timing)
        if window is None or not timing.hurry_acts:
            return None
        drawn = self.drawn_at.get(seat)
        return window[1] if drawn is None else max(window[1], drawn + timing.choose_min_s)


def plan(beat: Beat, timing: Timing, pace: Pace, now: float) -> tuple[Due, float | None]:
    """What the caller must do at `now`, and, when waiting, until when (None: until a change)."""
    if beat.window:
        due = _window_ends(pace, timing)
        return (Due.CALL, None) if now >= due else (Due.WAIT, due)
    if beat.next and timing.next_hand_s:
        due = pace.since + timing.next_hand_s
        return (Due.CALL, None) if now >= due else (Due.WAIT, due)
    if not beat.acting:
        return Due.WAIT, None  # the people (or the host) move the table on
    due = pace.call_due(timing)
    if due is not None:
        return (Due.CALL, None) if now >= due else (Due.WAIT, due)
    window = pace.hurry_window(timing)
    if window is None:
        return Due.WAIT, None
    start, end = window
    if now < start:
        return Due.WAIT, start  # the countdown begins: the screens redraw
    dues = [d for d in (pace.seat_due(s, timing) for s in beat.slow) if d is not None]
    if not dues:
        return Due.WAIT, end if now < end else None  # the table keeps waiting (the hurry only nudges)
    soonest = min(dues)
    return (Due.HURRY, None) if now >= soonest else (Due.WAIT, soonest)


def _window_ends(pace: Pace, timing: Timing) -> float:
    """A match window closes at its clock, or a beat after every seat has called Match! or gone on. Its length
    depends on those taps alone, never on anyone's cards: it tells nobody who could have called."""
    ends = pace.since + timing.window_s
    return ends if pace.all_acted_at is None else min(ends, pace.all_acted_at + timing.beat_s)


def clocks(beat: Beat | None, timing: Timing | None, pace: Pace, paused: bool, now: float) -> dict[str, Any]:
    """The countdowns the screens show, counted from `now`: the hurry, the call after everyone acted (the flip,
    or "Discard!"), the match window's end, and the next hand's deal when the caller deals it."""
    hurry = call_in = match_ends_in = next_in = None
    if beat is not None and timing is not None and not paused:
        window = pace.hurry_window(timing) if beat.acting else None
        if window and pace.all_acted_at is None:
            hurry = {"starts_in": round(window[0] - now, 2), "ends_in": round(window[1] - now, 2)}
        due = pace.call_due(timing) if beat.acting else None
        if due is not None:
            call_in = round(due - now, 2)
        if beat.window:
            match_ends_in = round(_window_ends(pace, timing) - now, 2)
        if beat.next and timing.next_hand_s:
            next_in = round(pace.since + timing.next_hand_s - now, 2)
    return {"hurry": hurry, "call_in": call_in, "match_ends_in": match_ends_in, "next_in": next_in}


def deadlines(clocks: dict[str, Any], now: float) -> dict[str, float]:
    """The countdowns of `clocks` (seconds from `now`) as the moments they end. The screens are sent seconds from
    the moment a table goes out, so an unchanged number may be a deadline that moved: a pick changed 2.3 s into a
    3 s count says "3.0" again once the update's batch goes out, and the moment it ends is 2.3 s later."""
    hurry = clocks.get("hurry") or {}
    counted = {"hurry_starts": hurry.get("starts_in"), "hurry_ends": hurry.get("ends_in")}
    counted |= {key: clocks.get(key) for key in ("call_in", "match_ends_in", "next_in")}
    return {key: now + secs for key, secs in counted.items() if secs is not None}


def moved(before: dict[str, float], after: dict[str, float], slack: float = 0.1) -> bool:
    """Whether a countdown came, went or moved by more than `slack` seconds (the rounding of its seconds)."""
    return before.keys() != after.keys() or any(abs(after[k] - before[k]) > slack for k in after)
