"""The pages' scripts read what the server says a seat may do (`can`, `call`, `window`, `scored`, `last_cycle`),
never work out the rules from the phase: a phase names words and moments in a table, it is never compared."""

from __future__ import annotations

import re
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent.parent / "static" / "js"

# A phase compared, in any of the ways a script would: an equality either way round, a prefix, a membership, a switch.
COMPARED = re.compile(
    r"phase\s*(===|!==|==|!=)|(===|!==)\s*[\w.]*phase\b|phase\??\.(startsWith|endsWith)\(|"
    r"includes\([\w.]*phase\)|switch\s*\([\w.]*phase\)"
)


def comparisons(text: str) -> list[str]:
    """Each line of `text` that compares a phase."""
    return [line.strip() for line in text.splitlines() if COMPARED.search(line)]


def test_the_check_finds_a_phase_compared_in_every_form() -> None:
    found = comparisons(
        'if (game.phase === "draw") x();\nconst a = "reveal" !== game.phase;\nif (phase?.startsWith("last")) y();\n'
        '["a", "b"].includes(game.phase);\nswitch (game.phase) {}\nconst words = STEPS[game.phase];\n'
    )
    assert len(found) == 5, found


def test_no_page_script_compares_the_phase() -> None:
    found = {path.name: comparisons(path.read_text()) for path in sorted(SCRIPTS.glob("*.js"))}
    assert not {name: lines for name, lines in found.items() if lines}
