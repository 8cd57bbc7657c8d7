"""The whole game: one hand after another (sizes from the variant), running totals, the winners.

Seats may change between and during hands: a player who leaves takes their
column out of the score table; a newcomer (when the variant lets them in)
waits at the end of the ring until the next deal, which gives them the
starting score the variant sets. Seats 0 .. hand.players - 1 are in the
hand; any after them are waiting.

A game draws from the shoe one way (`draws`, variants.DRAWS) for all its hands: "one-shoe" unless it was
asked for "own-order" (a night's tables of the same size); a replay needs it, as it needs the seed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..rules import sheet
from ..rules.errors import GameOver
from ..rules.scoring import running_totals, winners
from ..rules.seating import first_dealer
from ..rules.sheet import add_newcomer, next_deal, with_row, without_seat
from ..rules.variants import Variant
from . import hand as hand_machine
from .commands import Arrive, Arrived, Call, Command, Event, GameEnded, HandScored, Leave
from .hand import HandState, Phase

__all__ = ["GameState", "new_game", "apply", "replay"]


@dataclass(frozen=True)
class GameState:
    variant: Variant
    seed: int | str
    hand: HandState
    start_scores: tuple[int | None, ...]  # by seat: 0, or a newcomer's starting score (None until dealt in)
    history: tuple[tuple[int | None, ...], ...] = ()  # each scored hand's points, by seat (None: not dealt in)
    winners: tuple[int, ...] | None = None  # set when the game is over; () means nobody won
    draws: str = "one-shoe"  # how every hand of it draws from the shoe: one of variants.DRAWS

    @property
    def players(self) -> int:
        """Every seat, including newcomers waiting for the next deal."""
        return len(self.start_scores)

    @property
    def over(self) -> bool:
        return self.winners is not None

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total; a waiting newcomer shows the score they would start with now."""
        return running_totals(self.variant, self.start_scores[: self.hand.players], self.history, self.players)


def new_game(
    variant: Variant, players: int, seed: int | str, draws: str = "one-shoe"
) -> tuple[GameState, list[Event]]:
    """Deal hand 1 of a new game, whose hands all draw from the shoe the `draws` way."""
    dealer = first_dealer(seed, players)
    first, events = hand_machine.deal(variant, players, seed, 1, dealer, draws)
    return GameState(variant, seed, first, start_scores=(0,) * players, draws=draws), events


def apply(game: GameState, command: Command) -> tuple[GameState, list[Event]]:
    """The game after `command`, or a RummyError with the game untouched."""
    if game.over:
        raise GameOver("error.game_over")
    if isinstance(command, Leave):
        return _leave(game, command.seat)
    if isinstance(command, Arrive):
        return _arrive(game)
    if game.hand.phase is Phase.SCORED and isinstance(command, Call):
        return _next_hand(game)
    hand, events = hand_machine.apply(game.hand, command)  # a scored hand accepts nothing: any SCORED here is new
    game = replace(game, hand=hand)
    return _write_score(game, events) if hand.phase is Phase.SCORED else (game, events)


def _write_score(game: GameState, events: list[Event]) -> tuple[GameState, list[Event]]:
    """The hand was just scored: its points go into the history; the last hand's ends the game at once."""
    hand = game.hand
    scores = tuple(result.penalty for result in hand.results)
    game = with_row(game, scores)
    events = events + [HandScored(hand.hand_no, scores)]
    if hand.hand_no == game.variant.hands:
        totals = game.totals
        won = winners(game.variant, totals)
        return replace(game, winners=won), events + [GameEnded(totals, won)]
    return game, events


def _next_hand(game: GameState) -> tuple[GameState, list[Event]]:
    game, dealer, hand_no = next_deal(game)
    hand, events = hand_machine.deal(game.variant, game.players, game.seed, hand_no, dealer, game.draws)
    return replace(game, hand=hand), events


def _arrive(game: GameState) -> tuple[GameState, list[Event]]:
    return add_newcomer(game), [Arrived(game.players)]


def _leave(game: GameState, seat: int) -> tuple[GameState, list[Event]]:
    left = without_seat(game, seat)  # refuses a seat that is none, before the hand hears of it
    hand, events = game.hand, []
    if seat < hand.players:  # dealt in (not a newcomer still waiting)
        hand, events = hand_machine.leave(hand, seat)
    scored_now = hand.phase is Phase.SCORED and game.hand.phase is not Phase.SCORED
    game = replace(left, hand=hand)
    # With turns, the last player still to play may be the one leaving: that ends the hand.
    return _write_score(game, events) if scored_now else (game, events)


def replay(
    variant: Variant, players: int, seed: int | str, commands: list[Command], draws: str = "one-shoe"
) -> GameState:
    """The game that `commands` make from this seed, drawn the `draws` way (refused commands are skipped, as they
    changed nothing)."""
    return sheet.replay(new_game(variant, players, seed, draws)[0], apply, commands)
