"""The OWASP MCP Top 10 (2025), which security teams report MCP risks against, and how the security rules
are tagged with it.

A rule names the risks its findings are instances of in its `tags` (`"MCP03:2025"`); reports carry them:
`toolclause rules CODE`, the JSON report (`tags` of each finding), SARIF (`properties.tags` of the rule,
as `owasp-mcp/MCP03:2025`, so code-scanning dashboards group them).  The names are the OWASP project's
(https://owasp.org/www-project-mcp-top-10/, in beta: its IDs are stable enough to cite).
"""

from __future__ import annotations

from collections.abc import Iterable

PROJECT = "https://owasp.org/www-project-mcp-top-10/"
SARIF_PREFIX = "owasp-mcp/"

OWASP_MCP_TOP_10 = {
    "MCP01:2025": "Token Mismanagement & Secret Exposure",
    "MCP02:2025": "Privilege Escalation via Scope Creep",
    "MCP03:2025": "Tool Poisoning",
    "MCP04:2025": "Software Supply Chain Attacks & Dependency Tampering",
    "MCP05:2025": "Command Injection & Execution",
    "MCP06:2025": "Intent Flow Subversion (prompt injection through context)",
    "MCP07:2025": "Insufficient Authentication & Authorization",
    "MCP08:2025": "Lack of Audit and Telemetry",
    "MCP09:2025": "Shadow MCP Servers",
    "MCP10:2025": "Context Injection & Over-Sharing",
}


def named(tags: Iterable[str]) -> list[str]:
    """Each tag with its risk's name where it is an OWASP MCP ID ("MCP03:2025 Tool Poisoning")."""
    return [f"{tag} {OWASP_MCP_TOP_10[tag]}" if tag in OWASP_MCP_TOP_10 else tag for tag in tags]


def sarif_tags(tags: Iterable[str]) -> list[str]:
    """SARIF's `properties.tags` of a rule: `security` and each OWASP ID as `owasp-mcp/MCP03:2025` (empty for none)."""
    listed = [f"{SARIF_PREFIX}{tag}" if tag in OWASP_MCP_TOP_10 else tag for tag in tags]
    return ["security", *listed] if any(tag in OWASP_MCP_TOP_10 for tag in tags) else listed


__all__ = ["OWASP_MCP_TOP_10", "PROJECT", "SARIF_PREFIX", "named", "sarif_tags"]
