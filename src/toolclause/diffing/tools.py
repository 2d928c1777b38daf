"""Diff two lists of tools: match them, compare each pair, check old examples against the new schema."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from typing import Any

from ..loading import inline_fixtures
from ..model import ToolContract
from ..schema.dialects import as_json_schema
from ..schema.validators import DRAFT, compile_schema
from .equivalence import canon, normal_form
from .kinds import change
from .model import Change, DiffReport, Impact
from .schemas import SchemaComparer
from .widgets import widget_changes

READ_ONLY = "readOnlyHint"
_TEXT_KINDS = {"description": "tool-description-changed", "title": "tool-title-changed"}


def _by_key(tools: Iterable[ToolContract]) -> dict[str, ToolContract]:
    out: dict[str, ToolContract] = {}
    for tool in tools:
        out.setdefault(tool.name, tool)
    return out


def _tool_id(tool: ToolContract) -> str | None:
    value = tool.extra.get("$id")
    return value if isinstance(value, str) and value else None


def match_tools(old: Sequence[ToolContract], new: Sequence[ToolContract]) -> tuple[
        list[tuple[ToolContract, ToolContract]], list[ToolContract], list[ToolContract]]:
    """(pairs, removed, added): by name first, then by `$id` across renames."""
    old_by_name, new_by_name = _by_key(old), _by_key(new)
    pairs = [(old_by_name[n], new_by_name[n]) for n in old_by_name if n in new_by_name]
    removed = [t for n, t in old_by_name.items() if n not in new_by_name]
    added = [t for n, t in new_by_name.items() if n not in old_by_name]
    new_by_id = {_tool_id(t): t for t in added if _tool_id(t)}
    for tool in list(removed):
        twin = new_by_id.get(_tool_id(tool)) if _tool_id(tool) else None
        if twin is not None:
            pairs.append((tool, twin))
            removed.remove(tool)
            added.remove(twin)
    return pairs, removed, added


def diff_tools(old: Sequence[ToolContract], new: Sequence[ToolContract]) -> DiffReport:
    report = DiffReport(tools_old=len(old), tools_new=len(new))
    # what the schemas mean is compared: a Gemini file's "STRING" is the "string" of its twin
    old, new = [as_json_schema(t) for t in old], [as_json_schema(t) for t in new]
    pairs, removed, added = match_tools(old, new)
    for tool in removed:
        report.changes.append(change("tool-removed", tool.name, "", "",
                                     f"tool '{tool.name}' was removed; every call to it now fails"))
    for tool in added:
        report.changes.append(change("tool-added", tool.name, "", "", f"tool '{tool.name}' was added"))
    for before, after in pairs:
        report.changes.extend(diff_pair(before, after))
    report.changes.sort(key=lambda c: (-c.impact, c.tool, c.new_pointer or c.old_pointer))
    return report


def diff_pair(old: ToolContract, new: ToolContract) -> list[Change]:
    changes: list[Change] = []
    name = new.name
    if old.name != new.name:
        changes.append(change("tool-renamed", name, "/name", "/name",
                              f"tool '{old.name}' was renamed to '{new.name}' (same $id); calls by the old name fail"))
    for field, pointer in (("description", "/description"), ("title", "/title")):
        a, b = getattr(old, field), getattr(new, field)
        if a != b:
            changes.append(change(_TEXT_KINDS[field], name, pointer if a is not None else "",
                                  pointer if b is not None else "",
                                  f"the tool's {field} changed: the model chooses tools by it and may now call "
                                  f"this one at other times"))
    changes.extend(_annotation_changes(old, new))
    changes.extend(_schema_changes(old, new, "input"))
    changes.extend(_schema_changes(old, new, "output"))
    changes.extend(_error_changes(old, new))
    changes.extend(widget_changes(old, new))
    return _with_evidence(old, new, changes)


def _annotation_changes(old: ToolContract, new: ToolContract) -> list[Change]:
    a = dict(old.annotations or {})
    b = dict(new.annotations or {})
    changes: list[Change] = []
    if a.get(READ_ONLY) is True and b.get(READ_ONLY) is not True:
        changes.append(change("read-only-removed", new.name, f"/annotations/{READ_ONLY}",
                              f"/annotations/{READ_ONLY}" if READ_ONLY in b else "",
                              "the tool is no longer read-only: it may now change state, and a host that "
                              "auto-approved it as a read will keep doing so unless it re-checks"))
    for key in sorted(set(a) | set(b)):
        if key == READ_ONLY and a.get(READ_ONLY) is True and b.get(READ_ONLY) is not True:
            continue
        if a.get(key) != b.get(key):
            changes.append(change("annotation-changed", new.name,
                                  f"/annotations/{key}" if key in a else "",
                                  f"/annotations/{key}" if key in b else "",
                                  f"annotation {key} changed from {json.dumps(a.get(key))} "
                                  f"to {json.dumps(b.get(key))}"))
    return changes


def _schema_changes(old: ToolContract, new: ToolContract, role: str) -> list[Change]:
    attr, base = ("input_schema", "/inputSchema") if role == "input" else ("output_schema", "/outputSchema")
    a, b = getattr(old, attr), getattr(new, attr)
    if a is None and b is None:
        return []
    if role == "output":
        if a is None:
            return [change("output-schema-added", new.name, "", base, "an outputSchema was declared")]
        if b is None:
            return [change("output-schema-removed", new.name, base, "",
                           "the outputSchema was removed; consumers lose the shape they relied on")]
    a = a if a is not None else {"type": "object", "properties": {}}
    b = b if b is not None else {"type": "object", "properties": {}}
    if canon(a) == canon(b):  # the same JSON (1 and true, 1 and 1.0 told apart): nothing can have changed
        return []
    # compared in normal form, so two spellings of one accepted set are no change (equivalence.py)
    return SchemaComparer(new.name, role, normal_form(a), normal_form(b), base, base).run()


def _error_codes(tool: ToolContract) -> dict[str, int]:
    errors = tool.extra.get("errors")
    out: dict[str, int] = {}
    if isinstance(errors, list):
        for index, entry in enumerate(errors):
            if isinstance(entry, dict) and isinstance(entry.get("code"), str):
                out.setdefault(entry["code"], index)
    return out


def _error_changes(old: ToolContract, new: ToolContract) -> list[Change]:
    a, b = _error_codes(old), _error_codes(new)
    changes = [change("error-code-removed", new.name, f"/errors/{i}", "",
                      f"declared error code {code} was removed; a consumer handling it will never see it, and one "
                      f"that maps codes may now meet an undeclared one")
               for code, i in a.items() if code not in b]
    changes += [change("error-code-added", new.name, "", f"/errors/{i}",
                       f"error code {code} was declared") for code, i in b.items() if code not in a]
    return changes


# --------------------------------------------------------------------------- evidence

def example_arguments(tool: ToolContract) -> list[tuple[str, Any]]:
    """The valid argument examples a contract carries: `examples.valid` (and `fixtures`)."""
    valid = [fixture for fixture in inline_fixtures(tool) if fixture.valid]
    out: list[tuple[str, Any]] = [(f"examples.valid[{index}]", f.arguments) for index, f in enumerate(valid)]
    fixtures = tool.extra.get("fixtures")
    if isinstance(fixtures, list):
        out.extend((label, value) for label, value in fixtures)
    return out


def _with_evidence(old: ToolContract, new: ToolContract, changes: list[Change]) -> list[Change]:
    """Validate the old version's examples against the new schema; name what each break breaks."""
    examples = example_arguments(old)
    breaking = [c for c in changes if c.impact is Impact.BREAKING_CALLS]
    if not examples or not breaking or not isinstance(new.input_schema, dict):
        return changes
    try:
        validator = compile_schema(new.input_schema, DRAFT)
    except Exception:  # an invalid new schema is lint's business (S001); no evidence then
        return changes
    broken: dict[int, list[str]] = {}
    candidates = [i for i, c in enumerate(changes) if c.impact is Impact.BREAKING_CALLS]
    for label, instance in examples:
        for error in validator.iter_errors(instance):
            # the failing keyword's place in the new schema, e.g. /inputSchema/properties/unit/enum
            where = "/inputSchema" + "".join(f"/{p}" for p in error.schema_path)
            related = [i for i in candidates if changes[i].new_pointer and
                       (where.startswith(changes[i].new_pointer) or changes[i].new_pointer.startswith(where))]
            if related:
                # the most specific change explains the failure
                best = max(len(changes[i].new_pointer) for i in related)
                related = [i for i in related if len(changes[i].new_pointer) == best]
            for index in related or candidates:
                if label not in broken.setdefault(index, []):
                    broken[index].append(label)
    return [dataclasses.replace(c, breaks=tuple(broken.get(i, ()))) for i, c in enumerate(changes)]
