"""Reading hwatu rule profiles: the game check, card lists, month lists and the first-dealer rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

from engine.cards import Month, parse_card
from engine.cardset import mask_of
from engine.errors import InvalidCardError, ProfileError
from engine.hwatu.cards import month_by_word
from engine.profile import load_profile_data, take

FIRST_DEALER: Final = ("lot-highest", "lot-lowest", "player-0")


def load_game_data(name_or_path: str | Path, game: str) -> dict[str, Any]:
    """A profile's merged tables, refusing a profile written for another game."""
    data = load_profile_data(name_or_path)
    if data.get("game") != game:
        raise ProfileError(f"profile {str(name_or_path)!r} is for {data.get('game')!r}, not {game}")
    return data


def table(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise ProfileError(f"[{name}] must be a table")
    return value


def card_mask(values: Any, where: str) -> int:
    """A list of card codes as a mask; a wrong code names the setting."""
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ProfileError(f"{where} must be a list of card codes")
    try:
        cards = [parse_card(v) for v in values]
    except InvalidCardError as exc:
        raise ProfileError(f"{where}: {exc}") from exc
    if len(set(cards)) != len(cards):
        raise ProfileError(f"{where} lists a card twice")
    return mask_of(cards)


def months(values: Any, where: str) -> tuple[Month, ...]:
    if not isinstance(values, list) or not all(isinstance(v, str | int) for v in values):
        raise ProfileError(f"{where} must be a list of months (plants such as willow, or Korean numbers)")
    return tuple(sorted({month_by_word(str(v)) for v in values}, key=lambda m: m.korean))  # Korean order


def non_negative(table_: dict[str, Any], key: str, where: str) -> int:
    value: int = take(table_, key, int, where)
    if value < 0:
        raise ProfileError(f"{where}.{key} must not be negative")
    return value


def first_dealer(match: dict[str, Any]) -> str:
    value: str = take(match, "first-dealer", str, "match", FIRST_DEALER)
    return value
