"""Family C: contract tightness — does the schema let junk through? (`toolclause rules` lists them)"""

from __future__ import annotations

from .c001_open_object import OpenObject
from .c002_array_without_items import ArrayWithoutItems
from .c003_unbounded_array import UnboundedArray
from .c004_default_not_applied import DefaultNotApplied
from .c005_unbounded_number import UnboundedNumber

RULES = (
    OpenObject,
    ArrayWithoutItems,
    UnboundedArray,
    DefaultNotApplied,
    UnboundedNumber,
)
