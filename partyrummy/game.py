"""The whole game: one hand after another (sizes from the variant), running totals, the winners."""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import hand as hand_machine
from .commands import Call, Command, Event, GameEnded, HandScored
from .errors import GameOver, RummyError
from .hand import HandState, Phase
from .variants import Variant

__all__ = ["GameState", "new_game", "apply", "replay"]


@dataclass(frozen=True)
class GameState:
    variant: Variant
    seed: int | str
    hand: HandState
    history: tuple[tuple[int, ...], ...] = ()  # each scored hand's points, by seat
    winners: tuple[int, ...] | None = None  # set when the game is over; () means nobody won

    @property
    def players(self) -> int:
        return self.hand.players

    @property
    def over(self) -> bool:
        return self.winners is not None

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(points) for points in zip(*self.history, strict=True)) if self.history else (0,) * self.players


def new_game(variant: Variant, players: int, seed: int | str) -> tuple[GameState, list[Event]]:
    """Deal hand 1 of a new game."""
    first, events = hand_machine.deal(variant, players, seed, 1)
    return GameState(variant, seed, first), events


def apply(game: GameState, command: Command) -> tuple[GameState, list[Event]]:
    """The game after `command`, or a RummyError with the game untouched."""
    if game.over:
        raise GameOver("The game is over: the host can start another")
    if game.hand.phase is Phase.SCORED and isinstance(command, Call):
        return _next_hand(game)
    hand, events = hand_machine.apply(game.hand, command)
    game = replace(game, hand=hand)
    if hand.phase is Phase.SCORED:
        scores = tuple(result.penalty for result in hand.results)
        game = replace(game, history=game.history + (scores,))
        events.append(HandScored(hand.hand_no, scores))
    return game, events


def _next_hand(game: GameState) -> tuple[GameState, list[Event]]:
    if game.hand.hand_no == game.variant.hands:
        totals = game.totals
        best = min(totals)
        winners = tuple(seat for seat, total in enumerate(totals) if total == best)
        if len(winners) > 1 and game.variant.ties == "no-winner":
            winners = ()
        return replace(game, winners=winners), [GameEnded(totals, winners)]
    hand, events = hand_machine.deal(game.variant, game.players, game.seed, game.hand.hand_no + 1)
    return replace(game, hand=hand), events


def replay(variant: Variant, players: int, seed: int | str, commands: list[Command]) -> GameState:
    """The game that `commands` make from this seed (refused commands are skipped, as they changed nothing)."""
    game, _ = new_game(variant, players, seed)
    for command in commands:
        try:
            game, _ = apply(game, command)
        except RummyError:
            pass
    return game
