"""What one viewer sees of a room: the room's own part (seats, rules, clocks, the night) and the game's.

The game's part comes from the engine's views (whitelists); the table they share is built once a version.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from ...rules.variants import Variant, default_variants
from .seats import RECONNECT_GRACE_S, Links, Viewer, health
from .state import RoomState, Seat

__all__ = ["RoomFacts", "TableCache", "room_mine", "room_table", "seat_rows", "variant_menu"]

T = TypeVar("T")


@cache
def _shipped() -> dict[str, str]:
    """Each shipped variant's description. A variant that still has its own is shipped: pages show it translated."""
    return {name: variant.description for name, variant in default_variants().items()}


def variant_menu(variants: dict[str, Variant]) -> list[dict[str, Any]]:
    """The lobby's rule sets, the same in every view; a shipped one's words come from the catalogs."""
    return [
        {"name": n, "description": v.description, "pacing": v.pacing, "shipped": _shipped().get(n) == v.description}
        for n, v in variants.items()
    ]


@dataclass
class TableCache:
    """What every viewer shares (the public table, the pickers of the seats without a phone), built once a
    version however many viewers ask for it."""

    version: int = -1
    value: Any = None

    def get(self, version: int, build: Callable[[], T]) -> T:
        """The value at `version`: `build()` only if this version has none yet."""
        if self.version != version:
            self.version, self.value = version, build()
        return self.value


def seat_rows(seats: list[Seat], links: Links, vip: int | None, dealt: int, now: float) -> list[dict[str, Any]]:
    """Each seat as the screens show it: name, colour, health, and what kind of seat it is."""
    return [
        {
            "seat": i,
            "name": s.name,
            "colour": s.colour,
            "connected": bool(links[s].sids),
            "health": health(s, links[s], now),
            "gone_for": round(now - links[s].gone_since) if links[s].gone_since is not None and s.token else None,
            "vip": i == vip,
            "open": s.open,
            "bot": s.robot.strength if s.robot else None,  # a person may take a bot's seat too
            "waiting": i >= dealt,  # joined late: dealt in at the next hand
            "phoneless": s.phoneless,  # real cards: a player without a phone (the TV, or a helper, answers)
        }
        for i, s in enumerate(seats)
    ]


@dataclass(frozen=True)
class RoomFacts:
    """The room's fixed facts and this moment's derived ones, for `room_view`."""

    code: str
    variant: Variant
    menu: list[dict[str, Any]]
    vip: int | None
    can_join: bool
    clocks: dict[str, Any]
    now: float
    links: Links


def room_table(state: RoomState, facts: RoomFacts) -> dict[str, Any]:
    """The room's part of the table, the same for every viewer: everything but who the viewer is."""
    dealt = state.dealt
    return {
        "code": facts.code,
        "variant": state.variant_name,
        "variants": facts.menu,
        "min_players": facts.variant.min_players,
        "max_players": facts.variant.max_players,
        "seats": seat_rows(state.seats, facts.links, facts.vip, dealt, facts.now),
        "grace_s": RECONNECT_GRACE_S,
        # Whether a newcomer may join now (a new seat); open seats are in "seats" either way.
        "can_join": facts.can_join and not state.locked,
        "started": state.game is not None,
        "paused": state.paused,
        "pace": state.pace,  # the host's pace: "relaxed", "normal" or "quick"
        "locked": state.locked,  # only the TV and phones with a seat (or a rejoin ticket) may come in
        "allow_bot_takeover": state.allow_bot_takeover,  # false: phones may take open seats, not bots'
        "mode": state.mode,  # the way the night is played: its game part's name ("phones", "real")
        "allow_helpers": state.allow_helpers,  # real cards: seated phones may answer for the phone-less seats
        "phoneless_ready": state.phoneless_ready,  # real cards: the phone-less seats are Ready at each "Draw!"
        **facts.clocks,
        "night": list(state.night),  # a copy: the room appends to its own, and a sent view must not change
    }


def room_mine(viewer: Viewer, seat: int | None, controls: bool) -> dict[str, Any]:
    """The room's part of what one viewer alone sees: who they are to it."""
    return {"you": {"role": viewer.role, "seat": seat, "controls": controls}}
