"""jsonschema-rs imported without the e-mail package, for the command line.

The extension asks `email.utils.parsedate_to_datetime` for one thing when it is
imported: its build date (`jsonschema_rs.jsonschema_rs.__build__["info-time"]`,
in the RFC 2822 form its build writes).  Importing `email.utils` brings socket,
random, calendar, base64 and quoted-printable with it: about a tenth of the CPU
a lint of a few tools takes.  So while the extension initialises, `email.utils`
is a stand-in that reads that one date (anything else goes to the real
function), and it is taken away at once: a later `import email.utils` gets the
real module.  Only the command line does this, before it lints, when no other
thread is running that could import `email.utils` meanwhile and find the stand-in.
"""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone
from types import ModuleType

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _parsedate_to_datetime(text: str) -> datetime:
    """email.utils.parsedate_to_datetime for "Thu, 12 Nov 2026 07:50:16 +0000"; the real one for anything else."""
    parts = text.split()
    try:
        _, day, month, year, clock, zone = parts
        hour, minute, second = clock.split(":")
        if zone[0] not in "+-" or len(zone) != 5 or zone == "-0000" or len(year) != 4:  # -0000: no zone known
            raise ValueError(zone)
        offset = timedelta(hours=int(zone[1:3]), minutes=int(zone[3:5]))
        return datetime(int(year), _MONTHS.index(month) + 1, int(day), int(hour), int(minute), int(second),
                        tzinfo=timezone(-offset if zone[0] == "-" else offset))
    except ValueError:
        if getattr(sys.modules.get("email.utils"), "parsedate_to_datetime", None) is _parsedate_to_datetime:
            del sys.modules["email.utils"]  # the stand-in: the real module from here on
        from email.utils import parsedate_to_datetime

        return parsedate_to_datetime(text)


def import_jsonschema_rs() -> None:
    """Import jsonschema-rs now (once), with the stand-in for `email.utils` while its extension starts."""
    if "jsonschema_rs" in sys.modules or "email.utils" in sys.modules:
        return
    stand_in = ModuleType("email.utils")
    stand_in.parsedate_to_datetime = _parsedate_to_datetime  # type: ignore[attr-defined]
    sys.modules["email.utils"] = stand_in
    try:
        import jsonschema_rs  # noqa: F401  (kept in sys.modules for the modules that import it)
    finally:
        if sys.modules.get("email.utils") is stand_in:
            del sys.modules["email.utils"]
