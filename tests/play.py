"""Random legal play, shared by the engine's tests; a test's own rule sets, and the seed that deals what it wants."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable
from pathlib import Path

from partyrummy.phones import game as engine
from partyrummy.phones.commands import AutoPlay, Call, CallMatch, Command
from partyrummy.phones.game import GameState
from partyrummy.phones.hand import HandState
from partyrummy.phones.legal import legal_commands
from partyrummy.rules.melds import best_arrangement
from partyrummy.rules.variants import Variant, default_variants, load_variants


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


def random_game(variant, players: int, seed: int, rng_seed: int | None = None, draws: str = "one-shoe"):
    """Play a whole game by random legal commands; yield (game, command) after each step."""
    rng = random.Random(seed if rng_seed is None else rng_seed)
    game, _ = engine.new_game(variant, players, seed, draws)
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


def variants_of(toml: str) -> dict[str, Variant]:
    """A test's own rule sets (a variants file's text), over the shipped ones."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "variants.toml"
        path.write_text(toml)
        return load_variants(path, base=default_variants())


def seed_where(variant: Variant, players: int, good: Callable[[HandState], bool]) -> int:
    """The first seed whose deal (hand 1, before the first "Draw!") satisfies `good(hand)`."""
    for seed in range(5000):
        game, _ = engine.new_game(variant, players, seed)
        if good(game.hand):
            return seed
    raise AssertionError("no such deal")


def penalty(variant: Variant, hand: HandState, seat: int) -> int:
    """The least penalty of a seat's cards in a hand."""
    return best_arrangement(hand.cards_of(hand.hands[seat]), hand.wild_rank, variant.meld_rules()).penalty
