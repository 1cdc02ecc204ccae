"""Agents: the base class and its settings, the built-in kinds, the students' Bot,
and outside engines over the line protocol."""
