"""Rooms kept in SQLite: replayed card for card, and back after the server is killed with SIGKILL."""

from __future__ import annotations

from pathlib import Path

import pytest

from partyrummy.phones.bots import Bot, bot_move
from partyrummy.phones.commands import Call, Choose, Draw
from partyrummy.server.room.room import Refused, Room, Viewer
from partyrummy.server.storage.journal import Journal

from .live import LiveServer, act, phase, seated


def test_a_room_replayed_from_its_journal_is_the_same_room(tmp_path: Path, party) -> None:
    journal = Journal(tmp_path / "rooms.sqlite3")
    room = Room("ABCD", {"party": party}, "party", lambda *a: None, record=journal.append_all)
    journal.open_room(room.code, room.host_token)
    room.attach("tv", Viewer("host", room.host_token))
    for name in ("Ana", "Bob", "Cy"):
        room.join(f"sid-{name}", name)
    room.move(2, 0)
    room.start()
    room.play(Call())
    for seat in range(3):
        room.play(Draw(seat, "pile" if seat else "shoe"))
        room.play(Choose(seat, room.state.game.hand.hands[seat][0]))
    room.call_now()
    # Seats coming and going mid-game are events too.
    room.join("sid-Dee", "Dee")
    room.release(1)
    room.take("sid-Eve", 1, "Eve")
    room.claim("sid-Cy-2", room.ticket(2))
    room.give_to_bot(1, "easy")
    room.remove(0)
    try:
        room.play(Draw(0, "table"))  # refused: not recorded
    except Exception:
        pass
    journal.close()

    again = Journal(tmp_path / "rooms.sqlite3")
    [(code, token, events)] = again.recent_rooms()
    copy = Room(code, {"party": party}, "party", lambda *a: None)
    copy.restore(events)
    assert (code, token) == ("ABCD", room.host_token)
    assert copy.state.game == room.state.game
    seats = [[(s.name, s.token, s.colour) for s in r.state.seats] for r in (copy, room)]
    assert seats[0] == seats[1]
    assert [e["t"] for e in events].count("cmd") == 8
    assert copy.state.game.players == 3 and copy.state.game.hand.players == 2
    assert copy.state.seats[0].robot.strength == "easy" and copy.state.seats[1].robot is None


def table(state: dict) -> dict:
    """What must survive a restart: the hand, the piles, the scores, the moment of the game."""
    game = state["game"]
    return {
        "hand": game["you"]["hand"],
        "drawn": game["you"]["drawn"],
        "seats": game["seats"],
        "totals": game["totals"],
        "history": game["history"],
        "moment": (game["hand_no"], game["cycle"], game["phase"]),
    }


@pytest.mark.slow
def test_killed_mid_hand_and_restarted_every_phone_is_back_in_its_seat(tmp_path: Path) -> None:
    data = tmp_path / "rooms.sqlite3"
    server = LiveServer(data=data)
    host, phones = seated(server, "fast", 12, reconnect=True)
    assert host.call("start")["ok"]
    # Play hand 1 through; then let half the table draw in hand 2 and stop mid-phase. The phones act only
    # on hand 1: a phone that saw hand 2's "Draw!" before the host did once drew there on its own, and the
    # test (not the server) then found one of the six who should still draw already done.
    while True:
        state = host.wait_for(lambda s: True)
        if state["game"]["hand_no"] >= 2:
            break
        if phase(state) == "scored":
            host.call("call_now")
        for phone in phones:
            game = phone.state and phone.state["game"]
            if game and game["hand_no"] == 1:
                act(phone)
        with host.changed:
            host.changed.wait(0.05)
    for phone in phones[:6]:
        phone.wait_for(lambda s: phase(s) == "draw")
        assert phone.call("draw", {"source": "shoe"})["ok"]
    version = host.sync()["state"]["v"]
    before = [table(p.wait_for(lambda s, v=version: s["v"] >= v)) for p in phones]

    server.kill()
    server = LiveServer(data=data, port=server.port)
    try:
        after = [table(p.wait_for(lambda s, v=version: s["v"] > v and s["game"] is not None, 30)) for p in phones]
        assert after == before  # same hands, same piles, same scores, same moment
        tv = host.wait_for(lambda s: s["v"] > version and all(x["connected"] for x in s["room"]["seats"]), 30)
        assert tv["room"]["code"] == host.room
        # And they play on: the rest draw, everyone picks, the caller reveals.
        for phone in phones[6:]:
            assert phone.call("draw", {"source": "shoe"})["ok"]
        for phone in phones:
            drawn = phone.wait_for(lambda s: s["game"]["you"]["drawn"])["game"]["you"]["drawn"]["id"]
            assert phone.call("choose", {"card_id": drawn})["ok"]
        host.wait_for(lambda s: s["game"]["cycle"] > before[0]["moment"][1] or phase(s) == "reveal", 10)
    finally:
        for client in [host, *phones]:
            client.close()
        server.stop()


def test_a_turn_based_room_replays_turn_for_turn(tmp_path: Path, variants) -> None:
    classic = variants["classic"]
    journal = Journal(tmp_path / "rooms.sqlite3")
    room = Room("TURN", {"classic": classic}, "classic", lambda *a: None, record=journal.append_all)
    journal.open_room(room.code, room.host_token)
    for name in ("Ana", "Bob", "Cy", "Dee"):
        room.join(f"sid-{name}", name)
    room.start(seed=2)  # a deal in which nobody goes out in these few turns
    bot = Bot("sharp")
    for _ in range(5):  # five whole turns, each by the player whose turn it is
        seat = room.state.game.hand.turn
        room.play(bot_move(room.state.game.hand, seat, bot))
        room.play(bot_move(room.state.game.hand, seat, bot))
        room.play(Call())
    room.play(Draw(room.state.game.hand.turn, "shoe"))
    room.remove(room.state.game.hand.turn)  # gone mid-turn: the turn passes on
    journal.close()

    [(code, _, events)] = Journal(tmp_path / "rooms.sqlite3").recent_rooms()
    copy = Room(code, {"classic": classic}, "classic", lambda *a: None)
    copy.restore(events)
    assert copy.state.game == room.state.game and copy.state.game.hand.cycle == 7 and copy.state.game.hand.players == 3


def test_an_own_order_room_journals_it_and_replays_stack_for_stack(tmp_path: Path, party) -> None:
    journal = Journal(tmp_path / "rooms.sqlite3")
    room = Room("OWNO", {"party": party}, "party", lambda *a: None, record=journal.append_all)
    journal.open_room(room.code, room.host_token)
    for name in ("Ana", "Bob", "Cy", "Dee"):
        room.join(f"sid-{name}", name)
    room.start(seed=42, draws=party.night_draws)
    room.play(Call())
    for seat in range(4):
        room.play(Draw(seat, "pile" if seat % 2 else "shoe"))
        room.play(Choose(seat, room.state.game.hand.hands[seat][0]))
    room.call_now()
    room.remove(2)  # its stack, hand and pile go under the others'
    journal.close()

    [(code, _, events)] = Journal(tmp_path / "rooms.sqlite3").recent_rooms()
    [start] = [e for e in events if e["t"] == "start"]
    assert start == {"t": "start", "variant": "party", "seed": 42, "draws": "own-order"}
    copy = Room(code, {"party": party}, "party", lambda *a: None)
    copy.restore(events)
    hand = copy.state.game.hand
    assert copy.state.game == room.state.game and hand.draws == "own-order" and len(hand.stacks) == 3
    assert hand.stacks == room.state.game.hand.stacks and hand.shoe == ()


def test_a_start_without_draws_journals_as_before_and_replays_one_shoe(party) -> None:
    events: list[dict] = []
    room = Room("ONES", {"party": party}, "party", lambda *a: None, record=lambda code, e: events.extend(e))
    for name in ("Ana", "Bob"):
        room.join(f"sid-{name}", name)
    room.start(seed=7)
    room.play(Call())
    room.play(Draw(0, "shoe"))
    assert [e for e in events if e["t"] == "start"] == [{"t": "start", "variant": "party", "seed": 7}]
    # An old journal's start has no "draws": it deals one shoe, card for card.
    copy = Room("ONES", {"party": party}, "party", lambda *a: None)
    copy.restore(events)
    assert copy.state.game == room.state.game and copy.state.game.hand.stacks == ()
    assert copy.state.game.draws == "one-shoe" and copy.state.game.hand.shoe_count == room.state.game.hand.shoe_count
    # Asked for by name, one shoe journals nothing more either.
    other = Room("ONE2", {"party": party}, "party", lambda *a: None, record=lambda code, e: events.extend(e))
    for name in ("Ana", "Bob"):
        other.join(f"sid-{name}", name)
    other.start(seed=7, draws="one-shoe")
    assert events[-1] == {"t": "start", "variant": "party", "seed": 7}
    with pytest.raises(Refused) as refusal:
        other.start(seed=8, draws="two-shoes")  # a game is on: refused before the way of drawing is looked at
    assert refusal.value.key == "error.game_on"
