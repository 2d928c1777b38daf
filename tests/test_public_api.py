"""The public functions at work (what the package exports is checked in test_exported_members.py)."""

from __future__ import annotations

import toolclause


def test_lint_accepts_paths_objects_strings_and_contracts(tmp_path):
    import json

    tool = {"name": "t", "description": "Looks up one record by id and returns it.",
            "inputSchema": {"type": "object", "properties": {}, "required": ["id"]}}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(tool))
    from_path = toolclause.lint(path, select=["S003"])
    from_text = toolclause.lint(json.dumps(tool), select=["S003"])
    from_object = toolclause.lint(tool, select=["S003"])
    from_contracts = toolclause.lint(toolclause.load(tool), select=["S003"])
    assert [d.code for d in from_path] == [d.code for d in from_text] == [d.code for d in from_object] == \
        [d.code for d in from_contracts] == ["S003"]
    assert from_path[0].file == str(path) and from_path[0].line == 1


def test_load_raises_with_every_unreadable_record():
    import pytest

    with pytest.raises(ValueError, match="/1: expected a tool object"):
        toolclause.load([{"name": "a", "inputSchema": {}}, 3])
