"""One reading of what a tool does, shared by X001–X006.

A tool says what it does in several places at once: its name (`create_branch`),
an action parameter whose enum selects the job (`method: create|update`), the
first sentence of its description, its annotations (`idempotentHint`,
`destructiveHint`) and its parameters (a natural key, a version guard, a
`dry_run` flag).  Each rule used to match verbs on its own; they now ask this
module, so that "a noun read as a verb" or "an action hidden in an enum" is
fixed once for all of them.

`analyse(tool)` answers:

* `action`   the tool's own verb (name first, description when the name is a noun);
* `jobs`     the jobs an action parameter selects (`add_card`, `move_card` …);
* `creates`, `irreversible`, `destroys` — the first verb (own or selected) of each kind;
* `safe_repeat` — why a repeated create changes nothing, when the design says so:
  a natural unique key, set semantics, a version guard, an upsert, or a tool
  that *is* the preview step;
* `dispatches` — the parameter that names another tool to run, with its arguments;
* `routes` — a free string that names the operation and a free object that carries its arguments
  (`operation: str, payload: object`; Azure MCP's `command` + `parameters` routers);
* `requested` — a change the tool asks for rather than makes ("Request deletion of all data about a user"):
  no read, whatever verb it opens with;
* money — `commit_order`, `submit_payment`, or a description whose first sentence "charges the card": the
  money is gone once it runs, so `irreversible` says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ... import _lazy_re as re
from ...lexicon import (
    VerbClass,
    changes_state,
    english,
    identifier_words,
    is_hangul,
    korean_stem,
    stem_en,
    text_words,
    verb_class,
)
from ...model import ToolContract
from ..base import IdentityMemo, LintContext
from ._actions import (
    Action,
    computes,
    first_sentence,
    has_parameter_like,
    hint,
    name_action,
    normalised,
    parameter_names,
    tool_action,
)
from ._words import (
    ARITHMETIC,
    CAREFUL_SELECTORS,
    CATCH_ALL_PARAMS,
    CHANGE_NOUNS,
    COMMITTING_VERBS,
    COMPUTED_NOUNS,
    CONFIRMATION_TOKENS,
    CONTAINER_NOUNS,
    CONTENT_PARAMS,
    CREATING_EN,
    CREATING_KO,
    EXEC_VERBS,
    EXTRA_CHANGING,
    EXTRA_READ,
    HTTP_METHODS,
    IN_MEMORY,
    MEMBERSHIP_NOUNS,
    MONEY_ACTION_VERBS,
    MONEY_OBJECTS,
    MONEY_VERB_OBJECTS,
    MONEY_VERBS,
    MONEY_WORDS,
    NATURAL_KEY_NOUNS,
    NOT_SENT_OBJECTS,
    OPERATION_PARAMS,
    PAYLOAD_PARAMS,
    PHYSICAL_CHARGE,
    PREVIEW_NOUNS,
    PREVIEW_VERBS,
    REQUESTING_VERBS,
    SELECTOR_PARAMS,
    SENDING_VERBS,
    SET_NOUNS,
    SOFT_REMOVALS,
    SQL_HINTS,
    UNDOING_VERBS,
    URL_PARAMS,
    VERSION_GUARDS,
    WEAK_CONTENT_PARAMS,
)


@dataclass(frozen=True, slots=True)
class Job:
    """One value of an action parameter: `add_card` → verb 'add', class WRITE."""
    value: str
    verb: str
    cls: VerbClass


@dataclass(frozen=True, slots=True)
class Selector:
    name: str
    pointer: str
    jobs: tuple[Job, ...]

    def reads(self) -> list[str]:
        return [j.value for j in self.jobs if j.cls == VerbClass.READ]

    def writes(self) -> list[str]:
        return [j.value for j in self.jobs if j.cls & (VerbClass.MUTATING | VerbClass.IRREVERSIBLE)]


@dataclass(frozen=True, slots=True)
class Analysis:
    action: Action | None
    selector: Selector | None
    creates: Action | None
    irreversible: Action | None
    destroys: Action | None
    safe_repeat: str | None
    preview: bool
    dispatches: tuple[str, str] | None
    routes: tuple[str, str] | None = None
    requested: Action | None = None

    @property
    def changes(self) -> Action | None:
        """The first verb, own or selected, that changes state, or the change the tool asks for."""
        return self.creates or self.destroys or self.irreversible or _changing(self) or self.requested


def _changing(analysis: Analysis) -> Action | None:
    action = analysis.action
    if action is not None and action.cls & (VerbClass.MUTATING | VerbClass.IRREVERSIBLE):
        return action
    if analysis.selector is not None:
        for job in analysis.selector.jobs:
            if job.cls & (VerbClass.MUTATING | VerbClass.IRREVERSIBLE):
                return _job_action(analysis.selector, job)
    return None


def word_class(word: str) -> VerbClass:
    """verb_class, plus the read verbs the lexicon does not know (extract, crawl, geocode …)."""
    cls = verb_class(word)
    if not cls and word in EXTRA_READ:
        return VerbClass.READ
    return cls


# --------------------------------------------------------------------------- action parameters

def _job(value: object) -> Job | None:
    if not isinstance(value, str):
        return None
    parts = identifier_words(value)
    if not parts:
        return None
    cls = word_class(parts[0])
    return Job(value, parts[0], cls) if cls else None


def selector(tool: ToolContract) -> Selector | None:
    """The parameter whose enum chooses the operation (`action`, `method`, `operation` …), nested ones too."""
    schema = tool.input_schema
    return _find_selector(schema, "/inputSchema", 0) if isinstance(schema, dict) else None


def _find_selector(schema: dict, pointer: str, depth: int) -> Selector | None:
    properties = schema.get("properties")
    if not isinstance(properties, dict) or depth > 3:
        return None
    nested = []
    for key, sub in properties.items():
        if not isinstance(key, str) or not isinstance(sub, dict):
            continue
        here = pointer + "/properties/" + key.replace("~", "~0").replace("/", "~1")
        if isinstance(sub.get("properties"), dict):
            nested.append((sub, here))
        found = _selector_here(key, sub, here)
        if found is not None:
            return found
    for sub, here in nested:
        found = _find_selector(sub, here, depth + 1)
        if found is not None:
            return found
    return None


def _selector_here(key: str, sub: dict, pointer: str) -> Selector | None:
    key_words = identifier_words(key)
    if not key_words or key_words[-1] not in SELECTOR_PARAMS:
        return None
    # `metric_type`, `access_mode`: a category of something else; only `type`, `action_type`, `operation_mode`
    if key_words[-1] in CAREFUL_SELECTORS and len(key_words) > 1 and key_words[-2] not in SELECTOR_PARAMS | {
            "request", "crud"}:
        return None
    values = sub.get("enum")
    if not isinstance(values, list) or len(values) < 2:
        return None
    strings = [v for v in values if isinstance(v, str)]
    if {v.lower() for v in strings} <= HTTP_METHODS:
        return None  # GET/POST/DELETE: an HTTP client, which X009 judges by its url
    careful = key_words[-1] in CAREFUL_SELECTORS
    jobs = []
    for value in strings:
        job = _job(value)
        # in a `type` enum, `book`, `post` and `view` are kinds of thing
        if job is None or (careful and job.verb in english.NOUN_VERBS):
            continue
        jobs.append(job)
    # `type`/`mode`: a list of categories that happens to hold "view" and "post" is no operation switch
    if not jobs or (careful and len(jobs) * 2 < len(values)):
        return None
    return Selector(key, pointer, tuple(jobs))


def _job_action(found: Selector, job: Job) -> Action:
    return Action(job.verb, job.cls, f"parameter '{found.name}'", found.pointer)


# --------------------------------------------------------------------------- the tool's own verb

def own_action(tool: ToolContract) -> Action | None:
    """tool_action, with the nouns that look like verbs taken out (`send_as`, a calculator's `add`)."""
    action = tool_action(tool)
    if action is None:
        word = _extra_read(tool)
        return Action(word, VerbClass.READ, "name", "/name") if word else None
    if action.where == "name" and isinstance(tool.name, str):
        words = identifier_words(tool.name)
        if action.word in words:
            index = words.index(action.word)
            # `send_as` (a mail alias), `post_as`: the verb plus "as" names a thing
            if action.word in ("send", "post") and index + 1 < len(words) and words[index + 1] == "as":
                return None
    return action


def _extra_read(tool: ToolContract) -> str | None:
    """A read verb the shared lexicon lacks, opening the name or the description: extract, crawl, geocode."""
    if isinstance(tool.name, str):
        named = name_action(tool.name)
        if named is None:
            for word in identifier_words(tool.name.rsplit(".", 1)[-1])[:3]:
                if word in EXTRA_READ:
                    return word
    if isinstance(tool.description, str):
        for word in text_words(tool.description.strip()[:120])[:3]:
            if word in EXTRA_READ:
                return word
    return None


def _creating(tool: ToolContract, action: Action | None) -> bool:
    if action is None:
        return False
    if is_hangul(action.word):
        return bool(korean_stem(action.word, CREATING_KO))
    if action.word in _UPLOADS:
        # an upload that attaches or appends adds one more attachment on every retry; one to a path replaces it
        text = " ".join((tool.name if isinstance(tool.name, str) else "",
                         tool.description[:200] if isinstance(tool.description, str) else "")).lower()
        return any(word in text for word in ("attach", "append"))
    if action.word not in CREATING_EN:
        return False
    if action.where == "description" or action.where == "name":
        # `create_recipe_guide` that "Generates a recipe guide" returns an answer and stores nothing
        if computes(tool):
            return False
    name_words = identifier_words(tool.name) if isinstance(tool.name, str) else ()
    # `add_numbers`, `send_time_estimate`: the name computes or measures; `create_polygon`: built in memory
    if ARITHMETIC.intersection(name_words) or IN_MEMORY.intersection(name_words):
        return False
    if action.word in ("charge", "charges") and PHYSICAL_CHARGE.intersection(name_words):
        return False
    # a calculator's `add(a, b)`: every parameter is a number
    if action.word in ("add", "adds") and len(_objects(tool, action.word)) == 0 and _all_numbers(tool):
        return False
    return True


_PATHS = frozenset("path filepath filename".split())
_UPLOADS = frozenset("upload uploads attach attaches".split())


def _all_numbers(tool: ToolContract) -> bool:
    params = _top_properties(tool)
    return bool(params) and all(isinstance(s, dict) and s.get("type") in ("number", "integer")
                                for s in params.values())


def _top_properties(tool: ToolContract) -> dict[str, Any]:
    schema = tool.input_schema
    properties = schema.get("properties") if isinstance(schema, dict) else None
    return properties if isinstance(properties, dict) else {}


def _required(tool: ToolContract) -> frozenset[str]:
    schema = tool.input_schema
    required = schema.get("required") if isinstance(schema, dict) else None
    return frozenset(r for r in required if isinstance(r, str)) if isinstance(required, list) else frozenset()


def _required_in_items(tool: ToolContract) -> set[str]:
    """Required keys of the objects inside the tool's required array parameters (`entities[].name`)."""
    out: set[str] = set()
    properties = _top_properties(tool)
    for name in _required(tool):
        items = properties.get(name, {}).get("items") if isinstance(properties.get(name), dict) else None
        if isinstance(items, dict) and isinstance(items.get("required"), list):
            out.update(normalised(r) for r in items["required"] if isinstance(r, str))
    return out


def _objects(tool: ToolContract, verb: str) -> tuple[str, ...]:
    """The words of the name after its verb: `create_branch` → ('branch',); `git_add` → ()."""
    if not isinstance(tool.name, str):
        return ()
    words = identifier_words(tool.name.rsplit(".", 1)[-1])
    if verb in words:
        index = words.index(verb)
        after = words[index + 1:]
        return after
    return words


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("es") and word[:-2].endswith(("sh", "ch", "x", "ss")):
        return word[:-2]
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


def _takes_ddl(tool: ToolContract, noun: str) -> bool:
    """A required parameter described as the `CREATE <noun>` statement to run (which names what it makes)."""
    schema = tool.input_schema
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return False
    statement = f"create {noun}"
    for name in _required(tool):
        sub = properties.get(name)
        said = sub.get("description") if isinstance(sub, dict) else None
        if isinstance(said, str) and statement in " ".join(said.lower().split()):
            return True
    return False


def safe_repeat(tool: ToolContract, creating: Action | None) -> str | None:
    """Why a repeated call of this creating tool makes nothing new, when its design says so."""
    if creating is None:
        return None
    flat = {normalised(name) for name, _ in parameter_names(tool.input_schema)}
    guard = sorted(flat & VERSION_GUARDS)
    if guard:
        return f"the '{guard[0]}' parameter guards the version, so a repeat is rejected"
    name_words = identifier_words(tool.name) if isinstance(tool.name, str) else ()
    if "upsert" in name_words or ("create" in name_words and "update" in name_words):
        return "it creates or updates one thing by its key, so a repeat changes nothing"
    objects = [_singular(w) for w in _objects(tool, creating.word)]
    if creating.where.startswith("parameter"):
        objects = []
    if any(o in SET_NOUNS for o in objects):
        return "adding the same one twice is a no-op (set semantics)"
    # a natural unique key: `create_branch(branch)`, `create_repository(name)` — a repeat fails "already exists"
    required = {normalised(r) for r in _required(tool)}
    noun = next((o for o in objects if o in NATURAL_KEY_NOUNS), None)
    if noun is not None:
        keys = {"name", noun, noun + "name", "path", noun + "path"}
        if (required | _required_in_items(tool)) & keys:
            return f"the {noun} is identified by its name, so a repeat fails as already existing"
        if _takes_ddl(tool, noun):  # mcp-server-sqlite's create_table(query: "CREATE TABLE SQL statement")
            return (f"the CREATE {noun.upper()} statement it is given names the {noun}, so a repeat fails as "
                    f"already existing")
    if creating.word in ("create", "creates") and {"name", "namespace"} <= flat:
        return "resources are named uniquely within their namespace, so a repeat fails as already existing"
    if creating.word in ("create", "creates") and required & _PATHS:
        return "it creates the file at the path it is given, so a repeat writes the same file"
    # a pull or merge request is unique per source and target branch: a second one is refused
    if {"head", "base"} <= required or {"sourcebranch", "targetbranch"} <= required:
        return "one request per source and target branch, so a repeat is refused"
    if creating.word in ("add", "adds") and ("files" in flat or "paths" in flat) and "git" in name_words:
        return "staging the same files twice is a no-op"
    # the commit step of prepare/commit: the preview's single-use token is the key a repeat is refused by
    if required & CONFIRMATION_TOKENS:
        return "it needs the single-use confirmation token of a preview, so a repeat is refused as already used"
    return None


def _is_preview(tool: ToolContract) -> bool:
    """`quote_purchase`, `preview_order`, `estimate_shipping`, `create_order_preview`: the tool shows what
    would happen (the prepare step of prepare/commit), whatever verb comes before the noun 'preview'."""
    if not isinstance(tool.name, str):
        return False
    words = identifier_words(tool.name.rsplit(".", 1)[-1])
    return bool(words) and (words[0] in PREVIEW_VERBS or words[-1] in PREVIEW_NOUNS)


# A parameter that names another tool, and one that carries its arguments
_TOOL_NAME_PARAMS = frozenset("toolname tool functionname function toolid commandname operationname".split())
_ARGUMENT_PARAMS = frozenset("arguments args params parameters input inputs toolinput toolarguments".split())


def _dispatch(tool: ToolContract) -> tuple[str, str] | None:
    properties = _top_properties(tool)
    named = next((k for k in properties if isinstance(k, str) and normalised(k) in _TOOL_NAME_PARAMS), None)
    if named is None:
        return None
    carried = next((k for k, s in properties.items() if isinstance(k, str) and normalised(k) in _ARGUMENT_PARAMS
                    and isinstance(s, dict) and s.get("type") in ("object", None, ["object", "null"])), None)
    return (named, carried) if carried else None


# --------------------------------------------------------------------------- the analysis

class _Analyses(IdentityMemo[ToolContract, "Analysis"]):
    """This run's analyses, one per tool (X001–X006 ask about the same tools)."""


def analyse(tool: ToolContract, ctx: LintContext | None = None) -> Analysis:
    """What the tool does; kept for the run when the rule passes its context."""
    if ctx is None:
        return _analyse(tool)
    return ctx.state(_Analyses).get(tool, _analyse)


def _analyse(tool: ToolContract) -> Analysis:
    action = own_action(tool)
    found = selector(tool)
    creates = action if _creating(tool, action) else None
    if creates is not None and _sends_to_server(tool, creates):
        creates = None  # feedback to the server: a repeat duplicates nothing anyone acts on
    irreversible = action if action is not None and action.cls & VerbClass.IRREVERSIBLE else None
    destroys = action if action is not None and action.cls & VerbClass.DESTRUCTIVE else None
    if found is not None:
        for job in found.jobs:
            if creates is None and (job.verb in CREATING_EN or (is_hangul(job.verb)
                                                                and korean_stem(job.verb, CREATING_KO))):
                creates = _job_action(found, job)
            if irreversible is None and job.cls & VerbClass.IRREVERSIBLE:
                irreversible = _job_action(found, job)
            if destroys is None and job.cls & VerbClass.DESTRUCTIVE:
                destroys = _job_action(found, job)
    if irreversible is not None and (_sends_to_server(tool, irreversible) or _charges_a_battery(tool, irreversible)):
        irreversible = None
    if irreversible is None:
        irreversible = moves_money(tool)
    requested = requested_change(tool)
    if destroys is None:
        destroys = _bulk_or_overwrite(tool, action)
    if destroys is None and requested is not None and requested.cls & VerbClass.DESTRUCTIVE:
        destroys = requested  # "Request deletion of all data about a user": the deletion happens
    return Analysis(action, found, creates, irreversible, destroys, safe_repeat(tool, creates), _is_preview(tool),
                    _dispatch(tool), _routes(tool), requested)


def _sends_to_server(tool: ToolContract, action: Action) -> bool:
    """Sending feedback or a key press to the server itself reaches no person and moves no money."""
    if action.where not in ("name", "description") or not isinstance(tool.name, str):
        return False
    words = identifier_words(tool.name)
    return action.word in SENDING_VERBS and bool(words) and words[-1] in NOT_SENT_OBJECTS


def _charges_a_battery(tool: ToolContract, action: Action) -> bool:
    """`charge_robot`: "Charges the robot's battery" moves no money."""
    if action.word not in ("charge", "charges"):
        return False
    words = set(identifier_words(tool.name)) if isinstance(tool.name, str) else set()
    if isinstance(tool.description, str):
        tokens = text_words(first_sentence(tool.description))
        for index, word in enumerate(tokens):
            if word in ("charge", "charges"):
                words.update(tokens[index + 1:index + 5])  # what is charged: "Charges the robot's battery"
    return bool(PHYSICAL_CHARGE.intersection(words)) or "battery" in words


_BULK = frozenset("many all bulk batch".split())
_ADDING = frozenset("creates adds inserts import imports upload uploads copy copies clone clones".split())


def _bulk_or_overwrite(tool: ToolContract, action: Action | None) -> Action | None:
    """`update_many`, `bulk_update`, a rename or write with an `overwrite` flag: it destroys what was there."""
    if action is None or not action.cls & VerbClass.WRITE or not isinstance(tool.name, str):
        return None
    words = identifier_words(tool.name)
    # `insert_many`, `batch_create_issues`: adding many things destroys none of them; `update_many` overwrites
    if _BULK.intersection(words) and action.word not in CREATING_EN | _ADDING:
        return Action(f"{action.word} ({'/'.join(sorted(_BULK.intersection(words)))})", VerbClass.DESTRUCTIVE,
                      action.where, action.pointer)
    if has_parameter_like(tool, frozenset({"overwrite", "replace", "replaceexisting", "force"}), ()):
        return Action(f"{action.word} with overwrite", VerbClass.DESTRUCTIVE, action.where, action.pointer)
    return None


# --------------------------------------------------------------------------- money, and changes asked for

_PREPOSITIONS = frozenset("to on in for of with from at by into onto about between under over via as".split())
_NOT_BEFORE_A_VERB = frozenset("the a an your their its his her this that these those any no all each every some "
                               "of for with by from in on at per pending recurring total given specific new "
                               "existing past previous".split())
# A money verb that is often a noun ("purchase amount", "purchase order") counts only before its object's article.
_OFTEN_NOUNS = frozenset("purchase purchases buy buys".split())
_ARTICLES = frozenset("the a an your their its his her this that it them".split())


def moves_money(tool: ToolContract) -> Action | None:
    """`commit_order`, `submit_payment`, `process_refund`; or a first sentence that "charges the card on file".

    The money is gone once the tool runs: the tool is irreversible whatever its own verb (`commit` only writes)."""
    if isinstance(tool.name, str):
        words = identifier_words(tool.name.rsplit(".", 1)[-1])
        for index, word in enumerate(words):
            if word not in COMMITTING_VERBS:
                continue
            objects = _name_objects_after(words, index)
            head = objects[-1] if objects else None
            if head in MONEY_OBJECTS and not (head.startswith("transaction") and _mentions_sql(tool)):
                return Action(word, VerbClass.WRITE | VerbClass.IRREVERSIBLE, "name", "/name",
                              f"its object is '{head}'")
    if isinstance(tool.description, str):
        tokens = text_words(first_sentence(tool.description))
        # a lookup or a calculation mentions money without moving it, unless a second verb joins on ("Gets the
        # invoice and pays it"); "Calculates the sales tax for a given purchase amount"
        joined_only = computes(tool) or _opens_with_a_read(tokens)
        for index, word in enumerate(tokens):
            if word not in MONEY_VERBS:
                continue
            before = tokens[index - 1] if index else ""
            after = tokens[index + 1] if index + 1 < len(tokens) else ""
            if joined_only and before not in ("and", "then", "also"):
                continue
            # "Lists charges", "the charges", "for purchase": a noun
            if before in _NOT_BEFORE_A_VERB or (before and word_class(before)):
                continue
            if not (after in MONEY_VERB_OBJECTS or after.isdigit() or (word in ("pay", "pays") and after == "for")):
                continue
            if word in _OFTEN_NOUNS and after not in _ARTICLES:
                continue
            if PHYSICAL_CHARGE.intersection(tokens[index + 1:index + 4]):
                continue  # "charges the robot's battery"
            return Action(word, VerbClass.WRITE | VerbClass.IRREVERSIBLE, "description", "/description")
    return None


def _opens_with_a_read(tokens: tuple[str, ...]) -> bool:
    first = next((w for w in tokens if w not in _LEAD_IN), "")
    return word_class(first) == VerbClass.READ


def _name_objects_after(words: tuple[str, ...], index: int) -> list[str]:
    """The name's words after its verb up to a preposition (`submit_payment_for_invoice` → payment); the words
    before it when the verb comes last (`order_submit` → order)."""
    after = []
    for word in words[index + 1:]:
        if word in _PREPOSITIONS:
            break
        if not word.isdigit():
            after.append(word)
    if not after and index == len(words) - 1:
        after = [w for w in words[:index] if not w.isdigit()]
    return after


def _mentions_sql(tool: ToolContract) -> bool:
    """`execute_transaction` on a database runs statements; it moves no money."""
    words = set(identifier_words(tool.name)) if isinstance(tool.name, str) else set()
    if isinstance(tool.description, str):
        words.update(text_words(tool.description[:300]))
    return bool(SQL_HINTS.intersection(words) or {"statement", "statements", "query", "queries"} & words)


def requested_change(tool: ToolContract) -> Action | None:
    """A change the tool asks for rather than makes: `request_user_data_deletion`, "Schedules the account for
    deletion", "Submit a request to delete the repository".  Whatever it opens with, it is no read."""
    if isinstance(tool.name, str):
        words = identifier_words(tool.name.rsplit(".", 1)[-1])
        # `queue_purge`: in a name, a queue is the thing the tool is about
        found = _asks_for(words, 0) if words and words[0] not in _NAMED_THINGS else None
        if found is not None:
            verb, what, cls = found
            return Action(verb, cls, "name", "/name", f"it asks for '{what}'")
    if isinstance(tool.description, str):
        # each clause may open with its own verb: "Get a user's data erased: requests deletion of all of it"
        for clause in _CLAUSES.split(first_sentence(tool.description)):
            tokens = text_words(clause)
            start = next((i for i, w in enumerate(tokens) if w not in _LEAD_IN), len(tokens))
            found = _asks_for(tokens, start)
            if found is not None:
                verb, what, cls = found
                return Action(verb, cls, "description", "/description", f"it asks for '{what}'")
    return None


_CLAUSES = re.compile(r"[:;,()\u2014\u2013]|\s-\s")


_NAMED_THINGS = frozenset("queue queues".split())
_LEAD_IN = frozenset("this tool function api endpoint method use used to can will allows allow lets let you "
                     "the a an it is be helps help enables".split())


def _asks_for(words: tuple[str, ...] | list[str], start: int) -> tuple[str, str, VerbClass] | None:
    """(verb, what it asks for, class) when a requesting verb stands where a verb stands — first, or after
    'and'/'then'/'to' — and a change follows within a few words: a noun ("deletion"), or a verb after 'to' or 'be'
    ("a request to delete", "that the account be deleted")."""
    for index, word in enumerate(words):
        if word not in REQUESTING_VERBS:
            continue
        if index != start and (index == 0 or words[index - 1] not in ("and", "then", "to", "or")):
            continue
        for at in range(index + 1, min(index + 7, len(words))):
            follower = words[at]
            kind = CHANGE_NOUNS.get(follower)
            if kind == "destroys":
                return word, follower, VerbClass.WRITE | VerbClass.DESTRUCTIVE
            if kind is not None:
                return word, follower, VerbClass.WRITE
            cls = verb_class(follower)
            if words[at - 1] in ("to", "be") and follower not in english.NOUN_VERBS and cls & (
                    VerbClass.MUTATING | VerbClass.IRREVERSIBLE):
                return word, follower, VerbClass.WRITE | (cls & VerbClass.DESTRUCTIVE)
    return None


# --------------------------------------------------------------------------- routers and catch-all updates

_RESTRICTING = ("enum", "const", "pattern", "anyOf", "oneOf")
_PICKS_A_SUBCOMMAND = re.compile(r"\b(?:specified tool|sub[- ]?commands?|child tools?|operations?)\b", re.I)
_A_ROUTER = re.compile(r"\bcommand router\b|\bsub[- ]?commands? are routed\b", re.I)
_HTTP = re.compile(r"\bHTTP\b|\b(?:GET|POST|PUT|PATCH|DELETE)\b")
_INTERPRETER_WORDS = frozenset("shell bash sh zsh powershell terminal repl python javascript sql subprocess cmd "
                               "cli console".split())


def _free_string(sub: dict) -> bool:
    kind = sub.get("type")
    if kind not in ("string", None) and not (isinstance(kind, list) and "string" in kind):
        return False
    return not any(k in sub for k in _RESTRICTING)


def free_object(sub: Any) -> bool:
    """An object parameter whose keys nothing names: no properties (or none listed), and not closed."""
    if not isinstance(sub, dict):
        return False
    kind = sub.get("type")
    if kind not in ("object", None) and not (isinstance(kind, list) and "object" in kind):
        return False
    if kind is None and any(k in sub for k in ("items", "enum", "const", "anyOf", "oneOf", "format", "pattern")):
        return False
    properties = sub.get("properties")
    if isinstance(properties, dict) and properties or sub.get("patternProperties"):
        return False
    return sub.get("additionalProperties") is not False


def _routes(tool: ToolContract) -> tuple[str, str] | None:
    """`do_anything(operation: str, payload: object)`, Azure MCP's `command` + `parameters`: the operation is a
    free string and its arguments a free object, so the tool runs whatever operation the model names."""
    properties = _top_properties(tool)
    operation = next((k for k, s in properties.items() if isinstance(k, str) and isinstance(s, dict)
                      and normalised(k) in OPERATION_PARAMS and _free_string(s)), None)
    if operation is None:
        return None
    payload = next((k for k, s in properties.items() if isinstance(k, str) and k != operation
                    and normalised(k) in PAYLOAD_PARAMS and free_object(s)), None)
    if payload is None:
        return None
    flat = normalised(operation)
    said = properties[operation].get("description")
    said = said if isinstance(said, str) else ""
    routed = bool(_PICKS_A_SUBCOMMAND.search(said)) or (isinstance(tool.description, str)
                                                        and bool(_A_ROUTER.search(tool.description)))
    if isinstance(tool.name, str) and not routed:
        words = identifier_words(tool.name.rsplit(".", 1)[-1])
        # `track_event(action, data)`, `create_audit_entry(action, payload)`: the action is a recorded fact, and a
        # tool whose name has its own verb does that one thing
        if _RECORDED.intersection(words) or name_action(tool.name) is not None:
            return None
    if flat.startswith("method") and (_HTTP.search(said) or any(
            isinstance(k, str) and normalised(k) in URL_PARAMS | {"path", "endpoint"} for k in properties)):
        return None  # an HTTP client's method: X009 judges it by its url
    if flat.startswith(("command", "cmd")) and isinstance(tool.name, str):
        words = identifier_words(tool.name)
        if (EXEC_VERBS.intersection(words) or _INTERPRETER_WORDS.intersection(words)) and not routed:
            return None  # a shell or CLI runner's command line: X009's
    return operation, payload


_RECORDED = frozenset("event events audit analytics telemetry log logs activity activities history track tracking "
                      "metric metrics webhook webhooks notification notifications".split())


def describes_reads(text: str) -> bool:
    """Does the text say something is read (search, list, "retrieving")?"""
    return any(word_class(w) == VerbClass.READ or stem_en(w) in _READING_STEMS for w in text_words(text))


_READING_STEMS = frozenset(stem_en(w) for w in "search get list query retrieve return fetch find read look "
                                               "analyze diagnose monitor inspect explain recommend".split())
_ANYTHING = re.compile(r"\b(?:anything|everything|arbitrary|any (?:operation|action|command|method))\b", re.I)
# What a description says changes, beyond the lexicon's verbs: its gerunds and nominal forms ("creating",
# "configuring server parameters").  "Managing" is left out: Azure's read-only routers say it too.
_CHANGING_STEMS = frozenset(stem_en(w) for w in """
create update delete modify remove deploy provision configure send append write upload install assign rename
publish drop purge cancel revoke grant restart lock
""".split()) | {"sett"}


_HYPHENATED = re.compile(r"\b\w+(?:-\w+)+\b")  # "publish-subscribe patterns", "azure-deploy skills": names
_OPERATIONS_LIST = re.compile(r"\b(?:includes?|provides?|supports?|offers?)\s+(?:\w+\s+)?(?:sub-?commands?|operations?)"
                              r"\s+(?:to|for)\b[^.\n]*", re.I)
# After these a change word is a circumstance ("before creating any plans", "guidance on modifying"); before these,
# a modifier ("provisioning state").
_NOT_DONE_AFTER = frozenset("before when while after on about".split())
_NOT_DONE_BEFORE = frozenset("state states status plan plans pattern patterns guidance instructions practices "
                             "history logs template templates".split())


def describes_changes(text: str) -> bool:
    """Does the text say something changes (create, delete, "creating", "configuring server parameters", CRUD)?

    Where it lists what its operations do ("Includes operations for listing, creating …", "Provides sub-commands
    to generate plans …"), that list decides."""
    listed = [found.group(0) for found in _OPERATIONS_LIST.finditer(text)]
    tokens = text_words(_HYPHENATED.sub(" ", " ".join(listed) if listed else text))
    for index, word in enumerate(tokens):
        if word == "crud":
            return True
        if word in english.NOUN_VERBS or not (changes_state(word) or stem_en(word) in _CHANGING_STEMS):
            continue
        before = tokens[index - 1] if index else ""
        after = tokens[index + 1] if index + 1 < len(tokens) else ""
        if before in _NOT_DONE_AFTER or after in _NOT_DONE_BEFORE:
            continue
        return True
    return False


def says_anything(text: str) -> bool:
    """"Do anything with a user account": the text claims no bound at all."""
    return bool(_ANYTHING.search(text))


_UPDATING = frozenset("update updates edit edits modify modifies patch patches set sets change changes save saves "
                      "upsert upserts".split())
_KEY_MENTION = re.compile(r"`[A-Za-z_][\w.-]*`|\"[A-Za-z_][\w.-]*\"|'[A-Za-z_][\w.-]*'")
_KEYS_ELSEWHERE = re.compile(r"\bschema\b|\{\s*\"|\bkeyed by\b", re.I)
ANY_FIELD = re.compile(r"\b(?:any|arbitrary|all|every|whatever)\s+(?:other\s+)?(?:of\s+(?:the\s+)?(?:[\w-]+'s\s+)?)?"
                       r"(?:[\w-]+\s+)?(?:fields?|attributes?|properties|columns|keys)\b", re.I)


def catch_all(tool: ToolContract, action: Action | None) -> tuple[str, dict] | None:
    """(name, schema) of the open object an update tool changes whatever fields it names with: "Updates any field
    of the user's profile" with a `fields` object whose keys neither its schema nor any description lists."""
    if not _updates(tool, action):
        return None
    for name, sub in _top_properties(tool).items():
        if not isinstance(name, str) or normalised(name) not in CATCH_ALL_PARAMS or not isinstance(sub, dict):
            continue
        if not free_object(sub) and not (sub.get("additionalProperties") not in (None, False)
                                         and says_any_field(tool, sub)):
            continue
        if _keys_described(tool, sub):
            continue
        return name, sub
    return None


def _updates(tool: ToolContract, action: Action | None) -> bool:
    if action is not None and action.word in _UPDATING:
        return True
    words = identifier_words(tool.name.rsplit(".", 1)[-1]) if isinstance(tool.name, str) else ()
    if words and (words[0] in _UPDATING or words[-1] in _UPDATING):
        return True
    if isinstance(tool.description, str):
        tokens = text_words(first_sentence(tool.description))
        first = next((w for w in tokens if w not in _LEAD_IN), "")
        return first in _UPDATING
    return False


def says_any_field(tool: ToolContract, sub: dict) -> str | None:
    """The wording that says every field may change ("any field", "arbitrary fields"), if the texts say so."""
    for text in (tool.description, sub.get("description")):
        if isinstance(text, str):
            found = ANY_FIELD.search(text)
            if found:
                return found.group(0)
    return None


def _keys_described(tool: ToolContract, sub: dict) -> bool:
    """The keys are listed somewhere a model reads: two quoted names, a JSON example, a schema to fetch them from."""
    for text in (sub.get("description"), tool.description):
        if isinstance(text, str) and (len(set(_KEY_MENTION.findall(text))) >= 2 or _KEYS_ELSEWHERE.search(text)):
            return True
    examples = sub.get("examples")
    return isinstance(examples, list) and any(isinstance(e, dict) and e for e in examples) or (
        isinstance(sub.get("default"), dict) and bool(sub["default"]))


def only_reads(tool: ToolContract, ctx: LintContext | None = None) -> Action | None:
    """The tool's read verb when reading is all it does (no write verb in the name, the description or a job,
    and no statement or command it runs: `execute_query(sql)` reads only if the SQL it is given does)."""
    analysis = analyse(tool, ctx)
    action = analysis.action
    if action is None or action.cls != VerbClass.READ:
        return None
    if analysis.selector is not None and analysis.selector.writes():
        return None
    if _mutating_words(tool) or (runs_anything(tool) and not enforces_read_only(tool)):
        return None
    return action


# --------------------------------------------------------------------------- tools that run what they are given

_INTERPRETERS = frozenset("sql shell bash sh zsh powershell terminal repl python javascript cmd command".split())
# Name words that say the tool runs a statement (`execute_query`, `run_statement`), when a parameter carries it
_STATEMENTS = frozenset("query queries statement statements script scripts code".split())


def runs_anything(tool: ToolContract) -> str | None:
    """'SQL' / 'shell commands' / 'code' when the tool executes the statement or command it is given:
    `run_sql(sql)`, `execute_command(command)`, `execute_query(sql)` over DuckDB."""
    if not isinstance(tool.name, str):
        return None
    words = identifier_words(tool.name)
    named = tool.name.lower() in ("execute_sql", "run_sql", "exec_sql", "query_sql", "sql", "shell", "bash")
    interpreter = bool(_INTERPRETERS.intersection(words))
    if not (named or EXEC_VERBS.intersection(words) and (interpreter or _STATEMENTS.intersection(words))):
        return None
    sql = interpreter or _names_sql(tool)
    for name in _top_properties(tool):
        flat = normalised(name) if isinstance(name, str) else ""
        # `execute_query(query)` over a search index runs a search: a weak name counts where SQL is named
        if flat in CONTENT_PARAMS and (named or interpreter or flat not in WEAK_CONTENT_PARAMS or sql):
            return CONTENT_PARAMS[flat]
    return None


def _names_sql(tool: ToolContract) -> bool:
    words = set(identifier_words(tool.name)) if isinstance(tool.name, str) else set()
    if isinstance(tool.description, str):
        words.update(text_words(tool.description[:300]))
    return bool(SQL_HINTS.intersection(words))


ENFORCED_READ_ONLY = re.compile(r"\bread[- ]?only\b|\bonly\s+(?:select|read)"
                                r"|\bselect\s+(?:statements?|queries)\s+only", re.I)


def enforces_read_only(tool: ToolContract) -> bool:
    """`run_select_query`, "Runs a read-only SQL query": the tool says it lets only reads through."""
    if isinstance(tool.name, str) and "select" in identifier_words(tool.name):
        return True
    return isinstance(tool.description, str) and bool(ENFORCED_READ_ONLY.search(tool.description))


# --------------------------------------------------------------------------- what a host's question is for

_REVERSIBLE = re.compile(r"\breversible\b(?<!\bnot reversible)|\bcan (?:later )?be (?:restored|undone|reversed|"
                         r"reactivated|re-?enabled|unarchived|recovered)\b|\bsoft[- ](?:disables?|deletes?|deleted|"
                         r"removes?)\b|\b(?:is|are) not (?:permanently )?deleted\b", re.I)
_INSTANCE = re.compile(r"\bdetach(?:es|ed)?\s+(?:\w+\s+){0,2}instances?\b", re.I)
_DETACHES = re.compile(r"\bdetach(?:es|ed|ing)?\b", re.I)
_AS_A_ROLE = re.compile(r"\b(?:remove|removes|delete|deletes)\s+(?:\w+\s+){0,3}?(?:as|from being)\s+"
                        r"(?:\w+\s+)?(?:owner|assignee|watcher|follower|reviewer)s?\b", re.I)


def _tool_texts(tool: ToolContract, found: Selector | None) -> str:
    """The description, and the action parameter's description: where a tool says what its jobs do."""
    texts = [tool.description if isinstance(tool.description, str) else ""]
    if found is not None:
        sub = _schema_at(tool, found.pointer)
        said = sub.get("description") if isinstance(sub, dict) else None
        if isinstance(said, str):
            texts.append(said)
    return "\n".join(texts)


def _schema_at(tool: ToolContract, pointer: str) -> Any:
    node: Any = tool.input_schema
    for token in pointer.split("/")[2:]:
        if not isinstance(node, dict):
            return None
        node = node.get(token.replace("~1", "/").replace("~0", "~"))
    return node


def _offered(tool: ToolContract, found: Selector | None) -> set[str]:
    """The first word of every value the action parameter offers, verbs the lexicon knows or not (`activate`)."""
    if found is None:
        return set()
    sub = _schema_at(tool, found.pointer)
    values = sub.get("enum") if isinstance(sub, dict) else None
    return {identifier_words(v)[0] for v in values if isinstance(v, str) and identifier_words(v)} if isinstance(
        values, list) else set()


def undone_by_adding_back(tool: ToolContract, action: Action) -> bool:
    """A removal that adding back restores as it was: a watch, a star or an owner taken off an item
    (`delete_watching`, `stories-unassign-current-user`: "Remove current user as story owner")."""
    if not isinstance(tool.name, str):
        return False
    words = identifier_words(tool.name.rsplit(".", 1)[-1])
    if UNDOING_VERBS.intersection(words):
        return True
    if not action.cls & VerbClass.DESTRUCTIVE or action.where.startswith("parameter"):
        return False
    if any(_singular(w) in MEMBERSHIP_NOUNS or w in MEMBERSHIP_NOUNS for w in _objects(tool, action.word)):
        return True
    return isinstance(tool.description, str) and bool(_AS_A_ROLE.search(first_sentence(tool.description)))


def _undoable(tool: ToolContract, action: Action, found: Selector | None) -> bool:
    """Does the tool itself say the destruction is undone: an archive the same tool unarchives, a soft disable
    the description calls reversible, a detach that adding back undoes, an owner removed and put back?"""
    verb = action.word
    inverses = SOFT_REMOVALS.get(verb)
    text = _tool_texts(tool, found)
    if inverses is not None:
        offered = _offered(tool, found)
        said = set(text_words(first_sentence(tool.description))) if isinstance(tool.description, str) else set()
        if inverses & (offered | said) or _REVERSIBLE.search(text):
            return True
    if verb in ("remove", "removes") and found is not None and action.where.startswith("parameter"):
        # `manage_agent_skills`: "remove — detaches a skill from this agent", next to `add`; a trigger *instance*
        # detached is gone with its settings
        if {"add", "attach"} & _offered(tool, found) and _DETACHES.search(text) and not _INSTANCE.search(text):
            return True
    return undone_by_adding_back(tool, action)


def lasting_destruction(tool: ToolContract, analysis: Analysis) -> Action | None:
    """The first thing the tool destroys for good — deletes, overwrites, revokes, or cannot take back — leaving
    out what it says it undoes (an archive it unarchives, a soft disable, a detach that adding back undoes)."""
    found = analysis.selector
    candidates: list[Action] = []
    if analysis.destroys is not None and not analysis.destroys.where.startswith("parameter"):
        candidates.append(analysis.destroys)
    if found is not None:
        candidates.extend(_job_action(found, j) for j in found.jobs if j.cls & VerbClass.DESTRUCTIVE)
    return next((a for a in candidates if not _undoable(tool, a, found)), None)


def moves_money_for_good(tool: ToolContract, analysis: Analysis) -> bool:
    """Is the tool's irreversible action a payment, a charge, a purchase, an order, a refund or a transfer of
    funds?  The model must never do that alone (`transfer` an image to another region moves no money)."""
    action = analysis.irreversible
    if action is None:
        return False
    if moves_money(tool) is not None and moves_money(tool) == action:
        return True
    if action.word in MONEY_ACTION_VERBS:
        return True
    if action.word in ("transfer", "transfers", "place", "places", "send", "sends"):
        return bool(_money_named(tool, action))
    return False


def _money_named(tool: ToolContract, action: Action) -> str | None:
    """The money word among what the tool acts on: its name's objects, its first sentence, its parameters."""
    words = {_singular(w) for w in _objects(tool, action.word)}
    if isinstance(tool.description, str):
        words.update(text_words(first_sentence(tool.description)))
    words.update(normalised(k) for k in _top_properties(tool) if isinstance(k, str))
    found = (words & MONEY_WORDS) | (words & {"amount", "amountcents", "currency", "iban", "fromaccount",
                                                "toaccount"})
    return min(found) if found else None


_WHOLE = re.compile(r"\b(?:and|with|including)\s+(?:all|every(?:thing)?)\b(?:\s+(?:of\s+)?(?:its|their|the|it|in))?"
                    r"|\beverything\s+(?:in|inside|within)\s+(?:it|them)\b", re.I)


def destroys_a_container(tool: ToolContract, action: Action) -> str | None:
    """What a whole deletion takes with it: a project, an account, a database with everything it holds
    (`delete_project`), or a description that says so ("Deletes the repository and all its issues")."""
    if not action.cls & VerbClass.DESTRUCTIVE:
        return None
    if action.where == "name":
        # the head of what the name deletes: `delete_project`, not `delete_project_status`
        head = next((w for w in _head_objects(tool, action.word)[::-1] if not w.isdigit()), None)
        if head in CONTAINER_NOUNS:
            return f"a {_singular(head)} goes with everything in it"
    if isinstance(tool.description, str):
        sentence = first_sentence(tool.description)
        found = _WHOLE.search(sentence)
        if found:
            return f"the description says '{found.group(0)}'"
        tokens = text_words(sentence)
        if action.where == "description" and action.word in tokens:
            # "Deletes a Neon project", not "Deletes a project status update"
            after = [w for w in tokens[tokens.index(action.word) + 1:] if w not in _LEAD_IN]
            phrase = []
            for word in after[:4]:
                if word in _PREPOSITIONS:
                    break
                phrase.append(word)
            if phrase and phrase[-1] in CONTAINER_NOUNS:
                return f"a {_singular(phrase[-1])} goes with everything in it"
    return None


def _head_objects(tool: ToolContract, verb: str) -> list[str]:
    """The name's words after its verb up to a preposition (`delete_branch_from_project` → branch)."""
    words = identifier_words(tool.name.rsplit(".", 1)[-1]) if isinstance(tool.name, str) else ()
    if verb not in words:
        return []
    index = words.index(verb)
    return _name_objects_after(words, index)


# --------------------------------------------------------------------------- a value made and handed back

_MAKING = frozenset("create creates make makes merge merges combine combines build builds generate generates "
                    "compose composes draw draws render renders write writes produce produces compute computes "
                    "작성 생성 만들".split())
_SAYS_NOTHING_CHANGES = re.compile(
    r"\bread[- ]?only\b|읽기\s*전용|\boffline\b|\bwithout (?:any )?(?:api|network|external) calls\b|"
    r"\bno side[- ]effects?\b|\b(?:does not|doesn't|never) (?:modify|change|store|save|persist|write)\b|"
    r"\bchanges nothing\b|\bnothing is (?:stored|saved|changed|written)\b", re.I)


def returns_what_it_makes(tool: ToolContract, action: Action) -> str | None:
    """What a "create", "merge" or "작성" makes when it is a value handed back, not a thing stored: a buffer zone,
    the union of polygons, a markdown report — and the tool says it changes nothing (offline, read-only)."""
    if action.cls & (VerbClass.DESTRUCTIVE | VerbClass.IRREVERSIBLE) or not isinstance(tool.description, str):
        return None
    if is_hangul(action.word):
        if not korean_stem(action.word, _MAKING):
            return None
    elif action.word not in _MAKING:
        return None
    tokens = text_words(first_sentence(tool.description))
    if action.word not in tokens:
        words: list[str] = list(_objects(tool, action.word)) if action.where == "name" else []
    else:
        index = tokens.index(action.word)
        # English puts the object after its verb, Korean before it
        words = list(tokens[max(0, index - 5):index]) if is_hangul(action.word) else list(tokens[index + 1:index + 7])
    made = next((w for w in words if w in COMPUTED_NOUNS or w in IN_MEMORY
                 or (is_hangul(w) and any(w.startswith(n) for n in COMPUTED_NOUNS))), None)
    if made is None or not _SAYS_NOTHING_CHANGES.search(tool.description):
        return None
    return made


def _mutating_words(tool: ToolContract) -> list[str]:
    """Verbs that change state in the name (its verbs, not its objects) or the description's first sentence."""
    from ._actions import mutating_words
    found = mutating_words(tool, name=False)
    if isinstance(tool.name, str):
        words = identifier_words(tool.name.rsplit(".", 1)[-1])
        verb_seen = False
        for index, word in enumerate(words):
            cls = word_class(word)
            after_conjunction = index > 0 and words[index - 1] in english.CONJUNCTIONS
            if word in EXTRA_CHANGING and (not verb_seen or after_conjunction):
                found.append(word)  # `find_and_replace_doc`: the lexicon does not know 'replace'
                continue
            if cls and (not verb_seen or after_conjunction):
                if cls & VerbClass.MUTATING and word not in english.NOUN_VERBS | {"deploys", "deploy"} or (
                        after_conjunction and cls & VerbClass.MUTATING):
                    found.append(word)
                verb_seen = True
    if isinstance(tool.description, str):
        previous = ""
        for word in text_words(first_sentence(tool.description)):
            if word in EXTRA_CHANGING and previous not in _NOT_BEFORE_A_VERB and not word_class(previous):
                found.append(word)
            previous = word
    # "Request deletion of all data about a user": asking for a change is no read
    requested = requested_change(tool)
    if requested is not None:
        found.append(requested.word)
    if moves_money(tool) is not None:
        found.append("money")
    return found


__all__ = ["ANY_FIELD", "ENFORCED_READ_ONLY", "Analysis", "Job", "Selector", "analyse", "catch_all",
           "describes_changes", "describes_reads", "destroys_a_container", "enforces_read_only", "free_object", "hint",
           "lasting_destruction", "moves_money", "moves_money_for_good", "only_reads", "own_action",
           "requested_change", "returns_what_it_makes", "runs_anything", "says_any_field", "says_anything",
           "selector", "undone_by_adding_back", "word_class"]
