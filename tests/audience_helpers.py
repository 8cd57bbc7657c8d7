"""What the audience's tests share: a member joined as the page joins, a pick written at once in-process, the
audience's part of a state, a round resolved, and the walk that finds a card anywhere in a payload."""

from __future__ import annotations

import re
from typing import Any

from .live import Client
from .night import Night


def member(night: Night, name: str, **client: Any) -> tuple[Client, str]:
    """A newcomer who joins the audience, then connects as the member with its token (as the page does)."""
    guest = night.client(role="audience", **client)
    ack = guest.call("audience_join", {"name": name})
    assert ack["ok"], ack
    guest.close()
    token = ack["audience_token"]
    return night.client(role="audience", token=token, **client), token


def pick_now(room: Any, sid: str, key: str, option: str) -> None:
    """In-process: a member's pick, written at once (no batch to wait for), as a live one is once its batch is."""
    ticket = room.audience.pick(sid, key, option)
    room.audience.commit()
    ticket.result()


def audience(state: dict) -> dict:
    return state["room"]["audience"]


def predict_all(client: Client, choose=lambda q: q["options"][0]) -> dict[str, str]:
    """A pick for each question of the open round (the first answer unless told); the picks."""
    picks = {}
    for question in audience(client.state)["round"]["questions"]:
        option = choose(question)
        ack = client.call("predict", {"question": question["key"], "option": option})
        assert ack["ok"], ack
        picks[question["key"]] = option
    return picks


def resolved(hand: int):
    return lambda s: (last := audience(s)["last"]) is not None and last["hand"] == hand and last["status"] == "resolved"


CARD_TEXT = re.compile(r"^(10|[2-9AJQK])([CDHS♣♦♥♠])$")


def cards_in(payload: Any, path: str = "") -> list[str]:
    """Every card a payload holds, at any depth: a card's shape (a face, a label, a rank and suit) or its face."""
    found = []
    if isinstance(payload, dict):
        if {"card", "label"} & set(payload) or {"rank", "suit"} <= set(payload):
            found.append(f"{path}: {payload}")
        for key, value in payload.items():
            found += cards_in(value, f"{path}.{key}")
    elif isinstance(payload, list):
        for i, value in enumerate(payload):
            found += cards_in(value, f"{path}[{i}]")
    elif isinstance(payload, str) and CARD_TEXT.match(payload):
        found.append(f"{path}: {payload!r}")
    return found


# Where an audience's payload may hold a card: a seat's pile top, in the hand it follows (whole, or as a change:
# the seats' list whole, or one seat's pile as its new value `[card]` or its face or label changed).
PILE = re.compile(r"\.hand(\[0\])?\.seats[.\[\]\d]*\.pile(\[0\])?(\.card|\.label)?(\[0\])?$")


def not_piles(payload: dict) -> list[str]:
    """The cards a payload holds anywhere but in a seat's pile top (`PILE`)."""
    return [found for found in cards_in(payload) if not PILE.search(found.split(": ", 1)[0])]
