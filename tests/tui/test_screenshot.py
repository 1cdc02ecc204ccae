"""The command palette's Screenshot saves an SVG of the screen in the current folder
(Textual's default, a downloads folder, may not exist: it then said "Failed to save
screenshot"; the UI fuzzer found it)."""
from __future__ import annotations

from tests.tui.helpers import SIZE, make_app, record_notifications, wait_until


async def test_a_screenshot_is_saved_in_the_current_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no Downloads folder there
    app = make_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        said = record_notifications(app)
        app.deliver_screenshot()
        await wait_until(pilot, lambda: said)
        saved = list(tmp_path.glob("*.svg"))
        assert len(saved) == 1 and said[0].startswith("Saved screenshot to")
        assert "Connect" in saved[0].read_text()  # the screen (spaces are &#160;)
