"""The `partyrummy` command: run the party (the default), list or check variants, solve a hand, simulate bots,
or send bots to a room."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from .bots import STRENGTHS
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
    # gevent (pip install gevent) instead of threads; compared by bench/scale.py, not the default.
    parser.add_argument("--async-mode", choices=("threading", "gevent"), default="threading", help=argparse.SUPPRESS)
    parser.add_argument("--data", metavar="PATH", help="the SQLite file rooms are kept in (default: your data folder)")
    parser.add_argument(
        "--seed", type=int, help="deal every room's games from this seed (to replay a game, or for tests)"
    )
    commands = parser.add_subparsers(dest="command")
    listing = commands.add_parser("variants", help="the rule sets the server offers, or check a file of your own")
    listing.add_argument("--check", metavar="PATH", help="check this variants file and exit non-zero on a mistake")
    solve = commands.add_parser("solve", help="the best arrangement of a hand of real cards")
    solve.add_argument("cards", nargs="+", help="cards as people write them: 5H 6H 7H KS KD KC")
    solve.add_argument(
        "--hand-size", type=int, help="the hand being played (sets the wild rank); default: the number of cards"
    )
    solve.add_argument("--wild", help="the wild rank, if not the hand size's (A, 2 … K, or 'none')")
    solve.add_argument("--variant", default=DEFAULT_VARIANT, help=f"rule set (default: {DEFAULT_VARIANT})")
    solve.add_argument("--json", action="store_true", help="print JSON for programs")
    sim = commands.add_parser("simulate", help="whole games of bots on the engine, and how each strength did")
    sim.add_argument("--players", type=int, default=12)
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1, help="game g is dealt from seed + g")
    sim.add_argument("--strengths", default="easy,sharp", help="by seat, repeated round the table: easy,sharp")
    sim.add_argument("--variant", default=DEFAULT_VARIANT, help=f"rule set (default: {DEFAULT_VARIANT})")
    bots = commands.add_parser("bots", help="bots that join a room over the network, as phones do")
    bots.add_argument("--url", required=True, help="the server, e.g. http://192.168.1.20:5000")
    bots.add_argument("--room", required=True, help="the room code on the TV")
    bots.add_argument("--count", type=int, default=11)
    bots.add_argument("--strength", choices=STRENGTHS, default="sharp")
    bots.add_argument("--start", action="store_true", help="start the game once seated (in an empty lobby)")
    return parser


def _variants(path: str | None) -> dict[str, Variant]:
    shipped = default_variants()
    return load_variants(path, base=shipped) if path else shipped


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        variants = _variants(args.variants)
        if args.command == "variants":
            return _list_variants(args, variants)
        if args.command == "solve":
            return _solve(args, variants)
        if args.command == "simulate":
            return _simulate(args, variants)
        if args.command == "bots":
            return _bots(args, variants)
        if args.async_mode == "gevent":
            from gevent import monkey  # before the web layer creates any thread, lock or socket

            monkey.patch_all()
        from .web.server import serve  # the web layer loads only when serving

        return serve(args, variants)
    except (VariantError, CardParseError) as error:
        print(f"partyrummy: {error}", file=sys.stderr)
        return 2


def _list_variants(args: argparse.Namespace, variants: dict[str, Variant]) -> int:
    if args.check:
        mine = load_variants(args.check, base=variants)  # a mistake raises, and main prints it
        names = [n for n in mine if n not in variants or mine[n] != variants[n]]
        print(f"{args.check}: fine ({len(names)} variant{'s' if len(names) != 1 else ''}: {', '.join(names)})")
        variants = mine
    width = max(map(len, variants))
    for name, v in variants.items():
        players = f"{v.min_players}-{v.max_players} players"
        print(f"{name:<{width}}  {'turns ' if v.turns else 'caller'}  {players:<13}  {v.description}")
    return 0


def _variant(name: str, variants: dict[str, Variant]) -> Variant:
    if name not in variants:
        raise VariantError(f"there is no variant named {name!r} (known: {', '.join(sorted(variants))})")
    return variants[name]


def _simulate(args: argparse.Namespace, variants: dict[str, Variant]) -> int:
    from .simulate import simulate

    variant = _variant(args.variant, variants)
    strengths = [s.strip() for s in args.strengths.split(",") if s.strip()]
    unknown = [s for s in strengths if s not in STRENGTHS]
    if unknown or not strengths:
        print(
            f"partyrummy: strengths are {', '.join(STRENGTHS)}, not {','.join(unknown) or 'nothing'}", file=sys.stderr
        )
        return 2
    if not variant.min_players <= args.players <= variant.max_players or args.games < 1:
        print(f"partyrummy: {args.variant} seats {variant.min_players} to {variant.max_players}", file=sys.stderr)
        return 2
    print(simulate(variant, args.players, args.games, args.seed, strengths).table())
    return 0


def _bots(args: argparse.Namespace, variants: dict[str, Variant]) -> int:
    from .web.remote_bots import run_bots

    bots = run_bots(args.url.rstrip("/"), args.room.upper(), args.count, args.strength, variants, start=args.start)
    state = bots[0].state
    game = state and state["game"]
    if game and game["game_over"]:
        names = [s["name"] for s in state["room"]["seats"]]
        for seat in sorted(range(len(game["totals"])), key=lambda s: game["totals"][s]):
            print(f"{names[seat]:<20} {game['totals'][seat]:>5}{'  winner' if seat in game['winners'] else ''}")
    for bot in bots:
        bot.close()
    return 0


def _solve(args: argparse.Namespace, variants: dict[str, Variant]) -> int:
    variant = _variant(args.variant, variants)
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
