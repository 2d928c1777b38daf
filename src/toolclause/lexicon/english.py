"""English word lists, as data.

Every list is lower-case.  The verb classes overlap on purpose: `pay` writes and
cannot be undone, `delete` writes, destroys and cannot be undone.  Rules ask
`verb_class()` (see `text.py`) rather than reading these sets directly, so a
word added here reaches every rule at once.
"""

from __future__ import annotations

READ = frozenset("""
get gets fetch fetches retrieve retrieves list lists search searches find finds lookup look
query queries show shows view views check checks read reads describe describes count counts
browse inspect peek preview load loads obtain obtains display displays scan explore filter filters discover
discovers healthcheck ping
""".split())

WRITE = frozenset("""
create creates add adds update updates set sets save saves submit submits send sends post posts
book books order orders place places pay pays charge charges register registers upload uploads
write writes insert inserts edit edits modify modifies change changes put puts store stores
publish publishes transfer transfers purchase purchases buy buys reserve reserves assign assigns
append appends upsert upserts rename renames move moves schedule schedules apply enroll
subscribe invite share commit merge deploy install approve reject refund issue
""".split())

IRREVERSIBLE = frozenset("""
pay pays charge charges send sends transfer transfers place places purchase purchases buy buys
delete deletes refund refunds publish publishes deploy deploys destroy destroys purge purges
""".split())

DESTRUCTIVE = frozenset("""
delete deletes remove removes cancel cancels drop drops destroy destroys purge purges
overwrite overwrites revoke revokes erase erases wipe wipes truncate truncates terminate
terminates kill kills unsubscribe uninstall reset resets clear clears disable disables
deactivate deactivates archive archives
""".split())

# Words that, alone, say nothing about what a tool does or what it acts on.
GENERIC_VERBS = frozenset("""
run process execute exec submit handle do perform make get invoke apply manage
""".split())

# Only nouns that name nothing in any domain: `job`, `task`, `call` and `command`
# are real objects in schedulers, robots and telephony, so they are not here.
GENERIC_NOUNS = frozenset("""
data item items request requests action actions thing things stuff info information object objects entity
entities payload input output result results
""".split())

# Words that carry no content in a description ("Get the data from the database").
FILLER = frozenset("""
a an the this that these those it its is are be been being was were will can could may might
should would of for from to in on at by with without into onto about as and or nor but not
all any some each every one ones given specified provided specific particular certain
tool function api endpoint method methods service server system database db backend
used use uses using allows allow lets let you your user's we our via based
information info details detail data
""".split())

# Words that announce what comes back.
RESULT_WORDS = frozenset("""
return returns returned returning respond responds response responses output outputs yield yields
result results produce produces gives give receive receives reply replies report reports provide provides
providing
""".split())

# Verbs whose very meaning is a result: "calculate X" gives X back.
COMPUTE = frozenset("""
calculate calculates compute computes convert converts translate translates generate generates
summarize summarizes summarise analyze analyzes analyse analyses predict predicts estimate
estimates evaluate evaluates validate validates verify verifies detect detects classify
classifies recognize recognizes extract extracts parse parses format formats measure measures
compare compares recommend recommends suggest suggests identify identifies determine
determines assess assesses forecast forecasts simulate simulates transcribe transcribes aggregate aggregates
visualize visualizes plot plots render renders
""".split())

# Verb-or-noun words: after "and" they may name a thing ("get user and order details").
NOUN_VERBS = frozenset("""
order orders book books post posts place places set sets charge charges check checks view views
show shows count counts list lists query queries search searches lookup report reports record
records update updates register registers issue issues change changes share shares store
stores transfer transfers schedule schedules view pay
""".split())

CONJUNCTIONS = frozenset({"and", "or", "then"})

# Small closed sets of values: a description listing members of one group names an enum
# ("celsius or fahrenheit").  Grouped so that "left or right of the image" (one
# group) counts but "city, state or country" (no group) never does.
CLOSED_SETS = tuple(frozenset(group.split()) for group in (
    "celsius fahrenheit kelvin", "metric imperial", "asc desc ascending descending", "true false",
    "yes no", "male female", "am pm", "json xml csv yaml html markdown text plain tsv",
    "hourly daily weekly monthly yearly annually quarterly", "low medium high", "small medium large",
    "public private", "buy sell", "light dark", "left right center", "top bottom", "horizontal vertical",
    "enabled disabled", "on off", "open closed", "get post put patch delete head options",
    "portrait landscape", "short long", "mp3 wav ogg flac", "png jpg jpeg gif webp svg",
))

# Acronyms and abbreviations a model reads at once, though they have no vowel.
ACRONYMS = frozenset("""
sms pdf html csv url urls http https ftp sftp ssh tcp udp dns vpn ssl tls jwt rss mp3 mp4 png
jpg gif svg bmp xml ddl dml sql nosql cpu gpu ram ssd hdd nfc gps crm cms dm dms pm pst cst
mst gmt utc kst tv dvd cd hd sd hq nyc sf la ny kg km cm mm ml lb lbs mph kph ft st nd rd th
pct qty hr hrs yr yrs dl tb gb mb kb pk fk www pwd cwd tsv dct cpp bff llm nlp psd std
px pt rgb hsl hsv srgb nm dpi ppi bpm rpm fps kbps mbps gbps ms ns xlsx pptx txt ts js cjs mjs css
scss md rst tgz gz rb py sh pdt cdt mdt bst sgd dkk nzd hkd brl krw twd mxn thb pln czk
msg msgs cmd src dst tmp img imgs cfg ctx btn pkg pkgs lng dlq crl csr sdk cdn ssr spa rpc grpc
gpt str nft csrf xss cve rtx gtx cnn rnn svm knn mlp
""".split())

# Words a description may use for a name word without adding anything
# ("Fetch items" restates get_items).  Groups, not a thesaurus: only true stand-ins.
SYNONYMS = tuple(frozenset(group.split()) for group in (
    "get fetch retrieve obtain read load lookup return",
    "list enumerate",
    "search find query lookup",
    "create add make new insert",
    "update modify edit change set",
    "delete remove erase",
    "send transmit",
    "book reserve reservation booking",
    "item entry",
    "info information detail",
    "calculate compute",
    "status state",
))
