"""A move's clock in a brand-new engine process: the depth Alpha-Beta completes in 1 s
in a new process (its kernels not yet compiled or loaded, as after a crash or a retry),
against a second search of the same position in the same, now warm, process. Target:
at least 90 % of the warm depth, for each game. Also the perfect agent's warm-up."""
from __future__ import annotations

import subprocess
import sys

from plyground.core import get_game
from plyground.core.play.worker import Engine, SearchRequest

GAMES = ("connect4", "boom", "cephalopod", "quarto")
TARGET = 0.9
WARM_UP = ("import time; t = time.perf_counter(); from plyground.core import perfect; "
           "perfect.warm_up(); print(f'{time.perf_counter() - t:.2f}')")


def depths(game_id: str) -> tuple[int, int]:
    game = get_game(game_id)
    position = game.format_position(game.start())
    request = SearchRequest(game_id, position, "alphabeta:time=1")
    with Engine() as engine:
        cold = engine.run(request).result.depth
        warm = engine.run(request).result.depth
    return cold, warm


def main() -> None:
    print(f"Alpha-Beta, 1 s from the start, new process vs warm (target: >= "
          f"{TARGET:.0%} of the warm depth)")
    for game_id in GAMES:
        cold, warm = depths(game_id)
        print(f"  {game_id:10s} new process depth {cold}, warm depth {warm} "
              f"({cold / warm:.0%})")
    seconds = subprocess.run([sys.executable, "-c", WARM_UP], capture_output=True,
                             text=True, check=True).stdout.strip()
    print(f"The perfect agent's warm-up in a new process (kernels cached): {seconds} s "
          "(target: at most 1 s)")


if __name__ == "__main__":
    main()
