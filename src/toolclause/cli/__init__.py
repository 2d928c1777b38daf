"""The command line: argument parsing, reporters, and the only code that prints or exits."""
