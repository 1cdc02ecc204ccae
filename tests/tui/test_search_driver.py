"""The game screen's SearchDriver without Textual: a stand-in engine and clock, real
games and agents. What it asks the engine, what it keeps of what comes back, when live
events are due, when an outside agent has hung, and which search step mode shows."""
from __future__ import annotations

from plyground.core.catalogue import parse_agent
from plyground.core.game import get_game
from plyground.core.play.match import Match
from plyground.core.play.worker import (EngineDone, EngineEvents, EngineFailed,
                                        EngineStarted)
from plyground.core.search.events import (TRACE_CAP, IterationDone, SearchDone,
                                          TraceProgress)
from plyground.tui.search_driver import (LIVE_INTERVAL, QUICK_ITERATIONS, QUICK_NODES,
                                         SearchDriver, SearchRecord, TracePlan,
                                         check_replay)


class FakeEngine:
    """Numbers requests as the engine does and remembers what it was asked."""

    def __init__(self, clock: str = "real") -> None:
        self.clock = clock
        self.requests: list = []
        self.cancelled = self.closed = 0

    def submit(self, request) -> int:
        self.requests.append(request)
        return len(self.requests)

    def cancel(self) -> None:
        self.cancelled += 1

    def close(self) -> None:
        self.closed += 1


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def driver(engine_clock: str = "real") -> tuple[SearchDriver, FakeEngine, FakeClock]:
    engine, clock = FakeEngine(engine_clock), FakeClock()
    return SearchDriver(engine, clock), engine, clock


def iteration(depth: int, move: int, nodes: int) -> IterationDone:
    return IterationDone(depth, move, 0.0, (), (move,), nodes, 0.1, 1000.0)


def done(move: int, work: int, depth: int | None = None, value=0.0) -> SearchDone:
    return SearchDone(move, value, (move,), work, 0.5, depth)


def test_a_move_search_is_asked_then_kept_as_the_last_when_it_ends():
    game = get_game("connect4")
    agent = parse_agent("alphabeta:depth=4")
    search_driver, engine, clock = driver()
    search = search_driver.start_move(game, game.start(), agent, trace=False)
    [request] = engine.requests
    assert (request.agent, request.position, request.trace) == (agent.spec, "", False)
    assert search_driver.search is search and search.purpose == "move"
    assert search_driver.doing() == ": preparing the engine…"
    assert search_driver.receive(EngineStarted(search.search_id)) is search
    clock.now += 1.5
    assert search_driver.doing() == " is thinking… 1.5 s"
    events = [iteration(1, 3, 10), iteration(2, 3, 40)]
    search_driver.receive(EngineEvents(search.search_id, events))
    assert search.iterations == events and search.unshown == events
    result = done(3, 40, depth=2)
    assert search_driver.receive(EngineDone(search.search_id, result, [], False)) is search
    assert search_driver.search is None and search_driver.last is search
    assert search.result is result and search_driver.recorded is None


def test_a_cancelled_or_superseded_searchs_updates_are_dropped():
    game = get_game("connect4")
    search_driver, engine, _ = driver()
    first = search_driver.start_move(game, game.start(), parse_agent("random"), False)
    second = search_driver.start_move(game, game.start(), parse_agent("random"), False)
    assert search_driver.receive(EngineDone(first.search_id, done(3, 1), [], False)) is None
    assert search_driver.search is second and search_driver.last is None
    assert search_driver.cancel() and engine.cancelled == 1 and search_driver.search is None
    assert not search_driver.cancel() and engine.cancelled == 1
    assert search_driver.receive(EngineFailed(second.search_id, "gone")) is None


def test_live_events_are_due_an_interval_after_they_were_last_shown():
    game = get_game("connect4")
    search_driver, _, clock = driver()
    search = search_driver.start_move(game, game.start(), parse_agent("mcts"), False)
    search_driver.receive(EngineEvents(search.search_id, ["a", "b"]))
    assert search_driver.take_unshown(search) == ["a", "b"] and search.unshown == []
    clock.now += 0.05
    assert abs(search_driver.live_wait(0.0) - (LIVE_INTERVAL - 0.05)) < 1e-9
    assert abs(search_driver.live_wait(1.0) - 0.95) < 1e-9  # a view that asks for more
    clock.now += LIVE_INTERVAL
    assert search_driver.live_wait(0.0) <= 0


def outside_agent():
    """A random agent taken for one from outside plyground, with a 1 s clock and a
    hang limit of ten times it."""
    agent = parse_agent("random")
    agent.external = True
    agent.budget = lambda: type("B", (), {"time": 1.0})()
    agent.hang_limit = lambda seconds: 10 * seconds
    return agent


def test_an_outside_agent_long_past_its_time_forfeits_and_its_process_is_closed():
    game = get_game("connect4")
    agent = outside_agent()
    search_driver, engine, clock = driver()
    search_driver.start_move(game, game.start(), agent, False)
    clock.now += 9
    assert search_driver.hung() is None and search_driver.search is not None
    clock.now += 2
    assert search_driver.hung() == f"{agent.label} did not answer within 10 s (1 s a move)"
    assert search_driver.search is None and engine.closed == 1
    ticking, _, ticked = driver(engine_clock="tick")  # tests' clock: no real seconds
    ticking.start_move(game, game.start(), agent, False)
    ticked.now += 1000
    assert ticking.hung() is None


def test_a_trace_keeps_every_iteration_when_they_fit_its_cap():
    game = get_game("connect4")
    agent = parse_agent("alphabeta:depth=4")
    search_driver, engine, _ = driver()
    state = game.start()
    for target, kept in ((TRACE_CAP // 2, None), (TRACE_CAP, 7)):
        search_driver.start_trace(game, TracePlan(state, agent, "t", trace_depth=7,
                                                  target=target))
        assert engine.requests[-1].trace and engine.requests[-1].trace_depth == kept
    search = search_driver.search
    search_driver.receive(EngineEvents(search.search_id, [TraceProgress(500, 1000)]))
    assert search.progress == 500 and search.unshown == []
    assert search_driver.recording().startswith("500 of 200,000 nodes (0%)")
    search_driver.receive(EngineDone(search.search_id, done(3, 9), ["step"], False))
    assert search_driver.recorded is search and search_driver.last is None


def decided(search_driver, match, result, iterations=()) -> SearchRecord:
    """The search of the agent to move in `match` that ended with `result`."""
    search = search_driver.start_move(match.game, match.state, match.agent_to_move(),
                                      False)
    search_driver.receive(EngineEvents(search.search_id, list(iterations)))
    search_driver.receive(EngineDone(search.search_id, result, [], False))
    return search


def test_a_quicker_replay_is_the_deepest_iteration_within_its_node_budget():
    game = get_game("connect4")
    match = Match(game, ("alphabeta:depth=9", "human"))
    search_driver, _, _ = driver()
    steps = [iteration(d, 3, n) for d, n in ((5, 900), (6, QUICK_NODES), (7, 10**6))]
    decision = decided(search_driver, match, done(3, 3 * 10**6, depth=9), steps)
    match.play(3)
    assert search_driver.quick_plan() is None  # nothing being recorded
    plan = search_driver.step_through(match)
    assert isinstance(plan, TracePlan) and plan.decision is decision
    assert plan.expected == (3, 0.0, 3 * 10**6) and plan.expected_of == "the decision"
    search_driver.start_trace(game, plan)
    quick = search_driver.quick_plan()
    assert (quick.budget.depth, quick.trace_depth, quick.target) == (6, 6, QUICK_NODES)
    assert quick.expected == (3, 0.0, QUICK_NODES)
    assert quick.title == "a depth-6 replay of a depth-9 decision"
    assert "d: a quicker, shallower replay" in search_driver.recording()


def test_an_mcts_decision_is_replayed_quicker_with_fewer_iterations():
    game = get_game("connect4")
    match = Match(game, ("mcts:iterations=20000,seed=1", "human"))
    search_driver, _, _ = driver()
    decided(search_driver, match, done(3, 20_000))
    match.play(3)
    search_driver.start_trace(game, search_driver.step_through(match))
    quick = search_driver.quick_plan()
    assert quick.budget.iterations == QUICK_ITERATIONS and quick.expected is None
    assert quick.title == (f"a {QUICK_ITERATIONS:,}-iteration replay of a "
                           "20,000-iteration decision")


def test_step_mode_shows_a_recorded_search_again_and_says_why_it_has_none():
    game = get_game("connect4")
    search_driver, _, _ = driver()
    human = Match(game, ("human", "random"))
    assert search_driver.step_through(human).startswith(
        "No agent has moved yet and X is played by hand")
    match = Match(game, ("alphabeta:depth=3", "human"))
    plan = search_driver.step_through(match)  # no move yet: a new search, labelled so
    assert plan.state == match.state and plan.expected is None
    assert plan.title == "a new search of this position (no move was decided yet)"
    decision = decided(search_driver, match, done(3, 50, depth=3))
    decision.trace = ["recorded as it ran"]  # trace mode
    match.play(3)
    match.play(2)
    assert search_driver.step_through(match) is decision
    assert decision.note == "The last move, O's 3, was a human's: shown instead, the " \
                            "search behind X's 4."
    random = Match(game, ("random", "human"))
    decided(search_driver, random, done(3, 1))
    random.play(3)
    assert search_driver.step_through(random) == \
        "Random does not search: there is nothing to step through."


def test_a_replay_is_checked_against_what_it_replays():
    game = get_game("connect4")
    agent = parse_agent("alphabeta:depth=3")
    state = game.start()
    replay = SearchRecord("trace", state, 0, agent, 1, result=done(3, 50),
                          expected=(3, 0.0, 50), expected_of="the decision")
    check = check_replay(replay, game)
    assert check.matches and check.text.startswith("✓ matches the decision: move 4, value")
    assert check.text.endswith(", 50 nodes")
    replay.expected = (2, 0.0, 50)
    assert check_replay(replay, game).matches is False
    played = SearchRecord("trace", state, 0, agent, 1, result=done(3, 50), played=2)
    assert check_replay(played, game).text.startswith("✗ it chose 4, not the game's 3")
    shorter = SearchRecord("trace", state, 0, agent, 1, result=done(3, 5), decision=replay)
    assert check_replay(shorter, game).matches is None
    assert check_replay(SearchRecord("trace", state, 0, agent, 1, result=done(3, 5)),
                        game) is None
