"""One hand of Hato / Min-hwatu: the plain capture mechanic, no calls, scored when the hands are empty."""

from __future__ import annotations

import random
from typing import Any

from engine.capture import CaptureRound, Phase
from engine.deal import Deal
from engine.errors import InvalidStateError
from engine.hwatu.deal import four_of_a_month, shuffled_deal
from engine.hwatu.hato import HatoResult, bonuses, card_points, settle_hato, void_result
from engine.hwatu.hato_profile import HatoProfile
from engine.hwatu.yaku import Yaku

_DEFAULT_PROFILE = HatoProfile.load("hato")


class HatoRound(CaptureRound):
    """``HatoRound.shuffled(7, players=4)``, then ``push(move)`` until ``is_over``; ``result`` settles the hand."""

    result: HatoResult | None

    def __init__(self, deal: Deal, profile: HatoProfile | None = None, dealer: int = 0) -> None:
        super().__init__(deal, dealer)
        self.profile = profile or _DEFAULT_PROFILE
        if self.players not in self.profile.sizes:
            raise InvalidStateError(f"profile {self.profile.name} has no deal for {self.players} players")
        self.result = None
        self._check_deal()

    @classmethod
    def shuffled(
        cls, seed: int | random.Random, players: int = 3, profile: HatoProfile | None = None, dealer: int = 0
    ) -> HatoRound:
        profile = profile or _DEFAULT_PROFILE
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        hand, field = profile.deal_sizes(players)
        return cls(shuffled_deal(rng, players, hand, field, dealer), profile, dealer)

    def _check_deal(self) -> None:
        """Patu: all four of a month in one hand or on the table voids the deal (only seen hands count)."""
        if not self.profile.patu:
            return
        if four_of_a_month(self.field) or any(four_of_a_month(h) for h in self.hands):
            self.result = void_result(self.players)
            self.phase = Phase.OVER

    # ----------------------------------------------------------------- snapshots
    def _snapshot(self) -> tuple[Any, ...]:
        return (self.hands, self.hidden, self.field, self.captured, self.stock_left, self.turn, self.phase, self.result)

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (self.hands, self.hidden, self.field, self.captured, self.stock_left, self.turn, self.phase, self.result) = snap

    # ----------------------------------------------------------------- the end
    def _exhausted(self) -> None:
        self.result = settle_hato(self.captured, self.profile)
        self.phase = Phase.OVER

    # ----------------------------------------------------------------- scoring queries
    def card_points(self, player: int) -> int:
        return card_points(self.captured[player], self.profile)

    def bonuses(self, player: int) -> list[Yaku]:
        return bonuses(self.captured[player], self.profile)

    def standing(self) -> HatoResult:
        """The settlement as if the hand ended now (for running scores)."""
        return settle_hato(self.captured, self.profile)
