"""Solver speed: best_arrangement against the exhaustive reference on 2,000 seeded hands.

Hands come from a 4-deck shoe, sizes 3 to 14 cards, the wild rank by hand
size (a 14-card hand is hand 11 after its draw, so Kings are wild). Prints the
median and p99 time per hand of each, their ratio, and any disagreement.

    python bench/solver.py [--hands 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from partyrummy.rules.cards import make_shoe  # noqa: E402
from partyrummy.rules.melds import best_arrangement, party_rules  # noqa: E402
from tests.reference import reference_penalty  # noqa: E402


def seeded_hands(count: int, seed: int) -> list[tuple[list, int]]:
    rng = random.Random(seed)
    shoe = make_shoe(4)
    hands = []
    for i in range(count):
        size = 3 + i % 12
        hands.append((rng.sample(shoe, size), min(size, 13)))
    return hands


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = party_rules()
    hands = seeded_hands(args.hands, args.seed)
    fast, slow, disagreements = [], [], 0
    for cards, wild in hands:
        t0 = time.perf_counter()
        got = best_arrangement(cards, wild, rules).penalty
        t1 = time.perf_counter()
        want = reference_penalty(cards, wild, rules)
        t2 = time.perf_counter()
        fast.append(t1 - t0)
        slow.append(t2 - t1)
        disagreements += got != want
    us = 1e6
    f50, f99 = statistics.median(fast) * us, percentile(fast, 0.99) * us
    s50, s99 = statistics.median(slow) * us, percentile(slow, 0.99) * us
    print(f"hands: {len(hands)} (sizes 3-14, 4-deck shoe, seed {args.seed})")
    print(f"best_arrangement   median {f50:8.1f} us   p99 {f99:8.1f} us   (target: median < 50, p99 < 300)")
    print(f"exhaustive ref     median {s50:8.1f} us   p99 {s99:8.1f} us")
    print(f"speed-up           median {s50 / f50:8.1f} x    p99 {s99 / f99:8.1f} x   (target: >= 10x)")
    print(
        f"total time         fast {sum(fast):.3f} s   reference {sum(slow):.3f} s   ratio {sum(slow) / sum(fast):.1f} x"
    )
    print(f"disagreements: {disagreements}")
    sys.exit(1 if disagreements else 0)


if __name__ == "__main__":
    main()
