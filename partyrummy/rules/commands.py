"""The commands both ways to play take alike: the host takes a seat off, a newcomer sits down. Each engine's own
commands are beside its events."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Leave", "Arrive"]


@dataclass(frozen=True)
class Leave:
    """The host takes a player off the table, mid-hand or not: the ring closes up behind them."""

    seat: int


@dataclass(frozen=True)
class Arrive:
    """A newcomer takes a new seat at the end of the ring, dealt in at the next hand (when the variant lets them)."""
