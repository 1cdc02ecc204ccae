"""Playing strength, as issue 16 sets its targets (items 5 and 6).

- MCTS-Solver with decisive playouts against the course's plain UCT: 100 games on
  Connect 4 and on Quarto at equal time per move (0.1 s); target: a score of at least
  70% for the solver.
- Alpha-Beta at 1 s a move against the BOOM seed engine over 40 games (target: at least
  90% wins, and no game drawn at the ply cap), and against MCTS (the default, the
  solver) on Quarto over 40 games (target: a score of at least 95%, no loss), and
  against plain UCT, the `mcts` of the day the target was set.

Colours alternate, two games at a time. Each match is printed with the command that
plays it from the command line (`plyground match ...`); the Alpha-Beta matches take
about an hour between them.
"""
from __future__ import annotations

from dataclasses import dataclass

from plyground.core import get_game
from plyground.core.catalogue import parse_agent
from plyground.core.games.boom import MAX_PLIES as BOOM_MAX_PLIES
from plyground.core.play.tournament import local_pool, run_match, tally


@dataclass(frozen=True)
class Match:
    game: str
    first: str  # the agent the target is for
    second: str
    games: int
    target: str  # what the figures are held to, in words
    cap: int | None = None  # the ply count at which the game is drawn, if it has one

    @property
    def command(self) -> str:
        return (f"plyground match {self.game} --first {self.first} --second "
                f"{self.second} --games {self.games} --seed {SEED}")


SEED = 1
MATCHES = (
    Match("connect4", "mcts:time=0.1", "mcts:time=0.1,uct=plain", 100, "score >= 70%"),
    Match("quarto", "mcts:time=0.1", "mcts:time=0.1,uct=plain", 100, "score >= 70%"),
    Match("boom", "alphabeta:time=1", "seed", 40,
          "wins >= 90%, no game drawn at the ply cap", cap=BOOM_MAX_PLIES),
    Match("quarto", "alphabeta:time=1", "mcts:time=1", 40, "score >= 95%, no loss"),
    # the opponent the 78.8% was measured against: `mcts` was plain UCT then
    Match("quarto", "alphabeta:time=1", "mcts:time=1,uct=plain", 40,
          "score >= 95%, no loss"),
)


def play(match: Match) -> None:
    game = get_game(match.game)
    players = (parse_agent(match.first), parse_agent(match.second))
    with local_pool(game, 2) as pool:
        results = list(run_match(game, players, match.games, SEED, pool))
    ours, _ = tally(results)
    capped = sum(match.cap is not None and result.plies >= match.cap
                 for result in results)
    print(f"  {game.title}: {match.first} against {match.second}, {match.games} games: "
          f"{ours.wins} won ({100 * ours.wins / ours.games:.1f}%), {ours.draws} drawn"
          f"{f' ({capped} at the ply cap)' if capped else ''}, {ours.losses} lost, "
          f"score {ours.score:.1f}% (target: {match.target})")
    print(f"    {match.command}")


def main() -> None:
    print("Strength (issue 16, items 5 and 6)")
    for match in MATCHES:
        play(match)


if __name__ == "__main__":
    main()
