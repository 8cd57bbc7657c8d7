"""The wire format both ends read: a view sent whole, then as changes (delta.py). No server and no client
import here, so the remote bots and the tests decode what the server encodes with the same code."""
