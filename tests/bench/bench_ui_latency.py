"""Key press to repainted screen while an agent searches (target, issue 18: p95 at
most 50 ms and the worst case at most 100 ms, at 160 x 50 and at 80 x 24).

The app runs headless, in each game, against an agent that thinks for a minute in
the engine process, streaming its live events meanwhile (the analysis panel solves
the position beside it, as in a game). Each sample presses ← or → (the
board's cursor moves) and measures the time until the app has composed the frame that
shows the moved cursor (a frame composed before the key was handled does not
count) and turned it into terminal output (a headless app writes no
output, so the bench renders each frame's escape sequences itself, as a terminal app
would, and stops the clock there).
"""
from __future__ import annotations

import asyncio
import time
from statistics import median, quantiles

from textual import events

from plyground.tui.app import create_app

GAMES = ("connect4", "boom", "cephalopod", "quarto")
OPPONENTS = ("alphabeta:time=60", "mcts:time=60")
SIZES = ((160, 50), (80, 24))
SAMPLES = 100
TARGET_P95_MS, TARGET_MAX_MS = 50, 100


def send_key(app, key: str) -> None:
    """Deliver a key as the terminal driver does (Pilot's press also waits for the app
    to fall idle, which is not what a user's key press waits for)."""
    event = events.Key(key, None)
    event.set_sender(app)
    app._driver.send_message(event)


async def measure(opponent: str, size: tuple[int, int], game: str = "connect4"
                  ) -> list[float]:
    """Connect 4: the human drops in the middle column and the agent answers; another
    game: the agent moves first."""
    sides = ("human", opponent) if game == "connect4" else (opponent, "human")
    app = create_app(game, sides, move_delay=0)
    latencies: list[float] = []
    async with app.run_test(size=size) as pilot:
        screen = app.game_screen
        if game == "connect4":
            await pilot.press("4")
        while screen.search is None:
            await pilot.pause(0.05)
        await pilot.pause(1.0)  # the search is under way, its events flowing
        board = screen.board
        display = app._display
        shown_at: list[float] = []  # when the first frame that shows the move was out
        shown = asyncio.Event()
        before = [board.cursor]  # the cursor before the press

        def display_and_time(target_screen, renderable) -> None:
            display(target_screen, renderable)
            if renderable is not None and board.cursor != before[0] and not shown_at:
                renderable.render_segments(app.console)
                shown_at.append(time.perf_counter())
                shown.set()

        app._display = display_and_time
        for sample in range(SAMPLES):
            key, before[0] = "right" if sample % 2 else "left", board.cursor
            shown_at.clear()
            shown.clear()
            pressed = time.perf_counter()
            send_key(app, key)
            await shown.wait()
            latencies.append(1000 * (shown_at[0] - pressed))
            await asyncio.sleep(0.02)  # a fast typist, not a flood
        app._display = display
        assert screen.search is not None, "the agent stopped thinking during the run"
        await pilot.press("n")  # cancel the search before leaving
    return latencies


def main() -> None:
    print(f"Key press to repaint while an agent searches ({SAMPLES} presses each; "
          f"target p95 <= {TARGET_P95_MS} ms, max <= {TARGET_MAX_MS} ms)")
    for game in GAMES:
        for width, height in SIZES:
            for opponent in OPPONENTS:
                latencies = asyncio.run(measure(opponent, (width, height), game))
                p95 = quantiles(latencies, n=20)[-1]
                print(f"  {game:<10} {width:>3}x{height:<3} while {opponent:<18} median "
                      f"{median(latencies):6.1f} ms   p95 {p95:6.1f} ms   "
                      f"max {max(latencies):6.1f} ms", flush=True)


if __name__ == "__main__":
    main()
