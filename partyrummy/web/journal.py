"""Rooms kept in SQLite: each room's events, written before anyone sees their effect.

A room is (its code, its host token, its events): seats joining, rules
chosen, games started with their seed, and every command the engine
accepted. Replaying the events rebuilds the room card for card, so a server
killed at any moment comes back with every hand, pile and score.
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

__all__ = ["Journal", "default_data_path", "KEEP_LOADING_S"]

# Rooms touched within this long are reloaded at start; older ones stay in the file as history.
KEEP_LOADING_S = 48 * 3600

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (code TEXT PRIMARY KEY, host_token TEXT NOT NULL, created REAL NOT NULL,
                                  touched REAL NOT NULL);
CREATE TABLE IF NOT EXISTS events (room TEXT NOT NULL REFERENCES rooms(code), n INTEGER NOT NULL,
                                   at REAL NOT NULL, event TEXT NOT NULL, PRIMARY KEY (room, n));
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def default_data_path() -> Path:
    """The user's data folder: XDG on Linux, Application Support on macOS, APPDATA on Windows."""
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    elif os.name == "nt":
        base = Path(os.environ.get("APPDATA", Path.home()))
    else:
        base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share"))
    return base / "partyrummy" / "rooms.sqlite3"


class Journal:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()  # one connection, shared by the rooms' threads
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        # NORMAL: a commit survives the process being killed; only a power cut may lose the last moment.
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)
        self.counts: dict[str, int] = {}

    def open_room(self, code: str, host_token: str) -> None:
        now = time.time()
        with self.lock:
            self.db.execute("INSERT INTO rooms VALUES (?, ?, ?, ?)", (code, host_token, now, now))
        self.counts[code] = 0

    def append(self, code: str, event: dict[str, Any]) -> None:
        """Write one event of a room; it is on disk when this returns."""
        now = time.time()
        with self.lock:
            n = self.counts.get(code, 0)
            self.db.execute("BEGIN")
            self.db.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (code, n, now, json.dumps(event)))
            self.db.execute("UPDATE rooms SET touched = ? WHERE code = ?", (now, code))
            self.db.execute("COMMIT")
            self.counts[code] = n + 1

    def recent_rooms(self) -> list[tuple[str, str, list[dict[str, Any]]]]:
        """(code, host token, events) of each room touched lately, oldest first."""
        since = time.time() - KEEP_LOADING_S
        with self.lock:
            rooms = self.db.execute(
                "SELECT code, host_token FROM rooms WHERE touched >= ? ORDER BY created", (since,)
            ).fetchall()
            out = []
            for code, token in rooms:
                rows = self.db.execute("SELECT event FROM events WHERE room = ? ORDER BY n", (code,)).fetchall()
                out.append((code, token, [json.loads(r[0]) for r in rows]))
                self.counts[code] = len(rows)
        return out

    def setting(self, name: str, make: Callable[[], str]) -> str:
        """A value kept across restarts (such as the screen key), made the first time it is asked for."""
        with self.lock:
            self.db.execute("INSERT OR IGNORE INTO settings VALUES (?, ?)", (name, make()))
            return self.db.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()[0]

    def known_codes(self) -> set[str]:
        with self.lock:
            return {row[0] for row in self.db.execute("SELECT code FROM rooms")}

    def close(self) -> None:
        with self.lock:
            self.db.close()
