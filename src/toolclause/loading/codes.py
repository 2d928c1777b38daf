"""Why a file or record could not be read: the codes of `Unreadable`.

`skippable` marks the codes that, for a file met while walking a folder, mean
"this file is something else" (a package.json, a config) rather than "this
file is broken": a folder's file whose every problem is skippable is left out
silently.  A file named explicitly is always reported.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Code, code_table


@dataclass(frozen=True, slots=True)
class UnreadableCode(Code):
    skippable: bool = False


UNREADABLE = code_table([
    # the bytes
    UnreadableCode("no-such-path", "no file or folder by that name"),
    UnreadableCode("cannot-read", "the operating system refused to read the file or list the folder"),
    UnreadableCode("not-a-regular-file", "a FIFO, device or socket (perhaps behind a symlink), not read"),
    UnreadableCode("too-large", "a document or JSONL record over the size limit, not read"),
    UnreadableCode("not-utf8", "the bytes are not UTF-8 text"),
    UnreadableCode("python-source", "a Python file named as a tool file (its Toolbox is named `app.py:box`)"),
    # the text
    UnreadableCode("empty", "no document in the text (nothing, or only YAML comments)", skippable=True),
    UnreadableCode("invalid-json", "the text is not JSON"),
    UnreadableCode("invalid-yaml", "the text is not YAML"),
    UnreadableCode("too-deep", "nested deeper than any tool definition, not read"),
    UnreadableCode("too-many-aliases", "YAML aliases that would expand the document past the node budget "
                                       "(an alias bomb) or into itself, not read"),
    UnreadableCode("number-too-long", "an integer with more digits than a number can be read with, not read"),
    # the tool
    UnreadableCode("not-a-tool", "an object in no tool shape toolclause knows", skippable=True),
    UnreadableCode("not-an-object", "a value where a tool object was expected"),
    UnreadableCode("malformed-tool", "a tool shape with a part of the wrong kind (an OpenAI 'function' that is "
                                     "not an object)"),
    UnreadableCode("server-not-listed", "a server of an MCP client configuration that could not be started, "
                                        "reached or listed"),
    UnreadableCode("invalid-toml", "an MCP client configuration in TOML (Codex's config.toml) that is not TOML"),
    UnreadableCode("no-servers", "an MCP client configuration with no server table in it"),
    UnreadableCode("too-many", "an MCP client configuration with more server entries than are read"),
    UnreadableCode("unknown-input-format", "an input format toolclause does not read was named"),
    # the other contract documents (see contract_files.py)
    UnreadableCode("schema-not-object", "a handoff or state schema that is not a JSON object"),
    UnreadableCode("missing-id", "a handoff schema without a string $id"),
    UnreadableCode("missing-version", "a state schema without an integer version of 1 or more"),
])
"""{code: UnreadableCode} for every `Unreadable`."""


def skippable(code: str) -> bool:
    return UNREADABLE[code].skippable
