"""Study: reviewing a game, lessons, perft."""
