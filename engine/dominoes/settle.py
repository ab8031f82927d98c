"""Who pays whom after a deal: the pairwise settlement (Jie Long, Ce Deng with its multipliers), the
Kkoribuchigi settlement, eight doubles and the void deal.

Players are given in turn order from the first player of the deal (the head, who led). Pips are what a
player is charged: the pips of their face-down tiles (and of tiles left in hand when play was blocked).
Net results always sum to zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.dominoes.profile import DominoProfile
from engine.errors import KibitzError


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` (already times ``multiplier``) for ``reasons``."""

    payer: int
    payee: int
    amount: int
    multiplier: int = 1
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class Settlement:
    """A settled deal. ``receives[p]``/``pays[p]`` are the factors on what ``p`` receives and pays (a pair's
    multiplier is the payee's ``receives`` times the payer's ``pays``); ``flags[p]`` say why."""

    game: str
    reason: str  # "played-out", "blocked", "eight-doubles", "redeal"
    first: int  # the first player of the deal (the head), who wins ties
    pips: tuple[int, ...]
    unplayed: tuple[int, ...] | None  # tiles each player did not lay in the line (None: not known)
    winner: int | None  # the lowest hand; None for a void deal
    receives: tuple[int, ...]
    pays: tuple[int, ...]
    flags: tuple[tuple[str, ...], ...]
    payments: tuple[Payment, ...]
    net: tuple[int, ...]


def lowest_hand(pips: Sequence[int], first: int = 0) -> int:
    """The single winner: the fewest pips, a tie going to the player nearest the first player in turn order."""
    n = len(pips)
    return min(range(n), key=lambda p: (pips[p], (p - first) % n))


def settle(
    pips: Sequence[int], profile: DominoProfile, unplayed: Sequence[int] | None = None, first: int = 0,
    reason: str = "played-out",
) -> Settlement:
    """Settle a deal that was played (out or until blocked) by the profile's mode."""
    _check(pips, unplayed, first, profile)
    if profile.mode == "kkori":
        return _kkori(tuple(pips), profile, _tuple(unplayed), first, reason)
    return _pairwise(tuple(pips), profile, _tuple(unplayed), first, reason)


def settle_eight_doubles(hand_pips: Sequence[int], winner: int, profile: DominoProfile, first: int = 0) -> Settlement:
    """Eight doubles dealt to ``winner``: the deal ends at once and every other player pays the profile's factor
    (double) times the pips of their whole hand."""
    _check(hand_pips, None, first, profile)
    n = len(hand_pips)
    if not 0 <= winner < n:
        raise KibitzError(f"the eight-doubles player must be 1 to {n}, not {winner + 1}")
    factor = profile.eight_doubles_factor
    payments = tuple(
        Payment(p, winner, factor * hand_pips[p], factor, ("eight doubles",))
        for p in range(n) if p != winner and hand_pips[p]
    )
    flags = tuple(("eight doubles",) if p == winner else () for p in range(n))
    pays = tuple(factor if p != winner else 1 for p in range(n))
    return Settlement(
        profile.game, "eight-doubles", first, tuple(hand_pips), None, winner, (1,) * n, pays, flags, payments,
        _net(n, payments),
    )


def void_deal(players: int, profile: DominoProfile, first: int = 0) -> Settlement:
    """A deal that is redealt (seven doubles in one hand): nobody plays, nobody pays."""
    zeros = (0,) * players
    return Settlement(
        profile.game, "redeal", first, zeros, None, None, (1,) * players, (1,) * players, ((),) * players, (), zeros
    )


def needs_counts(profile: DominoProfile) -> bool:
    """Whether settling needs each player's count of tiles not laid (clean finishes, heavy heads and tails)."""
    return profile.clean_finish > 1 or (profile.heavy_payer > 1 and bool(profile.head_heavy or profile.tail_heavy))


def _pairwise(
    pips: tuple[int, ...], profile: DominoProfile, unplayed: tuple[int, ...] | None, first: int, reason: str
) -> Settlement:
    n = len(pips)
    receives, pays, flags = _factors(pips, profile, unplayed, first)
    payments = []
    for a in range(n):
        for b in range(a + 1, n):
            if pips[a] == pips[b]:
                continue  # ties pay nothing
            payer, payee = (a, b) if pips[a] > pips[b] else (b, a)
            multiplier = receives[payee] * pays[payer]
            reasons = tuple(f for f in flags[payee] if f == "clean finish") + tuple(
                f for f in flags[payer] if f != "clean finish"
            )
            diff = pips[payer] - pips[payee]
            payments.append(Payment(payer, payee, diff * multiplier, multiplier, reasons))
    return Settlement(
        profile.game, reason, first, pips, unplayed, lowest_hand(pips, first), receives, pays, flags,
        tuple(payments), _net(n, payments),
    )


def _factors(
    pips: tuple[int, ...], profile: DominoProfile, unplayed: tuple[int, ...] | None, first: int
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[str, ...], ...]]:
    """Ce Deng's multipliers: a clean finish receives double, a heavy head or tail pays double."""
    n = len(pips)
    if unplayed is None:
        if needs_counts(profile):
            raise KibitzError(f"{profile.game} needs how many tiles each player did not lay, not only the pips")
        return (1,) * n, (1,) * n, ((),) * n
    receives, pays = [1] * n, [1] * n
    flags: list[tuple[str, ...]] = [()] * n
    for p in range(n):
        threshold = profile.head_heavy if p == first else profile.tail_heavy
        if profile.clean_finish > 1 and unplayed[p] == 0:
            receives[p] = profile.clean_finish
            flags[p] = ("clean finish",)
        elif profile.heavy_payer > 1 and threshold and unplayed[p] >= threshold:
            pays[p] = profile.heavy_payer
            flags[p] = ("heavy head",) if p == first else ("heavy tail",)
    return tuple(receives), tuple(pays), tuple(flags)


def _kkori(
    pips: tuple[int, ...], profile: DominoProfile, unplayed: tuple[int, ...] | None, first: int, reason: str
) -> Settlement:
    """Only the most points pays the winner (everyone tied for the most), and with enough players anyone over
    the limit pays too; in points the difference, in chips one each. A tie with the winner pays nothing."""
    n = len(pips)
    winner = lowest_hand(pips, first)
    top = max(pips)
    over_counts = profile.over > 0 and n >= profile.over_from_players
    payments = []
    flags: list[tuple[str, ...]] = [()] * n
    for p in range(n):
        if p == winner or pips[p] == pips[winner]:
            continue
        why = []
        if pips[p] == top:
            why.append("most points")
        if over_counts and (pips[p] > profile.over or (profile.over_inclusive and pips[p] == profile.over)):
            why.append(f"{'at least' if profile.over_inclusive else 'over'} {profile.over}")
        if why:
            flags[p] = tuple(why)
            amount = 1 if profile.payment == "chips" else pips[p] - pips[winner]
            payments.append(Payment(p, winner, amount, 1, tuple(why)))
    return Settlement(
        profile.game, reason, first, pips, unplayed, winner, (1,) * n, (1,) * n, tuple(flags), tuple(payments),
        _net(n, payments),
    )


def _net(players: int, payments: Sequence[Payment]) -> tuple[int, ...]:
    net = [0] * players
    for payment in payments:
        net[payment.payer] -= payment.amount
        net[payment.payee] += payment.amount
    return tuple(net)


def _tuple(values: Sequence[int] | None) -> tuple[int, ...] | None:
    return None if values is None else tuple(values)


def _check(pips: Sequence[int], unplayed: Sequence[int] | None, first: int, profile: DominoProfile) -> None:
    n = len(pips)
    if n not in profile.deals:
        counts = ", ".join(map(str, profile.players))
        raise KibitzError(f"{profile.game} is played by {counts} players; {n} were given")
    for p, value in enumerate(pips):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise KibitzError(f"player {p + 1}'s pips must be a whole number of at least 0, not {value!r}")
    if not 0 <= first < n:
        raise KibitzError(f"the first player must be 1 to {n}, not {first + 1}")
    if unplayed is not None:
        size = profile.deal_for(n)[0]
        if len(unplayed) != n:
            raise KibitzError(f"{len(unplayed)} tile counts for {n} players")
        for p, count in enumerate(unplayed):
            if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= size:
                raise KibitzError(f"player {p + 1} cannot have {count!r} tiles not laid: hands hold {size}")
