"""The playground (`toolclause playground`) and the assets of the HTML report.

- `service.py`  what the page asks for, as plain data: lint, fix, export, diff, rule docs, files
- `app.py`      the Starlette app: the page, its assets and a JSON API over `service`
- `assets.py`   the files shipped in `static/` (no CDN: the page works with the network off)

Everything runs in the local process, from the same engine as the command line;
nothing the user pastes leaves the machine.
"""
