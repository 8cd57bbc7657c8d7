"""A room played with real cards, driven directly with a clock of its own: the caller's timing and the seats."""

from __future__ import annotations

from dataclasses import replace

import pytest

from partyrummy.rules.errors import RummyError
from partyrummy.rules.variants import Variant
from partyrummy.server.room.room import Refused, Room, Viewer

from .clock import Clock


@pytest.fixture
def paced(party: Variant) -> Variant:
    """The party rules with a hurry at the table: the caller waits 5 s, counts down 5 s more, then calls without the
    slow."""
    return replace(
        party,
        table_beat_s=0.5,
        table_match_window_s=2.0,
        table_hurry_after_s=5,
        table_hurry_countdown_s=5,
        table_hurry_end="discard",
    )


def real_room(variant: Variant, names: tuple[str, ...] = ("Ana", "Bob"), phoneless: tuple[str, ...] = ("Cy",)):
    clock, sent = Clock(1000.0), []
    room = Room("REAL", {"party": variant}, "party", lambda sid, event, data: sent.append((sid, data)), clock=clock)
    room.attach("tv", Viewer("host", room.host_token))
    room.set_mode("real")
    room.set_phoneless_ready(False)  # these tests tap every Ready themselves (the default has its own test)
    for name in names:
        room.join(f"sid-{name}", name)
    for name in phoneless:
        room.add_person(name)
    return room, clock


def phase(room: Room) -> str:
    return room.state.game.hand.phase.value


def test_the_caller_waits_for_the_deal_then_the_beat_the_match_window_and_the_hurry(paced: Variant) -> None:
    room, clock = real_room(paced)
    tv, ana, bob = room.viewers["tv"], room.viewers["sid-Ana"], room.viewers["sid-Bob"]
    room.start()
    assert room.tick() is None and phase(room) == "setup"  # people are dealing: no call until the host's
    room.call_now()
    assert phase(room) == "ready"
    # Everyone ready: "Discard!" after the beat.
    for viewer, data in ((ana, {}), (bob, {}), (tv, {"seat": 2})):
        room.answer(viewer, "ready", data)
    assert room.tick() == pytest.approx(clock.now + 0.5)
    clock.now += 0.5
    room.tick()
    assert phase(room) == "reveal"
    assert room.view(tv)["room"]["match_ends_in"] == pytest.approx(2.0)
    # The match window closes by itself: the next "Draw!".
    assert room.tick() == pytest.approx(clock.now + 2.0)
    clock.now += 2.0
    room.tick()
    assert phase(room) == "ready" and room.state.game.hand.cycle == 2
    # Bob is slow: the hurry counts down, and "Discard!" comes without him.
    room.answer(ana, "ready", {})
    room.answer(tv, "ready", {"seat": 2})
    hurry = room.view(ana)["room"]["hurry"]
    assert hurry == {"starts_in": pytest.approx(5.0), "ends_in": pytest.approx(10.0)}
    assert room.tick() == pytest.approx(clock.now + 5.0)  # the caller looks again when the countdown begins
    clock.now += 4.0
    room.set_paused(True)  # the pause stops the caller (the pause is the room's, for either way to play)
    clock.now += 100.0
    assert room.tick() is None and phase(room) == "ready"
    assert room.view(ana)["room"]["hurry"] is None
    with pytest.raises(Refused):
        room.answer(bob, "ready", {})  # while paused, the pace's taps wait
    room.set_paused(False)  # the hurry starts again from the resume, as with cards on the phones
    assert room.tick() == pytest.approx(clock.now + 5.0)
    clock.now += 5.0
    assert room.tick() == pytest.approx(clock.now + 5.0)
    clock.now += 5.0
    room.tick()
    assert phase(room) == "reveal"


def test_by_default_the_hurry_only_names_the_slow_and_the_table_keeps_waiting(paced: Variant) -> None:
    """Real cards are in people's hands: at the end of the countdown the caller waits on (table_hurry_end "wait")."""
    room, clock = real_room(replace(paced, table_hurry_end="wait"))
    tv, ana = room.viewers["tv"], room.viewers["sid-Ana"]
    room.start()
    room.call_now()
    room.answer(ana, "ready", {})
    room.answer(tv, "ready", {"seat": 2})
    assert room.tick() == pytest.approx(clock.now + 5.0)
    clock.now += 5.0
    assert room.tick() == pytest.approx(clock.now + 5.0)  # the countdown's end: the screens say so
    clock.now += 30.0
    assert room.tick() is None and phase(room) == "ready"  # still waiting for Bob, by name
    assert room.view(tv)["game"]["waiting_for"] == [1]
    assert room.view(tv)["room"]["hurry"]["ends_in"] == pytest.approx(-25.0)  # overdue: the TV names Bob


def test_by_default_the_seats_without_a_phone_are_ready_at_each_draw(paced: Variant) -> None:
    room, clock = real_room(paced)
    room.set_phoneless_ready(True)
    tv, ana, bob = room.viewers["tv"], room.viewers["sid-Ana"], room.viewers["sid-Bob"]
    room.start()
    room.call_now()
    assert room.view(tv)["game"]["waiting_for"] == [0, 1]  # Cy (no phone) is Ready without the host's tap
    room.answer(tv, "ready", {"seat": 2, "ready": False})  # the host may untick a slow one
    assert room.view(tv)["game"]["waiting_for"] == [0, 1, 2]
    for viewer, data in ((ana, {}), (bob, {}), (tv, {"seat": 2})):
        room.answer(viewer, "ready", data)
    clock.now += 0.5
    room.tick()  # "Discard!"
    clock.now += 2.0
    room.tick()  # the next "Draw!": Cy is Ready again
    assert phase(room) == "ready" and room.view(tv)["game"]["waiting_for"] == [0, 1]


def test_the_tv_enters_a_hand_for_a_seat_whose_phone_is_gone_or_when_the_host_chooses(paced: Variant) -> None:
    room, clock = real_room(paced)
    tv, ana, bob = room.viewers["tv"], room.viewers["sid-Ana"], room.viewers["sid-Bob"]
    room.start()
    room.call_now()
    for viewer, data in ((ana, {}), (bob, {}), (tv, {"seat": 2})):
        room.answer(viewer, "ready", data)
    clock.now += 0.5
    room.tick()
    room.answer(ana, "match", {})
    room.call_now()  # the last cycle
    room.answer(bob, "ready", {})
    room.answer(tv, "ready", {"seat": 2})
    room.call_now()  # score entry
    with pytest.raises(RummyError, match="error.answer_connected"):
        room.answer(tv, "points", {"seat": 1, "points": 4})  # Bob's phone is here: his to enter
    room.detach("sid-Bob")  # his phone locks: the TV enters it, and the hand is not blocked
    room.answer(tv, "draft", {"seat": 1, "cards": ["KS"]})
    assert "1" in room.view(tv)["game"]["drafts"]
    room.answer(tv, "points", {"seat": 1, "points": 4})
    room.answer(tv, "points", {"seat": 0, "points": 0, "override": True})  # Ana's phone is here: the host chose
    room.answer(tv, "points", {"seat": 2, "points": 7})
    assert phase(room) == "scored" and room.state.game.history[0][1].points == 4


def test_the_hosts_pace_scales_every_time_of_the_caller(paced: Variant) -> None:
    room, clock = real_room(paced)
    room.start()
    room.set_pace("relaxed")
    room.call_now()
    factor = paced.paces["relaxed"]
    assert room.view(room.viewers["tv"])["room"]["hurry"]["starts_in"] == pytest.approx(5.0 * factor)
    assert room.view(room.viewers["tv"])["room"]["pace"] == "relaxed"
    with pytest.raises(Refused):
        room.set_pace("glacial")


def test_a_phone_less_player_arrives_mid_game_gets_a_phone_and_leaves(party: Variant) -> None:
    later = replace(party, newcomers="next-hand")
    room, _ = real_room(later)
    tv, ana = room.viewers["tv"], room.viewers["sid-Ana"]
    room.start()
    assert room.add_person("Dee") == 3
    book = room.state.game
    assert book.players == 4 and book.hand.players == 3 and room.state.seats[3].phoneless
    assert room.view(tv)["room"]["seats"][3] | {"phoneless": True, "waiting": True} == room.view(tv)["room"]["seats"][3]
    # Cy scans his seat's rejoin QR with a borrowed phone: his seat has a phone now.
    room.claim("sid-Cy", room.ticket(2))
    assert not room.state.seats[2].phoneless  # the room's to know: the engine is told with each command
    cy = room.viewers["sid-Cy"]
    room.call_now()
    room.answer(cy, "ready", {})
    with pytest.raises(RummyError):
        room.answer(ana, "ready", {"seat": 2})  # no longer phone-less (and helpers are not allowed)
    room.remove(2)  # the host takes him off mid-hand: the table waits for him no more
    assert room.state.game.hand.players == 2 and [s.name for s in room.state.seats] == ["Ana", "Bob", "Dee"]


def test_the_mode_is_chosen_in_the_lobby_and_bots_stay_off_a_real_table(party: Variant) -> None:
    room, _ = real_room(party, phoneless=())
    assert room.view(room.viewers["tv"])["room"]["mode"] == "real"
    with pytest.raises(Refused):
        room.add_bot("easy")
    room.set_mode("phones")
    room.add_bot("easy")
    with pytest.raises(Refused):
        room.add_person("Cy")  # real cards only
    with pytest.raises(Refused):
        room.set_mode("real")  # a bot is seated
    room.remove(2)
    room.set_mode("real")
    room.start()
    with pytest.raises(Refused):
        room.set_mode("phones")  # not mid-game


def test_with_cards_on_the_phones_the_real_cards_events_are_refused(party: Variant) -> None:
    room, _ = real_room(party, phoneless=())
    room.set_mode("phones")
    ana = room.viewers["sid-Ana"]
    room.start()
    for event, data in (("draft", {"cards": ["7H"]}), ("points", {"points": 3}), ("done", {})):
        with pytest.raises(Refused, match="error.real_only"):
            room.answer(ana, event, data)
    with pytest.raises(Refused, match="error.real_only"):
        room.add_person("Cy")
    with pytest.raises(RummyError, match="error.answer_for"):
        room.answer(ana, "match", {"seat": 1})  # Match! only for one's own seat
    assert room.state.game.hand.hand_no == 1


def test_a_slow_turn_is_counted_down_too(paced: Variant, variants) -> None:
    """Turn-based rules with real cards: the TV counts a slow turn down, and by the rules ends it or waits on."""
    turns = replace(
        variants["classic"], **{k: getattr(paced, k) for k in ("table_hurry_after_s", "table_hurry_countdown_s")}
    )
    room, clock = real_room(replace(turns, table_hurry_end="discard"), phoneless=())
    room.start()
    room.call_now()  # the first turn
    first = room.state.game.hand.turn
    assert room.view(room.viewers["tv"])["room"]["hurry"] == {
        "starts_in": pytest.approx(5.0),
        "ends_in": pytest.approx(10.0),
    }
    clock.now += 10.0
    room.tick()
    assert room.state.game.hand.turn != first  # the slow turn ended by itself


def test_real_cards_refuse_a_stack_per_seat_with_a_clear_reason_and_write_nothing(party: Variant) -> None:
    from .words import english

    events: list[dict] = []
    room, _ = real_room(party)
    room.journal.record = lambda code, written: events.extend(written)
    with pytest.raises(Refused) as refusal:
        room.start(seed=5, draws=party.night_draws)
    assert refusal.value.key == "error.own_order_real" and "own stack" in english(refusal.value)
    assert room.state.game is None and events == []
    with pytest.raises(Refused, match="error.no_draws"):
        room.start(seed=5, draws="two-shoes")
    room.start(seed=5, draws="one-shoe")  # one shoe is what real cards play anyway
    assert room.state.game is not None and events[-1] == {"t": "start", "variant": "party", "seed": 5}
