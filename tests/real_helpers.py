"""Helpers for the real-cards tests over real sockets: a room set up for real cards, taps, and the leak check."""

from __future__ import annotations

from typing import Any

from tests.live import Client, LiveServer
from tests.night import REAL_VARIANTS, Night


def real_server(**kwargs: Any) -> LiveServer:
    """A live server offering tests/real.toml's short rule sets (given last, so they are the ones loaded)."""
    return LiveServer("--variants", str(REAL_VARIANTS), **kwargs)


def seat_real(night: Night, phones: int, phoneless: int, **options: Any) -> list[Client]:
    """`phones` players join (P0, P1…), then the host adds `phoneless` players without a phone (N<seat>), seated
    after them; each Ready the tests tap themselves. The phones (Client's `options`)."""
    assert night.host.call("phoneless_ready", {"ready": False}) == {"ok": True}
    clients = night.players(phones, **options)
    for i in range(phones, phones + phoneless):
        assert night.host.call("add_person", {"name": f"N{i}"}) == {"ok": True, "seat": i}
    return clients


def real_room(
    server: LiveServer, phones: int, phoneless: int, variant: str = "realparty", reconnect: bool = False
) -> tuple[Client, list[Client]]:
    """A new room of a server played with real cards (see `seat_real`): the host's link and the phones."""
    night = Night(server=server, mode="real", variant=variant, reconnect=reconnect)
    return night.host, seat_real(night, phones, phoneless, reconnect=reconnect)


def game(state: dict) -> dict:
    """The real-cards game of a state (it must be one)."""
    assert state["game"] is not None and state["game"]["mode"] == "real"
    return state["game"]


def phase_is(*phases: str):
    """A predicate on a state: the real-cards game is in one of these phases."""
    return lambda s: s.get("game") is not None and s["game"].get("mode") == "real" and s["game"]["phase"] in phases


def faces_of(cards: list[dict]) -> list[str]:
    """The short forms ("7H") of cards as the views send them (the phones' game's card shape, without ids)."""
    return [card["card"] for card in cards]


def picker(state: dict, seat: int) -> dict | None:
    """The picker of `seat` as this viewer sees it: its own, a helped seat's, or (the TV) a phone-less seat's."""
    g = state["game"]
    you = g.get("you") or {}
    if you.get("seat") == seat:
        return you["draft"]
    return (you.get("helping") or g.get("drafts") or {}).get(str(seat))


def tap_in(client: Client, faces: list[str], seat: int | None = None) -> list[dict]:
    """Tap a hand in one card at a time, as the picker does (each tap resends the whole list).

    Returns the picker after each tap, as the sender's own view laid it out.
    """

    def tapped(state: dict) -> list[str]:
        return faces_of((picker(state, _whose(state, seat)) or {"cards": []})["cards"])

    seen = []
    for k in range(1, len(faces) + 1):
        payload = {"cards": faces[:k], **({"seat": seat} if seat is not None else {})}
        assert client.call("draft", payload) == {"ok": True}
        state = client.wait_for(lambda s, k=k: tapped(s) == faces[:k])
        seen.append(picker(state, _whose(state, seat)))
    return seen


def _whose(state: dict, seat: int | None) -> int:
    return state["game"]["you"]["seat"] if seat is None else seat


def refused(ack: dict, code: str, message_part: str = "") -> bool:
    """Whether an acknowledgement is a refusal with this code (and a sentence holding `message_part`)."""
    return not ack["ok"] and ack["error"]["code"] == code and message_part in ack["error"]["message"]


def check_nothing_hidden_leaked(client: Client, phoneless: set[int]) -> int:
    """Walk every view this client held (sent whole, or made from the small updates): it saw only its own
    picker (and, as a helper or the TV, the pickers of phone-less seats), and no seat's points before the hand
    was scored but the matched seats'.

    Returns how many real-cards states were checked.
    """
    checked = 0
    for payload in client.views:
        g = payload.get("game")
        if not g or g.get("mode") != "real":
            continue
        checked += 1
        mine, role = g.get("you") or {}, payload["room"]["you"]["role"]
        you = mine.get("seat")
        helped = set(mine.get("helping", {})) | set(g.get("drafts", {}))
        assert helped <= {str(s) for s in phoneless}, (role, you, helped)
        assert str(you) not in helped
        if role == "player":
            assert "drafts" not in g and (payload["room"]["allow_helpers"] or not mine.get("helping"))
        else:
            assert g["you"] is None and "draft" not in g and "helping" not in g and "entry" not in g
            assert role == "host" or "drafts" not in g
        for row in g["seats"]:
            if row["seat"] != you and row["entry"] is not None:
                assert g["phase"] == "scored" or row["matched"], (you, row)
        scored_hands = g["hand_no"] - (g["phase"] != "scored")
        assert len(g["sheet"]) == scored_hands  # no score of the hand being entered
    return checked
