"""The event table (server/transport/events.py) is the protocol: every event it holds is in docs/protocol.md and
every event the docs give is in it, with the same say on who may send it; Socket.IO serves exactly its events."""

from __future__ import annotations

import re
from pathlib import Path

from partyrummy.server.app import create_app
from partyrummy.server.transport.events import EVENTS, WHO

DOCS = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def documented() -> dict[str, str]:
    """Each event of the docs' event tables (a table whose first column is "event"), with its "who" cell."""
    found: dict[str, str] = {}
    columns: list[str] | None = None
    for line in DOCS.read_text().splitlines():
        if not line.startswith("|"):
            columns = None
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if cells and cells[0] == "event":
            columns = cells
        elif columns and not set(cells[0]) <= set("-: "):
            who = cells[columns.index("who")] if "who" in columns else cells[columns.index("when")]
            for name in re.findall(r"`(\w+)`", cells[0]):
                found[name] = who
    return found


def test_every_event_is_documented_and_every_documented_event_exists() -> None:
    docs = documented()
    assert set(EVENTS) - set(docs) == set(), "in the code, not in docs/protocol.md"
    assert set(docs) - set(EVENTS) == set(), "in docs/protocol.md, not in the code"


def test_the_docs_say_who_may_send_each_event_as_the_table_does() -> None:
    docs = documented()
    for name, event in EVENTS.items():
        assert event.who in WHO, name
        said = docs[name]
        if event.who == "vip":
            assert "host or VIP" in said, (name, said)
        elif event.who == "host":
            assert said.startswith("host") and "VIP" not in said, (name, said)
        else:
            assert "VIP" not in said and not said.startswith("host"), (name, said)


def test_socketio_serves_the_tables_events_and_nothing_else(tmp_path) -> None:
    _, socketio = create_app({"DATA": tmp_path / "rooms.sqlite3"})
    registered = set(socketio.server.handlers["/"])
    assert registered - {"connect", "disconnect", "*"} == set(EVENTS)
