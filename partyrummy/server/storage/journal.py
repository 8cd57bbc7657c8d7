"""Rooms (and nights of several tables) kept in SQLite: each one's events, written before anyone sees their effect.

A room is (its code, its host token, its events): seats joining, rules
chosen, games started with their seed, and every command the engine
accepted. Replaying the events rebuilds the room card for card, so a server
killed at any moment comes back with every hand, pile and score.

One server holds a data file at a time (a lock beside it names its address).
A write that fails is rolled back and raises `NotSaved`: the room refuses
the change it was about to make, and the next write tries the file again.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["Journal", "JournalBusy", "NotSaved", "default_data_path", "KEEP_LOADING_S", "BUSY_TIMEOUT_MS"]

# Rooms touched within this long are reloaded at start; older ones stay in the file as history.
KEEP_LOADING_S = 48 * 3600
# How long a write waits for a lock someone else holds on the file before it gives up (SQLite retries).
BUSY_TIMEOUT_MS = 2000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (code TEXT PRIMARY KEY, host_token TEXT NOT NULL, created REAL NOT NULL,
                                  touched REAL NOT NULL);
CREATE TABLE IF NOT EXISTS events (room TEXT NOT NULL REFERENCES rooms(code), n INTEGER NOT NULL,
                                   at REAL NOT NULL, event TEXT NOT NULL, PRIMARY KEY (room, n));
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS nights (code TEXT PRIMARY KEY, created REAL NOT NULL, touched REAL NOT NULL);
CREATE TABLE IF NOT EXISTS night_events (night TEXT NOT NULL REFERENCES nights(code), n INTEGER NOT NULL,
                                         at REAL NOT NULL, event TEXT NOT NULL, PRIMARY KEY (night, n));
"""
# Where each kind's events are kept: (its table, its events' table, the column naming whose events they are).
_KINDS = {"room": ("rooms", "events", "room"), "night": ("nights", "night_events", "night")}


def _count_key(kind: str, code: str) -> str:
    """Where the events written so far are counted: a room by its code, a night apart (codes may coincide)."""
    return code if kind == "room" else f"{kind}:{code}"


class JournalBusy(RuntimeError):
    """Another live server holds this data file; the message names it and says what to do."""


class NotSaved(RuntimeError):
    """A write did not reach the disk (rolled back): the change it carried must not be made."""


def default_data_path() -> Path:
    """The user's data folder: XDG on Linux, Application Support on macOS, APPDATA on Windows."""
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    elif os.name == "nt":
        base = Path(os.environ.get("APPDATA", Path.home()))
    else:
        base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return base / "partyrummy" / "rooms.sqlite3"


def _hold(path: Path, holder: str) -> int | None:
    """Take the lock file beside the data file for this process (its descriptor); JournalBusy if a live
    server has it. An advisory lock (flock) dies with its process, so a SIGKILL never leaves a stale one."""
    try:
        import fcntl
    except ImportError:  # Windows: no flock; SQLite's own locking still keeps the file whole
        return None
    fd = os.open(path.with_name(path.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        other = os.pread(fd, 1000, 0).decode("utf-8", "replace").strip() or "another process"
        os.close(fd)
        raise JournalBusy(
            f"{path} is in use by another PartyRummy server ({other}). "
            "Stop that one, or give this one its own file with --data."
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, holder.encode(), 0)
    return fd


class Journal:
    """The rooms' SQLite file: one connection, shared by the rooms' threads under a lock."""

    def __init__(self, path: Path | str, holder: str = "") -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock_file = _hold(self.path, holder or f"process {os.getpid()}")
        self.lock = threading.Lock()  # one connection, shared by the rooms' threads
        # timeout: SQLite's busy timeout, so a lock held a moment by another process is waited for, not failed.
        self.db = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000
        )
        self.db.execute("PRAGMA journal_mode=WAL")
        # NORMAL: a commit survives the process being killed; only a power cut may lose the last moment.
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)
        self.counts: dict[str, int] = {}

    def _write(self, statements: list[tuple[str, tuple]]) -> None:
        """Run statements as one transaction, or none of them: NotSaved, rolled back, the file ready for the next."""
        try:
            self.db.execute("BEGIN IMMEDIATE")  # take the write lock now (waiting up to the busy timeout)
            for sql, params in statements:
                self.db.execute(sql, params)
            self.db.execute("COMMIT")
        except sqlite3.Error as error:
            if self.db.in_transaction:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the transaction is already gone; nothing is left open
            raise NotSaved(str(error)) from error

    def open_room(self, code: str, host_token: str) -> None:
        """A new room under `code`; an old finished room that had the code is forgotten with it."""
        self._open("room", code, host_token)

    def _open(self, kind: str, code: str, *values: str) -> None:
        """A new room or night (`kind`) under `code`, its `values` before its times; an old one of that code is
        forgotten with its events."""
        owners, table, column = _KINDS[kind]
        now = time.time()
        row = (code, *values, now, now)
        with self.lock:
            self._write(
                [
                    (f"DELETE FROM {table} WHERE {column} = ?", (code,)),
                    (f"DELETE FROM {owners} WHERE code = ?", (code,)),
                    (f"INSERT INTO {owners} VALUES ({', '.join('?' * len(row))})", row),
                ]
            )
            self.counts[_count_key(kind, code)] = 0

    def append_all(self, code: str, events: list[dict[str, Any]], kind: str = "room") -> None:
        """Write events of a room (or of a night: `kind`) in order, in one transaction: all of them are on disk when
        this returns, or NotSaved and none was written. (A commit costs far more than a row: a burst of moves is
        written at once.)"""
        if not events:
            return
        owners, table, column = _KINDS[kind]
        key = _count_key(kind, code)
        now = time.time()
        with self.lock:
            n = self.counts.get(key, 0)
            rows = [(code, n + i, now, json.dumps(event)) for i, event in enumerate(events)]
            self._write(
                [
                    *((f"INSERT INTO {table} VALUES (?, ?, ?, ?)", row) for row in rows),
                    (f"UPDATE {owners} SET touched = ? WHERE code = ?", (now, code)),
                ]
            )
            self.counts[key] = n + len(events)

    def open_night(self, code: str) -> None:
        """A new night of several tables under `code` (an old one that had the code is forgotten with it)."""
        self._open("night", code)

    def newest_night(self) -> tuple[str, list[dict[str, Any]]] | None:
        """The night of several tables begun last among the recent ones, with its events (None: there is none)."""
        since = time.time() - KEEP_LOADING_S
        with self.lock:
            row = self.db.execute(
                "SELECT code FROM nights WHERE touched >= ? ORDER BY created DESC LIMIT 1", (since,)
            ).fetchone()
            if row is None:
                return None
            rows = self.db.execute("SELECT event FROM night_events WHERE night = ? ORDER BY n", row).fetchall()
            self.counts[_count_key("night", row[0])] = len(rows)
        return row[0], [json.loads(r[0]) for r in rows]

    def recent_rooms(self, code: str | None = None) -> list[tuple[str, str, list[dict[str, Any]]]]:
        """(code, host token, events) of each room touched lately (or of that one room), oldest first."""
        since = time.time() - KEEP_LOADING_S
        where, params = ("touched >= ?", (since,)) if code is None else ("touched >= ? AND code = ?", (since, code))
        with self.lock:
            rooms = self.db.execute(
                f"SELECT code, host_token FROM rooms WHERE {where} ORDER BY created", params
            ).fetchall()
            out = []
            for found, token in rooms:
                rows = self.db.execute("SELECT event FROM events WHERE room = ? ORDER BY n", (found,)).fetchall()
                out.append((found, token, [json.loads(r[0]) for r in rows]))
                self.counts[found] = len(rows)
        return out

    def newest_room(self) -> str | None:
        """The code of the room created last among the recent ones (the TV's, after a restart)."""
        since = time.time() - KEEP_LOADING_S
        with self.lock:
            row = self.db.execute(
                "SELECT code FROM rooms WHERE touched >= ? ORDER BY created DESC LIMIT 1", (since,)
            ).fetchone()
        return row[0] if row else None

    def setting(self, name: str, make: Callable[[], str]) -> str:
        """A value kept across restarts (such as the screen key), made the first time it is asked for."""
        with self.lock:
            self._write([("INSERT OR IGNORE INTO settings VALUES (?, ?)", (name, make()))])
            return self.db.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()[0]

    def recent_codes(self) -> set[str]:
        """Codes of rooms touched lately: not to be given to a new room (an old one's code may be reused)."""
        since = time.time() - KEEP_LOADING_S
        with self.lock:
            return {row[0] for row in self.db.execute("SELECT code FROM rooms WHERE touched >= ?", (since,))}

    def close(self) -> None:
        with self.lock:
            self.db.close()
            if self._lock_file is not None:
                os.close(self._lock_file)  # closing it releases the flock
                self._lock_file = None
