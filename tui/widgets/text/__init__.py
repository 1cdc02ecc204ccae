"""Boards as rich renderables, one module a game: the static pictures the CLI prints
(demo, analyze) and the step view shows. A game names its function when it registers
(`GameEntry.renderer`); tui/text_board.py draws the board of any game through it."""
