"""`python -m plyground` runs the same CLI as the `plyground` console script."""
from plyground.tui.cli import main

main()
