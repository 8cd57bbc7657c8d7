"""The caller's pace (server/room/pace.py), for either way to play: when it calls, hurries, or waits, and the clocks."""

from __future__ import annotations

from partyrummy.server.room.pace import Beat, Due, Pace, Timing, clocks, deadlines, moved, plan

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


def test_the_flip_never_comes_sooner_than_its_minimum_after_a_players_last_change() -> None:
    """The last to pick tries a card: the cards flip no sooner than flip_min_s after it, at any pace."""
    timing = Timing(beat_s=2.5, window_s=8.0, hurry_after_s=0.0, hurry_countdown_s=0.0, flip_min_s=3.0)
    pace = Pace()
    pace.track(acting(slow={1}), now=0.0)
    pace.changed(10.0)  # the last pick
    pace.track(acting(), now=10.0)
    assert plan(acting(), timing, pace, 12.6) == (Due.WAIT, 13.0)  # not at 12.5: the beat alone
    pace.changed(12.0)  # changed, while the flip counted down
    pace.track(acting(), now=12.0)
    assert plan(acting(), timing, pace, 13.0) == (Due.WAIT, 15.0)
    assert clocks(acting(), timing, pace, False, 13.0)["call_in"] == 2.0  # the screens count it down
    assert plan(acting(), timing, pace, 15.0) == (Due.CALL, None)
    quick = timing.times(0.6)
    assert (quick.beat_s, quick.flip_min_s) == (1.5, 3.0)  # the quick pace never shortens the minimum
    assert plan(acting(), quick, pace, 14.9) == (Due.WAIT, 15.0)


def test_a_new_cycle_forgets_the_last_ones_changes() -> None:
    timing = Timing(beat_s=0.5, window_s=8.0, hurry_after_s=0.0, hurry_countdown_s=0.0, flip_min_s=3.0)
    pace = Pace()
    pace.track(acting(), now=0.0)
    pace.changed(1.0)
    pace.track(acting(slow={0}, cycle=2), now=2.0)  # "Draw!" again
    pace.track(acting(cycle=2), now=2.0)  # everyone acted at once (the caller played for them): no change
    assert plan(acting(cycle=2), timing, pace, 2.5) == (Due.CALL, None)


def test_the_next_hand_comes_by_itself_only_where_the_variant_says() -> None:
    scored = Beat(("h1", 3, "scored"), acting=False, done=False, window=False, draws=False, next=True)
    pace = Pace()
    pace.track(scored, now=100.0)
    assert plan(scored, TIMING, pace, 500.0) == (Due.WAIT, None)  # next_hand_s 0: the host deals it
    assert clocks(scored, TIMING, pace, False, 101.0)["next_in"] is None
    timed = Timing(beat_s=2.0, window_s=8.0, hurry_after_s=20.0, hurry_countdown_s=10.0, next_hand_s=40.0)
    assert plan(scored, timed, pace, 120.0) == (Due.WAIT, 140.0)
    assert clocks(scored, timed, pace, False, 120.0)["next_in"] == 20.0
    assert clocks(scored, timed.times(1.5), pace, False, 120.0)["next_in"] == 40.0
    assert plan(scored, timed, pace, 140.0) == (Due.CALL, None)


def test_a_countdown_is_told_again_when_its_end_moves_though_its_seconds_read_the_same() -> None:
    """A pick changed 2.3 s into a 3 s count: sent a moment later, the count reads 3.0 again, and ends later."""
    first = deadlines({"call_in": 3.0}, now=10.0)
    assert moved(first, deadlines({"call_in": 3.0}, now=12.3))  # the same seconds, 2.3 s later: moved
    assert not moved(first, deadlines({"call_in": 0.7}, now=12.3))  # the same end, counted on: no news
    assert moved(first, deadlines({}, now=12.3))  # gone
    assert moved(deadlines({}, now=10.0), first)  # come


RULES = """
[trial]
extends = "party"
description = "A short beat and a flip's minimum after a change (for tests)"
beat_s = 0.2
flip_min_s = 1.5
match_window_s = 600
hurry_after_s = 0
"""


def wait_for_message(client, after: int, wanted, timeout: float = 5.0) -> dict:
    """The first message `client` received after its `after`th that `wanted(event, data)` says is the one."""
    import time

    deadline = time.monotonic() + timeout
    with client.changed:
        while not any(wanted(event, data) for event, data in client.messages[after:]):
            left = deadline - time.monotonic()
            assert left > 0, f"no such message; got {client.messages[after:]}"
            client.changed.wait(left)
        return next(data for event, data in client.messages[after:] if wanted(event, data))


def test_on_a_live_server_the_last_pick_changed_delays_the_flip_by_its_minimum(tmp_path) -> None:
    """Three players; the last to pick tries a card and changes it: the cards flip no sooner than flip_min_s
    after the change, and the others' screens are told when (room.call_in)."""
    import time

    from .live import Client, LiveServer, act, phase

    rules = tmp_path / "trial.toml"
    rules.write_text(RULES)
    server = LiveServer("--variants", str(rules), "--seed", "3")
    clients: list[Client] = []
    try:
        code, token = server.tv_page()
        host = Client(server.url, code, role="host", token=token)
        clients = [host] + [Client(server.url, code) for _ in range(3)]
        for k, client in enumerate(clients[1:]):
            assert client.join(f"P{k}")["ok"]
        assert host.call("variant", {"name": "trial"})["ok"] and host.call("start")["ok"]
        assert host.call("call_now")["ok"]
        first, second, last = clients[1:]
        for client in (first, second, last):
            client.wait_for(lambda s: phase(s) == "draw")
            assert act(client)["ok"]  # the draw
            client.wait_for(lambda s: s["game"]["you"]["drawn"] is not None)
        for client in (first, second):
            assert act(client)["ok"]  # the pick
        you = last.state["game"]["you"]
        tried, kept = you["hand"][0]["id"], you["hand"][1]["id"]
        assert last.call("choose", {"card_id": tried, "cycle": last.state["game"]["cycle"]})["ok"]
        time.sleep(0.5)  # past the beat alone: the flip still waits
        assert phase(host.state) == "choose"
        heard = len(first.messages)
        assert last.call("choose", {"card_id": kept, "cycle": last.state["game"]["cycle"]})["ok"]
        changed = time.monotonic()
        # The others are told the count starts again, though its seconds read as they did when it first started.
        told = wait_for_message(first, heard, lambda event, data: event == "table")
        assert time.monotonic() - changed < 1.0 and "phase" not in told["changes"].get("game", {}), told
        assert 1.2 < first.state["room"]["call_in"] <= 1.5
        host.wait_for(lambda s: phase(s) == "reveal", timeout=5)
        assert time.monotonic() - changed >= 1.45
        seat = last.state["game"]["you"]["seat"]
        assert host.state["game"]["seats"][seat]["pile_top"]["id"] == kept
    finally:
        for client in clients:
            client.close()
        server.stop()
