"""Grading a class's agents: the grading spec (spec.py) a teacher writes and
`plyground grade check` reads; the files of positions its checks name."""
