"""`python -m toolclause`: the same command line as the `toolclause` executable."""

from toolclause.cli.main import console

if __name__ == "__main__":
    console()
