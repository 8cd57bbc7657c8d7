"""Names as people read them: a name cleaned of what would hide or reorder it, and the key two names that read
alike share ("Alice", "ALICE", "Аlice" with a Cyrillic А), for the seats and the audience alike."""

from __future__ import annotations

import unicodedata
from typing import Any

from .errors import BadCommand

__all__ = ["clean_name", "name_key"]

# Letters of other scripts that read as Latin ones: a name spelt with them is the same name to the table.
# (The common Cyrillic and Greek look-alikes of Unicode's confusables list, after NFKC and casefold.)
_SKELETON = str.maketrans(
    {
        **dict.fromkeys("аα", "a"), "в": "b", **dict.fromkeys("сϲ", "c"), "ԁ": "d", **dict.fromkeys("еε", "e"),
        "һ": "h", **dict.fromkeys("іιı", "i"), "ј": "j", **dict.fromkeys("кκ", "k"), "ӏ": "l", "м": "m",
        **dict.fromkeys("пη", "n"), **dict.fromkeys("оο", "o"), **dict.fromkeys("рρ", "p"), "ԛ": "q",
        "ѕ": "s", **dict.fromkeys("тτ", "t"), **dict.fromkeys("υ", "u"), **dict.fromkeys("ѵν", "v"),
        "ԝ": "w", **dict.fromkeys("хχ", "x"), **dict.fromkeys("уγ", "y"), "ᴢ": "z",
        "0": "o", "1": "l", "|": "l",
    }
)


def clean_name(value: Any, most: int) -> str:
    """A player's name: NFKC-normalised, trimmed, 1 to `most` characters; no control, format (bidi, invisible) or
    unpaired surrogate characters, which would reorder, hide or break what the table reads."""
    if not isinstance(value, str):
        raise BadCommand("error.name_text")
    # Categories: Cc control, Cf format (bidi overrides, zero-width joiners), Cs surrogates, Co private, Cn unassigned.
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in value):
        raise BadCommand("error.name_control")
    name = " ".join(unicodedata.normalize("NFKC", value).split())
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name):
        raise BadCommand("error.name_control")  # NFKC can make one of them out of others
    shown = any(ch.isalnum() or unicodedata.category(ch) == "So" for ch in name)
    if not 1 <= len(name) <= most or not shown:
        # An empty-looking name (only marks or spaces) is no name.
        raise BadCommand("error.name_length", max=most)
    return name


def name_key(name: str) -> str:
    """A name as people read it: two names with the same key cannot sit at one table ("Alice", "ALICE", "Аlice")."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    bare = "".join(ch for ch in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(ch))
    return " ".join(bare.translate(_SKELETON).split())
