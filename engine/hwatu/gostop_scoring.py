"""Go-Stop / Matgo scoring: the elements of a pile, go bonuses, multipliers and the settlement of a hand.

Works on raw 48-bit masks because the round asks after every turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine.hwatu.cards import CHEONGDAN, CHODAN, GODORI, GWANG, HONGDAN, PI, RAIN_GWANG, SAKE_CUP, TTI, YEOL
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.yaku import Yaku

_DANS = (("hongdan", HONGDAN), ("cheongdan", CHEONGDAN), ("chodan", CHODAN))


def elements(pile: int, profile: GoStopProfile, sake_as_pi: bool = False) -> list[Yaku]:
    """The scoring elements of a pile, in table order: gwang, yeol, godori, tti, the three dan, pi."""
    score = profile.score
    found: list[Yaku] = []
    gwang = pile & GWANG
    n = gwang.bit_count()
    if n >= 3:
        key = "gwang-5" if n == 5 else "gwang-4" if n == 4 else "gwang-3-rain" if gwang & RAIN_GWANG else "gwang-3"
        if score[key]:
            found.append(Yaku("gwang", score[key], gwang))
    animals = pile & YEOL & ~(SAKE_CUP if sake_as_pi else 0)
    _count_element(found, "yeol", animals, animals.bit_count(), score)
    if pile & GODORI == GODORI and score["godori"]:
        found.append(Yaku("godori", score["godori"], GODORI))
    ribbons = pile & TTI
    _count_element(found, "tti", ribbons, ribbons.bit_count(), score)
    for name, cards in _DANS:
        if pile & cards == cards and score[name]:
            found.append(Yaku(name, score[name], cards))
    plains = pile & PI | (pile & SAKE_CUP if sake_as_pi else 0)
    _count_element(found, "pi", plains, profile.pi_value(pile, sake_as_pi), score)
    return found


def _count_element(found: list[Yaku], name: str, cards: int, count: int, score: dict[str, int]) -> None:
    """Yeol, tti and pi: so many cards score the base value, each further card one more."""
    need = score[f"{name}-cards"]
    if count >= need and score[name]:
        found.append(Yaku(name, score[name] + count - need, cards))


def total(pile: int, profile: GoStopProfile, sake_as_pi: bool = False) -> int:
    """The element sum of a pile; piles that cannot score (most of them, mid-hand) return at once."""
    score = profile.score
    if (
        (pile & GWANG).bit_count() < 3
        and (pile & YEOL).bit_count() < score["yeol-cards"]
        and pile & GODORI != GODORI
        and (pile & TTI).bit_count() < score["tti-cards"]
        and pile & HONGDAN != HONGDAN
        and pile & CHEONGDAN != CHEONGDAN
        and pile & CHODAN != CHODAN
        and profile.pi_value(pile, True) < score["pi-cards"]
    ):
        return 0
    return sum(y.points for y in elements(pile, profile, sake_as_pi))


def sake_options(pile: int, profile: GoStopProfile) -> tuple[bool, ...]:
    """How the pile's owner may count the sake cup: ``(False,)`` as an animal, ``(True,)`` as double pi,
    both when the profile leaves the choice and the cup is in the pile (animal first)."""
    if profile.sake_cup == "choice":
        return (False, True) if pile & SAKE_CUP else (False,)
    return (profile.sake_cup == "pi",)


def best_total(pile: int, profile: GoStopProfile) -> int:
    """The element sum with the sake cup counted the better way (what decides go or stop)."""
    return max(total(pile, profile, as_pi) for as_pi in sake_options(pile, profile))


def go_score(base: int, gos: int, profile: GoStopProfile) -> int:
    """A stopping player's score after ``gos`` go calls: +1 for each of the first calls, then doubling."""
    added = min(gos, profile.go_add_calls)
    return (base + added) << (gos - added)  # doubling for every call after the added ones


class Payment(NamedTuple):
    """What one loser pays the winner, and why more than the winner's score (``gwang-bak``, ``go-bak``...)."""

    player: int
    amount: int
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class GoStopResult:
    """How a hand ended. ``net[p]`` is what player ``p`` wins (+) or pays (-); it sums to zero."""

    reason: str  # "stop", "nagari", "chongtong", "three-ppeok", "patu"
    winner: int | None
    net: tuple[int, ...]
    yaku: tuple[Yaku, ...] = ()
    base: int = 0  # the winner's element sum
    score: int = 0  # after go calls and the winner's multipliers: what a loser pays before their own
    gos: tuple[int, ...] = ()
    multipliers: tuple[str, ...] = ()  # the winner's: "shake", "bomb", "meong-bak", "nagari" (one per factor)
    payments: tuple[Payment, ...] = ()
    sake_as: tuple[str | None, ...] = ()  # per player: "animal", "pi", or None without the cup


class Table(NamedTuple):
    """What a settlement needs to know about the hand besides the piles."""

    go_order: tuple[int, ...] = ()  # the players who called go, in calling order
    shakes: tuple[int, ...] = ()
    bombs: tuple[int, ...] = ()
    nagari: int = 0  # hands without a winner just before this one


def settle_stop(piles: Sequence[int], winner: int, table: Table, profile: GoStopProfile) -> GoStopResult:
    """The settlement of a stop, with the sake cup counted the way that pays the winner more."""
    options = [_settle(piles, winner, table, profile, as_pi) for as_pi in sake_options(piles[winner], profile)]
    return max(options, key=lambda result: result.net[winner])  # the first (animal) on a tie


def _settle(piles: Sequence[int], winner: int, table: Table, profile: GoStopProfile, as_pi: bool) -> GoStopResult:
    players = len(piles)
    pile = piles[winner]
    yaku = tuple(elements(pile, profile, as_pi))
    base = sum(y.points for y in yaku)
    gos = tuple(table.go_order.count(p) for p in range(players))
    factors = profile.factors
    multipliers = ["shake"] * table.shakes[winner] + ["bomb"] * table.bombs[winner] + ["nagari"] * table.nagari
    animals = (pile & YEOL & ~(SAKE_CUP if as_pi else 0)).bit_count()
    if profile.meong_bak_animals and animals >= profile.meong_bak_animals:
        multipliers.append("meong-bak")
    score = go_score(base, gos[winner], profile)
    for name in multipliers:
        score *= factors[name]
    names = {y.name for y in yaku}
    loser_as_pi = profile.sake_cup != "animal"  # a loser counts the cup as pi to escape pi-bak
    payments = []
    for q in range(players):
        if q == winner:
            continue
        amount, reasons = score, []
        if "gwang" in names and not piles[q] & GWANG:
            reasons.append("gwang-bak")
        if "pi" in names and profile.pi_value(piles[q], loser_as_pi) < profile.pi_bak_below:
            reasons.append("pi-bak")
        for name in reasons:
            amount *= factors[name]
        payments.append(Payment(q, amount, tuple(reasons)))
    payments = _go_bak(payments, winner, table.go_order, profile)
    sake_as = tuple(_sake_label(piles[p], as_pi if p == winner else loser_as_pi) for p in range(players))
    return GoStopResult(
        "stop", winner, _net(payments, winner, players), yaku, base, score, gos, tuple(multipliers),
        tuple(payments), sake_as,
    )


def _go_bak(payments: list[Payment], winner: int, go_order: tuple[int, ...], profile: GoStopProfile) -> list[Payment]:
    """A loser who had called go (the latest such caller) pays for every loser, or double."""
    callers = [p for p in reversed(go_order) if p != winner]
    if not callers or profile.go_bak == "off":
        return payments
    payer = callers[0]
    if profile.go_bak == "double":
        return [Payment(q, a * 2, (*r, "go-bak")) if q == payer else Payment(q, a, r) for q, a, r in payments]
    everything = sum(a for _, a, _ in payments)
    return [Payment(q, everything, (*r, "go-bak")) if q == payer else Payment(q, 0, r) for q, a, r in payments]


def settle_fixed(
    reason: str, winner: int, points: int, players: int, nagari: int, profile: GoStopProfile
) -> GoStopResult:
    """An instant win (chongtong, three ppeoks): every other player pays the fixed points (nagari doubles)."""
    multipliers = ("nagari",) * nagari
    score = points * profile.factors["nagari"] ** nagari
    payments = tuple(Payment(q, score) for q in range(players) if q != winner)
    return GoStopResult(reason, winner, _net(payments, winner, players), (), points, score, (), multipliers, payments)


def no_winner(reason: str, players: int, go_order: tuple[int, ...] = ()) -> GoStopResult:
    """A nagari (played out without a stop) or a void deal: nobody pays."""
    gos = tuple(go_order.count(p) for p in range(players))
    return GoStopResult(reason, None, (0,) * players, gos=gos)


def _net(payments: Sequence[Payment], winner: int, players: int) -> tuple[int, ...]:
    net = [0] * players
    for q, amount, _ in payments:
        net[q] -= amount
        net[winner] += amount
    return tuple(net)


def _sake_label(pile: int, as_pi: bool) -> str | None:
    if not pile & SAKE_CUP:
        return None
    return "pi" if as_pi else "animal"
