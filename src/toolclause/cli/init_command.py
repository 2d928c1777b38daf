"""`toolclause init [DIR]`: scaffold a project whose contracts pass lint, test and export --check at once.

It writes only files that are not there (an existing file is kept and named), says
what it wrote, and exports the contracts into `build/` so the CI workflow's
`export --check` finds the committed export it compares with.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click


class InitError(click.ClickException):
    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"toolclause: error: {self.format_message()}", err=True)


def _configured_in_pyproject(root: Path) -> bool:
    try:
        return "[tool.toolclause" in (root / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False


def scaffold(root: Path) -> tuple[list[str], list[str], str | None]:
    """Write the project under `root`: (files written, files kept, why the export was skipped or None)."""
    from ..workflow.scaffold import BUILD, CONTRACTS, EXPORT_STRICT, EXPORT_TARGET, project_files

    with_config = not (root / "toolclause.toml").exists() and not _configured_in_pyproject(root)
    written, kept = [], []
    if not with_config:
        kept.append("toolclause.toml" if (root / "toolclause.toml").exists() else "pyproject.toml")
    for relative, text in project_files(with_config):
        path = root / relative
        if path.exists() or path.is_symlink():
            kept.append(relative)
            continue
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("x", encoding="utf-8") as handle:  # "x": never replace a file that appeared meanwhile
                handle.write(text)
        except FileExistsError:
            kept.append(relative)
            continue
        except OSError as exc:
            raise InitError(f"{path}: cannot write: {exc.strerror or exc}") from None
        written.append(relative)
    build = root / BUILD
    stem = f"{EXPORT_TARGET}{'-strict' if EXPORT_STRICT else ''}"
    present = [p for p in (build / f"{stem}.json", build / f"{stem}.names.json") if p.exists()]
    if present:
        kept += [str(p.relative_to(root)) for p in present]
        return written, kept, None
    from .exporting import ExportRequest, run_export
    from .running import CliError

    try:
        run = run_export(ExportRequest(paths=(str(root / CONTRACTS),), target=EXPORT_TARGET, strict=EXPORT_STRICT,
                                       output=str(build) + "/"))
    except CliError as exc:
        return written, kept, str(exc)
    written += [str(Path(p).relative_to(root)) for p in run.written]
    return written, kept, None


@click.command("init")
@click.argument("folder", default=".", metavar="[DIR]")
def init(folder: str) -> None:
    """Start a project in DIR (default: here): contracts, examples, configuration, CI workflow, pre-commit hook."""
    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise InitError(f"{folder}: not a folder")
    written, kept, export_problem = scaffold(root)
    for relative in written:
        click.echo(f"wrote {root / relative}")
    for relative in kept:
        click.echo(f"kept  {root / relative} (already there)")
    if export_problem is not None:
        click.echo(f"toolclause: init: did not export the contracts: {export_problem}", err=True)
    click.echo(f"toolclause: init: {len(written)} file(s) written, {len(kept)} kept. Next, in {root}: "
               f"toolclause lint contracts/ && toolclause test contracts/ && "
               f"toolclause export contracts/ --target openai-chat --strict -o build/ --check", err=True)


__all__ = ["init", "scaffold"]
