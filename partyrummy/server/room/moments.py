"""What a command's events mean on the screens: the moments the engines announce, as the pages play them.

Each way to play announces its events (rules/events.py, and each engine's own); the screens play a moment for some
of them: a deal (the last hand's too), the call to draw, the cards turning over, a Match!, a Match! the cards did not
bear out, a hand's end, the winners. The server sends them with the table's change they came with (docs/protocol.md,
`table`), so that no page works them out by comparing one state with the next, and a page that loads or comes back
plays none of what it did not see happen.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...phones.commands import Dealt
from ...realcards.events import Entered, TableSet, TurnBegan, WentOut
from ...rules.events import GameEnded, HandScored, Matched, PhaseChanged

__all__ = ["moments_of", "DRAW_PHASES"]

# The phases a call to draw begins ("Draw!", and the last one), in either way to play.
DRAW_PHASES = frozenset({"draw", "last_draw", "ready", "last_ready"})


def moments_of(events: Iterable[Any], hands: int, over_before: bool) -> list[dict[str, Any]]:
    """The moments of one command's `events`, in the order they happened (`hands`: the game's hands, for the last
    one; `over_before`: whether the game was over already, when a correction tells its end again)."""
    found: list[dict[str, Any]] = []
    for event in events:
        match event:
            case Dealt(hand_no=hand_no) | TableSet(hand_no=hand_no):
                found.append({"kind": "deal", "hand": hand_no})
                if hand_no == hands and hands > 1:
                    found.append({"kind": "last", "hand": hand_no})
            case PhaseChanged(phase=phase) if phase in DRAW_PHASES:
                found.append({"kind": "draw"})
            case TurnBegan():
                found.append({"kind": "draw"})  # with turns: each turn is its seat's "Draw!"
            case PhaseChanged(phase="reveal"):
                found.append({"kind": "flip"})
            case Matched(seat=seat) | WentOut(seat=seat):
                found.append({"kind": "match", "seat": seat})
            case Entered(seat=seat, claim=False):
                found.append({"kind": "false", "seat": seat})  # a Match! its cards did not bear out
            case HandScored():
                found.append({"kind": "over"})
            case GameEnded() if not over_before:
                found.append({"kind": "win"})
    return [m for i, m in enumerate(found) if m not in found[:i]]
