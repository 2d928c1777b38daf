"""Family T: consistency — does the schema enforce what the text promises? (`toolclause rules` lists them)"""

from __future__ import annotations

from .t001_either_or_not_encoded import EitherOrNotEncoded
from .t002_counted_as_number import CountedAsNumber
from .t003_framework_parameter_leaked import FrameworkParameterLeaked
from .t004_bound_rejects_documented_value import BoundRejectsDocumentedValue
from .t005_name_spelt_otherwise import NameSpeltOtherwise
from .t006_speaks_to_the_model import SpeaksToTheModel
from .t007_limit_stated_not_encoded import LimitStatedNotEncoded
from .t008_format_stated_not_encoded import FormatStatedNotEncoded

RULES = (
    EitherOrNotEncoded,
    CountedAsNumber,
    FrameworkParameterLeaked,
    BoundRejectsDocumentedValue,
    NameSpeltOtherwise,
    SpeaksToTheModel,
    LimitStatedNotEncoded,
    FormatStatedNotEncoded,
)
