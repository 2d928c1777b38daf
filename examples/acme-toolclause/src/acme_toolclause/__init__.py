"""ACME's toolclause rules (a worked example of a plugin: see README.md)."""
