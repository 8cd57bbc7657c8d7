"""The pages' scripts read what the server says a seat may do and what the table is doing (`can`, `call`,
`window`, `revealed`, `readying`, `asking`, `scored`, `last_cycle`), never work out the rules from the phase: a phase
may name the words a page writes (a table of functions that make them), never a fact it acts on (a table of flags or
names by phase), and it is never compared."""

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


# A table of facts by phase: an object literal with phases' names for keys and plain values (flags, names); two on
# a line at least (a moment called "draw" shares a phase's name).
PHASES = "setup|draw|choose|reveal|last_draw|last_choose|scored|ready|last_ready|turn|last_turn|entry"
FACT_TABLE = re.compile(rf"\b({PHASES})\s*:\s*(true|false|\d+|\"[^\"]*\"|'[^']*')")
# The window after "Discard!" worked out from the cycle rather than read (`revealed`).
WINDOW_WORKED_OUT = re.compile(r"window\s*&&\s*[\w.]*cycle\s*>\s*0")


def test_the_check_finds_a_table_of_facts_by_phase_and_the_window_worked_out() -> None:
    text = 'const READY = { ready: true, last_ready: true };\nconst M = { reveal: "flip" };\n'
    text += "if (g.window && g.cycle > 0) x();\n"
    assert [len(FACT_TABLE.findall(line)) for line in text.splitlines()] == [2, 1, 0] and WINDOW_WORKED_OUT.search(text)
    assert not FACT_TABLE.search("const STEPS = { ready: (game) => t('call.draw') };")  # words: a page's own


def test_no_page_script_keeps_a_table_of_facts_by_phase_or_works_out_the_window() -> None:
    found = {}
    for path in sorted(SCRIPTS.glob("*.js")):
        lines = [line.strip() for line in path.read_text().splitlines()
                 if len(FACT_TABLE.findall(line)) >= 2 or WINDOW_WORKED_OUT.search(line)]
        if lines:
            found[path.name] = lines
    assert not found
