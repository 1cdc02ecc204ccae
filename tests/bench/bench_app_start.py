"""How long the app takes from launch to a usable first screen (the setup screen,
mounted and ready for keys), in a new Python process each time: cold (no compiled
bytecode: a pycache folder of its own, empty) and cached (the usual caches). The app
runs headless at 160x50; a terminal adds only its drawing."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from statistics import median

LAUNCH = """
import asyncio
from plyground.tui.app import create_app
from plyground.tui.screens.setup import SetupScreen

async def main():
    app = create_app(animations=False)
    async with app.run_test(size=(160, 50)) as pilot:
        while not isinstance(app.screen, SetupScreen):
            await pilot.pause()
        await pilot.pause()

asyncio.run(main())
"""


def launch(env: dict) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", LAUNCH], env=env, check=True,
                   capture_output=True)
    return time.perf_counter() - started


def main(runs: int = 3) -> None:
    print("App launch to a usable setup screen (a new process each run)")
    cold = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as empty:
            cold.append(launch({**os.environ, "PYTHONPYCACHEPREFIX": empty}))
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "PYTHONPYCACHEPREFIX": cache,
               "PYTHONDONTWRITEBYTECODE": ""}
        launch(env)  # fills the cache
        cached = [launch(env) for _ in range(runs)]
    print(f"  cold (no bytecode cached): median {median(cold):.2f} s, worst {max(cold):.2f} s")
    print(f"  cached: median {median(cached):.2f} s, worst {max(cached):.2f} s")


if __name__ == "__main__":
    main()
