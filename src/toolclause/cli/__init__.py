"""The command line: argument parsing, reading and writing files, and the only code that prints or exits."""
