"""M — MCP client configurations: what `claude_desktop_config.json`, `.cursor/mcp.json`, VS Code's
`mcp.json`, Claude Code's `~/.claude.json`, Codex's `config.toml` and Gemini CLI's `settings.json`
say about the servers they start (run with `--mcp-config`)."""

from .m001_literal_credential import LiteralCredential
from .m002_unpinned_runner import UnpinnedRunner
from .m003_plain_http_remote import PlainHttpRemote
from .m004_shell_wrapper import ShellWrapper

RULES = (LiteralCredential, UnpinnedRunner, PlainHttpRemote, ShellWrapper)
