"""Cards on the phones: the engine that deals, its hand and game machines, views and bots."""
