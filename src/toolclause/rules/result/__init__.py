"""Family R: does a tool's bound code keep its contract? (see RULES.md)

R001 (unstructured-error) and R003 (default-mismatch) need the Python function
bound to the contract, so they cannot run on contract files: `RULES` is empty
and they are called through their documented `check_binding(contract, fn)`,
by `Toolbox` at registration and (later) by `toolclause lint` on Python modules.
`BINDING_CHECKS` lists them, in code order.
"""

from __future__ import annotations

from . import r001_unstructured_error, r003_default_mismatch

RULES: tuple = ()

BINDING_CHECKS = (r001_unstructured_error, r003_default_mismatch)

__all__ = ["BINDING_CHECKS", "RULES"]
