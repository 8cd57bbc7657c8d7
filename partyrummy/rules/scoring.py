"""The score: each seat's running total (a late joiner's starting score included), and who wins.

Both ways to play keep their sheet the same way: each hand's points by seat (None for a hand a seat was not
dealt), and by seat the score it started from (0, or a newcomer's starting score, None until dealt in).
"""

from __future__ import annotations

from collections.abc import Sequence

from .variants import Variant

__all__ = ["running_totals", "totals_by_hand", "starts", "newcomer_score", "winners"]


def running_totals(
    variant: Variant, start_scores: tuple[int, ...], history: tuple[tuple[int | None, ...], ...], players: int
) -> tuple[int, ...]:
    """The totals of the seats dealt in (their start plus each hand's points; a blank counts 0), then, for each
    newcomer still waiting for the next deal, the score they would start with now."""
    dealt = [start + sum(points[seat] or 0 for points in history) for seat, start in enumerate(start_scores)]
    return tuple(dealt) + (newcomer_score(variant, dealt),) * (players - len(dealt))


def totals_by_hand(start: Sequence[int], history: Sequence[Sequence[int | None]]) -> list[list[int]]:
    """Each seat's total after each hand: where it started (a late joiner's starting score; a newcomer still
    waiting, the score it would start with) plus its points so far. The last row is the game's totals."""
    totals, after = list(start), []
    for points in history:
        totals = [t + ((points[s] or 0) if s < len(points) else 0) for s, t in enumerate(totals)]
        after.append(list(totals))
    return after


def starts(start_scores: Sequence[int | None], totals: Sequence[int]) -> list[int]:
    """Where each seat's running total began: its starting score, or for a newcomer still waiting for the next
    deal (None), the score it would start with now (its total)."""
    return [total if start is None else start for start, total in zip(start_scores, totals, strict=True)]


def newcomer_score(variant: Variant, totals: list[int]) -> int:
    """The starting score of a player dealt in late, from the totals of those already playing."""
    if variant.newcomer_score == "worst":
        return max(totals, default=0)
    if variant.newcomer_score == "average":
        return round(sum(totals) / len(totals)) if totals else 0
    return 0


def winners(variant: Variant, totals: tuple[int, ...]) -> tuple[int, ...]:
    """The lowest totals win; a tie is shared, or nobody's when the variant says "no-winner"."""
    best = min(totals)
    won = tuple(seat for seat, total in enumerate(totals) if total == best)
    return () if len(won) > 1 and variant.ties == "no-winner" else won
