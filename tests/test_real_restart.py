"""Real cards and the journal: a room replayed exactly, and every entry and half-entered hand back after SIGKILL."""

from __future__ import annotations

from pathlib import Path

import pytest

from partyrummy.server.room.room import Room, Viewer
from partyrummy.server.storage.journal import Journal
from tests.real_helpers import faces_of, game, phase_is, real_room, real_server, tap_in


def test_a_real_cards_room_replayed_from_its_journal_is_the_same_room(tmp_path: Path, party) -> None:
    journal = Journal(tmp_path / "rooms.sqlite3")
    room = Room("REAL", {"party": party}, "party", lambda *a: None, record=journal.append_all)
    journal.open_room(room.code, room.host_token)
    tv = Viewer("host", room.host_token)
    room.attach("tv", tv)
    room.set_mode("real")
    for name in ("Ana", "Bob"):
        room.join(f"sid-{name}", name)
    room.add_person("Cy")
    room.set_helpers(True)
    room.start()
    room.call_now()  # "Cards are dealt: Draw!"
    ana, bob = room.viewers["sid-Ana"], room.viewers["sid-Bob"]
    for viewer in (ana, bob):  # Cy, without a phone, is Ready at each "Draw!" by himself
        room.answer(viewer, "ready", {})
    room.call_now()  # "Discard!" (all are ready: the beat need not run out)
    room.answer(ana, "match", {})
    room.call_now()  # the last cycle
    room.answer(ana, "draft", {"cards": ["4H", "5H", "6H"]})
    room.answer(ana, "confirm", {})
    room.answer(bob, "ready", {})
    room.call_now()  # the last "Discard!": score entry
    room.answer(bob, "points", {"points": 9})
    room.answer(bob, "draft", {"cards": ["KS", "2D"], "seat": 2})  # half a hand, for the phone-less seat
    journal.close()

    [(code, _, events)] = Journal(tmp_path / "rooms.sqlite3").recent_rooms()
    copy = Room(code, {"party": party}, "party", lambda *a: None)
    copy.restore(events)
    assert copy.state.game == room.state.game
    assert copy.state.game.hand.phase == "entry" and copy.state.game.hand.drafts[2] != ()
    assert (copy.state.mode, copy.state.allow_helpers) == ("real", True)
    assert [s.phoneless for s in copy.state.seats] == [False, False, True]
    assert [e["t"] for e in events].count("cmd") == 15  # Cy is Ready at "Draw!" and plays on at "Discard!"
    # A journal an earlier version wrote names these "real", and holds the engine's own pause and the calls'
    # times: it replays to the same room.
    older = [({**e, "t": "real"} if e["t"] == "cmd" else e) for e in events]
    older.insert(-3, {"t": "real", "cmd": {"type": "pause", "now": 1764780000.5}})
    older = [e if e.get("cmd", {}).get("type") != "call" else {**e, "cmd": {**e["cmd"], "now": 1.0}} for e in older]
    again = Room(code, {"party": party}, "party", lambda *a: None)
    again.restore(older)
    assert again.state.game == room.state.game


@pytest.mark.slow
def test_killed_during_score_entry_every_entry_and_half_entered_hand_is_back(tmp_path: Path) -> None:
    data = tmp_path / "rooms.sqlite3"
    server = real_server(data=data)
    tv, phones = real_room(server, 3, 1, reconnect=True)
    clients = [tv, *phones]
    try:
        assert tv.call("allow_helpers", {"allow": True})["ok"] and tv.call("start")["ok"]
        game(tv.wait_for(phase_is("setup")))
        assert tv.call("call_now")["ok"]
        game(tv.wait_for(phase_is("ready")))
        for phone in phones:
            assert phone.call("ready")["ok"]
        assert phones[1].call("ready", {"seat": 3})["ok"]  # a helper answers for the phone-less seat
        game(tv.wait_for(phase_is("reveal")))
        assert phones[0].call("match")["ok"]
        game(tv.wait_for(phase_is("last_ready")))
        for client, extra in ((phones[1], {}), (phones[2], {}), (tv, {"seat": 3})):
            assert client.call("ready", extra)["ok"]
        game(tv.wait_for(phase_is("entry")))

        tap_in(phones[0], ["4H", "5H", "6H"])
        assert phones[0].call("confirm")["ok"]  # confirmed, by cards
        assert phones[1].call("points", {"points": 4})["ok"]  # confirmed, typed
        tap_in(phones[2], ["KS", "KD"])  # half-entered
        tap_in(tv, ["QC"], seat=3)  # half-entered by the TV for the phone-less seat
        version = tv.sync()["state"]["v"]
        before = [game(c.wait_for(lambda s, v=version: s["v"] >= v)) for c in clients]
        assert faces_of(before[2]["you"]["helping"]["3"]["cards"]) == ["QC"]
        assert faces_of(before[3]["you"]["draft"]["cards"]) == ["KS", "KD"]

        server.kill()
        server = real_server(data=data, port=server.port)
        back = [game(c.wait_for(lambda s, v=version: s["v"] > v and s["game"] is not None, 30)) for c in phones]
        # Until a phone is back, the TV offers its picker: compare once the three phones are all back.
        on_tv = tv.wait_for(
            lambda s, v=version: s["v"] > v and [r["connected"] for r in s["room"]["seats"][:3]] == [True] * 3
        )
        after = [game(on_tv), *back]
        assert after == before  # every entry, every half-entered hand, on every screen as it was
        assert [row["entered"] for row in after[0]["seats"]] == [True, True, False, False]
        assert [faces_of(m) for m in after[1]["you"]["entry"]["melds"]] == [["4H", "5H", "6H"]]
        assert after[2]["you"]["entry"]["points"] == 4
        assert faces_of(after[0]["drafts"]["3"]["cards"]) == ["QC"]

        # And the hand goes on from there.
        tap_in(phones[2], ["KS", "KD", "KC"])
        assert phones[2].call("confirm")["ok"]
        assert tv.call("points", {"points": 10, "seat": 3})["ok"]
        scored = game(tv.wait_for(phase_is("scored")))
        assert [c["points"] for c in scored["sheet"][0]] == [0, 4, 0, 10]
        assert [c["how"] for c in scored["sheet"][0]] == ["cards", "typed", "cards", "typed"]
    finally:
        for client in clients:
            client.close()
        server.stop()
