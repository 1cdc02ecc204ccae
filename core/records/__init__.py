"""What is kept of games: the record format, the game tree, the history database,
named positions."""
