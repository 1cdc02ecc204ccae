"""Game records (core/records/record.py) and game trees (core/records/tree.py).

Round trips for each game (variations, comments, a start position, finished, forfeited
and unfinished games), every kind of error naming its line (and its move), loading and
atomic saving, and what a person editing a record by hand may write."""
from __future__ import annotations

import os
import random
import re
import stat
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from plyground.core import parse_game
from plyground.core.errors import IllegalMove, PlygroundError
from plyground.core.game import Outcome, Termination
from plyground.core.records.tree import GameNode, GameTree
from plyground.core.play.match import Match
from plyground.core.records.record import (GameRecord, RecordError, format_record,
                                           load_record, parse_record, record_of,
                                           save_record)
from plyground.core.paths import write_atomically

SPECS = ["connect4", "boom", "cephalopod", "cephalopod:rows=3,cols=3", "quarto"]
DATE = "2026-11-23T14:02:11"


# --- helpers -----------------------------------------------------------------------

def random_tree(game, rng: random.Random, plies: int, start=None,
                comment=lambda rng: "a note", variations: float = 0.3) -> GameTree:
    """A main line of up to `plies` random moves, with random variations (nested ones
    too, up to three deep) and comments."""
    tree = GameTree(start or game.start())
    if rng.random() < 0.2:
        tree.root.comment = comment(rng)
    node = tree.root
    for _ in range(plies):
        moves = list(node.state.moves())
        if not moves:
            break
        main = node.add(rng.choice(moves))
        if rng.random() < variations:
            branch(node, rng, [m for m in moves if m != main.move], comment, 3)
        if rng.random() < 0.2:
            main.comment = comment(rng)
        node = main
    return tree


def branch(node: GameNode, rng: random.Random, moves: list, comment, depth: int) -> None:
    """A variation at `node`: one of `moves` and a few random moves after it, each of
    which may have its own variation."""
    if not moves or depth == 0:
        return
    here = node.add(rng.choice(moves))
    for _ in range(rng.randrange(4)):
        if rng.random() < 0.3:
            here.comment = comment(rng)
        replies = list(here.state.moves())
        if not replies:
            return
        following = here.add(rng.choice(replies))
        if rng.random() < 0.25:
            branch(here, rng, [m for m in replies if m != following.move], comment,
                   depth - 1)
        here = following


def shape(node: GameNode) -> tuple:
    """A node and everything below it, as plain values (the moves in order)."""
    return (node.move, node.comment, tuple(shape(child) for child in node.children))


def nesting(node: GameNode) -> int:
    """How many variations deep `node` is (0 on the main line)."""
    return sum(step.parent.children[0] is not step for step in node.path())


def normal_comment(text: str) -> str:
    """A comment as a record keeps it: one line, single spaces, `}` written `)`."""
    return " ".join(text.replace("}", ")").split())


def normalized(node: GameNode) -> tuple:
    return (node.move, normal_comment(node.comment),
            tuple(normalized(child) for child in node.children))


def played(spec: str, seed: int, plies: int | None = None, sides=("human", "human"),
           start=None) -> Match:
    """A match of seeded random moves: `plies` of them (stopping at the end), or to
    the end of the game with None."""
    game = parse_game(spec)
    rng = random.Random(seed)
    match = Match(game, sides, start, seed=seed)
    while match.state.outcome() is None and (plies is None or len(match.moves) < plies):
        match.play(rng.choice(list(match.state.moves())))
    return match


def round_trip(record: GameRecord) -> GameRecord:
    """format, parse, format: the same text; the same moves, tree and outcome."""
    text = format_record(record)
    again = parse_record(text)
    assert format_record(again) == text
    assert again.game == record.game
    assert again.start == record.start
    assert again.moves == record.moves
    assert shape(again.tree.root) == normalized(record.tree.root)
    assert again.players == record.players
    assert again.seed == record.seed
    assert again.date == record.date
    assert again.result == record.result
    assert again.outcome == record.outcome
    return again


def same_match(match: Match, original: Match) -> None:
    assert match.game == original.game
    assert match.start == original.start
    assert match.moves == original.moves
    assert match.state == original.state
    assert match.outcome == original.outcome
    assert match.sides == original.sides
    assert match.seed == original.seed


def error(text: str) -> str:
    """The message of the RecordError reading `text` raises."""
    with pytest.raises(RecordError) as raised:
        parse_record(text)
    assert isinstance(raised.value, PlygroundError)
    return str(raised.value)


C4 = '[Game "connect4"]\n'


# --- round trips ---------------------------------------------------------------------

@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("seed", range(4))
def test_a_game_with_variations_and_comments_round_trips(spec, seed):
    game = parse_game(spec)
    rng = random.Random(seed)
    tree = random_tree(game, rng, rng.randrange(10, 40))
    match = Match(game, ("human", "alphabeta:time=0.5"), seed=seed)
    for move in tree.main_moves():
        match.play(move)
    record = record_of(match, tree, date=DATE)
    assert record.tree is tree
    again = round_trip(record)
    same_match(again.match(), match)


@pytest.mark.parametrize("spec", SPECS)
def test_nested_variations_round_trip(spec):
    """Variations three deep, several at one move, comments everywhere."""
    game = parse_game(spec)
    rng = random.Random(7)
    tree = random_tree(game, rng, 12, variations=1.0,
                       comment=lambda rng: f"note {rng.randrange(100)}")
    assert max(nesting(node) for node in tree.nodes()) >= 2  # one inside another
    match = played(spec, 0, 0)
    for move in tree.main_moves():
        match.play(move)
    text = format_record(record_of(match, tree, date=DATE))
    assert text.count("(") >= 3
    round_trip(parse_record(text))


@pytest.mark.parametrize("spec", SPECS)
def test_a_finished_game_round_trips_with_its_result(spec):
    match = played(spec, 3)
    outcome = match.state.outcome()
    assert outcome is not None
    record = record_of(match, date=DATE)
    assert record.result == {0: "1-0", 1: "0-1", None: "1/2-1/2"}[outcome.winner]
    assert record.reason == (match.game.describe_outcome(outcome)
                             + (f": {outcome.reason}" if outcome.reason else ""))
    assert record.outcome == outcome
    again = round_trip(record)
    assert again.outcome == outcome
    assert again.final == match.state
    same_match(again.match(), match)


@pytest.mark.parametrize("spec", SPECS)
def test_a_forfeited_game_round_trips_with_its_outcome(spec):
    """A decisive result on a position that plays on: the Match comes back with the
    same forfeit, its reason as the agent's failure gave it."""
    match = played(spec, 5, 6)
    assert match.state.outcome() is None
    loser = match.state.to_move
    match.forfeits("Bot (1s) raised ZeroDivisionError: division by zero")
    record = record_of(match, date=DATE)
    assert record.result == ("0-1", "1-0")[loser]
    assert "forfeits" in record.reason
    again = round_trip(record)
    assert again.outcome == match.outcome
    back = again.match()
    same_match(back, match)
    assert back.forfeit == match.forfeit
    assert back.agent_to_move() is None  # the game is over
    assert format_record(record_of(back, date=DATE)) == format_record(record)


def test_a_reason_with_line_breaks_is_written_on_one_line():
    """An agent's failure may span lines (a traceback): the header stays one line."""
    match = played("connect4", 1, 4)
    match.forfeits("Bot raised ValueError: first\nsecond\r\nthird")
    text = format_record(record_of(match, date=DATE))
    assert '[Reason "O wins: X forfeits: Bot raised ValueError: first second third"]' in text
    again = parse_record(text)
    assert again.outcome == Outcome(1, Termination.FORFEIT, "X forfeits: Bot raised "
                                    "ValueError: first second third")


@pytest.mark.parametrize("spec", SPECS)
def test_an_unfinished_game_round_trips(spec):
    match = played(spec, 2, 9, sides=("mcts:time=0.2", "human"))
    record = record_of(match, date=DATE, reason="abandoned")
    assert record.result == "*" and record.outcome is None
    again = round_trip(record)
    assert again.reason == "abandoned"
    back = again.match()
    same_match(back, match)
    assert back.outcome is None
    assert back.agents[0] is not None and back.agents[1] is None


@pytest.mark.parametrize("spec", SPECS)
def test_a_start_position_round_trips_in_the_position_header(spec):
    game = parse_game(spec)
    reached = played(spec, 11, 6).state
    start = game.parse_position(game.format_position(reached))
    assert start != game.start()
    match = played(spec, 12, 8, start=start)
    assert match.start == start and match.moves
    text = format_record(record_of(match, date=DATE))
    assert f'[Position "{game.format_position(start)}"]' in text
    again = round_trip(parse_record(text))
    assert again.start == start
    same_match(again.match(), match)


def test_no_position_header_for_the_usual_start():
    text = format_record(record_of(played("quarto", 1, 3), date=DATE))
    assert "Position" not in text


def test_the_three_by_three_cephalopod_board_keeps_its_options():
    record = parse_record(format_record(record_of(
        played("cephalopod:rows=3,cols=3", 4), date=DATE)))
    assert record.game.spec == "cephalopod:rows=3,cols=3"
    assert record.start.game.rows == 3


def test_an_empty_game_round_trips():
    for spec in SPECS:
        record = record_of(Match(parse_game(spec), ("human", "human")), date=DATE)
        text = format_record(record)
        assert text.endswith("\n\n*\n")
        round_trip(record)


def test_the_format_of_a_connect4_game():
    """Headers in their order, numbers in pairs, the second side's number again after
    a comment and at a variation's start, variations in brackets after the move they
    replace, the result last."""
    game = parse_game("connect4")
    match = Match(game, ("human", "alphabeta:time=1"), seed=1)
    tree = GameTree(game.start())
    for text in "4435":
        match.play(game.parse_move(text, match.state))
    tree.follow(match.moves)
    second = tree.main_line()[1]
    second.comment = "the book move"
    variation = second.add(1)  # 2. 2 instead of 2. 3
    variation.add(2).comment = "a try"
    variation.children[0].add(4)
    record = record_of(match, tree, date=DATE)
    assert format_record(record) == (
        '[Game "connect4"]\n'
        '[First "human"]\n'
        '[Second "alphabeta:time=1"]\n'
        '[Seed "1"]\n'
        f'[Date "{DATE}"]\n'
        '[Result "*"]\n'
        '\n'
        '1. 4 4 {the book move} 2. 3 (2. 2 3 {a try} 3. 5) 2... 5 *\n')
    round_trip(record)


def test_a_comment_on_the_first_move_of_a_variation_is_followed_by_a_number():
    game = parse_game("connect4")
    tree = GameTree(game.start())
    tree.follow([3, 3])
    side = tree.root.add(2)
    side.comment = "why not"
    side.add(2)
    match = Match(game, ("human", "human"))
    match.play(3), match.play(3)
    text = format_record(record_of(match, tree, date=DATE))
    assert "1. 4 (1. 3 {why not} 1... 3) 1... 4 *" in text


def test_long_lines_are_wrapped():
    match = played("cephalopod", 8)
    text = format_record(record_of(match, date=DATE))
    movetext = text.split("\n\n", 1)[1]
    assert all(len(line) <= 79 for line in movetext.splitlines())
    assert len(movetext.splitlines()) > 3
    round_trip(parse_record(text))


def test_other_headers_are_kept():
    text = C4 + '[Event "club night"]\n[Round "3"]\n\n4 4 *\n'
    record = parse_record(text)
    assert record.headers == {"Event": "club night", "Round": "3"}
    assert '[Event "club night"]\n[Round "3"]' in format_record(record)
    round_trip(record)


def test_quotes_and_backslashes_in_values_are_escaped():
    match = Match(parse_game("connect4"), ("human", "human"))
    record = record_of(match, date=DATE, reason='said "no" \\ left')
    text = format_record(record)
    assert r'[Reason "said \"no\" \\ left"]' in text
    assert parse_record(text).reason == 'said "no" \\ left'


def test_a_comment_with_braces_and_line_breaks_round_trips():
    game = parse_game("connect4")
    tree = GameTree.from_moves(game.start(), [3])
    tree.root.children[0].comment = "a {nested}\ncomment  here"
    tree.root.comment = "  before the moves "
    match = Match(game, ("human", "human"))
    match.play(3)
    text = format_record(record_of(match, tree, date=DATE))
    assert "{before the moves} 1. 4 {a {nested) comment here} *" in text
    again = round_trip(parse_record(text))
    assert again.tree.root.children[0].comment == "a {nested) comment here"


def test_a_blank_comment_is_left_out():
    game = parse_game("connect4")
    tree = GameTree.from_moves(game.start(), [3, 3])
    tree.root.children[0].comment = "   "
    match = Match(game, ("human", "human"))
    match.play(3), match.play(3)
    text = format_record(record_of(match, tree, date=DATE))
    assert text.endswith("\n1. 4 4 *\n")


def test_record_of_dates_a_record_now():
    record = record_of(Match(parse_game("connect4"), ("human", "human")))
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", record.date)


# --- property tests ------------------------------------------------------------------

comments = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)


@given(st.sampled_from(SPECS), st.randoms(use_true_random=False), st.integers(0, 60),
       st.data())
def test_random_games_with_variations_and_comments_round_trip(spec, rng, plies, data):
    game = parse_game(spec)
    tree = random_tree(game, rng, plies, comment=lambda rng: data.draw(comments))
    match = Match(game, ("human", "random"), seed=rng.randrange(100))
    for move in tree.main_moves():
        match.play(move)
    if match.outcome is None and rng.random() < 0.3:
        match.forfeits(data.draw(comments))
    record = record_of(match, tree, date=DATE)
    again = round_trip(record)
    same_match(again.match(), match)


header_values = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)


@given(header_values, header_values, header_values)
def test_any_header_value_round_trips_on_one_line(reason, date, event):
    match = Match(parse_game("boom"), ("human", "human"))
    record = record_of(match, date=date or DATE, reason=reason)
    record.headers["Event"] = event
    text = format_record(record)
    again = parse_record(text)
    assert again.reason == " ".join(reason.splitlines())
    assert again.date == " ".join((date or DATE).splitlines())
    assert again.headers.get("Event", "") == " ".join(event.splitlines())
    assert format_record(again) == text


EDITS = st.lists(st.tuples(st.floats(0, 1), st.booleans(),
                           st.sampled_from(list('()[]{};"\\ \n.:x,*-/0123456789abcBr')
                                           + ["1-0", "0-1", "1/2-1/2", "\r", "\ufeff",
                                              "\x85", "é"])),
                 min_size=1, max_size=6)


@given(st.sampled_from(SPECS), st.randoms(use_true_random=False), EDITS)
def test_an_edited_record_reads_or_raises_a_record_error(spec, rng, edits):
    """Characters deleted or inserted anywhere: a GameRecord or a RecordError, never
    another exception; what reads, writes and reads back the same."""
    game = parse_game(spec)
    tree = random_tree(game, rng, rng.randrange(30))
    match = Match(game, ("human", "human"), seed=3)
    for move in tree.main_moves():
        match.play(move)
    text = format_record(record_of(match, tree, date=DATE))
    for where, delete, char in edits:
        at = int(where * len(text))
        text = text[:at] + text[at + 1:] if delete else text[:at] + char + text[at:]
    try:
        record = parse_record(text)
    except RecordError as error:
        assert re.match(r"record line \d+: ", str(error)), str(error)
        return
    assert isinstance(record, GameRecord)
    written = format_record(record)
    assert format_record(parse_record(written)) == written
    try:
        record.match()
    except RecordError as error:
        assert "header" in str(error)


# --- errors ------------------------------------------------------------------------

def test_a_missing_game_header():
    assert error('[First "human"]\n\n4 4 *\n').startswith(
        'record line 1: no [Game "..."] header')
    assert error("").startswith("record line 1: no [Game")


def test_an_unknown_game():
    message = error('[Date "today"]\n[Game "chess"]\n\n*\n')
    assert message.startswith("record line 2: Game is not a game:")
    assert "chess" in message


def test_a_bad_game_option():
    assert error('[Game "cephalopod:rows=4,cols=4"]\n').startswith(
        "record line 1: Game is not a game:")


@pytest.mark.parametrize("line", ['[Game connect4]', '[Game "connect4"',
                                  '[Game "connect4"] x', '[1Game "x"]', '[Game "a"b"]'])
def test_a_bad_header_line(line):
    message = error(f'[Date "today"]\n{line}\n\n*\n')
    assert message.startswith("record line 2: ")
    assert "is not a header" in message and line in message


def test_a_header_given_twice():
    assert error(C4 + '[Seed "1"]\n[Seed "2"]\n').startswith(
        "record line 3: header Seed given twice")
    assert error(C4 + '[game "boom"]\n').startswith(
        "record line 2: header Game given twice")


@pytest.mark.parametrize("seed", ["x", "1.5", "one"])
def test_a_bad_seed(seed):
    assert error(C4 + f'[First "human"]\n[Seed "{seed}"]\n').startswith(
        "record line 3: Seed is not a whole number")


@pytest.mark.parametrize("result", ["1-1", "win", "½-½", "0:1"])
def test_a_bad_result(result):
    message = error(C4 + f'[Result "{result}"]\n\n4 *\n')
    assert message.startswith("record line 2: Result is ")
    assert repr(result) in message and "1-0, 0-1, 1/2-1/2 or *" in message


@pytest.mark.parametrize("spec, position", [
    ("connect4", "48"), ("boom", "12x"), ("cephalopod", "./. r"),
    ("quarto", "..../..../..../.... z")])
def test_a_bad_position(spec, position):
    message = error(f'[Game "{spec}"]\n\n[Position "{position}"]\n')
    assert message.startswith("record line 3: Position is not a position:")


def test_an_illegal_move_names_its_own_line_and_the_move():
    text = (C4 + '[Result "*"]\n\n1. 4 4\n2. 4 4\n3. 4 4 {full now}\n4. 3 3\n5. 3 3\n'
            '6. 4 *\n')
    message = error(text)
    assert message.startswith("record line 9: move '4' (after 4444443333) is not legal")
    assert "is not legal: column 4 is full" in message


def test_an_illegal_move_in_a_variation():
    message = error(C4 + "\n1. 4 4\n2. 4 (2. 3\n2... 3 3. 3 3... 3 4. 3 4... 3\n"
                         "5. 3) 4 *\n")
    assert message.startswith("record line 6: move '3' (after 44333333) is not legal")


def test_a_move_after_the_end_of_the_game():
    message = error(C4 + "\n4 3 4 3 4 3 4\n3\n")
    assert message.startswith("record line 4: move '3' (after 4343434) is not legal:")


@pytest.mark.parametrize("spec, move", [
    ("connect4", "8"), ("connect4", "x"), ("boom", "B"), ("boom", "0"),
    ("cephalopod", "f9"), ("cephalopod", "c3x(c2"), ("cephalopod", "c3x(c2,b3)"),
    ("quarto", "a1"), ("quarto", "a1:5"), ("quarto", ":16")])
def test_a_malformed_or_illegal_first_move(spec, move):
    message = error(f'[Game "{spec}"]\n\n{move} *\n')
    assert message.startswith(f"record line 3: move {move!r} (after the start) is not ")


@pytest.mark.parametrize("moves, message", [
    ("1. 4 4\n2. 3 q5 *", "line 4: move 'q5' (after 443) is not a move:"),
    ("1. 4 4\n2. 3 {a comment\nthat goes on\n3 *",
     "line 4: a comment opened with { is never closed"),
    ("1. 4 4\n{fine} 2. 3 }", "line 4: a } closes no comment"),
    ("1. 4 4\n2. 3 (2. 5\n2... 5\n3. 5 *",
     "line 6: the moves end (*) inside the variation opened on line 4, never closed "
     "with )"),
    ("1. 4 4\n2. 3 (2. 5\n2... 5\n3. 5", "line 4: a variation opened with ( is never "
                                         "closed"),
    ("1. 4 4\n2. 3) *", "line 4: a ) closes no variation"),
    ("(1. 3) 1. 4 *", "line 3: a variation ( must follow the move it replaces"),
    ("{first}\n(1. 3) *", "line 4: a variation ( must follow the move it replaces"),
    ("1. 4 4 *\n\n2. 3", "line 5: '2.' comes after the result * that ends the moves"),
    ("1. 4 4 * {late}", "line 3: 'late' comes after the result * that ends the moves"),
    ("1. 4 4 1-0\n0-1", "line 4: '0-1' comes after the result 1-0 that ends the moves"),
], ids=["malformed move", "unclosed comment", "stray }", "result in a variation",
        "unclosed variation", ") closing nothing", "variation at the start",
        "variation after a comment at the start", "moves after the result",
        "comment after the result", "two results"])
def test_an_error_in_the_moves_names_its_line(moves, message):
    assert error(C4 + "\n" + moves + "\n").startswith("record " + message)


def test_a_result_token_disagreeing_with_the_header():
    message = error(C4 + '[Result "0-1"]\n\n1. 4 4\n1-0\n')
    assert message.startswith(
        "record line 5: the moves end in 1-0 but the Result header says 0-1")


def test_a_result_contradicting_the_final_position():
    text = C4 + '[Seed "2"]\n[Result "1-0"]\n\n1. 1 4 2. 1 4 3. 2 4 4. 2 4 1-0\n'
    message = error(text)
    assert message.startswith("record line 3: the result is 1-0 but the last position "
                              "is O wins (0-1)")
    assert error(C4 + "\n4 3 4 3 4 3 4 0-1\n").startswith(
        "record line 3: the result is 0-1 but the last position is X wins (1-0)")
    assert error(C4 + '[Result "*"]\n4 3 4 3 4 3 4\n').startswith(
        "record line 2: the result is * but the last position is X wins")


def test_a_finished_quarto_draw_must_say_so():
    match = played("quarto", 44)
    assert match.state.outcome().winner is None
    text = format_record(record_of(match, date=DATE)).replace("1/2-1/2", "1-0")
    assert "is draw (1/2-1/2)" in error(text)


def test_the_result_of_a_finished_game_needs_no_header():
    record = parse_record(C4 + "\n4 3 4 3 4 3 4\n")
    assert record.result == "1-0"
    assert record.reason == "X wins: X connects four"
    assert record.outcome == Outcome(0, Termination.LINE, "X connects four")


def test_the_result_token_alone_gives_the_result():
    record = parse_record(C4 + "\n4 3 4 3 0-1\n")
    assert record.result == "0-1" and record.outcome == Outcome(1, Termination.DECLARED)
    assert parse_record(C4 + "\n4 3 4 3\n").result == "*"


def test_a_player_that_names_no_agent_is_a_record_error_from_match():
    record = parse_record(C4 + '[Second "alphabetta:time=1"]\n\n4 *\n')
    assert record.players == ("human", "alphabetta:time=1")
    with pytest.raises(RecordError, match=r"the Second header \('alphabetta:time=1'\) "
                                          "names no player: unknown agent"):
        record.match()


def test_errors_name_the_source():
    with pytest.raises(RecordError, match=r"^games/mine\.txt line 3: "):
        parse_record(C4 + "\n9\n", source="games/mine.txt")


# --- loading and saving --------------------------------------------------------------

def test_save_and_load(tmp_path):
    match = played("boom", 6)
    record = record_of(match, date=DATE)
    path = tmp_path / "game.txt"
    save_record(path, record)
    assert path.read_text(encoding="utf-8") == format_record(record)
    loaded = load_record(path)
    assert format_record(loaded) == format_record(record)
    same_match(loaded.match(), match)
    assert os.listdir(tmp_path) == ["game.txt"]


def test_load_names_the_file_in_its_errors(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(C4 + "\n1. 4 4\n2. 9\n", encoding="utf-8")
    with pytest.raises(RecordError, match=rf"^{re.escape(str(path))} line 4: move '9'"):
        load_record(path)


def test_load_a_missing_file(tmp_path):
    with pytest.raises(RecordError, match="no game record at .*nothing.txt"):
        load_record(tmp_path / "nothing.txt")


def test_load_a_binary_file(tmp_path):
    path = tmp_path / "picture.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\x00")
    with pytest.raises(RecordError, match="is not a text file"):
        load_record(path)


def test_load_a_directory(tmp_path):
    with pytest.raises(RecordError, match=f"cannot read {re.escape(str(tmp_path))}"):
        load_record(tmp_path)


def test_load_a_file_with_a_byte_order_mark_and_windows_line_ends(tmp_path):
    path = tmp_path / "notepad.txt"
    path.write_bytes('\ufeff[Game "connect4"]\r\n\r\n1. 4 4\r\n2. 9 *\r\n'.encode())
    with pytest.raises(RecordError, match="line 4: move '9'"):
        load_record(path)
    path.write_bytes('\ufeff[Game "connect4"]\r\n\r\n1. 4 4\r\n2. 3 *\r\n'.encode())
    assert load_record(path).moves == [3, 3, 2]


@pytest.fixture
def saved(tmp_path):
    """A folder holding one saved record, and a record to save over it."""
    path = tmp_path / "game.txt"
    save_record(path, record_of(played("connect4", 1, 5), date=DATE))
    return path, path.read_bytes(), record_of(played("connect4", 2, 20), date=DATE)


def test_save_is_atomic_when_the_replace_fails(saved, monkeypatch):
    path, before, record = saved

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="No space left on device"):
        save_record(path, record)
    assert path.read_bytes() == before
    assert os.listdir(path.parent) == ["game.txt"]


def test_save_is_atomic_when_the_write_fails_midway(saved, monkeypatch):
    path, before, record = saved
    real_write = os.write

    def fsync(handle):
        real_write(handle, b"half a record")  # what was written is already out
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(OSError, match="Input/output error"):
        save_record(path, record)
    assert path.read_bytes() == before
    assert os.listdir(path.parent) == ["game.txt"]


def test_save_interrupted_leaves_no_temporary_file(saved, monkeypatch):
    """A KeyboardInterrupt goes on up; nothing is left behind."""
    path, before, record = saved

    def interrupt(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupt)
    with pytest.raises(KeyboardInterrupt):
        save_record(path, record)
    assert path.read_bytes() == before
    assert os.listdir(path.parent) == ["game.txt"]


def test_save_into_a_missing_folder(tmp_path):
    with pytest.raises(FileNotFoundError):
        save_record(tmp_path / "no" / "game.txt", record_of(played("boom", 1, 3)))
    assert os.listdir(tmp_path) == []


def test_save_over_a_directory(tmp_path):
    (tmp_path / "game.txt").mkdir()
    with pytest.raises(IsADirectoryError):
        save_record(tmp_path / "game.txt", record_of(played("boom", 1, 3)))
    assert os.listdir(tmp_path) == ["game.txt"]


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_saved_files_get_the_usual_permissions(tmp_path):
    """A new file as the umask makes it (not the 0600 of a temporary file); a file
    saved over keeps its own."""
    umask = os.umask(0o022)
    try:
        path = tmp_path / "game.txt"
        write_atomically(path, "one\n")
        assert stat.S_IMODE(path.stat().st_mode) == 0o644
        path.chmod(0o600)
        write_atomically(path, "two\n")
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert path.read_text() == "two\n"
    finally:
        os.umask(umask)


def test_write_atomically_expands_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    write_atomically("~/record.txt", "text\n")
    assert (tmp_path / "record.txt").read_text() == "text\n"


# --- hand-edited records -------------------------------------------------------------

def test_move_numbers_are_optional_and_not_checked():
    moves = [3, 3, 2, 4]
    assert parse_record(C4 + "\n4 4 3 5 *\n").moves == moves
    assert parse_record(C4 + "\n1. 4 1... 4 2. 3 2... 5 *\n").moves == moves
    assert parse_record(C4 + "\n7. 4 4 3... 3 1. 5 *\n").moves == moves


def test_extra_white_space_and_blank_lines():
    text = ('\n\n  [Game   "connect4"  ]  \n\n\t[Result "*"]\n\n\n   1.   4\t\t4\n\n'
            '  2. 3\n\n   5\n\n   *   \n\n')
    record = parse_record(text)
    assert record.moves == [3, 3, 2, 4]
    assert record.result == "*"


def test_line_comments():
    text = ('; saved by hand\n[Game "connect4"] \n; the moves\n\n1. 4 4 ; the usual '
            'start (with a ( in it\n2. 3 ; and { this\n5 *  ; done\n')
    assert parse_record(text).moves == [3, 3, 2, 4]


def test_a_number_stuck_to_a_move():
    assert parse_record(C4 + "\n1.4 1...4 2.3 5 *\n").moves == [3, 3, 2, 4]
    assert parse_record('[Game "quarto"]\n\n1.:5 1...a1:3 *\n').moves == \
        parse_record('[Game "quarto"]\n\n:5 a1:3 *\n').moves


def test_boom_in_lower_case():
    record = parse_record('[Game "boom"]\n\n'
                          + " ".join("1234567123" + "41") + " b boom *\n")
    assert record.moves[-2:] == [7, 7]
    assert format_record(record).rstrip().endswith("B B *")


def test_cephalopod_captures_in_any_case_and_spacing():
    moves = parse_record('[Game "cephalopod:rows=3,cols=3"]\n\na1 b1 a2 '
                         "B2X(A2, b1) *\n").moves
    assert parse_game("cephalopod:rows=3,cols=3").format_move(moves[-1]) == "b2x(b1,a2)"


def test_a_variation_stuck_to_its_move():
    record = parse_record(C4 + "\n1. 4 4(1... 3)2. 3 *\n")
    assert record.moves == [3, 3, 2]
    assert [child.move for child in record.tree.root.children[0].children] == [3, 2]


def test_a_comment_just_inside_a_variation_goes_with_its_first_move():
    record = parse_record(C4 + "\n1. 4 {main} 4 ({instead} 1... 3 {then}) *\n")
    first = record.tree.root.children[0]
    assert first.comment == "main"
    assert [(c.move, c.comment) for c in first.children] == [(3, ""), (2, "instead then")]
    round_trip(record)


def test_header_names_in_any_case():
    record = parse_record('[game "boom"]\n[RESULT "*"]\n[seed "4"]\n\n1 *\n')
    assert record.game.spec == "boom" and record.seed == 4 and record.headers == {}


def test_comments_between_moves_and_several_on_one_move():
    record = parse_record(C4 + "\n{before} 1. 4 {one} {two}\n{three} 4 *\n")
    assert record.tree.root.comment == "before"
    assert record.tree.root.children[0].comment == "one two three"


def test_a_variation_repeating_the_main_move_adds_nothing_new():
    record = parse_record(C4 + "\n1. 4 4 (1... 4 2. 3) 2. 5 *\n")
    second = record.tree.main_line()[1]
    assert [child.move for child in second.children] == [4, 2]
    round_trip(record)


# --- the game tree -------------------------------------------------------------------

GAME = parse_game("connect4")


def test_add_returns_the_existing_child_or_a_new_last_one():
    tree = GameTree(GAME.start())
    first = tree.root.add(3)
    assert tree.root.add(3) is first
    second = tree.root.add(2)
    assert tree.root.children == [first, second]
    assert second.state == GAME.start().play(2) and second.parent is tree.root
    assert first.on_main_line and not second.on_main_line
    assert tree.has_variations


def test_an_illegal_move_adds_nothing():
    tree = GameTree.from_moves(GAME.start(), [3] * 6)
    end = tree.main_line()[-1]
    with pytest.raises(IllegalMove):
        end.add(3)
    assert end.children == []


def test_promote_and_follow():
    tree = GameTree.from_moves(GAME.start(), [3, 3, 2])
    side = tree.root.children[0].add(4)
    side.add(1)
    assert tree.main_moves() == [3, 3, 2]
    side.promote()
    assert tree.main_moves() == [3, 4, 1]
    node = tree.follow([3, 3])
    assert tree.main_moves() == [3, 3, 2] and node.moves() == [3, 3]
    assert node.depth == 2 and tree.root.depth == 0
    assert tree.follow([3, 4, 1, 1]).moves() == [3, 4, 1, 1]
    assert tree.main_moves() == [3, 4, 1, 1]
    tree.root.promote()  # the root has no parent: nothing to do
    assert len(list(tree.nodes())) == 6


def test_sync_takes_back_the_moves_after():
    tree = GameTree.from_moves(GAME.start(), [3, 3, 2, 2])
    tree.root.children[0].add(1).add(1)
    node = tree.sync([3, 3])
    assert tree.main_moves() == [3, 3] and node.children == []
    assert [child.move for child in tree.root.children[0].children] == [3, 1]
    tree.sync([])
    assert tree.root.children == [] and not tree.has_variations


def test_walk_is_depth_first_main_line_first():
    tree = GameTree.from_moves(GAME.start(), [3, 3])
    tree.root.add(2).add(2)
    tree.root.children[0].add(4)
    assert [node.moves() for node in tree.nodes()] == [[3], [3, 3], [3, 4], [2], [2, 2]]


class Count:
    """A state of a game that goes on for ever: its moves are 0 and 1."""

    def __init__(self, ply: int = 0) -> None:
        self.ply = ply

    def play(self, move: int) -> "Count":
        return Count(self.ply + 1)


def test_a_long_game_is_walked_without_recursion():
    """A tree deeper than Python's recursion limit walks (Cephalopod games run to
    hundreds of moves, and a tree has no limit of its own)."""
    tree = GameTree(Count())
    node = tree.root
    for _ in range(5000):
        node = node.add(0)
    node.parent.add(1)
    assert len(list(tree.nodes())) == 5001
    assert tree.has_variations
    assert node.depth == 5000 and node.on_main_line


def test_a_nodes_repr_is_short():
    tree = GameTree.from_moves(GAME.start(), [3] * 6)
    assert len(repr(tree.main_line()[2])) < 400


# --- the README --------------------------------------------------------------------

def readme_records() -> list[str]:
    """The example records of the README's Game records section."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    section = readme.split("\n## Game records\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```text\n(.*?)```", section, re.DOTALL)


def test_the_readme_examples_read_and_are_written_as_they_are():
    examples = readme_records()
    assert len(examples) == 2
    for text in examples:
        record = parse_record(text)
        assert format_record(record) == text
        assert record.tree.has_variations
    connect4, cephalopod = map(parse_record, examples)
    assert connect4.outcome == Outcome(0, Termination.LINE, "X connects four")
    assert connect4.match().outcome == connect4.outcome
    assert cephalopod.outcome is None
    assert any(node.move.captures and not node.on_main_line
               for node in cephalopod.tree.nodes())
