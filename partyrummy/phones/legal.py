"""Every command the engine would accept right now: for random play, fuzzing and bots.

Candidates are tried on the engine itself, so the rules stay in one place
(hand.py); only AutoPlay is judged here, because trying it means solving the
hand for its best discard.
"""

from __future__ import annotations

from ..rules.errors import RummyError
from . import game as engine
from .commands import SOURCES, AutoPlay, Call, CallMatch, Choose, Command, Draw, Ready
from .game import GameState

__all__ = ["legal_commands"]


def _accepted(game: GameState, command: Command) -> bool:
    try:
        engine.apply(game, command)
    except RummyError:
        return False
    return True


def legal_commands(game: GameState) -> list[Command]:
    """The commands `game.apply` accepts in this state (each one, by itself)."""
    if game.over:
        return []
    hand = game.hand
    commands: list[Command] = [Call()] if _accepted(game, Call()) else []
    for seat in range(hand.players):
        draws = [Draw(seat, source) for source in SOURCES if _accepted(game, Draw(seat, source))]
        chooses = [Choose(seat, card) for card in hand.hands[seat]]
        if not chooses or not _accepted(game, chooses[0]):
            chooses = []  # one card held is as good as any other: the phase and seat decide
        commands += draws + chooses
        if _accepted(game, CallMatch(seat)):
            commands.append(CallMatch(seat))
        ready = Ready(seat, seat not in hand.going_on)  # in a Match! window: go on, or take it back
        if _accepted(game, ready):
            commands.append(ready)
        # AutoPlay draws (shoe, else pile) if need be, then picks: legal for a slow seat that can do both.
        if seat in hand.slow_seats() and (draws or hand.drawn[seat] is not None):
            commands.append(AutoPlay(seat))
    return commands
