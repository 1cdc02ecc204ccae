"""An agent's analysis of a position as a typed result (`plyground analyze`). Values
are for the side to move; moves are in the game's notation and in the order the rules
list them. `to_json()` gives it as plain data: what `--json` prints and the text view
renders."""
from __future__ import annotations

from dataclasses import dataclass

from ..game import Game, State
from ..search.events import SearchDone
from ..values import Bound, Scale, Score, proven


@dataclass(frozen=True)
class AnalysisReport:
    """The agent's decision in `state`, with what the caller knows beside it:
    `value_kind` says what the decision's value is (exact, heuristic or mean result),
    `exact` what is known exactly of the position, and `verdict` says it in a
    sentence (the app's tui/verdict.py works these out)."""

    game: Game
    state: State
    agent: str  # the analysing agent's spec
    done: SearchDone
    value_kind: str | None = None
    exact: dict | None = None
    verdict: str | None = None

    def valued(self, value: float | None, bound: Bound = Bound.EXACT) -> dict:
        """A value and how it reads (`+35`, `≤ -12`, `win in 5`)."""
        text = None if value is None else \
            str(Score(value, self.state.ply, self.done.scale, bound))
        return {"value": value, "description": text}

    def moves(self) -> list[dict]:
        """Each root move the agent valued, in the rules' order."""
        order = {move: index for index, move in enumerate(self.state.moves())}
        moves = []
        for move_value in sorted(self.done.move_values, key=lambda mv: order[mv.move]):
            entry = {"move": self.game.format_move(move_value.move),
                     **self.valued(move_value.value, move_value.bound),
                     "bound": move_value.bound}
            if move_value.visits is not None:
                entry["visits"] = move_value.visits
            moves.append(entry)
        return moves

    def to_json(self) -> dict:
        game, state, done = self.game, self.state, self.done
        return {
            "game": game.spec,
            "position": game.format_position(state),
            "to_move": game.side_labels[state.to_move],
            "agent": self.agent,
            "best_move": game.format_move(done.best_move),
            **self.valued(done.value),
            "proof": (proven(game, state, done.value, done.depth)
                      if done.value is not None and done.scale == Scale.SCORE else ""),
            "pv": [game.format_move(move) for move in done.pv],
            "depth": done.depth,
            "work": done.work,
            "work_unit": done.work_unit,
            "elapsed": done.elapsed,
            "note": done.note,
            "moves": self.moves(),
            "value_kind": self.value_kind,
            "exact": self.exact,
            "verdict": self.verdict,
        }
