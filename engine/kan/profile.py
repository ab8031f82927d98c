"""Kan house rules and the ledger table as one frozen value, read from a TOML profile (``kan.toml``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from engine.errors import InvalidCardError, ProfileError
from engine.kan.cards import Suit
from engine.profile import load_profile_data, take

PER_DEAL: Final = ("deal-number", "once")
BALANCE: Final = ("share", "mirror")


@dataclass(frozen=True, slots=True)
class LedgerTable:
    """The ledger lines: what each kankei player scores (see ``engine.kan.ledger`` for how they combine)."""

    deal_won: int = 1
    deal_lost: int = -1
    sukonku: int = 1
    gyaku_sukonku_first_deal: int = -10
    gyaku_sukonku_later: int = -3
    juuroku_made: int = 8
    juuroku_failed: int = -16
    gyaku_juuroku_made: int = -16
    gyaku_juuroku_failed: int = 32
    gyaku_juuroku_failed_factor: int = 2
    all_three: int = 1
    skunk_with_declaration: bool = False
    per_deal: str = "deal-number"

    @classmethod
    def from_data(cls, table: dict[str, Any]) -> LedgerTable:
        values: dict[str, Any] = {}
        for name in cls.__dataclass_fields__:
            key = name.replace("_", "-")
            if name == "per_deal":
                values[name] = take(table, key, str, "ledger", PER_DEAL)
            elif name == "skunk_with_declaration":
                values[name] = take(table, key, bool, "ledger")
            else:
                values[name] = take(table, key, int, "ledger")
        return cls(**values)


@dataclass(frozen=True, slots=True)
class KanProfile:
    """Every Kan rule tables disagree on; ``KanProfile.load("kan")`` or a TOML file that extends it."""

    name: str = "kan"
    rounds: int = 10
    first_trumps: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
    last_round_trump: Suit | None = Suit.SPADES
    last_round_all_deals: bool = False
    win_points: int = 9
    max_deals: int = 3
    declarations_from: int = 2
    stop_after_sukonku: bool = True
    seat_rule: bool = True
    ledger: LedgerTable = field(default_factory=LedgerTable)
    balance: str = "share"

    @classmethod
    def load(cls, name_or_path: str | Path = "kan") -> KanProfile:
        data = load_profile_data(name_or_path)
        if data.get("game") != "kan":
            raise ProfileError(f"profile {str(name_or_path)!r} is for {data.get('game')!r}, not kan")
        return cls.from_data(data)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> KanProfile:
        match, deal, balance = (data.get(t, {}) for t in ("match", "deal", "balance"))
        last = take(match, "last-round-trump", str, "match")
        profile = cls(
            name=str(data.get("name", "custom")),
            rounds=take(match, "rounds", int, "match"),
            first_trumps=tuple(_suit(w, "match.first-trumps") for w in take(match, "first-trumps", list, "match")),
            last_round_trump=None if last == "none" else _suit(last, "match.last-round-trump"),
            last_round_all_deals=take(match, "last-round-all-deals", bool, "match"),
            win_points=take(deal, "win-points", int, "deal"),
            max_deals=take(deal, "max-deals", int, "deal"),
            declarations_from=take(deal, "declarations-from", int, "deal"),
            stop_after_sukonku=take(deal, "stop-after-sukonku", bool, "deal"),
            seat_rule=take(deal, "seat-rule", bool, "deal"),
            ledger=LedgerTable.from_data(data.get("ledger", {})),
            balance=take(balance, "mukankei", str, "balance", BALANCE),
        )
        if profile.rounds < 1:
            raise ProfileError("match.rounds must be at least 1")
        if not profile.first_trumps:
            raise ProfileError("match.first-trumps must name at least one suit")
        if not 1 <= profile.win_points <= 16:
            raise ProfileError("deal.win-points must be 1..16")
        if not 1 <= profile.max_deals <= 3:
            raise ProfileError("deal.max-deals must be 1..3")
        if profile.declarations_from < 1:
            raise ProfileError("deal.declarations-from must be at least 1")
        return profile

    def first_trump(self, round_number: int, rounds: int | None = None) -> Suit:
        """Trump of the first deal of round ``round_number`` (1-based) in a match of ``rounds`` rounds."""
        if round_number < 1:
            raise ProfileError(f"rounds are numbered from 1, not {round_number}")
        if self.last_round_trump is not None and round_number == (rounds or self.rounds):
            return self.last_round_trump
        return self.first_trumps[(round_number - 1) % len(self.first_trumps)]


def _suit(word: object, where: str) -> Suit:
    if not isinstance(word, str):
        raise ProfileError(f"{where} must name suits, not {word!r}")
    try:
        return Suit.parse(word)
    except InvalidCardError as exc:
        raise ProfileError(f"{where}: {exc}") from exc
