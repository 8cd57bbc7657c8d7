"""What a refusal says to a player, read through the English catalog (the engine itself speaks no language)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from partyrummy.i18n import default_catalogs
from partyrummy.rules.errors import RummyError


def english(error: RummyError) -> str:
    return default_catalogs().text("en", error.key, **error.params)


@contextmanager
def refused(kind: type[Exception], words: str) -> Iterator[None]:
    """Like pytest.raises(kind), and the player reads a sentence matching `words` (a regex)."""
    with pytest.raises(kind) as info:
        yield
    said = english(info.value)
    assert re.search(words, said), f"{said!r} does not say {words!r}"
