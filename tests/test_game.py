"""The 11-hand game: totals, winners and the tie rule, exact replay."""

from __future__ import annotations

from dataclasses import replace

import pytest

from partyrummy import game as engine
from partyrummy.commands import Call
from partyrummy.errors import GameOver
from partyrummy.hand import Phase

from .play import random_game


def test_a_whole_game_plays_eleven_hands_of_three_to_thirteen(party) -> None:
    sizes, last = [], None
    for game, _ in random_game(party, 4, seed=11):
        if game.hand.hand_no != last:
            last = game.hand.hand_no
            sizes.append(game.hand.size)
    assert sizes == list(range(3, 14))
    assert len(game.history) == 11
    assert game.totals == tuple(sum(h[s] for h in game.history) for s in range(4))
    assert game.winners == tuple(s for s in range(4) if game.totals[s] == min(game.totals))
    with pytest.raises(GameOver):
        engine.apply(game, Call())


def test_replay_is_exact_card_for_card(party) -> None:
    steps = list(random_game(party, 6, seed=5))
    commands = [c for _, c in steps if c is not None]
    assert engine.replay(party, 6, 5, commands) == steps[-1][0]
    # A different seed deals different cards.
    assert engine.new_game(party, 6, 6)[0].hand.hands != steps[0][0].hand.hands


def finished(party, totals_history):
    game, _ = engine.new_game(party, 3, 1)
    last = replace(game.hand, hand_no=party.hands, phase=Phase.SCORED)
    return replace(game, hand=last, history=totals_history)


def test_ties_share_the_win_or_give_no_winner(party) -> None:
    history = ((5, 5, 9),)
    shared, _ = engine.apply(finished(party, history), Call())
    assert shared.winners == (0, 1)
    strict = replace(party, ties="no-winner")
    nobody, _ = engine.apply(replace(finished(party, history), variant=strict), Call())
    assert nobody.winners == ()
    clear, _ = engine.apply(replace(finished(party, ((5, 4, 9),)), variant=strict), Call())
    assert clear.winners == (1,)


def test_fewer_hands_from_the_variant(party) -> None:
    quick = replace(party, hand_sizes=(3, 4, 5))
    *_, (game, _) = random_game(quick, 2, seed=2)
    assert len(game.history) == 3 and game.over
