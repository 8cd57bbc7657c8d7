"""A night of several tables: who plays at which table, each game's rounds, and the night's standings.

Plain Python, no web layer: the server's night (server/night/) keeps this state in its journal and asks the rooms
(each table is a room of its own) for their score sheets.
"""
