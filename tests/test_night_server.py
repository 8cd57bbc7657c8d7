"""A night of several tables on a live server: guests seated by one way in, tables balanced, a guest moved between
games and their phone following, the night and its tables back after the server is killed, and nothing a guest
should not hold."""

from __future__ import annotations

from pathlib import Path

import pytest
import requests

from .live import Client, LiveServer, from_address, guest, lan_server, play_until
from .night_helpers import begin, dealt_hands, do, post, seat, view


def test_guests_are_seated_balanced_and_a_moved_guest_s_phone_follows(tmp_path: Path) -> None:
    data = tmp_path / "rooms.sqlite3"
    server = LiveServer(data=data)
    try:
        night = begin(server, 3)
        seated = [seat(server, night, f"Guest {i}") for i in range(8)]
        assert [len(t["players"]) for t in view(server, night)["tables"]] == [3, 3, 2]
        # A name that reads as one already in the night, at any table, is refused, in words.
        status, answer = post(server, f"/n/{night}/seat", {"name": "GUEST 0"})
        assert status == 400 and "GUEST 0" in answer["error"]["message"]
        first = seated[0]
        phone = Client(server.url, first["room"], token=first["token"])
        assert phone.state["room"]["you"]["role"] == "player"
        assert phone.state["room"]["in_night"] == {"code": night, "table": 1, "tables": 3}
        # The host moves them to table 3: their phone is told, and the night says where they sit now.
        assert do(server, night, "move", guest=first["guest"], table=3)["ok"]
        phone.wait_for(lambda s: s["room"]["you"]["role"] != "player")
        assert ("notice", "moved") in [(e, m.get("code")) for e, m in phone.messages if e == "notice"]
        status, where = post(server, f"/n/{night}/where", {"guest": first["guest"]})
        assert where["table"] == 3 and where["room"] == view(server, night)["tables"][2]["room"]
        moved = Client(server.url, where["room"], token=where["token"])
        assert moved.state["room"]["you"]["role"] == "player" and moved.state["room"]["in_night"]["table"] == 3
        assert [len(t["players"]) for t in view(server, night)["tables"]] == [2, 3, 3]
        # Balanced again by the fewest moves.
        assert do(server, night, "reseat", how="balance")["ok"]
        assert sorted(len(t["players"]) for t in view(server, night)["tables"]) == [2, 3, 3]
        before = view(server, night)
        for client in (phone, moved):
            client.close()
        server.kill()  # no shutdown: what the night showed was in the journal before
        server = LiveServer(data=data)
        after = view(server, night)
        assert [t["players"] for t in after["tables"]] == [t["players"] for t in before["tables"]]
        assert after["guests"] == before["guests"]
        status, where_again = post(server, f"/n/{night}/where", {"guest": first["guest"]})
        assert where_again == where
        back = Client(server.url, where["room"], token=where["token"])
        assert back.state["room"]["you"]["role"] == "player" and back.state["room"]["in_night"]["code"] == night
        back.close()
    finally:
        server.stop()


def test_a_guest_holds_only_their_own_keys_and_the_big_screen_is_the_laptop_s() -> None:
    server = lan_server({})
    try:
        night = begin(server, 2)
        mine = seat(server, night, "Ana")
        other = seat(server, night, "Bo")
        # The night's view (its tables' screens' keys, everyone's guest key) is the laptop's alone.
        phone = from_address(guest(1))
        assert phone.get(f"{server.url}/night/{night}/view", timeout=10).status_code == 403
        assert phone.get(f"{server.url}/night/{night}", timeout=10, allow_redirects=False).status_code == 302
        acted = phone.post(f"{server.url}/night/{night}/do", json={"action": "deal"}, timeout=10)
        assert acted.status_code == 403
        # A guest's key says where they sit, never anyone else's; a made-up key is told so.
        answer = phone.post(f"{server.url}/n/{night}/where", json={"guest": mine["guest"]}, timeout=10).json()
        assert answer["token"] == mine["token"] and other["token"] not in str(answer)
        wrong = phone.post(f"{server.url}/n/{night}/where", json={"guest": "x" * 22}, timeout=10)
        assert wrong.status_code == 400 and wrong.json()["error"]["key"] == "error.night_no_guest"
        # Another site's page in the laptop's own browser cannot act for the host.
        foreign = requests.post(
            f"{server.url}/night/{night}/do", json={"action": "deal"}, headers={"Origin": "http://elsewhere.example"},
            timeout=10,
        )
        assert foreign.status_code == 403
        # A table's screen opens with that table's key only.
        table = requests.get(f"{server.url}/table/{mine['room']}?key=nope", timeout=10)
        assert table.status_code == 404
        # The big screen's view names nobody's seat token.
        shown = server.get(f"/night/{night}/view")
        assert mine["token"] not in shown and other["token"] not in shown
        # A big body, or one that is not JSON, is refused before the night sees it.
        assert phone.post(f"{server.url}/n/{night}/seat", data="x" * 5000, timeout=10).status_code == 413
        assert phone.post(f"{server.url}/n/{night}/seat", data="name=Eve", timeout=10).status_code == 400
    finally:
        server.stop()


@pytest.mark.slow  # two whole games at three tables
def test_every_table_is_dealt_the_same_cards_and_each_player_is_compared_with_their_seat() -> None:
    server = LiveServer("--seed", "3")
    phones: list[Client] = []
    try:
        night = begin(server, 3)
        seated = [seat(server, night, f"Player {i}") for i in range(12)]
        tables = view(server, night)["tables"]
        hosts = [Client(server.url, t["room"], role="host", token=t["screen"].split("key=")[1]) for t in tables]
        phones = [Client(server.url, s["room"], token=s["token"]) for s in seated]
        # A table's own screen deals nothing: the night deals every table at once (its Start is not offered).
        refused = hosts[0].call("start")
        assert not refused["ok"] and "big screen" in refused["error"]["message"]
        assert "start" not in hosts[0].state["room"]["you"]["can"]
        assert do(server, night, "deal")["ok"]
        at = [[p for p, s in zip(phones, seated, strict=True) if s["table"] == n + 1] for n in range(3)]
        for host, players in zip(hosts, at, strict=True):
            assert host.wait_for(lambda s: s["game"] is not None)["room"]["variant"] == "fast3"  # the night's rules
            play_until(host, players, lambda s: s["game"]["game_over"])
        # The same cards at every table, seat by seat and hand by hand (compared card by card).
        by_seat = [sorted(players, key=lambda p: p.state["game"]["you"]["seat"]) for players in at]
        dealt = [[dealt_hands(p) for p in players] for players in by_seat]
        assert len(dealt[0][0]) == 3 and dealt[0] == dealt[1] == dealt[2]
        # The night compares each player with those who held the same seat: par is 0, seat by seat.
        shown = view(server, night)
        assert shown["ranked_by"] == "duplicate" and all(row["games"] == 1 for row in shown["standings"])
        totals = {
            seat_row["name"]: host.state["game"]["totals"][seat_row["seat"]]
            for host in hosts
            for seat_row in host.state["room"]["seats"]
        }
        assert {row["name"]: row["total"] for row in shown["standings"]} == totals
        assert abs(sum(row["duplicate"] for row in shown["standings"])) < 0.1
        # The night's CSV has every table's game.
        sheet = server.get(f"/night/{night}/scores.csv")
        assert all(f"Table {n}, game 1" in sheet for n in (1, 2, 3)) and all(f"Player {i}" in sheet for i in range(12))
        # The final table: the four leaders at table 1, the rest balanced; the night's standings carry both games.
        leaders = [row["name"] for row in shown["standings"][:4]]
        assert do(server, night, "reseat", how="final")["ok"]
        final = view(server, night)
        assert sorted(final["tables"][0]["players"]) == sorted(leaders)
        assert sorted(len(t["players"]) for t in final["tables"]) == [4, 4, 4]
        assert do(server, night, "deal")["ok"]
        assert view(server, night)["rounds"] == 2
        refused = do(server, night, "reseat", how="mix")  # not while the tables play
        assert not refused["ok"] and refused["error"]["key"] == "error.night_playing"
        for client in hosts:
            client.close()
    finally:
        for phone in phones:
            phone.close()
        server.stop()


def test_a_real_cards_table_plays_in_the_same_night_and_counts_in_its_totals() -> None:
    server = LiveServer("--seed", "4")
    clients: list[Client] = []
    try:
        night = begin(server, 2)
        seated = [seat(server, night, name) for name in ("Ana", "Bo", "Cy", "Di")]
        tables = view(server, night)["tables"]
        hosts = [Client(server.url, t["room"], role="host", token=t["screen"].split("key=")[1]) for t in tables]
        clients = [*hosts, *(Client(server.url, s["room"], token=s["token"]) for s in seated)]
        assert hosts[1].call("mode", {"mode": "real"})["ok"]  # table 2's own screen: real cards on the table
        assert do(server, night, "deal")["ok"]
        real = hosts[1].wait_for(lambda s: s["game"] is not None)["game"]
        assert real["mode"] == "real" and hosts[0].wait_for(lambda s: s["game"] is not None)["game"]["mode"] == "phones"
        shown = view(server, night)
        assert [t["mode"] for t in shown["tables"]] == ["phones", "real"] and shown["ranked_by"] == "totals"
        # One real-cards hand: dealt, Draw!, everyone Ready, a Match!, the last Ready, the points entered.
        players = [c for c, s in zip(clients[2:], seated, strict=True) if s["table"] == 2]
        assert hosts[1].call("call_now")["ok"]
        hosts[1].wait_for(lambda s: s["game"]["phase"] == "ready")
        for player in players:
            assert player.call("ready")["ok"]
        hosts[1].wait_for(lambda s: s["game"]["phase"] == "reveal")
        assert players[0].call("match")["ok"]
        hosts[1].wait_for(lambda s: s["game"]["phase"] == "last_ready")
        assert players[1].call("ready")["ok"]
        hosts[1].wait_for(lambda s: s["game"]["phase"] in ("entry", "scored"))
        for player, points in zip(players, (0, 17), strict=True):
            assert player.call("points", {"points": points}) == {"ok": True}
        scored = hosts[1].wait_for(lambda s: s["game"]["phase"] == "scored")["game"]
        names = [s["name"] for s in hosts[1].state["room"]["seats"]]
        board = {row["name"]: row for row in view(server, night)["standings"]}
        assert {n: board[n]["total"] for n in names} == dict(zip(names, scored["totals"], strict=True))
        assert all(board[n]["duplicate"] is None for n in names)  # real cards are compared with nobody
    finally:
        for client in clients:
            client.close()
        server.stop()
