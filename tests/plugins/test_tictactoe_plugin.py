"""A fifth game added the plugin way: the tic-tac-toe package in examples/tictactoe,
which plyground finds only through its entry point (group `plyground.games`). Nothing
in core/ or tui/ names it; these tests play it through the CLI, the app and every
agent that says it can.

The package must be installed (`make test` does it); without it these tests fail.
"""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from plyground.core import BadSetting, game_entries, get_game
from plyground.core.catalogue import parse_agent
from plyground.core.catalogue import agent_kinds
from plyground.core.game import game_entry
from plyground.tui.screens.result import ResultScreen
from plyground.tui.screens.setup import SetupScreen, player_choices, playable_games
from tests.tui.helpers import SIZE, make_app, record_notifications, settled, wait_until

BUILT_IN = ["connect4", "cephalopod", "boom", "quarto"]
GENERIC = ["random", "greedy", "minimax", "alphabeta", "mcts"]
NOT_FOR_TICTACTOE = ["seed", "perfect", "ga"]
INSTALL = ("the tic-tac-toe example (examples/tictactoe) is not installed in this "
           "environment: run `make test`, or `.venv/bin/python -m pip install "
           "--no-build-isolation -e examples/tictactoe`")


@pytest.fixture(autouse=True, scope="module")
def installed():
    """Fail, never skip, where the package is missing."""
    points = [p for p in entry_points(group="plyground.games") if p.name == "tictactoe"]
    if importlib.util.find_spec("plyground_tictactoe") is None or not points:
        pytest.fail(INSTALL, pytrace=False)


@pytest.fixture
def game():
    return get_game("tictactoe")


def cell_keys(game, texts: str) -> list[str]:
    """The keys 1-9 (keypad layout) that play the cells `texts` names."""
    return [str(game.parse_cell(text) + 1) for text in texts.split()]


# --- registration ------------------------------------------------------------------------

def test_it_is_found_through_its_entry_point_after_the_built_in_games(game):
    import plyground_tictactoe

    (point,) = [p for p in entry_points(group="plyground.games") if p.name == "tictactoe"]
    assert point.value == "plyground_tictactoe:ENTRY"
    ids = [entry.id for entry in game_entries()]
    assert ids[:4] == BUILT_IN and "tictactoe" in ids[4:]
    entry = game_entry("tictactoe")
    assert entry is plyground_tictactoe.ENTRY and entry.title == "Tic-tac-toe"
    assert game.title == "Tic-tac-toe" and game.entry is entry
    assert entry in playable_games()  # it has a board: the app offers it


def test_core_and_tui_do_not_name_it():
    root = Path(__file__).resolve().parents[2]
    for folder in ("core", "tui"):
        for path in (root / folder).rglob("*.py"):
            assert "tictactoe" not in path.read_text(encoding="utf-8"), path


# --- agents ------------------------------------------------------------------------------

@pytest.mark.parametrize("spec", ["random:seed=3", "greedy:seed=3", "minimax:depth=4",
                                  "alphabeta:depth=9", "mcts:iterations=300,seed=3"])
def test_every_generic_agent_plays_whole_games_on_both_sides(game, spec):
    opponent = parse_agent("random:seed=5")
    for agents in ((parse_agent(spec), opponent), (opponent, parse_agent(spec))):
        state = game.start()
        while state.outcome() is None:
            move = agents[state.to_move].choose(state)
            state = state.play(move)  # an illegal move would raise here
        assert state.outcome().reason in ("X has three in a row", "O has three in a row",
                                          "the board is full")


def test_agents_made_for_other_games_are_not_offered(game):
    kinds = agent_kinds()
    assert all(kinds[kind].plays(game) for kind in GENERIC)
    assert not any(kinds[kind].plays(game) for kind in NOT_FOR_TICTACTOE)
    offered = {choice.partition(":")[0] for _, choice in player_choices(game)}
    assert set(GENERIC) <= offered and not offered & set(NOT_FOR_TICTACTOE)
    with pytest.raises(BadSetting, match="cannot play Tic-tac-toe"):
        parse_agent("perfect").decide(game.start())


def test_its_own_bot_comes_through_the_agents_entry_point_and_plays_only_it(game):
    points = {p.name: p.value for p in entry_points(group="plyground.agents")}
    assert points.get("ttt-perfect") == "plyground_tictactoe.bots:PerfectTicTacToe", INSTALL
    bot = agent_kinds()["ttt-perfect"]
    assert bot.plays(game) and not bot.plays(get_game("connect4"))
    assert ("Perfect tic-tac-toe", "ttt-perfect") in player_choices(game)
    assert "ttt-perfect" not in {c for _, c in player_choices(get_game("connect4"))}
    state = game.parse_position("a1 b2 a2")  # O must block at a3
    assert game.format_move(parse_agent("ttt-perfect").choose(state)) == "a3"


def test_alphabeta_proves_the_empty_board_a_draw_and_minimax_sees_the_whole_tree(game):
    alphabeta = parse_agent("alphabeta:depth=9").decide(game.start())
    assert alphabeta.value == 0 and alphabeta.depth == 9
    minimax = parse_agent("minimax:depth=9").decide(game.start())
    assert minimax.value == 0 and minimax.work == 549_946
    assert alphabeta.work < minimax.work // 50


# --- the CLI -----------------------------------------------------------------------------

def plyground_command() -> list[str]:
    """The installed console script (a fresh process finds the game by its entry point)."""
    script = Path(sys.executable).with_name("plyground")
    return [str(script)] if script.exists() else [sys.executable, "-m", "plyground"]


def test_the_cli_plays_a_whole_game_to_the_draw(game):
    result = subprocess.run(
        plyground_command() + ["demo", "tictactoe", "--x", "minimax:depth=9",
                               "--o", "alphabeta:depth=9", "--quiet"],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    verdict, record = result.stdout.strip().splitlines()
    assert verdict == "draw"
    state = game.parse_position(record)
    assert state.ply == 9 and state.outcome().winner is None


def test_the_cli_prints_the_board_and_refuses_a_bad_position():
    shown = subprocess.run(plyground_command() + ["demo", "tictactoe", "--x", "greedy",
                                                  "--o", "greedy", "--position", "b2 a1"],
                           capture_output=True, text=True, timeout=300)
    assert shown.returncode == 0 and "───┼───┼───" in shown.stdout
    bad = subprocess.run(plyground_command() + ["demo", "tictactoe", "--x", "greedy",
                                                "--o", "greedy", "--position", "b2 b2"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 2
    assert "move 2 plays b2, which is already taken" in bad.stderr + bad.stdout


# --- the app -----------------------------------------------------------------------------

async def test_the_setup_screen_offers_it_and_starts_it():
    app = make_app(game_id=None)
    async with app.run_test(size=SIZE) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        assert "tictactoe" in [entry.id for entry in playable_games()]
        setup.query_one("#game").value = "tictactoe"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.game_screen is not None)
        assert app.game_screen.match.game.id == "tictactoe"
        assert type(app.game_screen.board).__name__ == "TicTacToeBoard"


async def test_a_human_move_by_key_the_agent_answers_and_the_game_ends_with_its_result():
    app = make_app("tictactoe", sides=("human", "alphabeta:depth=9"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        game = screen.match.game
        await pilot.press("5")  # b2
        await wait_until(pilot, lambda: screen.match.state.ply == 2)
        assert screen.match.move_texts()[0] == "b2"
        while screen.match.outcome is None:  # the human takes the first empty cell
            await settled(pilot, app)
            if screen.match.outcome is not None:
                break
            before = screen.match.state.ply
            await pilot.press(str(screen.match.state.moves()[0] + 1))
            await wait_until(pilot, lambda: screen.match.state.ply > before)
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        outcome = screen.match.outcome
        replay = game.parse_position(" ".join(screen.match.move_texts()))
        assert replay.outcome() == outcome
        assert outcome.winner == 1  # alpha-beta punishes the human's careless play
        result = app.screen
        assert (result.title_text, result.reason) == ("O wins", "O has three in a row")
        board = screen.board
        assert board.win_cells == replay.line_cells() != 0
        assert "O wins: O has three in a row." in str(screen.query_one("#status").content)


async def test_arrows_enter_digits_and_clicks_place_and_a_taken_cell_is_refused():
    app = make_app("tictactoe", sides=("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        messages = record_notifications(app)
        screen, board = app.game_screen, app.game_screen.board
        assert board.cursor == 4 and board.interactive
        await pilot.press("up", "left", "enter")  # from the centre to a3
        await pilot.press(*cell_keys(screen.match.game, "b2"))
        await pilot.pause()
        assert screen.match.move_texts() == ["a3", "b2"]
        await pilot.press("5")  # b2 again
        await pilot.pause()
        assert screen.match.move_texts() == ["a3", "b2"]
        assert any("Not played: b2 is taken (by O)" in m for m in messages)
        width, height = board.cell_size  # click c1: column 3, the bottom row
        await pilot.click("#board", offset=(2 + 2 + 2 * (width + 1) + width // 2,
                                            1 + 2 * (height + 1) + height // 2))
        await pilot.pause()
        assert screen.match.move_texts() == ["a3", "b2", "c1"]
        assert "[" in board.render().plain  # the last move is marked


async def test_the_board_is_drawn_compact_on_a_small_screen_and_mcts_shows_its_heat():
    app = make_app("tictactoe", sides=("human", "mcts:iterations=300,seed=1"))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.game_screen
        assert not screen.board.large
        await pilot.press("1")  # a1
        await settled(pilot, app)
        heat = screen.board.heat
        assert len(screen.match.moves) == 2 and abs(sum(heat.values()) - 1) < 1e-9
        lines = screen.board.render().plain.splitlines()
        assert len(lines) == 6 and lines[-1].split() == ["a", "b", "c"]
