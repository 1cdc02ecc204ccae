"""The rich board pictures the CLI prints."""
from __future__ import annotations

import io

from rich.console import Console

from plyground.core import get_game
from plyground.core.game import load_ref
from plyground.tui.text_board import render_board

GAME = get_game("connect4")


def plain(renderable) -> list[str]:
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(renderable)
    return [line.rstrip() for line in console.file.getvalue().splitlines()]


def test_every_game_of_plyground_declares_a_renderer_that_loads():
    from plyground.core import game_entries

    for entry in game_entries():
        assert callable(load_ref(entry.renderer)), entry.id


def test_connect4_rows_run_from_the_top_with_the_last_move_bracketed():
    lines = plain(render_board(GAME.parse_position("44535")))
    assert len(lines) == 7
    assert lines[:4] == [" ·  ·  ·  ·  ·  ·  ·"] * 4
    assert lines[4] == " ·  ·  ·  O [X] ·  ·"
    assert lines[5] == " ·  ·  O  X  X  ·  ·"
    assert lines[6].split() == list("1234567")


def test_the_start_has_no_marked_move():
    lines = plain(render_board(GAME.start()))
    assert not any("[" in line for line in lines)


def test_discs_are_coloured_by_side():
    console = Console(file=io.StringIO(), width=80, color_system="standard",
                      force_terminal=True)
    console.print(render_board(GAME.parse_position("44")))
    out = console.file.getvalue()
    assert "\x1b[1;31m" in out and "\x1b[1;33m" in out  # bold red X, bold yellow O
