"""Benchmarks: scripts that print speed figures (`make bench`), never assertions."""
