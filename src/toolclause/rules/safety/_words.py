"""Word lists the safety rules share, as data: which verbs create, which parameters
make a retry safe or ask for confirmation, which names carry secrets.

The verb *classes* (read / write / irreversible / destructive) live in the shared
lexicon (`toolclause.lexicon`); these lists only narrow them for one question.
"""

from __future__ import annotations

# Verbs whose repeated call makes a second thing: a second order, a second payment,
# a second e-mail.  `update`/`set`/`put` are not here: repeating them changes nothing.
CREATING_EN = frozenset("""
create add insert pay charge send book order place purchase buy transfer reserve submit post
register enroll subscribe checkout withdraw donate email sms text message notify publish
""".split())
CREATING_KO = frozenset("""
생성 추가 등록 주문 결제 발송 전송 예약 예매 신청 송금 이체 구매 보내 게시 발급 가입 출금
""".split())

# `add` and `text`/`message`/`email` are also nouns or arithmetic: `add_numbers`, `text_summary`.
# A creating verb counts only when no word of the name says it computes.
ARITHMETIC = frozenset("""
number numbers two three integer integers int ints float floats value values digit digits sum
fraction fractions decimal decimals vector vectors matrix matrices complex binary hex polynomial
polynomials time times day days date dates duration durations hours minutes seconds angle angles
""".split())

# `create_polygon`, `createChildRuntimeField`, `maybeAddJsSyntheticRestParameter`: the thing made
# is a value in memory (geometry, a syntax or runtime construct) that the call returns; nothing is
# stored or sent, so a repeated call duplicates nothing.
IN_MEMORY = frozenset("""
polygon polygons shape shapes circle circles rectangle rectangles triangle triangles point points
parameter parameters runtime synthetic expression expressions variable variables ast stub stubs
histogram histograms plot plots
""".split())

# `charge_robot_battery` charges a battery, not a card.
PHYSICAL_CHARGE = frozenset("battery batteries robot vehicle car device phone ev station drone scooter".split())

# Name words that, right after a verb-or-noun word, show it is a noun: `order_status`,
# `transfer_history`, `book_details`.
NOUN_FOLLOWERS = frozenset("""
status statuses history histories detail details info information id ids number numbers summary
count counts list lists item items data record records report reports tracking track lookup
search searches line lines book books entry entries type types form forms page pages state
""".split())

# Parameters that make a retried call safe: the server recognises the second request.
IDEMPOTENCY_PARAMS = frozenset("""
idempotencykey idempotencytoken idempotencyid xidempotencykey requestid requesttoken clienttoken
clientrequesttoken clientrequestid clientreference clientreferenceid clientref clientorderid
clientmsgid clientmessageid clienttransactionid dedupkey dedupekey dedupid dedupeid
deduplicationkey deduplicationid messagededuplicationid uniquerequestid nonce operationid
""".split())
IDEMPOTENCY_PARTS = ("idempoten", "dedup")

# Read verbs the shared lexicon does not list: a tool that opens with one only reads (X004).
EXTRA_READ = frozenset("""
extract extracts crawl crawls scrape scrapes geocode geocodes validate validates explain explains stats
statistics analyze analyzes inspect summarize summarizes diff diffs
""".split())

# Things a create makes that a repeat cannot duplicate, because the caller names them:
# a second `create_branch("x")` fails with "already exists".
NATURAL_KEY_NOUNS = frozenset("""
branch tag repository repo bucket database schema table collection index namespace directory folder
channel topic queue secret variable alias domain entity
""".split())

# Things added to a set: adding the same reaction, label or member twice is a no-op.
SET_NOUNS = frozenset("""
reaction label tag star like member collaborator permission role subscriber watcher assignee emoji
favorite bookmark reviewer follower
""".split())

# Parameters that guard a write with the version the caller saw: a repeat is rejected.
VERSION_GUARDS = frozenset("sha etag ifmatch expectedversion expectedrevision expectedsha ifunmodifiedsince "
                           "lockversion".split())

# Objects of a "send" that reach no person and move no money (feedback to the server, a key press).
NOT_SENT_OBJECTS = frozenset("feedback keys keystroke keystrokes heartbeat ping telemetry".split())
# The verbs those objects follow.
SENDING_VERBS = frozenset("send sends post posts submit submits create creates".split())

# Parameters that ask before acting, or let the model look first.
CONFIRMATION_PARAMS = frozenset("""
confirm confirmed confirmation confirmationtoken confirmationcode userconfirmed userconfirmation
dryrun preview previewonly validateonly simulate simulation whatif approve approved approval
requireconfirmation requiresconfirmation checkonly testmode
""".split())
CONFIRMATION_PARTS = ("confirm", "dryrun", "preview")

# First verbs of a tool that shows an action before it happens, and the last words of one named by what it
# shows (`create_order_preview`).
PREVIEW_VERBS = frozenset("preview prepare quote draft estimate simulate validate review dry".split())
PREVIEW_NOUNS = frozenset({"preview", "quote", "estimate", "simulation"})

# Parameters (normalised) that carry a preview's single-use confirmation: the key of a prepare/commit commit.
CONFIRMATION_TOKENS = frozenset({"confirmationtoken", "confirmtoken", "previewtoken", "quotetoken", "quoteid",
                                 "previewid", "confirmationid"})

# Parameter names whose values choose the operation a tool performs.
SELECTOR_PARAMS = frozenset("action actions operation operations op mode command cmd method type kind verb task "
                            "작업 동작 명령 액션 기능 모드 유형".split())
# `type`, `kind`, `mode`, `method` also name ordinary categories; their enums must be verbs.
CAREFUL_SELECTORS = frozenset("type kind mode method task 기능 모드 유형".split())

HTTP_METHODS = frozenset("get post put patch delete head options connect trace".split())

# Name words of a tool that runs what it is given.
EXEC_VERBS = frozenset("execute exec run eval evaluate invoke interpret".split())
EXEC_KINDS = {
    "sql": "SQL", "query": "SQL", "shell": "shell commands", "bash": "shell commands", "sh": "shell commands",
    "zsh": "shell commands", "powershell": "shell commands", "terminal": "shell commands", "cmd": "shell commands",
    "command": "shell commands", "commands": "shell commands", "subprocess": "shell commands",
    "code": "code", "python": "code", "py": "code", "javascript": "code", "js": "code", "script": "code",
    "repl": "code", "node": "code", "ruby": "code", "lua": "code",
}
# Names that are an interpreter on their own.
EXEC_NAMES = frozenset("eval exec shell bash sh python python_repl repl terminal execute".split())
# Parameters that carry the program, statement or command itself.
CONTENT_PARAMS = {
    "sql": "SQL", "sqlquery": "SQL", "statement": "SQL", "statements": "SQL", "query": "SQL",
    "command": "shell commands", "cmd": "shell commands", "commands": "shell commands",
    "shellcommand": "shell commands", "bashcommand": "shell commands", "commandline": "shell commands",
    "code": "code", "script": "code", "source": "code", "sourcecode": "code", "program": "code",
    "pythoncode": "code", "jscode": "code", "javascript": "code", "snippet": "code", "expression": "code",
}
# `query` and `expression` are as often a search phrase or arithmetic: they count only
# when the tool also names SQL/a database, or evaluates code.
WEAK_CONTENT_PARAMS = frozenset({"query", "expression", "source", "statement"})
SQL_HINTS = frozenset("""
sql sqlite postgres postgresql mysql mssql database db bigquery snowflake duckdb clickhouse
""".split())
URL_VERBS = frozenset("http curl request requests fetch browse navigate".split())
URL_PARAMS = frozenset("url uri endpoint href link".split())

# Output field names that carry a secret or personal data, as joined identifier words.
SENSITIVE_FIELDS = {
    "password": "a password", "passwd": "a password", "pwd": "a password", "passphrase": "a passphrase",
    "secret": "a secret", "clientsecret": "a client secret", "secretkey": "a secret key",
    "apikey": "an API key", "apisecret": "an API secret", "apitoken": "an API token",
    "accesstoken": "an access token", "refreshtoken": "a refresh token", "idtoken": "an ID token",
    "authtoken": "an auth token", "bearertoken": "a bearer token", "sessiontoken": "a session token",
    "secrettoken": "a secret token", "authorization": "an authorization header", "privatekey": "a private key",
    "sshkey": "an SSH key", "accesskey": "an access key", "secretaccesskey": "a secret access key",
    "cardnumber": "a card number", "creditcard": "a card number", "creditcardnumber": "a card number",
    "cvv": "a card security code", "cvc": "a card security code", "cvv2": "a card security code",
    "ssn": "a social security number", "socialsecuritynumber": "a social security number",
    "passportnumber": "a passport number", "pin": None,  # a pinned message, too: never alone
    "주민등록번호": "a resident registration number", "주민번호": "a resident registration number",
    "계좌번호": "a bank account number", "비밀번호": "a password", "카드번호": "a card number",
    "여권번호": "a passport number", "인증토큰": "an auth token",
}
# Words that make a sensitive-looking name about the secret, not the secret itself:
# `password_expires_at`, `has_token`, `card_number_last4`, `secret_name`.
NOT_THE_SECRET = frozenset("""
expires expiry expiration expire expired at hint set changed updated created required policy length
count type valid enabled last last4 masked mask prefix suffix fingerprint hash hashed redacted id ids
name names arn url uri present exists has is reset strength rotation rotated version label
""".split())

# Text that orders the model around rather than describing the tool (X008): call order,
# call counts, skipping the user, a fixed reply format, "always use this tool".
MODEL_ORDERS = (
    r"\b(?:must|should|shall|needs?\s+to|has\s+to)\s+(?:always\s+)?(?:be\s+)?(?:called|invoked|run|used)\s+"
    r"(?:first\s+|before\s+(?:any|all|every)(?:\s+other)?\s+(?:tools?|calls?|actions?))",
    r"\bbefore\s+(?:calling|using)\s+(?:any|every|all)\s+other\s+tools?\b",
    r"\b(?:call|invoke|use|run)\s+(?:this(?:\s+tool)?|it|the\s+[\w-]+\s+tool)\s+(?:exactly|only)\s+once\b",
    r"\b(?:call|invoke|run)\s+this(?:\s+tool)?\s+(?:immediately|right|always)\s+(?:after|before)\b",
    r"\b(?:always|immediately)\s+(?:call|invoke)\s+this(?:\s+tool)?\s+(?:after|before)\b",
    r"\b(?:do\s+not|don't|never|without)\s+ask(?:ing)?\s+(?:the\s+)?user\b",
    r"\b(?:reply|respond|answer)\s+(?:only\s+)?(?:in|with|using)\s+(?:this|the\s+following)\s+(?:exact\s+)?format\b",
    r"\b(?:should|must)\s+always\s+(?:default\s+to\s+)?(?:use|using|call|calling|prefer|choose)\s+this\s+tool\b",
    r"\balways\s+(?:use|call|prefer|choose)\s+this\s+tool\s+for\s+(?:any|all|every)\b",
)

# Text that asks for the user's conversation or the operator's instructions (X010).  The model's own name is not
# asked for here: a model or provider name is no one's secret (Pinecone's optional `llm_model` analytics).
HARVESTING = (
    r"\b(?:the\s+)?user'?s?\s+(?:last|latest|previous|full|entire|original|exact|most\s+recent|current)?\s*"
    r"(?:messages?|prompts?|requests?|questions?|inputs?)\s+(?:verbatim|word\s+for\s+word|in\s+full|exactly\s+as)",
    r"\b(?:send|include|pass|provide|report|paste|copy|attach)\b[^.\n]{0,60}\b(?:entire|full|whole|complete)\s+"
    r"(?:conversation|chat|dialog(?:ue)?)\b",
    r"\b(?:send|include|pass|provide|report|paste|copy|attach)\b[^.\n]{0,60}\b(?:conversation|chat)\s+history\b",
    r"\b(?:send|include|pass|provide|report|tell\s+us|share)\b[^.\n]{0,60}\byour\s+(?:"
    r"system\s+prompt|instructions|system\s+message)\b",
)

# --------------------------------------------------------------------------- X001: kinds of change, routers

# Jobs that take something away (X001): one of them beside a create or an update is a second tool, because a host
# that wants to confirm the removal must then confirm every create and update too.
REMOVING_VERBS = frozenset("""
delete deletes remove removes destroy destroys drop drops purge purges erase erases wipe wipes trash discard truncate
clear
""".split())
# Jobs that make a new thing, beyond the creating verbs (`copy`, `clone`, `import`).
MAKING_VERBS = frozenset("new make copy clone duplicate import upload".split())
# A change and its undo are one switch, not two tools: `add|remove`, `assign|unassign`, `activate|deactivate`.
INVERSE_VERBS = frozenset({
    frozenset(p) for p in (("add", "remove"), ("attach", "detach"), ("assign", "unassign"), ("link", "unlink"),
                           ("install", "uninstall"), ("subscribe", "unsubscribe"), ("enable", "disable"),
                           ("activate", "deactivate"), ("archive", "unarchive"), ("lock", "unlock"),
                           ("publish", "unpublish"), ("follow", "unfollow"), ("pin", "unpin"), ("star", "unstar"),
                           ("insert", "remove"), ("block", "unblock"), ("mute", "unmute"), ("start", "stop"))})
# Words of a tool's name that say "several operations" rather than naming the thing (`user_write`, `manage_contact`).
GENERIC_NAME_WORDS = frozenset("""
write writes manage manager management crud ops operation operations tool tools editor admin handler api mcp batch
""".split())

# A free string parameter that names the operation to run, and a free object that carries its arguments: a router.
OPERATION_PARAMS = frozenset("operation operationname operationtype action actionname actiontype op command cmd "
                             "commandname subcommand method methodname verb".split())
PAYLOAD_PARAMS = frozenset("payload params parameters data body args arguments".split())

# An object parameter that carries whatever fields the caller chooses to change (a catch-all update).
CATCH_ALL_PARAMS = frozenset("fields updates changes patch patches updatefields fieldstoupdate fieldupdates "
                             "changedfields updatedfields".split())

# --------------------------------------------------------------------------- X003: money

# Verbs that commit what the name's object is (`commit_order`, `submit_payment`, `process_refund`).
COMMITTING_VERBS = frozenset("""
commit commits submit submits confirm confirms finalize finalizes finalise finalises complete completes execute
executes process processes place places make makes initiate initiates send sends authorize authorizes authorise
capture captures
""".split())
# Objects whose commit moves money: once it is done, the money is gone.
MONEY_OBJECTS = frozenset("""
order orders payment payments purchase purchases transfer transfers transaction transactions checkout trade trades
charge charges payout payouts refund refunds remittance remittances withdrawal withdrawals wire wires donation
donations
""".split())
# Verbs that move money wherever they stand in a description's first sentence ("… and charges the card on file").
MONEY_VERBS = frozenset("charge charges pay pays debit debits refund refunds withdraw withdraws remit remits "
                        "purchase purchases buy buys".split())
# Words that may follow a money verb used as a verb: its object.
MONEY_VERB_OBJECTS = frozenset("""
the a an your their its his her this that each every all card cards customer customers user users account accounts
buyer buyers payer fee fees amount money funds balance invoice invoices order orders payment it them
""".split())

# --------------------------------------------------------------------------- X004 / X005: changes the lexicon lacks

# Verbs that change state but the shared lexicon does not list.
EXTRA_CHANGING = frozenset("replace replaces finalize finalizes finalise finalises".split())
# Verbs that ask for a change to happen: "Request deletion of …", "Schedules the account for deletion".
REQUESTING_VERBS = frozenset("request requests schedule schedules initiate initiates queue queues trigger triggers "
                             "submit submits".split())
# What such a request asks for, as a noun.
CHANGE_NOUNS = {
    **dict.fromkeys("deletion deletions removal removals erasure erasures purge purges cancellation cancellations "
                    "termination terminations revocation revocations closure closures wipe teardown "
                    "destruction".split(), "destroys"),
    **dict.fromkeys("refund refunds transfer transfers payment payments payout payouts withdrawal withdrawals "
                    "purchase purchases".split(), "moves money"),
    **dict.fromkeys("update updates change changes modification modifications creation migration migrations "
                    "deployment deployments restart restarts reset resets shutdown rollback rollbacks".split(),
                    "changes"),
}

# --------------------------------------------------------------------------- X003 / X006: what a host's question is for

# Things a removal takes off an item that adding back restores as it was: a watch, a star, an owner.
MEMBERSHIP_NOUNS = frozenset("""
watch watches watching watcher watchers star stars reaction reactions like likes favorite favorites favourite
favourites bookmark bookmarks follower followers assignee assignees owner owners reviewer reviewers
""".split())
# Name verbs that undo an assignment: re-assigning restores it.
UNDOING_VERBS = frozenset("unassign unassigns unwatch unwatches unfollow unfollows unstar unstars unlike unlikes "
                          "unfavorite unfavorites unpin unpins untag untags unlabel unlabels".split())
# A soft removal and the verbs that undo it: an archive is unarchived, a deactivated column reactivated.
SOFT_REMOVALS = {
    **dict.fromkeys(("archive", "archives"), frozenset({"unarchive", "unarchives", "restore", "restores"})),
    **dict.fromkeys(("deactivate", "deactivates"), frozenset({"activate", "activates", "reactivate",
                                                               "reactivates"})),
    **dict.fromkeys(("disable", "disables"), frozenset({"enable", "enables", "reenable", "reenables"})),
}
# What a whole deletion takes with it: everything the container holds.
CONTAINER_NOUNS = frozenset("""
project projects account accounts organization organizations organisation organisations org orgs workspace
workspaces database databases db dbs cluster clusters repository repositories repo repos tenant tenants
""".split())
# Money moved by an irreversible verb: these verbs always move it; `transfer` and `place` only with such objects.
MONEY_ACTION_VERBS = frozenset("pay pays charge charges refund refunds purchase purchases buy buys withdraw withdraws "
                               "remit remits donate donates checkout debit debits".split())
MONEY_WORDS = frozenset("""
money fund funds payment payments amount amounts currency cash balance wire wires remittance order orders trade trades
bet bets bid bids purchase purchases invoice invoices fee fees
""".split())

# --------------------------------------------------------------------------- X005: what is made and handed back

# What a tool may "create", "merge" or "write" and return without storing it: a shape, a report, a summary.
COMPUTED_NOUNS = frozenset("""
polygon polygons geometry geometries shape shapes zone zones buffer buffers union unions intersection hull
report reports summary summaries chart charts diagram diagrams plot plots markdown answer answers digest
보고서 리포트 요약 요약본 답변 도표 그래프
""".split())
