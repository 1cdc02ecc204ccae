"""Connect 4's exact wing: the perfect solver, its opening book, exact analysis and
the perfect agent."""
