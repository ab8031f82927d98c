"""The Kan ledger: how the deals of a round turn into points, line by line.

The rule book's table is a garbled translation; this is the reading that reproduces all three of its
worked examples (README, "Kan rules and choices"):

- Lines are amounts for EACH KANKEI player, added deal by deal in play order. Every deal counts its
  result (won +1 / lost -1) and then its special lines, which add to the result, never replace it.
- A sukonku (kankei take all 16 points) adds +1 whether or not the kankei then stop the round.
- A declaration moves the bar of the deal: with juuroku the kankei win only by taking all 16 points,
  with gyaku juuroku the mukankei win only by taking all 16 (any kankei point wins the deal for kankei).
  A made declaration replaces the declaring side's skunk line (``skunk-with-declaration = false``).
- A failed gyaku juuroku multiplies the kankei's round total so far (this deal's lines included) by
  ``gyaku-juuroku-failed-factor`` (2) and then adds ``gyaku-juuroku-failed`` (32).
- "Per deal" lines (gyaku sukonku in deal 2 or 3, a made gyaku juuroku) are multiplied by the deal number.
- After three deals won by kankei: ``all-three`` (+1).

The mukankei side balances the kankei side as ``[balance]`` says (``settle``).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.errors import InvalidStateError
from engine.kan.profile import KanProfile

PLAYERS = 5


class Declaration(enum.IntEnum):
    NONE = 0
    JUUROKU = 1  # kankei undertake to take all 16 points
    GYAKU_JUUROKU = 2  # mukankei undertake the same

    def __repr__(self) -> str:
        return f"Declaration.{self.name}"

    @property
    def word(self) -> str:
        return self.name.lower().replace("_", "-")


@dataclass(frozen=True, slots=True)
class DealOutcome:
    """What the ledger needs of a deal: the kankei side's points, the declaration, a stop after it."""

    kankei_points: int
    declaration: Declaration = Declaration.NONE
    stopped: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.kankei_points <= 16:
            raise InvalidStateError(f"a side takes 0 to 16 points, not {self.kankei_points}")

    @property
    def sukonku(self) -> bool:
        return self.kankei_points == 16

    @property
    def gyaku_sukonku(self) -> bool:
        return self.kankei_points == 0


def kankei_win(outcome: DealOutcome, win_points: int = 9) -> bool:
    """Whether the kankei side wins the deal (a declaration raises the declaring side's bar to 16)."""
    if outcome.declaration is Declaration.JUUROKU:
        return outcome.sukonku
    if outcome.declaration is Declaration.GYAKU_JUUROKU:
        return not outcome.gyaku_sukonku
    return outcome.kankei_points >= win_points


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One line of a round's ledger: ``amount`` is what each kankei player scores for it."""

    deal: int  # 1..3; 0 for a line of the whole round
    line: str
    amount: int

    def __str__(self) -> str:
        where = f"deal {self.deal}" if self.deal else "round"
        return f"{where}: {self.line} {self.amount:+d}"


def round_entries(outcomes: Sequence[DealOutcome], profile: KanProfile | None = None) -> tuple[LedgerEntry, ...]:
    """The ledger lines of a finished (or stopped) round's deals, checked to be a possible round."""
    profile = profile or KanProfile()
    check_round(outcomes, profile)
    table = profile.ledger
    entries: list[LedgerEntry] = []
    total = 0

    def add(deal: int, line: str, amount: int) -> None:
        nonlocal total
        entries.append(LedgerEntry(deal, line, amount))
        total += amount

    for number, outcome in enumerate(outcomes, 1):
        declared = outcome.declaration
        per_deal = number if table.per_deal == "deal-number" else 1
        won = kankei_win(outcome, profile.win_points)
        add(number, "deal-won" if won else "deal-lost", table.deal_won if won else table.deal_lost)
        if outcome.sukonku and (declared is not Declaration.JUUROKU or table.skunk_with_declaration):
            add(number, "sukonku", table.sukonku)
        if outcome.gyaku_sukonku and (declared is not Declaration.GYAKU_JUUROKU or table.skunk_with_declaration):
            if number == 1:
                add(number, "gyaku-sukonku", table.gyaku_sukonku_first_deal)
            else:
                add(number, "gyaku-sukonku", table.gyaku_sukonku_later * per_deal)
        if declared is Declaration.JUUROKU:
            made = outcome.sukonku
            add(number, "juuroku-made" if made else "juuroku-failed",
                table.juuroku_made if made else table.juuroku_failed)
        elif declared is Declaration.GYAKU_JUUROKU:
            if outcome.gyaku_sukonku:
                add(number, "gyaku-juuroku-made", table.gyaku_juuroku_made * per_deal)
            else:
                if table.gyaku_juuroku_failed_factor != 1:
                    add(number, f"round total x{table.gyaku_juuroku_failed_factor}",
                        total * (table.gyaku_juuroku_failed_factor - 1))
                add(number, "gyaku-juuroku-failed", table.gyaku_juuroku_failed)
    if len(outcomes) == 3 and all(kankei_win(o, profile.win_points) for o in outcomes):
        add(0, "all-three", table.all_three)
    return tuple(entries)


def check_round(outcomes: Sequence[DealOutcome], profile: KanProfile) -> None:
    """Raise ``InvalidStateError`` for deals that cannot make one round under ``profile``."""
    if not 1 <= len(outcomes) <= profile.max_deals:
        raise InvalidStateError(f"a round has 1 to {profile.max_deals} deals, not {len(outcomes)}")
    for number, outcome in enumerate(outcomes, 1):
        if outcome.declaration is not Declaration.NONE and number < profile.declarations_from:
            raise InvalidStateError(f"{outcome.declaration.word} is declared from deal {profile.declarations_from} on")
        won = kankei_win(outcome, profile.win_points)
        if outcome.stopped and not (won and outcome.sukonku and profile.stop_after_sukonku):
            raise InvalidStateError(f"deal {number}: only a sukonku lets the kankei stop the round")
        last = number == len(outcomes)
        if not last and (not won or outcome.stopped):
            raise InvalidStateError(f"deal {number} ended the round ({'stopped' if won else 'mukankei won'})")
        if last and won and not outcome.stopped and number < profile.max_deals:
            raise InvalidStateError(f"the round goes on after deal {number}: the kankei won it and did not stop")


def settle(kankei_total: int, kankei: tuple[int, int], balance: str = "share") -> tuple[Fraction, ...]:
    """Per-player amounts of a round: each kankei player scores ``kankei_total``; each mukankei player
    pays a third of both kankei amounts (``share``, zero-sum) or the same amount (``mirror``)."""
    if len(set(kankei)) != 2 or not all(0 <= p < PLAYERS for p in kankei):
        raise InvalidStateError(f"the kankei are two different players of five, not {kankei}")
    other = Fraction(-2 * kankei_total, 3) if balance == "share" else Fraction(-kankei_total)
    return tuple(Fraction(kankei_total) if p in kankei else other for p in range(PLAYERS))


@dataclass(frozen=True, slots=True)
class RoundLedger:
    """A finished round's ledger: its lines, the partnership and what each of the five players scores."""

    entries: tuple[LedgerEntry, ...]
    kankei: tuple[int, int]
    amounts: tuple[Fraction, ...]

    @classmethod
    def of(
        cls, outcomes: Sequence[DealOutcome], kankei: tuple[int, int], profile: KanProfile | None = None
    ) -> RoundLedger:
        profile = profile or KanProfile()
        entries = round_entries(outcomes, profile)
        return cls(entries, kankei, settle(sum(e.amount for e in entries), kankei, profile.balance))

    @property
    def kankei_total(self) -> int:
        """What each kankei player scores this round."""
        return sum(e.amount for e in self.entries)

    def lines(self) -> list[str]:
        """The ledger as text: one line per entry, then every player's amount."""
        out = [f"  {entry}" for entry in self.entries]
        out.append("  " + ", ".join(
            f"player {p + 1}{'*' if p in self.kankei else ''} {format_points(a)}" for p, a in enumerate(self.amounts)
        ) + "   (* kankei)")
        return out


def format_points(value: Fraction) -> str:
    """``+5``, ``-10/3``: exact, as a signed whole number or fraction."""
    if value.denominator == 1:
        return f"{value.numerator:+d}"
    return f"{'+' if value > 0 else '-'}{abs(value.numerator)}/{value.denominator}"
