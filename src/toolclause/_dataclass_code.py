"""Dataclasses made without compiling their methods again in every process (for the command line).

`dataclasses` writes each class's methods (__init__, __repr__, __eq__, __hash__, a
frozen class's __setattr__ …) as Python source and compiles it when the class is
made; for the 35 or so dataclasses a lint run imports that is about a seventh of
the CPU a lint of a few tools takes.  The same source always compiles to the same
code, so, as `.pyc` files keep a module's bytecode, the code compiled for the
package's own dataclasses is kept in `__pycache__/` beside this module (see
`_kept`) and a later process runs it without compiling.  The classes made are the
classes `dataclasses` makes: only the compile step is skipped.

`install()` routes the compiling through here: `dataclasses` runs its source with
`exec`, looked up in its own module before the builtins.  Classes of other
packages compile as before.  The command line installs it (`toolclause.cli`);
importing the library alone leaves `dataclasses` untouched.
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
from pathlib import Path
from types import CodeType
from typing import Any

from . import _kept

CACHE_FILE = Path(__file__).resolve().parent / "__pycache__" / f"_dataclass_code.{_kept.VERSION_TAG}.code"

KEPT = _kept.Kept(CACHE_FILE)  # method source → its compiled code


def _exec(source: Any, namespace: Any = None, local: Any = None) -> None:
    """`exec` as dataclasses calls it, with the code of the package's own classes compiled once."""
    if not (isinstance(source, str) and isinstance(namespace, dict)
            and str(namespace.get("__name__", "")).startswith("toolclause.")):
        builtins.exec(source, namespace, local)
        return
    code = KEPT.values.get(source)
    if not isinstance(code, CodeType):  # new, or a damaged entry
        # dont_inherit: compiled as exec compiles dataclasses' source, without this module's __future__ imports
        code = compile(source, "<string>", "exec", dont_inherit=True)
        KEPT.add(source, code)
    builtins.exec(code, namespace, local)


def install() -> None:
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # found before builtins.exec (see above)


def save() -> None:
    """Write the compiled code when this process compiled new code (and writing bytecode is allowed)."""
    KEPT.save()


atexit.register(save)
