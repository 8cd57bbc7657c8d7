"""A night of several tables driven from outside, as its pages drive it: the laptop's form and actions, and the
guests' one way in."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from typing import Any

from .live import Client, LiveServer


def post(server: LiveServer, path: str, body: Any = None, form: str | None = None) -> tuple[int, Any]:
    """A POST as the night's pages make it (from the server's own origin): its status and its answer."""
    data = json.dumps(body).encode() if body is not None else (form or "").encode()
    kind = "application/json" if body is not None else "application/x-www-form-urlencoded"
    made = urllib.request.Request(
        server.url + path, data=data, method="POST", headers={"Origin": server.url, "Content-Type": kind}
    )
    try:
        with urllib.request.urlopen(made, timeout=10) as response:
            text = response.read().decode()
            status = response.status
    except urllib.error.HTTPError as error:
        text, status = error.read().decode(), error.code
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def begin(server: LiveServer, tables: int, variant: str = "fast3") -> str:
    """The laptop begins a night of `tables` tables; its code."""
    status, _ = post(server, "/night", form=f"tables={tables}&variant={variant}")
    assert status == 200
    return re.search(r'data-night="([A-Z]{4})"', server.get("/night")).group(1)


def seat(server: LiveServer, night: str, name: str) -> dict:
    """A guest types their name on the night's page: where the night seats them (their keys included)."""
    status, answer = post(server, f"/n/{night}/seat", {"name": name})
    assert status == 200 and answer["ok"], answer
    return answer


def view(server: LiveServer, night: str) -> dict:
    return json.loads(server.get(f"/night/{night}/view"))


def do(server: LiveServer, night: str, action: str, **fields: Any) -> dict:
    return post(server, f"/night/{night}/do", {"action": action, **fields})[1]


def dealt_hands(phone: Client, since: int = 0) -> dict[int, list[str]]:
    """The cards this phone was dealt at each hand, as it first saw them (before any draw); `since`: its views from
    this one on (a later game's)."""
    hands: dict[int, list[str]] = {}
    for seen in phone.views[since:]:
        game = seen.get("game")
        fresh = game and game.get("you") and game["cycle"] <= 1 and not game["you"]["drawn"]
        if fresh and game["hand_no"] not in hands:
            hands[game["hand_no"]] = sorted(f"{c['rank']}{c['suit']}" for c in game["you"]["hand"])
    return hands
