"""The send path of views (partyrummy/server/transport/stream.py): whole on connecting, then updates; a missed one
is caught up."""

from __future__ import annotations

import copy
import socket
import threading
from dataclasses import replace

import pytest

from partyrummy.server.app import create_app
from partyrummy.server.room.room import Room, Viewer
from partyrummy.server.transport.httpd import threaded_server
from partyrummy.server.transport.stream import Stream
from partyrummy.wire.delta import apply

from .live import Client, free_port, play_game, seated


def mine(paused: bool = False) -> dict:
    return {"room": {"you": {"role": "player", "seat": 0, "paused": paused}}, "game": None}


def test_a_connections_own_part_goes_whole_then_as_its_changes_and_not_at_all_when_unchanged() -> None:
    out: list[tuple[str, str, dict]] = []
    stream = Stream(lambda sid, event, payload: out.append((sid, event, payload)))
    first, second = mine(), mine(paused=True)
    stream.send("a", "state", {"v": 3, "table_v": 3, "table": {}, "mine": first})
    stream.send("a", "notice", {"code": "removed"})  # anything else passes through
    stream.send("a", "mine", {"v": 5, "table_v": 3, "mine": second})
    # No newer than what it holds (the client would drop it); then nothing of its own changed: nothing goes out.
    stream.send("a", "mine", {"v": 5, "table_v": 3, "mine": mine()})
    stream.send("a", "mine", {"v": 7, "table_v": 3, "mine": dict(second)})
    assert [(sid, event) for sid, event, _ in out] == [("a", "state"), ("a", "notice"), ("a", "mine")]
    update = out[2][2]
    assert update == {"v": 5, "base": 3, "table_v": 3, "changes": {"room": {"you": {"paused": [True]}}}}
    assert apply(first, update["changes"]) == second
    stream.send("a", "mine", {"v": 8, "table_v": 3, "mine": mine()})  # counted from the part it holds (v 5), not v 7
    assert out[-1][2]["base"] == 5


def test_devices_sharing_a_part_share_its_update_and_a_gone_one_is_forgotten() -> None:
    out: list[tuple[str, str, dict]] = []
    stream = Stream(lambda sid, event, payload: out.append((sid, event, payload)))
    old, new = mine(), mine(paused=True)
    for sid in ("phone", "tab"):
        stream.send(sid, "state", {"v": 1, "table_v": 1, "table": {}, "mine": old})
    for sid in ("phone", "tab"):
        stream.send(sid, "mine", {"v": 2, "table_v": 1, "mine": new})
    assert out[2][2]["changes"] is out[3][2]["changes"]  # worked out once for both
    stream.forget("tab")
    assert set(stream.sent) == {"phone"}
    stream.send("tab", "mine", {"v": 4, "table_v": 1, "mine": new})  # no whole state yet for that id: nothing
    assert len(out) == 4


def test_a_view_once_sent_never_changes(party) -> None:
    """Updates are worked out against what was sent: a table or a part sharing a list the room later changes in
    place (the night's results, say) would hide that change from every client."""
    sent: list[dict] = []
    now = [100.0]
    quick = replace(party, hand_sizes=(3, 4), beat_s=0, match_window_s=0, hurry_after_s=0)
    room = Room("TEST", {"party": quick}, "party", lambda sid, event, data: sent.append(data), lambda: now[0])
    room.attach("tv", Viewer("host", room.host_token))
    for _ in range(3):
        room.add_bot("easy")
    room.start(seed=1)
    kept: list[tuple[dict, dict]] = []
    while room.state.game is not None and not room.state.game.over:
        room.tick()  # the caller plays the bots' seats and calls
        if room.state.game.hand.phase.value == "scored" and not room.state.game.over:
            room.call_now()
        now[0] += 1.0
        room.flush()
        kept += [(message, copy.deepcopy(message)) for message in sent[len(kept) :]]
    night = room.state.night
    assert night and room.channel.table["room"]["night"] == night  # the last table has the game's result
    assert all(message == then for message, then in kept)  # and nothing sent before it changed since


def test_the_first_connection_of_a_new_room_is_sent_its_state_and_nothing_it_cannot_place(server) -> None:
    # A TV opening a new room holds no table yet: an update before its state would look like a gap (and a
    # client asks for a sync it did not need); its first message is its whole state, then no resync at all.
    code, token = server.new_room()
    host = Client(server.url, code, role="host", token=token)
    assert host.call("variant", {"name": "fast3"})["ok"]
    host.wait_for(lambda s: s["room"]["variant"] == "fast3")
    assert host.messages[0][0] == "state" and host.resyncs == 0
    host.close()


@pytest.mark.slow  # a whole game over real sockets
def test_a_phone_that_missed_an_update_catches_up_with_a_full_state(server) -> None:
    server.get("/")  # a fresh room: the TV's newest
    host, phones = seated(server, "fast3", 3)
    watchers = [Client(server.url, host.room), Client(server.url, host.room)]  # guests: the same view
    phones[0].drop_updates = watchers[0].drop_updates = 1  # each loses the next update, as a bad link would
    assert host.call("start")["ok"]
    final = play_game(host, phones)
    for client in (*phones, *watchers):
        client.wait_for(lambda s: s["v"] >= final["v"])
    assert phones[0].drop_updates == 0 and phones[0].resyncs >= 1  # it lost one, saw the gap and asked
    assert watchers[0].resyncs >= 1
    assert watchers[0].state == watchers[1].state  # the one that missed an update holds what the other does
    assert sum(event == "table" for event, _ in phones[0].messages) > 20  # the game went out as updates
    assert sum(event == "mine" for event, _ in phones[0].messages) > 20
    # The phone holds what its seat's view is, whole: as a device that connects now is sent it (a fresh
    # connection, as its sync may meet the event limit after a game played this fast).
    fresh = Client(server.url, host.room, token=phones[0].token)
    assert fresh.state == phones[0].state
    for client in (host, *phones, *watchers, fresh):
        client.close()


def test_what_was_sent_to_a_connection_is_released_when_it_leaves(tmp_path) -> None:
    """In-process, to look inside: a real server on loopback, real clients, then the stream's memory."""
    port = free_port()
    app, _ = create_app({"DATA": tmp_path / "rooms.sqlite3", "PUBLIC_URL": f"http://127.0.0.1:{port}"})
    stream, rooms = app.extensions["partyrummy.stream"], app.extensions["partyrummy.rooms"]
    manager = app.extensions["socketio"].server.manager
    gone = threading.Condition()
    forget = manager.gone

    def forgetting(sid: str) -> None:
        with gone:
            forget(sid)
            gone.notify_all()

    manager.gone = forgetting
    admission = app.extensions["partyrummy.admission"]
    listener = socket.create_server(("127.0.0.1", port))
    web = threaded_server(listener, app, admission)
    threading.Thread(target=web.serve_forever, daemon=True).start()
    try:
        room = rooms.current()
        clients = [Client(f"http://127.0.0.1:{port}", room.code) for _ in range(3)]
        assert clients[0].join("Ana")["ok"]
        assert len(stream.sent) == 3 and set(stream.sent) == set(room.viewers)
        for client in clients:
            client.close()
        with gone:
            assert gone.wait_for(lambda: not stream.sent, 10), stream.sent
        assert not room.viewers
    finally:
        web.shutdown()
        web.server_close()
