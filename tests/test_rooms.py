"""Rooms that sleep and wake, codes that run out or come back, and the join QR drawn once (issue 15)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from partyrummy.server.app import create_app
from partyrummy.server.pages import qr
from partyrummy.server.room.room import Refused, Viewer
from partyrummy.server.room.rooms import CODE_ALPHABET, Rooms, new_code
from partyrummy.server.storage.journal import KEEP_LOADING_S, Journal


def every_code() -> set[str]:
    return {a + b + c + d for a in CODE_ALPHABET for b in CODE_ALPHABET for c in CODE_ALPHABET for d in CODE_ALPHABET}


def test_new_code_finds_the_last_free_code_and_says_when_there_is_none() -> None:
    codes = every_code()
    assert new_code(codes - {"WXYA"}) == "WXYA"
    with pytest.raises(Refused):
        new_code(codes)


@pytest.fixture
def rooms(tmp_path: Path, variants):
    started: list[str] = []
    journal = Journal(tmp_path / "rooms.sqlite3")
    made = Rooms(variants, lambda *a: None, lambda room: started.append(room.code), journal=journal)
    made.started = started
    yield made
    made.journal.close()


def test_a_room_sleeps_without_a_thread_when_nobody_is_there_and_wakes_on_a_connection(rooms) -> None:
    room = rooms.create()
    assert rooms.started == [room.code]
    rooms.awake(room)
    assert rooms.started == [room.code]  # one caller thread, not two
    room.attach("tv", Viewer("host", room.host_token))
    assert not rooms.sleep(room)  # someone is watching: the caller stays
    room.detach("tv")
    assert rooms.sleep(room)  # the caller thread may end
    rooms.awake(room)
    assert rooms.started == [room.code, room.code]


def test_at_start_only_the_tvs_room_is_loaded_and_the_others_when_asked_for(rooms, variants, tmp_path) -> None:
    old, new = rooms.create(), rooms.create()
    old.join("sid", "Ana")
    rooms.journal.close()
    journal = Journal(tmp_path / "rooms.sqlite3")
    again = Rooms(variants, lambda *a: None, lambda room: None, journal=journal)
    assert again.restore() == 1 and set(again.by_code) == {new.code} and again.current().code == new.code
    assert [s.name for s in again.get(old.code.lower()).state.seats] == ["Ana"]  # loaded on demand
    assert again.get("ZZZZ") is None and again.get("AB") is None
    # A room untouched for longer than the journal keeps loading gives its code back.
    journal.db.execute("UPDATE rooms SET touched = ? WHERE code = ?", (time.time() - KEEP_LOADING_S - 60, old.code))
    assert old.code not in journal.recent_codes()
    journal.open_room(old.code, "new-token")
    assert journal.recent_rooms(old.code) == [(old.code, "new-token", [])]
    rooms.journal = journal  # closed by the fixture


def test_the_tv_page_draws_its_qr_code_once(tmp_path, monkeypatch) -> None:
    drawn = []
    make = qr.qrcode.QRCode.make
    monkeypatch.setattr(qr.qrcode.QRCode, "make", lambda *a, **k: drawn.append(a) or make(*a, **k))
    qr.cached_qr_svg.cache_clear()
    app, _ = create_app({"DATA": tmp_path / "rooms.sqlite3"})
    client = app.test_client()
    pages = [client.get("/", environ_base={"REMOTE_ADDR": "127.0.0.1"}) for _ in range(20)]
    assert all(b"<svg" in page.data for page in pages) and len(drawn) == 1
    app.extensions["partyrummy.rooms"].journal.close()
