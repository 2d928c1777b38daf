"""The gate where agents already run: one module per framework, each imported only when its adapter is asked for.

    box.as_pydantic_ai_toolset()   pydantic_ai.py   a toolset whose argument validation is the gate
    box.as_agents_sdk_tools()      agents_sdk.py    FunctionTools over the strict export, raw arguments to the gate
    box.as_langchain_tools()       langchain.py     StructuredTools raising ToolException for a ToolNode
    box.as_anthropic_tools()       anthropic.py     tools for the Anthropic SDK's tool runner

specs.py holds what they share with any host: `Toolbox.tool_specs`,
`Toolbox.validate`, and `warn_bypassing` (a registered function handed to the
same agent as a plain function tool runs without the gate: each adapter warns
when it sees one).  Each framework is an optional extra
(`pip install 'toolclause[pydantic-ai]'`, `[agents]`, `[langchain]`,
`[anthropic]`); an adapter whose framework is missing says which to install.
See docs/frameworks.md.
"""

from __future__ import annotations

from .specs import INPUT_CODES, GateBypassWarning, ToolSpec, is_input_error, tool_specs, validate, warn_bypassing

__all__ = ["INPUT_CODES", "GateBypassWarning", "ToolSpec", "is_input_error", "tool_specs", "validate",
           "warn_bypassing"]
