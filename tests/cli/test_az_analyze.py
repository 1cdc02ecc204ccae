"""`plyground analyze GAME POS --agent az:...` says what an az value is: the search's
mean of its network's values (no playouts), not a win probability nor a proof; MCTS's
mean result still says playouts. Figures are the decision's own (the same agent asked
directly), not typed in."""
from __future__ import annotations

import json

from typer.testing import CliRunner

from plyground.core import parse_game
from plyground.core.agents.learned.net import Net, NetConfig, save_net
from plyground.core.catalogue import parse_agent
from plyground.tui import cli


def analyze(*args: str) -> tuple[dict, str]:
    """The JSON report and the text of `plyground analyze tictactoe b2 ARGS`."""
    runs = [CliRunner().invoke(cli.app, ["analyze", "tictactoe", "b2", *args, *extra])
            for extra in (["--json"], [])]
    for result in runs:
        assert result.exit_code == 0, result.output
    return json.loads(runs[0].stdout), runs[1].stdout


def test_an_az_value_is_named_a_network_mean_not_playouts(tmp_path):
    game = parse_game("tictactoe")
    encoding = game.encoding()
    path = tmp_path / "ttt.npz"
    save_net(Net.new(NetConfig(encoding.shape, encoding.policy_size, channels=8,
                               blocks=1), 2), path, {"game": game.spec})
    spec = f"az:net={path},sims=30,seed=4"
    report, text = analyze("--agent", spec)
    done = parse_agent(spec).decide(game.parse_position("b2"))
    assert report["value_kind"] == "network mean"
    assert report["best_move"] == game.format_move(done.best_move)
    assert report["value"] == done.value
    flat = " ".join(text.split())
    assert (f"best move {report['best_move']}, mean network value "
            f"{100 * done.value:.1f}% over 30 simulations: the search's mean of its "
            "network's estimates of the positions it reached (no playouts), not a win "
            "probability nor a proof") in flat, text
    assert "playouts ended" not in flat and "each move's mean network value:" in flat


def test_mcts_still_says_playouts():
    report, text = analyze("--agent", "mcts:iterations=100,seed=1")
    assert report["value_kind"] == "mean result"
    assert "how its random playouts ended" in " ".join(text.split())
