"""Family R: does a tool's bound code keep its contract? (`toolclause rules` lists them)

R002 (output-schema-mismatch) reads contract files like any rule: a contract's
example results against its outputSchema; R004 (no-results-as-error) reads its
declared errors.
R001 (unstructured-error) and R003 (default-mismatch) need the Python function
bound to the contract, so they cannot run on contract files: `RULES` holds their
catalogue entries (binding-only rules, which the file linter never dispatches),
and they run through their documented `check_binding(contract, fn)`, by
`Toolbox` at registration and (later) by `toolclause lint` on Python modules.
`BINDING_CHECKS` lists the modules, in code order.
"""

from __future__ import annotations

from . import r001_unstructured_error, r002_output_schema_mismatch, r003_default_mismatch, r004_no_results_as_error

RULES = (r001_unstructured_error.UnstructuredError, r002_output_schema_mismatch.OutputSchemaMismatch,
         r003_default_mismatch.DefaultMismatch, r004_no_results_as_error.NoResultsAsError)

BINDING_CHECKS = (r001_unstructured_error, r003_default_mismatch)

__all__ = ["BINDING_CHECKS", "RULES"]
