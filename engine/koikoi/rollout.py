"""The playout policy of the hint search: a greedy-ish player on plain ints, fast enough for thousands
of playouts a second. Card values know the yaku in progress; each player's finishers (the cards that
would complete a yaku) are worked out only when a choice needs them, not after every capture, and both
they and the yaku totals are remembered by captured piles, which recur across the worlds of a search.

Which hand card to play is scored by the learnt weights of ``playout_features`` (the default, or ``weights``
passed in) or by the hand-tuned rule below them (``fitted=False``: the expert the weights were first fitted to).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Final

from engine.capture import Phase
from engine.cards import ALL_CARDS, Kind
from engine.cardset import FULL, MONTH_MASK_BY_CARD, cards_of
from engine.koikoi.playout_features import LAY_RISK, FittedTables, load_weights
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.progress import COUNT_YAKU, finisher_table, finishers_in, yaku_groups
from engine.koikoi.round import KoiKoiRound
from engine.koikoi.yaku import RAINMAN, round_total, yaku_total
from engine.moves import Move, MoveKind

# What a card is worth to whoever captures it, before the yaku in progress are counted.
_BASE: Final = {Kind.BRIGHT: 6.0, Kind.ANIMAL: 2.0, Kind.RIBBON: 2.0, Kind.PLAIN: 1.0}
YAKU_SHARE: Final = 1.0  # how much of a yaku's points per card it needs adds to that card's value
COMPLETE_BONUS: Final = 15.0  # capturing the card that completes a yaku
DENY_SHARE: Final = 0.5  # how much of the opponent's value a capture denies
NOISE: Final = 0.6  # per-world jitter of card preferences, so playouts differ
PROGRESS: Final = 0.6  # share of a started yaku's points added to each card it still needs
DROP_OWN, DROP_THEIRS = 0.3, 0.6  # what laying a card costs: its worth to the player and to the opponent
SAFE_CAPTURE: Final = 0.25  # weight of a capture in a month nobody else can take any more
STALE: Final = -1  # a finishers mask (never negative) not worked out since the last capture


@functools.cache
def card_values(profile: KoiKoiProfile) -> tuple[float, ...]:
    """What each card is worth before anyone has started a yaku: its kind, plus a share of the points of
    each yaku it belongs to (the sake cup counts for both viewing yaku, so it is worth a bright)."""
    values = [_BASE[card.kind] for card in ALL_CARDS]
    for group in yaku_groups(profile):
        if group.name in COUNT_YAKU or group.name in ("shiko", "goko"):
            continue  # a bright's share is counted once, by sanko (and ame-shiko for the rain man)
        cards = RAINMAN if group.name == "ameshiko" else group.cards
        share = YAKU_SHARE * group.value / group.need
        for card in cards_of(cards):
            values[card] += share
    return tuple(values)


def card_worths(profile: KoiKoiProfile, mine: int, theirs: int) -> list[float]:
    """What each card is worth to the player who captured ``mine``: base values plus a share of each live yaku
    they have started."""
    values = list(card_values(profile))
    for group in yaku_groups(profile):
        have = (mine & group.cards).bit_count()
        if not have or group.name in COUNT_YAKU or group.dead(mine, theirs) or group.made(mine):
            continue
        bonus = PROGRESS * group.value * have / group.need
        for card in cards_of(group.cards & ~mine & ~theirs):
            values[card] += bonus
    return values


class RolloutPolicy:
    """A greedy-ish player for playouts: best capture by card values that know the yaku in progress,
    take the card that completes a yaku, deny the opponent's, discard the least useful card, and
    stop at the first yaku."""

    def __init__(self, state: KoiKoiRound, fitted: bool = True, weights: Sequence[float] | None = None) -> None:
        self.profile = state.profile
        self.finishers = finisher_table(state.profile)
        self._near_cache: dict[int, int] = {}  # captured << 48 | opponent's captured -> finishers
        self._yaku_cache: dict[int, int] = {}  # captured | koi-koi called << 48 -> yaku total
        values = [card_worths(self.profile, state.captured[p], state.captured[1 - p]) for p in (0, 1)]
        # keep[p][c]: worth of card c to player p when p captures it (own value plus what it denies).
        self.keep = tuple(tuple(values[p][c] + DENY_SHARE * values[1 - p][c] for c in range(48)) for p in (0, 1))
        # drop[p][c]: cost to p of laying c on the field, where the opponent may take it.
        self.drop = tuple(
            tuple(DROP_OWN * values[p][c] + DROP_THEIRS * values[1 - p][c] for c in range(48)) for p in (0, 1)
        )
        if fitted:
            weights = load_weights() if weights is None else weights  # other weights: for tuning them
            self.fitted = tuple(FittedTables.build(values[p], values[1 - p], weights, state.hand_size(p))
                                for p in (0, 1))
        else:
            self.choose_play = self.choose_play_tuned  # type: ignore[method-assign]

    def land_score(self, p: int, card: int, got: int, near: Sequence[int], unseen: int) -> float:
        """How much ``p`` likes landing ``card`` and capturing ``got`` (a mask; 0 lays it on the field).

        A laid card costs what the opponent would gain, times the risk that they can match it: the
        more cards of its month ``p`` cannot see (``unseen``), the likelier.
        """
        if not got:
            cost = self.drop[p][card] + (COMPLETE_BONUS if near[1 - p] >> card & 1 else 0.0)
            return -cost * LAY_RISK[(unseen & MONTH_MASK_BY_CARD[card]).bit_count()]
        keep = self.keep[p]
        got |= 1 << card
        score = COMPLETE_BONUS if got & near[p] else 0.0
        if got & near[1 - p]:
            score += DENY_SHARE * COMPLETE_BONUS
        while got:
            low = got & -got
            got ^= low
            score += keep[low.bit_length() - 1]
        return score

    def best_take(self, p: int, matches: int, near: Sequence[int]) -> int:
        """What landing a card on its month's ``matches`` captures: the better of two, else all (a mask)."""
        if matches.bit_count() != 2:
            return matches
        low = matches & -matches
        high = matches ^ low
        return low if self._take_score(p, low, near) >= self._take_score(p, high, near) else high

    def _take_score(self, p: int, bit: int, near: Sequence[int]) -> float:
        score = self.keep[p][bit.bit_length() - 1]
        if near[p] & bit:
            score += COMPLETE_BONUS
        if near[1 - p] & bit:
            score += DENY_SHARE * COMPLETE_BONUS
        return score

    def choose_play(
        self, p: int, hand: int, field: int, unseen: int, near: Sequence[int], noise: Sequence[float]
    ) -> int:
        """The hand card ``p`` plays: the fitted score (``playout_features.move_features`` times the weights)
        plus the world's noise, inlined from ``FittedTables``, as this is the playouts' hottest loop."""
        tables = self.fitted[p]
        h = hand.bit_count()
        capture, safe, lay, base = tables.capture[h], tables.safe[h], tables.lay[h], tables.base[h]
        mine, theirs = near[p], near[1 - p]
        best, best_score = -1, -math.inf
        whole = hand
        while hand:
            low = hand & -hand
            hand ^= low
            card = low.bit_length() - 1
            month = MONTH_MASK_BY_CARD[card]
            got = field & month
            open_cards = unseen & month
            if not got:
                opens = open_cards.bit_count()
                score = lay[opens][card] + noise[card]
                if theirs & low:
                    score += tables.lay_finish * LAY_RISK[opens]
                if whole & month & ~low:
                    score += tables.lay_held
            else:
                n = got.bit_count()
                if n == 2:
                    got = self.best_take(p, got, near)
                table = capture if open_cards else safe
                score = base + table[card] + noise[card]
                if open_cards:
                    score += tables.open_one if open_cards & (open_cards - 1) == 0 else tables.open_two
                if n == 3:
                    score += tables.three
                if whole & month & ~low:
                    score += tables.held
                if (got | low) & mine:
                    score += tables.finish
                if (got | low) & theirs:
                    score += tables.deny
                while got:
                    bit = got & -got
                    got ^= bit
                    score += table[bit.bit_length() - 1]
            if score > best_score:
                best, best_score = card, score
        return best

    def choose_play_tuned(
        self, p: int, hand: int, field: int, unseen: int, near: Sequence[int], noise: Sequence[float]
    ) -> int:
        """The hand-tuned rule (``land_score`` with the safe-capture discount), for fitting data only: not inlined
        as tightly as ``choose_play``."""
        keep, drop = self.keep[p], self.drop[p]
        mine, theirs = near[p], near[1 - p]
        best, best_score = -1, -math.inf
        for card in cards_of(hand):
            low, month = 1 << card, MONTH_MASK_BY_CARD[card]
            got = field & month
            if not got:
                cost = (drop[card] + COMPLETE_BONUS) if theirs & low else drop[card]
                score = noise[card] - cost * LAY_RISK[(unseen & month).bit_count()]
            else:
                if got.bit_count() == 2:
                    got = self.best_take(p, got, near)
                score = keep[card]
                if (got | low) & mine:
                    score += COMPLETE_BONUS
                if (got | low) & theirs:
                    score += DENY_SHARE * COMPLETE_BONUS
                while got:
                    bit = got & -got
                    got ^= bit
                    score += keep[bit.bit_length() - 1]
                if not unseen & month:  # nobody else can take these: no hurry
                    score *= SAFE_CAPTURE
                score += noise[card]
            if score > best_score:
                best, best_score = card, score
        return best

    def rollout(
        self, world: KoiKoiRound, noise: Sequence[float], record: list[Move] | None = None
    ) -> tuple[tuple[int, int], int]:
        """Play ``world`` out to the end of the round without changing it: (points, who stopped or -1).

        The playout runs on plain ints rather than through ``push`` (the hot path of the search):
        the capture rule, then after each flip the engine's own ``yaku_total`` and ``round_total``;
        everyone stops at their first yaku. ``record`` collects the moves, for tests to replay.
        """
        if world.phase is Phase.OVER:
            result = world.result
            assert result is not None
            return (result.points[0], result.points[1]), -1 if result.winner is None else result.winner
        profile = self.profile
        hands, captured = list(world.hands), list(world.captured)
        field, stock, at = world.field, world.stock, 0
        assert stock is not None
        at = len(stock) - world.stock_left
        koikoi, best = world.koikoi, world.best
        yaku_cache = self._yaku_cache
        near = [STALE, STALE]  # finishers of each player, worked out only when a choice needs them
        p, phase = world.turn, world.phase
        while True:
            if phase is Phase.PLAY:
                if near[0] < 0 or near[1] < 0:
                    self._refresh(near, captured)
                card = self.choose_play(
                    p, hands[p], field, FULL & ~(hands[p] | field | captured[0] | captured[1]), near, noise
                )
                hands[p] ^= 1 << card
                field = self._land(p, card, field, captured, near, MoveKind.PLAY, record)
            if phase is not Phase.DECIDE:
                field = self._land(p, stock[at], field, captured, near, MoveKind.FLIP, record)
                at += 1
            # Only a capture can make a yaku, and a capture leaves p's finishers stale: no capture, no new yaku.
            if near[p] < 0 or phase is Phase.DECIDE:
                key = captured[p] | (koikoi[p] > 0) << 48
                total = yaku_cache.get(key, -1)
                if total < 0:
                    total = yaku_cache[key] = yaku_total(captured[p], profile, koikoi[p] > 0)
            else:
                total = 0
            if total > best[p]:  # everyone stops at their first (or next) yaku
                if record is not None:
                    record.append(Move.stop())
                points = [0, 0]
                points[p] = round_total(total, profile, koikoi[p], koikoi[1 - p] > 0)
                return (points[0], points[1]), p
            if not hands[0] and not hands[1]:
                points = [0, 0]
                points[world.dealer] = profile.exhausted_dealer_points
                return (points[0], points[1]), -1
            p, phase = 1 - p, Phase.PLAY

    def _land(
        self, p: int, card: int, field: int, captured: list[int], near: list[int], kind: MoveKind,
        record: list[Move] | None,
    ) -> int:
        """The capture rule on ints: ``card`` takes the best of its month's field cards, or is laid there."""
        matches = field & MONTH_MASK_BY_CARD[card]
        if matches.bit_count() == 2 and (near[0] < 0 or near[1] < 0):
            self._refresh(near, captured)
        got = self.best_take(p, matches, near)
        if record is not None:
            take = got.bit_length() - 1 if got.bit_count() == 1 else None
            record.append(Move(kind, ALL_CARDS[card], None if take is None else ALL_CARDS[take]))
        if not got:
            return field | 1 << card
        captured[p] |= got | 1 << card
        near[p] = STALE
        return field & ~got

    def _refresh(self, near: list[int], captured: list[int]) -> None:
        """Work out the finishers of each player whose captures changed since they were last needed."""
        cache = self._near_cache
        for p in (0, 1):
            if near[p] < 0:
                key = captured[p] << 48 | captured[1 - p]
                found = cache.get(key, -1)
                if found < 0:
                    found = cache[key] = finishers_in(self.finishers, captured[p], captured[1 - p])
                near[p] = found
