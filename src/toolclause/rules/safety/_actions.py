"""What a tool does, read from its name and description: the verb that explains a finding.

Tool names put the verb first (`create_order`, `getUser`) or last after a resource
(`accounts_list`, `user_delete`); Korean descriptions put it last (`주문을
생성합니다`).  Words like `order`, `book` and `transfer` are verbs and nouns, so a
word counts as the action only where it stands as a verb; when the name is
ambiguous and the description starts with a read verb ("Get the status of an
order"), the description decides.  Every answer carries the word and where it was
found, so a rule can say what triggered it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from ... import _lazy_re as re
from ...lexicon import (
    VerbClass,
    changes_state,
    english,
    identifier_words,
    is_hangul,
    stem_en,
    stem_ko,
    text_words,
    verb_class,
)
from ...model import ToolContract
from ._words import NOUN_FOLLOWERS


@dataclass(frozen=True, slots=True)
class Action:
    word: str
    cls: VerbClass
    where: str  # "name", "description" or "parameter 'NAME'" (a job an action enum selects)
    pointer: str
    why: str = ""  # what else says so: "its object is 'payment'"

    def says(self) -> str:
        """`name starts with 'create'` / `description says '생성합니다'` — for messages."""
        if self.where == "name":
            said = f"the name's verb is '{self.word}'"
        elif self.where.startswith("parameter"):
            said = f"{self.where} selects '{self.word}'"
        else:
            said = f"the description says '{self.word}'"
        return f"{said}; {self.why}" if self.why else said


_SENTENCE_END = re.compile(r"(?<=[.!?。])\s|\n")


def first_sentence(text: str, limit: int = 300) -> str:
    """A text's first sentence (to its first line break at most), cut at `limit` characters."""
    return _SENTENCE_END.split(text.strip(), 1)[0][:limit]
# Korean verbs end in one of these (조회합니다, 생성하고, 삭제한다); a noun (주문, 주문을) does not.
_KO_VERBAL = ("합니다", "하고", "한다", "하는", "하여", "해서", "했다", "하기", "하면", "하며", "됩니다", "했습니다",
              "하세요", "해주세요", "하십시오", "합니까", "한", "할", "함", "해", "냅니다", "냅", "옵니다", "줍니다")
_COMPUTE_STEMS = frozenset(stem_en(w) for w in english.COMPUTE)
_DETERMINERS = frozenset("the a an your this that of for each every its their my our any".split())


def _is_noun_verb(word: str) -> bool:
    return word in english.NOUN_VERBS


@lru_cache(maxsize=32768)
def name_action(name: str) -> tuple[str, VerbClass, bool] | None:
    """(verb, classes, ambiguous) of a tool name; ambiguous when the verb is also a noun."""
    # A namespace (`github.create_issue`, `AclApi.add_mapping`) is not part of the action.
    parts = identifier_words(name.rsplit(".", 1)[-1]) or identifier_words(name)
    for index, word in enumerate(parts):
        cls = verb_class(word)
        if not cls or word.isdigit():
            continue
        if _is_noun_verb(word):
            # plural/third-person forms in a name are nouns: `orders_list`, `posts_search`
            if word.endswith("s") and len(word) > 3 and word not in ("pass", "process"):
                continue
            following = parts[index + 1] if index + 1 < len(parts) else None
            if following in NOUN_FOLLOWERS:
                continue
            # after another word it is a noun (`repair_book`, `user_order`), except a closing
            # read verb (`accounts_list`)
            if index > 0 and not (following is None and cls == VerbClass.READ):
                continue
            return word, cls, True
        return word, cls, False
    return None


# Words a description may open with before its verb: "This tool creates …", "Use this to book …".
_LEAD_IN = frozenset("this tool function api endpoint method use used to can will allows allow lets let you "
                     "the a an it is be helps help enables".split())


@lru_cache(maxsize=32768)
def description_action(text: str) -> tuple[str, VerbClass] | None:
    """The main verb of the description's first sentence.

    English descriptions open with their verb ("Creates an order", "Book a table"),
    after at most a lead-in ("This tool creates …"); a verb-like word later in the
    sentence is usually a noun ("… produced by a charge").  Korean puts the verb last.
    """
    first = first_sentence(text)
    tokens = text_words(first)
    korean: list[tuple[str, VerbClass, bool]] = []
    english_found: tuple[str, VerbClass] | None = None
    english_open = True
    for word in tokens:
        if is_hangul(word):
            cls = verb_class(word)
            if cls:
                korean.append((word, cls, stem_ko(word) != word and word.endswith(_KO_VERBAL)))
        elif english_open:
            cls = verb_class(word)
            if cls:
                english_found = (word, cls)
                english_open = False
            elif word not in _LEAD_IN:
                english_open = False
    if korean:
        verbal = [k for k in korean if k[2]]
        word, cls, _ = (verbal or korean)[-1]
        return word, cls
    return english_found


def computes(tool: ToolContract) -> bool:
    """Does the description open with a verb whose result is the answer (generate, calculate, recommend)?"""
    if not isinstance(tool.description, str):
        return False
    for word in text_words(first_sentence(tool.description, 120)):
        if word in _LEAD_IN:
            continue
        return word in english.COMPUTE or stem_en(word) in _COMPUTE_STEMS
    return False


def tool_action(tool: ToolContract) -> Action | None:
    """The tool's action: the name's verb, unless the description's read verb says the name's word was a noun."""
    named = name_action(tool.name) if isinstance(tool.name, str) else None
    described = description_action(tool.description) if isinstance(tool.description, str) else None
    if named is not None:
        word, cls, ambiguous = named
        if ambiguous and described is not None and described[1] == VerbClass.READ:
            return Action(described[0], described[1], "description", "/description")
        return Action(word, cls, "name", "/name")
    if described is not None:
        return Action(described[0], described[1], "description", "/description")
    return None


def mutating_words(tool: ToolContract, name: bool = True) -> list[str]:
    """Verbs in the name or the description's first sentence that change state (nouns like 'order' left out)."""
    found = []
    if name and isinstance(tool.name, str):
        for word in identifier_words(tool.name):
            if changes_state(word) and not _is_noun_verb(word):
                found.append(word)
    if isinstance(tool.description, str):
        first = first_sentence(tool.description)
        previous = ""
        for word in text_words(first):
            if is_hangul(word):
                if changes_state(word) and word.endswith(_KO_VERBAL):
                    found.append(word)
            elif (changes_state(word) and not _is_noun_verb(word)
                  and previous not in _DETERMINERS):
                found.append(word)
            previous = word
    return found


# --------------------------------------------------------------------------- annotations

_NONE: Mapping[str, Any] = MappingProxyType({})


def annotations_of(tool: ToolContract) -> Mapping[str, Any]:
    """The tool's annotations, or an empty mapping when absent or not an object."""
    value = tool.annotations
    # exact-class test first: an ABC isinstance check costs more than the rest of most callers
    return value if value.__class__ is dict or isinstance(value, Mapping) else _NONE


def hint(tool: ToolContract, key: str) -> bool | None:
    """An annotation hint as written: True, False, or None when absent or not a boolean."""
    value = annotations_of(tool).get(key)
    return value if isinstance(value, bool) else None


def can_annotate(tool: ToolContract) -> bool:
    """Only MCP tools carry annotations; asking a BFCL function for readOnlyHint helps nobody."""
    return tool.origin.format == "mcp" or annotations_of(tool) is not _NONE


# --------------------------------------------------------------------------- parameters

def normalised(name: str) -> str:
    """`Idempotency-Key`, `idempotencyKey`, `idempotency_key` → `idempotencykey`."""
    return "".join(identifier_words(name))


def parameter_names(schema: Any, depth: int = 0) -> list[tuple[str, dict]]:
    """(name, schema) of every property, nested ones too (bounded), for the few tools a rule asks about."""
    out: list[tuple[str, dict]] = []
    if not isinstance(schema, dict) or depth > 4:
        return out
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name, sub in properties.items():
            if isinstance(name, str):
                out.append((name, sub if isinstance(sub, dict) else {}))
            out.extend(parameter_names(sub, depth + 1))
    items = schema.get("items")
    if isinstance(items, dict):
        out.extend(parameter_names(items, depth + 1))
    return out


def has_parameter_like(tool: ToolContract, names: frozenset[str], parts: Iterable[str]) -> bool:
    """Whether any parameter (nested ones too), normalised, is one of `names` or contains one of `parts`.

    X002 asks it for an idempotency key, X003 for a confirmation flag.
    """
    for name, _ in parameter_names(tool.input_schema):
        flat = normalised(name)
        if flat in names or any(part in flat for part in parts):
            return True
    return False
