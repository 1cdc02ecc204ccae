"""`python -m plyground` runs the same CLI as the `plyground` console script."""
from plyground.tui.launch import main

# The guard matters: the engine's spawned process re-imports the main module.
if __name__ == "__main__":
    main()
