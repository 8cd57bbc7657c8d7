"""The shoe as one face-down stack per seat ("own-order"): dealt, drawn from, borrowed from, refilled, left.

With `draws = "one-shoe"` every seat draws the top of one shared shoe, so the card a seat gets depends on who
drew before it. With `"own-order"` the cards left after the deal are dealt on, round robin from seat 0, into
one stack per seat, and a seat drawing "from the shoe" takes the top of its own stack: at every table of the
same size dealt from the same seed, a seat's own draws come in the same order whatever its neighbours do.

- A seat whose stack is empty **borrows** the bottom card of the stack with the most cards left (ties: the
  nearest seat on its left). Taken from the bottom, so the owner still draws its own cards in their order.
- When every stack is empty the shoe is empty (RULES 7): the gathered, shuffled cards are dealt round robin
  from seat 0 into new stacks (`split`).
- A seat that leaves puts its stack, then its hand and its pile, one card at a time under the stacks of the
  seats that stay, from its left-hand neighbour on round the ring (`put_under`): no card is lost, and no
  seat's own order changes.

A stack's top is its last card, as the shoe's is. Pure functions of tuples: no state, no randomness.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["Stacks", "split", "lender", "take", "put_under", "count"]

Stacks = tuple[tuple[int, ...], ...]  # by seat; each stack's top is its last card


def split(cards: Iterable[int], players: int, first: int = 0) -> Stacks:
    """Deal `cards` (in the order they come off the top) round robin into `players` stacks, from seat `first`,
    each card face down on top of its stack."""
    stacks: list[list[int]] = [[] for _ in range(players)]
    for i, card in enumerate(cards):
        stacks[(first + i) % players].append(card)
    return tuple(tuple(stack) for stack in stacks)


def lender(stacks: Stacks, seat: int) -> int | None:
    """The stack `seat` draws from: its own while it lasts, else the one with the most cards left, ties to the
    nearest seat on its left (seat + 1, seat + 2 …); None when every stack is empty."""
    if stacks[seat]:
        return seat
    players = len(stacks)
    ring = [(seat + step) % players for step in range(1, players)]  # nearest on the left first
    best = max(ring, key=lambda s: len(stacks[s]), default=None)  # max keeps the first of equals
    return best if best is not None and stacks[best] else None


def take(stacks: Stacks, seat: int) -> tuple[int, Stacks] | None:
    """The card `seat` draws "from the shoe" and the stacks after it: the top of its own stack, or the bottom of
    the lender's; None when every stack is empty."""
    source = lender(stacks, seat)
    if source is None:
        return None
    stack = stacks[source]
    card, rest = (stack[-1], stack[:-1]) if source == seat else (stack[0], stack[1:])
    return card, stacks[:source] + (rest,) + stacks[source + 1 :]


def put_under(stacks: Stacks, cards: Sequence[int], first: int) -> Stacks:
    """Put `cards` one at a time under the stacks, round robin from seat `first`: the first card a stack gets is
    the first of them it draws after its own."""
    out = [list(stack) for stack in stacks]
    for i, card in enumerate(cards):
        out[(first + i) % len(out)].insert(0, card)
    return tuple(tuple(stack) for stack in out)


def count(stacks: Stacks) -> int:
    """The cards in the shoe: every stack's together."""
    return sum(map(len, stacks))
