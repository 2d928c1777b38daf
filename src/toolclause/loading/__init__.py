"""Bytes, files and folders → ToolContracts, with a source map.

- `shapes.py`     one tool object, in any shape people write, → a ToolContract
- `documents.py`  a parsed document → the tools in it (lists, `tools/list`, JSON-RPC, …)
- `text.py`       JSON, JSON Lines and YAML text → documents → tools
- `files.py`      files, standard input and folders
- `contract_files.py`  which file of a contracts folder holds what; handoffs, state schemas, fixtures
- `sources.py`    `load()`, for whatever the Python API is given
- `positions.py`  pointer → (line, column) in the user's text
- `codes.py`      why something could not be read (`UNREADABLE`)

Nothing here raises on bad input: every file or record that cannot be read
becomes an `Unreadable` with a code, the file, the pointer and the reason.
"""

from __future__ import annotations

from ..formats import INPUT_FORMATS
from .codes import UNREADABLE
from .contract_files import contract_kind, every_fixture, inline_fixtures, load_file_text
from .documents import contracts_from_document
from .files import load_file, load_paths, load_stdin
from .result import LoadResult
from .sources import load
from .text import MAX_DOCUMENT_BYTES, SUFFIXES, detect_kind, load_text

__all__ = ["INPUT_FORMATS", "LoadResult", "MAX_DOCUMENT_BYTES", "SUFFIXES", "UNREADABLE", "contract_kind",
           "contracts_from_document", "detect_kind", "every_fixture", "inline_fixtures", "load", "load_file",
           "load_file_text", "load_paths", "load_stdin", "load_text"]
