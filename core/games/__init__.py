"""The game implementations. Importing this package registers every game."""
from . import connect4  # noqa: F401  (registers "connect4")
