"""Seats that change hands mid-game, over real sockets: rejoin QR, open seats, removal, late joiners."""

from __future__ import annotations

import time

import pytest

from .live import Client, phase, play_game, play_until
from .night import open_room
from .play import card_ids


def you(state: dict) -> dict:
    return state["game"]["you"]


def test_a_borrowed_phone_scans_the_seats_rejoin_qr_and_carries_on(server) -> None:
    host, phones = open_room(server, 3)
    assert host.call("start")["ok"]
    dead = phones[2]
    hand = you(dead.wait_for(lambda s: phase(s) == "draw"))["hand"]
    dead.close()  # the battery died
    ack = host.call("rejoin_code", {"seat": 2})
    assert ack["ok"] and ack["svg"].startswith("<svg") and "<path" in ack["svg"]
    base, ticket = ack["url"].split("#claim=")
    assert base == f"{server.url}/join/{host.room}"
    assert phones[1].call("rejoin_code", {"seat": 1})["error"]["code"] == "refused"  # not the host, not the VIP
    borrowed = Client(server.url, host.room)  # a guest, until it claims the seat
    claimed = borrowed.call("claim", {"ticket": ticket})
    assert claimed["ok"] and claimed["seat"] == 2
    state = borrowed.wait_for(lambda s: s["room"]["you"]["seat"] == 2 and s["game"]["you"])
    assert you(state)["hand"] == hand
    assert borrowed.call("draw", {"source": "shoe"})["ok"]
    assert not Client(server.url, host.room).call("claim", {"ticket": ticket})["ok"]  # once only


@pytest.mark.slow  # a whole game over real sockets
def test_an_open_seat_is_played_by_the_caller_until_a_newcomer_takes_it_with_its_score(server) -> None:
    host, phones = open_room(server, 3, variant="fast3")
    assert host.call("start")["ok"]
    # The phones may draw within one batch of "Draw!" (so the TV need not see hand 2's draw phase itself),
    # and a Match! called on the deal goes straight to the last draw.
    play_until(host, phones, lambda s: s["game"]["hand_no"] == 2 and phase(s) in ("draw", "choose", "last_draw"))
    leaver = phones[1]
    score = host.state["game"]["totals"][1]
    assert host.call("release", {"seat": 1})["ok"]
    with leaver.changed:
        leaver.changed.wait_for(lambda: any(e == "notice" and d["code"] == "released" for e, d in leaver.messages), 10)
    assert leaver.sync()["state"]["room"]["you"]["role"] == "guest"
    # Nobody holds the seat: the caller draws and picks for it at once, so the table is not held up.
    tv = host.wait_for(lambda s: s["room"]["seats"][1]["health"] == "open" and s["game"]["seats"][1]["picked"])
    assert tv["room"]["seats"][1]["open"]
    newcomer = Client(server.url, host.room)
    assert newcomer.state["room"]["seats"][1]["open"]
    ack = newcomer.call("take", {"seat": 1, "name": "Zoe"})
    assert ack["ok"]
    state = newcomer.wait_for(lambda s: s["room"]["you"]["seat"] == 1 and s["game"]["you"])
    assert state["room"]["seats"][1]["name"] == "Zoe" and state["game"]["totals"][1] == score
    final = play_game(host, [phones[0], newcomer, phones[2]])
    assert final["game"]["game_over"] and [s["name"] for s in final["room"]["seats"]] == ["P0", "Zoe", "P2"]


@pytest.mark.slow  # a whole game over real sockets
def test_a_player_removed_mid_hand_leaves_a_table_that_plays_to_the_end(server) -> None:
    host, phones = open_room(server, 4, variant="fast3")
    assert host.call("start")["ok"]
    for phone in phones[:2]:
        phone.wait_for(lambda s: phase(s) == "draw")
        assert phone.call("draw", {"source": "pile"})["ok"]
    assert host.call("remove", {"seat": 1})["ok"]
    removed = phones.pop(1)
    tv = host.wait_for(lambda s: len(s["room"]["seats"]) == 3 and len(s["game"]["seats"]) == 3)
    assert [s["name"] for s in tv["room"]["seats"]] == ["P0", "P2", "P3"]
    assert removed.sync()["state"]["room"]["you"]["role"] == "guest"
    assert you(phones[1].sync()["state"])["right"] == 0  # P2 now takes from P0's pile
    final = play_game(host, phones)
    assert final["game"]["game_over"] and len(final["game"]["totals"]) == 3


@pytest.mark.slow  # a whole game over real sockets
def test_a_late_guest_joins_and_is_dealt_in_at_the_next_hand_on_the_worst_total(server) -> None:
    host, phones = open_room(server, 2, variant="fast3")
    assert host.call("start")["ok"]
    phones[0].wait_for(lambda s: phase(s) == "draw")
    late = Client(server.url, host.room)
    assert late.state["room"]["can_join"]
    assert late.join("Lou")["ok"]
    waiting = late.wait_for(lambda s: s["room"]["you"]["seat"] == 2)
    assert you(waiting) == {"seat": 2, "waiting": True} and waiting["room"]["seats"][2]["waiting"]
    scored = play_until(host, phones, lambda s: phase(s) == "scored", next_hand=False)
    worst = max(scored["game"]["totals"][:2])
    assert host.call("call_now")["ok"]
    dealt = late.wait_for(lambda s: s["game"]["hand_no"] == 2 and not you(s)["waiting"])
    assert len(you(dealt)["hand"]) == 4 and dealt["game"]["totals"][2] == worst
    assert dealt["game"]["history"][0][2] is None
    final = play_game(host, [*phones, late])
    assert final["game"]["game_over"] and len(final["game"]["totals"]) == 3
    assert server.get(f"/room/{host.room}/scores.csv").splitlines()[3].startswith("Lou,,")


def test_a_phone_dropped_mid_draw_comes_back_after_the_caller_played_for_it_and_plays_on(server) -> None:
    host, phones = open_room(server, 3, variant="hurried")
    assert host.call("start")["ok"]
    phone = phones[1]
    phone.wait_for(lambda s: phase(s) == "draw")
    token = phone.token
    phone.close()
    tv = host.wait_for(lambda s: s["room"]["seats"][1]["health"] == "reconnecting")
    cycle = tv["game"]["cycle"]
    # The caller plays for the missing phone meanwhile, cycle after cycle, and its seat waits for it.
    away = host.wait_for(lambda s: s["game"]["cycle"] > cycle + 2 or s["game"]["hand_no"] > 1)
    assert away["room"]["seats"][1]["health"] == "reconnecting"
    back = Client(server.url, host.room, token=token)
    state = back.wait_for(lambda s: s["game"] is not None and s["room"]["you"]["seat"] == 1)
    assert state["game"]["cycle"] > cycle and len(you(state)["hand"]) in (3, 4)
    assert host.wait_for(lambda s: s["room"]["seats"][1]["health"] == "connected")
    # It plays on: a draw of its own (the caller's 0.3 s may win a race, so it tries a few cycles).
    answers = []
    for _ in range(5):
        playing = back.wait_for(lambda s: phase(s) == "draw" and not s["game"]["seats"][1]["drawn"])
        answers.append(back.call("draw", {"source": "shoe", "cycle": playing["game"]["cycle"]}))
        if answers[-1]["ok"]:
            break
        back.wait_for(lambda s, c=playing["game"]["cycle"]: s["game"]["cycle"] > c)
    assert answers[-1]["ok"], answers


def test_the_tv_reloaded_mid_countdown_gets_the_countdown_back(server) -> None:
    host, phones = open_room(server, 2, variant="countdown")
    assert host.call("start")["ok"]
    first = host.wait_for(lambda s: phase(s) == "draw" and s["room"]["hurry"] is not None)
    time.sleep(1.5)  # the countdown is running on the TV (it counts down locally, from the state it got)
    host.close()
    code, token = server.tv_page()
    again = Client(server.url, code, role="host", token=token)
    hurry = again.state["room"]["hurry"]
    assert hurry is not None and hurry["starts_in"] < 0 < hurry["ends_in"] < first["room"]["hurry"]["ends_in"] - 1
    assert (
        again.state["game"]["phase"] == first["game"]["phase"]
        and again.state["game"]["cycle"] == first["game"]["cycle"]
    )


def test_the_tv_page_is_for_this_laptop_or_the_screen_key(server) -> None:
    from partyrummy.server.app import create_app

    app, _ = create_app({"DATA": server.data.parent / "other.sqlite3"})
    key = app.config["SCREEN_KEY"]
    client = app.test_client()
    lan = {"REMOTE_ADDR": "192.168.1.23"}  # no traffic: Flask's test client only sets the peer address
    guest = client.get("/", environ_base=lan)
    assert guest.status_code == 302 and "/join/" in guest.headers["Location"]
    assert b"data-host-token" in client.get(f"/?key={key}", environ_base=lan).data
    assert b"data-host-token" in client.get("/", environ_base={"REMOTE_ADDR": "127.0.0.1"}).data
    assert b"data-host-token" not in client.get("/?key=wrong", environ_base=lan).data
    # The key is kept: a second screen survives a restart.
    app.extensions["partyrummy.rooms"].journal.close()
    again, _ = create_app({"DATA": server.data.parent / "other.sqlite3"})
    assert again.config["SCREEN_KEY"] == key
    again.extensions["partyrummy.rooms"].journal.close()


def test_nobody_sees_another_seats_cards_across_seat_changes(server) -> None:
    # Seats change hands three ways mid-game: a late guest dealt in, a released seat taken by someone new (its
    # old phone still connected, now watching), a bot's seat taken by a guest. At every version, every message
    # each connection received (whole states, the table's updates, its own part's) carries no card hidden in
    # another seat's hand then; the table's carries no hidden card at all.
    host, phones = open_room(server, 3, variant="fast3")
    assert host.call("add_bot", {"strength": "easy"})["ok"]
    assert host.call("allow_bot_takeover", {"allow": True})["ok"]
    assert host.call("start")["ok"]
    late = Client(server.url, host.room)
    assert late.join("Lou")["ok"]
    play_until(host, phones, lambda s: s["game"]["hand_no"] == 2)
    assert host.call("release", {"seat": 0})["ok"]
    released_at = phones[0].wait_for(lambda s: s["room"]["you"]["seat"] is None)["v"]
    taker, guest = Client(server.url, host.room), Client(server.url, host.room)
    assert taker.call("take", {"seat": 0, "name": "Tam"})["ok"]
    assert guest.call("take", {"seat": 3, "name": "Gus"})["ok"]
    play_game(host, [taker, phones[1], phones[2], guest, late])
    clients = [host, *phones, late, taker, guest]

    def public(game: dict) -> set[int]:
        seen = {s["pile_top"]["id"] for s in game["seats"] if s["pile_top"]}
        return seen | card_ids(game["pile"]) | card_ids(game["matched"]) | card_ids(game["results"])

    # Each seat's hidden cards at each version, as its holder then saw them.
    hidden: dict[int, dict[int, set[int]]] = {}
    seat_at: dict[tuple[int, int], int | None] = {}
    for c, client in enumerate(clients):
        for view in client.views:
            seat = view["room"]["you"]["seat"]
            seat_at[(c, view["v"])] = seat
            game = view["game"]
            if game and game["you"] and seat is not None:
                hidden.setdefault(view["v"], {})[seat] = card_ids(game["you"]) - public(game)
    assert {seat for by_seat in hidden.values() for seat in by_seat} == {0, 1, 2, 3, 4}
    checked = 0
    for c, client in enumerate(clients):
        for event, data in client.messages:
            if event not in ("state", "table", "mine") or data["v"] not in hidden:
                continue
            own = None if event == "table" else seat_at.get((c, data["v"]))
            others = set().union(*(cards for seat, cards in hidden[data["v"]].items() if seat != own))
            assert not card_ids(data) & others, (event, data["v"], c, own)
            checked += 1
    assert checked > 200  # the whole game's messages were looked at, not a handful
    # The released seat's old phone watches from then on: nothing hidden reaches it.
    for event, data in phones[0].messages:
        if event in ("state", "table", "mine") and data["v"] >= released_at and data["v"] in hidden:
            assert not card_ids(data) & set().union(*hidden[data["v"]].values())


@pytest.mark.slow  # a whole game over real sockets
def test_the_host_adds_bots_and_gives_a_gone_players_seat_to_one(server) -> None:
    host, phones = open_room(server, 2, variant="fast3")
    for strength in ("easy", "sharp"):
        assert host.call("add_bot", {"strength": strength})["ok"]
    lobby = host.wait_for(lambda s: len(s["room"]["seats"]) == 4)
    assert [s["bot"] for s in lobby["room"]["seats"]] == [None, None, "easy", "sharp"]
    assert host.call("start")["ok"]
    phones[1].wait_for(lambda s: phase(s) in ("draw", "last_draw"))  # a bot may match on the deal
    phones[1].close()  # gone for good: a bot carries on with the hand and score
    assert host.call("bot_seat", {"seat": 1, "strength": "sharp"})["ok"]
    final = play_game(host, phones[:1])
    assert final["game"]["game_over"] and len(final["game"]["history"]) == 3
    assert [s["health"] for s in final["room"]["seats"]] == ["connected", "bot", "bot", "bot"]
