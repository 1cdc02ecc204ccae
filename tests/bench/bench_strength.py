"""Playing strength: MCTS-Solver with decisive playouts against the course's plain UCT.

100 games on Connect 4 and on Quarto at equal time per move (0.1 s), colours
alternating, two games at a time; the target is a score of at least 70% for the
solver. The same match from the command line:
`plyground match connect4 --first mcts:time=0.1 --second mcts:time=0.1,uct=plain
--games 100 --seed 1`.
"""
from __future__ import annotations

from plyground.core import get_game, parse_agent
from plyground.core.tournament import run_match, tally

GAMES, SECONDS, TARGET = 100, 0.1, 70.0
MATCHES = ((f"mcts:time={SECONDS:g}", f"mcts:time={SECONDS:g},uct=plain"),)


def play(game_id: str, first: str, second: str, games: int, seed: int = 1) -> None:
    game = get_game(game_id)
    players = (parse_agent(first), parse_agent(second))
    ours, _ = tally(run_match(game, players, games, seed, jobs=2))
    print(f"  {game.title}: {first} against {second}, {games} games: "
          f"{ours.wins} won, {ours.draws} drawn, {ours.losses} lost, score "
          f"{ours.score:.1f}% (target >= {TARGET:g}%)")


def main() -> None:
    print(f"Strength: MCTS-Solver against plain UCT, {SECONDS:g} s a move")
    for game_id in ("connect4", "quarto"):
        for first, second in MATCHES:
            play(game_id, first, second, GAMES)


if __name__ == "__main__":
    main()
