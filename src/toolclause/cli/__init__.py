"""The command line: argument parsing, reading and writing files, and the only code that prints or exits."""

from .. import _dataclass_code

# before the command line imports the model, the rules and the engine: their dataclasses' methods
# come compiled from the last run (see toolclause._dataclass_code)
_dataclass_code.install()
