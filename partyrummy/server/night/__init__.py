"""A night of several tables on the server: the night above its rooms, and its pages."""
