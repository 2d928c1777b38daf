"""`toolclause lsp`: findings in the editor, as you type (a language server over stdio, extra `lsp`).

- `ranges.py`  a finding's place as an LSP range: start and end, in UTF-16 code units as LSP counts
- `server.py`  the server (pygls): lint on open, change (debounced) and save, quick fixes, fix all

Every finding comes from `toolclause.linting.run`, the pipeline the command line runs, with the
configuration found from the document's folder: the editor shows what `toolclause lint` reports.
"""
