"""The rules every way to play shares: cards, melds, variants, seats, scores, the story, errors."""
