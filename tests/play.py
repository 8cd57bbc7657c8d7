"""Random legal play, shared by the engine's tests."""

from __future__ import annotations

import random

from partyrummy.phones import game as engine
from partyrummy.phones.commands import AutoPlay, Call, CallMatch, Command
from partyrummy.phones.game import GameState
from partyrummy.phones.legal import legal_commands


def random_command(game: GameState, rng: random.Random) -> Command:
    """A random legal command, leaning towards moving the game on so it ends."""
    commands = legal_commands(game)
    calls = [c for c in commands if isinstance(c, (Call, CallMatch))]
    if calls and rng.random() < 0.5:
        return rng.choice(calls)
    nudges = [c for c in commands if isinstance(c, AutoPlay)]
    if nudges and rng.random() < 0.3:
        return rng.choice(nudges)
    return rng.choice(commands)


def random_game(variant, players: int, seed: int, rng_seed: int | None = None):
    """Play a whole game by random legal commands; yield (game, command) after each step."""
    rng = random.Random(seed if rng_seed is None else rng_seed)
    game, _ = engine.new_game(variant, players, seed)
    yield game, None
    while not game.over:
        command = random_command(game, rng)
        game, _ = engine.apply(game, command)
        yield game, command


def card_ids(value) -> set[int]:
    """Every card id anywhere in a view (cards are dicts with an 'id' and a 'card')."""
    found: set[int] = set()
    if isinstance(value, dict):
        if "id" in value and "card" in value:
            found.add(value["id"])
        for item in value.values():
            found |= card_ids(item)
    elif isinstance(value, list):
        for item in value:
            found |= card_ids(item)
    return found
