"""The journal when the disk says no: a held lock, a second server on the same file (issue 15)."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import pytest

from partyrummy.server.storage.journal import Journal, JournalBusy, NotSaved

from .live import Client, LiveServer, free_port, phase, seated


@pytest.mark.slow  # a server killed and restarted
def test_a_write_refused_by_the_disk_is_refused_to_the_phone_and_the_journal_recovers(tmp_path: Path) -> None:
    data = tmp_path / "rooms.sqlite3"
    server = LiveServer(data=data)
    try:
        host, phones = seated(server, "fast3", 2, reconnect=True)
        assert host.call("start")["ok"]
        phones[0].wait_for(lambda s: phase(s) == "draw")
        # Another process takes the file's write lock and keeps it past the busy timeout.
        other = sqlite3.connect(data, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        before = phones[0].sync()["state"]
        ack = phones[0].call("draw", {"source": "shoe"})
        assert ack["error"]["code"] == "refused" and "could not save" in ack["error"]["message"]
        late = Client(server.url, host.room)
        assert late.call("join", {"name": "Lou"})["error"]["code"] == "refused"
        after = phones[0].sync()["state"]
        assert after["game"] == before["game"] and len(after["room"]["seats"]) == 2  # nothing was applied
        other.execute("ROLLBACK")
        other.close()
        # The file is writable again: the next change goes through, without a restart.
        assert phones[0].call("draw", {"source": "shoe"})["ok"]
        assert late.join("Lou")["ok"]
        drawn = phones[0].wait_for(lambda s: s["game"]["you"]["drawn"])
        kept = (drawn["game"]["you"]["hand"], [s["name"] for s in drawn["room"]["seats"]])
        # What the phones saw is what was written: a restart from the file gives the same table.
        server.kill()
        server = LiveServer(data=data, port=server.port)
        again = phones[0].wait_for(lambda s: s["v"] > drawn["v"] and s["game"] is not None, 30)
        assert (again["game"]["you"]["hand"], [s["name"] for s in again["room"]["seats"]]) == kept
        for client in (host, *phones, late):
            client.close()
    finally:
        server.stop()
    assert "Traceback" not in "".join(server.output)


def test_a_second_server_on_the_same_file_refuses_to_start_and_names_the_first(tmp_path: Path) -> None:
    data = tmp_path / "rooms.sqlite3"
    first = LiveServer(data=data)
    try:
        args = [a if a != str(first.port) else str(free_port()) for a in first.args]
        second = subprocess.run(args, capture_output=True, text=True, timeout=60)
        said = second.stdout + second.stderr
        assert second.returncode != 0 and "in use by another PartyRummy server" in said
        assert first.url in said  # the first one's address, to go and stop it
        assert first.get("/").count("data-host-token") == 1  # the first one carries on
    finally:
        first.stop()


def test_a_failed_write_rolls_back_and_the_next_one_succeeds(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "rooms.sqlite3")
    journal.open_room("ACEF", "token")
    journal.append_all("ACEF", [{"t": "variant", "name": "party"}])
    other = sqlite3.connect(tmp_path / "rooms.sqlite3", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    with pytest.raises(NotSaved):
        journal.append_all("ACEF", [{"t": "variant", "name": "quick"}])
    assert not journal.db.in_transaction  # rolled back: nothing left open to wedge the next write
    other.execute("ROLLBACK")
    journal.append_all("ACEF", [{"t": "variant", "name": "classic"}])
    [(_, _, events)] = journal.recent_rooms()
    assert [e["name"] for e in events] == ["party", "classic"]
    with pytest.raises(JournalBusy):
        Journal(tmp_path / "rooms.sqlite3")
    journal.close()
    Journal(tmp_path / "rooms.sqlite3").close()  # free again once the first has closed it
    other.close()


def test_a_new_room_the_disk_will_not_keep_is_refused_with_the_reason(tmp_path: Path) -> None:
    from partyrummy.server.app import create_app

    app, _ = create_app({"DATA": tmp_path / "rooms.sqlite3"})
    client = app.test_client()
    local = {"REMOTE_ADDR": "127.0.0.1"}
    assert client.get("/", environ_base=local).status_code == 200
    other = sqlite3.connect(tmp_path / "rooms.sqlite3", isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    refused = client.post("/new", environ_base=local)
    assert refused.status_code == 503 and "could not save" in refused.get_data(as_text=True)
    other.execute("ROLLBACK")
    other.close()
    assert client.post("/new", environ_base=local).status_code == 302
    app.extensions["partyrummy.rooms"].journal.close()
