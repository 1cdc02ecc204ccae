"""`plyground serve` in a real browser: Debian's headless Chromium, driven by its
ChromeDriver (both installed by `make test`'s setup), opens the served page, sees the
setup screen, starts a Connect 4 game against MCTS, drops a disc with a key and sees
the agent answer.

The page draws the terminal on a canvas, so the test reads the screen the way the
page does: it records the bytes the page's websocket receives (a script added to the
page before its own) and replays them into a terminal emulator (pyte) of the size
the page asked for.
"""
from __future__ import annotations

import base64
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pyte
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from tests.processes import as_from_a_terminal, end_session

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
WAIT_SECONDS = 90  # the most a screen may take to appear (a hang, not a pace)

# Added to the page before its own scripts: keeps what its websockets receive, and
# the terminal size they ask for (in the URL, then in "resize" messages).
RECORDER = """
(() => {
  const Real = window.WebSocket;
  window.__received = [];
  window.__size = null;
  function Recorded(url, protocols) {
    const socket = protocols === undefined ? new Real(url) : new Real(url, protocols);
    window.__sockets = (window.__sockets || 0) + 1;
    const query = new URL(url, location.href).searchParams;
    if (query.get("width")) {
      window.__size = {width: +query.get("width"), height: +query.get("height")};
    }
    socket.addEventListener("message", (event) => {
      if (event.data instanceof ArrayBuffer) {
        window.__received.push(new Uint8Array(event.data));
      }
    });
    const send = socket.send.bind(socket);
    socket.send = (data) => {
      try {
        const message = JSON.parse(data);
        if (message[0] === "resize") window.__size = message[1];
      } catch (error) {}
      return send(data);
    };
    return socket;
  }
  Recorded.prototype = Real.prototype;
  Object.assign(Recorded, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
  window.WebSocket = Recorded;
})();
"""

TAKE = """
const chunks = window.__received;
window.__received = [];
return chunks.map((bytes) => {
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
  }
  return btoa(text);
});
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def served(tmp_path):
    """`plyground serve` on a free port of 127.0.0.1: the address it prints, token
    included; its whole session is ended after the test (the server and the app it
    started for the page)."""
    port = free_port()
    env = {**os.environ, "PLYGROUND_HOME": str(tmp_path)}
    printed = tmp_path / "serve.out"
    with open(printed, "wb") as output:
        server = subprocess.Popen([sys.executable, "-m", "plyground", "serve", "--port",
                                   str(port)], env=env, stdout=output,
                                  stderr=subprocess.STDOUT, start_new_session=True,
                                  preexec_fn=as_from_a_terminal)
    try:
        deadline = time.monotonic() + WAIT_SECONDS
        while not (found := re.search(r"open (http://\S+)", printed.read_text())):
            if server.poll() is not None or time.monotonic() > deadline:
                raise AssertionError("the server did not start: " + printed.read_text())
            time.sleep(0.1)
        yield found.group(1)
    finally:
        end_session(server)


@pytest.fixture
def browser(tmp_path):
    assert CHROMIUM.exists() and CHROMEDRIVER.exists(), (
        "Debian's chromium and chromium-driver are missing: `make test` installs them")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--window-size=1280,900", f"--user-data-dir={tmp_path / 'chromium'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                               {"source": RECORDER})
        yield driver
    finally:
        driver.quit()


class PageScreen:
    """The terminal the page shows, rebuilt from the bytes its websocket received."""

    def __init__(self, driver) -> None:
        self.driver = driver
        self.screen: pyte.Screen | None = None
        self.stream: pyte.ByteStream | None = None

    def text(self) -> str:
        size = self.driver.execute_script("return window.__size")
        if size is None:
            return ""
        if self.screen is None:
            self.screen = pyte.Screen(size["width"], size["height"])
            self.stream = pyte.ByteStream(self.screen)
        elif (self.screen.columns, self.screen.lines) != (size["width"], size["height"]):
            self.screen.resize(size["height"], size["width"])
        for chunk in self.driver.execute_script(TAKE):
            self.stream.feed(base64.b64decode(chunk))
        return "\n".join(self.screen.display)

    def wait_for(self, *texts: str) -> str:
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            shown = self.text()
            if all(text in shown for text in texts):
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"the page never showed {texts}; it shows:\n{shown}")
            time.sleep(0.2)


def press(driver, key: str, control: bool = False) -> None:
    """A key typed into the page's terminal (it has the keyboard focus), with Ctrl
    held down if `control`."""
    actions = ActionChains(driver)
    if control:
        actions.key_down(Keys.CONTROL)
    actions.send_keys(key)
    if control:
        actions.key_up(Keys.CONTROL)
    actions.perform()


def test_the_served_app_plays_connect4_in_a_real_browser(served, browser):
    browser.get(served)
    page = PageScreen(browser)
    page.wait_for("Start game", "You play", "Connect 4")
    # the keyboard to the terminal (a click would land on a widget of the screen)
    browser.execute_script("document.querySelector('.xterm-helper-textarea').focus()")
    press(browser, "s", control=True)  # Start game, with the setup's defaults
    page.wait_for("X: You", "O: MCTS", "X to move")
    press(browser, "4")
    shown = page.wait_for("· played", "X to move — your turn")
    assert "Moves" in shown and "1. 4" in shown.replace("  ", " ")
