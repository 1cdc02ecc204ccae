"""The one message an engine's update arrives in: the app's three engines (a game's
searches, the analysis panel's and hints', reviews) each post it from their reader
thread, and `source` says which, so that the game screen hands it to the right part."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual.message import Message

SEARCH, ANALYSIS, REVIEW = "engine", "analyst", "reviewer"  # the app's engines' names


@dataclass
class EngineUpdate(Message):
    """`update` (EngineStarted, EngineEvents, EngineDone, ...) from the app's engine
    named `source`."""

    source: str
    update: Any
