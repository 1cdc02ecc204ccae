"""Test-wide settings."""
from hypothesis import settings

# Property tests explore the same examples on every run: CI must not flake.
settings.register_profile("plyground", derandomize=True, deadline=None, max_examples=100)
settings.load_profile("plyground")

import os
import tempfile

# Nothing a test does may write to the user's own data folder (logs, the game
# history): the whole run gets a folder of its own, which subprocesses inherit.
if "PLYGROUND_TEST_HOME" not in os.environ:
    os.environ["PLYGROUND_HOME"] = os.environ["PLYGROUND_TEST_HOME"] = tempfile.mkdtemp(
        prefix="plyground-tests-")
