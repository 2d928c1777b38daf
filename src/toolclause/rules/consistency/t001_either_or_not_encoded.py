"""either-or-not-encoded (T001)

## What it does
Reports an either-or that the text states and the schema does not: the
description says one of two or more properties must be given, yet `{}`
validates.

It reads the tool's description and its properties' descriptions for sentences
that make one of two or more properties mandatory — "Provide either
`booking_ref` or `passenger_email`", "exactly one of `a`, `b`", "at least one
of `a` or `b` is required", "`a` or `b` must be specified", "`a` 또는 `b` 중
하나는 필수" — and reports them when the schema does not say so: every property
named is optional and no `anyOf`/`oneOf` with `required` (nor `minProperties`,
`dependentRequired`, `not`, `if`) encodes the rule, so `{}` validates.  It also
reports the opposite mistake: the text says one of them is enough, but every one
of them is in `required`.

Only properties that exist in the same object count, spelt as the schema spells
them; "either 'kPa' or 'atm'" names values, not properties, and is left alone,
as is a sentence that makes the rule conditional ("if", "when", "for the
'remove' command") or denies it.  The message quotes the sentence it read.

## Why is this bad?
A model that leaves both out gets past validation and the function fails, or
worse, guesses.  With both in `required` the model must invent the value the
text told it it could leave out.  A validator enforces the rule only when the
schema states it: `"anyOf": [{"required": ["a"]}, {"required": ["b"]}]` (or
`oneOf` when exactly one is allowed).

## Example
```json
{"name": "find_booking", "description": "Find a booking. Provide either `booking_ref` or `passenger_email`.",
 "inputSchema": {"type": "object",
                 "properties": {"booking_ref": {"type": "string", "description": "Six-letter booking reference"},
                                "passenger_email": {"type": "string", "description": "Email used to book"}},
                 "additionalProperties": false}}
```

## Use instead
```json
{"name": "find_booking", "description": "Find a booking. Provide either `booking_ref` or `passenger_email`.",
 "inputSchema": {"type": "object",
                 "properties": {"booking_ref": {"type": "string", "description": "Six-letter booking reference"},
                                "passenger_email": {"type": "string", "description": "Email used to book"}},
                 "anyOf": [{"required": ["booking_ref"]}, {"required": ["passenger_email"]}],
                 "additionalProperties": false}}
```

At the top of an input schema the finding is info and its advice is to check
the rule in the tool:
Anthropic's API refuses `anyOf`/`oneOf` there (every request that lists the
tool fails) and so does OpenAI's strict mode; the `anyOf` is offered for the
targets that read it.  Inside a nested object, where every provider takes it,
the `anyOf` is the fix.  Both are info for now: on real servers a stated but
unencoded either-or was judged worth fixing only some of the time (the text
already tells the model; the rule mostly guards the validator).  A rule that another sentence ties to one value of a
selector property ("required when `action` is 'connect'") is left alone.

## Fix safety
Not applied by `--fix`: the suggested `anyOf` (`oneOf` for "exactly one" or
"not both") is read from prose, and providers refuse it at the top of a
schema; the author decides where the rule belongs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from ... import _lazy_re as re
from ...lexicon.gates import lowered_for_gate, may_contain
from ...model import Edit, Fix, Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from .._reach import unused_definition
from ..base import Finding, LintContext, Rule
from ._prose import SLOT, SLOT_RE, mark_properties, property_names, quoted, sentences

# words one of which every sentence the patterns below can match holds (lower-cased)
_GATE = ("either", "one of", "at least one", "중")
# ..and those of "`a` or `b` is required", with " or " beside them
_LISTED = ("required", "mandatory", "needed", "provided", "specified", "given", "supplied", " set")

_ITEM = (rf"(?:the\s+)?{SLOT_RE}"
         r"(?:\s+(?:parameter|field|argument|option|property|param|key|input|value)s?)?")
_OR = r"(?:\s*,\s*(?:or\s+)?|\s+or\s+|\s+and/or\s+|\s*/\s*)"
_VERB = r"(?:(?:pass|provide|use|specify|set|give|supply|include|send|enter)\s+)?"
_RUN_OR = rf"{_VERB}{_ITEM}(?:{_OR}{_VERB}{_ITEM})+"
_RUN_ANY = rf"{_ITEM}(?:(?:{_OR}|\s*,?\s+and\s+){_ITEM})+"
_KINDS = r"(?:parameters|fields|arguments|options|properties|params|inputs|keys)"

_ENGLISH = re.compile(
    rf"\beither\s+(?:of\s+)?(?P<either>{_RUN_OR})"
    rf"|\b(?P<q>exactly|only|just|at\s+least|one\s+or\s+more)?\s*\b(?:one|1)\s+of\s*(?:the\s+)?"
    rf"(?:(?:following\s+)?{_KINDS}\s*)?:?\s*[\[(]?\s*(?P<oneof>{_RUN_ANY})"
    rf"|\bat\s+least\s+one\s+(?P<atleast>{_RUN_OR})"
    rf"|(?:^|[(:]\s*)(?P<listed>(?:the\s+)?{_RUN_OR})\s+(?:is|are|must\s+be|should\s+be|needs\s+to\s+be)\s+"
    r"(?:required|mandatory|needed|provided|specified|given|supplied|set)\b",
    re.IGNORECASE)
_KOREAN = re.compile(
    rf"(?P<run>{SLOT_RE}(?:\s*(?:또는|혹은|이나|나|와|과|및|,|/|or)\s*{SLOT_RE})+)\s*(?:의\s*)?"
    r"(?:(?:둘|두\s*개|셋|세\s*개)\s*)?중(?:에서)?\s*"
    r"(?P<kq>정확히\s*하나|하나만|한\s*개만|하나\s*이상|한\s*개\s*이상|적어도\s*하나|최소\s*하나|최소\s*한\s*개|하나|한\s*개|1개)")

_REQUIRES = re.compile(
    r"\b(?:must|required|requires?|mandatory|provide|provided|specify|specified|supply|supplied|pass|give|needs?|"
    r"needed|should\s+be\s+(?:provided|specified|set|given|non-null|supplied|passed|included))\b", re.IGNORECASE)
_KOREAN_REQUIRES = re.compile(r"필수|반드시|입력|지정|제공|전달|주어야|줘야|해야|하세요|하십시오|필요|넣어|선택|사용")
# "not both" and its kin make the rule exclusive (oneOf); read before negations, which they are not
_EXCLUSIVE = re.compile(
    r",?\s*\b(?:but\s+|and\s+)?(?:not|never)\s+(?:both|all(?:\s+of\s+them)?|together)\b(?:\s+in\s+the\s+same\s+\w+)?"
    r"|\bmutually\s+exclusive\b|\bonly\s+one\b"
    r"|하나만|한\s*개만|정확히\s*하나|둘\s*다\s*\S*\s*(?:수\s*없|안\s*됩|안\s*됨|불가|마세요|말\s*것)"
    r"|동시에\s*\S*\s*(?:수\s*없|불가|안\s*됩|마세요)", re.IGNORECASE)
_INCLUSIVE = re.compile(r"\bat\s+least\b|\bone\s+or\s+more\b|\band/or\b|\bor\s+both\b"
                        r"|하나\s*이상|한\s*개\s*이상|적어도|최소", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|no|neither|nor|never|cannot|can't|don't|doesn't|isn't|aren't|without|optional|"
                       r"optionally)\b|않|없|불필요|선택\s*사항", re.IGNORECASE)
# a condition before the rule makes it hold only sometimes ("When mode is 'file', provide either …")
_CONDITION = re.compile(r"\b(?:if|when|whenever|unless|while|in\s+case|only\s+for|otherwise|else)\b"
                        r"|경우|이면|라면|일\s*때|할\s*때|때에는|때는", re.IGNORECASE)
# "- 'remove': …requires one of …": an item of a list describing one value of another property
_VALUE_ITEM = re.compile(r"^\s*(?:[-*•]\s*(?:\*\*)?[`'\"]?[\w.-]+[`'\"]?|(?:\*\*)?[`'\"][\w.-]+[`'\"])(?:\*\*)?"
                         r"\s*(?::|—|–|\s-\s)\s")
# the list goes on past the last property: "exactly one of `a`, `b` or 'all'" lists values, not properties
_LIST_GOES_ON = re.compile(r"\s*(?:,\s*)?(?:\bor\b|\band/or\b|/)\s*(?!both\b|all\b|not\b|neither\b)\S"
                           r"|\s*,\s*[`'\"]\w|\s*,\s*[\w.-]+\s*(?:,|\bor\b|\band\b)", re.IGNORECASE)
_LIST_CAME_BEFORE = re.compile(r"[`'\"]?[\w.-]+[`'\"]?\s*(?:,|또는|혹은|와|과|및|이나)\s*$")
# "the mode must be one of `a`, `b`", "can be either `a` or `b`": the values of one property, whatever their names
_VALUES_BEFORE = re.compile(r"\b(?:be|is|are|was|were|equals?|accepts?|takes?|returns?|supports?|means?|"
                            r"set\s+to|values?)\s*:?\s*(?:exactly\s+|only\s+|just\s+)?$"
                            # "at most one of": none at all is fine; a limit, not a requirement
                            r"|\b(?:at\s+most|no\s+more\s+than|up\s+to|not\s+more\s+than)\s*$", re.IGNORECASE)
_SELF = re.compile(r"\bthis(?:\s+(?:parameter|field|argument|option|property|param|one|value|input))?\b"
                   r"|이\s*(?:값|필드|매개\s*변수|파라미터|인자|항목|속성)", re.IGNORECASE)
_STATES = re.compile(r"\b(?:either|one\s+of)\b|중", re.IGNORECASE)
_ENCODINGS = ("anyOf", "oneOf", "allOf", "not", "if", "minProperties", "dependentRequired", "dependencies",
              "dependentSchemas")


class Claim(NamedTuple):
    names: tuple[str, ...]  # the properties named, in the order the sentence names them
    exclusive: bool         # "exactly one", "not both": oneOf rather than anyOf
    where: str              # "the tool description", "the description of 'x'"
    sentence: str


def _enum_values(schema: dict[str, Any]) -> set[str]:
    """Every string some property of the object allows by `enum` or `const`."""
    found: set[str] = set()
    props = schema.get("properties")
    for sub in props.values() if isinstance(props, dict) else ():
        if not isinstance(sub, dict):
            continue
        values = sub.get("enum")
        if isinstance(values, list):
            found.update(v for v in values if isinstance(v, str))
        if isinstance(sub.get("const"), str):
            found.add(sub["const"])
    return found


def read_claim(sentence: str, names: dict[str, int], own: int | None,
               values: set[str]) -> tuple[list[int], bool] | None:
    """The properties (their indices) of which the sentence makes one mandatory, and whether only one may be
    given; None when it makes no such unconditional rule."""
    text = sentence
    if own is not None and _STATES.search(text):  # "Provide either this or sourcePath" in sourcePath's sibling
        text = _SELF.sub(SLOT.format(own), text)
    marked, others = mark_properties(text, names)
    if "\u27e6" not in marked:
        return None
    if _VALUE_ITEM.match(marked) or values.intersection(others):
        return None  # a rule about one value of another property, not about the call
    found = _ENGLISH.search(marked)
    korean = None if found else _KOREAN.search(marked)
    match = found or korean
    if match is None:
        return None
    run = next(g for g in (match.groupdict().get(k) for k in ("either", "oneof", "atleast", "listed", "run")) if g)
    indices = list(dict.fromkeys(int(i) for i in re.findall(SLOT_RE, run)))
    if len(indices) < 2:
        return None
    if found is not None:
        if _LIST_GOES_ON.match(marked, found.end()) or _VALUES_BEFORE.search(marked, 0, found.start()):
            return None
    elif _LIST_CAME_BEFORE.search(marked, 0, match.start()):
        return None
    if _CONDITION.search(marked, 0, match.start()):
        return None
    rest = _EXCLUSIVE.sub(" ", marked)
    if _NEGATION.search(rest):
        return None
    if found is not None:
        if not _REQUIRES.search(marked):
            return None
        qualifier = (found.group("q") or "").lower()
        inclusive = (bool(found.group("atleast")) or qualifier.startswith(("at", "one"))
                     or bool(_INCLUSIVE.search(marked)))
        exclusive = not inclusive and (qualifier in ("exactly", "only", "just") or bool(_EXCLUSIVE.search(marked)))
    else:
        assert korean is not None
        if not _KOREAN_REQUIRES.search(marked, korean.end()):
            return None
        qualifier = korean.group("kq")
        inclusive = bool(_INCLUSIVE.search(qualifier))
        exclusive = not inclusive and bool(_EXCLUSIVE.search(marked))
    return indices, exclusive


def _may_state(text: object) -> bool:
    """False only where no pattern can match: the cheap test every description passes through."""
    if not isinstance(text, str):
        return False
    lowered = text.lower() if text.isascii() else lowered_for_gate(text)
    if lowered is None:
        return True
    for word in _GATE:  # a plain loop of C substring tests: most descriptions hold none of them
        if word in lowered:
            return True
    return " or " in lowered and may_contain(lowered, _LISTED)


_ITEM_HEAD = re.compile(r"\s*(?:[-*•]\s*)?(?:\*\*)?[`'\"<]?([\w$.-]+)[`'\">]?(?:\*\*)?\s*"
                        r"(?:\([^)\n]{0,40}\))?\s*(?::|—|–)")


def speaks_for_the_tool(node: SchemaNode) -> bool:
    """Whether the tool description speaks of this object's properties: it is the input schema, or the one
    object the input schema wraps every argument in (`{"params": {…}}`, as some servers publish)."""
    if node.role != "input":
        return False
    if node.is_root:
        return True
    parent = node.parent
    if node.kind is not NodeKind.PROPERTY or parent is None or not parent.is_root:
        return False
    siblings = parent.schema.get("properties")
    return isinstance(siblings, dict) and len(siblings) == 1 and isinstance(node.schema.get("properties"), dict)


def claims(node: SchemaNode, tool: ToolContract) -> Iterator[Claim]:
    """Every either-or rule the texts about this object state, once per set of properties."""
    schema = node.schema
    props = schema["properties"]
    if len(props) < 2:
        return
    texts: list[tuple[str, str, str | None]] = []
    if speaks_for_the_tool(node):
        description = tool.description
        if isinstance(description, str) and _may_state(description):
            texts.append(("the tool description", description, None))
            # "- `projectSlug` (optional): … Either this or `projectID` must be provided.": in the item of a
            # parameter list, "this" is the property the item documents
            for line in description.split("\n"):
                head = _ITEM_HEAD.match(line)
                if head is not None and head.group(1) in props and _may_state(line):
                    texts.append(("the tool description", line, head.group(1)))
    if node.kind is NodeKind.PROPERTY and node.key is not None and _may_state(schema.get("description")):
        texts.append((f"the description of '{node.key}'", schema["description"], None))
    for name, sub in props.items():
        if isinstance(sub, dict) and _may_state(sub.get("description")):
            texts.append((f"the description of '{name}'", sub["description"], name))
    if not texts:
        return
    names = property_names(schema)
    if len(names) < 2:
        return
    ordered = list(names)
    seen: set[frozenset[int]] = set()
    values: set[str] | None = None
    for where, text, own in texts:
        for sentence in sentences(text):
            if not _may_state(sentence):
                continue
            if values is None:
                values = _enum_values(schema)
            read = read_claim(sentence, names, names.get(own) if own is not None else None, values)
            if read is None or frozenset(read[0]) in seen or values.intersection(ordered[i] for i in read[0]):
                continue
            seen.add(frozenset(read[0]))
            yield Claim(tuple(ordered[i] for i in read[0]), read[1], where, sentence)


_CONDITION = re.compile(r"\b(?:when|if|only\s+(?:for|with|when|if)|for\s+the|required\s+for)\b|경우|때", re.I)


def _conditional_elsewhere(schema: dict[str, Any], tool: ToolContract, names: tuple[str, ...]) -> bool:
    """Whether a sentence about these properties makes them depend on one value of a selector property:
    "objectSchemaId: required when action is 'connect'" (the either-or then holds for that action only)."""
    values = _enum_values(schema)
    if not values:
        return False
    props = schema.get("properties") or {}
    texts = [props[n].get("description") for n in names if isinstance(props.get(n), dict)]
    texts.append(tool.description if schema is tool.input_schema else None)
    for text in texts:
        if not isinstance(text, str):
            continue
        for sentence in sentences(text):
            if _CONDITION.search(sentence) and any(re.search(rf"\b{re.escape(v)}\b", sentence) for v in values):
                return True
    return False


def branches(names: Iterable[str]) -> list[dict[str, list[str]]]:
    return [{"required": [name]} for name in names]


class EitherOrNotEncoded(Rule):
    code = "T001"
    name = "either-or-not-encoded"
    severity = Severity.WARNING
    keywords = frozenset({"properties"})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if node.role != "input" or unused_definition(tool, node, ctx):
            return
        schema = node.schema
        if not isinstance(schema.get("properties"), dict):
            return
        required_list = schema.get("required")
        required = {r for r in required_list if isinstance(r, str)} if isinstance(required_list, list) else set()
        props = schema["properties"]
        for claim in claims(node, tool):
            keyword = "oneOf" if claim.exclusive else "anyOf"
            listed = ", ".join(f"'{n}'" for n in claim.names)
            suggestion = json.dumps({keyword: branches(claim.names)})[1:-1]
            said = f"{claim.where} says: '{quoted(claim.sentence)}'"
            given = [n for n in claim.names if n in required]
            if len(given) == len(claim.names):
                kept = [r for r in required_list if r not in claim.names] if isinstance(required_list, list) else []
                yield Finding(node.pointer,
                              f"{said}, so one of {listed} is enough, but the schema lists every one of them in "
                              f"\"required\": a call must give them all; drop them from \"required\" and add "
                              f"{suggestion}",
                              Fix(f"drop {listed} from \"required\" and add {suggestion}", safe=False,
                                  edits=(Edit("set", node.pointer + "/required", kept),
                                         Edit("set", f"{node.pointer}/{keyword}", branches(claim.names)))))
                continue
            if given or any(k in schema for k in _ENCODINGS):
                continue  # one of them is required already, or the schema states a rule of its own
            if any(isinstance(props.get(n), dict) and props[n].get("default") is not None for n in claim.names):
                continue  # a default stands in for one of them: the function may well be satisfied
            if _conditional_elsewhere(schema, tool, claim.names):
                continue  # another sentence ties the rule to one value of a selector ("when action is 'connect'")
            if node.is_root:
                # Anthropic's API refuses anyOf/oneOf at the top of an input schema (every request listing the
                # tool fails) and OpenAI's strict mode does too: the portable place for the rule is the tool
                yield Finding(node.pointer, (
                    f"{said}, but the schema requires none of {listed}, so {{}} validates; check it in the tool "
                    f"(a call with none of them fails with an error naming them), since {keyword} at the top of an "
                    f"input schema is refused by Anthropic's API and OpenAI's strict mode; where only other "
                    f"targets read the schema, {suggestion} states it"),
                    Fix(f"reject a call without one of {listed} in the tool", safe=False),
                    severity=Severity.INFO)  # the text states the rule and no schema can: the tool's own check
                continue
            yield Finding(node.pointer,
                          f"{said}, but the schema requires none of {listed}, so {{}} validates; add {suggestion}",
                          Fix(f"add {suggestion}", safe=False,
                              edits=(Edit("set", f"{node.pointer}/{keyword}", branches(claim.names)),)),
                          Severity.INFO)  # judged right only some of the time on real servers: a suggestion
