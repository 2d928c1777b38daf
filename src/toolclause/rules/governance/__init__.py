"""G — governance: suppressions that lapse, and suppressions that cannot be read."""

from .g001_expired_suppression import ExpiredSuppression
from .g002_invalid_suppression import InvalidSuppression

RULES = (ExpiredSuppression, InvalidSuppression)
