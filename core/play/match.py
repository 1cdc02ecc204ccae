"""A game in progress: who plays each side, the positions so far, undo.

The app and the CLI both drive games through this; it holds no UI and no search.
`seeded` is the one rule that turns a game's seed into each side's agent seed, so that
`demo --seed N`, `analyze --seed N` and the app with seed N make the same decisions.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..agents.base import Agent
from ..catalogue import HUMAN, parse_agent
from ..game import Game, Move, Outcome, State, Termination, forfeit_reason
from ..rng import derive_seed


def parse_side(spec: str) -> Agent | None:
    """None for `human`, else the agent the spec names (errors name the problem)."""
    return None if spec.strip() == HUMAN else parse_agent(spec)


def seeded(agent: Agent, seed: int | None, side: int) -> Agent:
    """`agent` playing `side` in a game with this seed: a seed setting its spec leaves
    out becomes `derive_seed(seed, side)`, so the two sides never share a seed and the
    same game seed replays the same game; a seed the spec names is kept. With no game
    seed, the agent as it is."""
    return agent if seed is None else agent.with_defaults(seed=derive_seed(seed, side))


def forfeit_outcome(state: State, reason: object) -> Outcome:
    """How the game ends when the agent to move in `state` broke the rules of play
    (`reason`, an AgentFault or its text): the other side wins, e.g. `X forfeits: Bot
    (1s) raised ZeroDivisionError: division by zero`."""
    side = state.to_move
    reason = " ".join(str(reason).splitlines())  # one line: a status line, a record
    return Outcome(1 - side, Termination.FORFEIT,
                   forfeit_reason(state.game.side_labels[side], reason))


@dataclass
class Match:
    game: Game
    sides: tuple[str, str]  # per side: "human" or an agent spec
    start: State | None = None
    states: list[State] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    seed: int | None = None  # the game's seed: see `seeded` (None: the specs' own seeds)
    # the game ended because a side's agent failed (AgentFault): the other side won
    forfeit: Outcome | None = None

    def __post_init__(self) -> None:
        agents = [parse_side(spec) for spec in self.sides]
        self.agents = tuple(None if agent is None else seeded(agent, self.seed, side)
                            for side, agent in enumerate(agents))
        if self.start is None:
            self.start = self.game.start()
        if not self.states:
            self.states = [self.start]

    @property
    def state(self) -> State:
        return self.states[-1]

    @property
    def outcome(self) -> Outcome | None:
        return self.forfeit or self.state.outcome()

    def forfeits(self, reason: str) -> Outcome:
        """The agent to move failed: the game ends there, the other side winning."""
        self.forfeit = forfeit_outcome(self.state, reason)
        return self.forfeit

    def replace_side(self, side: int, spec: str) -> None:
        """Another player for `side` (after a forfeit, say): the game goes on from
        where it is (raises PlygroundError for a bad spec; nothing changes then)."""
        agent = parse_side(spec)
        agents = list(self.agents)
        agents[side] = None if agent is None else seeded(agent, self.seed, side)
        sides = list(self.sides)
        sides[side] = spec
        self.sides, self.agents, self.forfeit = tuple(sides), tuple(agents), None

    def agent_to_move(self) -> Agent | None:
        """The agent whose turn it is (None on a human's turn or when the game is over)."""
        if self.outcome is not None:
            return None
        return self.agents[self.state.to_move]

    def is_human(self, side: int) -> bool:
        return self.agents[side] is None

    @property
    def watching(self) -> bool:
        """No human plays: agent against agent."""
        return all(agent is not None for agent in self.agents)

    def play(self, move: Move) -> State:
        """Play `move` for the side to move (raises IllegalMove, nothing changes then)."""
        state = self.state.play(move)
        self.states.append(state)
        self.moves.append(move)
        return state

    def undo(self) -> int:
        """Take back moves to the previous turn of a human; returns how many.

        With no human, one move. Nothing is undone when no earlier position had a
        human to move (an agent's opening move is not taken back just to be replayed).
        """
        for index in range(len(self.moves) - 1, -1, -1):
            if self.watching or self.is_human(self.states[index].to_move):
                undone = len(self.moves) - index
                del self.moves[index:]
                del self.states[index + 1:]
                self.forfeit = None
                return undone
        return 0

    def restart(self) -> None:
        self.states = [self.start]
        self.moves = []
        self.forfeit = None

    def move_texts(self) -> list[str]:
        return [self.game.format_move(move) for move in self.moves]
