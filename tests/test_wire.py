"""What an outside client may send on the wire, packet by packet, and the answer it gets (issue 16)."""

from __future__ import annotations

import pytest
import websocket

from .live import Client, phase, seated
from .raw import RawSocket


@pytest.fixture(scope="module")
def table(server):
    """A game on, two phones and a raw client seated, and the TV."""
    host, phones = seated(server, "fast", 2)
    raw = RawSocket(server.url, host.room)
    assert raw.ask('["join",{"name":"Raw"}]')["ok"]
    assert host.call("start")["ok"]
    for phone in phones:
        phone.wait_for(lambda s: phase(s) == "draw")
    yield host, phones, raw
    for client in (host, *phones):
        client.close()
    raw.close()


def quiet(phones: list[Client]) -> list[int]:
    """How many messages each phone has had: compared before and after, nobody heard a thing."""
    return [len(p.messages) for p in phones]


def test_malformed_packets_get_a_clear_refusal_and_nobody_else_hears(table) -> None:
    host, phones, raw = table
    heard, version = quiet(phones), host.sync()["state"]["v"]
    cases = [
        ('["draw",{"source":"' + "x" * 20_000 + '"}]', "too_big", "too big"),
        ('["draw",{"source":' + "[" * 5000 + "]" * 5000 + "}]", "too_deep", "nested too deeply"),
        ('["draw",{"source":"shoe"', "not_json", "not valid JSON"),
        ('["choose",{"card_id":' + "9" * 200 + "}]", "not_json", "not valid JSON"),
        ('["connect",{"room":"ACEF"}]', "reserved_event", "name of a connection"),
        ('["disconnect"]', "reserved_event", "name of a connection"),
    ]
    for body, key, words in cases:
        ack = raw.ask(body)
        assert ack["ok"] is False and ack["error"]["code"] == "bad_command", (key, ack)
        assert words in ack["error"]["message"], (key, ack)
    assert raw.ask('["sync"]')["state"]["mine"]["room"]["you"]["role"] == "player"  # still connected, still seated
    assert quiet(phones) == heard and host.sync()["state"]["v"] == version


def test_a_card_id_of_any_size_is_not_in_your_hand(table) -> None:
    host, phones, raw = table
    phone = phones[0]
    if not phone.sync()["state"]["game"]["you"]["drawn"]:
        assert phone.call("draw", {"source": "shoe"})["ok"]
    phone.wait_for(lambda s: s["game"]["you"]["drawn"])
    for card_id in (-1, 1_000_000_000, 10**40):
        ack = phone.call("choose", {"card_id": card_id})
        assert ack["error"]["code"] == "not_held" and "not" in ack["error"]["message"], (card_id, ack)
    assert phone.call("choose", {"card_id": 1_000_000_000})["error"]["message"] == (
        phone.call("choose", {"card_id": -1})["error"]["message"]
    )


def test_watchers_coming_and_going_do_not_redraw_the_table(server, table) -> None:
    host, phones, raw = table
    heard, version = quiet(phones), host.sync()["state"]["v"]
    watchers = [Client(server.url, host.room) for _ in range(5)]
    assert all(w.state["v"] == version for w in watchers)  # each gets the table as it is
    for watcher in watchers:
        watcher.close()
    assert host.sync()["state"]["v"] == version and quiet(phones) == heard


def test_a_message_over_the_transports_limit_closes_only_that_connection(server, table) -> None:
    host, phones, raw = table
    heard, version = quiet(phones), host.sync()["state"]["v"]
    watcher = RawSocket(server.url, host.room)
    watcher.ws.send('42["sync",{"x":"' + "y" * 200_000 + '"}]')
    with pytest.raises((websocket.WebSocketException, OSError)):
        while True:
            watcher.next()
    watcher.close()
    assert quiet(phones) == heard and host.sync()["state"]["v"] == version
    assert raw.ask('["sync"]')["ok"]  # everyone else is still there


def test_a_seated_phone_whose_too_big_message_closes_it_comes_back_and_nobody_else_notices(server, table) -> None:
    host, phones, raw = table
    big = RawSocket(server.url, host.room)
    token = big.ask('["join",{"name":"Big"}]')["token"]
    version = host.wait_for(lambda s: len(s["room"]["seats"]) == 4)["v"]
    for phone in phones:
        phone.wait_for(lambda s: s["v"] >= version)
    heard = quiet(phones)
    big.ws.send('42["sync",{"x":"' + "y" * 200_000 + '"}]')  # over the transport's limit: the server closes it
    with pytest.raises((websocket.WebSocketException, OSError)):
        while True:
            big.next()
    big.close()
    back = RawSocket(server.url, host.room, token=token)  # as a phone's client does, at once, with its token
    assert back.ask('["sync"]')["state"]["mine"]["room"]["you"]["seat"] == 3
    assert quiet(phones) == heard and host.sync()["state"]["v"] == version  # nobody saw the seat go
    back.close()
