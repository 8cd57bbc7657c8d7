"""What a hand of either way to play knows from its number alone (how many cards each seat is dealt and which rank
is wild, as the variant says), and when its Match! window is open."""

from __future__ import annotations

from .variants import Variant

__all__ = ["NumberedHand", "window_open"]


class NumberedHand:
    """A base for a hand's record (phones/hand.py's HandState, realcards/phases.py's TableHand), which has these
    two fields."""

    variant: Variant
    hand_no: int  # 1-based

    @property
    def size(self) -> int:
        return self.variant.hand_sizes[self.hand_no - 1]

    @property
    def wild_rank(self) -> int | None:
        return self.variant.wild_rank(self.hand_no)


def window_open(variant: Variant, in_window: bool, at_deal: bool) -> bool:
    """Whether the Match! window is open, as the rules say it: the phase is one of its engine's windows, and the
    deal's only where the variant lets a hand dealt complete call Match! before the first call."""
    return in_window and (not at_deal or variant.setup_match)
