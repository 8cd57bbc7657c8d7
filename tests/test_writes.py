"""A room's journal as its parts write to it (server/room/writes.py): what a part left waiting goes first, in the
same write, and the part is told whether it was kept; a disk that refuses refuses it all."""

from __future__ import annotations

import pytest

from partyrummy.server.room.refused import Refused
from partyrummy.server.room.writes import Writes
from partyrummy.server.storage.journal import NotSaved


def test_what_waits_goes_first_in_the_same_write_and_its_part_hears_it_was_kept() -> None:
    written: list[list[dict]] = []
    waiting = [{"t": "pick", "n": 1}, {"t": "pick", "n": 2}]
    told: list[object] = []
    writes = Writes("ROOM", lambda code, events: written.append(list(events)))
    writes.first(lambda: list(waiting), told.append)
    writes({"t": "start"})
    assert written == [[{"t": "pick", "n": 1}, {"t": "pick", "n": 2}, {"t": "start"}]]
    assert told == [None]


def test_a_disk_that_refuses_refuses_the_whole_write_and_says_so() -> None:
    def full(code: str, events: list[dict]) -> None:
        raise NotSaved("disk full")

    told: list[object] = []
    writes = Writes("ROOM", full)
    writes.first(lambda: [{"t": "pick"}], told.append)
    with pytest.raises(Refused) as refused:
        writes({"t": "start"})
    assert refused.value.key == "error.not_saved" and told == [refused.value]
