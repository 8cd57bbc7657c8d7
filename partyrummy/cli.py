"""The `partyrummy` command: run the party (the default), or solve a hand of real cards."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .cards import RANK_NAMES, CardParseError, parse_cards
from .melds import best_arrangement
from .variants import DEFAULT_VARIANT, Variant, VariantError, default_variants, load_variants

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="partyrummy", description="Three-Thirteen rummy for a room full of people.")
    parser.add_argument("--variants", metavar="PATH", help="a variants.toml of your own, layered over the shipped one")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all interfaces)")
    parser.add_argument("--port", type=int, default=5000, help="port to listen on (default: 5000)")
    parser.add_argument("--public-url", metavar="URL", help="the address phones use, when the LAN address is not it")
    parser.add_argument("--open", action="store_true", help="open the TV page in the default browser")
    parser.add_argument("--event-rate", type=float, help=argparse.SUPPRESS)  # for load and fuzz tests
    parser.add_argument("--data", metavar="PATH", help="the SQLite file rooms are kept in (default: your data folder)")
    parser.add_argument(
        "--seed", type=int, help="deal every room's games from this seed (to replay a game, or for tests)"
    )
    commands = parser.add_subparsers(dest="command")
    solve = commands.add_parser("solve", help="the best arrangement of a hand of real cards")
    solve.add_argument("cards", nargs="+", help="cards as people write them: 5H 6H 7H KS KD KC")
    solve.add_argument(
        "--hand-size", type=int, help="the hand being played (sets the wild rank); default: the number of cards"
    )
    solve.add_argument("--wild", help="the wild rank, if not the hand size's (A, 2 … K, or 'none')")
    solve.add_argument("--variant", default=DEFAULT_VARIANT, help=f"rule set (default: {DEFAULT_VARIANT})")
    solve.add_argument("--json", action="store_true", help="print JSON for programs")
    return parser


def _variants(path: str | None) -> dict[str, Variant]:
    shipped = default_variants()
    return load_variants(path, base=shipped) if path else shipped


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        variants = _variants(args.variants)
        if args.command == "solve":
            return _solve(args, variants)
        from .web.server import serve  # the web layer loads only when serving

        return serve(args, variants)
    except (VariantError, CardParseError) as error:
        print(f"partyrummy: {error}", file=sys.stderr)
        return 2


def _solve(args: argparse.Namespace, variants: dict[str, Variant]) -> int:
    if args.variant not in variants:
        raise VariantError(f"there is no variant named {args.variant!r} (known: {', '.join(sorted(variants))})")
    variant = variants[args.variant]
    cards = parse_cards(" ".join(args.cards))
    size = args.hand_size or min(len(cards), 13)
    wild = variant.wild_for_size(size)
    if args.wild is not None:
        wild = None if args.wild.lower() == "none" else RANK_NAMES.index(args.wild.upper())
    result = best_arrangement(cards, wild, variant.meld_rules())
    if args.json:
        print(
            json.dumps(
                {
                    "penalty": result.penalty,
                    "melds": [[str(c) for c in meld] for meld in result.melds],
                    "orphans": [str(c) for c in result.orphans],
                    "wild_rank": RANK_NAMES[wild] if wild else None,
                }
            )
        )
        return 0
    wild_text = f"{RANK_NAMES[wild]}s are wild" if wild else "no round wild"
    print(f"{len(cards)} cards, {wild_text}")
    for meld in result.melds:
        print("  meld:   " + " ".join(c.symbol for c in meld))
    if result.orphans:
        print("  orphans: " + " ".join(c.symbol for c in result.orphans))
    print(f"penalty: {result.penalty}")
    return 0
