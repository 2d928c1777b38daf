"""The client-config rules (family M) over the MCP client configurations a run read.

They read each configuration's own document, not tools: a finding names the file, the server
(as the finding's tool), the pointer into the file as written, line and column.  The
configuration chooses them and sets their severity as it does every rule's, and per-file
ignores apply to the configuration file.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..loading.client_configs import ClientConfig
from ..model import Diagnostic, Severity
from ..rules import INDEX, load_rules
from ..rules.base import Finding, LintContext, Rule
from .config import LintConfig


def client_config_rules(config: LintConfig) -> list[Rule]:
    chosen = [entry for entry in INDEX if entry.client_config and config.enabled(entry.code)]
    return [rule_cls() for rule_cls in load_rules(chosen)]


def _server_of(config: ClientConfig, pointer: str) -> str | None:
    for server in config.servers:
        if pointer == server.pointer or pointer.startswith(server.pointer + "/"):
            return server.name
    return None


def _diagnostic(rule: Rule, severity: Severity, config: ClientConfig, finding: Finding) -> Diagnostic:
    if finding.severity is not None and finding.severity < severity:
        severity = finding.severity
    line, column = config.position(finding.pointer)
    return Diagnostic(rule.code, rule.name, severity, finding.message, _server_of(config, finding.pointer),
                      config.file, finding.pointer, line, column, finding.fix)


def lint_client_configs(configs: Sequence[ClientConfig], config: LintConfig,
                        ctx: LintContext | None = None) -> list[Diagnostic]:
    """Every finding of the selected M rules on these configurations (not yet in report order)."""
    rules = client_config_rules(config)
    if not rules or not configs:
        return []
    ctx = ctx or LintContext(targets=config.targets, options=config.rule_options, budgets=config.budgets)
    found: list[Diagnostic] = []
    for client_config in configs:
        for rule in rules:
            if config.ignored_in_file(rule.code, client_config.file):
                continue
            severity = config.severity.get(rule.code, rule.severity)
            try:
                found.extend(_diagnostic(rule, severity, client_config, finding)
                             for finding in rule.check_config(client_config, ctx))
            except Exception as exc:  # one rule on one file: reported there, the run goes on
                message = (f"rule {rule.code} could not check this configuration ({type(exc).__name__}); "
                           f"the other rules were checked")
                found.append(Diagnostic(rule.code, rule.name, Severity.ERROR, message, file=client_config.file))
    return found


__all__ = ["client_config_rules", "lint_client_configs"]
