"""The shipped opening suites, one text file a suite (format: core/play/openings.py)."""
