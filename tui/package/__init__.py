"""plyground: a terminal workbench for game-playing AI."""
