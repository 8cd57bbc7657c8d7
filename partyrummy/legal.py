"""Every command the engine would accept right now: for random play, fuzzing and bots."""

from __future__ import annotations

from .commands import AutoPlay, Call, CallMatch, Choose, Command, Draw
from .game import GameState
from .hand import Phase, right_of
from .melds import is_complete

__all__ = ["legal_commands"]


def legal_commands(game: GameState) -> list[Command]:
    """The commands `game.apply` accepts in this state (each one, by itself)."""
    if game.over:
        return []
    hand = game.hand
    phase = hand.phase
    if phase is Phase.SCORED:
        return [Call()]
    commands: list[Command] = []
    seats = [s for s in range(hand.players) if hand.active(s)]
    if phase in (Phase.DRAW, Phase.LAST_DRAW):
        can_refill = hand.variant.empty_shoe == "reshuffle-piles" and any(len(p) > 1 for p in hand.piles)
        for seat in seats:
            if hand.drawn[seat] is None:
                draws = [Draw(seat, "shoe")] if hand.shoe or can_refill else []
                if hand.piles[right_of(seat, hand.players)]:
                    draws.append(Draw(seat, "pile"))
                commands.extend(draws + [AutoPlay(seat)] if draws else [])
            else:
                commands.extend(Choose(seat, card) for card in hand.hands[seat])
                if hand.picks[seat] is None:
                    commands.append(AutoPlay(seat))
    elif phase in (Phase.CHOOSE, Phase.LAST_CHOOSE):
        for seat in seats:
            commands.extend(Choose(seat, card) for card in hand.hands[seat])
            if hand.picks[seat] is None:
                commands.append(AutoPlay(seat))
        if not hand.waiting_for():
            commands.append(Call())
    elif phase in (Phase.SETUP, Phase.REVEAL):
        rules = hand.variant.meld_rules()
        if phase is Phase.REVEAL or hand.variant.setup_match:
            for seat in seats:
                if is_complete(hand.cards_of(hand.hands[seat]), hand.wild_rank, rules):
                    commands.append(CallMatch(seat))
        commands.append(Call())
    return commands
