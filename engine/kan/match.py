"""Kan rounds and matches: the deals of one dealer with one partnership, the trump schedule, the ledger.

A round is up to three deals with the same partners, going on while the kankei side wins (and does not
stop after a sukonku). Trump of a round's first deal cycles clubs, diamonds, hearts; the last round of
the match (tome-suppe) has spades. The dealer passes to the right after each round; seat changes stay.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from engine.errors import IllegalMoveError
from engine.kan.cards import Suit
from engine.kan.deal import KanDeal
from engine.kan.hands import PLAYERS, SEATS, Hands
from engine.kan.ledger import RoundLedger
from engine.kan.profile import KanProfile
from engine.kan.table import DealResult, DealSetup, right_of


@dataclass
class KanRound:
    """The deals of one dealer. ``setup()`` says how the next deal starts; ``record`` takes a finished one."""

    number: int
    first_trump: Suit
    dealer: int = 0
    order: tuple[int, ...] = SEATS
    profile: KanProfile = field(default_factory=KanProfile)
    last: bool = False  # the match's last round (tome-suppe)
    results: list[DealResult] = field(default_factory=list)

    @property
    def kankei(self) -> tuple[int, int] | None:
        """(joker partner, ace partner) once the first deal has found them."""
        return self.results[0].kankei if self.results else None

    @property
    def is_over(self) -> bool:
        if not self.results:
            return False
        last = self.results[-1]
        return not last.kankei_won or last.stopped or len(self.results) >= self.profile.max_deals

    def setup(self) -> DealSetup:
        if self.is_over:
            raise IllegalMoveError(f"round {self.number} is over")
        number = len(self.results) + 1
        if number == 1:
            return DealSetup(1, self.first_trump, self.order)
        joker, ace = self.results[0].kankei
        fixed = self.first_trump if self.last and self.profile.last_round_all_deals else None
        return DealSetup(number, fixed, self.order, joker, ace)

    def new_deal(self, hands: Hands | None = None, rng: random.Random | None = None) -> KanDeal:
        """The next deal, from ``hands`` seen at the table or shuffled with ``rng``."""
        setup = self.setup()
        if hands is None:
            hands = Hands.shuffled(rng or random.Random(), self.dealer, self.order)
        return KanDeal(hands, setup, self.profile)

    def record(self, deal: KanDeal) -> None:
        """Add a finished deal (its seat change stays for the rest of the match)."""
        if deal.result is None:
            raise IllegalMoveError("the deal is not over yet")
        if deal.number != len(self.results) + 1:
            raise IllegalMoveError(f"round {self.number} expects deal {len(self.results) + 1}, not deal {deal.number}")
        if deal.setup != self.setup():
            raise IllegalMoveError(f"this deal was not set up for round {self.number} (its trump, seats or partners)")
        self.results.append(deal.result)
        self.order = deal.order

    @property
    def ledger(self) -> RoundLedger:
        if not self.is_over:
            raise IllegalMoveError(f"round {self.number} is not over yet")
        kankei = self.kankei
        assert kankei is not None
        return RoundLedger.of([r.outcome for r in self.results], kankei, self.profile)


class KanMatch:
    """Rounds dealt from a seed (or from hands seen at the table), with the running per-player score."""

    def __init__(
        self, profile: KanProfile | None = None, seed: int | None = None, rounds: int | None = None, dealer: int = 0
    ) -> None:
        self.profile = profile or KanProfile()
        self.rng = random.Random(seed)
        self.rounds = rounds or self.profile.rounds
        if self.rounds < 1:
            raise IllegalMoveError("a match has at least one round")
        if dealer not in SEATS:
            raise IllegalMoveError(f"the dealer is one of players 1..{PLAYERS}")
        self.dealer = dealer
        self.order: tuple[int, ...] = SEATS
        self.scores = [Fraction(0)] * PLAYERS
        self.finished: list[KanRound] = []
        self.current: KanRound | None = None

    @property
    def round_number(self) -> int:
        """1-based number of the round being (or about to be) played."""
        return len(self.finished) + 1

    @property
    def is_over(self) -> bool:
        return len(self.finished) >= self.rounds

    @property
    def ledgers(self) -> list[RoundLedger]:
        return [r.ledger for r in self.finished]

    def trump_schedule(self) -> list[Suit]:
        """Trump of each round's first deal: clubs, diamonds, hearts in turn; spades in the last round."""
        return [self.profile.first_trump(r, self.rounds) for r in range(1, self.rounds + 1)]

    def new_deal(self, hands: Hands | None = None) -> KanDeal:
        """The next deal, starting a new round when the last one is over."""
        if self.is_over:
            raise IllegalMoveError("the match is over")
        if self.current is None:
            number = self.round_number
            self.current = KanRound(
                number, self.profile.first_trump(number, self.rounds), self.dealer, self.order, self.profile,
                last=number == self.rounds,
            )
        return self.current.new_deal(hands, self.rng)

    def record(self, deal: KanDeal) -> RoundLedger | None:
        """Add a finished deal; when it ends the round, score the round and return its ledger."""
        current = self.current
        if current is None:
            raise IllegalMoveError("no round is being played")
        current.record(deal)
        self.order = current.order
        if not current.is_over:
            return None
        ledger = current.ledger
        for p in SEATS:
            self.scores[p] += ledger.amounts[p]
        self.finished.append(current)
        self.current = None
        self.dealer = right_of(self.order)[self.dealer]
        return ledger

    @property
    def leader(self) -> int | None:
        """The player ahead, ``None`` when the top is shared."""
        top = max(self.scores)
        return self.scores.index(top) if self.scores.count(top) == 1 else None
