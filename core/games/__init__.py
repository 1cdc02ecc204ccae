"""The game implementations. Importing this package registers every game, in the order
the menus list them."""
from . import connect4  # noqa: F401
from . import cephalopod  # noqa: F401
from . import boom  # noqa: F401
from . import quarto  # noqa: F401
