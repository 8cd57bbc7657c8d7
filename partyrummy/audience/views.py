"""What the audience's screens show, as plain JSON-able dicts. Views are whitelists: names, options, counts and
points; never a card, never a token.

- `public`: the round, its split once closed, its answers once resolved, the leaders and the night's best guesser.
  The same for everyone: the TV's table carries it (`room.audience`), and the audience's own table.
- `member`: what one member alone sees: their picks, what they earned, their points and their place.
- `roster`: the members as the TV's host lists them, to offer one a seat or take them out of the audience.
- `hand`: the hand on the table as the audience's phones follow it once their guesses are in: the call, each seat's
  pile as the TV shows it, who called Match!; read off the public table alone (whitelisted again all the same).
"""

from __future__ import annotations

from typing import Any

from .facts import Facts
from .predictions import KEYS, LINE, NO, OPEN, VOID, YES, Book, Round

__all__ = ["LEADERS", "TOP", "public", "member", "roster", "places", "standing", "hand"]

LEADERS = 5  # the audience's leaders the screens show
TOP = 3  # the best guessers of one hand the TV names at its end


def places(points: tuple[int, ...]) -> list[int]:
    """Each member's place on their points (1 = most); equal points share the better place. Sorted once: two hundred
    members are 200 places, not 40,000 comparisons, at every update."""
    first: dict[int, int] = {}
    for place, p in enumerate(sorted(points, reverse=True), start=1):
        first.setdefault(p, place)
    return [first[p] for p in points]


def standing(book: Book) -> tuple[int, ...]:
    """Each member's points as the boards rank them: a member taken out of the audience below everyone (-1)."""
    return tuple(-1 if m.removed else p for m, p in zip(book.members, book.points, strict=True))


def _leaders(book: Book) -> list[dict[str, Any]]:
    """The members with the most points (some: more than none), the best first, ties in join order."""
    points = standing(book)
    place = places(points)
    won = book.last.earned if book.last is not None else {}
    order = sorted((i for i, p in enumerate(points) if p > 0), key=lambda i: (-points[i], i))
    return [
        {
            "name": book.members[i].name,
            "points": book.points[i],
            "place": place[i],
            "earned": sum(won.get(i, {}).values()),
        }
        for i in order[:LEADERS]
    ]


def _top(book: Book) -> list[dict[str, Any]]:
    """The members who earned most on the round settled last (some: more than none), the most first, ties in join
    order: the TV names them, with what they just earned, as the hand is laid out."""
    if book.last is None:
        return []
    won = {i: sum(q.values()) for i, q in book.last.earned.items() if not book.members[i].removed}
    order = sorted((i for i, n in won.items() if n > 0), key=lambda i: (-won[i], i))
    return [{"name": book.members[i].name, "earned": won[i], "points": book.points[i]} for i in order[:TOP]]


def _questions(r: Round, names: tuple[str, ...]) -> list[dict[str, Any]]:
    players = list(names if r.status == OPEN else r.options)
    asked = [{"key": "first", "options": players}, {"key": "worst", "options": players}]
    if r.subject is not None:
        asked.insert(1, {"key": "under", "subject": r.subject, "line": LINE, "options": [YES, NO]})
    return asked


def _round(r: Round, names: tuple[str, ...]) -> dict[str, Any]:
    shown = r.status != OPEN  # the split while open would sway those still to pick: shown once it closes
    return {
        "game": r.game,
        "hand": r.hand,
        "status": r.status,
        "open": r.status == OPEN,  # a member may pick now (the pages read this, never the status's words)
        "void": r.status == VOID,  # its hand never came: nobody scores
        "questions": _questions(r, names),
        "predicted": len({m for m, _ in r.picks}) if shown else None,  # members with at least one pick
        "split": r.split() if shown else None,
        "answers": {k: list(v) for k, v in r.answers.items()} if r.status == "resolved" else None,
    }


def public(book: Book, facts: Facts, over: bool) -> dict[str, Any]:
    """What everyone may see of the audience; `over`: the game on the table is over (the night's best guesser)."""
    points = standing(book)
    top = max(points, default=0)
    best = [m.name for m, p in zip(book.members, points, strict=True) if p == top] if over and top > 0 else []
    return {
        "on": book.on,
        "cap": book.cap,
        "round": _round(book.round, facts.players) if book.round is not None else None,
        "last": _round(book.last, facts.players) if book.last is not None else None,
        "leaders": _leaders(book),
        "top": _top(book),
        "best": {"names": best, "points": top} if best else None,
    }


def member(book: Book, index: int | None, place: list[int] | None = None) -> dict[str, Any]:
    """What one member alone sees (index None: an audience connection that has not joined yet). `place`: the
    book's `places`, worked out once for every member of one update."""
    if index is None:
        return {"member": None}
    me = book.members[index]
    if me.removed:
        return {"member": None, "removed": True}  # the host took them out: their page says so
    r, last = book.round, book.last
    won = last.earned.get(index) if last is not None else None
    return {
        "member": index,
        "name": me.name,
        "points": book.points[index],
        "place": (place or places(standing(book)))[index],
        "of": sum(not m.removed for m in book.members),
        "picks": {k: r.picks[(index, k)] for k in KEYS if (index, k) in r.picks} if r is not None else {},
        # What the last round settled gave this member: each question's points (a void one absent), their picks.
        "last": None
        if last is None
        else {
            "hand": last.hand,
            "picks": {k: last.picks[(index, k)] for k in KEYS if (index, k) in last.picks},
            "earned": dict(won or {}),
        },
        "offered": me.offered,
        "seated": me.seated,
    }


def roster(book: Book) -> list[dict[str, Any]]:
    """The members as the TV lists them (not those it took out): name, points, whether offered a seat or seated
    already, and how many others their device brought who are still predicting (never the device's address)."""
    live: dict[str | None, int] = {}
    for m in book.members:
        if m.predicting and m.source is not None:
            live[m.source] = live.get(m.source, 0) + 1
    return [
        {
            "member": i,
            "name": m.name,
            "points": p,
            "offered": m.offered,
            "seated": m.seated,
            "together": live.get(m.source, 0) - 1 if m.predicting and m.source is not None else 0,
        }
        for i, (m, p) in enumerate(zip(book.members, book.points, strict=True))
        if not m.removed
    ]


# The TV's call in each phase of either way to play, as a catalog key: the audience's phones show the call without
# knowing the phases (a Match! is said beside it, from `called`).
SHOUTS = {
    "setup": "call.setup",
    "draw": "call.draw",
    "choose": "call.choose",
    "reveal": "call.reveal",
    "last_draw": "call.last_draw",
    "last_choose": "call.last_choose",
    "scored": "call.scored",
    "ready": "call.draw",
    "last_ready": "call.last_draw",
    "turn": "call.draw",
    "last_turn": "call.last_draw",
    "entry": "tv.real.call.entry",
}
_FACE = ("card", "label", "rank", "suit")  # a pile's top card, as the TV shows it face up


def hand(game: dict[str, Any] | None, names: tuple[str, ...]) -> dict[str, Any] | None:
    """The hand on the table as the audience follows it, from the public table `game` (None: no game) and the
    seats' names: the hand's number, the call's key, who called Match! (in order), and each dealt seat's pile top
    and whether it matched. Nothing else of the table: never a card but the piles' tops, which the TV shows."""
    if not game:
        return None
    seats = game["seats"]
    return {
        "hand": game["hand_no"],
        "of": game["hands_total"],
        "shout": "call.scored" if game.get("game_over") else SHOUTS.get(game["phase"], "call.draw"),
        "called": [names[m["seat"]] for m in game.get("matched") or [] if m["seat"] < len(names)],
        "seats": [
            {
                "name": names[s["seat"]] if s["seat"] < len(names) else "",
                "pile": {k: s["pile_top"][k] for k in _FACE} if s.get("pile_top") else None,
                "matched": bool(s.get("matched")),
            }
            for s in seats
        ],
    }
