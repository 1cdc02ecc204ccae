"""Playing games: a match, the search worker process, isolation of outside agents,
tournaments and ratings."""
