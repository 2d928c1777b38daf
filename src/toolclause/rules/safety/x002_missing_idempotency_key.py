"""missing-idempotency-key (X002)

## What it does
Finds a tool that creates, pays, charges, sends, books or orders something
(`create_order`, `send_email`, `pay_invoice`, or a Korean description whose verb
is 생성, 주문, 결제, 발송, 예약 …) that takes no idempotency key
(`idempotency_key`, `request_id`, `client_token`, `dedupe_key`,
`client_reference` …) and is not annotated `idempotentHint: true`.  The verb
may be the tool's own or one its action parameter selects (`ticket_write`
with `method: create|update`).  The message names the verb that triggered it.

It warns where a repeat costs money or commits to something: an order, a
payment, a charge, a booking, a transfer, a purchase, a subscription, a
recurring job or a billed resource (`firecrawl_monitor_create`: "a recurring
scrape"; `cron_create`; `droplet-create`), or an e-mail, SMS or notification
sent to a person (a message with a `to`, `email` or `phone` parameter).  The
message says which.  An ordinary record made through a thin API wrapper (an
issue, a comment, a review, a page, a data source, a chat message into a
workspace channel) is reported as info: a duplicate is real but seen and
deleted by hand, and the API behind the wrapper often offers no key to pass on.

Designs that are idempotent by nature are left alone: a natural unique key
(`create_branch` with a required branch name, `queue_create(name)`, a folder's
`title`, a `key` or `username` the caller chooses: a repeat fails "already
exists"; a pull request per source and target branch; a required `key`,
`slug` or `handle` inside the request object, `request.AIConfigPost.key`; a
`name`, `key` or `title` the schema says is unique, "Must be unique across all
apps in the same account"; a field or property created in a table or an object
type, named uniquely within it; an addition to something the description says
holds only one, "a task can have only 1 reminder"), set semantics (add a
reaction, a label, a member, an observation, a relation, a watch; a link between
two issues; an asset added to a watchlist: a repeat is a no-op), a call that
only ties existing things together (every required parameter an id, nothing
costly made: a short code to a messaging service), a description that moves, sets or assigns rather
than adds ("Move a task to a section"), a version guard (`sha`, `etag`,
`if_match`, `if_none_match`, `expected_version`), an upsert
(`create_or_update_file`), a file created at a given path, an index, a tool
that *is* the preview step (`quote_purchase`), the commit half of a
prepare/commit pair (it takes the preview's `confirmation_token`, `preview_id`
or a `confirm` token string; a boolean `confirm` flag is repeated by a retry
like any argument), feedback sent to the server itself, and input sent to a
running process, terminal, REPL or page element (`interact_with_process`: the
input is consumed, nothing is made).  Nouns that look like verbs are not read
as the action: `list_deploys`, a `send_as` alias, a calculator's `add(a, b)`, a
`food_purchase_advisor`.  An upload that attaches or appends adds one more
attachment on every retry and is reported.

## Why is this bad?
Models and their hosts retry: a timeout, a dropped connection or a model that
calls the tool twice to be sure.  Without a key the server cannot tell a retry
from a new request, so the customer gets two orders, two charges, two e-mails.
With a key the second call returns the first result.

Severity: a warning where a duplicate costs money, commits someone or reaches a
person; info where it is one more record to delete.

Measured: see docs/precision.md.

## Example
```json
{"name": "create_order", "description": "Places an order for the items in the cart; returns the order id.",
 "inputSchema": {"type": "object",
                 "properties": {"cart_id": {"type": "string", "description": "Cart to order"}},
                 "required": ["cart_id"]}}
```

## Use instead
```json
{"name": "create_order", "description": "Places an order for the items in the cart; returns the order id.",
 "inputSchema": {
   "type": "object",
   "properties": {
     "cart_id": {"type": "string", "description": "Cart to order"},
     "idempotency_key": {
       "type": "string",
       "description": "Unique per order attempt; a retry with the same key returns the first order"}},
   "required": ["cart_id", "idempotency_key"]}}
```

## Fix safety
No fix: the server must honour the key, which a schema edit cannot promise.
"""

from __future__ import annotations

from collections.abc import Iterable

from ... import _lazy_re as re
from ...lexicon import identifier_words, is_hangul, korean_stem, text_words
from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._actions import Action, can_annotate, first_sentence, has_parameter_like, hint, normalised
from ._analysis import analyse
from ._words import CONFIRMATION_TOKENS, IDEMPOTENCY_PARAMS, IDEMPOTENCY_PARTS, NATURAL_KEY_NOUNS


def creating_action(tool: ToolContract):
    """The tool's action (its own verb, or a job its action parameter selects) when it makes something new."""
    return analyse(tool).creates


def has_idempotency_key(tool: ToolContract) -> bool:
    return has_parameter_like(tool, IDEMPOTENCY_PARAMS, IDEMPOTENCY_PARTS)


# --------------------------------------------------------------------------- what a repeat would cost

# Verbs whose every repeat moves money or commits to something, whatever their object.
_COSTLY_VERBS = {
    **dict.fromkeys(("pay", "pays"), "pays"),
    **dict.fromkeys(("charge", "charges"), "charges"),
    **dict.fromkeys(("purchase", "purchases", "buy", "buys", "checkout"), "makes a purchase"),
    **dict.fromkeys(("order", "orders"), "places an order"),
    **dict.fromkeys(("book", "books", "reserve", "reserves"), "makes a booking"),
    **dict.fromkeys(("withdraw", "withdraws", "donate", "donates"), "moves money"),
}
# Objects (a word of the name, or what the description's verb makes) whose repeat costs or commits.
_COSTLY_OBJECTS = {
    **dict.fromkeys("order orders purchase purchases checkout trade trades bet bets bid bids".split(),
                    "places an order"),
    **dict.fromkeys("payment payments charge charges payout payouts refund refunds transfer "
                    "transfers transaction transactions remittance remittances withdrawal withdrawals donation "
                    "donations deposit deposits wire wires funds money".split(), "moves money"),
    **dict.fromkeys("invoice invoices bill bills".split(), "bills someone"),
    **dict.fromkeys("booking bookings reservation reservations appointment appointments".split(),
                    "makes a booking"),
    **dict.fromkeys("subscription subscriptions".split(), "starts a subscription"),
    **dict.fromkeys("monitor monitors cron cronjob crons recurrence recurring".split(),
                    "sets up a recurring job"),
    **dict.fromkeys("droplet droplets instance instances vm vms machine machines cluster clusters".split(),
                    "creates a billed resource"),
    **dict.fromkeys("email emails mail mails sms fax faxes letter letters postcard postcards notification "
                    "notifications".split(), "sends a message to a person"),
}
# Heads of a plain record: `add_order_comment` makes a comment, whatever it is attached to.
_ORDINARY_HEADS = frozenset("""
comment comments note notes issue issues page pages post posts review reviews file files draft drafts document
documents doc docs record records entry entries item items row rows task tasks todo todos event events card cards
attachment attachments source sources view views report reports template templates folder folders thread threads
reply replies tag tags label labels list lists
""".split())
# A chat message goes to people already in a workspace channel (a duplicate is seen and deleted); one whose
# parameters name an address or a phone number reaches a person outside the conversation.
_MESSAGES = frozenset("message messages msg msgs dm dms text texts".split())
_ADDRESSES = tuple("""
to toaddress toaddresses toemail tophone tonumber recipient recipients recipientemail recipientphone email
emailaddress emails phone phonenumber mobile mobilenumber msisdn cc bcc
""".split())
# Heads that carry their modifier's meaning: a payment intent, a checkout session, a transfer request.
_CARRIERS = frozenset("intent intents session sessions request requests job jobs batch".split())
_VERSION = re.compile(r"v?\d+")
# What a sort order or a settings change names after its verb (`order_service_config`): nothing is bought.
_NOT_BOUGHT = frozenset("config configuration settings setting model models policy policies status".split())
# What a transfer of money takes (a `transfer_to_human_agent` hands over a conversation).
_MONEY_PARAMS = frozenset("amount amountcents currency fromaccount toaccount iban".split())
# A subscription to a topic, a webhook's events or updates is a delivery setting, not a paid plan.
_SUBSCRIBED_TO = frozenset("""
topic topics channel channels event events feed feeds resource resources repo repository thread threads updates
changes notifications list lists newsletter webhook webhooks
""".split())
# A recurring or billed job, said in the description's opening: firecrawl's monitor is "a recurring scrape".
_RECURRING = re.compile(
    r"\b(?:recurring|recurrent|periodic(?:ally)?|cron|on a schedule|billed|billable|"
    r"incurs? (?:a |an )?(?:charge|cost|fee)s?|every \d+ (?:minute|hour|day|week|month)s?)\b", re.I)
_KO_COSTLY = {
    **dict.fromkeys("주문 구매 예약 예매".split(), "places an order or a booking"),
    **dict.fromkeys("결제 송금 이체 출금 환불 청구".split(), "moves money"),
    **dict.fromkeys("구독".split(), "starts a subscription"),
    **dict.fromkeys("발송 메일 문자".split(), "sends a message to a person"),
}

_STOP = re.compile(r"[.,;:!?()\[\]{}\u2014\u2013\n]| - ")
_PREPOSITIONS = frozenset("to on in for of with from at by into onto about between under over via as".split())
_FILLERS = frozenset("a an the new one some multiple several existing single your their this that any".split())


def _flat_params(tool: ToolContract) -> dict[str, dict]:
    """The top-level parameters, by normalised name."""
    schema = tool.input_schema
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return {}
    return {normalised(k): (v if isinstance(v, dict) else {}) for k, v in properties.items() if isinstance(k, str)}


def _name_words(tool: ToolContract) -> tuple[str, ...]:
    return identifier_words(tool.name.rsplit(".", 1)[-1]) if isinstance(tool.name, str) else ()


def _name_objects(tool: ToolContract, verb: str) -> list[str]:
    """What the name says is made, up to a preposition: `create_payment_intent` → payment, intent;
    `add_note_to_incident` → note; `firecrawl_monitor_create` (the verb last) → firecrawl, monitor."""
    words = list(_name_words(tool))
    if verb in words:
        index = words.index(verb)
        words = words[index + 1:] or words[:index]
    out = []
    for word in words:
        if word in _PREPOSITIONS:
            break
        if word not in _FILLERS:
            out.append(word)
    return out


def _described_objects(tool: ToolContract, verb: str) -> list[str]:
    """What the description's first sentence says its verb makes: 'Add a comment to an issue' → comment."""
    if not isinstance(tool.description, str) or is_hangul(verb):
        return []
    sentence = first_sentence(tool.description).replace("e-mail", "email").replace("E-mail", "email")
    found = re.search(rf"\b{re.escape(verb)}\b", sentence, re.I)
    if found is None:
        return []
    out = []
    for word in text_words(_STOP.split(sentence[found.end():], 1)[0]):
        if word in _PREPOSITIONS:
            break
        if word not in _FILLERS:
            out.append(word)
    return out[:4]


def _korean_stakes(tool: ToolContract, verb: str) -> tuple[str, str | None] | None:
    stem = korean_stem(verb, _KO_COSTLY)
    if stem:
        return _KO_COSTLY[stem], None
    if isinstance(tool.description, str):  # 주문을 생성합니다: the verb makes, its object is an order
        for word in text_words(first_sentence(tool.description)):
            stem = korean_stem(word, _KO_COSTLY) if is_hangul(word) else None
            if stem:
                return _KO_COSTLY[stem], f"its object is '{word}'"
    return None


def stakes(tool: ToolContract, action: Action) -> tuple[str, str | None] | None:
    """(what a repeat does, what says so beyond the verb) when a retried call costs money, commits to something,
    sets up a recurring or billed job or messages a person; None when it only leaves one more ordinary record."""
    verb = action.word
    if is_hangul(verb):
        return _korean_stakes(tool, verb)
    # a verb read from the description makes what the description says, not what the name says
    # (`backupDatabaseInstance`: "Creates a backup of …")
    named = _name_objects(tool, verb) if action.where != "description" or verb in _name_words(tool) else []
    if verb in _COSTLY_VERBS and not (named and _head(named) in _NOT_BOUGHT):
        return _COSTLY_VERBS[verb], None
    params = _flat_params(tool)
    if action.where.startswith("parameter"):  # `order_write` with `method: create`: the name says what is made
        groups = [_name_objects(tool, "")]
    else:
        groups = [named, _described_objects(tool, verb)]
    groups = [g for g in groups if g]
    ordinary = False
    for words in groups:
        head = _head(words)
        if head in _MESSAGES:
            address = _address_parameter(tool)
            if address:
                return "sends a message to a person", f"the '{address}' parameter takes an address"
            ordinary = True
            continue
        if head in _ORDINARY_HEADS:
            ordinary = True
            continue
        # the head names what is made; a modifier only when the head is a carrier (`payment_intent`)
        for word in (head, *(words if head in _CARRIERS else ())):
            if word in ("subscription", "subscriptions") and _SUBSCRIBED_TO.intersection(words):
                continue
            if word in _COSTLY_OBJECTS:
                return _COSTLY_OBJECTS[word], f"its object is '{word}'"
    if verb in ("subscribe", "subscribes") and not _SUBSCRIBED_TO.intersection(w for g in groups for w in g):
        return "starts a subscription", None
    if verb in ("transfer", "transfers") and _MONEY_PARAMS.intersection(params):
        return "moves money", None
    if not ordinary and isinstance(tool.description, str):
        found = _RECURRING.search(tool.description.strip()[:300])
        if found:
            return "sets up a recurring or billed job", f"the description says '{found.group(0)}'"
    return None


def _head(words: list[str]) -> str:
    """The last word that is not a version or a number: `create_schedule_v3` → schedule."""
    for word in reversed(words):
        if not _VERSION.fullmatch(word):
            return word
    return words[-1]


def _address_parameter(tool: ToolContract) -> str | None:
    """The parameter that names a recipient's address or number (`to` first, `bcc` last), as written."""
    schema = tool.input_schema
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return None
    found = [(_ADDRESSES.index(normalised(k)), k) for k in properties
             if isinstance(k, str) and normalised(k) in _ADDRESSES]
    return min(found)[1] if found else None


# --------------------------------------------------------------------------- designs a retry cannot repeat

# Added to a set: re-adding the same observation or relation changes nothing (server-memory keeps them unique).
_SET_OBJECTS = frozenset("""
observation observations relation relations relationship relationships edge edges keyword keywords category
categories attendee attendees participant participants contributor contributors owner owners maintainer
maintainers watch watches watching watcher watchers dependency dependencies dependent dependents related
""".split())
# Description verbs that set a state rather than add a thing: 'Move a task to a section', 'Set dependencies'.
_SETTING = re.compile(r"^\W*(?:moves?|sets?(?! up\b)|assigns?|relates?|links?|allows?|grants?)\b", re.I)
# 'Add an existing task to a project': an existing thing is linked, not made.
_EXISTING = re.compile(r"\b(?:add|adds|attach|attaches)\s+(?:an?\s+|the\s+)?existing\b", re.I)
# Identifiers the caller chooses, unique where they live: a repeat fails as already existing.
_CHOSEN_KEYS = frozenset("key slug handle username hostname".split())
# Things named uniquely by the `name` they are created with, beyond the shared list.
# A pull request is one per source and target branch (the shared analysis knows `head`/`base` when required).
_BRANCH_PAIRS = (frozenset({"sourcerefname", "targetrefname"}), frozenset({"sourcebranch", "targetbranch"}),
                 frozenset({"head", "base"}))
_NAMED = frozenset("cluster worker binding queue domain user".split())
# Input sent to a running process or a page element is consumed: nothing is made that a retry could duplicate.
_PROCESSES = frozenset("process processes terminal terminals repl shell console pty tty stdin session".split())
_PROCESS_NAMES = frozenset("process processes terminal repl pty tty stdin".split())
_ELEMENTS = frozenset("element elements page tab browser window field".split())
_PROCESS_INPUT = frozenset("input inputs keys key keystroke keystrokes keypress text command commands characters "
                           "chars line lines signal stdin".split())
_TYPED_INPUT = frozenset("input inputs keys key keystroke keystrokes keypress characters chars".split())
# Containers that hold each member once: adding one already there changes nothing.
_SETS = frozenset("watchlist watchlists sprint sprints group groups team teams collection collections set sets "
                  "favorites favourites bookmarks allowlist whitelist blocklist blacklist role roles".split())
# Heads of a name that is a helper, not an action: `food_purchase_advisor`, `EcoPurchaseDecisionMaker`.
_HELPERS = frozenset("""
advisor adviser assistant calculator estimator planner recommender recommendation recommendations analyzer
analyser analysis guide tips helper checker tracker finder optimizer comparison history maker
""".split())
# A link between two things (`jira_create_issue_link`) is a relation: made once between the same two ends.
_LINKS = frozenset("link links".split())
# Things an API names uniquely within their parent (a Jira version, a milestone, a mail label): a repeat fails.
_NAMED_ONCE = frozenset("version milestone label datasource".split())
_PROCESS_PARAMS = frozenset("pid processid terminalid replid sessionid ptyid".split())
# Extra preconditions a create can carry: create only if absent, or only on top of the version the caller saw.
_PRECONDITIONS = frozenset("ifnonematch expectedetag baseversion parentsha expectedsha expectedversion".split())


def never_repeats(tool: ToolContract, action: Action) -> str | None:
    """Why this creating tool makes nothing a retry could duplicate, beyond the shared analysis's safe_repeat."""
    verb = action.word
    named = _name_words(tool)
    objects = set(_name_objects(tool, verb)) | set(_described_objects(tool, verb))
    if objects & _SET_OBJECTS:
        return "adding the same one twice is a no-op (set semantics)"
    made = _name_objects(tool, verb)
    if made and _head(made) in _HELPERS:
        return "the name is a helper's (`food_purchase_advisor`): it advises and makes nothing"
    if verb in ("add", "adds") and _into_a_set(tool, named, verb):
        return "it adds a member to a set, where a repeat is a no-op"
    if isinstance(tool.description, str) and (
            _SETTING.match(tool.description) or _EXISTING.search(first_sentence(tool.description))):
        return "the description sets a state or links an existing thing, which a repeat leaves as it is"
    params = _flat_params(tool)
    if objects & _LINKS and _two_ends(params):
        return "a link between the same two things is made once (a relation)"
    required = {normalised(r) for r in _required(tool)}
    if action.where.startswith("parameter"):  # `manage_label` with `action: create|delete`: `name` serves one
        required |= params.keys()
    unique = sorted(objects & _NAMED_ONCE)
    if unique and required & {"name", "title", unique[0] + "name"}:
        return f"the {unique[0]} is identified by its name, so a repeat fails as already existing"
    if any(pair <= required for pair in _BRANCH_PAIRS):
        return "one request per source and target branch, so a repeat is refused"
    heads = {_head(g) for g in (_name_objects(tool, verb), _described_objects(tool, verb)) if g}
    for noun in sorted(heads & (NATURAL_KEY_NOUNS | _NAMED)):  # beyond the shared analysis: `queue_create(name)`
        if required & {"name", "title", "hostname", noun, noun + "name"}:
            return f"the {noun} is identified by its name, so a repeat fails as already existing"
    if heads & {"index", "indexes"}:  # the same index again is a no-op or fails as already existing
        return "an index is created once per definition"
    chosen = sorted(k for k in required if k in _CHOSEN_KEYS or any(k == h + "key" for h in heads))
    if chosen:
        return f"the caller chooses its '{chosen[0]}', unique where it lives, so a repeat fails as already existing"
    keyed = _nested_key(tool.input_schema)
    if keyed is not None:
        return keyed
    if heads & _MEMBERS and ("name" in required or _IN_A_PARENT.search(" ".join(
            t for t in (tool.name, tool.description[:600] if isinstance(tool.description, str) else "")
            if isinstance(t, str)))):
        return (f"a {sorted(heads & _MEMBERS)[0]} is named uniquely within what holds it, so a repeat fails as "
                f"already existing")
    if isinstance(tool.description, str) and _ONLY_ONE.search(tool.description):
        return "what it adds to holds only one, so a repeat fails rather than adding a second"
    targets = set(named)
    if isinstance(tool.description, str):
        targets.update(text_words(first_sentence(tool.description)))
    if set(named) & _PROCESS_NAMES or (objects & _PROCESS_INPUT and (
            _PROCESS_PARAMS.intersection(params) or targets & _PROCESSES)) or (
            objects & _TYPED_INPUT and targets & _ELEMENTS):
        return "it sends input to a running process or a page, which makes nothing new"
    if _PRECONDITIONS.intersection(params):
        return "a precondition parameter makes a repeat fail"
    for name, sub in params.items():
        # the commit half of prepare/commit: the preview's single-use token refuses a second use
        if name in CONFIRMATION_TOKENS or (name in ("confirm", "confirmation") and sub.get("type") == "string"):
            return "it takes the preview's single-use token, so a repeat is refused"
    return None


# Things named uniquely within what holds them: a field of a table, a property of an object type.
_MEMBERS = frozenset("field fields property properties attribute attributes".split())
_IN_A_PARENT = re.compile(r"\b(?:in|to|of|for|on)\s+(?:an?\s+|the\s+|this\s+|a\s+given\s+)?(?:\w+\s+){0,2}?"
                          r"(?:tables?|object\s+types?|schemas?|models?|collections?|bases?|entit(?:y|ies)|"
                          r"record\s+types?)\b|(?:^|_|-)(?:table|schema)(?:_|-|$)", re.I)
# "a task holds only one reminder" (目前一个任务只能设置1个提醒): a second add fails.
_ONLY_ONE = re.compile(
    r"\b(?:can|may)\s+(?:only\s+)?(?:have|hold|contain|support)\s+(?:only\s+|at\s+most\s+)?(?:one|1|a\s+single)\s+"
    r"(?!(?:request|call|time)s?\b)"
    r"|\b(?:supports?|allows?|holds?|has)\s+only\s+(?:one|1|a\s+single)\s+(?!(?:request|call|time)s?\b)"
    r"|(?:只能|仅能|只支持|仅支持|只允许)[^。，,]{0,8}(?:1|一)\s*个|하나만|1\s*개만")
# "Must be unique across all apps in the same account"
_UNIQUE = re.compile(r"\bunique\b", re.I)
_NOT_UNIQUE = re.compile(r"\b(?:not|need\s+not|needn't|doesn't\s+have\s+to|does\s+not\s+have\s+to)\s+"
                         r"(?:\w+\s+)?(?:be\s+)?unique|\bnon-?unique\b", re.I)
_NAMES = frozenset("name key slug handle title".split())
_KEYS = frozenset("key slug handle".split())


def _nested_key(schema: object, depth: int = 0, required: bool = True) -> str | None:
    """A caller-chosen identifier inside the request object: a required `key`, `slug` or `handle` in objects that
    are themselves required (LaunchDarkly's `request.AIConfigPost.key`), or a `name` the schema says is unique
    (DigitalOcean's `spec.name`: "Must be unique across all apps in the same account")."""
    if not isinstance(schema, dict) or depth > 4:
        return None
    properties = schema.get("properties")
    if not isinstance(properties, dict):
        return None
    needed = {r for r in schema.get("required", ()) if isinstance(r, str)} if isinstance(
        schema.get("required"), list) else set()
    for name, sub in properties.items():
        if not isinstance(name, str) or not isinstance(sub, dict):
            continue
        flat = normalised(name)
        said = sub.get("description")
        if flat in _NAMES and isinstance(said, str) and _UNIQUE.search(said) and not _NOT_UNIQUE.search(said):
            return f"its '{name}' must be unique, so a repeat fails as already existing"
        if depth > 0 and required and name in needed and flat in _KEYS:
            return f"the caller chooses its '{name}', unique where it lives, so a repeat fails as already existing"
    for name, sub in properties.items():
        if isinstance(name, str) and isinstance(sub, dict) and isinstance(sub.get("properties"), dict):
            found = _nested_key(sub, depth + 1, required and name in needed)
            if found is not None:
                return found
    return None


def associates(tool: ToolContract) -> bool:
    """Every required parameter names an existing thing (`ServiceSid`, `ShortCodeSid`; `task_id`, `project_id`):
    the call ties existing things together, which a repeat finds already done."""
    required = [normalised(r) for r in _required(tool)]
    return len(required) >= 2 and all(r.endswith(("id", "sid", "gid")) for r in required)


def _two_ends(params: dict[str, dict]) -> bool:
    """`inward_issue_key` and `outward_issue_key`, `from` and `to`, `source` and `target`: a link's two ends."""
    return any(any(k.startswith(a) for k in params) and any(k.startswith(b) for k in params)
               for a, b in (("inward", "outward"), ("from", "to"), ("source", "target")))


def _required(tool: ToolContract) -> list[str]:
    schema = tool.input_schema
    required = schema.get("required") if isinstance(schema, dict) else None
    return [r for r in required if isinstance(r, str)] if isinstance(required, list) else []


def _into_a_set(tool: ToolContract, named: tuple[str, ...], verb: str) -> bool:
    """`add_asset_to_watchlist`, 'Add issues to a sprint': the container holds each member once."""
    if "to" in named and _SETS.intersection(named[named.index("to") + 1:]):
        return True
    if not isinstance(tool.description, str):
        return False
    sentence = first_sentence(tool.description)
    found = re.search(rf"\b{re.escape(verb)}\b[^.;:\n]*?\bto\s+(?:an?\s+|the\s+|this\s+|that\s+|its\s+|"
                      rf"(?:a\s+)?(?:specific|existing|given)\s+)*([\w-]+)", sentence, re.I)
    return found is not None and found.group(1).lower() in _SETS


class MissingIdempotencyKey(Rule):
    code = "X002"
    name = "missing-idempotency-key"
    severity = Severity.WARNING

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        analysis = analyse(tool, ctx)
        action = analysis.creates
        if action is None or hint(tool, "idempotentHint") is True or hint(tool, "readOnlyHint") is True:
            return
        if analysis.safe_repeat is not None or analysis.preview or has_idempotency_key(tool):
            return
        if never_repeats(tool, action) is not None:
            return
        annotate = (", or set annotations.idempotentHint: true if a repeated call already changes nothing"
                    if can_annotate(tool) else "")
        fix = Fix("add an 'idempotency_key' parameter", safe=False)
        costly = stakes(tool, action)
        if costly is None and associates(tool):
            return
        if costly is not None:
            what, evidence = costly
            yield Finding(action.pointer, (
                f"'{tool.name}' {what} on every call ({action.says()}{'; ' + evidence if evidence else ''}) and no "
                f"parameter looks like an idempotency key, so a retried call does it twice; add an "
                f"'idempotency_key' string parameter the server deduplicates on{annotate}"), fix)
            return
        yield Finding(action.pointer, (
            f"'{tool.name}' makes something new on every call ({action.says()}) and no parameter looks like an "
            f"idempotency key, so a retried call leaves a duplicate to remove by hand; if the API behind it accepts "
            f"a key, pass one through{annotate}"), fix, Severity.INFO)
