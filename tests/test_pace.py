"""The caller's pace (server/room/pace.py), for either way to play: when it calls, hurries, or waits, and the clocks."""

from __future__ import annotations

from partyrummy.server.room.pace import Beat, Due, Pace, Timing, clocks, plan

TIMING = Timing(beat_s=2.0, window_s=8.0, hurry_after_s=20.0, hurry_countdown_s=10.0, choose_min_s=8.0)


def acting(slow=(), drawn=(), cycle=1) -> Beat:
    return Beat(("h1", cycle, "draw"), acting=True, done=not slow, window=False, draws=True,
                slow=frozenset(slow), drawn=frozenset(drawn))


def test_the_flip_comes_a_beat_after_the_last_pick_and_the_screens_count_it_down() -> None:
    pace = Pace()
    pace.track(acting(slow={1}), now=100.0)
    assert plan(acting(slow={1}), TIMING, pace, 101.0) == (Due.WAIT, 120.0)  # the hurry's countdown begins then
    pace.track(acting(), now=105.0)  # the last pick
    assert plan(acting(), TIMING, pace, 106.0) == (Due.WAIT, 107.0)
    assert clocks(acting(), TIMING, pace, False, 106.0)["call_in"] == 1.0
    assert plan(acting(), TIMING, pace, 107.0) == (Due.CALL, None)


def test_a_late_drawer_keeps_its_minimum_time_to_choose_past_the_hurry() -> None:
    pace = Pace()
    pace.track(acting(slow={0, 1}), now=0.0)
    pace.track(acting(slow={0, 1}, drawn={1}), now=28.0)  # seat 1 draws 2 s before the hurry's end
    assert pace.seat_due(0, TIMING) == 30.0 and pace.seat_due(1, TIMING) == 36.0
    assert plan(acting(slow={0, 1}, drawn={1}), TIMING, pace, 30.0) == (Due.HURRY, None)  # seat 0 is played for
    assert plan(acting(slow={1}, drawn={1}), TIMING, pace, 30.0) == (Due.WAIT, 36.0)  # seat 1 still chooses
    assert plan(acting(slow={1}, drawn={1}), TIMING, pace, 36.0) == (Due.HURRY, None)


def test_a_hurry_that_only_nudges_waits_on_and_says_how_late_it_is() -> None:
    nudge = Timing(beat_s=1.0, window_s=12.0, hurry_after_s=40.0, hurry_countdown_s=20.0, hurry_acts=False)
    pace = Pace()
    pace.track(acting(slow={2}), now=0.0)
    assert plan(acting(slow={2}), nudge, pace, 50.0) == (Due.WAIT, 60.0)
    assert plan(acting(slow={2}), nudge, pace, 75.0) == (Due.WAIT, None)  # never calls without the slow
    assert clocks(acting(slow={2}), nudge, pace, False, 75.0)["hurry"]["ends_in"] == -15.0


def test_the_match_window_and_the_nights_pace() -> None:
    window = Beat(("h1", 1, "reveal"), acting=False, done=False, window=True, draws=False)
    pace = Pace()
    pace.track(window, now=10.0)
    assert plan(window, TIMING, pace, 11.0) == (Due.WAIT, 18.0)
    relaxed = TIMING.times(1.5)
    assert plan(window, relaxed, pace, 11.0) == (Due.WAIT, 22.0)
    assert (relaxed.beat_s, relaxed.hurry_after_s, relaxed.choose_min_s) == (3.0, 30.0, 12.0)
    assert clocks(window, TIMING, pace, True, 11.0)["match_ends_in"] is None  # paused: no clock runs


def test_after_a_pause_the_clocks_start_again() -> None:
    pace = Pace()
    pace.track(acting(slow={0}, drawn={0}), now=0.0)
    pace.resume(100.0)
    assert pace.hurry_window(TIMING) == (120.0, 130.0) and pace.seat_due(0, TIMING) == 130.0
