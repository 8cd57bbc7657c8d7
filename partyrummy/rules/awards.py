"""The night's story from its score sheet: a recap after each hand, a podium and honest awards at the end.

Pure: everything comes from `history` (each hand's penalties, one per seat; a seat dealt in late has
no entry for the hands before it) and `start` (where each seat's total began: a late joiner's starting score),
and is worked out again from them, so replay and restart agree. Ranks are competition ranks on the running
totals (scoring.totals_by_hand, as the game counts them): lowest total first, equal totals share a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .scoring import starts, totals_by_hand
from .sheet import Sheet

__all__ = ["ranks", "recap", "awards", "podium", "story"]


def ranks(totals: list[int]) -> list[int]:
    """Each seat's place (1 = lowest total); equal totals share the better place."""
    return [1 + sum(1 for other in totals if other < mine) for mine in totals]


def recap(
    history: list[list[int | None]], start: Sequence[int], hands: int | None = None, margin: int = 0
) -> dict[str, Any] | None:
    """The last hand in brief: who scored 0, the biggest penalty, who climbed and who fell in the ranking; and the
    story it tells, each part None when it has none:

    - lead: the lead changed hands (from the second hand on): who leads now, and who led before;
    - record: the biggest penalty of the game in one hand, beating every earlier hand's;
    - close: near the end (the game's last two hands of `hands`), the seats within `margin` points of the
      leader, and the smallest gap: a race to the last hand, or a close finish;
    - next_last: the next hand is the game's last.
    """
    if not history:
        return None
    seats, last = len(start), history[-1]
    points = {s: last[s] for s in range(min(seats, len(last))) if last[s] is not None}
    after = totals_by_hand(start, history)
    now = ranks(after[-1])
    before = ranks(after[-2]) if len(after) > 1 else now
    worst = max(points.values(), default=0)
    moves = [{"seat": s, "from": before[s], "to": now[s]} for s in range(seats) if before[s] != now[s]]
    return {
        "zero": sorted(s for s, p in points.items() if p == 0),
        "worst": {"seats": sorted(s for s, p in points.items() if p == worst), "points": worst} if worst else None,
        "climbed": sorted((m for m in moves if m["to"] < m["from"]), key=lambda m: m["to"] - m["from"])[:3],
        "fell": sorted((m for m in moves if m["to"] > m["from"]), key=lambda m: m["from"] - m["to"])[:3],
        "lead": _lead(before, now) if len(after) > 1 else None,
        "record": _record(history, worst),
        "close": _close(after[-1], margin) if hands is not None and len(history) >= hands - 1 else None,
        "next_last": hands is not None and len(history) == hands - 1,
    }


def _lead(before: list[int], now: list[int]) -> dict[str, list[int]] | None:
    """Who leads now, and who led before, when they are not the same seats."""
    was, leads = [s for s, p in enumerate(before) if p == 1], [s for s, p in enumerate(now) if p == 1]
    return None if was == leads else {"seats": leads, "from": was}


def _record(history: list[list[int | None]], worst: int) -> dict[str, Any] | None:
    """The last hand's biggest penalty, when no earlier hand of the game had one as big."""
    earlier = [p for hand in history[:-1] for p in hand if p is not None]
    if not earlier or worst <= max(earlier):
        return None
    last = history[-1]
    return {"seats": [s for s, p in enumerate(last) if p == worst], "points": worst, "was": max(earlier)}


def _close(totals: list[int], margin: int) -> dict[str, Any] | None:
    """The seats behind the leader by `margin` points or fewer, and the smallest gap (tied leaders: gap 0)."""
    best = min(totals)
    leaders = [s for s, t in enumerate(totals) if t == best]
    near = sorted((s for s, t in enumerate(totals) if t - best <= margin and s not in leaders), key=lambda s: totals[s])
    if len(leaders) > 1:
        return {"seats": leaders + near, "gap": 0}
    return {"seats": leaders + near, "gap": totals[near[0]] - best} if near else None


def podium(totals: list[int]) -> list[list[int]]:
    """The seats in first, second and third place (ties share a step; a step may be empty)."""
    places = ranks(totals)
    return [[s for s, p in enumerate(places) if p == step] for step in (1, 2, 3)]


def awards(history: list[list[int | None]], start: Sequence[int], sizes: Sequence[int] = ()) -> list[dict[str, Any]]:
    """A few awards the score sheet can prove; an award nobody earned is left out.

    - best: the night's best hand: 0 points on the most cards anyone held at 0 (`sizes`: each hand's cards).
    - clean: most hands scored at 0 (at least one).
    - comeback: the biggest climb from a player's worst place after any hand to their final place (2+).
    - steady: the smallest worst single hand, over the whole night.
    """
    if not history:
        return []
    seats, found = len(start), []
    at_zero = [(sizes[h], s) for h, hand in enumerate(history[: len(sizes)]) for s, p in enumerate(hand) if p == 0]
    if at_zero:
        most = max(size for size, _ in at_zero)
        found.append({"key": "best", "seats": sorted({s for size, s in at_zero if size == most}), "n": most})
    zeros = [sum(1 for hand in history if s < len(hand) and hand[s] == 0) for s in range(seats)]
    best = max(zeros)
    if best > 0:
        found.append({"key": "clean", "seats": [s for s in range(seats) if zeros[s] == best], "n": best})
    places = [ranks(totals) for totals in totals_by_hand(start, history)]
    final = places[-1]
    climbs = [max(p[s] for p in places) - final[s] for s in range(seats)]
    top = max(climbs)
    if top >= 2:
        winners = [s for s in range(seats) if climbs[s] == top]
        found.append(
            {"key": "comeback", "seats": winners, "from": max(p[winners[0]] for p in places), "to": final[winners[0]]}
        )
    worst = [
        max((hand[s] for hand in history if s < len(hand) and hand[s] is not None), default=None) for s in range(seats)
    ]
    dealt = [w for w in worst if w is not None]
    if dealt:
        low = min(dealt)
        found.append({"key": "steady", "seats": [s for s in range(seats) if worst[s] == low], "n": low})
    return found


def story(game: Sheet, history: list[list[int | None]], scored: bool, over: bool) -> dict[str, Any]:
    """What a view of either way to play tells of the night from its sheet: the hand's `recap` once it is `scored`,
    and the `awards` (the podium, and the awards the sheet proves) once the game is `over`; None for each before."""
    start, variant = starts(game.start_scores, game.totals), game.variant
    totals = list(game.totals)
    # A close race: within one orphaned card of the costliest rank (10 points in the party game).
    margin = max(variant.penalties.values())
    return {
        "recap": recap(history, start, variant.hands, margin) if scored else None,
        "awards": {"podium": podium(totals), "awards": awards(history, start, variant.hand_sizes)} if over else None,
    }
