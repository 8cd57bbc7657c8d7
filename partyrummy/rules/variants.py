"""Rule sets: `variants.toml` loaded into checked, frozen `Variant` records.

Every rule choice of RULES.md marked *(knob)* is a field of `Variant`. A
mistake in a file raises one `VariantError` whose message names the file,
the line, the variant, the key and what is wrong.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..resources import resource_path
from .cards import RANK_NAMES

__all__ = [
    "Variant", "MeldRules", "VariantError", "load_variants", "default_variants", "DEFAULT_VARIANT", "PACES", "DRAWS"
]

DEFAULT_VARIANT = "party"
_PENALTY_KEYS = RANK_NAMES[1:]  # "A", "2" … "K"


class VariantError(ValueError):
    """A variants file that cannot be played: one line per problem, each saying where and why."""

    def __init__(self, *problems: str) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)


@dataclass(frozen=True)
class MeldRules:
    """What the solver needs to know of a variant."""

    aces_high: bool
    all_wild_melds: bool
    penalties: tuple[int, ...]  # by rank 1..13; index 0 unused
    wild_penalty: int | None  # None: an orphaned round wild scores its face value
    joker_penalty: int
    high_ace_penalty: int


@dataclass(frozen=True)
class Variant:
    """One rule set; the comments in variants.toml say what each field does."""

    name: str
    description: str
    pacing: str
    min_players: int
    max_players: int
    decks: int | dict[str, int]  # a number, or by player count: {"2" = 1, "4" = 2} (up to 2 players, 1 deck …)
    jokers: int
    hand_sizes: tuple[int, ...]
    round_wilds: bool
    aces: str
    all_wild_melds: bool
    penalties: dict[str, int]
    wild_penalty: int | str
    joker_penalty: int
    high_ace_penalty: int
    ties: str
    setup_match: bool
    empty_shoe: str
    beat_s: float
    match_window_s: float
    hurry_after_s: float
    hurry_countdown_s: float
    choose_min_s: float
    flip_min_s: float
    next_hand_s: float
    table_beat_s: float
    table_match_window_s: float
    table_hurry_after_s: float
    table_hurry_countdown_s: float
    table_hurry_end: str
    table_gone: str
    table_gone_after_s: float
    paces: dict[str, float]
    hints: bool
    newcomers: str
    newcomer_score: str
    night_draws: str

    @property
    def hands(self) -> int:
        return len(self.hand_sizes)

    @property
    def turns(self) -> bool:
        """Turn-based play (one shared pile, one player at a time) rather than the caller's simultaneous cycles."""
        return self.pacing == "turns"

    def decks_for(self, players: int) -> int:
        """The decks in the shoe for this many players."""
        if isinstance(self.decks, int):
            return self.decks
        return next(d for most, d in sorted((int(k), d) for k, d in self.decks.items()) if players <= most)

    def wild_rank(self, hand_no: int) -> int | None:
        """The round wild of hand `hand_no` (1-based)."""
        return self.wild_for_size(self.hand_sizes[hand_no - 1])

    def wild_for_size(self, size: int) -> int | None:
        """The round wild of a hand of `size` cards: the rank equal to its size (none if the variant says so)."""
        return size if self.round_wilds else None

    def meld_rules(self) -> MeldRules:
        return MeldRules(
            aces_high=self.aces == "low-or-high",
            all_wild_melds=self.all_wild_melds,
            penalties=(0, *(self.penalties[k] for k in _PENALTY_KEYS)),
            wild_penalty=None if self.wild_penalty == "face" else int(self.wild_penalty),
            joker_penalty=self.joker_penalty,
            high_ace_penalty=self.high_ace_penalty,
        )

    def describe(self) -> dict[str, Any]:
        """The variant as plain data (for the lobby and the journal)."""
        return dataclasses.asdict(self)


# key -> (accepted types, allowed values or None)
_CHOICES: dict[str, tuple[str, ...]] = {
    "pacing": ("caller", "turns"),
    "aces": ("low", "low-or-high"),
    "ties": ("shared", "no-winner"),
    "empty_shoe": ("reshuffle-piles", "piles-only"),
    "newcomers": ("watch", "next-hand"),
    "newcomer_score": ("worst", "average", "zero"),
    "table_hurry_end": ("wait", "discard"),
    "table_gone": ("ready", "wait"),
    "night_draws": ("one-shoe", "own-order"),
}
# How a game draws from the shoe: one shared shoe, or a face-down stack per seat (phones/stacks.py). A game is
# dealt one of these; a night of several tables deals its tables of the same size by `night_draws`.
DRAWS = _CHOICES["night_draws"]
PACES = ("relaxed", "normal", "quick")  # the host's choice of pace during a night: each a factor of the times
_FIELDS = {f.name: f for f in dataclasses.fields(Variant) if f.name != "name"}


def _type_ok(key: str, value: Any) -> bool:
    want = _FIELDS[key].type
    if want == "bool":
        return isinstance(value, bool)
    if want == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if want == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if want == "str":
        return isinstance(value, str)
    if want == "int | dict[str, int]":
        return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, dict)
    if want == "int | str":
        return (isinstance(value, int) and not isinstance(value, bool)) or value == "face"
    if want == "tuple[int, ...]":
        return isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    if want in ("dict[str, int]", "dict[str, float]"):
        return isinstance(value, dict)
    raise AssertionError(f"no type check for {want}")  # a new field needs one here


_TYPE_WORDS = {
    "bool": "true or false",
    "int": "a whole number",
    "float": "a number of seconds",
    "str": "a text",
    "int | str": 'a whole number or "face"',
    "int | dict[str, int]": "a whole number, or a table of decks by player count ({ 2 = 1, 4 = 2 })",
    "tuple[int, ...]": "a list of whole numbers",
    "dict[str, int]": "a table of points by rank (A, 2 … K)",
    "dict[str, float]": "a table of factors by pace (relaxed, normal, quick)",
}


class _Where:
    """Finds the line of a key in the source text, and keeps every problem found, for messages people can act on."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()
        self.problems: list[str] = []
        self._at: list[int] = []  # each problem's line (0: none), to list them in the file's order

    def line_of(self, table: str, key: str | None = None) -> int | None:
        """The key's own line in [table]; the table's line when the key is not written there."""
        start = None
        for i, line in enumerate(self.lines):
            stripped = line.strip()
            if stripped.startswith("[") and stripped.strip("[] ").strip('"') == table:
                start = i
                if key is None:
                    return i + 1
            elif start is not None and stripped.startswith("["):
                break
            elif start is not None and key and stripped.split("=", 1)[0].strip().strip('"') == key:
                return i + 1
        return start + 1 if start is not None else None

    def written(self, table: str, key: str) -> bool:
        """Whether [table] writes `key` itself (rather than inheriting it)."""
        return self.line_of(table, key) != self.line_of(table)

    def add(self, table: str, key: str | None, problem: str, line: int | None = None) -> None:
        line = line or self.line_of(table, key)
        where = f"{self.path.name}, line {line}" if line else self.path.name
        what = f"variant '{table}'" + (f", key '{key}'" if key else "")
        self.problems.append(f"{where}: {what}: {problem}")
        self._at.append(line or 0)

    def in_order(self) -> list[str]:
        """Every problem, in the order of their lines in the file (those without a line last)."""
        ranked = sorted(zip(self._at, self.problems, strict=True), key=lambda pair: pair[0] or len(self.lines) + 1)
        return [problem for _, problem in ranked]


def _check(name: str, raw: dict[str, Any], where: _Where) -> Variant | None:
    """The variant these keys make, or None with every problem of it added to `where`."""
    before = len(where.problems)
    for key, value in raw.items():
        if key not in _FIELDS:
            where.add(name, key, f"unknown key (known keys: {', '.join(sorted(_FIELDS))})")
        elif not _type_ok(key, value):
            where.add(name, key, f"should be {_TYPE_WORDS[_FIELDS[key].type]}, not {value!r}")
        elif key in _CHOICES and value not in _CHOICES[key]:
            choices = " or ".join(f'"{c}"' for c in _CHOICES[key])
            where.add(name, key, f"should be {choices}, not {value!r}")
    missing = [key for key in _FIELDS if key not in raw]
    if missing:
        where.add(name, None, f'no value for {", ".join(missing)} (write them out, or extends = "party")')
    if len(where.problems) > before:
        return None
    values = dict(raw)
    values["hand_sizes"] = tuple(values["hand_sizes"])
    values["penalties"] = _check_penalties(name, values["penalties"], where)
    if isinstance(values["decks"], dict):
        values["decks"] = _check_deck_table(name, values["decks"], where)
    if len(where.problems) > before:
        return None
    variant = Variant(name=name, **values)
    _check_numbers(variant, where)
    return variant if len(where.problems) == before else None


def _check_penalties(name: str, table: dict[str, Any], where: _Where) -> dict[str, int]:
    points = {str(k).upper(): v for k, v in table.items()}
    for key, value in points.items():
        if key not in _PENALTY_KEYS:
            where.add(name, "penalties", f"{key!r} is not a rank (use A, 2 … 10, J, Q, K)")
        elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
            where.add(name, "penalties", f"points for {key} should be a whole number ≥ 0, not {value!r}")
    missing = [k for k in _PENALTY_KEYS if k not in points]
    if missing:
        where.add(name, "penalties", f"no points given for {', '.join(missing)}")
    return {k: points.get(k, 0) for k in _PENALTY_KEYS}


def _check_deck_table(name: str, table: dict[str, Any], where: _Where) -> dict[str, int]:
    """Decks by player count: each key is the most players that many decks serve."""
    out = {}
    for key, value in table.items():
        if not str(key).isdigit():
            where.add(name, "decks", f"{key!r} is not a number of players")
        elif not isinstance(value, int) or isinstance(value, bool):
            where.add(name, "decks", f"decks for up to {key} players should be a whole number, not {value!r}")
        else:
            out[str(int(key))] = value
    if not table:
        where.add(name, "decks", "the table is empty: give decks for some player count")
    return dict(sorted(out.items(), key=lambda kv: int(kv[0])))


def _check_numbers(v: Variant, where: _Where) -> None:
    def bad(key: str, problem: str) -> None:
        where.add(v.name, key, problem)

    if v.min_players < 2:
        bad("min_players", "a game needs at least 2 players")
    if v.max_players < v.min_players:
        bad("max_players", f"is below min_players ({v.min_players})")
    if v.jokers < 0:
        bad("jokers", "cannot be negative")
    if not v.hand_sizes:
        bad("hand_sizes", "a game needs at least one hand")
    for size in v.hand_sizes:
        if not 3 <= size <= 13:
            bad("hand_sizes", f"{size} cards: a hand deals 3 to 13 cards")
    for key in ("wild_penalty", "joker_penalty", "high_ace_penalty"):
        value = getattr(v, key)
        if isinstance(value, int) and value < 0:
            bad(key, "cannot be negative")
    for key in ("beat_s", "match_window_s", "hurry_after_s", "hurry_countdown_s", "choose_min_s", "flip_min_s",
                "next_hand_s", "table_beat_s", "table_match_window_s", "table_hurry_after_s",
                "table_hurry_countdown_s", "table_gone_after_s"):
        if getattr(v, key) < 0:
            bad(key, "cannot be negative")
    if sorted(v.paces) != sorted(PACES) or not all(
        isinstance(f, (int, float)) and not isinstance(f, bool) and f > 0 for f in v.paces.values()
    ):
        bad("paces", "should give a factor above 0 for each of relaxed, normal and quick")
    if v.min_players < 2 or v.max_players < v.min_players or not v.hand_sizes:
        return  # the shoe cannot be counted for a table that makes no sense
    if not isinstance(v.decks, int) and max(map(int, v.decks)) < v.max_players:
        return bad("decks", f"says nothing for {v.max_players} players (max_players)")
    if min(v.decks_for(p) for p in range(v.min_players, v.max_players + 1)) < 1:
        return bad("decks", "the shoe needs at least one deck")
    # Each player is dealt n cards, piles start with one card each (one in all, for turns),
    # and the first "Draw!" must find at least one card per player in the shoe.
    n = max(v.hand_sizes)
    for players in range(v.max_players, v.min_players - 1, -1):  # the most players first: the likeliest shortfall
        need = players * n + (2 if v.turns else 2 * players)
        have = v.decks_for(players) * 52 + v.jokers
        if need > have:
            decks = v.decks_for(players)
            held = f"{decks} deck" + ("s" if decks != 1 else "") + (f" and {v.jokers} jokers" if v.jokers else "")
            # Blamed on the key this table changed: decks, else the player count, the hand sizes or the jokers.
            changed = ("decks", "max_players", "hand_sizes", "jokers")
            key = next((k for k in changed if where.written(v.name, k)), "decks")
            return bad(
                key,
                f"{players} players with {n}-card hands need {need} cards "
                f"(hands, piles and a first draw), but {held} hold only {have}",
            )


def _toml_error(path: Path, text: str, error: tomllib.TOMLDecodeError) -> str:
    """A TOML syntax error with its line in front, like every other problem (3.11 gives it only in the text)."""
    message = str(error)
    found = re.search(r"\s*\(at line (\d+), column \d+\)$", message)
    if found:
        line = int(found.group(1))
        message = message[: found.start()]
    elif message.endswith("(at end of document)"):
        line = max(len(text.splitlines()), 1)
        message = message.removesuffix("(at end of document)").strip() + " at the end of the file"
    else:
        line = None
    return f"{path.name}" + (f", line {line}" if line else "") + f": not valid TOML: {message}"


def load_variants(path: Path | str | None = None, base: dict[str, Variant] | None = None) -> dict[str, Variant]:
    """Variants from a TOML file (the shipped one by default), layered over `base`.

    A variant with `extends = "NAME"` starts from NAME (in this file or in
    `base`) and changes only the keys it lists. A table named like a variant
    of `base` (`[party]`) changes that variant: only the keys it lists (so
    `extends = "party"` under `[party]` means the one in `base`). A file with
    mistakes raises one VariantError listing every problem, each with its line.
    """
    path = Path(path) if path is not None else resource_path("variants.toml")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise VariantError(f"{path}: cannot read the variants file ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise VariantError(f"{path}: not a text file (a variants file is TOML, in UTF-8)") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(_toml_error(path, text, exc)) from None
    where = _Where(path, text)
    raws: dict[str, dict[str, Any]] = {}
    for name, table in data.items():
        if isinstance(table, dict):
            raws[name] = table
        else:
            line = next((i + 1 for i, x in enumerate(where.lines) if x.split("=", 1)[0].strip() == name), None)
            where.add(name, None, "should be a [table] of one variant's keys", line)
    out = dict(base or {})
    for name in raws:
        resolved = _resolve(name, raws, out, where, ())
        variant = _check(name, resolved, where) if resolved is not None else None
        if variant is not None:
            out[name] = variant
    if where.problems:
        raise VariantError(*where.in_order())
    return out


def _resolve(
    name: str, raws: dict[str, dict[str, Any]], known: dict[str, Variant], where: _Where, seen: tuple[str, ...]
) -> dict[str, Any] | None:
    """The keys of variant `name` with what it extends filled in; None (and a problem added) if it cannot be."""
    raw = dict(raws[name])
    parent = raw.pop("extends", name if name in known else None)  # [party] alone changes the shipped party
    if parent is None:
        return raw
    if not isinstance(parent, str):
        where.add(name, "extends", "should be the name of another variant")
        return None
    if parent == name and name in known:  # the variant of this name from before this file
        inherited = {k: v for k, v in known[name].describe().items() if k != "name"}
    elif parent in seen or parent == name:
        where.add(name, "extends", f"variants extend each other in a circle ({' → '.join((*seen, name, parent))})")
        return None
    elif parent in raws:
        inherited = _resolve(parent, raws, known, where, (*seen, name))
        if inherited is None:
            return None
    elif parent in known:
        inherited = {k: v for k, v in known[parent].describe().items() if k != "name"}
    else:
        where.add(name, "extends", f"there is no variant named {parent!r}")
        return None
    inherited["hand_sizes"] = list(inherited["hand_sizes"])
    return inherited | raw


def default_variants() -> dict[str, Variant]:
    """The variants shipped in the package's variants.toml."""
    return load_variants()
