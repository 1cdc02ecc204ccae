"""The labelled positions a `positions` check scores against: read as data, each fault
one `FILE:LINE:` line, written back byte for byte, and the example class's Connect 4
labels those of the exact solver and of the published benchmark scores."""
from __future__ import annotations

from pathlib import Path

import pytest

from plyground.core.game import get_game
from plyground.core.grade.label import recheck, solver_labeller
from plyground.core.grade.positions import (Labelled, PositionsFault, format_positions,
                                            read_positions, write_positions)

from ..reference import read_scored_positions, shared_data

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "class" / "positions.txt"
HEADER = ("# plyground labelled positions\n# game: connect4\n# labeller: solver\n"
          "# budget: exact (no limit)\n")
GOOD = "251 | 4 | 1=-3 2=-2 3=0 4=4 5=-2 6=-2 7=-4\n"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "positions.txt"
    path.write_text(text)
    return path


def test_a_file_written_reads_back_the_same_and_writes_the_same_bytes(tmp_path):
    connect4, quarto = get_game("connect4"), get_game("quarto")
    c4 = [Labelled(connect4.parse_position("251"), (3, 5), ((3, 2), (4, -1), (5, 2))),
          Labelled(connect4.start(), (3,), ())]
    state = quarto.parse_position("0.81/..../..../.... b")
    moves = state.moves()[:3]
    q = [Labelled(state, (moves[1],), ((moves[0], -2.5), (moves[1], 7), (moves[2], 0)))]
    for game, entries in ((connect4, c4), (quarto, q)):
        path = tmp_path / f"{game.id}.txt"
        header = {"labeller": "alphabeta:depth=2", "budget": "depth=2",
                  "command": "plyground grade label x"}
        write_positions(path, game, header, entries)
        read = read_positions(path, game)
        assert list(read.positions) == entries
        assert read.header["game"] == game.spec and read.header["budget"] == "depth=2"
        assert format_positions(game, read.header, read.positions) == path.read_text()


def test_an_existing_file_is_replaced_only_when_asked(tmp_path):
    from plyground.core.paths import NotReplaced

    game = get_game("connect4")
    path = write(tmp_path, "old")
    entries = [Labelled(game.parse_position("4"), (3,), ())]
    with pytest.raises(NotReplaced):
        write_positions(path, game, {"labeller": "solver"}, entries)
    assert path.read_text() == "old"
    write_positions(path, game, {"labeller": "solver"}, entries, overwrite=True)
    assert read_positions(path, game).positions == tuple(entries)


@pytest.mark.parametrize("text, line, said", [
    (HEADER + "251 4 1=-3\n", 5, "with two `|`, not 0"),
    (HEADER + "25x | 4\n", 5, "not a Connect 4 position"),
    (HEADER + GOOD + "1212121 | 1\n", 6, "a finished game is not a position"),
    (HEADER + "251 | 8\n", 5, "'8' is not a legal move here"),
    (HEADER + "251 |  | 1=0\n", 5, "no best move is given"),
    (HEADER + "251 | 4 4\n", 5, "the move '4' is given twice"),
    (HEADER + "251 | 4 | 4=x\n", 5, "'x' is not a number"),
    (HEADER + "251 | 4 | 4=inf\n", 5, "not a finite number"),
    (HEADER + "251 | 4 | 4\n", 5, "is not MOVE=VALUE"),
    (HEADER + "251 | 3 | 3=0 4=4\n", 5,
     "the best moves are not those with the best value (4)"),
    (HEADER + "251 | 4 | 3=0 4=4 | 5=1\n", 5, "not 3"),
    (HEADER + GOOD + GOOD, 6, "the position is given twice (line 5 too)"),
    ("# game: connect4\n" + GOOD, 2, "the header does not say `# labeller: ...`"),
    ("# game: quarto\n# labeller: solver\n" + GOOD, 1,
     "labels quarto positions, not connect4"),
    (HEADER, 4, "the file has no positions"),
])
def test_each_malformed_line_is_one_fault_that_names_its_file_and_line(tmp_path, text,
                                                                      line, said):
    path = write(tmp_path, text)
    with pytest.raises(PositionsFault) as raised:
        read_positions(path, get_game("connect4"))
    message = str(raised.value)
    assert message.startswith(f"{path}:{line}: ") and said in message, message
    assert "\n" not in message


def published_scores() -> dict[str, int]:
    folder = shared_data("connect4")
    return {moves: score for file in sorted(folder.glob("Test_L*"))
            for moves, score in read_scored_positions(f"connect4/{file.name}")}


def test_the_example_labels_are_the_solvers_and_the_published_scores():
    game = get_game("connect4")
    read = read_positions(EXAMPLE, game)
    assert read.header["labeller"] == "solver"
    assert read.header["command"].startswith("plyground grade label connect4 ")
    assert len(read.positions) >= 10
    published = published_scores()
    for entry in read.positions:
        moves = game.format_position(entry.state)
        # every example position is from the benchmark sets: its best move's score is
        # the position's published score
        assert moves in published, moves
        assert max(value for _, value in entry.values) == published[moves], moves
        assert len(entry.values) == len(entry.state.moves())
    labeller = solver_labeller()
    assert [recheck(entry, labeller) for entry in read.positions] == \
        [None] * len(read.positions)
