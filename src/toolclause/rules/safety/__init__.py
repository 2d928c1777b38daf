"""Family X: safe tool design — one job per tool, reads apart from writes, idempotency, no hidden instructions."""

from __future__ import annotations

RULES: tuple = ()
