"""What a hand of either way to play knows from its number alone: how many cards each seat is dealt and which
rank is wild, as the variant says."""

from __future__ import annotations

from .variants import Variant

__all__ = ["NumberedHand"]


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
