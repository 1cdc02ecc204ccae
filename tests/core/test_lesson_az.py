"""The AlphaZero lesson (core/study/lessons/alphazero.toml) and its train step
(core/study/lesson_train.py): the lesson reads and plays through, its Connect 4
captions quote exactly what its searches found and what the exact solver says of the
moves, a train step's settings are checked when the lesson is read (each bad value one
line), a search's network file is one of the lesson's folder, and a tiny training sends
what the screen shows, its untrained net's games against perfect play first."""
from __future__ import annotations

from pathlib import Path

import pytest

from plyground.core import get_game
from plyground.core.agents.learned.agent import shipped_net as shipped_network
from plyground.core.agents.learned.train import new_net
from plyground.core.study.lesson import check_lesson, read_lesson, within_ceiling
from plyground.core.study.lesson_train import (MAX_SECONDS, Checked, Ended, Finished,
                                               Phase, against_every_opening,
                                               read_train, training)
from plyground.core.study.lessons import shipped
from plyground.core.catalogue import parse_agent
from plyground.core.search.events import PuctSelected, PuctSnapshot

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
    # on each Connect 4 position, the network alone (no simulation), then 800
    assert [(slide.scene.game.id, search.done.work) for slide, search in zip(
        [slide for slide in slides if slide.search is not None
         and slide.search.index is None], searches)] == [("connect4", 0),
                                                         ("connect4", 800)] * 2


HELDOUT = Path(__file__).parents[1] / "bench" / "data" / "connect4_heldout.txt"


def exact_results(position: str) -> dict[str, str]:
    """Each legal column's result for the side to move, from the held-out file's
    solver scores (its own tests hold them to the solver)."""
    for line in HELDOUT.read_text().splitlines():
        moves, *scores = line.split()
        if moves == position:
            return {str(column): "win" if int(score) > 0 else
                    "loss" if int(score) < 0 else "draw"
                    for column, score in enumerate(scores, 1) if score != "-"}
    raise AssertionError(f"{position} is not a held-out position")


def percent(value: float) -> str:
    """A PUCT value (-1..1) as the inspector shows it: a draw 50%."""
    return f"{50 * (value + 1):.1f}%"


class Shown:
    """A lesson search's root statistics as the inspector's table shows them."""

    def __init__(self, slide) -> None:
        self.game, self.search = slide.scene.game, slide.search
        self.snap = [event for event in slide.search.events
                     if isinstance(event, PuctSnapshot)][-1]
        self.rows = {self.game.format_move(stat.move): stat for stat in self.snap.stats}
        self.played = self.game.format_move(slide.search.done.best_move)

    def p(self, column: str) -> str:
        return f"P {100 * self.rows[column].prior:.1f}%"

    def n(self, column: str) -> str:
        return f"{self.rows[column].visits}"

    def share(self, column: str) -> str:
        return f"({100 * self.rows[column].visits / self.snap.iterations:.1f}%)"

    def q(self, column: str) -> str:
        return percent(self.rows[column].q)

    def u(self, column: str) -> str:
        return f"U {50 * self.rows[column].u:+.1f}"


def in_caption(slide, *quoted: str) -> None:
    text = " ".join(slide.caption.replace("**", "").split())
    for each in quoted:
        assert each in text, f"{each!r} not in scene {slide.scene.number}'s caption"


def test_the_connect4_captions_quote_the_searches_and_the_solver():
    slides, faults = check_lesson(shipped()["alphazero"])
    assert faults == []
    for number in (2, 3):
        scene = [slide for slide in slides if slide.scene.number == number]
        game = scene[0].scene.game
        results = exact_results(game.format_position(scene[0].scene.start))
        wins = [column for column, result in results.items() if result == "win"]
        prior, searched = (Shown(slide) for slide in scene[1:3])
        assert prior.search.done.work == 0 and searched.search.done.work == 800
        named = " and ".join(f"**{column}**" for column in wins)
        assert f"{named} win" in scene[0].caption and "every other column loses" in \
            scene[0].caption and set(results.values()) == {"win", "loss"}
        assert results[searched.played] == "win"
        assert max(searched.rows, key=lambda c: searched.rows[c].visits) == searched.played
        in_caption(scene[2], f"{searched.played} gets {searched.n(searched.played)} "
                   f"visits {searched.share(searched.played)}, "
                   f"Q {searched.q(searched.played)}")
        if number == 2:  # the prior plays a loss, the search a win
            assert results[prior.played] == "loss"
            network = percent(prior.snap.network_value)
            in_caption(scene[1], f"{prior.played} ({prior.p(prior.played)}), which loses",
                       *(f"{column} has {prior.p(column)}" if column == wins[0] else
                         f"{column} {prior.p(column)}" for column in wins),
                       f"{network} for X")
            in_caption(scene[2], f"{prior.played}, the prior's favourite, got "
                       f"{searched.n(prior.played)}: its Q, {searched.q(prior.played)}",
                       searched.u(prior.played))
            first = next(event for event in scene[3].search.replay.events
                         if isinstance(event, PuctSelected))
            [step] = first.steps
            assert scene[3].search.index == 0 and game.format_move(
                step.move) == prior.played
            in_caption(scene[3], f"every Q is the network's {network}",
                       f"goes to {prior.played} ({prior.p(prior.played)}, "
                       f"{prior.u(prior.played)})")
        else:  # prior and search agree, on the win
            assert prior.played == searched.played
            in_caption(scene[1], f"plays {prior.played}, its prior's top move "
                       f"({prior.p(prior.played)})")
            assert all(searched.rows[column].q < 0 for column in searched.rows
                       if column != searched.played)
            in_caption(scene[2], "every other column's Q is below 50%")


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
    ("train = {seconds = 9, sims = 0}", "sims is a whole number from 1 to 10000000"),
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
    shipped_net = shipped_network(get_game("connect4"))
    (folder / "n.npz").write_bytes(shipped_net.read_bytes())
    slides, faults = check_lesson(lesson_file(folder, 'search = "az:net=n.npz,sims=0"',
                                              game="connect4"))
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
