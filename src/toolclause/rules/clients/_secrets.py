"""Is a configured value a credential written out, or a reference to one, or a placeholder?

A reference is left to the client to fill in (`${env:TOKEN}` in VS Code and Cursor, `${TOKEN}` in
Claude Code, `$TOKEN`, `%TOKEN%`, `{env:TOKEN}`, `${input:…}`): the file holds no secret.  A
placeholder copied from a README (`<YOUR_TOKEN>`, `your-api-key-here`, `xxxx`) is none either.
A value is a credential when it has the shape of a known token (`ghp_…`, `sk-…`, `AKIA…`), or
when its name says it is one (`API_KEY`, `Authorization`, `?token=`) and the value looks like
one: long enough, no spaces, not a path, a URL, a number or a yes/no.
"""

from __future__ import annotations

from ... import _lazy_re as re

_REFERENCE = re.compile(r"\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|%[A-Za-z_][A-Za-z0-9_]*%|\{env:[^}]*\}")
_SCHEME = re.compile(r"(?i)^\s*(bearer|basic|token|apikey|api-key)\s+")
_PLACEHOLDER = re.compile(
    r"(?i)<[^>]*>|\byour|_your|your_|x{4,}|\*{3,}|\.{3}|…|changeme|change[-_ ]me|placeholder|replace[-_ ]?(me|with)"
    r"|example|dummy|redacted|\bhere\b|_here\b|-here\b|\btodo\b|^(?:none|null|test|secret|token|password)$")
_NAME_ONLY = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")  # GITHUB_TOKEN: a variable's name, not its value
_PATH = re.compile(r"^(?:[~./]|[A-Za-z]:[\\/]|\\\\)|\.(?:json|pem|key|p12|txt|env|ya?ml)$", re.I)
_NUMBER_OR_WORD = re.compile(r"(?i)^(?:-?\d+(?:\.\d+)?|true|false|yes|no|on|off|enabled?|disabled?)$")

# known token formats: the value alone says it is a credential, whatever it is called
TOKEN_SHAPES = (
    ("a GitHub token", re.compile(r"^(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})$")),
    ("a GitLab token", re.compile(r"^glpat-[A-Za-z0-9_-]{20,}$")),
    ("an Anthropic key", re.compile(r"^sk-ant-[A-Za-z0-9_-]{20,}$")),
    ("an OpenAI-style key", re.compile(r"^sk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}$")),
    ("a Stripe key", re.compile(r"^(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}$")),
    ("an AWS access key", re.compile(r"^(?:AKIA|ASIA)[0-9A-Z]{16}$")),
    ("a Slack token", re.compile(r"^xox[abprs]-[A-Za-z0-9-]{10,}$|^xapp-[A-Za-z0-9-]{10,}$")),
    ("a Google API key", re.compile(r"^AIza[0-9A-Za-z_-]{35}$")),
    ("a Notion token", re.compile(r"^(?:ntn_|secret_)[A-Za-z0-9]{30,}$")),
    ("a Linear key", re.compile(r"^lin_api_[A-Za-z0-9]{30,}$")),
    ("a Shopify token", re.compile(r"^shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}$")),
    ("a Hugging Face token", re.compile(r"^hf_[A-Za-z0-9]{30,}$")),
    ("an npm token", re.compile(r"^npm_[A-Za-z0-9]{36}$")),
    ("a PyPI token", re.compile(r"^pypi-[A-Za-z0-9_-]{50,}$")),
    ("a DigitalOcean token", re.compile(r"^do[opr]_v1_[a-f0-9]{64}$")),
    ("a Figma token", re.compile(r"^figd_[A-Za-z0-9_-]{30,}$")),
    ("an Atlassian token", re.compile(r"^ATATT[A-Za-z0-9_=-]{30,}$")),
    ("a SendGrid key", re.compile(r"^SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}$")),
    ("a JSON Web Token", re.compile(r"^eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}$")),
)

# names that hold a credential (env variables, headers, flags, query parameters)…
_SECRET_NAME = re.compile(
    r"(?i)(?:token|secret|passw(?:or)?d|passwd|\bpwd\b|_pwd\b|api[_-]?key|apikey|access[_-]?key|private[_-]?key"
    r"|credential|\bauth\b|_auth\b|authorization|\bpat\b|_pat\b|session|cookie|signature|\bsig\b|\bkey\b|_key\b"
    r"|[a-z]Key\b|[a-z]Token\b|[a-z]Secret\b)")
# …and names about a credential rather than the credential itself
_NOT_SECRET_NAME = re.compile(
    r"(?i)(?:_?(?:url|uri|path|file|dir|id|ids|enabled|type|name|expiry|expires|ttl|header|region|endpoint|host"
    r"|user|username|mode|scopes?|length|timeout|env|var|version|format|limit|count)$)|(?:^|_)use_|_var_name")


def credential_name(name: str) -> bool:
    """A variable, header, flag or parameter named like a credential (`API_KEY`, `x-api-key`, `--token`)."""
    bare = name.strip().lstrip("-")
    spaced = bare.replace("-", "_")
    return bool(_SECRET_NAME.search(spaced) or _SECRET_NAME.search(bare)) and not _NOT_SECRET_NAME.search(spaced)


_WORDS = re.compile(r"[\s\"'{}\[\]:,;=&?@()<>\\]+")
MAX_WORDS = 200  # words of one value tried against the token shapes


def token_shape(value: str) -> str | None:
    """What kind of known token `value` is, or holds among its words (`Bearer ntn_…`, a JSON string of headers):
    "a GitHub token", or None."""
    value = value.strip()
    if "-----BEGIN" in value:
        return "a private key"
    for word in _WORDS.split(value)[:MAX_WORDS]:
        if len(word) < 16 or _PLACEHOLDER.search(word):
            continue
        for what, shape in TOKEN_SHAPES:
            if shape.search(word):
                return what
    return None


def is_reference(value: str) -> bool:
    """Only references to variables the client fills in (and an auth scheme such as `Bearer`)."""
    rest = _REFERENCE.sub("", _SCHEME.sub("", value.strip(), count=1))
    return rest.strip(" :\"'") == "" and value.strip() != ""


def literal_credential(value: str, named: bool) -> str | None:
    """Why `value` is a credential written out ("shaped like a GitHub token", "a literal value"), or None.

    `named`: its name says it holds a credential, so a plain value that looks like one counts too."""
    value = value.strip()
    if not value or is_reference(value):
        return None
    shape = token_shape(value)
    if shape is not None:
        return f"shaped like {shape}"
    if not named:
        return None
    bare = _SCHEME.sub("", value, count=1)
    if _REFERENCE.search(bare):  # partly a reference (`${env:USER}:${env:PASS}`, `prefix-${KEY}`)
        bare = _REFERENCE.sub("", bare)
        if len(bare) < 8:
            return None
    if (len(bare) < 8 or any(c.isspace() for c in bare) or _PLACEHOLDER.search(bare) or _NAME_ONLY.match(bare)
            or _PATH.search(bare) or _NUMBER_OR_WORD.match(bare) or "://" in bare):
        return None
    if len(bare) < 16 and not (any(c.isdigit() for c in bare) and any(c.isalpha() for c in bare)):
        return None
    return "a literal value"


__all__ = ["TOKEN_SHAPES", "credential_name", "is_reference", "literal_credential", "token_shape"]
