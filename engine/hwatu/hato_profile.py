"""Hato / Min-hwatu house rules as one frozen value, read from a TOML profile (``game = "hato"``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from engine.cards import ALL_CARDS, Kind, Month, parse_card
from engine.errors import InvalidCardError, ProfileError
from engine.hwatu.settings import card_mask, first_dealer, load_game_data, months, non_negative, table
from engine.profile import take

_KIND_KEYS = {"bright": Kind.BRIGHT, "animal": Kind.ANIMAL, "ribbon": Kind.RIBBON, "plain": Kind.PLAIN}


class BonusSet(NamedTuple):
    """A bonus for holding all of ``cards`` (a mask), e.g. hongdan: the three red poem ribbons, 30."""

    name: str
    cards: int
    points: int


@dataclass(frozen=True, slots=True)
class HatoProfile:
    """Every Hato rule that tables disagree on; ``HatoProfile.load("minhwatu")``."""

    name: str
    rounds: int
    first_dealer: str
    sizes: dict[int, tuple[int, int]]  # players -> (hand size, table size)
    patu: bool
    card_points: tuple[int, ...]  # points of each of the 48 cards
    bonus_sets: tuple[BonusSet, ...]
    four_of_a_month: int
    four_months: tuple[Month, ...]  # in Korean month order
    subtract_from_others: bool

    @classmethod
    def load(cls, name_or_path: str | Path = "hato") -> HatoProfile:
        return cls.from_data(load_game_data(name_or_path, "hato"))

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> HatoProfile:
        match, deal, points, bonus = (table(data, t) for t in ("match", "deal", "points", "bonus"))
        rounds = take(match, "rounds", int, "match")
        if rounds < 1:
            raise ProfileError("match.rounds must be at least 1")
        return cls(
            name=str(data.get("name", "custom")),
            rounds=rounds,
            first_dealer=first_dealer(match),
            sizes=_sizes(deal),
            patu=take(deal, "patu", bool, "deal"),
            card_points=_card_points(points),
            bonus_sets=_bonus_sets(table(bonus, "sets")),
            four_of_a_month=non_negative(bonus, "four-of-a-month", "bonus"),
            four_months=months(bonus.get("four-of-a-month-months"), "bonus.four-of-a-month-months"),
            subtract_from_others=take(bonus, "subtract-from-others", bool, "bonus"),
        )

    def deal_sizes(self, players: int) -> tuple[int, int]:
        if players not in self.sizes:
            raise ProfileError(f"profile {self.name} has no deal for {players} players (it has {sorted(self.sizes)})")
        return self.sizes[players]


def _sizes(deal: dict[str, Any]) -> dict[int, tuple[int, int]]:
    sizes = {}
    for players in range(2, 6):
        key = f"players-{players}"
        if key not in deal:
            continue
        value = deal[key]
        if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int and v >= 0 for v in value)):
            raise ProfileError(f"deal.{key} must be [hand size, table size], not {value!r}")
        hand, field = value
        if hand < 1 or 2 * players * hand + field > 48:
            raise ProfileError(f"deal.{key}: {players} hands of {hand} and {field} on the table leave a short stock")
        sizes[players] = (hand, field)
    if not sizes:
        raise ProfileError("deal needs at least one players-N = [hand size, table size]")
    return sizes


def _card_points(points: dict[str, Any]) -> tuple[int, ...]:
    by_kind = {kind: non_negative(points, key, "points") for key, kind in _KIND_KEYS.items()}
    values = [by_kind[card.kind] for card in ALL_CARDS]
    for key in points:
        if key in _KIND_KEYS:
            continue
        try:
            card = parse_card(key)
        except InvalidCardError as exc:
            raise ProfileError(f"points.{key}: not a kind (bright, animal, ribbon, plain) nor a card: {exc}") from exc
        values[card] = non_negative(points, key, "points")
    return tuple(values)


def _bonus_sets(sets: dict[str, Any]) -> tuple[BonusSet, ...]:
    found = []
    for name, spec in sets.items():
        where = f"bonus.sets.{name}"
        if not isinstance(spec, dict):
            raise ProfileError(f"{where} must be a table with points and cards")
        cards = card_mask(spec.get("cards"), f"{where}.cards")
        found.append(BonusSet(name, cards, non_negative(spec, "points", where)))
    return tuple(found)
