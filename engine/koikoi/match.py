"""A Koi-Koi match: rounds, who deals, redeals and the running score."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from engine.cards import ALL_CARDS
from engine.deal import Deal
from engine.errors import IllegalMoveError
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.round import KoiKoiRound, RoundResult


@dataclass
class KoiKoiMatch:
    """Deals rounds (from a seed, or explicit deals seen at the table) and keeps the score."""

    profile: KoiKoiProfile = field(default_factory=lambda: KoiKoiProfile.load("default"))
    seed: int | None = None
    rounds: int | None = None  # overrides profile.rounds
    dealer: int = -1  # -1: chosen by the profile's first-dealer rule
    scores: list[int] = field(default_factory=lambda: [0, 0])
    results: list[RoundResult] = field(default_factory=list)
    redeals: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        if self.rounds is None:
            self.rounds = self.profile.rounds
        if self.dealer < 0:
            self.dealer = draw_for_dealer(self.rng) if self.profile.first_dealer == "lot" else 0

    @property
    def round_number(self) -> int:
        """1-based number of the round being (or about to be) played."""
        return len(self.results) + 1

    @property
    def is_over(self) -> bool:
        return len(self.results) >= (self.rounds or 0)

    def new_round(self, deal: Deal | None = None) -> KoiKoiRound:
        """The next round, from ``deal`` or a fresh shuffle (shuffling again while the deal is void)."""
        if self.is_over:
            raise IllegalMoveError("the match is over")
        while True:
            current = KoiKoiRound(
                deal or Deal.shuffled(self.rng, 2, self.profile.hand_size, self.profile.field_size),
                self.profile,
                self.dealer,
            )
            if current.result is None or current.result.reason != "redeal":
                return current
            self.redeals += 1
            if deal is not None:
                return current  # an observed deal that must be redealt: the caller decides

    def record(self, finished: KoiKoiRound) -> None:
        """Add a finished round's points and choose the next dealer."""
        result = finished.result
        if result is None:
            raise IllegalMoveError("the round is not over yet")
        if result.reason == "redeal":
            return
        self.results.append(result)
        for p in (0, 1):
            self.scores[p] += result.points[p]
        if self.profile.next_dealer == "alternate":
            self.dealer = 1 - self.dealer
        elif result.winner is not None and result.reason != "exhausted":
            self.dealer = result.winner

    @property
    def leader(self) -> int | None:
        """The player ahead on points, ``None`` when level."""
        if self.scores[0] == self.scores[1]:
            return None
        return 0 if self.scores[0] > self.scores[1] else 1


def draw_for_dealer(rng: random.Random) -> int:
    """Each player draws a card; the earlier month deals (draw again on a tie)."""
    while True:
        first, second = rng.sample(ALL_CARDS, 2)
        if first.month != second.month:
            return 0 if first.month < second.month else 1
