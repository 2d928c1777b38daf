"""A folder is one tool set: list rules see the tools of every file in it, whatever the layout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import toolclause
from toolclause.linting.config import config_from_mapping
from toolclause.linting.engine import tool_sets
from toolclause.model import ToolContract

SCHEMA = {"type": "object", "properties": {"account": {"type": "string", "description": "Account id"},
                                           "amount": {"type": "number", "description": "Amount in euros"}},
          "required": ["account", "amount"], "additionalProperties": False}


def tool(name: str, description: str = "Moves money between two accounts of the same customer.") -> dict:
    return {"name": name, "description": description, "inputSchema": SCHEMA}


def write(folder: Path, name: str, document) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(document, indent=2))
    return path


def found(source, code: str, **settings) -> list:
    config = config_from_mapping(settings) if settings else None
    return [d for d in toolclause.lint(source, config=config) if d.code == code]


def test_two_files_naming_one_tool_are_duplicates_in_a_folder(tmp_path: Path):
    first = write(tmp_path, "a.json", tool("get_weather", "Current weather for one city, in metric units."))
    second = write(tmp_path, "b.json", tool("get_weather", "Weather forecast for one city for the coming days."))
    duplicates = found(tmp_path, "S011")
    assert duplicates, "S011 sees both files of the folder"
    # each finding names its own file, with a position in it
    assert {d.file for d in duplicates} <= {str(first), str(second)}
    assert all(d.line is not None for d in duplicates)
    assert not found(tmp_path, "S011", toolset="file")


def test_a_duplicate_in_another_file_names_that_file_and_its_line(tmp_path: Path):
    write(tmp_path, "a.json", [tool("get_forecast", "Weather forecast for one city for the coming days."),
                               tool("get_weather", "Current weather for one city, in metric units.")])
    second = write(tmp_path, "b.json", tool("get_weather", "Weather forecast for one city for the coming days."))
    (duplicate,) = found(tmp_path, "S011")
    assert duplicate.file == str(second) and duplicate.pointer == "/name"
    lines = (tmp_path / "a.json").read_text().splitlines()
    line = next(number for number, text in enumerate(lines, 1) if '"name": "get_weather"' in text)
    assert f"already used by a tool in {tmp_path / 'a.json'} (line {line}, at /1);" in duplicate.message
    assert "the files of one folder are one set" in duplicate.message


def test_a_preview_tool_in_its_own_file_counts(tmp_path: Path):
    write(tmp_path, "transfer_funds.json", tool("transfer_funds"))
    alone = found(tmp_path, "X003")
    assert [d.tool for d in alone] == ["transfer_funds"]
    write(tmp_path, "quote_transfer.json",
          tool("quote_transfer", "Shows the fees and the resulting balances of a transfer without moving money."))
    assert not found(tmp_path, "X003")
    assert found(tmp_path, "X003", toolset="file"), "per file, the preview is not seen"


def test_too_many_tools_counts_the_folder(tmp_path: Path):
    for index in range(4):
        write(tmp_path, f"t{index}.json", tool(f"tool_{index}", f"Looks up record number {index} of the ledger."))
    assert found(tmp_path, "P005", budgets={"max-tools": 3})
    assert not found(tmp_path, "P005", budgets={"max-tools": 3}, toolset="file")


def test_other_folders_are_other_sets_unless_all(tmp_path: Path):
    write(tmp_path / "v1", "w.json", tool("get_weather"))
    write(tmp_path / "v2", "w.json", tool("get_weather"))
    assert not found(tmp_path, "S011")
    assert found(tmp_path, "S011", toolset="all")


def test_a_file_of_several_lists_keeps_them_apart(tmp_path: Path):
    # JSONL of tool lists: each line is its own request's tools
    lines = [json.dumps([tool("get_weather")]), json.dumps([tool("get_weather")])]
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(lines) + "\n")
    write(tmp_path, "other.json", tool("get_weather"))
    loaded = toolclause.load(tmp_path)
    sets = tool_sets(loaded, "folder")
    assert sorted(len(s) for s in sets) == [1, 1, 1]
    assert not found(tmp_path, "S011")


def test_standard_input_and_live_servers_are_sets_of_their_own():
    def contract(name: str, file: str) -> ToolContract:
        (loaded,) = toolclause.load(tool(name))
        return loaded.with_origin(file) if hasattr(loaded, "with_origin") else _moved(loaded, file)

    tools = [contract("a", "-"), contract("b", "server:node /srv/x.js"), contract("c", "server:node /srv/y.js")]
    assert [len(s) for s in tool_sets(tools, "folder")] == [1, 1, 1]
    assert [len(s) for s in tool_sets(tools, "all")] == [3]


def _moved(contract: ToolContract, file: str) -> ToolContract:
    from dataclasses import replace

    return replace(contract, origin=replace(contract.origin, file=file))


@pytest.mark.parametrize("mode", ["folder", "file", "all"])
def test_batched_runs_find_what_one_run_finds(tmp_path: Path, mode: str):
    from toolclause.linting import run as running  # the lint every door runs: batched when it shows progress
    from toolclause.linting.engine import lint_contracts, sort_diagnostics

    for index in range(6):
        write(tmp_path / f"d{index % 2}", f"t{index}.json", tool("get_weather" if index < 4 else f"t{index}"))
    tools = toolclause.load(tmp_path)
    config = config_from_mapping({"toolset": mode})
    whole = lint_contracts(tools, config)
    sort_diagnostics(whole)
    old = running.BATCH_TOOLS
    running.BATCH_TOOLS = 1
    try:
        batched = running.lint_in_batches(tools, config, lambda done, total: None)
    finally:
        running.BATCH_TOOLS = old
    assert [d.to_dict() for d in batched] == [d.to_dict() for d in whole]


def test_look_alike_tools_in_two_files_of_a_folder(tmp_path: Path):
    says = "Current weather for one city, in metric units, with wind and rain."
    write(tmp_path, "weather.json", tool("get_weather", says))
    write(tmp_path, "conditions.json", tool("get_conditions", says))
    assert found(tmp_path, "D008")
    assert not found(tmp_path, "D008", toolset="file")
