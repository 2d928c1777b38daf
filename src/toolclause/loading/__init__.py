"""Bytes, files and folders → ToolContracts, with a source map.

- `shapes.py`     one tool object, in any shape people write, → a ToolContract
- `documents.py`  a parsed document → the tools in it (lists, `tools/list`, JSON-RPC, …)
- `text.py`       JSON, JSON Lines and YAML text → documents → tools
- `files.py`      files, standard input and folders
- `sources.py`    `load()`, for whatever the Python API is given
- `positions.py`  pointer → (line, column) in the user's text
- `codes.py`      why something could not be read (`UNREADABLE`)

Nothing here raises on bad input: every file or record that cannot be read
becomes an `Unreadable` with a code, the file, the pointer and the reason.
"""

from __future__ import annotations

from .codes import UNREADABLE
from .documents import contracts_from_document
from .files import load_file, load_paths, load_stdin
from .result import LoadResult
from .shapes import INPUT_FORMATS
from .sources import load
from .text import MAX_DOCUMENT_BYTES, SUFFIXES, detect_kind, load_text

__all__ = ["INPUT_FORMATS", "LoadResult", "MAX_DOCUMENT_BYTES", "SUFFIXES", "UNREADABLE", "contracts_from_document",
           "detect_kind", "load", "load_file", "load_paths", "load_stdin", "load_text"]
