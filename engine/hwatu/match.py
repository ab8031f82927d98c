"""Hwatu matches: hands in a row, void deals redealt, running scores, and who deals next.

The first dealer is drawn by lot (the profile's rule); afterwards the winner of a hand deals and leads
the next. A hand without a winner (a Hato tie for the top, a Go-Stop nagari) leaves the dealer in place.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Generic, TypeVar

from engine.deal import Deal
from engine.errors import IllegalMoveError
from engine.hwatu.deal import draw_for_dealer, shuffled_deal
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.gostop_scoring import GoStopResult
from engine.hwatu.hato import HatoResult
from engine.hwatu.hato_profile import HatoProfile
from engine.hwatu.hato_round import HatoRound

RoundT = TypeVar("RoundT", HatoRound, GoStopRound)
ResultT = TypeVar("ResultT", HatoResult, GoStopResult)


class HwatuMatch(ABC, Generic[RoundT, ResultT]):
    """The bookkeeping both hwatu games share; subclasses make the hands."""

    def __init__(self, players: int, rounds: int, first_dealer: str, seed: int | None, dealer: int) -> None:
        self.players = players
        self.rounds = rounds
        self.rng = random.Random(seed)
        self.dealer = dealer if dealer >= 0 else draw_for_dealer(self.rng, players, first_dealer)
        self.scores = [0] * players
        self.results: list[ResultT] = []
        self.patus = 0  # void deals redealt

    @property
    def round_number(self) -> int:
        """1-based number of the hand being (or about to be) played."""
        return len(self.results) + 1

    @property
    def is_over(self) -> bool:
        return len(self.results) >= self.rounds

    @property
    def leader(self) -> int | None:
        """The player ahead on points, ``None`` when the top is shared."""
        top = max(self.scores)
        return self.scores.index(top) if self.scores.count(top) == 1 else None

    def new_round(self, deal: Deal | None = None) -> RoundT:
        """The next hand, from ``deal`` or a fresh shuffle (shuffling again while the deal is void)."""
        if self.is_over:
            raise IllegalMoveError("the match is over")
        while True:
            current = self._make_round(deal or self._shuffle())
            if current.result is None or current.result.reason != "patu":
                return current
            self.patus += 1
            if deal is not None:
                return current  # an observed deal that must be redealt: the caller decides

    def record(self, finished: RoundT) -> None:
        """Add a finished hand's settlement and choose the next dealer."""
        result = finished.result
        if result is None:
            raise IllegalMoveError("the hand is not over yet")
        if result.reason == "patu":
            return
        self.results.append(result)  # type: ignore[arg-type]
        for p in range(self.players):
            self.scores[p] += result.net[p]
        if result.winner is not None:
            self.dealer = result.winner

    @abstractmethod
    def _make_round(self, deal: Deal) -> RoundT: ...

    @abstractmethod
    def _shuffle(self) -> Deal: ...


class HatoMatch(HwatuMatch[HatoRound, HatoResult]):
    """``HatoMatch(HatoProfile.load("minhwatu"), players=4, seed=1)``; scores add up each hand's ``net``."""

    def __init__(
        self, profile: HatoProfile | None = None, players: int = 3, seed: int | None = None,
        rounds: int | None = None, dealer: int = -1,
    ) -> None:
        self.profile = profile or HatoProfile.load("hato")
        self.sizes = self.profile.deal_sizes(players)
        super().__init__(players, rounds or self.profile.rounds, self.profile.first_dealer, seed, dealer)

    def _make_round(self, deal: Deal) -> HatoRound:
        return HatoRound(deal, self.profile, self.dealer)

    def _shuffle(self) -> Deal:
        return shuffled_deal(self.rng, self.players, *self.sizes, self.dealer)


class GoStopMatch(HwatuMatch[GoStopRound, GoStopResult]):
    """``GoStopMatch(GoStopProfile.load("matgo"), seed=1)``; a nagari doubles the next hand."""

    def __init__(
        self, profile: GoStopProfile | None = None, seed: int | None = None, rounds: int | None = None,
        dealer: int = -1,
    ) -> None:
        self.profile = profile or GoStopProfile.load("gostop")
        self.nagari = 0  # hands in a row without a winner, doubling the next
        super().__init__(self.profile.players, rounds or self.profile.rounds, self.profile.first_dealer, seed, dealer)

    def _make_round(self, deal: Deal) -> GoStopRound:
        return GoStopRound(deal, self.profile, self.dealer, self.nagari)

    def _shuffle(self) -> Deal:
        p = self.profile
        return shuffled_deal(self.rng, p.players, p.hand_size, p.field_size, self.dealer)

    def record(self, finished: GoStopRound) -> None:
        super().record(finished)
        if finished.result is not None and finished.result.reason != "patu":
            self.nagari = self.nagari + 1 if finished.result.reason == "nagari" else 0
