"""Who gets in, and how much of the laptop anyone may hold: every limit, the shares, the guard, deadlines."""
