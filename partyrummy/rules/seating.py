"""Who sits where: each seat's neighbours around the ring, and who deals.

Seats sit in a ring in seat order. A seat's pile lies to its left: only its left-hand neighbour (seat + 1) may
take from it, and it draws from its right-hand neighbour's (seat - 1). Both ways to play deal in turn from a
first dealer drawn from the game's seed.
"""

from __future__ import annotations

import random

__all__ = ["right_of", "left_of", "clockwise", "dealer_after_leave", "first_dealer"]


def right_of(seat: int, players: int) -> int:
    """The neighbour whose pile this seat may take from."""
    return (seat - 1) % players


def left_of(seat: int, players: int) -> int:
    """The neighbour who may take from this seat's pile."""
    return (seat + 1) % players


def clockwise(start: int, players: int, out: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The seats in turn order from `start`, around the ring to the left, but those `out` (who went out)."""
    order = ((start + k) % players for k in range(players))
    return tuple(s for s in order if s not in out)


def dealer_after_leave(dealer: int, seat: int, players: int) -> int:
    """The dealer's seat once `seat` has left a table of `players`.

    A leaver at or before the dealer moves the dealer's number down; a leaving dealer hands the deal to
    their right-hand neighbour, so the next deal still passes to the same player.
    """
    return (dealer - 1) % (players - 1) if seat <= dealer else dealer


def first_dealer(seed: int | str, players: int) -> int:
    """The dealer of hand 1, drawn from the game's seed (as the table would cut for it), so a replay deals alike."""
    return random.Random(f"{seed}:first-dealer").randrange(players)
