"""The `toolclause` executable and `python -m toolclause`: the command line, `--version` answered before it loads.

Hooks, editors and CI scripts run `toolclause --version` to see what is installed.  Answered
here, it costs the interpreter's start-up and the package root, not click and the command
line (which were nearly three quarters of its time).  Everything else is `toolclause.cli.main.console`.
"""

import sys

from toolclause._version import __version__


def console() -> None:
    if sys.argv[1:] == ["--version"]:
        sys.stdout.write(f"toolclause, version {__version__}\n")  # what click's version option prints
        return
    from toolclause.cli.main import console as command_line

    command_line()


if __name__ == "__main__":
    console()
