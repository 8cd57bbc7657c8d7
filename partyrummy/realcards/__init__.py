"""Real cards on the table: the TV as caller and scorekeeper while people hold real decks.

The engine of the mode, pure like the rest (no web import, no clock, no
global random): `commands` and `events` (what comes in and goes out),
`phases` and `table` (one hand's machine: the caller's Draw!/Ready/Discard!/
Match! cycles or the turns), `entry` (a hand entered at the end: checked
against the shoe, solved) and `scorebook` (the game: hands, totals,
corrections, replay).
"""
