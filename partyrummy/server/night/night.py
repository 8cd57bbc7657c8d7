"""A night of several tables: 2 to 4 rooms played at once, one way in for every guest, one leaderboard.

Each table is a room of its own (its screen, its caller, its journal): the night only seats guests into the rooms,
deals every table's game from one seed, and reads the rooms' score sheets back for its standings. Its own state
(partyrummy.night.state) is journaled beside the rooms', written before it is made, so a restart brings it back.

Locks: the night's first, then a room's (a room never calls the night).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from typing import Any

from ...night import seating
from ...night.standings import Played, Standings, standings
from ...night.state import NightState, apply_event
from ...rules.errors import RummyError
from ...rules.names import name_key
from ...rules.variants import Variant
from ..room.refused import Refused
from ..room.room import Room
from ..room.rooms import Rooms, new_code
from ..storage.journal import NotSaved

__all__ = ["Night", "Nights", "TABLES", "RESEATS"]

TABLES = range(2, 5)  # a night has 2 to 4 tables
RESEATS = ("mix", "balance", "final")  # how the host may seat the night again between games


class Night:
    """One night: its state, its rooms (found through Rooms, by code), and its journal."""

    def __init__(self, state: NightState, rooms: Rooms) -> None:
        self.state = state
        self.rooms = rooms
        self.lock = threading.RLock()

    # -- The journal: each change written before it is made ------------------------------------------

    def _do(self, event: dict[str, Any]) -> None:
        journal = self.rooms.journal
        if journal is not None:
            try:
                journal.append_all(self.state.code, [event], kind="night")
            except NotSaved as error:
                raise Refused("error.not_saved") from error
        apply_event(self.state, event)

    @property
    def variant(self) -> Variant:
        """The rules every table of the night plays."""
        return self.rooms.variants[self.state.variant]

    # -- Its tables ------------------------------------------------------------------------------------

    def room(self, table: int) -> Room:
        """A table's room (loaded from the journal if it slept long enough to be let go)."""
        room = self.rooms.get(self.state.tables[table])
        if room is None:
            raise Refused("error.night_table_gone", table=table + 1)
        if room.in_night is None:  # loaded again from the journal (let go while it slept): a table of this night
            self._link(room, table)
        return room

    def rooms_held(self) -> list[Room]:
        return [self.room(t) for t in range(len(self.state.tables))]

    def _link(self, room: Room, table: int) -> None:
        with room.lock:
            room.in_night = {"code": self.state.code, "table": table + 1, "tables": len(self.state.tables)}
            room.changed()
            room.flush()

    def _in_room(self, table: int, action: Callable[[Room], Any]) -> Any:
        """Do something to a table's room under its lock, then send its players what changed."""
        room = self.room(table)
        with room.lock:
            try:
                return action(room)
            finally:
                room.settle()

    def link(self) -> None:
        """Find each table's room, each told as it is found that it is a table of this night (its screens and
        phones show it)."""
        self.rooms_held()

    # -- Guests ----------------------------------------------------------------------------------------

    def seat(self, name: str) -> dict[str, Any]:
        """A guest who scanned the night's code: seated at the emptiest table (or, every table full, sent to a
        table's audience). Returns where: the table, its room, and the keys the phone keeps."""
        with self.lock:
            key = name_key(name)
            if any(name_key(g.name) == key for g in self.state.guests.values()):
                raise Refused("error.name_taken", name=name)
            rooms = self.rooms_held()
            most = self.variant.max_players
            table = seating.emptiest([len(r.state.seats) for r in rooms], most)
            if table is None:  # 48 seated: the rest play along in the audience of the table with the fewest
                table = min(range(len(rooms)), key=lambda t: len(rooms[t].audience.book.members))
                return {"table": table + 1, "room": rooms[table].code, "audience": True}
            token = self._in_room(table, lambda room: room.seat_guest(name))
            guest = secrets.token_urlsafe(16)
            try:
                self._do({"t": "guest", "key": guest, "name": name, "table": table, "token": token})
            except Refused:
                self._in_room(table, lambda room: room.remove(room.seat_of(token)))  # the night could not keep them
                raise
            return {"table": table + 1, "room": rooms[table].code, "token": token, "guest": guest}

    def where(self, guest: str) -> dict[str, Any]:
        """Where a guest sits now (their phone asks on every visit to the night's address)."""
        with self.lock:
            found = self.state.guests.get(guest) if isinstance(guest, str) else None
            if found is None:
                raise Refused("error.night_no_guest")
            return {"table": found.table + 1, "room": self.state.tables[found.table], "token": found.token}

    # -- The host's: the rules, dealing every table, seating the night again ---------------------------

    def choose_variant(self, name: str) -> None:
        with self.lock:
            if name not in self.rooms.variants:
                raise Refused("error.no_variant")
            if any(room.playing() for room in self.rooms_held()):
                raise Refused("error.night_playing")
            self._do({"t": "variant", "name": name})

    def deal(self) -> None:
        """A new game at every table at once: the same rules, one seed, and (tables of the same size with cards on
        the phones) the same cards, each seat drawing from its own order of the shoe."""
        with self.lock:
            rooms = self.rooms_held()
            if any(room.playing() for room in rooms):
                raise Refused("error.night_playing")
            variant = self.variant
            short = [t + 1 for t, room in enumerate(rooms) if len(room.state.seats) < variant.min_players]
            if short:
                raise Refused("error.night_short", tables=", ".join(map(str, short)), n=variant.min_players)
            seed = secrets.randbits(48) if self.rooms.seed is None else self.rooms.seed + 1000 * len(self.state.rounds)
            sizes = [len(room.state.seats) for room in rooms if room.state.mode == "phones"]
            tables = []
            for room in rooms:
                phones = room.state.mode == "phones"
                alike = phones and sizes.count(len(room.state.seats)) > 1
                tables.append(
                    {
                        "room": room.code,
                        "game": len(room.state.sheets),
                        "guests": [self._guest_of(room.code, s.token) for s in room.state.seats],
                        "duplicate": alike,
                        "real": not phones,
                    }
                )
            self._do({"t": "round", "seed": seed, "tables": tables})
            for table, room in enumerate(rooms):
                draws = variant.night_draws if tables[table]["duplicate"] else None
                self._in_room(table, lambda room, draws=draws: self._start(room, seed, draws))

    def _start(self, room: Room, seed: int, draws: str | None) -> None:
        if room.state.variant_name != self.state.variant:
            room.to_lobby()
            room.choose_variant(self.state.variant)
        room.start(seed=seed, draws=draws, by_night=True)

    def _guest_of(self, room: str, token: str | None) -> str | None:
        """The guest who holds this seat token in this room, if the night seated them."""
        if token is None:
            return None
        table = self.state.tables.index(room)
        return next((g.key for g in self.state.guests.values() if g.table == table and g.token == token), None)

    def reseat(self, how: str) -> None:
        """Seat the night again between games: everyone mixed at random, the tables balanced, or the leaders at a
        final table (table 1)."""
        with self.lock:
            if how not in RESEATS:
                raise Refused("error.night_no_reseat")
            where = {key: g.table for key, g in self.state.guests.items()}
            tables = len(self.state.tables)
            if how == "mix":
                plan = seating.mix(where, tables, secrets.randbits(32) if self.rooms.seed is None else self.rooms.seed)
            elif how == "balance":
                plan = seating.balance(where, tables)
            else:
                plan = seating.final(where, tables, [row.key for row in self.standings().rows])
            self._move_all({key: t for key, t in plan.items() if t != where[key]})

    def move(self, guest: str, table: int) -> None:
        """Move one guest to another table (table: 0 for table 1 …) between games."""
        with self.lock:
            if guest not in self.state.guests:
                raise Refused("error.night_no_guest")
            if not isinstance(table, int) or not 0 <= table < len(self.state.tables):
                raise Refused("error.night_no_table")
            if self.state.guests[guest].table != table:
                self._move_all({guest: table})

    def _move_all(self, plan: dict[str, int]) -> None:
        """Move guests between games: each one's seat taken off its table, a new one at the next (their phone,
        told it was moved, asks the night where it now sits)."""
        rooms = self.rooms_held()
        if any(room.playing() for room in rooms):
            raise Refused("error.night_playing")
        most = self.variant.max_players
        sizes = [len(room.state.seats) for room in rooms]
        for key, table in plan.items():
            sizes[self.state.guests[key].table] -= 1
            sizes[table] += 1
        if max(sizes) > most:
            raise Refused("error.table_full", n=most)
        for key in plan:  # every seat first taken off: names then never clash at the new table
            guest = self.state.guests[key]
            self._in_room(guest.table, lambda room, g=guest: room.remove(room.seat_of(g.token), "moved"))
        for key, table in plan.items():
            guest = self.state.guests[key]
            token = self._in_room(table, lambda room, g=guest: room.seat_guest(g.name))
            self._do({"t": "seat", "key": key, "table": table, "token": token})

    # -- What the screens show -------------------------------------------------------------------------

    def standings(self) -> Standings:
        """Everyone's night so far, from the tables' own score sheets."""
        rounds = []
        for played in self.state.rounds:
            games = []
            for table, held in enumerate(played.tables):
                room = self.rooms.get(held.room)
                if room is None:
                    continue
                with room.lock:
                    sheets = room.sheets()
                if held.game >= len(sheets):
                    continue  # dealt, and not a hand scored yet
                names, rows, _ = sheets[held.game]
                points = tuple(tuple(None if s is None else s.points for s in row) for row in rows)
                games.append(Played(table, held, tuple(names), points))
            rounds.append(games)
        guests = self.state.guests
        return standings(rounds, {k: g.name for k, g in guests.items()}, {k: g.table for k, g in guests.items()})

    def glance(self) -> list[dict[str, Any]]:
        """Each table at a glance: its players, its hand and call, and who it waits for."""
        out = []
        for table, room in enumerate(self.rooms_held()):
            with room.lock:
                seats = [s.name for s in room.state.seats]
                game = room.part.public() if room.state.game is not None else None
                out.append(
                    {
                        "table": table + 1,
                        "room": room.code,
                        "mode": room.state.mode,
                        "players": seats,
                        "max_players": room.variant.max_players,
                        "playing": room.playing(),
                        "hand_no": game and game.get("hand_no"),
                        "hands_total": game and game.get("hands_total"),
                        "phase": game and game.get("phase"),
                        "game_over": bool(game and game.get("game_over")),
                        "waiting_for": [seats[s] for s in (game or {}).get("waiting_for") or [] if s < len(seats)],
                        "key": room.host_token,
                    }
                )
        return out


class Nights:
    """The server's nights of several tables, by code; the newest is the one the big screen shows."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        self.by_code: dict[str, Night] = {}
        self.newest: Night | None = None
        self.lock = threading.Lock()

    def create(self, tables: int, variant: str | None = None) -> Night:
        """A new night of `tables` tables, each a new room."""
        if tables not in TABLES:
            raise Refused("error.night_tables", low=TABLES[0], high=TABLES[-1])
        with self.lock:
            journal = self.rooms.journal
            taken = set(self.rooms.by_code) | set(self.by_code) | (journal.recent_codes() if journal else set())
            night = Night(NightState(new_code(taken)), self.rooms)
            if journal is not None:
                try:
                    journal.open_night(night.state.code)
                except NotSaved as error:
                    raise Refused("error.not_saved") from error
            rooms = [self.rooms.create() for _ in range(tables)]
            with night.lock:
                name = variant if variant in self.rooms.variants else rooms[0].state.variant_name
                night._do({"t": "tables", "rooms": [r.code for r in rooms], "variant": name})
            self.by_code[night.state.code] = self.newest = night
        night.link()
        return night

    def restore(self) -> None:
        """Bring back the newest night of the last days, its tables told they are its tables again."""
        found = self.rooms.journal.newest_night() if self.rooms.journal else None
        if found is None:
            return
        code, events = found
        night = Night(NightState(code), self.rooms)
        for event in events:
            apply_event(night.state, event)
        if not night.state.tables:
            return
        self.by_code[code] = self.newest = night
        try:
            night.link()
        except RummyError:  # a table that can no longer be loaded: the night shows what it can
            pass

    def get(self, code: str) -> Night | None:
        return self.by_code.get(code.upper()) if isinstance(code, str) else None
