"""The party over real sockets: a live server, real Socket.IO clients, whole games."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest
import socketio
import websocket

from partyrummy.i18n import default_catalogs

from .live import Client, join_all, phase, play_game
from .night import open_room
from .play import card_ids


@pytest.mark.slow  # a whole game over real sockets
def test_twelve_players_play_a_whole_game_and_nobody_sees_a_hidden_card(server) -> None:
    host, phones = open_room(server, 12)
    assert host.call("start")["ok"]
    final = play_game(host, phones)
    game = final["game"]
    assert game["game_over"] and len(game["history"]) == 11
    assert game["winners"] == [s for s, t in enumerate(game["totals"]) if t == min(game["totals"])]
    check_no_leaks(host, phones)
    for client in [host, *phones]:
        client.close()


@pytest.mark.slow  # a whole game over real sockets
def test_a_room_of_two_plays_to_the_end(server) -> None:
    host, phones = open_room(server, 2, variant="fast3")
    assert host.call("start")["ok"]
    final = play_game(host, phones)
    assert final["game"]["game_over"] and len(final["game"]["history"]) == 3
    assert final["room"]["night"][0]["winners"]
    # Play again keeps the seats and deals a new game.
    assert host.call("start")["ok"]
    again = host.wait_for(lambda s: s["game"] and not s["game"]["game_over"])
    assert [s["name"] for s in again["room"]["seats"]] == ["P0", "P1"] and again["game"]["hand_no"] == 1


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), [("fastclassic", 2), ("fastclassic", 8), ("fastapp4", 4)])
def test_turn_based_variants_play_a_whole_game_one_player_at_a_time(server, variant: str, players: int) -> None:
    host, phones = open_room(server, players, variant)
    assert host.call("start")["ok"]
    first = host.wait_for(lambda s: phase(s) == "draw")["game"]
    assert first["pacing"] == "turns" and first["turn"] == (first["dealer"] + 1) % players and first["pile"]["top"]
    # Out of turn is refused to that phone alone, with words (the first dealer is drawn: find a phone it is not).
    waiting = next(p for p in phones if p.sync()["state"]["room"]["you"]["seat"] != first["turn"])
    idle = waiting.sync()["state"]["v"]
    ack = waiting.call("draw", {"source": "shoe"})
    assert not ack["ok"] and ack["error"]["message"] == "It is not your turn yet"
    assert host.sync()["state"]["v"] == idle
    final = play_game(host, phones)
    game = final["game"]
    assert game["game_over"] and len(game["history"]) == 11
    best = min(game["totals"])
    leaders = [s for s, t in enumerate(game["totals"]) if t == best]
    assert game["winners"] == ([] if variant == "fastapp4" and len(leaders) > 1 else leaders)
    # The dealer moved left every hand; at most one player ever acted at a time.
    dealers, drawn_together = {}, 0
    for data in host.views:
        if data["game"]:
            dealers[data["game"]["hand_no"]] = data["game"]["dealer"]
            drawn_together = max(drawn_together, sum(s["drawn"] for s in data["game"]["seats"]))
    assert dealers == {h: (first["dealer"] + h - 1) % players for h in range(1, 12)} and drawn_together == 1
    check_no_leaks(host, phones)
    for client in [host, *phones]:
        client.close()


def test_a_refreshed_tv_gets_the_same_table(server) -> None:
    host, phones = open_room(server, 3)
    assert host.call("start")["ok"]
    phones[0].wait_for(lambda s: phase(s) == "draw")
    assert phones[0].call("draw", {"source": "shoe"})["ok"]
    host.close()
    code, token = server.tv_page()  # the TV page still shows this room
    assert code == host.room
    again = Client(server.url, code, role="host", token=token)
    state = again.wait_for(lambda s: s["game"] and s["game"]["seats"][0]["drawn"])
    assert state["game"]["phase"] == "draw" and [s["name"] for s in state["room"]["seats"]] == ["P0", "P1", "P2"]
    assert state["game"]["you"] is None


def test_bad_input_is_refused_to_that_phone_only(server) -> None:
    host, phones = open_room(server, 3)
    assert host.call("start")["ok"]
    bad, others = phones[0], phones[1:]
    version = bad.wait_for(lambda s: phase(s) == "draw")["v"]
    for phone in others:  # everyone holds the same table before the bad input starts
        phone.wait_for(lambda s: s["v"] >= version)
    seen = [len(p.messages) for p in others]
    refusals = [
        ("draw", "shoe", "bad_command"),
        ("draw", {"source": "deck"}, "bad_command"),
        ("draw", {"source": "shoe", "seat": 2}, "bad_command"),  # a seat number is never taken from a client
        ("choose", {"card_id": 0}, "out_of_phase"),
        ("choose", {"card_id": "7H"}, "bad_command"),
        ("match", {}, "out_of_phase"),
        ("start", {}, "refused"),  # not the VIP... P0 is the VIP, but a game is on
        ("remove", {"seat": 7}, "refused"),  # no such seat
        ("release", {"seat": "1"}, "bad_command"),
        ("take", {"seat": 1, "name": "Eve"}, "refused"),  # seated already, and the seat is not open
        ("claim", {"ticket": "guessed"}, "refused"),
        ("rejoin_code", {"seat": 9}, "refused"),
    ]
    for event, data, code in refusals:
        ack = bad.call(event, data)
        assert not ack["ok"] and ack["error"]["code"] == code and ack["error"]["message"], (event, data, ack)
    assert not phones[1].call("call_now")["ok"]  # only the host and the VIP may call
    assert [len(p.messages) for p in others] == seen  # nobody else heard a thing
    assert bad.sync()["state"]["v"] == version  # and nothing changed
    # The others play on.
    for phone in others:
        assert phone.call("draw", {"source": "shoe"})["ok"]
    assert bad.call("draw", {"source": "pile"})["ok"]
    hand = bad.wait_for(lambda s: s["game"]["you"]["drawn"])["game"]["you"]["hand"]
    taken = {c["id"] for c in hand}
    foreign = next(i for i in range(208) if i not in taken)
    ack = bad.call("choose", {"card_id": foreign})
    assert ack["error"]["code"] == "not_held" and ack["error"]["message"].startswith("You do not hold")


def check_no_leaks(host: Client, phones: list[Client]) -> None:
    """Across every message of a game: nobody's private cards ever reach another client.

    Every view each client held is checked (whole ones, and those its updates made), and every update as
    it came over the wire: an update carries a card only whole, so a foreign one would show.
    """

    def public(game: dict) -> set[int]:
        seen = {s["pile_top"]["id"] for s in game["seats"] if s["pile_top"]}
        seen |= card_ids(game["pile"])  # turns: the shared pile's top
        seen |= card_ids(game["matched"]) | card_ids(game["results"])
        return seen

    by_version: dict[int, dict[int, dict]] = {}
    for seat, phone in enumerate(phones):
        for data in phone.views:
            if data["game"]:
                by_version.setdefault(data["v"], {})[seat] = data["game"]
    host_views = [d["game"] for d in host.views if d["game"]]
    for game in host_views:
        assert card_ids(game) <= public(game)
    checked = 0
    for version, games in by_version.items():
        for seat, game in games.items():
            private = card_ids(game["you"]) - public(game)
            assert card_ids({k: v for k, v in game.items() if k != "you"}) <= public(game)
            for other, theirs in games.items():
                if other != seat:
                    assert not private & card_ids(theirs), (version, seat, other)
                    checked += 1
    assert checked > 100 * len(phones)  # enough messages compared to mean something
    # The updates as they came, the table's (the same to every connection) and each one's own: none carries a
    # card another seat holds hidden at that version; the table's carries no hidden card at all.
    updates = 0
    for seat, phone in enumerate(phones):
        for event, data in phone.messages:
            if event in ("table", "mine"):
                for other, theirs in by_version.get(data["v"], {}).items():
                    if other != seat:
                        hidden = card_ids(theirs["you"]) - public(theirs)
                        assert not hidden & card_ids(data["changes"]), (event, data["v"], seat, other)
                if event == "table" and data["v"] in by_version:
                    assert card_ids(data["changes"]) <= public(next(iter(by_version[data["v"]].values())))
                updates += 1
    tv = {d["v"]: d["game"] for d in host.views if d["game"]}
    for event, data in host.messages:
        if event in ("table", "mine") and data["v"] in tv:
            assert card_ids(data["changes"]) <= public(tv[data["v"]]), data["v"]
    assert updates > 10 * len(phones)  # the game went out as updates, and they were looked at


@pytest.mark.slow  # a whole game over real sockets
def test_the_vip_phone_has_the_host_controls_and_scores_download_as_csv(server) -> None:
    host, phones = open_room(server, 3, variant="fast3")
    vip, other = phones[0], phones[1]
    assert vip.state["room"]["you"]["controls"] and not other.state["room"]["you"]["controls"]
    assert not other.call("start")["ok"]
    assert vip.call("start")["ok"]
    vip.wait_for(lambda s: phase(s) == "draw")
    assert vip.call("pause", {"paused": True})["ok"]
    assert host.wait_for(lambda s: s["room"]["paused"])
    assert vip.call("pause", {"paused": False})["ok"]
    final = play_game(vip, phones)
    csv = server.get(f"/room/{host.room}/scores.csv").splitlines()
    hands = (f"Hand {n},How (hand {n}),Corrected from (hand {n})" for n in (1, 2, 3))
    assert csv[0] == f"Player,{','.join(hands)},Total"
    # Every score of a game on the phones was played (not typed, nor corrected).
    assert all(line.split(",")[2:-1:3] == ["played"] * 3 and line.split(",")[3:-1:3] == [""] * 3 for line in csv[1:])
    # The TV's link names its language: the file's headings and words come in it.
    brazil = server.get(f"/room/{host.room}/scores.csv?lang=pt-BR").splitlines()[0]
    assert brazil.startswith("Jogador,Rodada 1,Como (rodada 1),Corrigido de (rodada 1),Rodada 2,")
    romanian = server.get(f"/room/{host.room}/scores.csv?lang=ro").splitlines()[1:]
    assert [line.replace("jucat", "played") for line in romanian] == csv[1:]
    totals = final["game"]["totals"]
    assert [line.split(",")[-1] for line in csv[1:]] == [str(t) for t in totals]
    # Back to the lobby with the seats kept (the TV's, not the VIP's), another rule set, a second game: the night
    # keeps the first in its results and its CSV.
    # (from a second tab of the VIP's seat: the first spent its events on the game, played faster than people do)
    tab = Client(server.url, host.room, token=vip.token)
    assert tab.call("lobby")["error"]["code"] == "refused"
    assert host.call("lobby") == {"ok": True}
    lobby = host.wait_for(lambda s: s["game"] is None)
    assert len(lobby["room"]["seats"]) == 3 and len(lobby["room"]["night"]) == 1
    assert host.call("variant", {"name": "fast"})["ok"] and tab.call("start")["ok"]
    vip.wait_for(lambda s: s["game"] is not None and s["game"]["hand_no"] == 1 and not s["game"]["game_over"])
    night = server.get(f"/room/{host.room}/scores.csv").splitlines()
    assert night[0] == "Game 1" and night[1:5] == csv and night[5:7] == ["", "Game 2"]
    assert night[7] == "Player,Total" and len(night) == 11  # a game being played: its seats, no hand yet


def test_a_dropped_phone_comes_back_to_its_seat_and_hand(server) -> None:
    host, phones = open_room(server, 3)
    assert host.call("start")["ok"]
    phone = phones[1]
    before = phone.wait_for(lambda s: phase(s) == "draw")["game"]["you"]["hand"]
    token = phone.token
    phone.close()
    gone = host.wait_for(lambda s: not s["room"]["seats"][1]["connected"])
    assert gone["room"]["seats"][1]["gone_for"] is not None
    again = Client(server.url, host.room, token=token)
    state = again.wait_for(lambda s: s["game"] is not None)
    assert state["room"]["you"]["seat"] == 1 and state["game"]["you"]["hand"] == before
    assert host.wait_for(lambda s: s["room"]["seats"][1]["connected"])
    assert len(state["room"]["seats"]) == 3


def test_a_stranger_cannot_take_a_seat_or_the_host_controls(server) -> None:
    host, phones = open_room(server, 2)
    assert host.call("start")["ok"]
    stranger = Client(server.url, host.room, role="host", token="guess")
    assert stranger.state["room"]["you"]["role"] == "guest" and stranger.state["game"]["you"] is None
    ack = stranger.call("take", {"seat": 0, "name": "Eve"})
    assert not ack["ok"] and "taken" in ack["error"]["message"]
    for event in ("call_now", "release", "rejoin_code", "remove"):
        assert stranger.call(event, {"seat": 0} if event != "call_now" else {})["error"]["code"] == "refused"
    assert not stranger.call("draw", {"source": "shoe"})["ok"]


def test_a_seat_plays_on_two_screens_each_live_and_the_last_one_to_leave_drops_it(server) -> None:
    host, phones = open_room(server, 2)
    assert host.call("start")["ok"]
    phone = phones[0]
    tablet = Client(server.url, host.room, token=phone.token)  # the same seat's token, on a second screen
    assert tablet.state["room"]["you"]["seat"] == 0 and phone.sync()["state"]["room"]["you"]["role"] == "player"
    phone.wait_for(lambda s: phase(s) == "draw")
    assert tablet.call("draw", {"source": "shoe"})["ok"]  # a tap on one screen …
    drawn = phone.wait_for(lambda s: s["game"]["you"]["drawn"] is not None)["game"]["you"]["drawn"]  # … on both
    assert phone.call("choose", {"card_id": drawn["id"]})["ok"]
    tablet.wait_for(lambda s: s["game"]["you"]["pick"] == drawn["id"])
    assert not any(e == "notice" for e, _ in phone.messages + tablet.messages)  # nobody told to go away
    tablet.close()
    assert host.sync()["state"]["room"]["seats"][0]["connected"]  # the phone still plays it
    assert phone.call("sync")["ok"] and phone.state["room"]["you"]["role"] == "player"


def test_a_flood_from_one_phone_is_cut_off_and_the_room_plays_on(server) -> None:
    host, phones = open_room(server, 2)
    flood = phones[0]
    answers = [flood.call("match") for _ in range(60)]
    codes = {a["error"]["code"] for a in answers}
    assert codes == {"out_of_phase", "slow_down"}
    assert any(a["error"]["message"].startswith("Slow down") for a in answers)
    # Sending on regardless, far over the rate: the connection is cut off (the client hears it end).
    ended = threading.Thread(target=flood.sio.wait)  # returns once the connection has ended
    ended.start()
    with pytest.raises(socketio.exceptions.BadNamespaceError):
        for _ in range(2000):
            flood.sio.emit("match", {})
            ended.join(0.001)
    ended.join(10)
    assert not ended.is_alive() and not flood.sio.connected
    assert host.call("start")["ok"]
    assert phones[1].wait_for(lambda s: phase(s) == "draw")
    assert phones[1].call("draw", {"source": "shoe"})["ok"]


def test_each_connection_is_refused_in_its_own_language_and_may_switch(server) -> None:
    """Refusals and notices come in the language a connection reads; one phone's switch changes nobody else's."""
    words = default_catalogs().text
    code, token = server.new_room()
    host = Client(server.url, code, role="host", token=token, lang="ro")
    assert host.call("variant", {"name": "fast"})["ok"]
    langs = ["pt-BR", "es", "ro", None]  # None: a client that names no language (a bot) reads English
    phones = [Client(server.url, code, lang=lang) for lang in langs]
    join_all(phones)
    stranger = Client(server.url, code, lang="es-MX")  # the nearest shipped language: Spanish
    assert stranger.call("join", {"name": "p0"})["error"]["message"] == "Ya hay alguien llamado p0: elige otro nombre"
    assert host.call("start")["ok"]
    for phone in phones:
        phone.wait_for(lambda s: phase(s) == "draw")
    for phone, lang in zip(phones, langs, strict=True):
        ack = phone.call("choose", {"card_id": 0})
        assert ack["error"] == {"code": "out_of_phase", "message": words(lang or "en", "phase.draw")}
    assert phones[1].call("choose", {"card_id": 0})["error"]["message"] == "Toca robar: roba primero"

    heard = [len(p.messages) for p in phones[1:]]
    assert phones[0].call("lang", {"lang": "ro"})["ok"]
    assert phones[0].call("choose", {"card_id": 0})["error"]["message"] == "E momentul să tragi: trage întâi"
    assert phones[0].call("lang", {"lang": "klingon"})["error"]["message"] == "Limba asta nu există aici"
    assert phones[1].call("choose", {"card_id": 0})["error"]["message"] == words("es", "phase.draw")
    assert [len(p.messages) for p in phones[1:]] == heard  # a switch is nobody else's business

    # A notice to a phone comes in its language: the host opens P1's seat.
    assert host.call("release", {"seat": 1})["ok"]
    with phones[1].changed:
        phones[1].changed.wait_for(lambda: any(e == "notice" for e, _ in phones[1].messages), 10)
    notice = next(d for e, d in phones[1].messages if e == "notice")
    assert notice == {"code": "released", "message": "El anfitrión liberó tu puesto para otra persona"}


def test_a_refused_connection_says_why_in_the_language_it_asked_for(server) -> None:
    client = socketio.Client(reconnection=False)
    refusals = []
    client.on("connect_error", refusals.append)
    with pytest.raises(socketio.exceptions.ConnectionError):
        client.connect(server.url, auth={"room": "WXYZ", "lang": "pt-BR"}, wait_timeout=10)
    assert refusals == [
        {"message": "Não há jogo com esse código aqui: confira o código na TV", "data": {"code": "no_room"}}
    ]


def test_each_language_is_served_to_the_pages_as_json(server) -> None:
    romanian = json.loads(server.get("/i18n/ro.json"))
    assert romanian["lang"] == "ro" and romanian["name"] == "Română"
    assert romanian["messages"]["call.draw"] == "TRAGEȚI!"
    assert romanian["messages"]["cards"] == {"one": "{n} carte", "few": "{n} cărți", "other": "{n} de cărți"}
    with pytest.raises(urllib.error.HTTPError) as missing:
        server.get("/i18n/xx.json")
    assert missing.value.code == 404
    missing.value.close()
    page = server.get("/")
    assert """data-languages='[["en", "English"], ["es", "Espa\\u00f1ol"], ["pt-BR", "Portugu""" in page  # the menus


@pytest.mark.parametrize(
    ("accept", "lang"),
    [("fr-FR,fr;q=0.9,pt;q=0.8,en;q=0.5", "pt-BR"), ("ro-RO", "ro"), ("de-DE,de", "en"), (None, "en")],
)
def test_a_page_starts_in_the_browsers_nearest_language(server, accept: str | None, lang: str) -> None:
    headers = {"Accept-Language": accept} if accept else {}
    with urllib.request.urlopen(urllib.request.Request(server.url + "/", headers=headers), timeout=10) as response:
        assert f'<html lang="{lang}"' in response.read().decode()


def test_a_page_that_leaves_in_the_middle_of_its_upgrade_leaves_no_error_behind(server) -> None:
    # A phone opens by polling, then upgrades to a WebSocket; one locked or closed just after its probe (before
    # the server's answer) is an ordinary goodbye, not a traceback in the host's terminal.
    before = len(server.log)
    ends: set[str] = set()
    for _ in range(3):
        with urllib.request.urlopen(server.url + "/socket.io/?EIO=4&transport=polling", timeout=10) as response:
            sid = json.loads(response.read().decode()[1:])["sid"]
        ws = websocket.create_connection(
            server.url.replace("http://", "ws://") + f"/socket.io/?EIO=4&transport=websocket&sid={sid}", timeout=10
        )
        ends |= server.ends_of({ws.sock.getsockname()[1]})
        ws.send("2probe")
        ws.close()
    assert len(ends) == 3
    server.let_go(ends)  # the server's side of each upgrade has run to its end and closed its connection
    assert "Traceback" not in server.log[before:]
