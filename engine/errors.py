"""Error types. Every error is a ValueError that says *why*, so callers can show it as is."""

from __future__ import annotations


class KibitzError(ValueError):
    """Base of every rule-engine error."""


class InvalidCardError(KibitzError):
    """A card or tile code that names nothing; the message suggests the nearest valid codes."""


class InvalidMoveError(KibitzError):
    """A move that is malformed (cannot be parsed, or contradicts itself)."""


class IllegalMoveError(KibitzError):
    """A well-formed move that the rules do not allow in this position."""


class AmbiguousMoveError(KibitzError):
    """A move description that matches more than one legal move."""


class InvalidStateError(KibitzError):
    """A table state that cannot happen (a card in two places, wrong counts, ...)."""


class ProfileError(KibitzError):
    """A rule profile that is missing, unreadable or inconsistent."""
