"""Hato / Min-hwatu scoring: card points, bonuses, and the settlement of a played-out hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cardset import MONTH_MASKS, cards_of
from engine.hwatu.hato_profile import HatoProfile
from engine.hwatu.names import yak_name
from engine.hwatu.yaku import Yaku


def card_points(pile: int, profile: HatoProfile) -> int:
    """The pile's card points (brights 20, animals 10, ribbons 5 and so on, by the profile)."""
    values = profile.card_points
    return sum(values[card] for card in cards_of(pile))


def bonuses(pile: int, profile: HatoProfile) -> list[Yaku]:
    """The bonuses a pile holds: the profile's card sets first, then four of a month (Korean month order)."""
    found = [Yaku(b.name, b.points, b.cards) for b in profile.bonus_sets if b.points and pile & b.cards == b.cards]
    if profile.four_of_a_month:
        for month in profile.four_months:  # in Korean month order
            cards = MONTH_MASKS[month]
            if pile & cards == cards:
                found.append(Yaku(yak_name(month), profile.four_of_a_month, cards))
    return found


@dataclass(frozen=True)
class HatoResult:
    """A hand's settlement. ``points[p]`` is card points plus bonuses (less the others' bonuses in
    Min-hwatu); ``net[p]`` settles every pair of players by their difference, so it sums to zero."""

    reason: str  # "exhausted" or "patu"
    winner: int | None  # the most points; None on a tie for the top or a void deal
    card_points: tuple[int, ...]
    bonuses: tuple[tuple[Yaku, ...], ...]
    points: tuple[int, ...]
    net: tuple[int, ...]


def settle_hato(piles: Sequence[int], profile: HatoProfile) -> HatoResult:
    cards = tuple(card_points(pile, profile) for pile in piles)
    found = tuple(tuple(bonuses(pile, profile)) for pile in piles)
    own = [sum(b.points for b in mine) for mine in found]
    total_bonus = sum(own)
    points = tuple(
        cards[p] + own[p] - (total_bonus - own[p] if profile.subtract_from_others else 0) for p in range(len(piles))
    )
    top = max(points)
    winner = points.index(top) if points.count(top) == 1 else None
    total = sum(points)
    net = tuple(len(points) * mine - total for mine in points)
    return HatoResult("exhausted", winner, cards, found, points, net)


def void_result(players: int) -> HatoResult:
    """The result of a void deal (patu): nobody plays, nobody scores."""
    zeros = (0,) * players
    return HatoResult("patu", None, zeros, ((),) * players, zeros, zeros)

