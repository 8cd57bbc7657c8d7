"""PartyRummy: Three-Thirteen rummy for a room full of people.

The rules engine (cards, variants, melds, hand, game, views) is plain Python
with no web import; `partyrummy.server` is the shell that serves it.
"""

__version__ = "0.1.0"
