"""The AlphaZero lesson (core/study/lessons/alphazero.toml) and its train step
(core/study/lesson_train.py): the lesson reads and plays through, a train step's
settings are checked when the lesson is read (each bad value one line), a search's
network file is one of the lesson's folder, and a tiny training sends what the screen
shows, its untrained net's games against perfect play first."""
from __future__ import annotations

import pytest

from plyground.core import get_game
from plyground.core.agents.learned.train import new_net
from plyground.core.study.lesson import check_lesson, read_lesson, within_ceiling
from plyground.core.study.lesson_train import (MAX_SECONDS, Checked, Ended, Finished,
                                               Phase, against_every_opening,
                                               read_train, training)
from plyground.core.study.lessons import shipped
from plyground.core.catalogue import parse_agent

TINY = {"seconds": 30, "seed": 3, "against": "ttt-perfect", "games": 2, "sims": 4,
        "steps": 2, "batch": 8, "eval_pairs": 1, "channels": 4, "blocks": 1}


def lesson_file(tmp_path, step: str, game="tictactoe", extra="") -> str:
    path = tmp_path / "l.toml"
    path.write_text(f'title = "t"\n\n[[scene]]\ngame = "{game}"\n{extra}\n'
                    f'[[scene.step]]\n{step}\n')
    return path


def test_the_alphazero_lesson_reads_plays_through_and_is_listed():
    path = shipped()["alphazero"]
    slides, faults = check_lesson(path)
    assert faults == []
    trains = [slide.training for slide in slides if slide.training is not None]
    assert len(trains) == 1 and trains[0].against == "ttt-perfect"
    searches = [slide.search for slide in slides if slide.search is not None
                and slide.search.index is None]
    # the network alone (no simulation at all), then 800 simulations
    assert [search.done.work for search in searches] == [0, 800]


def test_a_policy_only_search_is_not_given_the_ceiling():
    agent = parse_agent("az:sims=0")
    budget, unit, _ = within_ceiling(agent, agent.budget())
    assert (unit, budget.iterations) == ("iterations", 0)


@pytest.mark.parametrize("step, problem", [
    ("train = 5", "train takes a value as in train = {"),
    ("train = {seed = 1}", "seconds is a number of seconds"),
    (f"train = {{seconds = {MAX_SECONDS + 1}}}", "seconds is a number of seconds"),
    ("train = {seconds = 0}", "seconds is a number of seconds"),
    ('train = {seconds = 9, seed = "x"}', "seed is a whole number"),
    ("train = {seconds = 9, sims = 0}", "sims is a whole number, at least 1"),
    ("train = {seconds = 9, games = 1.5}", "games is a whole number"),
    ("train = {seconds = 9, speed = 2}", "unknown key 'speed'"),
    ("train = {seconds = 9, against = 3}", "against is an agent"),
    ('train = {seconds = 9, against = "nosuch"}', "nosuch"),
    ('train = {seconds = 9, against = "bot.py:Bot"}', "trust"),
])
def test_a_bad_train_step_is_one_line_with_its_line(tmp_path, step, problem):
    _, faults = read_lesson(lesson_file(tmp_path, step))
    assert len(faults) == 1
    assert problem in str(faults[0]) and "\n" not in str(faults[0])
    assert faults[0].line == 6 and faults[0].scene == 1


def test_an_opponent_for_another_game_is_refused(tmp_path):
    _, faults = read_lesson(lesson_file(
        tmp_path, 'train = {seconds = 9, against = "ttt-perfect"}', game="connect4"))
    assert len(faults) == 1 and "does not play Connect 4" in str(faults[0])


def test_a_good_train_step_becomes_its_slide(tmp_path):
    slides, faults = check_lesson(lesson_file(tmp_path, "train = {seconds = 9, seed = 4}"))
    assert faults == []
    assert slides[0].training is None
    assert slides[1].training.seconds == 9 and slides[1].training.settings.seed == 4


def test_a_searchs_network_file_is_one_beside_the_lesson(tmp_path):
    outside = tmp_path / "elsewhere.npz"
    outside.write_bytes(b"")
    folder = tmp_path / "lesson"
    folder.mkdir()
    for name in (str(outside), "../elsewhere.npz"):
        _, faults = read_lesson(lesson_file(folder, f'search = "az:net={name}"'))
        assert len(faults) == 1 and "a file in the lesson's folder" in str(faults[0])
    # a name relative to the lesson is read from its folder, wherever it is run from
    shipped_net = shipped()["alphazero"].parent / "tictactoe.npz"
    (folder / "n.npz").write_bytes(shipped_net.read_bytes())
    slides, faults = check_lesson(lesson_file(folder, 'search = "az:net=n.npz,sims=0"'))
    assert faults == [] and slides[1].search.agent.settings["net"] == str(folder / "n.npz")


def test_the_untrained_net_is_checked_against_every_opening_by_perfect_play():
    game = get_game("tictactoe")
    step = read_train(TINY)
    checked = against_every_opening(game, new_net(game, step.settings), step)
    assert checked.games == 2 * len(list(game.start().moves()))
    assert checked.won == 0  # nobody beats perfect play


def test_a_tiny_training_sends_its_checks_generations_and_end():
    events = []
    step = read_train({**TINY, "seconds": 1})
    training("tictactoe", step, events.append)
    kinds = [type(event) for event in events if not isinstance(event, Phase)]
    assert kinds[0] is Checked and Ended in kinds and kinds[-1] is Finished
    ended = [event for event in events if isinstance(event, Ended)]
    checks = [event for event in events if isinstance(event, Checked)]
    assert [check.generation for check in checks] == \
        [0] + [end.generation for end in ended if end.accepted]
    assert events[-1].generations == ended[-1].generation
    phases = {event.phase for event in events if isinstance(event, Phase)}
    assert {"self-play", "training", "checking"} <= phases
