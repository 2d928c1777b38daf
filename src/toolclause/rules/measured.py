"""What each rule's findings were measured to be worth on real MCP servers.

`data/precision.json` is written by `bench/precision.py table --write` from the blind verdicts
kept beside the server snapshots (tests/data/servers/verdicts.jsonl); `toolclause rules`
quotes it, so a user reads, next to each rule, how often its findings were right and why
it has the severity it has.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base import Rule

DATA = Path(__file__).resolve().parent.parent / "data" / "precision.json"
LEAST_JUDGED = 5  # fewer judged findings than this say too little to quote a ratio

# why a finding has the severity it has: the catalogue's meaning of each level
RATIONALE = {
    "error": "error: a provider rejects the definition, or no call can ever satisfy it",
    "warning": "warning: the tool works, but models will misuse it; a careful author fixes it",
    "info": "info: a suggestion; the tool is not wrong without it",
}

# the same levels for the rules on MCP client configurations (family M), which judge a user's file, not a tool
CLIENT_CONFIG_RATIONALE = {
    "error": "error: anyone who can read the file can act with what it holds",
    "warning": "warning: it leaves a way in (a moving package, a clear-text channel, a shell); "
               "a careful user closes it",
    "info": "info: a suggestion; the configuration is not wrong without it",
}
CLIENT_CONFIGS_MEASURED = ("on MCP client configurations written as the clients' documentation shows them, with "
                           "problems planted (tests/data/client_configs, docs/precision.md): every planted one found, "
                           "nothing else reported")


def rationale(rule: type[Rule]) -> str:
    """Why the rule has its severity, in the words of what it judges."""
    if rule.severity_rationale:
        return rule.severity_rationale
    table = CLIENT_CONFIG_RATIONALE if rule.client_config else RATIONALE
    return table[rule.severity.label]


@cache
def measurements() -> dict[str, Any]:
    try:
        return json.loads(DATA.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def of_code(code: str) -> dict[str, dict[str, int]]:
    """{severity: {"findings", "judged", "right", "debatable", "wrong"}} for one code ({} when never measured)."""
    codes = measurements().get("codes", {})
    return dict(codes.get(code, {}))


def precision_cell(code: str) -> str:
    """The catalogue's column: right ÷ judged at warning or error, e.g. '0.95 (20)', or '-'."""
    right = judged = 0
    for severity, counts in of_code(code).items():
        if severity in ("error", "warning"):
            right += counts.get("right", 0)
            judged += counts.get("judged", 0)
    return f"{right / judged:.2f} ({judged})" if judged >= LEAST_JUDGED else "-"


def measured_line(code: str, client_config: bool = False) -> str:
    """One line: how the code's findings were judged on real servers, at each severity it reports (for a rule on
    client configurations, what they were measured on instead)."""
    if client_config:
        return CLIENT_CONFIGS_MEASURED
    where = measurements().get("measured_on", {})
    parts = []
    for severity in ("error", "warning", "info"):
        counts = of_code(code).get(severity)
        if not counts:
            continue
        judged = counts.get("judged", 0)
        found = counts.get("findings", 0)
        if judged >= LEAST_JUDGED:
            parts.append(f"{counts['right']} of {judged} judged right at {severity} "
                         f"({counts['right'] / judged:.2f}; {found:,} findings)")
        else:
            parts.append(f"{found:,} findings at {severity}, {judged} judged")
    if not parts:
        return "not measured on real servers yet (no finding there)"
    servers, tools = where.get("servers", 0), where.get("tools", 0)
    return f"on {servers} real MCP servers ({tools:,} tools), judged blind: " + "; ".join(parts)


__all__ = ["CLIENT_CONFIGS_MEASURED", "CLIENT_CONFIG_RATIONALE", "RATIONALE", "measured_line", "measurements",
           "of_code", "precision_cell", "rationale"]
