"""These tests import the package, so they are collected only where it is installed:
a module that cannot be imported would stop plyground's whole test run at collection.
Where it is missing, plyground's tests/plugins/test_tictactoe_plugin.py fails instead
and says how to install it (`make test` does)."""
import importlib.util

if importlib.util.find_spec("plyground_tictactoe") is None:
    collect_ignore_glob = ["test_*.py"]
