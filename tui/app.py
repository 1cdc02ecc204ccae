"""The Textual application (being written)."""


def run(game_id=None, sides=None, position=None):
    raise NotImplementedError("the app is being written")
