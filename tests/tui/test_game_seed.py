"""The game's seed in the app: `play --seed N` replays `demo --seed N`, the players line
shows the seed, `n` keeps it, and the setup screen's Seed field."""
from __future__ import annotations

from typer.testing import CliRunner

from plyground.core.catalogue import parse_agent
from plyground.core.play.match import seeded
from plyground.core.rng import derive_seed
from plyground.tui import cli
from plyground.tui.screens.result import ResultScreen
from plyground.tui.screens.setup import SetupScreen
from tests.tui.helpers import SIZE, make_app, settled, wait_until

MCTS = "mcts:iterations=200"


def players_line(app) -> str:
    return str(app.game_screen.query_one("#players").content)


def demo_record(seed: int) -> str:
    result = CliRunner().invoke(cli.app, ["demo", "connect4", "--x", MCTS, "--o", MCTS,
                                          "--seed", str(seed), "--quiet"])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()[1]


async def test_the_app_with_a_seed_plays_the_demo_with_that_seed_and_n_replays_it():
    record = demo_record(5)
    app = make_app(sides=(MCTS, MCTS), seed=5)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.game_screen
        # the engine child gets the derived seed in the spec it parses
        assert [agent.spec for agent in screen.match.agents] == [
            f"{MCTS},seed={derive_seed(5, side)}" for side in (0, 1)]
        assert "seed 5" in players_line(app)
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        assert "".join(screen.match.move_texts()) == record
        await pilot.press("escape")  # back to the game, then a new one: the same seed
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultScreen))
        assert "".join(screen.match.move_texts()) == record
        assert "seed 5" in players_line(app)


def test_a_spec_that_names_its_seed_keeps_it():
    agent = parse_agent("mcts:seed=3")
    assert seeded(agent, 5, 1).settings["seed"] == 3
    assert seeded(agent, None, 1) is agent
    assert seeded(parse_agent("minimax:depth=2"), 5, 0).spec == "minimax:depth=2"


async def test_the_setup_screens_seed_valid_empty_and_bad():
    app = make_app(game_id=None, seed=None)
    async with app.run_test(size=SIZE) as pilot:
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        seed_box = setup.query_one("#seed")
        assert seed_box.value == ""
        error = setup.query_one("#setup-error")

        seed_box.value = "abc"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is setup and app.game_screen is None
        assert str(error.content) == "Seed: 'abc' is not a whole number"
        for typed in ("-5", "18446744073709551616"):  # --seed's range: 64 bits
            seed_box.value = typed
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert app.screen is setup and app.game_screen is None
            assert str(error.content) == (f"Seed: {typed} is not a whole number from 0 "
                                          "to 18446744073709551615")

        seed_box.value = " 4127 "
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.game_screen is not None)
        match = app.game_screen.match
        assert match.seed == 4127 and "seed 4127" in players_line(app)
        assert match.agents[1].settings["seed"] == derive_seed(4127, 1)
        await settled(pilot, app)
        await pilot.press("escape")  # the setup screen keeps the Seed as typed
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert app.screen is setup and seed_box.value == " 4127 " and error.content == ""

        seed_box.value = ""  # empty: a seed drawn for the game, and shown
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.game_screen is not None)
        seed = app.game_screen.match.seed
        assert isinstance(seed, int) and f"seed {seed}" in players_line(app)


async def test_a_game_opened_with_a_seed_offers_it_in_the_setup_screen():
    app = make_app(sides=("human", MCTS), seed=77)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, app)
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SetupScreen))
        assert app.screen.query_one("#seed").value == "77"
