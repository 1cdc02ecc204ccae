"""How much searching a lesson may ask for. Every search of a lesson runs each time
it is loaded or checked, and a search at the ceiling of a lesson's search (lesson.py)
takes up to about 10 s on one core: fifty are some minutes, where the shipped lessons
have four at most. A lesson that asks for more is refused as it is read, and the
searches past the fiftieth are left out, so that checking it does not run them."""
from __future__ import annotations

from typing import Any, Callable

MOST_SEARCHES = 50


def past_most_searches(scenes: list[Any], fault: Callable[..., Any]) -> list[Any]:
    """[] for scenes that ask for MOST_SEARCHES searches or fewer; else one
    `fault(line, scene number, problem)` at the first search too many, and the scenes
    cut there: that step, the steps after it and the scenes after are left out."""
    searches = [(scene, step) for scene in scenes for step in scene.steps
                if step.action == "search"]
    if len(searches) <= MOST_SEARCHES:
        return []
    scene, first = searches[MOST_SEARCHES]
    scene.steps[:] = scene.steps[:scene.steps.index(first)]
    scenes[:] = scenes[:scenes.index(scene) + 1]
    return [fault(first.line, scene.number, f"search: a lesson runs at most "
                  f"{MOST_SEARCHES} searches, and this one asks for {len(searches)}")]
