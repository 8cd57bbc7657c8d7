"""What a command's events mean on the screens (server/room/moments.py), and how they go out: with the table's
update they came with, never with a whole state, and none of what a restart replays."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from partyrummy.phones.commands import Choose, Dealt, Draw, Revealed
from partyrummy.realcards.events import Entered, TableSet, TurnBegan, WentOut
from partyrummy.rules.events import GameEnded, HandScored, Matched, PhaseChanged
from partyrummy.server.room.moments import moments_of
from partyrummy.server.room.room import Room, Viewer


def kinds(moments: list[dict]) -> list[str]:
    return [m["kind"] for m in moments]


def test_each_engines_events_make_the_same_moments() -> None:
    dealt = moments_of([Dealt(11, 13, 13), PhaseChanged("setup")], hands=11, over_before=False)
    assert kinds(dealt) == ["deal", "last"]
    assert kinds(moments_of([TableSet(3, 5, 5, 4, None, None)], hands=11, over_before=False)) == ["deal"]
    assert kinds(moments_of([PhaseChanged("draw")], 11, False)) == kinds(moments_of([PhaseChanged("ready")], 11, False))
    assert kinds(moments_of([TurnBegan(2, last=False)], 11, False)) == ["draw"]
    assert kinds(moments_of([Revealed(((0, 1),)), PhaseChanged("reveal")], 11, False)) == ["flip"]
    assert moments_of([Matched(2)], 11, False) == moments_of([WentOut(2)], 11, False) == [{"kind": "match", "seat": 2}]
    assert moments_of([Entered(1, 30, "cards", False)], 11, False) == [{"kind": "false", "seat": 1}]
    assert moments_of([Entered(1, 0, "cards", True)], 11, False) == []
    ended = [PhaseChanged("scored"), HandScored(11, (0, 5)), GameEnded((40, 50), (0,))]
    assert kinds(moments_of(ended, 11, over_before=False)) == ["over", "win"]
    assert kinds(moments_of([GameEnded((40, 50), (0,))], 11, over_before=True)) == []  # a correction told it again


def test_moments_go_with_the_tables_update_and_never_with_a_whole_state(party) -> None:
    published: dict[str, list[dict]] = defaultdict(list)
    variant = replace(party, match_window_s=0, beat_s=0, flip_min_s=0, hurry_after_s=0)
    room = Room("MOMT", {"party": variant}, "party", lambda *a: None,
                publish=lambda name, event, data: published[event].append(data))
    room.attach("tv", Viewer("host", room.host_token))
    for name in ("Ana", "Bob"):
        room.join(f"sid-{name}", name)
    room.start(seed=3)
    room.settle()  # no window to wait for: the caller calls "Draw!" at once
    assert room.state.game.hand.phase.value == "draw"
    for seat in range(2):
        room.play(Draw(seat, "shoe"))
        room.play(Choose(seat, room.state.game.hand.drawn[seat]))
    room.settle()  # everyone has picked: "Discard!", the cards turn over (and, no window, the next "Draw!")
    assert room.state.game.hand.cycle == 2
    said = [m for update in published["table"] for m in update.get("moments", [])]
    assert "draw" in kinds(said) and "flip" in kinds(said)
    assert "moments" not in room.state_for(room.viewers["tv"])  # a whole state: nothing to replay
    # A room rebuilt from its journal (a restart) keeps none of what it replayed to play.
    events: list[dict] = []
    copy = Room("MOMT", {"party": variant}, "party", lambda *a: None, record=lambda code, evs: events.extend(evs))
    for name in ("Ana", "Bob"):
        copy.join(f"sid-{name}", name)
    copy.start(seed=3)
    copy.settle()
    again = Room("MOMT", {"party": variant}, "party", lambda *a: None)
    again.restore(events)
    assert again.state.game == copy.state.game and again.part.take_moments() == []
