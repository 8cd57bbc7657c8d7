"""The events both ways to play announce alike: a phase changed, a seat matched, a hand scored, the game ended,
a newcomer arrived. Each engine's own events are beside its commands."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PhaseChanged", "Matched", "HandScored", "GameEnded", "Arrived"]


@dataclass(frozen=True)
class PhaseChanged:
    phase: str


@dataclass(frozen=True)
class Matched:
    seat: int


@dataclass(frozen=True)
class HandScored:
    hand_no: int
    scores: tuple[int, ...]


@dataclass(frozen=True)
class GameEnded:
    totals: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class Arrived:
    seat: int
