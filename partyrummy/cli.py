"""The `partyrummy` command: run the party (the default), list or check variants, solve a hand, simulate bots,
or send bots to a room.

Every mistake on the command line gets one line on stderr naming the option and what it allows, and a
non-zero exit; never a traceback.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import NoReturn
from urllib.parse import urlsplit

from .phones.bots import STRENGTHS
from .rules.cards import RANK_NAMES, CardParseError, parse_cards
from .rules.melds import best_arrangement
from .rules.variants import DEFAULT_VARIANT, Variant, VariantError, default_variants, load_variants

__all__ = ["main", "plural"]

PROG = "partyrummy"


def plural(count: int, word: str) -> str:
    """`1 card`, `2 cards`: the host's terminal speaks English."""
    return f"{count} {word}{'' if count == 1 else 's'}"


class _Parser(argparse.ArgumentParser):
    """argparse, with its mistakes told in one line (its default is the whole usage, then the error)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{PROG}: {message} (see {self.prog} --help)\n")


def _ranged(low: int, high: int) -> Callable[[str], int]:
    """A whole number from `low` to `high` (argparse names the option in front of the message)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"give a whole number from {low} to {high}, not {text!r}")
        return value

    return parse


def http_url(text: str) -> str:
    """An http:// or https:// address with a host (and maybe a port): what phones or bots can open."""
    example = "an address such as http://192.168.1.20:3313"
    try:
        parts = urlsplit(text.strip())
        _ = parts.port  # raises ValueError when the port is not a number in range
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} has a bad port; give {example}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise argparse.ArgumentTypeError(f"{text!r} is not {example} (http:// or https://, then a host)")
    if parts.path.strip("/") or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(f"{text!r} has a path; give only {example}")
    return f"{parts.scheme}://{parts.netloc}"


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Three-Thirteen rummy for a room full of people.")
    parser.add_argument(
        "--variants", metavar="PATH", help="a variants file of your own: new variants, or changes to shipped ones"
    )
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all interfaces)")
    parser.add_argument(
        "--port",
        type=_ranged(1, 65535),
        help="port to listen on (default: 3313, or the next free one)",
    )
    parser.add_argument(
        "--public-url", metavar="URL", type=http_url, help="the address phones use, when the LAN address is not it"
    )
    parser.add_argument("--open", action="store_true", help="open the TV page in the default browser")
    parser.add_argument("--event-rate", type=float, help=argparse.SUPPRESS)  # for load and fuzz tests
    # Greenlets hold a room of 12 for a fraction of what threads do (bench/RESULTS.md); threads stay, for comparing.
    parser.add_argument("--async-mode", choices=("gevent", "threading"), default="gevent", help=argparse.SUPPRESS)
    # Connections the server holds in all, every bound on them scaled to it: for load tests from this machine.
    parser.add_argument("--capacity", type=_ranged(1, 100_000), help=argparse.SUPPRESS)
    parser.add_argument("--data", metavar="PATH", help="the SQLite file rooms are kept in (default: your data folder)")
    parser.add_argument(
        "--new-tv-key",
        action="store_true",
        help="make a new TV key (kept in the --data file): TV addresses given out before stop working",
    )
    parser.add_argument(
        "--seed", type=int, help="deal every room's games from this seed (to replay a game, or for tests)"
    )
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)
    listing = commands.add_parser("variants", help="the rule sets the server offers, or check a file of your own")
    listing.add_argument("--check", metavar="PATH", help="check this variants file and exit non-zero on a mistake")
    solve = commands.add_parser("solve", help="the best arrangement of a hand of real cards")
    solve.add_argument("cards", nargs="+", help="cards as people write them: 5H 6H 7H KS KD KC")
    solve.add_argument(
        "--hand-size",
        type=_ranged(3, 13),
        help="the hand being played, 3 to 13 (sets the wild rank); default: the number of cards",
    )
    solve.add_argument("--wild", help="the wild rank, if not the hand size's (A, 2 … 10, J, Q, K, or 'none')")
    solve.add_argument("--variant", default=DEFAULT_VARIANT, help=f"rule set (default: {DEFAULT_VARIANT})")
    solve.add_argument("--json", action="store_true", help="print JSON for programs")
    sim = commands.add_parser("simulate", help="whole games of bots on the engine, and how each strength did")
    sim.add_argument("--players", type=int, default=12)
    sim.add_argument("--games", type=_ranged(1, 1_000_000), default=100)
    sim.add_argument("--seed", type=int, default=1, help="game g is dealt from seed + g")
    sim.add_argument("--strengths", default="easy,sharp", help="by seat, repeated round the table: easy,sharp")
    sim.add_argument("--variant", default=DEFAULT_VARIANT, help=f"rule set (default: {DEFAULT_VARIANT})")
    bots = commands.add_parser("bots", help="bots that join a room over the network, as phones do")
    bots.add_argument("--url", required=True, type=http_url, help="the server, e.g. http://192.168.1.20:3313")
    bots.add_argument("--room", required=True, help="the room code on the TV")
    bots.add_argument("--count", type=_ranged(1, 12), default=11)
    bots.add_argument("--strength", choices=STRENGTHS, default="sharp")
    bots.add_argument("--name", default="Bot", help="the bots are NAME 1, NAME 2 … (default: Bot)")
    bots.add_argument("--start", action="store_true", help="start the game once seated (in an empty lobby)")
    return parser


def _variants(path: str | None) -> dict[str, Variant]:
    shipped = default_variants()
    return load_variants(path, base=shipped) if path else shipped


def _fail(message: str, code: int = 2) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = _parser().parse_args(argv)
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
        from .server.serve import serve  # the web layer loads only when serving

        return serve(args, variants)
    except (VariantError, CardParseError) as error:
        for line in str(error).splitlines():
            print(f"{PROG}: {line}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130  # Ctrl+C before the server or the bots were running: nothing to say


def _list_variants(args: argparse.Namespace, variants: dict[str, Variant]) -> int:
    if args.check:
        mine = load_variants(args.check, base=variants)  # every mistake raises at once, and main prints them
        names = [n for n in mine if n not in variants or mine[n] != variants[n]]
        print(f"{args.check}: fine ({plural(len(names), 'variant')}: {', '.join(names) or 'none changed'})")
        variants = mine
    width = max(map(len, variants))
    for name, v in variants.items():
        players = f"{v.min_players}-{v.max_players} players"
        print(f"{name:<{width}}  {'turns ' if v.turns else 'caller'}  {players:<13}  {v.description}")
    return 0


def _variant(name: str, variants: dict[str, Variant]) -> Variant:
    if name not in variants:
        raise VariantError(f"--variant: there is no variant named {name!r} (known: {', '.join(sorted(variants))})")
    return variants[name]


def _simulate(args: argparse.Namespace, variants: dict[str, Variant]) -> int:
    from .phones.simulate import simulate

    variant = _variant(args.variant, variants)
    strengths = [s.strip() for s in args.strengths.split(",") if s.strip()]
    unknown = [s for s in strengths if s not in STRENGTHS]
    if unknown or not strengths:
        return _fail(f"--strengths: each is one of {', '.join(STRENGTHS)}, not {','.join(unknown) or 'nothing'}")
    if not variant.min_players <= args.players <= variant.max_players:
        seats = f"{variant.min_players} to {variant.max_players}"
        return _fail(f"--players: {args.variant} seats {seats}, not {args.players}")
    print(simulate(variant, args.players, args.games, args.seed, strengths).table())
    return 0


def _bots(args: argparse.Namespace, variants: dict[str, Variant]) -> int:
    from .client.remote_bots import BotsError, close_all, play, seat_bots

    narrator = Narrator()
    room = args.room.strip().upper()
    stop = threading.Event()
    # SIGTERM (a service manager, `kill`) stops the bots as Ctrl+C does: the main thread hears it while it waits.
    signal.signal(signal.SIGTERM, _terminated)
    bots = []
    try:
        bots = seat_bots(args.url, room, args.count, args.strength, variants, start=args.start, name=args.name)
        waiting = "the game has started" if args.start else "start the game from the TV"
        print(f"{plural(len(bots), 'bot')} seated in room {room} ({bots[0].name} …); {waiting}.", flush=True)
        play(bots, watch=narrator.see, stop=stop)
    except BotsError as error:
        return _fail(str(error), 1)
    except (KeyboardInterrupt, _Terminated) as interrupt:
        stop.set()
        close_all(bots)
        print("\nStopped: the bots leave the room.", flush=True)
        return 0 if isinstance(interrupt, _Terminated) else 130
    close_all(bots)
    print(f"The host took back every bot's seat ({_reasons(bots)}): the bots leave the room.", flush=True)
    return 0


class _Terminated(Exception):
    """SIGTERM arrived: stop as on Ctrl+C, and say so."""


def _terminated(signum: int, frame: object) -> NoReturn:
    raise _Terminated


def _reasons(bots: list) -> str:
    """How the bots lost their seats, as the server said it (released, removed …), each once."""
    return ", ".join(dict.fromkeys(bot.left or "stopped" for bot in bots))


class Narrator:
    """What `bots` prints while it plays: one line per scored hand, then each game's final totals."""

    def __init__(self) -> None:
        self.told = 0  # hands told so far, this game
        self.summed = False  # this game's final totals are told

    def see(self, state: dict | None) -> None:
        """Called with the first seated bot's newest state, from its thread."""
        game = state and state.get("game")
        if not game:
            self.told, self.summed = 0, False  # back in the lobby: the next game is told from its first hand
            return
        names = [seat["name"] for seat in state["room"]["seats"]]
        history = game["history"]
        if len(history) < self.told or (self.summed and not game["game_over"]):  # "Play again": count again
            self.told, self.summed = 0, False
        while self.told < len(history):
            hand_no = self.told + 1
            matched = [names[m["seat"]] for m in game["matched"]] if game["hand_no"] == hand_no else None
            print(self._line(hand_no, history[self.told], names, matched), flush=True)
            self.told += 1
        if game["game_over"] and not self.summed:
            self.summed = True
            self.summary(state)

    @staticmethod
    def _line(hand_no: int, points: list[int | None], names: list[str], matched: list[str] | None) -> str:
        went_out = ", ".join(matched) + " matched" if matched else "nobody matched" if matched is not None else ""
        scores = ", ".join(f"{name} {p}" for name, p in zip(names, points, strict=False) if p is not None)
        return f"Hand {hand_no}: " + (f"{went_out}; " if went_out else "") + scores

    @staticmethod
    def summary(state: dict) -> None:
        """A game's final totals, the lowest first, and who won; then that the bots stay for the next."""
        game = state["game"]
        names = [s["name"] for s in state["room"]["seats"]]
        print("Final totals:")
        for seat in sorted(range(len(game["totals"])), key=lambda s: game["totals"][s]):
            print(f"  {names[seat]:<20} {game['totals'][seat]:>5}{'  winner' if seat in game['winners'] else ''}")
        print("The bots stay for the next game (Ctrl+C takes them away).", flush=True)


def _solve(args: argparse.Namespace, variants: dict[str, Variant]) -> int:
    variant = _variant(args.variant, variants)
    cards = parse_cards(" ".join(args.cards))
    size = args.hand_size or min(max(len(cards), 3), 13)
    if len(cards) > 14:
        return _fail(f"cards: a hand holds at most 14 (13 and a draw), not {len(cards)}")
    wild = variant.wild_for_size(size)
    if args.wild is not None:
        if args.wild.lower() == "none":
            wild = None
        elif args.wild.upper() in RANK_NAMES[1:]:
            wild = RANK_NAMES.index(args.wild.upper())
        else:
            return _fail(f"--wild: a rank (A, 2 … 10, J, Q, K) or none, not {args.wild!r}")
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
    print(f"{plural(len(cards), 'card')}, {wild_text}")
    for meld in result.melds:
        print("  meld:   " + " ".join(c.symbol for c in meld))
    if result.orphans:
        print("  orphans: " + " ".join(c.symbol for c in result.orphans))
    print(f"penalty: {plural(result.penalty, 'point')}")
    return 0
