"""Clients of the server, as any phone is: `partyrummy bots`."""
