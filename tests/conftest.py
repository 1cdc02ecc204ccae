"""Test-wide settings."""
from hypothesis import settings

# Property tests explore the same examples on every run: CI must not flake.
settings.register_profile("plyground", derandomize=True, deadline=None, max_examples=100)
settings.load_profile("plyground")
