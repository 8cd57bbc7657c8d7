"""The room's caller and lobby, driven with a fake clock and a recording `send` (no sockets)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from partyrummy.server.room.room import Refused, Room, Viewer
from partyrummy.server.room.rooms import CODE_ALPHABET, new_code

from .clock import Clock
from .words import refused


@pytest.fixture
def room(party):
    sent: list[tuple[str, str, dict]] = []
    # No minimum after a change (test_pace.py has it): the flip comes a beat after the last to act.
    variants = {"party": replace(party, beat_s=0.5, match_window_s=2, hurry_after_s=10, hurry_countdown_s=5,
                                 flip_min_s=0)}
    clock = Clock(100.0)
    r = Room("TEST", variants, "party", lambda sid, event, data: sent.append((sid, event, data)), clock)
    r.sent, r.clock_ = sent, clock
    r.attach("tv", Viewer("host", r.host_token))
    for name in ("Ana", "Bob", "Cy"):
        r.join(f"sid-{name}", name)
    r.flush()
    return r


def test_codes_use_no_look_alike_letters() -> None:
    for _ in range(200):
        code = new_code(set())
        assert len(code) == 4 and set(code) <= set(CODE_ALPHABET)
    assert not set("B8O0QDI1S5Z2G6UV") & set(CODE_ALPHABET)


def test_lobby_names_are_unique_and_the_first_joined_is_vip(room) -> None:
    with refused(Refused, "already called ana"):
        room.join("sid-x", "ana")
    assert room.vip() == 0
    room.move(0, 2)
    assert [s.name for s in room.state.seats] == ["Bob", "Cy", "Ana"] and room.vip() == 2
    room.remove(0)
    assert [s.name for s in room.state.seats] == ["Cy", "Ana"]
    assert room.viewers["sid-Bob"].role == "guest"
    assert ("sid-Bob", "notice") in [(s, e) for s, e, _ in room.sent]


def test_the_caller_calls_draw_after_the_match_window_and_discard_after_the_beat(room) -> None:
    room.start(seed=1)
    assert room.state.game.hand.phase.value == "setup"
    assert room.tick() == 102.0
    room.clock_.now = 102.0
    room.tick()
    assert room.state.game.hand.phase.value == "draw"
    from partyrummy.phones.commands import Choose, Draw

    for seat in range(3):
        room.play(Draw(seat, "shoe"))
        room.play(Choose(seat, room.state.game.hand.drawn[seat]))
    room.clock_.now = 102.2
    assert room.tick() == 102.5  # everyone has acted: a short beat first
    assert room.state.game.hand.phase.value == "choose"
    room.clock_.now = 102.5
    assert room.tick() == 104.5  # "Discard!", and the match window runs
    assert room.state.game.hand.phase.value == "reveal"


def test_a_slow_player_is_counted_down_then_played_for(room) -> None:
    room.start(seed=1)
    room.clock_.now = 102.0
    room.tick()
    from partyrummy.phones.commands import Choose, Draw

    room.play(Draw(0, "shoe"))
    room.play(Choose(0, room.state.game.hand.drawn[0]))
    assert room.tick() == 112.0  # hurry_after_s after "Draw!"
    room.clock_.now = 112.0
    assert room.tick() == 117.0  # the countdown runs
    view = room.view(Viewer("host", room.host_token))
    assert view["room"]["hurry"] == {"starts_in": 0.0, "ends_in": 5.0}
    room.clock_.now = 117.0
    assert room.tick() == 117.5  # played for, then the beat before "Discard!"
    hand = room.state.game.hand
    assert hand.phase.value == "choose" and all(p is not None for p in hand.picks)
    assert hand.picks[0] == hand.drawn[0]  # Ana's own pick stands


def test_a_match_window_goes_on_for_a_seat_whose_phone_dropped_off(room) -> None:
    """The window after the deal waits for Ana's phone; once it has been gone as long as the table takes to show a
    drop, the caller wakes, plays on for her, and "Draw!" comes a beat later, long before the window's clock."""
    from partyrummy.phones.commands import Ready
    from partyrummy.server.room.seats import DROP_GRACE_S

    room.variants["party"] = replace(room.variants["party"], match_window_s=30)
    room.start(seed=1)
    hand = room.state.game.hand
    for seat in (1, 2):
        room.play(Ready(seat, True, hand.cycle))
    assert room.tick() == 130.0  # Ana's phone is here: the window waits for her tap
    room.detach("sid-Ana")
    assert room.tick() == 100.0 + DROP_GRACE_S  # her phone is gone: the caller looks again when the table is told
    room.clock_.now = 100.0 + DROP_GRACE_S
    assert room.tick() == 100.5 + DROP_GRACE_S and room.state.game.hand.going_on == (1, 2, 0)
    room.clock_.now = 100.5 + DROP_GRACE_S
    room.tick()
    assert room.state.game.hand.phase.value == "draw"


def test_pause_holds_the_caller_and_resume_restarts_the_clock(room) -> None:
    room.start(seed=1)
    room.set_paused(True)
    room.clock_.now = 500.0
    assert room.tick() is None and room.state.game.hand.phase.value == "setup"
    room.set_paused(False)
    assert room.tick() == 502.0


def test_call_now_plays_for_everyone_slow_and_calls(room) -> None:
    room.start(seed=1)
    room.call_now()
    assert room.state.game.hand.phase.value == "draw"
    room.call_now()
    assert room.state.game.hand.phase.value == "reveal"


def test_only_the_host_and_the_vip_may_host(room) -> None:
    assert room.may_host(Viewer("host", room.host_token))
    assert room.may_host(Viewer("player", room.state.seats[0].token))
    assert not room.may_host(Viewer("player", room.state.seats[1].token))
    assert not room.may_host(Viewer("guest"))


def test_one_update_per_viewer_for_all_the_changes_of_a_command(room) -> None:
    room.sent.clear()
    room.start(seed=1)
    room.settle()
    everyone = sorted(["tv", "sid-Ana", "sid-Bob", "sid-Cy"])
    # The table's changes once to the room (here, without Socket.IO, to each connection in turn)…
    assert sorted(sid for sid, event, _ in room.sent if event == "table") == everyone
    # … and each connection's own part once.
    assert sorted(sid for sid, event, _ in room.sent if event == "mine") == everyone


def test_play_on_taps_in_a_match_window_go_out_in_one_batch(room) -> None:
    """Ana and Bob tap "Play on" a moment apart: the table hears of both in one update, with the next batch, as of
    draws and picks (twelve taps were twelve updates to every connection)."""
    from partyrummy.phones.commands import Ready
    from partyrummy.server.room.outbox import BATCH_S

    room.start(seed=1)
    room.settle()
    room.sent.clear()
    for seat in (0, 1):
        room.play(Ready(seat, True, None))
        room.settle()
        room.clock_.now += 0.01
    assert [e for _, e, _ in room.sent if e == "table"] == []  # not yet: they wait for the batch
    room.clock_.now += BATCH_S
    room.flush()
    tables = [data for sid, e, data in room.sent if e == "table" and sid == "sid-Cy"]
    assert len(tables) == 1 and set(tables[0]["changes"]["game"]["seats"]) == {"0", "1"}


def to_draw(room) -> None:
    room.start(seed=1)
    room.clock_.now += 2
    room.tick()
    assert room.state.game.hand.phase.value == "draw"


def test_an_open_seat_is_played_at_once_and_a_newcomer_takes_its_hand_and_score(room) -> None:
    to_draw(room)
    bob_hand = room.state.game.hand.hands[1]
    room.release(1)
    assert room.viewers["sid-Bob"].role == "guest"
    assert (
        "sid-Bob",
        "notice",
        {"code": "released", "message": "The host opened your seat for someone else"},
    ) in room.sent
    assert room.view(room.viewers["tv"])["room"]["seats"][1]["health"] == "open"
    room.tick()  # nobody to wait for: the caller draws and picks for the open seat now
    assert room.state.game.hand.drawn[1] is not None and room.state.game.hand.picks[1] is not None
    with refused(Refused, "already called Ana"):
        room.take("sid-Eve", 1, "Ana")
    token = room.take("sid-Eve", 1, "Eve")
    assert room.seat_of(token) == 1 and room.state.seats[1].name == "Eve"
    assert set(bob_hand) <= set(room.state.game.hand.hands[1])  # Bob's hand, and the card drawn for it
    with refused(Refused, "taken"):
        room.take("sid-Fay", 1, "Fay")
    assert room.seat_of(room.state.seats[0].token) == 0  # nobody else moved


def test_seat_health_goes_from_reconnecting_to_gone(room) -> None:
    def health() -> str:
        return room.view(room.viewers["tv"])["room"]["seats"][0]["health"]

    assert health() == "connected"
    room.detach("sid-Ana")
    assert health() == "reconnecting"
    room.clock_.now += 61
    assert health() == "gone" and room.view(room.viewers["tv"])["room"]["seats"][0]["gone_for"] == 61
    room.attach("sid-Ana-2", Viewer("player", room.state.seats[0].token))
    assert health() == "connected"


def test_a_rejoin_ticket_works_once_and_not_for_long(room) -> None:
    old_token = room.state.seats[2].token
    ticket = room.ticket(2)
    seat, token = room.claim("sid-borrowed", ticket)
    assert seat == 2 and token != old_token and room.seat_of(old_token) is None
    assert room.viewers["sid-Cy"].role == "guest"  # the dead phone, if it wakes, is told and watches
    with refused(Refused, "expired"):
        room.claim("sid-other", ticket)
    late = room.ticket(2)
    room.clock_.now += 601
    with refused(Refused, "expired"):
        room.claim("sid-other", late)


def test_a_player_removed_mid_hand_and_a_newcomer_keep_seats_and_engine_in_step(room) -> None:
    to_draw(room)
    room.join("sid-Dee", "Dee")  # mid-hand: waits for the next deal
    assert room.state.game.players == 4 and room.state.game.hand.players == 3
    assert room.view(room.viewers["sid-Dee"])["game"]["you"] == {"seat": 3, "waiting": True}
    room.remove(0)
    assert [s.name for s in room.state.seats] == ["Bob", "Cy", "Dee"] and room.state.game.hand.players == 2
    assert room.seat_for(room.viewers["sid-Cy"]) == 1 and room.view(room.viewers["sid-Cy"])["game"]["you"]["seat"] == 1
    with refused(Exception, "At least 2"):
        room.remove(0)
    assert [s.name for s in room.state.seats] == ["Bob", "Cy", "Dee"]  # the refusal changed nothing


def test_bots_take_seats_in_the_lobby_and_play_a_seat_mid_game(room) -> None:
    assert room.add_bot("sharp") == 3 and room.state.seats[3].name == "Bot 1" and room.state.seats[3].token is None
    with refused(Refused, "no such bot"):
        room.add_bot("genius")
    seats = room.view(room.viewers["tv"])["room"]["seats"]
    assert seats[3]["bot"] == "sharp" and seats[3]["health"] == "bot" and not seats[3]["open"]
    room.remove(0)  # Ana, the first to join, leaves: the VIP is the next person, never a bot
    assert room.vip() == 0 and room.state.seats[0].name == "Bob"
    to_draw(room)
    room.tick()
    assert room.state.game.hand.drawn[2] is not None and room.state.game.hand.picks[2] is not None  # the bot has played
    assert room.state.game.hand.drawn[0] is None  # people are left to play for themselves
    room.give_to_bot(1, "easy")
    assert room.viewers["sid-Cy"].role == "guest" and room.state.seats[1].robot.strength == "easy"
    room.tick()
    assert room.state.game.hand.picks[1] is not None
    room.set_bot_takeover(True)  # off by default: the host's choice (allow_bot_takeover)
    token = room.take("sid-Eve", 1, "Eve")  # a person may take a bot's seat back
    assert room.seat_of(token) == 1 and room.state.seats[1].robot is None


def test_with_turns_the_caller_hurries_a_slow_turn_and_moves_on_after_the_beat(variants) -> None:
    # A slower house pace: twice the beat, and a slow turn counted down from 30 s.
    slow = replace(variants["classic"], beat_s=1.2, hurry_after_s=30, hurry_countdown_s=10)
    clock = Clock(100.0)
    room = Room("TURN", {"slow": slow}, "slow", lambda sid, event, data: None, clock)
    for name in ("Ana", "Bob", "Cy"):
        room.join(f"sid-{name}", name)
    room.start(seed=1)
    hand = room.state.game.hand
    assert (hand.phase.value, hand.dealer, hand.turn) == ("draw", 0, 1)  # Ana drew the deal; Bob, on her left, starts
    assert room.tick() == 130.0  # nobody else is waited for: Bob's turn is hurried after 30 s
    from partyrummy.phones.commands import Choose, Draw

    room.play(Draw(1, "shoe"))
    room.play(Choose(1, room.state.game.hand.drawn[1]))
    clock.now = 101.0
    assert room.tick() == 101.2  # the beat (1.2 s) after Bob's discard
    clock.now = 101.2
    room.tick()
    assert (room.state.game.hand.turn, room.state.game.hand.phase.value) == (2, "draw")
    assert room.tick() == 131.2  # Cy's own 30 s
    clock.now = 141.2
    room.tick()  # the countdown ran out: Cy is played for, and after the beat it is Ana's turn
    clock.now = 142.4
    room.tick()
    assert room.state.game.hand.turn == 0 and len(room.state.game.hand.piles[0]) == 3


def test_a_false_match_is_refused_to_its_caller_and_told_to_the_table_until_the_phase_moves_on(room) -> None:
    from partyrummy.rules.errors import NotComplete
    from partyrummy.rules.melds import is_complete

    room.start(seed=1)
    hand = room.state.game.hand
    seat = next(
        s for s in range(3) if not is_complete(hand.cards_of(hand.hands[s]), hand.wild_rank, hand.variant.meld_rules())
    )
    viewer = room.viewers[f"sid-{room.state.seats[seat].name}"]
    with pytest.raises(NotComplete):
        room.answer(viewer, "match", {})
    told = room.view(room.viewers["tv"])["game"]["false_match"]
    assert told["seat"] == seat and told["points"] > 0  # "Not yet, Ana: 11 points left"
    assert room.state.game.hand.matched == ()  # and nothing else changed
    room.clock_.now += 2
    room.tick()  # "Draw!"
    assert room.view(room.viewers["tv"])["game"]["false_match"] is None


def test_the_tv_is_told_what_the_host_may_do_now_and_what_it_is_not_offered_is_refused(room, party) -> None:
    def host() -> dict:
        return room.view(room.viewers["tv"])["room"]["you"]

    assert host()["can"] == ["start", "add_bot"]  # three seated, cards on the phones: no player without a phone
    assert host()["seats_can"] == {"release": [], "bot_seat": []}  # between games: no seat to hand over
    with refused(Refused, "take the player off instead"):
        room.release(1)
    while len(room.state.seats) < party.max_players:
        room.add_bot("easy")
    assert "add_bot" not in host()["can"]  # the table is full
    with refused(Refused, "full"):
        room.add_bot("easy")
    room.remove(11)
    room.start(seed=1)
    assert "start" not in host()["can"]
    bots = [i for i, s in enumerate(room.state.seats) if s.robot]
    assert host()["seats_can"] == {"release": list(range(11)), "bot_seat": [0, 1, 2]}  # the people's to a bot
    room.release(1)
    assert 1 not in host()["seats_can"]["release"] and 1 in host()["seats_can"]["bot_seat"]  # open: a bot may take it
    with refused(Refused, "open already"):
        room.release(1)
    with refused(Refused, "bot plays that seat already"):
        room.give_to_bot(bots[0], "easy")
