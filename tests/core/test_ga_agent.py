"""The `ga` agent: Connect 4's strategy pairs, its choice, profiles and the agent spec.

Positions are column-digit strings (1-based); columns in votes are 0-based. A cell is
(column, row), row 0 at the bottom. X moves first.
"""
from __future__ import annotations

import json
import pickle

import pytest

from plyground.core.catalogue import AGENT_KINDS, parse_agent
from plyground.core import BadSetting, PlygroundError, get_game
from plyground.core.ga.agent import GaAgent
from plyground.core.ga.profile import (DEFAULT_PROFILE, Profile, ProfileError,
                                       SkippedProfile, install_profile, load_profile,
                                       profile_json, save_profile, saved_profiles,
                                       user_profiles_dir)
from plyground.core.ga.strategies import (GENE_NAMES, PAIRS, choose_column, pick_strategies,
                                          strategy_votes)
from plyground.core.rng import SplitMix64

GAME = get_game("connect4")


def votes(position: str, strategy: str) -> list[int]:
    return strategy_votes(GAME.parse_position(position), strategy)


# -- the strategies ------------------------------------------------------------------

def test_block_two_and_block_one():
    # "7374": X (6,0) (6,1); O (2,0) (3,0); X to move. Landing cells: (0,0) (1,0) (2,1)
    # (3,1) (4,0) (5,0) (6,2).
    # block two: an O at (1,0) or (4,0) makes the row of three 1-3 / 2-4 -> 1 vote each.
    assert votes("7374", "block_two") == [0, 1, 0, 0, 1, 0, 0]
    # block one: (2,1) sits on O (2,0) and diagonally above O (3,0): runs of two in 2
    # directions; (3,1) likewise over (3,0) and (2,0). (1,0) and (4,0) make runs of
    # three, not two: no vote.
    assert votes("7374", "block_one") == [0, 0, 2, 2, 0, 0, 0]


def test_blocking_counts_the_opponents_pieces_not_ones_own():
    # "445": X (3,0) (4,0); O (3,1); O to move, so X's pieces are the ones to block.
    # An X at (2,0) or (5,0) makes the row of three -> block two there.
    assert votes("445", "block_two") == [0, 0, 1, 0, 0, 1, 0]
    # (4,1) sits over X (4,0) and diagonally over X (3,0): 2 directions.
    assert votes("445", "block_one") == [0, 0, 0, 0, 2, 0, 0]


def test_centre_and_extremity():
    assert votes("", "centre") == [0, 0, 1, 1, 1, 0, 0]
    assert votes("", "extremity") == [1, 1, 0, 0, 0, 1, 1]
    # a full centre column gets no vote: it is not a legal move
    assert votes("444444", "centre") == [0, 0, 1, 0, 1, 0, 0]


def test_sequential_counts_own_neighbours():
    # "4353": X (3,0) (4,0); O (2,0) (2,1); X to move.
    # (3,1): X below and X down-right = 2; (4,1): X below and X down-left = 2;
    # (5,0): X to the left = 1; (2,2) touches only O and empty cells.
    assert votes("4353", "sequential") == [0, 0, 0, 2, 2, 1, 0]
    # "267667": X (1,0) (6,0) (5,2); O (5,0) (5,1) (6,1). (0,0) (1,1) (2,0) touch X
    # (1,0); (5,3) sits on X (5,2); (6,2) is beside X (5,2); (3,0) (4,0) touch no X.
    assert votes("267667", "sequential") == [1, 1, 1, 0, 0, 1, 1]


def test_space_counts_lines_with_a_gap_to_an_own_piece():
    # "4353": (2,2) has X (4,0) two cells down-right with (3,1) empty; (6,0) has X
    # (4,0) two to the left with (5,0) empty. (1,0): the cells between are O.
    assert votes("4353", "space") == [0, 0, 1, 0, 0, 0, 1]
    # "267667": (3,0) has X (1,0) two to the left and X (5,2) two up-right, both with
    # the cell between empty: 2 lines. Cells next to an X get nothing.
    assert votes("267667", "space") == [0, 0, 0, 2, 0, 0, 0]
    # "2767": X (1,0) (5,0): (3,0) has an X two away on both sides of one line: 1 vote.
    assert votes("2767", "space")[3] == 1


def test_space_does_not_wrap_over_the_top_of_a_column():
    # "211111": X (1,0) (0,1) (0,3); O (0,0) (0,2) (0,4). Column 0's landing cell is
    # (0,5), touching no X. Two steps "up" from it pass the guard bit and land on
    # (1,0), an X: that is no line, so no vote. (3,0) has X (1,0) two to the left.
    assert votes("211111", "space") == [0, 0, 0, 1, 0, 0, 0]
    # "444444": X (3,0) (3,2) (3,4). (1,0) has X (3,0) via (2,0) and X (3,2) via
    # (2,1) up-right: 2 lines; (5,0) likewise on the other side.
    assert votes("444444", "space") == [0, 2, 0, 0, 0, 2, 0]


def test_horizontal_and_vertical():
    # "4455": X's pieces are in columns 3 and 4 (0-based).
    assert votes("4455", "horizontal") == [1, 1, 1, 0, 0, 1, 1]
    assert votes("4455", "vertical") == [0, 0, 0, 1, 1, 0, 0]
    # "445": O to move; O's only piece is in column 3.
    assert votes("445", "horizontal") == [1, 1, 1, 0, 1, 1, 1]


def test_unknown_strategy():
    with pytest.raises(ValueError, match="unknown strategy 'diagonal'"):
        votes("", "diagonal")


# -- the choice -----------------------------------------------------------------------

def test_genes_one_and_zero_pick_the_first_and_second_strategies():
    for seed in range(20):
        assert pick_strategies((1.0,) * 4, SplitMix64(seed)) == \
            tuple(first for first, _ in PAIRS)
        assert pick_strategies((0.0,) * 4, SplitMix64(seed)) == \
            tuple(second for _, second in PAIRS)
    halves = {pick_strategies((0.5,) * 4, SplitMix64(seed))[0] for seed in range(20)}
    assert halves == {"block_two", "block_one"}


def test_votes_decide_the_column():
    state = GAME.parse_position("4455")
    # genes 1: block_two [0]*7 + centre [0,0,1,1,1,0,0] + sequential [0,0,1,0,0,1,0]
    #   + horizontal [1,1,1,0,0,1,1] = [1,1,3,1,1,2,1]: column 2, whatever the seed.
    assert {choose_column(state, (1.0,) * 4, SplitMix64(s)) for s in range(20)} == {2}
    # genes 0: block_one [0,0,1,2,2,1,0] + extremity [1,1,0,0,0,1,1] + space
    #   [0,1,0,0,0,0,1] + vertical [0,0,0,1,1,0,0] = [1,2,1,3,3,2,2]: a tie of 3 and 4,
    #   broken at random.
    assert {choose_column(state, (0.0,) * 4, SplitMix64(s)) for s in range(20)} == {3, 4}


def test_takes_a_win_in_one_first():
    # "121213": X (0,0) (0,1) (0,2), O (1,0) (1,1) (2,0): X wins in column 0, though
    # these genes vote for the centre.
    state = GAME.parse_position("121213")
    for seed in range(20):
        assert choose_column(state, (0.0, 1.0, 1.0, 1.0), SplitMix64(seed)) == 0


def test_blocks_the_opponents_win_in_one():
    # "121252": O (1,0) (1,1) (1,2) threatens (1,3); X has no win.
    state = GAME.parse_position("121252")
    for seed in range(20):
        assert choose_column(state, (1.0,) * 4, SplitMix64(seed)) == 1


def test_a_win_beats_a_block():
    # "121212": X wins in column 0 and O threatens column 1.
    state = GAME.parse_position("121212")
    for seed in range(20):
        assert choose_column(state, (0.5,) * 4, SplitMix64(seed)) == 0


def test_choice_is_reproducible_and_depends_on_the_seed():
    state = GAME.parse_position("43")
    genes = (0.3, 0.6, 0.5, 0.2)
    picks = [choose_column(state, genes, SplitMix64(seed)) for seed in range(30)]
    assert picks == [choose_column(state, genes, SplitMix64(seed)) for seed in range(30)]
    assert len(set(picks)) > 1


# -- profiles -------------------------------------------------------------------------

def test_profile_round_trip_and_identical_bytes(tmp_path):
    profile = Profile("tuned", (0.1234567, 1, 0.0, 0.75))
    assert profile.genes == (0.1234567, 1.0, 0.0, 0.75)
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    save_profile(profile, first)
    save_profile(Profile("tuned", (0.1234567, 1.0, 0.0, 0.75)), second)
    assert first.read_bytes() == second.read_bytes()
    loaded = load_profile(first)
    assert loaded == Profile("tuned", (0.123457, 1.0, 0.0, 0.75))  # 6 decimals
    assert profile_json(loaded) == first.read_text()
    data = json.loads(first.read_text())
    assert data == {"name": "tuned", "genes": dict(zip(GENE_NAMES,
                                                       (0.123457, 1.0, 0.0, 0.75)))}
    assert first.read_text().endswith("}\n")


def write(tmp_path, text: str):
    path = tmp_path / "p.json"
    path.write_text(text)
    return path


GOOD_GENES = '{"block_two": 0.1, "centre": 0.2, "sequential": 0.3, "horizontal": 0.4}'


@pytest.mark.parametrize("text, message", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('{"genes": ' + GOOD_GENES + "}", "no name"),
    ('{"name": "", "genes": ' + GOOD_GENES + "}", "needs a name"),
    ('{"name": "x"}', "no genes"),
    ('{"name": "x", "genes": {"block_two": 0.1, "centre": 0.2}}',
     "missing genes: sequential, horizontal"),
    ('{"name": "x", "genes": {"block_two": 0.1, "centre": 0.2, "sequential": 0.3, '
     '"horizontal": 0.4, "greed": 1}}', "unknown genes: 'greed'"),
    ('{"name": "x", "genes": {"block_two": "high", "centre": 0.2, "sequential": 0.3, '
     '"horizontal": 0.4}}', "gene block_two is 'high', not a number"),
    ('{"name": "x", "genes": {"block_two": true, "centre": 0.2, "sequential": 0.3, '
     '"horizontal": 0.4}}', "gene block_two is True, not a number"),
    ('{"name": "x", "genes": {"block_two": 0.1, "centre": 1.5, "sequential": 0.3, '
     '"horizontal": 0.4}}', r"gene centre is 1.5, outside \[0, 1\]"),
    ('{"name": "x", "genes": {"block_two": 0.1, "centre": 0.2, "sequential": -0.1, '
     '"horizontal": 0.4}}', r"gene sequential is -0.1, outside \[0, 1\]"),
])
def test_malformed_profiles_say_what_is_wrong(tmp_path, text, message):
    path = write(tmp_path, text)
    with pytest.raises(ProfileError, match=message) as caught:
        load_profile(path)
    assert str(path) in str(caught.value)


def test_missing_profile_file(tmp_path):
    with pytest.raises(ProfileError, match="no such file"):
        load_profile(tmp_path / "absent.json")


def test_shipped_default_profile_loads():
    profile = load_profile(DEFAULT_PROFILE)
    assert profile.name == "default"
    assert DEFAULT_PROFILE.read_text() == profile_json(profile)


def test_user_profiles(tmp_path, monkeypatch):
    folder = tmp_path / "profiles"
    monkeypatch.setenv("PLYGROUND_PROFILES", str(folder))
    assert user_profiles_dir() == folder
    assert [p for p, _ in saved_profiles()] == [DEFAULT_PROFILE]
    assert not folder.exists()  # reading does not create it
    install_profile(Profile("zeta", (0.1,) * 4))
    install_profile(Profile("alpha", (0.2,) * 4), "mine.json")
    (folder / "broken.json").write_text("{")
    with pytest.warns(SkippedProfile) as skipped:
        found = saved_profiles()
    with pytest.raises(ProfileError) as why:
        load_profile(folder / "broken.json")
    assert [str(warning.message) for warning in skipped] == [f"skipped {why.value}"]
    assert [(path.name, profile.name) for path, profile in found] == [
        ("default.json", "default"), ("mine.json", "alpha"), ("zeta.json", "zeta")]
    # a file is checked, then copied
    copied = install_profile(folder / "zeta.json", "copy.json")
    assert copied == folder / "copy.json" and load_profile(copied).name == "zeta"


def test_default_user_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("PLYGROUND_PROFILES", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("PLYGROUND_HOME", raising=False)
    assert user_profiles_dir().parts[-4:] == (".local", "share", "plyground", "profiles")
    # the data folder's, like the history's: a test run's PLYGROUND_HOME holds them
    monkeypatch.setenv("PLYGROUND_HOME", str(tmp_path))
    assert user_profiles_dir() == tmp_path / "profiles"
    assert not user_profiles_dir().exists()  # created by the first install only


# -- the agent ------------------------------------------------------------------------

def test_agent_spec_with_a_profile(tmp_path):
    path = save_profile(Profile("sharp", (1.0,) * 4), tmp_path / "sharp.json")
    agent = parse_agent(f"ga:profile={path},seed=3")
    assert isinstance(agent, GaAgent) and AGENT_KINDS["ga"] is GaAgent
    assert agent.settings == {"profile": str(path), "seed": 3}
    assert agent.label == "Strategy (GA): sharp"
    assert agent.choose(GAME.parse_position("4455")) == 2  # see test_votes_decide...
    assert parse_agent("ga").label == "Strategy (GA): default"


def test_agent_with_a_bad_profile_fails_when_made(tmp_path):
    path = write(tmp_path, '{"name": "x", "genes": {}}')
    with pytest.raises(PlygroundError, match="missing genes"):
        parse_agent(f"ga:profile={path}")
    with pytest.raises(ProfileError, match="no such file"):
        parse_agent(f"ga:profile={tmp_path / 'absent.json'}")


def test_agent_is_seeded(tmp_path):
    """With even genes, the draws change the move: the seed decides which."""
    path = tmp_path / "even.json"
    save_profile(Profile("even", (0.5,) * 4), path)
    state = GAME.parse_position("43")
    agents = [parse_agent(f"ga:profile={path},seed={seed}") for seed in range(30)]
    picks = [agent.choose(state) for agent in agents]
    assert picks == [parse_agent(f"ga:profile={path},seed={seed}").choose(state)
                     for seed in range(30)]
    assert len(set(picks)) > 1


def test_agent_from_a_profile_in_memory():
    agent = GaAgent.for_profile(Profile("evolving", (1.0,) * 4), seed=5)
    assert agent.label == "Strategy (GA): evolving"
    state = GAME.parse_position("4455")
    assert agent.choose(state) == 2
    reseeded = agent.with_defaults(seed=9)
    assert reseeded.settings["seed"] == 5 and reseeded.label == agent.label
    assert GaAgent.for_profile(agent.profile).with_defaults(seed=9).settings["seed"] == 9
    copy = pickle.loads(pickle.dumps(agent))
    assert copy.label == agent.label and copy.choose(state) == 2


def test_ga_plays_only_connect4():
    assert GaAgent.plays(GAME)
    for other in ("boom", "quarto", "cephalopod"):
        game = get_game(other)
        assert not GaAgent.plays(game)
        with pytest.raises(BadSetting, match="cannot play"):
            parse_agent("ga").decide(game.start())
