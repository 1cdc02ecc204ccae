"""Until a search's clock starts (the engine first compiles or loads its kernels), the
game screen says the engine is preparing; no thinking time runs over an empty view."""
from __future__ import annotations

from plyground.core.play.worker import EngineStarted
from plyground.tui.screens.game import GameScreen
from tests.tui.helpers import SIZE, make_app, settled, status_text


async def test_the_screen_says_preparing_until_the_searchs_clock_starts(monkeypatch):
    seen: list[tuple[str, str]] = []  # (status, inspector's summary) around the start
    on_engine_update = GameScreen.on_engine_update

    def record(screen, message):
        started = isinstance(message.update, EngineStarted)
        if started:
            seen.append((status_text(screen.app), str(screen.inspector.summary)))
        on_engine_update(screen, message)
        if started:
            seen.append((status_text(screen.app), str(screen.inspector.summary)))

    monkeypatch.setattr(GameScreen, "on_engine_update", record)
    app = make_app("quarto", sides=("mcts:iterations=2000,seed=1", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot, app)
        assert app.game_screen.match.moves  # MCTS has played
    (status, summary), (status_after, summary_after) = seen
    assert "(MCTS (2000 iterations)): preparing the engine…" in status
    assert summary == "Player 1: preparing the engine…"
    assert "is thinking…" in status_after and "preparing" not in status_after
    assert summary_after == "Player 1 is thinking…"
