"""Shared by the card-vision tests."""

import re


def card_kind(code: str) -> str:
    """The two plains of a month are interchangeable (the deck prior names them -1, -2 in crop order)."""
    return re.sub(r"-plain-[12]$", "-plain", code)
