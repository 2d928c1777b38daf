"""unpinned-runner (M002)

## What it does
Finds a server started from a package registry without a pinned version:
`npx [-y] pkg` (also `bunx`, `pnpm dlx`, `yarn dlx`, `npm exec`) without an
exact `@x.y.z` or with `@latest` or a range, `uvx pkg` / `uv tool run pkg`
without `==x.y.z` (or `@x.y.z`), `pipx run pkg` without `==`, and a container
(`docker run`, `podman run`) whose image has no tag or digest, or the tag
`latest`.  Local paths, tarballs and git URLs are not packages of a registry
and are left alone.

## Why is this bad?
The client resolves the name every time it starts the server: whatever was
published last runs, with the credentials in the server's `env` and access to
the user's files.  One compromised maintainer account or typosquatted release
reaches every machine on its next start, with no change to review.

## Example
```json
{"mcpServers": {"filesystem": {"command": "npx",
  "args": ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Documents"]}}}
```

## Use instead
```json
{"mcpServers": {"filesystem": {"command": "npx",
  "args": ["-y", "@modelcontextprotocol/server-filesystem@2025.8.21", "/Users/me/Documents"]}}}
```

## Fix safety
No fix: which version to pin is the user's decision.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from ... import _lazy_re as re
from ...loading.client_configs import ClientConfig
from ...model import Severity
from ..base import Finding
from ._launch import Launch, Part, ServerRule, program

_EXACT = re.compile(r"v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?")
_NOT_A_REGISTRY = re.compile(
    r"^(?:[./~]|[A-Za-z]:[\\/]|file:|git[+:]|https?:|github:|gitlab:|bitbucket:)|\.(?:tgz|tar\.gz|whl)$")
_PYTHON_EXACT = re.compile(r"==\s*v?\d+(?:\.\d+)*(?:[-+.]?[0-9A-Za-z.]+)?$|@\s*v?\d+\.\d+(?:\.\d+)*$")
# options of the runners that take a value in the next word (the value is not the package)
_NPX_VALUED = frozenset({"-p", "--package", "-c", "--call", "--registry", "--cache", "--userconfig"})
_UV_VALUED = frozenset({"--from", "--with", "--python", "-p", "--index-url", "--extra-index-url", "--index",
                        "--with-requirements", "--constraint", "--override", "-c", "--directory", "--project"})
_PIPX_VALUED = frozenset({"--spec", "--python", "--index-url", "--pip-args"})
_DOCKER_VALUED = frozenset({"-e", "--env", "-v", "--volume", "--name", "--network", "--net", "--mount", "-p",
                            "--publish", "--env-file", "-w", "--workdir", "-u", "--user", "--entrypoint",
                            "--platform", "-l", "--label", "-m", "--memory", "--cpus", "--add-host", "--pull",
                            "--hostname", "-h", "--dns", "--cap-add", "--cap-drop", "--security-opt",
                            "--tmpfs", "--ulimit", "--device", "--gpus", "--shm-size", "--restart", "--runtime",
                            "--log-driver", "--log-opt", "--ipc", "--pid", "--group-add", "--label-file",
                            "--cidfile", "--stop-signal", "--stop-timeout", "--health-cmd", "--expose"})


def _first_operand(words: Sequence[Part], valued: frozenset[str]) -> tuple[Part | None, dict[str, Part]]:
    """The first word that is no option (nor an option's value), and the valued options seen before it."""
    options: dict[str, Part] = {}
    skip_next: str | None = None
    for part in words:
        if skip_next is not None:
            options[skip_next] = part
            skip_next = None
            continue
        word = part.value
        if word == "--":
            continue
        if word.startswith("-"):
            name, eq, value = word.partition("=")
            if eq:
                options[name] = Part(part.pointer, value)
            elif name in valued:
                skip_next = name
            continue
        return part, options
    return None, options


def _npm_unpinned(spec: str) -> str | None:
    """Why an npm package spec is not pinned (None: it is, or it is no registry package)."""
    if _NOT_A_REGISTRY.search(spec):
        return None
    name, at, version = spec[1:].partition("@") if spec.startswith("@") else spec.partition("@")
    if not at:
        return "without a version"
    if _EXACT.fullmatch(version):
        return None
    return f"at @{version}, which moves" if version else "without a version"


def _python_unpinned(spec: str) -> str | None:
    if _NOT_A_REGISTRY.search(spec):
        return None
    if _PYTHON_EXACT.search(spec.replace(" ", "")):
        return None
    return "without ==version" if "@latest" not in spec else "at @latest, which moves"


def _image_unpinned(image: str) -> str | None:
    if "@sha256:" in image or "${" in image or image.startswith("$"):
        return None
    last = image.rsplit("/", 1)[-1]
    if ":" not in last:
        return "without a tag or digest"
    if last.rsplit(":", 1)[1] == "latest":
        return "at :latest, which moves"
    return None


def unpinned(argv: Sequence[Part]) -> Iterator[tuple[Part, str, str, str]]:
    """(the package word, the runner, the package, why it is unpinned) for a command line that runs one."""
    words = list(argv)
    while words and program(words[0].value) == "env":  # `env A=1 npx pkg`
        words = words[1:]
        while words and ("=" in words[0].value or words[0].value.startswith("-")):
            words = words[1:]
    if len(words) > 1 and program(words[0].value) == "cmd" and words[1].value.lower() in ("/c", "/k"):
        words = words[2:]  # `cmd /c npx pkg`, as npx is started on Windows
    if not words:
        return
    runner, rest = program(words[0].value), words[1:]
    first = rest[0].value if rest else ""
    if runner in ("npx", "bunx", "pnpx") or (runner in ("pnpm", "yarn") and first == "dlx") or (
            runner == "npm" and first in ("exec", "x")) or (runner == "bun" and first == "x"):
        if runner in ("pnpm", "yarn", "npm", "bun"):
            runner, rest = f"{runner} {first}", rest[1:]
        operand, options = _first_operand(rest, _NPX_VALUED)
        package = options.get("--package") or options.get("-p") or operand
        if package is not None:
            why = _npm_unpinned(package.value)
            if why:
                yield package, runner, package.value, why
    elif runner == "uvx" or (runner == "uv" and [w.value for w in rest[:2]] == ["tool", "run"]):
        if runner == "uv":
            runner, rest = "uv tool run", rest[2:]
        operand, options = _first_operand(rest, _UV_VALUED)
        package = options.get("--from") or operand
        if package is not None:
            why = _python_unpinned(package.value)
            if why:
                yield package, runner, package.value, why
    elif runner == "pipx" and first == "run":
        operand, options = _first_operand(rest[1:], _PIPX_VALUED)
        package = options.get("--spec") or operand
        if package is not None:
            why = _python_unpinned(package.value)
            if why:
                yield package, "pipx run", package.value, why
    elif runner in ("docker", "podman", "nerdctl") and first in ("run", "create"):
        image, _ = _first_operand(rest[1:], _DOCKER_VALUED)
        if image is not None:
            why = _image_unpinned(image.value)
            if why:
                yield image, f"{runner} {first}", image.value, why


def _pin(runner: str) -> str:
    tool = runner.split()[0]
    if tool in ("docker", "podman", "nerdctl"):
        return "a tag, and better a digest (image:1.2.3@sha256:…)"
    return "an exact version (==1.2.3)" if tool in ("uvx", "uv", "pipx") else "an exact version (@1.2.3)"


class UnpinnedRunner(ServerRule):
    code = "M002"
    name = "unpinned-runner"
    severity = Severity.WARNING
    tags = ("MCP04:2025",)  # OWASP MCP Top 10 (see rules/owasp.py)

    def check_server(self, run: Launch, config: ClientConfig) -> Iterator[Finding]:
        for part, runner, package, why in unpinned(run.argv):
            yield Finding(part.pointer, f"server '{run.server}' runs {runner} {_shown(package)} {why}: whatever is "
                                        f"published next runs with this server's credentials and the user's "
                                        f"files, unreviewed; pin {_pin(runner)}")


def _shown(package: str) -> str:
    """The package as named, shortened: a name is no secret, but a command line may be long."""
    return package if len(package) <= 80 else package[:77] + "…"
