"""What survives a crash: the journal of each room, and its replay."""
