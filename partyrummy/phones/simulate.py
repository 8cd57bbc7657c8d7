"""Whole games played headless by bots on the engine: `partyrummy simulate`.

Each cycle every bot draws, then picks, then the caller calls, as the TV would
pace it with no waiting. After every command the engine's card count is
checked, so a simulation is also a long invariant test.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..rules.errors import RummyError
from ..rules.variants import Variant
from . import game as engine
from .bots import Bot, bot_move
from .commands import AutoPlay, Call, Command
from .game import GameState
from .hand import Phase

__all__ = ["play_game", "simulate", "Report"]

# A hand no bot can finish (it cannot happen with reshuffled piles, but a variant might allow it) stops here.
MAX_CYCLES = 2000


@dataclass
class Report:
    """What many games of bots came to."""

    players: int
    strengths: list[str]  # by seat
    games: int = 0
    hands: int = 0
    cycles: int = 0
    totals: list[int] = field(default_factory=list)  # summed final totals, by seat
    wins: list[float] = field(default_factory=list)  # a shared win counts 1/k to each of k winners

    def by_strength(self) -> dict[str, tuple[float, float, int]]:
        """Strength -> (average final total per seat, wins per game per seat, seats)."""
        grouped: dict[str, list[int]] = defaultdict(list)
        for seat, strength in enumerate(self.strengths):
            grouped[strength].append(seat)
        return {
            s: (
                sum(self.totals[i] for i in seats) / (len(seats) * self.games),
                sum(self.wins[i] for i in seats) / (len(seats) * self.games),
                len(seats),
            )
            for s, seats in grouped.items()
        }

    def table(self) -> str:
        lines = [
            f"games: {self.games}, players: {self.players}, hands: {self.hands}, "
            f"average cycles per hand: {self.cycles / max(1, self.hands):.1f}",
            "",
            f"{'seat':>4}  {'strength':<8}  {'average total':>13}  {'wins':>6}",
        ]
        for seat, strength in enumerate(self.strengths):
            lines.append(f"{seat:>4}  {strength:<8}  {self.totals[seat] / self.games:>13.1f}  {self.wins[seat]:>6.1f}")
        lines += ["", f"{'strength':<8}  {'seats':>5}  {'average total':>13}  {'win rate per seat':>17}"]
        for strength, (average, rate, seats) in self.by_strength().items():
            lines.append(f"{strength:<8}  {seats:>5}  {average:>13.1f}  {rate:>17.1%}")
        return "\n".join(lines)


def _check_cards(game: GameState) -> None:
    hand = game.hand
    count = hand.shoe_count + sum(map(len, hand.hands)) + sum(map(len, hand.piles))
    if count != len(hand.faces):
        raise AssertionError(f"hand {hand.hand_no}: {count} cards in play, the shoe has {len(hand.faces)}")


def _step(game: GameState, command: Command) -> GameState:
    game, _ = engine.apply(game, command)
    _check_cards(game)
    return game


def play_game(variant: Variant, bots: Sequence[Bot], seed: int | str) -> tuple[GameState, int]:
    """One whole game of these bots; returns the final game and the cycles it took."""
    game, _ = engine.new_game(variant, len(bots), seed)
    cycles = 0
    while not game.over:
        hand = game.hand
        if hand.phase is Phase.SCORED:
            game = _step(game, Call())
            continue
        if hand.cycle > MAX_CYCLES:
            raise RuntimeError(f"hand {hand.hand_no} of game {seed} did not end in {MAX_CYCLES} cycles")
        moved = True
        while moved:  # every bot acts, as often as the phase lets it, then the caller calls
            moved = False
            for seat, bot in enumerate(bots):
                command = bot_move(game.hand, seat, bot)
                if command is None:
                    continue
                try:
                    game = _step(game, command)
                except RummyError:  # e.g. an empty shoe under "piles-only": the caller's play instead
                    game = _step(game, AutoPlay(seat))
                moved = True
        cycles += game.hand.phase in (Phase.CHOOSE, Phase.LAST_CHOOSE)
        game = _step(game, Call())
    return game, cycles


def simulate(variant: Variant, players: int, games: int, seed: int, strengths: Sequence[str]) -> Report:
    """Play `games` games; seat i plays strengths[i % len(strengths)]; game g is dealt from seed + g."""
    seats = [strengths[i % len(strengths)] for i in range(players)]
    report = Report(players, seats, totals=[0] * players, wins=[0.0] * players)
    for g in range(games):
        bots = [Bot(s) for s in seats]
        final, cycles = play_game(variant, bots, seed + g)
        report.games += 1
        report.hands += variant.hands
        report.cycles += cycles
        for seat, total in enumerate(final.totals):
            report.totals[seat] += total
        for seat in final.winners:
            report.wins[seat] += 1 / len(final.winners)
    return report
