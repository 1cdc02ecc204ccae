"""`plyground review FILE|ID`: the moves with their labels and values, each side's
accuracy and the value chart; `--json`; bad input as one line on stderr."""
from __future__ import annotations

import json
import random
import re

import pytest
from typer.testing import CliRunner

from plyground.core import get_game
from plyground.core.records.tree import GameTree
from plyground.core.records.record import GameRecord, result_text, save_record
from plyground.core.study.review import LABELS, review
from plyground.tui import cli
from tests.core.positions import connect4_endgames

GAME = get_game("connect4")


def endgame_record() -> GameRecord:
    """A Connect 4 game from a position with 10 empty cells, played out at random."""
    start = connect4_endgames(21, 1, 10)[0]
    rng, moves, state = random.Random(5), [], start
    while state.outcome() is None:
        moves.append(rng.choice(state.moves()))
        state = state.play(moves[-1])
    return GameRecord(GAME, GameTree.from_moves(start, moves), ("random", "greedy"),
                      result=result_text(state.outcome()))


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("review") / "game.txt"
    save_record(path, endgame_record())
    return path


def run(*args: str):
    return CliRunner().invoke(cli.app, ["review", *args])


def test_the_text_gives_each_move_its_label_the_accuracies_and_a_chart(record_file):
    result = run(str(record_file))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "every label exact" in result.stdout
    expected = review(endgame_record())
    table = [line.split() for line in lines if re.match(r"\d+\.+ ", line)]
    assert [row[3] for row in table] == [move.label for move in expected.moves]
    assert [row[2] for row in table] == [str(move.move + 1) for move in expected.moves]
    accuracy = next(line for line in lines if line.startswith("accuracy:"))
    for side in (0, 1):
        assert f"{GAME.side_labels[side]} {expected.accuracy(side):.1f}%" in accuracy
    record = endgame_record()
    assert f"ply {record.start.ply} to {record.final.ply}:" in result.stdout
    zero = next(index for index, line in enumerate(lines) if line.startswith(" 0 "))
    chart = lines[zero - 3:zero + 4]  # three rows above the zero line, three below
    assert chart[0].startswith("+1 ") and chart[-1].startswith("-1 ")
    assert "─" in chart[3] and any("█" in row for row in chart)


def test_json_gives_the_same_review_as_data(record_file):
    result = run(str(record_file), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    expected = review(endgame_record()).to_dict()
    for key in ("game", "position", "analyser", "exact", "accuracy", "counts", "values"):
        assert data[key] == expected[key], key
    assert [move["label"] for move in data["moves"]] == \
        [move["label"] for move in expected["moves"]]
    assert all(move["label"] in LABELS and move["exact"] for move in data["moves"])
    assert set(data["accuracy"]) == set(GAME.side_labels)
    assert len(data["values"]) == len(data["moves"]) + 1
    assert data["players"] == ["random", "greedy"]


def test_another_agent_is_named_and_its_labels_marked_as_estimates(tmp_path):
    opening = tmp_path / "opening.txt"
    opening.write_text('[Game "connect4"]\n\n1. 4 4 2. 5 3 *\n')
    result = run(str(opening), "--agent", "alphabeta:depth=2")
    assert result.exit_code == 0, result.output
    assert "judged by alphabeta:depth=2: 0 of 4 labels exact" in result.stdout
    rows = [line for line in result.stdout.splitlines() if re.match(r"\d+\.+ ", line)]
    assert len(rows) == 4 and all(" ~ " in row for row in rows)  # each an estimate
    data = json.loads(run(str(opening), "--agent", "alphabeta:depth=2", "--json").stdout)
    assert data["analyser"] == "alphabeta:depth=2"
    assert not data["exact"] and not any(move["exact"] for move in data["moves"])


def test_a_game_of_the_history_by_its_number():
    history = pytest.importorskip("plyground.core.records.history")
    with history.History() as games:
        number = games.add(endgame_record(), "import")
    result = run(str(number), "--json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.stdout)["moves"]) == len(endgame_record().moves)


@pytest.mark.parametrize("args, message", [
    (["no-such-game.txt"], "no game record at no-such-game.txt"),
    (["987654"], "no game 987654 in the history"),
    (["{bad}"], "no game record at {bad}"),
])
def test_bad_input_is_one_line_on_stderr(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("error: ") and message in line


def test_a_bad_record_or_agent_is_one_line_on_stderr(tmp_path, record_file):
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "connect4"]\n\n1. 4 4 2. 9 *\n')
    result = run(str(bad))
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert "line 3" in line and "9" in line
    result = run(str(record_file), "--agent", "nobody")
    assert result.exit_code == 2 and "unknown agent 'nobody'" in result.stderr


def lost_position_and_a_move_letting_a_win_in_1_through():
    """The first position of the reference set that is lost for the side to move (with
    the loss not at once), a move there that lets the opponent win on its next move,
    and that winning move: (start, moves, score of the start)."""
    from tests.reference import read_scored_positions

    for text, score in read_scored_positions("connect4/Test_L1_R1"):
        start = GAME.parse_position(text)
        if score >= -1:
            continue
        for move in start.moves():
            after = start.play(move)
            wins = [reply for reply in after.moves() if after.outcome() is None
                    and after.play(reply).outcome() is not None]
            if wins:
                return start, [move, wins[0]], score
    raise AssertionError("no such position in the reference set")


def test_letting_a_win_in_1_through_in_a_lost_game_says_why_it_is_only_an_inaccuracy(
        tmp_path):
    from plyground.core.connect4.solver import value_of
    from plyground.core.values import Score

    start, moves, score = lost_position_and_a_move_letting_a_win_in_1_through()
    end = start.play(moves[0]).play(moves[1])
    path = tmp_path / "lost.txt"
    save_record(path, GameRecord(GAME, GameTree.from_moves(start, moves),
                                 ("random", "greedy"), result=result_text(end.outcome())))
    why = "lets a win in 1 through, but the game was already lost"
    data = json.loads(run(str(path), "--json").stdout)
    first = data["moves"][0]
    assert (first["label"], first["played"], first["note"]) == ("inaccuracy", "loss in 1",
                                                                why)
    assert first["best"] == str(Score(value_of(score, start.ply), start.ply))
    assert data["moves"][1]["note"] == ""
    lines = run(str(path)).stdout.splitlines()
    row = next(index for index, line in enumerate(lines) if re.match(r"\d+\.+ ", line))
    assert lines[row].split()[3] == "inaccuracy"
    assert why in " ".join(" ".join(lines[row:row + 3]).split())  # under the label


def test_in_a_pipe_it_says_at_once_that_it_has_begun(record_file):
    """A long review's first line comes before any position is judged (a terminal
    gets a progress bar instead)."""
    result = run(str(record_file))
    assert result.exit_code == 0, result.output
    record = endgame_record()
    assert result.stderr.splitlines()[0] == \
        f"reviewing {record.final.ply - record.start.ply} moves…"
