"""What a rule is, and what it is given.

A rule is a small class in its own module.  The module docstring is the rule's
documentation (*What it does / Why is this bad? / Example / Use instead / Fix
safety*); its JSON examples run as tests.  A rule says which parts of a tool it
wants and the engine calls it only for those:

    keywords     check_node() runs for schema nodes holding any of these keywords
    node_kinds   check_node() runs for schema nodes of these kinds (e.g. PROPERTY)
    all_nodes    check_node() runs for every schema node
    node_types   ...but only where the node's `type` names one of these
    check_tool() runs once per tool (names, descriptions, annotations)
    check_tools() runs once per tool list (duplicates, consistency, counts)
    survey_tools() + check_member(): a list rule whose findings are each about one
                 tool, split in two: what it needs of the whole list (cheap: names,
                 counts), then each tool judged alone, in that tool's turn
    summarise_member() + check_summaries(): a list rule that must read every tool
                 (look-alike descriptions, a token budget), split in two: what it
                 needs of each tool, made in that tool's turn, then the list judged
                 from those
    check_depth_limit() runs where the walk of a schema stopped because it was nested too deep
    check_config() runs once per MCP client configuration file (family M, `client_config = True`):
                 those rules read the file's own document, never a tool, and their findings'
                 pointers are into that document

A rule yields `Finding`s with canonical pointers ("/inputSchema/properties/x");
the engine adds the code, severity, tool, file, original pointer and position.
Rules never do I/O and never print.

Options are declared on the rule, as yamllint does: `CONF` (name → type) and
`DEFAULT` (name → value); `ctx.options_for(self)` gives them checked, with the
defaults filled in (see `rules.options`).

One rule instance serves many lint runs, so state that belongs to a run (a
per-tool estimate, an index of one schema's anchors) is never kept on `self`:
`ctx.state(SomeClass)` gives the run's one instance of a class the rule
defines, made on first use.  `IdentityMemo` is the usual such class: values
computed from an object (a tool, a schema), kept for the run.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from ..model import Fix, Severity, ToolContract
from ..schema.refs import MISSING, value_at
from ..schema.walk import NodeKind, SchemaNode
from .options import rule_options

if TYPE_CHECKING:
    from ..loading.client_configs import ClientConfig


@dataclass(frozen=True, slots=True)
class Finding:
    pointer: str
    message: str
    fix: Fix | None = None
    # at most this severity: a rule whose finding is only a suggestion in this case (an open object whose
    # every key is required) reports it lower than the rule's own severity; never higher, and never above
    # the severity the configuration gives the rule
    severity: Severity | None = None


S = TypeVar("S")
K = TypeVar("K")
V = TypeVar("V")


@dataclass
class LintContext:
    """Settings and per-run state for one lint run.

    `targets` are the selected provider targets (empty = portable defaults).
    `options` holds per-rule options from configuration as written, keyed by
    code; rules read them checked, through `options_for`.
    """

    targets: frozenset[str] = frozenset()
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    budgets: Mapping[str, Any] = field(default_factory=dict)
    _states: dict[type, Any] = field(default_factory=dict, init=False, repr=False)
    _checked_options: dict[str, Mapping[str, Any]] = field(default_factory=dict, init=False, repr=False)

    def options_for(self, rule: Rule) -> Mapping[str, Any]:
        """The rule's options for this run: the configured ones checked against its CONF, DEFAULT for the rest.

        Raises `RuleOptionError` for an option the rule does not declare or a
        value of the wrong type.
        """
        found = self._checked_options.get(rule.code)
        if found is None:
            found = self._checked_options[rule.code] = rule_options(type(rule), self.options.get(rule.code))
        return found

    def state(self, kind: type[S]) -> S:
        """This run's one instance of `kind` (made by calling `kind()` on first use)."""
        found = self._states.get(kind)
        if found is None:
            found = self._states[kind] = kind()
        return found

    def budget(self, key: str, default: Any) -> Any:
        return self.budgets.get(key, default)

    def forget(self, obj: object) -> None:
        """Drop what this run's memos keep of `obj` (a tool whose rules are all done): a later ask
        computes it again, so only memory changes."""
        for state in self._states.values():
            if isinstance(state, IdentityMemo):
                state.forget(obj)


class IdentityMemo(Generic[K, V]):
    """Values computed from objects, kept by the object's identity (for one run, through `ctx.state`).

    The object is kept beside its value: an id() can be reused once its object is gone.
    """

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[int, tuple[K, V]] = {}

    def get(self, obj: K, build: Callable[[K], V]) -> V:
        entry = self._entries.get(id(obj))
        if entry is not None and entry[0] is obj:
            return entry[1]
        value = build(obj)
        self._entries[id(obj)] = (obj, value)
        return value

    def forget(self, obj: K) -> None:
        entry = self._entries.get(id(obj))
        if entry is not None and entry[0] is obj:
            del self._entries[id(obj)]


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    # Options, as yamllint declares them: name → type (or allowed values), and name → default.
    CONF: ClassVar[Mapping[str, Any]] = {}
    DEFAULT: ClassVar[Mapping[str, Any]] = {}
    # A target rule runs only when one of these targets is selected (or `all`).
    targets: ClassVar[frozenset[str]] = frozenset()
    fixable: ClassVar[bool] = False
    # A rule that needs the Python function bound to the contract (family R): it is
    # in the catalogue, but runs through its module's `check_binding(contract, fn)`
    # where a function is bound, never on contract files.
    binding_only: ClassVar[bool] = False
    # Why it has its severity, where the catalogue's meaning of the level does not say it (rules.measured)
    severity_rationale: ClassVar[str | None] = None
    # The risks its findings are instances of: OWASP MCP Top 10 IDs ("MCP03:2025", see rules/owasp.py)
    tags: ClassVar[tuple[str, ...]] = ()
    # A rule on MCP client configuration files (family M): it runs through check_config() on the
    # configurations a run reads (`--mcp-config`), never on tools.
    client_config: ClassVar[bool] = False

    keywords: ClassVar[frozenset[str]] = frozenset()
    node_kinds: ClassVar[frozenset[NodeKind]] = frozenset()
    all_nodes: ClassVar[bool] = False
    # A further filter on the subscriptions above: only nodes whose `type` (a name
    # or a list of names) includes one of these.  Untyped nodes are not sent.
    node_types: ClassVar[frozenset[str]] = frozenset()
    # Which schemas check_node sees: the arguments, the result, or both.
    roles: ClassVar[frozenset[str]] = frozenset({"input"})

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        return ()

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        return ()

    def check_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> Iterable[tuple[ToolContract, Finding]]:
        if self.overrides("check_member"):
            return self._members(tools, ctx)
        if self.overrides("check_summaries"):
            return self._summarised(tools, ctx)
        return ()

    def survey_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> Any:
        """What `check_member` must know of the whole tool list: the names in it, their styles, which came first.

        Kept cheap (names, not texts): the engine surveys every list before the tools' own turns,
        in one process, and then judges each tool where its own rules run, in worker processes
        too.  The expensive part, reading a tool's texts and schema, belongs in `check_member`.
        """
        return None

    def check_member(self, tool: ToolContract, survey: Any, ctx: LintContext) -> Iterable[Finding]:
        """Findings on one tool of a list, given the list's `survey_tools`."""
        return ()

    def summarise_member(self, tool: ToolContract, ctx: LintContext) -> Any:
        """What `check_summaries` needs of one tool: plain values (they may cross between processes)."""
        return None

    def check_summaries(self, tools: Sequence[ToolContract], summaries: Sequence[Any],
                        ctx: LintContext) -> Iterable[tuple[ToolContract, Finding]]:
        """Findings on a tool list, given each tool's `summarise_member` (in the list's order)."""
        return ()

    def _members(self, tools: Sequence[ToolContract], ctx: LintContext) -> Iterator[tuple[ToolContract, Finding]]:
        survey = self.survey_tools(tools, ctx)
        for tool in tools:
            for finding in self.check_member(tool, survey, ctx):
                yield tool, finding

    def _summarised(self, tools: Sequence[ToolContract], ctx: LintContext) -> Iterable[tuple[ToolContract, Finding]]:
        return self.check_summaries(tools, [self.summarise_member(tool, ctx) for tool in tools], ctx)

    def check_config(self, config: ClientConfig, ctx: LintContext) -> Iterable[Finding]:
        """Findings on one MCP client configuration (pointers into its document)."""
        return ()

    def check_depth_limit(self, pointer: str, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        """Findings for a schema whose walk stopped at `pointer` (the first subschema nested too deep)."""
        return ()

    def skips(self, keys: tuple, declared: str | tuple[str, ...] | None, kind: NodeKind, role: str) -> bool:
        """True where check_node would certainly find nothing in a node of this *shape*.

        Optional.  `keys` are the node's keys in order, `declared` its `type` (a name, a
        tuple of the names in a list, or None).  The engine asks once per shape and caches
        the answer, so a rule whose common case is decided by shape alone ("type is a
        valid name", "every key is known") is not even called for most nodes.
        """
        return False

    @classmethod
    def documentation(cls) -> str:
        """The module docstring: the one text behind `toolclause rules CODE` and the tests."""
        return (sys.modules[cls.__module__].__doc__ or "").strip()

    @classmethod
    def summary(cls) -> str:
        """First line of 'What it does'."""
        doc = cls.documentation()
        marker = "## What it does"
        if marker in doc:
            rest = doc.split(marker, 1)[1].strip()
            return rest.split("\n\n", 1)[0].replace("\n", " ").strip()
        return ""

    @classmethod
    def overrides(cls, method: str) -> bool:
        return getattr(cls, method) is not getattr(Rule, method)


def original_value(tool: ToolContract, canonical: str) -> Any:
    """What the user's own document holds at a canonical pointer, or MISSING (also when there is no document).

    A loader may coerce a value (a number as a name) or build a node the user
    never wrote (an object around a parameter list); rules that judge what the
    user wrote read it here.
    """
    if tool.raw is None:
        return MISSING
    return value_at(tool.raw, tool.origin.pointers.to_original(canonical))


def iter_texts(tool: ToolContract) -> Iterator[tuple[str, str]]:
    """Every (pointer, text) a model reads: tool description and title."""
    if isinstance(tool.description, str):
        yield "/description", tool.description
    if isinstance(tool.title, str):
        yield "/title", tool.title


def server_texts_once(tools: Sequence[ToolContract]) -> Iterator[tuple[ToolContract, str, str, str]]:
    """(the first tool of its server, pointer in the listing, text, what it is) for what each server gives the
    model besides its tools (instructions, prompts, resources): its tools share those texts, read once."""
    done: set[int] = set()
    for tool in tools:
        texts = tool.origin.server_texts
        if not texts or id(texts) in done:
            continue
        done.add(id(texts))
        for pointer, text, where in texts:
            yield tool, pointer, text, where
