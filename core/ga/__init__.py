"""The genetic-algorithm agent for Connect 4: its strategies, profiles and trainer."""
