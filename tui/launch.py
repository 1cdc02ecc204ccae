"""The `plyground` command's entry point. Loading the CLI takes a second or two (numba,
Textual, the games); Ctrl-C in that time ends the command with a line that says so,
not with a traceback from whichever import it cut short."""
import sys

from .exit_codes import INTERRUPTED


def main() -> None:
    try:
        from .cli import main as run_cli
        from .cli.stopping import install

        install()  # from now on, Ctrl-C says at once that the command is stopping
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(INTERRUPTED)
    run_cli()
