"""Parser fuzz (issue 17): every text a user can type, read from valid inputs built
from the real objects, from those inputs mutated, and from any text at all.

What is read is a value or a PlygroundError whose message is one sentence on one
line, never another exception; what is formatted reads back as itself; a setting
given twice is an error. The texts: game specs (`parse_game`), agent specs
(`parse_agent`), the four games' positions and moves, GA profiles (`load_profile`),
the lines `plyground solve` reads (each a Connect 4 position, `parse_position` of the
stripped line, as tui/cli/solve.py reads them) and game records (`parse_record`).
Each bug these properties found has an example below them too.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from plyground.core import parse_game
from plyground.core.errors import BadSetting
from plyground.core.catalogue import agent_kinds, parse_agent
from plyground.core.agents.base import quoted
from plyground.core.ga.profile import (DEFAULT_PROFILE, Profile, ProfileError, load_profile,
                                       profile_json)
from plyground.core.errors import BadOption, NotationError, PlygroundError
from plyground.core.game import game_entry, get_game
from plyground.core.games.connect4 import Connect4
from plyground.core.ga.strategies import GENE_NAMES
from plyground.core.records.tree import GameTree
from plyground.core.records.record import (KNOWN, RESULTS, UNFINISHED, GameRecord,
                                           RecordError, format_record, load_record,
                                           parse_record, said_outcome)

FOUR_GAMES = ("connect4", "boom", "cephalopod", "quarto")
# every rule set of the four games: each game with each of its variants' options
GAMES = [get_game(id, **options) for id in FOUR_GAMES
         for _, options in game_entry(id).variants or (("", {}),)]
CONNECT4 = parse_game("connect4")

# Characters a mutation puts in: the notations' own, white space and line breaks,
# and Unicode that looks like them (digits str.isdigit takes and int() does not).
TRICKY = ("0123456789-+.,:;=/()xXbBrR\"\\ \t\n\r{}[]*_"
          "²٣１é\u00a0\u2028\x85\x0b\x00🎲")
NUMBERS = ("9" * 5000, "1" * 40, "-1", "0", "nan", "inf", "-inf", "1e999", "1_000",
           "0x10", "²", "٣")
ODD_TEXTS = ("", " ", "\n", "\u2028", ":", ",", "=", "=,=", '"', "\\", "no/bot.py:Bot",
             "no.such.module:Bot")


def one_sentence(error: PlygroundError) -> None:
    """The error's message is a sentence for the status bar: not empty, one line."""
    message = str(error)
    assert message.strip(), f"{type(error).__name__} with no message"
    assert len(message.splitlines()) == 1, f"more than one line: {message!r}"


def read(parse, *arguments):
    """`parse(*arguments)`, or None if it raised a PlygroundError saying why in one
    sentence; any other exception fails the test."""
    try:
        return parse(*arguments)
    except PlygroundError as error:
        one_sentence(error)
        return None


@st.composite
def mutated(draw, texts):
    """A text from `texts` with one to three edits: a character deleted, put in or
    replaced, a part written twice, a number put in, or the whole text replaced."""
    text = draw(texts)
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(("delete", "insert", "replace", "twice", "number",
                                     "odd")))
        if edit == "delete":
            text = text[:at] + text[at + 1:]
        elif edit == "insert":
            text = text[:at] + draw(st.sampled_from(TRICKY)) + text[at:]
        elif edit == "replace":
            text = text[:at] + draw(st.sampled_from(TRICKY)) + text[at + 1:]
        elif edit == "twice":
            end = draw(st.integers(at, len(text)))
            text = text[:end] + text[at:end] + text[end:]
        elif edit == "number":
            text = text[:at] + draw(st.sampled_from(NUMBERS)) + text[at:]
        else:
            text = draw(st.sampled_from(ODD_TEXTS))
    return text


def any_text() -> st.SearchStrategy[str]:
    return st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=40)


# --- game specs ----------------------------------------------------------------------

@st.composite
def game_spec_texts(draw) -> tuple[str, object]:
    """(a spec as a person may write it, the game it names): options in any order,
    true/false in any case, spaces around the parts."""
    game = draw(st.sampled_from(GAMES))
    space = st.sampled_from(("", " ", "  "))
    cases = (str, str.lower, str.upper)
    parts = [f"{draw(space)}{name}{draw(space)}={draw(space)}"
             f"{draw(st.sampled_from(cases))(str(value))}{draw(space)}"
             for name, value in game.options().items()]
    parts = draw(st.permutations(parts))
    return game.id + (":" + ",".join(parts) if parts else ""), game


@settings(max_examples=300)
@given(game_spec_texts())
def test_game_specs_read_back(written):
    text, game = written
    assert parse_game(text) == game
    assert parse_game(game.spec) == game and parse_game(game.spec).spec == game.spec


@settings(max_examples=800)
@given(mutated(game_spec_texts().map(lambda written: written[0])) | any_text())
def test_mutated_game_specs_give_a_game_or_say_why(text):
    game = read(parse_game, text)
    if game is not None:
        assert parse_game(game.spec) == game


@settings(max_examples=200)
@given(st.sampled_from([game for game in GAMES if game.options()]), st.data())
def test_a_game_option_given_twice_is_an_error(game, data):
    name, value = data.draw(st.sampled_from(sorted(game.options().items())))
    other = data.draw(st.sampled_from((value, 3, 5, True, False)))
    options = [f"{key}={given}" for key, given in game.options().items()]
    options.insert(data.draw(st.integers(0, len(options))), f"{name}={other}")
    with pytest.raises(BadOption, match="twice") as raised:
        parse_game(f"{game.id}:{','.join(options)}")
    one_sentence(raised.value)


@pytest.mark.parametrize("text", ["cephalopod:rows=3,rows=5",
                                  "cephalopod:rows=3,rows=3",
                                  "quarto:squares=true,squares=false"])
def test_regression_game_option_twice(text):
    """It was read, the last value winning."""
    with pytest.raises(BadOption, match="is given twice"):
        parse_game(text)


@pytest.mark.parametrize("text", ["cephalopod:rows=²",
                                  "cephalopod:rows=" + "9" * 5000],
                         ids=["superscript", "5000 digits"])
def test_regression_game_option_digits_int_cannot_read(text):
    """`²` passes str.isdigit and 5000 digits pass it too; int() raised ValueError."""
    with pytest.raises(BadOption, match="is not a whole number or true/false"):
        parse_game(text)


def test_regression_unknown_game_is_named_before_its_options():
    """An option error named the game as typed, line breaks and all."""
    with pytest.raises(PlygroundError, match="unknown game") as raised:
        parse_game("ceph\x85alopod:rows")
    one_sentence(raised.value)


# --- agent specs ---------------------------------------------------------------------

# every agent kind, and a student's bot named by its file, with their settings
ROOT = Path(__file__).resolve().parents[2]
MY_BOT = f"{ROOT / 'examples' / 'bots' / 'mybot.py'}:MyBot"
FLAGS_BOT = f"{ROOT / 'tests' / 'plugins' / 'bots' / 'flags.py'}:Bot"
SETTINGS = {kind: cls.settings_spec for kind, cls in agent_kinds().items()} | {
    bot: parse_agent(bot).settings_spec for bot in (MY_BOT, FLAGS_BOT)}
# the settings an agent cannot do without, and valid texts for the settings that take
# words (any other text is a file or a command that does not exist)
REQUIRED = {"engine": ("cmd",)}
WORDS = {"cmd": ("./mybot --fast", "python3 my,bot.py", 'bot "quoted" \\ back'),
         "options": ("hash=64 level=3", "level=1"),
         "profile": (str(DEFAULT_PROFILE),), "style": ("calm", "wild one"),
         "net": ("c4.npz", "my nets/v2, final.npz")}


def setting_values(setting) -> st.SearchStrategy:
    if setting.choices:
        return st.sampled_from(setting.choices)
    if setting.type is bool:
        return st.booleans()
    if setting.type is int:  # within its range (test_setting_ranges.py: past it)
        low, high = setting.range()
        return st.integers(int(low), int(high))
    if setting.type is float:
        low, high = setting.range()
        return st.floats(low, high, allow_nan=False, allow_infinity=False)
    return st.sampled_from(WORDS[setting.name])


def setting_text(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return quoted(value) if isinstance(value, str) else repr(value)


@st.composite
def agent_spec_texts(draw) -> tuple[str, str, dict]:
    """(spec, kind, the settings it gives): a real agent kind, some of its settings
    (the required ones always) in any order, each a value it allows."""
    kind = draw(st.sampled_from(sorted(SETTINGS)))
    spec = SETTINGS[kind]
    chosen = [s for s in spec
              if s.name in REQUIRED.get(kind, ()) or draw(st.booleans())]
    values = {s.name: draw(setting_values(s)) for s in draw(st.permutations(chosen))}
    items = [f"{name}={setting_text(value)}" for name, value in values.items()]
    return kind + (":" + ",".join(items) if items else ""), kind, values


@settings(max_examples=300)
@given(agent_spec_texts())
def test_agent_specs_read_back(written):
    text, kind, values = written
    agent = parse_agent(text)
    assert agent.kind == kind
    assert {name: agent.settings[name] for name in values} == values
    again = parse_agent(agent.spec)
    assert again.settings == agent.settings and again.spec == agent.spec


@settings(max_examples=800)
@given(mutated(agent_spec_texts().map(lambda written: written[0])) | any_text())
@example("ga:profile=\x00/core/ga/profiles/default.json")  # found by a CI run
def test_mutated_agent_specs_give_an_agent_or_say_why(text):
    agent = read(parse_agent, text)
    if agent is not None:
        assert parse_agent(agent.spec).settings == agent.settings


@settings(max_examples=200)
@given(agent_spec_texts(), st.data())
def test_an_agent_setting_given_twice_is_an_error(written, data):
    text, kind, values = written
    setting = data.draw(st.sampled_from(SETTINGS[kind]))
    item = f"{setting.name}={setting_text(data.draw(setting_values(setting)))}"
    items = [f"{name}={setting_text(value)}" for name, value in values.items()]
    if setting.name not in values:
        items.append(item)
    items.insert(data.draw(st.integers(0, len(items))), item)
    with pytest.raises(BadSetting, match="twice") as raised:
        parse_agent(f"{kind}:{','.join(items)}")
    one_sentence(raised.value)


def test_regression_engine_option_twice():
    """The engine's own options took the last of two values."""
    with pytest.raises(BadSetting, match="option 'hash' is given twice"):
        parse_agent('engine:cmd=./mybot,options="hash=1 level=2 hash=3"')


@pytest.mark.parametrize("value, read", [("false", False), ("FALSE", False),
                                         ("true", True), ("True", True)])
def test_regression_a_bots_flag_reads_false_as_false(value, read):
    """A bot setting whose default is True or False was read with bool(), and
    bool("false") is True."""
    assert parse_agent(f"{FLAGS_BOT}:careful={value}").settings["careful"] is read


@pytest.mark.parametrize("value", ["0", "yes", "2", ""])
def test_regression_a_bots_flag_is_true_or_false(value):
    with pytest.raises(BadSetting, match="is not true or false") as raised:
        parse_agent(f"{FLAGS_BOT}:careful={value}")
    one_sentence(raised.value)


@pytest.mark.parametrize("text, message", [
    ("quarto:squares=5", "option squares is true or false, not 5"),
    ("quarto:squares=0", "option squares is true or false, not 0"),
    ("cephalopod:rows=true", "option rows is a whole number, not true")])
def test_regression_a_game_option_of_the_wrong_kind(text, message):
    """`quarto:squares=5` was read as the 2×2-squares variant, `rows=true` as 1 row."""
    with pytest.raises(BadOption, match=message) as raised:
        parse_game(text)
    one_sentence(raised.value)


@pytest.mark.parametrize("text", ["alphabeta:time=nan", "alphabeta:time=inf",
                                  "mcts:c=1e999", "mcts:c=-inf"])
def test_regression_numbers_that_are_not_finite(text):
    """They were taken: `time=nan` passed the minimum check (every comparison with
    nan is false), and the spec `time=nan` did not read back as the same agent."""
    with pytest.raises(BadSetting, match="is not a finite number"):
        parse_agent(text)


@pytest.mark.parametrize("value", [0.1234567, 5e-324, 999.12345, 1 / 3])
def test_regression_spec_keeps_every_digit_of_a_number(value):
    """The spec wrote `:g`, six significant digits: `c=0.1234567` came back as
    0.123457, another agent."""
    agent = parse_agent(f"mcts:c={value!r}")
    assert parse_agent(agent.spec).settings["c"] == value
    assert parse_agent("alphabeta:time=0.5").spec == "alphabeta:time=0.5"


def test_regression_spec_quotes_a_word_with_a_comma(tmp_path):
    """A profile path with a comma was written bare, and the spec split it in two."""
    path = tmp_path / "mine, sharp.json"
    path.write_text(DEFAULT_PROFILE.read_text())
    agent = parse_agent(f'ga:profile="{path}",seed=2')
    assert agent.spec == f'ga:profile="{path}",seed=2'
    assert parse_agent(agent.spec).settings == agent.settings


@pytest.mark.parametrize("text", ["9" * 5000 + "/bot.py:Bot", "bots/\nbot.py:Bot",
                                  "bots\u2028.mine:Bot"],
                         ids=["long", "break", "separator"])
def test_regression_bot_file_that_cannot_be_a_file(text):
    """A file name too long for the system raised OSError from Path.is_file; one with
    a line break made the message two lines."""
    with pytest.raises(PlygroundError,
                       match="there is no file|no module named") as raised:
        parse_agent(text)
    one_sentence(raised.value)


# --- positions and moves -------------------------------------------------------------

@st.composite
def played_states(draw, games=GAMES, plies: int = 45):
    """A game and a position of it: random legal moves from its start (to the end of
    the game or `plies` moves)."""
    game = draw(st.sampled_from(games))
    state = game.start()
    for _ in range(draw(st.integers(0, plies))):
        moves = state.moves()
        if not moves:
            break
        state = state.play(draw(st.sampled_from(moves)))
    return game, state


def position_text(played) -> str:
    game, state = played
    return game.format_position(state)


@settings(max_examples=300)
@given(played_states())
def test_positions_read_back(played):
    game, state = played
    text = game.format_position(state)
    if isinstance(game, Connect4) and state.outcome() is not None:
        with pytest.raises(NotationError, match="finished game is not a position"):
            game.parse_position(text)
        return
    again = game.parse_position(text)
    assert again == state and again.to_move == state.to_move
    assert game.format_position(again) == text


@settings(max_examples=800)
@given(st.sampled_from(GAMES),
       mutated(played_states().map(position_text)) | any_text())
def test_mutated_positions_give_a_position_or_say_why(game, text):
    state = read(game.parse_position, text)
    if state is not None:
        assert game.parse_position(game.format_position(state)) == state


@settings(max_examples=300)
@given(played_states(), st.data())
def test_moves_read_back(played, data):
    game, state = played
    for move in data.draw(st.permutations(state.moves()))[:5]:
        text = game.format_move(move)
        assert game.parse_move(text, state) == move
        assert game.parse_move(f" {text.upper()} ", state) == move


@settings(max_examples=600)
@given(played_states(), st.data())
def test_mutated_moves_give_a_legal_move_or_say_why(played, data):
    game, state = played
    texts = st.sampled_from([game.format_move(move) for move in state.moves()] or [""])
    text = data.draw(mutated(texts) | any_text())
    move = read(game.parse_move, text, state)
    if move is not None:
        assert move in state.moves()


@pytest.mark.parametrize("spec, text", [
    ("cephalopod", "a²"), ("cephalopod", "a" + "1" * 5000),
    ("cephalopod", "c3x(c2,b²)"), ("quarto", ":²"), ("quarto", ":" + "1" * 5000),
], ids=lambda text: text[:12])
def test_regression_digits_int_cannot_read_in_a_move(spec, text):
    """`a²` passed the cell's str.isdigit check, then int() raised ValueError; so
    did a piece `²`, and a number of 5000 digits (more than int() reads)."""
    game = parse_game(spec)
    with pytest.raises(NotationError, match="is not a"):
        game.parse_move(text, game.start())


def test_regression_digits_int_cannot_read_in_a_position():
    game = parse_game("quarto")
    with pytest.raises(NotationError, match="is not a piece"):
        game.parse_position("..../..../..../.... ²")


# --- the solver's lines --------------------------------------------------------------

def solver_position(line: str):
    """What `plyground solve` makes of a line (tui/cli/solve.py reads each so)."""
    return CONNECT4.parse_position(line.strip())


@settings(max_examples=300)
@given(played_states(games=[CONNECT4], plies=42),
       st.sampled_from(("\n", "\r\n", " \n", "")))
def test_solver_lines_read_back(played, ending):
    _, state = played
    line = CONNECT4.format_position(state) + ending
    if state.winner() is not None:
        with pytest.raises(NotationError):
            solver_position(line)
        return
    assert solver_position(line) == state
    assert CONNECT4.format_position(solver_position(line)) == line.strip()


@settings(max_examples=800)
@given(mutated(played_states(games=[CONNECT4], plies=42).map(position_text))
       | any_text())
def test_mutated_solver_lines_give_a_position_or_say_why(line):
    state = read(solver_position, line)
    if state is not None:
        assert state.winner() is None  # the solver is never given a finished game
        assert solver_position(CONNECT4.format_position(state)) == state


# --- GA profiles ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def profile_file(tmp_path_factory):
    return tmp_path_factory.mktemp("profiles") / "profile.json"


def profile_text(profile_file, text: str):
    """The profile `text` holds, read from a file as a saved one is."""
    profile_file.write_bytes(text.encode("utf-8", "surrogatepass"))  # not UTF-8 too
    return load_profile(profile_file)


profiles = st.builds(
    Profile, st.text(min_size=1).filter(str.strip),
    st.tuples(*[st.floats(0, 1).map(lambda gene: round(gene, 6))] * len(GENE_NAMES)))


@settings(max_examples=200)
@given(profiles)
def test_profiles_read_back(profile_file, profile):
    assert profile_text(profile_file, profile_json(profile)) == profile


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


@st.composite
def profile_like_data(draw):
    """A JSON object near a profile: some genes, maybe others, any values."""
    names = list(GENE_NAMES) + draw(st.lists(st.text(alphabet=TRICKY, max_size=6),
                                             max_size=2))
    genes = {name: draw(st.floats(0, 1) | json_values)
             for name in names if draw(st.integers(0, 5))}
    data = {"name": draw(st.text(max_size=8) | json_values), "genes": genes}
    return {key: value for key, value in data.items() if draw(st.integers(0, 5))}


@settings(max_examples=600)
@given(mutated(profiles.map(profile_json)) | profile_like_data().map(json.dumps)
       | json_values.map(json.dumps) | any_text()
       | st.integers(1, 5).map(lambda deep: "[" * 10 ** deep))
def test_mutated_profiles_give_a_profile_or_say_why(profile_file, text):
    profile = read(profile_text, profile_file, text)
    if profile is not None:
        assert profile_text(profile_file, profile_json(profile)).name == profile.name


@pytest.mark.parametrize("text, message", [
    ('{"name": "x", "genes": ' + "1" * 5000 + "}", "a number too long"),
    ("[" * 100_000, "nested too deeply"),
], ids=["5000 digits", "deep"])
def test_regression_json_that_json_cannot_read(tmp_path, text, message):
    """Neither is a JSONDecodeError: int() refuses more than 4300 digits (ValueError),
    and deep nesting exhausts the recursion limit (RecursionError)."""
    path = tmp_path / "odd.json"
    path.write_text(text)
    with pytest.raises(ProfileError, match=message):
        load_profile(path)


def test_regression_unknown_gene_names_are_quoted(tmp_path):
    """A gene name with a line break made a message of two lines."""
    genes = dict.fromkeys(GENE_NAMES, 0.5) | {"gr\need": 1}
    path = tmp_path / "odd.json"
    path.write_text(json.dumps({"name": "x", "genes": genes}))
    with pytest.raises(ProfileError,
                       match=re.escape(r"unknown genes: 'gr\need'")) as raised:
        load_profile(path)
    one_sentence(raised.value)


def test_regression_profile_path_with_a_line_break(tmp_path):
    """`ga:profile=...` names a file; one whose name has a line break made the
    message two lines."""
    with pytest.raises(ProfileError, match="no such file") as raised:
        parse_agent(f'ga:profile="{tmp_path}/a\nb.json"')
    one_sentence(raised.value)


# --- game records --------------------------------------------------------------------

comments = st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=12)
header_values = st.text(max_size=16)


@st.composite
def game_records(draw) -> GameRecord:
    """A record of random legal moves from a start as a record writes it (the usual
    one or a position read from text), with variations, comments and headers."""
    game, start = draw(played_states(plies=12))
    if start.outcome() is not None or not draw(st.booleans()):
        start = game.start()
    start = game.parse_position(game.format_position(start))
    tree = GameTree(start)
    tree.root.comment = draw(comments)
    node = tree.root
    for _ in range(draw(st.integers(0, 30))):
        moves = node.state.moves()
        if not moves:
            break
        main = node.add(draw(st.sampled_from(moves)))
        if draw(st.integers(0, 3)) == 0:
            node.add(draw(st.sampled_from(moves))).comment = draw(comments)
        main.comment = draw(comments)
        node = main
    outcome = node.state.outcome()
    if outcome is None:  # unfinished, or ended by a forfeit or a resignation
        result = draw(st.sampled_from((UNFINISHED, *RESULTS.values())))
        reason = draw(header_values)
    else:  # as a match records it (record_of)
        result, reason = RESULTS[outcome.winner], said_outcome(game, outcome)
    players = tuple(draw(st.just("human") | agent_spec_texts().map(lambda w: w[0]))
                    for _ in range(2))
    names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True)
    others = draw(st.dictionaries(names.filter(lambda name: name.lower() not in KNOWN),
                                  header_values, max_size=2))
    return GameRecord(game, tree, players, draw(st.none() | st.integers()),
                      draw(header_values), result, reason, others)


def test_regression_record_file_name_with_a_line_break(tmp_path):
    """A record's file name went into its messages as it was, line break and all."""
    path = tmp_path / "a\nb.txt"
    with pytest.raises(RecordError, match="no game record") as raised:
        load_record(path)
    one_sentence(raised.value)
    path.write_text('[Game "chess"]\n')
    with pytest.raises(RecordError, match="line 1: Game is not a game") as raised:
        load_record(path)
    one_sentence(raised.value)


@settings(max_examples=300)
@given(game_records())
def test_records_read_back(record):
    text = format_record(record)
    again = parse_record(text)
    assert format_record(again) == text
    assert (again.game, again.start, again.moves, again.players, again.seed,
            again.result) == (record.game, record.start, record.moves, record.players,
                              record.seed, record.result)


@settings(max_examples=500)
@given(mutated(game_records().map(format_record)) | any_text())
def test_mutated_records_give_a_record_or_say_why(text):
    record = read(parse_record, text)
    if record is not None:
        text = format_record(record)
        assert format_record(parse_record(text)) == text
