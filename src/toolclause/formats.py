"""The names of the formats toolclause reads and writes, without the modules that implement them.

The command line offers these as choices before it knows which command runs, so
they live here rather than in `loading` (the readers of each input shape) or
`report` (the writers of each report): `toolclause --version` and `--help` then
import neither.  Each of those packages checks its table against these names.
"""

from __future__ import annotations

# the shapes of tool objects `lint`, `export` and `diff` read (loading.shapes.READERS has one reader each)
TOOL_FORMATS = ("mcp", "anthropic", "openai-chat", "openai-responses", "function", "bfcl", "acebench", "gemini",
                "vscode", "seal-tools", "property-map", "parameter-list", "rapidapi")
INPUT_FORMATS = ("auto", *TOOL_FORMATS)  # what --input-format takes

# lint's reports (report.REPORTERS has one writer each) and diff's
REPORT_FORMATS = ("text", "json", "sarif", "github", "junit", "html")
DIFF_FORMATS = ("text", "json", "markdown")
