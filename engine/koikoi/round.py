"""One round of Koi-Koi: the capture mechanic plus koi-koi calls, stopping and scoring."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.capture import CaptureRound, Phase
from engine.cardset import full_months
from engine.deal import Deal
from engine.errors import InvalidStateError
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.yaku import Yaku, dealt_hand_yaku, round_total, score_yaku, yaku_total
from engine.moves import Move, MoveKind

_DEFAULT_PROFILE = KoiKoiProfile.load("default")


@dataclass(frozen=True)
class RoundResult:
    """How a round ended. ``points[p]`` is what player ``p`` scores (the loser scores 0)."""

    reason: str  # "stop", "exhausted", "teshi", "double-teshi", "kuttsuki", "redeal"
    winner: int | None
    points: tuple[int, ...]
    yaku: tuple[Yaku, ...] = ()
    base: int = 0
    koikoi: tuple[int, ...] = (0, 0)


class KoiKoiRound(CaptureRound):
    """``KoiKoiRound(Deal.shuffled(7))``, then ``push(move)`` until ``is_over``; ``result`` says who scored."""

    koikoi: tuple[int, int]
    best: tuple[int, int]
    result: RoundResult | None

    def __init__(self, deal: Deal, profile: KoiKoiProfile | None = None, dealer: int = 0) -> None:
        if len(deal.hands) != 2:
            raise InvalidStateError(f"Koi-Koi is for 2 players, this deal has {len(deal.hands)} hands")
        super().__init__(deal, dealer)
        self.profile = profile or _DEFAULT_PROFILE
        self.koikoi = (0, 0)  # koi-koi calls per player
        self.best = (0, 0)  # yaku total at each player's last decision
        self.result = None
        self._check_deal()

    @classmethod
    def shuffled(cls, seed: int | random.Random, profile: KoiKoiProfile | None = None, dealer: int = 0) -> KoiKoiRound:
        profile = profile or _DEFAULT_PROFILE
        return cls(Deal.shuffled(seed, 2, profile.hand_size, profile.field_size), profile, dealer)

    # ----------------------------------------------------------------- the deal
    def _check_deal(self) -> None:
        """Dealt-hand yaku and redeals, decided before the first move."""
        profile = self.profile
        if profile.four_on_field == "redeal" and _has_four(self.field):
            self._finish("redeal", None, ())
            return
        if self.hidden[0] or self.hidden[1]:
            return  # unseen hands: nothing can be said about them yet
        if profile.four_in_hand == "redeal" and any(_has_four(h) for h in self.hands):
            self._finish("redeal", None, ())
            return
        dealt = [dealt_hand_yaku(h, profile) for h in self.hands]
        winners = [p for p in (0, 1) if dealt[p]]
        if len(winners) == 2:
            self._finish("redeal", None, ())
        elif winners:
            p = winners[0]
            self._finish(dealt[p][0].name, p, tuple(dealt[p]))

    # ----------------------------------------------------------------- snapshots
    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self.hands, self.hidden, self.field, self.captured, self.stock_left, self.turn, self.phase,
            self.koikoi, self.best, self.result,
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (
            self.hands, self.hidden, self.field, self.captured, self.stock_left, self.turn, self.phase,
            self.koikoi, self.best, self.result,
        ) = snap

    # ----------------------------------------------------------------- turn flow
    def _end_turn(self) -> None:
        p = self.turn
        total = yaku_total(self.captured[p], self.profile, self.koikoi[p] > 0)
        if total > self.best[p]:
            self.phase = Phase.DECIDE
        else:
            self._next_player()

    def _decisions(self) -> list[Move]:
        if self.hand_size(self.turn):
            return [Move.koikoi(), Move.stop()]
        return [Move.stop()]  # nothing left to improve with: the last card stops

    def _decide(self, move: Move) -> None:
        p = self.turn
        total = yaku_total(self.captured[p], self.profile, self.koikoi[p] > 0)
        if move.kind == MoveKind.KOIKOI:
            self.koikoi = (self.koikoi[0] + 1, self.koikoi[1]) if p == 0 else (self.koikoi[0], self.koikoi[1] + 1)
            self.best = (total, self.best[1]) if p == 0 else (self.best[0], total)
            self._next_player()
        else:
            yaku = tuple(score_yaku(self.captured[p], self.profile, self.koikoi[p] > 0))
            self._finish("stop", p, yaku)

    def _exhausted(self) -> None:
        self._finish("exhausted", None, ())

    def _finish(self, reason: str, winner: int | None, yaku: tuple[Yaku, ...]) -> None:
        points = [0, 0]
        base = sum(y.points for y in yaku)
        if winner is not None:
            opponent_called = self.koikoi[1 - winner] > 0
            points[winner] = round_total(base, self.profile, self.koikoi[winner], opponent_called)
        elif reason == "exhausted" and self.profile.exhausted_dealer_points:
            winner = self.dealer
            points[winner] = self.profile.exhausted_dealer_points
        self.result = RoundResult(reason, winner, (points[0], points[1]), yaku, base, self.koikoi)
        self.phase = Phase.OVER

    # ----------------------------------------------------------------- scoring queries
    def yaku(self, player: int) -> list[Yaku]:
        """The yaku a player's captures hold right now."""
        return score_yaku(self.captured[player], self.profile, self.koikoi[player] > 0)

    def score_if_stopped(self, player: int) -> int:
        """What ``player`` would score by stopping now (0 without a yaku)."""
        base = yaku_total(self.captured[player], self.profile, self.koikoi[player] > 0)
        if not base:
            return 0
        return round_total(base, self.profile, self.koikoi[player], self.koikoi[1 - player] > 0)


def _has_four(mask: int) -> bool:
    return full_months(mask) > 0

