"""The argument model both integration apps (fastmcp_app.py, sdk_app.py) take: a pydantic model, which
their frameworks list as an open object although it validates closed."""

from __future__ import annotations

from pydantic import BaseModel

ADDRESS_CITY = "Gwanghwamun"  # a value the tests check is never echoed


class Address(BaseModel):
    street: str
    city: str
