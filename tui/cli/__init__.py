"""The `plyground` command: open the app, watch agents play, play a match of many games
or a rated tournament of many agents, analyse a position, count positions, train an
agent, solve Connect 4 positions exactly, review a game, serve the app, keep the game
history, run lessons: one module a command, registered here in the order `--help`
lists them. Every command on a game takes a game spec (`parse_game`): `connect4`,
`cephalopod:rows=3,cols=3`.

The root command and its error policy are in root.py. The Textual app is imported only
when it is opened, so the other commands start fast. Each paragraph of a command's
docstring becomes one line that Rich wraps to the terminal (root.py,
`rejoin_paragraphs`): a docstring's own line breaks do not show in `--help`.
"""
from __future__ import annotations

from . import (analyze, demo, games, grade, lesson, match, openings, perft, play, review,
               serve, solve, sprt, tournament, train)
from .root import app

app.command()(play.play)
app.command()(demo.demo)
app.command()(match.match)
app.command(context_settings={"allow_extra_args": True})(tournament.tournament)
app.command("sprt")(sprt.sprt_command)
app.command()(analyze.analyze)
app.command("perft")(perft.count_positions)
app.command("train")(train.train_command)
app.command("solve")(solve.solve_command)
app.command("openings")(openings.openings_command)
app.command("review")(review.review_command)
app.command("serve")(serve.serve_command)
app.add_typer(games.games_app, name="games")
app.add_typer(lesson.lesson_app, name="lesson")
app.add_typer(grade.grade_app, name="grade")


def main() -> None:
    app()
