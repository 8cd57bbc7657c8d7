"""A room: the seats, the game, the caller's pacing, and who is watching, under one lock.

The room translates: a validated command from a known seat goes to the
engine; after every change each viewer gets its own view. It never emits by
itself: `send(sid, event, payload)` is injected, and time comes in as `now`.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from .. import game as engine
from ..bots import STRENGTHS, Bot, bot_move
from ..commands import (
    Arrive,
    AutoPlay,
    Call,
    Choose,
    Command,
    Draw,
    GameEnded,
    Leave,
    command_from_dict,
    command_to_dict,
)
from ..errors import OutOfPhase, RummyError
from ..game import GameState
from ..hand import ACTING, MATCH_WINDOWS, Phase
from ..i18n import DEFAULT_LANGUAGE, Catalogs, default_catalogs
from ..variants import Variant, default_variants
from ..views import table_view, view_for, view_for_host

__all__ = ["Room", "Seat", "Viewer", "Refused", "COLOURS", "RECONNECT_GRACE_S", "TICKET_S"]

# A phone that locks or roams drops its socket; Socket.IO's pings notice within about 25 s and the
# phone's client retries within seconds of waking. Until this long it is "reconnecting", then "gone".
RECONNECT_GRACE_S = 60
# Players' own moves (a draw, a pick) reach the others batched, at most this long after the first of
# them: twelve phones picking within a moment get one or two updates, not twelve each. The caller's calls
# (the table moving on) and everything else go out at once.
BATCH_S = 0.05
# A rejoin QR shown on the TV works once, for this long: it is a seat's key on a screen the room can see.
TICKET_S = 600

# Seat colours; the TV also prints each name, so colour is never the only signal.
COLOURS = (  # each >= 3:1 on the table's greens; ordered so small tables get the most distinct hues first
    "#ffab40",
    "#82b1ff",
    "#ffffff",
    "#ea80fc",
    "#c6ff00",
    "#ff8a80",
    "#84ffff",
    "#d7ccc8",
    "#ffd23f",
    "#b388ff",
    "#b9f6ca",
    "#ff80ab",
)


@cache
def _shipped() -> dict[str, str]:
    """Each shipped variant's description. A variant that still has its own is shipped: pages show it translated."""
    return {name: variant.description for name, variant in default_variants().items()}


class Refused(RummyError):
    """A room-level refusal (not the host, name taken, game started…)."""

    code = "refused"


@dataclass
class Seat:
    name: str
    token: str | None  # None: no phone holds it (a bot's seat, or open for a newcomer)
    colour: str
    joined: int  # join order: the earliest still seated is the VIP
    sids: set[str] = field(default_factory=set)
    gone_since: float | None = None
    robot: Bot | None = field(default=None, compare=False)  # set: a bot of that strength plays the seat

    @property
    def open(self) -> bool:
        """Released and not yet taken: the caller plays it so the table is never held up."""
        return self.token is None and self.robot is None


@dataclass(frozen=True)
class Viewer:
    role: str  # "host", "player" or "guest" (not seated: may join or watch)
    token: str | None = None
    lang: str = DEFAULT_LANGUAGE  # the language this connection reads: its refusals and notices come in it


@dataclass
class _Pace:
    """The caller's clock for the current phase (monotonic seconds)."""

    key: tuple = ()
    since: float = 0.0  # when this phase began
    cycle_since: float = 0.0  # when "Draw!" was called this cycle
    all_acted_at: float | None = None


class Room:
    def __init__(
        self,
        code: str,
        variants: dict[str, Variant],
        variant: str,
        send: Callable[[str, str, dict], None],
        clock: Callable[[], float] = time.monotonic,
        seed: int | None = None,
        record: Callable[[str, dict], None] = lambda code, event: None,
        catalogs: Catalogs | None = None,
    ) -> None:
        self.catalogs = catalogs or default_catalogs()
        self.record = record  # the journal: called with each change before it is made
        self.seed = seed  # when set, game k of the night is dealt from seed + k
        self.code = code
        self.variants = variants
        # The lobby's rule sets, the same in every view; a shipped one's words come from the catalogs.
        self.variant_menu = [
            {"name": n, "description": v.description, "pacing": v.pacing, "shipped": _shipped().get(n) == v.description}
            for n, v in variants.items()
        ]
        self.variant_name = variant
        self.send = send
        self.clock = clock
        self.lock = threading.RLock()
        self.wake = threading.Event()  # set on every change, so the caller re-plans
        self.host_token = secrets.token_urlsafe(16)
        self.seats: list[Seat] = []
        self.viewers: dict[str, Viewer] = {}
        self.game: GameState | None = None
        self.version = 0
        self.paused = False
        self.pace = _Pace()
        self.night: list[dict[str, Any]] = []  # finished games: winners and totals
        self.hints: dict = {}  # hints already worked out, by hand
        self._dirty = False
        self._urgent = False  # something must go out now, not with the next batch
        self.batch_due: float | None = None  # when the pending batch of moves goes out
        self._table: tuple[int, dict] = (-1, {})
        self._joins = 0
        self.tickets: dict[str, tuple[Seat, float]] = {}  # rejoin QR codes: ticket -> (seat, expiry)

    # -- Who is who ---------------------------------------------------------

    @property
    def variant(self) -> Variant:
        return self.variants[self.variant_name]

    def seat_of(self, token: str | None) -> int | None:
        for index, seat in enumerate(self.seats):
            if token is not None and seat.token is not None and secrets.compare_digest(seat.token, token):
                return index
        return None

    def seat_for(self, viewer: Viewer) -> int | None:
        """The seat a connection plays, if it is a seated player."""
        return self.seat_of(viewer.token) if viewer.role == "player" else None

    def is_host(self, token: str | None) -> bool:
        return token is not None and secrets.compare_digest(self.host_token, token)

    def vip(self) -> int | None:
        """The seat of the first-joined person still here (never a bot): their phone has the host's controls."""
        people = [i for i, s in enumerate(self.seats) if s.robot is None]
        return min(people, key=lambda i: self.seats[i].joined) if people else None

    def may_host(self, viewer: Viewer) -> bool:
        seat = self.seat_for(viewer)
        return viewer.role == "host" or (seat is not None and seat == self.vip())

    def attach(self, sid: str, viewer: Viewer) -> None:
        """A connection joins the room; a seat's token on a second device takes the seat over."""
        self.viewers[sid] = viewer
        seat = self.seat_for(viewer)
        if seat is not None:
            for old in self.seats[seat].sids:
                self.viewers[old] = self._as(old, "guest")
                self.notify(old, "replaced")
            self.seats[seat].sids = {sid}
            self.seats[seat].gone_since = None
        self.changed()

    def detach(self, sid: str) -> None:
        viewer = self.viewers.pop(sid, None)
        if viewer is None:
            return
        seat = self.seat_for(viewer)
        if seat is not None:
            self.seats[seat].sids.discard(sid)
            if not self.seats[seat].sids:
                self.seats[seat].gone_since = self.clock()
            self.changed()

    # -- The lobby ------------------------------------------------------------

    def playing(self) -> bool:
        return self.game is not None and not self.game.over

    def join(self, sid: str, name: str) -> int:
        """Seat a new player; their viewer becomes that seat. Returns the seat.

        Mid-game, a newcomer gets a new seat dealt in at the next hand if the variant says so.
        """
        if self.playing() and self.game.variant.newcomers != "next-hand":
            raise Refused("error.started_take")
        self._check_name(name)
        token = secrets.token_urlsafe(16)
        seat = self._new_seat({"name": name, "token": token})
        self.viewers[sid] = self._as(sid, "player", token)
        self.seats[seat].sids.add(sid)
        return seat

    def add_bot(self, strength: str) -> int:
        """A bot takes a new seat (in the lobby, or mid-game as a newcomer would). Returns the seat."""
        self._check_strength(strength)
        name = next(f"Bot {n}" for n in range(1, 100) if all(s.name.casefold() != f"bot {n}" for s in self.seats))
        return self._new_seat({"name": name, "token": None, "bot": strength})

    def _new_seat(self, fields: dict[str, Any]) -> int:
        """Write a new seat at the end of the ring; mid-game, the engine deals it in at the next hand."""
        if len(self.seats) >= self.variant.max_players:
            raise Refused("error.table_full", n=self.variant.max_players)
        late = self.playing()
        if late:
            engine.apply(self.game, Arrive())  # refuses, with nothing written, when it cannot be done
        used = {s.colour for s in self.seats}
        colour = next(c for c in COLOURS if c not in used)
        event = {"t": "join", **fields, "colour": colour, "joined": self._joins + 1}
        self._do(event | ({"late": True} if late else {}))
        return len(self.seats) - 1

    def give_to_bot(self, seat: int, strength: str) -> None:
        """A bot carries on a seat mid-game, with its hand and score (a player who left, or long gone)."""
        self._check_strength(strength)
        if not self.playing():
            raise Refused("error.bot_between")
        self._check_seat(seat)
        self._unseat(seat, "released", "notice.to_bot")
        self._do({"t": "seat", "seat": seat, "token": None, "bot": strength})

    @staticmethod
    def _check_strength(strength: str) -> None:
        if strength not in STRENGTHS:
            raise Refused("error.no_such_bot")

    def _check_name(self, name: str, seat: int | None = None) -> None:
        if any(s.name.casefold() == name.casefold() for i, s in enumerate(self.seats) if i != seat):
            raise Refused("error.name_taken", name=name)

    def remove(self, seat: int) -> None:
        """Take a player off the table; mid-hand, the engine closes the ring behind them."""
        self._check_seat(seat)
        if self.playing():
            engine.apply(self.game, Leave(seat))  # refuses, with nothing written, if the hand cannot lose them
        self._unseat(seat, "removed")
        self._do({"t": "remove", "seat": seat})

    def release(self, seat: int) -> None:
        """Open a seat mid-game: its hand and score wait for a newcomer, and the caller plays it meanwhile."""
        if not self.playing():
            raise Refused("error.remove_between")
        self._check_seat(seat)
        if self.seats[seat].open:
            raise Refused("error.seat_open_already")
        self._unseat(seat, "released")
        self._do({"t": "seat", "seat": seat, "token": None})

    def take(self, sid: str, seat: int, name: str) -> str:
        """A newcomer takes an open seat, with its hand and score; returns their token."""
        self._check_seat(seat)
        if self.seats[seat].token is not None:
            raise Refused("error.seat_taken")  # an open seat, or a bot's: a person may take either
        self._check_name(name, seat)
        token = secrets.token_urlsafe(16)
        self._do({"t": "seat", "seat": seat, "token": token, "name": name})
        self.attach(sid, self._as(sid, "player", token))
        return token

    def ticket(self, seat: int) -> str:
        """A one-time rejoin code for a seat, for the TV to show as a QR code."""
        self._check_seat(seat)
        now = self.clock()
        self.tickets = {t: entry for t, entry in self.tickets.items() if entry[1] > now}
        ticket = secrets.token_urlsafe(16)
        self.tickets[ticket] = (self.seats[seat], now + TICKET_S)
        return ticket

    def claim(self, sid: str, ticket: str) -> tuple[int, str]:
        """A device scanned a seat's rejoin QR: the seat gets a new token, and its old devices are told."""
        seat, expires = self.tickets.pop(ticket, (None, 0.0))
        index = next((i for i, s in enumerate(self.seats) if s is seat), None)
        if index is None or expires < self.clock():
            raise Refused("error.ticket_expired")
        token = secrets.token_urlsafe(16)
        self._do({"t": "seat", "seat": index, "token": token})
        self.attach(sid, self._as(sid, "player", token))
        return index, token

    def _unseat(self, seat: int, code: str, key: str | None = None) -> None:
        """Tell a seat's devices they no longer play it (a notice `code`); they stay, watching."""
        for sid in self.seats[seat].sids:
            self.viewers[sid] = self._as(sid, "guest")
            self.notify(sid, code, key)
        self.seats[seat].sids = set()

    def _as(self, sid: str, role: str, token: str | None = None) -> Viewer:
        """This connection's viewer in a new role, still reading its own language."""
        return replace(self.viewers.get(sid, Viewer("guest")), role=role, token=token)

    def set_lang(self, sid: str, lang: str) -> None:
        """A connection now reads another language (one the catalogs have): its next refusals come in it."""
        if lang not in self.catalogs.languages:
            raise Refused("error.no_language")
        self.viewers[sid] = replace(self.viewers[sid], lang=lang)

    def notify(self, sid: str, code: str, key: str | None = None) -> None:
        """A `notice` to one connection: `code` for programs, message `key` (`notice.<code>`) in its language."""
        message = self.catalogs.text(self.viewers[sid].lang, key or f"notice.{code}")
        self.send(sid, "notice", {"code": code, "message": message})

    def move(self, seat: int, to: int) -> None:
        self._lobby_only("error.move_between")
        self._check_seat(seat)
        self._check_seat(to)
        self._do({"t": "move", "seat": seat, "to": to})

    def choose_variant(self, name: str) -> None:
        self._lobby_only("error.rules_between")
        if name not in self.variants:
            raise Refused("error.no_variant")
        self._do({"t": "variant", "name": name})

    def start(self, seed: int | None = None) -> None:
        """Deal hand 1 to the seated players (or a new game after the last one ended)."""
        if self.game is not None and not self.game.over:
            raise Refused("error.game_on")
        if len(self.seats) < self.variant.min_players:
            raise Refused("error.need_players", n=self.variant.min_players)
        if len(self.seats) > self.variant.max_players:
            raise Refused("error.max_seats", n=self.variant.max_players)
        if seed is None:
            seed = secrets.randbits(48) if self.seed is None else self.seed + len(self.night)
        self._do({"t": "start", "variant": self.variant_name, "seed": seed})

    def _lobby_only(self, key: str) -> None:
        if self.playing():
            raise Refused(key)

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise Refused("error.no_seat")

    # -- Play -----------------------------------------------------------------

    def play(self, command: Command) -> None:
        """Apply one command; a RummyError leaves everything as it was (and unrecorded)."""
        if self.game is None:
            raise OutOfPhase("error.not_started")
        if self.paused and not isinstance(command, AutoPlay):  # the table stops: nobody acts until resume
            raise Refused("error.paused")
        result = engine.apply(self.game, command)  # pure: refuses before anything is written
        self.record(self.code, {"t": "cmd", "cmd": command_to_dict(command)})
        self._set_game(*result)
        self.changed(batch=isinstance(command, (Draw, Choose)))

    def call_now(self) -> None:
        """The host's "Call now": play for whoever is slow, then call at once."""
        if self.game is None:
            raise OutOfPhase("error.not_started")
        if self.paused:
            raise Refused("error.paused")
        self._hurry()
        self.play(Call())

    def set_paused(self, paused: bool) -> None:
        if self.game is None or self.game.over:
            raise Refused("error.nothing_to_pause")
        self._do({"t": "pause", "paused": paused})
        if not paused:  # the clock starts again from now
            now = self.clock()
            self.pace.since = self.pace.cycle_since = now
            self.pace.all_acted_at = now if self.pace.all_acted_at is not None else None

    def _hurry(self) -> None:
        for seat in self.game.hand.slow_seats():
            had_drawn = self.game.hand.drawn[seat] is not None
            self.play(AutoPlay(seat))
            self._tell_played_for(seat, "notice.played_pick" if had_drawn else "notice.played_for")

    def _tell_played_for(self, seat: int, key: str) -> None:
        """The slow seat's phones hear that the caller played for them: what it did (`key`), which card went."""
        hand = self.game.hand
        pick = hand.picks[seat] if seat < hand.players else None
        card = hand.faces[pick].symbol if pick is not None else None
        for sid in self.seats[seat].sids:
            message = self.catalogs.text(self.viewers[sid].lang, key, card=card or "—")
            self.send(sid, "notice", {"code": "played_for", "message": message, "card": card})

    # -- Events: written ahead, then applied; a restart replays them ------------

    def _do(self, event: dict[str, Any]) -> None:
        """Write a change to the journal before making it, so that nobody sees what was not kept."""
        self.record(self.code, event)
        self.apply_event(event)
        self.changed()

    def apply_event(self, event: dict[str, Any]) -> None:
        """Make one recorded change (live, or replayed after a restart)."""
        match event["t"]:
            case "join":
                self._joins = event["joined"]
                seat = Seat(event["name"], event["token"], event["colour"], event["joined"])
                seat.robot = self._robot(event)
                self.seats.append(seat)
                if event.get("late"):
                    self.game, _ = engine.apply(self.game, Arrive())
            case "remove":
                self._forget_finished_game()
                if self.game is not None:
                    self.game, _ = engine.apply(self.game, Leave(event["seat"]))
                self.seats.pop(event["seat"])
            case "move":
                self._forget_finished_game()
                self.seats.insert(event["to"], self.seats.pop(event["seat"]))
            case "seat":
                seat = self.seats[event["seat"]]
                seat.token = event["token"]
                seat.name = event.get("name", seat.name)
                seat.robot = self._robot(event)
            case "variant":
                self.variant_name = event["name"]
            case "start":
                self.variant_name = event["variant"]
                self.game, _ = engine.new_game(self.variant, len(self.seats), event["seed"])
                self.hints.clear()
                self.paused = False
            case "cmd":
                self._set_game(*engine.apply(self.game, command_from_dict(event["cmd"])))
            case "pause":
                self.paused = event["paused"]

    def _robot(self, event: dict[str, Any]) -> Bot | None:
        return Bot(event["bot"]) if event.get("bot") else None

    def _forget_finished_game(self) -> None:
        # Rearranging seats after a game: its table would name the wrong people. The night keeps its result.
        if self.game is not None and self.game.over:
            self.game = None

    def restore(self, events: list[dict[str, Any]]) -> None:
        """Rebuild the room from its journal, card for card."""
        for event in events:
            self.apply_event(event)
        for seat in self.seats:  # nobody is connected yet: every phone is on its way back
            seat.gone_since = self.clock()
        # Versions go on growing across a restart (clients keep the highest): start from the clock, in ms.
        self.version = max(self.version, int(time.time() * 1000))
        self.changed()

    def _set_game(self, game: GameState, events: list) -> None:
        self.game = game
        if any(isinstance(event, GameEnded) for event in events):
            self._remember_game()

    def _remember_game(self) -> None:
        game = self.game
        self.night.append(
            {
                "winners": [self.seats[s].name for s in game.winners],
                "totals": {self.seats[s].name: t for s, t in enumerate(game.totals)},
            }
        )

    # -- The caller's pace ---------------------------------------------------

    def tick(self) -> float | None:
        """Make any call that is due now; return when to look again (None: wait for a change)."""
        game = self.game
        if game is None or game.over or self.paused:
            return None
        now = self.clock()
        hand = game.hand
        v = game.variant
        if self._play_robots():
            return self.tick()
        if hand.phase in MATCH_WINDOWS:
            due = self.pace.since + v.match_window_s
            if now >= due:
                self.play(Call())
                return self.tick()
            return due
        if hand.phase in ACTING:
            if self.pace.all_acted_at is not None:
                due = self.pace.all_acted_at + v.beat_s
                if now >= due:
                    self.play(Call())
                    return self.tick()
                return due
            hurry = self.hurry_window()
            if hurry is None:
                return None
            start, end = hurry
            if now >= end:
                self._hurry()
                self.changed()
                return self.tick()
            return start if now < start else end
        return None  # scored: the host moves on to the next hand

    def _play_robots(self) -> bool:
        """Bots' seats make their moves at once, and open seats get the caller's play. True if any moved."""
        moved = False
        for index, seat in enumerate(self.seats[: self.game.hand.players]):
            if seat.robot is not None:
                command = bot_move(self.game.hand, index, seat.robot)
            elif seat.open and index in self.game.hand.slow_seats():
                command = AutoPlay(index)  # nobody holds it: play it rather than hold up the table
            else:
                continue
            if command is None:
                continue
            try:
                self.play(command)
            except RummyError:  # a move the hand no longer allows (an empty shoe): the caller's own play
                if index not in self.game.hand.slow_seats():
                    continue
                self.play(AutoPlay(index))
            moved = True
        return moved

    def hurry_window(self) -> tuple[float, float] | None:
        """When the countdown starts and ends this cycle (monotonic), or None if never."""
        v = self.game.variant
        if not v.hurry_after_s:
            return None
        start = self.pace.cycle_since + v.hurry_after_s
        return start, start + v.hurry_countdown_s

    def _track_pace(self) -> None:
        now = self.clock()
        hand = self.game.hand
        key = (hand.hand_no, hand.cycle, hand.phase)
        if key != self.pace.key:
            self.pace.key = key
            self.pace.since = now
            if hand.phase in (Phase.DRAW, Phase.LAST_DRAW):
                self.pace.cycle_since = now
                self.pace.all_acted_at = None
        everyone = hand.phase in ACTING and not hand.slow_seats()
        if not everyone:
            self.pace.all_acted_at = None
        elif self.pace.all_acted_at is None:
            self.pace.all_acted_at = now

    # -- Views ------------------------------------------------------------------

    def changed(self, batch: bool = False) -> None:
        """After any change: a new version, and the caller re-plans. `flush` sends it.

        `batch`: a player's own move, which may wait for the next batch unless it moved the table on.
        """
        key = self.pace.key
        if self.game is not None:
            self._track_pace()
        self.version += 1
        self._dirty = True
        self._urgent = self._urgent or not batch or self.pace.key != key
        self.wake.set()

    def flush(self) -> None:
        """Send every viewer its view, once for all the changes since the last send: now, or with the batch."""
        if not self._dirty:
            return
        now = self.clock()
        if self._urgent or (self.batch_due is not None and now >= self.batch_due):
            self._dirty = self._urgent = False
            self.batch_due = None
            self.broadcast()
        elif self.batch_due is None:
            self.batch_due = now + BATCH_S

    def settle(self) -> None:
        """After a command: make any call already due (a zero beat), then send one update."""
        self.tick()
        self.flush()

    def broadcast(self) -> None:
        cache: dict[object, dict] = {}
        for sid, viewer in list(self.viewers.items()):
            seat = self.seat_for(viewer)
            key = seat if seat is not None else viewer.role
            if key not in cache:
                cache[key] = self.view(viewer)
            self.send(sid, "state", cache[key])

    def view(self, viewer: Viewer) -> dict[str, Any]:
        """Everything one viewer may see: the room, and the game from their seat."""
        seat = self.seat_for(viewer)
        game = None
        if self.game is not None:
            if self._table[0] != self.version:  # one table a version, shared by every viewer
                self._table = (self.version, table_view(self.game))
            table = self._table[1]
            game = view_for(self.game, seat, self.hints, table) if seat is not None else view_for_host(self.game, table)
        return {
            "v": self.version,
            "room": self._room_view(viewer, seat),
            "game": game,
        }

    @staticmethod
    def _health(seat: Seat, now: float) -> str:
        """Connected, reconnecting, gone (longer than a phone takes to come back), open, or a bot."""
        if seat.robot is not None:
            return "bot"
        if seat.token is None:
            return "open"
        if seat.sids:
            return "connected"
        if seat.gone_since is None or now - seat.gone_since < RECONNECT_GRACE_S:
            return "reconnecting"
        return "gone"

    def _room_view(self, viewer: Viewer, seat: int | None) -> dict[str, Any]:
        now = self.clock()
        hurry = None
        if self.game is not None and not self.game.over and self.game.hand.phase in ACTING:
            window = self.hurry_window()
            if window and self.pace.all_acted_at is None and not self.paused:
                hurry = {"starts_in": round(window[0] - now, 2), "ends_in": round(window[1] - now, 2)}
        match_ends_in = None  # the match window's clock, counted from when this view is received
        if self.game is not None and self.game.hand.phase in MATCH_WINDOWS and not self.paused:
            match_ends_in = round(self.pace.since + self.game.variant.match_window_s - now, 2)
        vip = self.vip()
        dealt = self.game.hand.players if self.game is not None else len(self.seats)
        return {
            "code": self.code,
            "variant": self.variant_name,
            "variants": self.variant_menu,
            "min_players": self.variant.min_players,
            "max_players": self.variant.max_players,
            "seats": [
                {
                    "seat": i,
                    "name": s.name,
                    "colour": s.colour,
                    "connected": bool(s.sids),
                    "health": self._health(s, now),
                    "gone_for": round(now - s.gone_since) if s.gone_since is not None and s.token else None,
                    "vip": i == vip,
                    "open": s.open,
                    "bot": s.robot.strength if s.robot else None,  # a person may take a bot's seat too
                    "waiting": i >= dealt,  # joined late: dealt in at the next hand
                }
                for i, s in enumerate(self.seats)
            ],
            "grace_s": RECONNECT_GRACE_S,
            # Whether a newcomer may join now (a new seat); open seats are in "seats" either way.
            "can_join": len(self.seats) < self.variant.max_players
            and (not self.playing() or self.game.variant.newcomers == "next-hand"),
            "started": self.game is not None,
            "paused": self.paused,
            "hurry": hurry,
            "match_ends_in": match_ends_in,
            "night": self.night,
            "you": {"role": viewer.role, "seat": seat, "controls": self.may_host(viewer)},
        }
