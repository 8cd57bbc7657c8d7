"""Engine speed: whole 12-player games played by random legal commands (no views), and with views.

python bench/game.py [--games 5] [--players 12]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partyrummy.phones import game as engine  # noqa: E402
from partyrummy.phones.views import view_for, view_for_host  # noqa: E402
from partyrummy.rules.variants import default_variants  # noqa: E402
from tests.play import random_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=12)
    args = parser.parse_args()
    party = default_variants()["party"]
    plain, engine_only, steps = [], [], []
    for seed in range(args.games):
        t0 = time.perf_counter()
        commands = [c for _, c in random_game(party, args.players, seed) if c is not None]
        plain.append(time.perf_counter() - t0)
        steps.append(len(commands))
        # The same game again, engine only: replaying its commands from its seed.
        t0 = time.perf_counter()
        engine.replay(party, args.players, seed, commands)
        engine_only.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    views = 0
    for game, _ in random_game(party, args.players, 0):
        view_for_host(game)
        for seat in range(game.players):
            view_for(game, seat)
            views += 1
    with_views = time.perf_counter() - t0
    print(f"{args.players}-player games by random legal commands: {args.games}")
    print(
        f"  engine per game: median {statistics.median(engine_only) * 1000:.0f} ms, "
        f"max {max(engine_only) * 1000:.0f} ms ({statistics.median(steps):.0f} commands; target: well under 1 s)"
    )
    print(
        f"  with the random player choosing among all legal commands: median {statistics.median(plain) * 1000:.0f} ms"
    )
    print(
        f"  one game with every seat's view after every command: {with_views * 1000:.0f} ms "
        f"({views} views, {with_views / views * 1e6:.0f} us a view)"
    )


if __name__ == "__main__":
    main()
