"""The fitted play-out policy's move features and weights: which hand card a play-out plays.

A hand card's score is a weighted sum of 30 features of playing it (what it captures, worth to each side,
whether it completes or denies a yaku, the kind of card laid and how many of its month are unseen,
scaled by how far the round has run). The weights (``playouts.toml``) are learnt in two steps: fitted by
``python -m datasets.hints.distil`` to the moves the 100-world search picked with the hand-tuned play-outs,
so the play-outs play more like the search itself (expert iteration, one step), then moved by
``python -m datasets.hints.tune`` so that the play-out policy played alone wins more against the greedy bot.

``move_features`` is the readable definition, used by the fit; ``FittedTables`` is the same sum laid out
in per-card tables for the play-outs' hot loop (a test checks they agree).
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Final

from engine.cards import ALL_CARDS, Kind
from engine.cardset import FULL, MONTH_MASK_BY_CARD, cards_of

FEATURES: Final = (
    # a capture (of the set G: the card played and what it takes)
    "c_vm", "c_vt",  # worth of G to the player, and to the opponent
    "c_fin", "c_deny",  # G completes one of the player's yaku; G holds a card the opponent needs to complete one
    "c_safe_vm", "c_safe_vt",  # the two worths again when nobody else can take that month any more
    "cap", "cap3",  # any capture; taking three at once
    "c_held",  # another card of the month stays in hand
    "c_nB", "c_nA", "c_nR",  # brights, animals, ribbons in G
    # a card laid on the field (worths times the chance the opponent can match it, by unseen cards of the month)
    "l_vm", "l_vt", "l_fin",  # its worth to the player and to the opponent; it would complete the opponent's yaku
    "l_u0", "l_u1", "l_u2", "l_u3",  # how many of its month are unseen
    "l_held",  # another card of the month stays in hand
    "l_B", "l_A", "l_R",  # the laid card is a bright, an animal, a ribbon
    # the same scaled by the share of the hand left (8 cards: 1)
    "t_c_vm", "t_c_vt", "t_cap", "t_l_vm", "t_l_vt",
    "c_u1", "c_u2",  # a capture with one or two cards of the month still unseen
)
LAY_RISK: Final = (0.2, 0.6, 0.85, 1.0)  # share of a laid card's cost by how many of its month are unseen
_KIND: Final = tuple({Kind.BRIGHT: 0, Kind.ANIMAL: 1, Kind.RIBBON: 2, Kind.PLAIN: 3}[c.kind] for c in ALL_CARDS)
HAND: Final = 8  # a full Koi-Koi hand: the hand share is hand size / 8


@functools.cache
def load_weights() -> tuple[float, ...]:
    """The shipped weights, in ``FEATURES`` order."""
    return parse_weights(resources.files("engine.koikoi").joinpath("playouts.toml").read_text(encoding="utf-8"))


def parse_weights(text: str, source: str = "playouts.toml") -> tuple[float, ...]:
    """The ``[weights]`` table of a weights file's text, in ``FEATURES`` order."""
    table = tomllib.loads(text).get("weights", {})
    missing = [name for name in FEATURES if name not in table]
    if missing:
        raise ValueError(f"{source} lacks weights for {missing}")
    return tuple(float(table[name]) for name in FEATURES)


def move_features(hand: int, field: int, mine: int, theirs: int, values: Sequence[Sequence[float]],
                  near: Sequence[int], card: int, got: int) -> list[float]:
    """The features of playing ``card`` from ``hand`` and taking ``got`` (a mask; 0 lays it).

    ``values``: the worth of each card to the player and to the opponent; ``near``: each one's finishers.
    """
    vm, vt = values
    unseen = FULL & ~(hand | field | mine | theirs)
    month = MONTH_MASK_BY_CARD[card]
    low = 1 << card
    held = float(bool(hand & month & ~low))
    share = hand.bit_count() / HAND
    u = (unseen & month).bit_count()
    f = [0.0] * len(FEATURES)
    if got:
        taken = got | low
        f[0] = sum(vm[c] for c in cards_of(taken))
        f[1] = sum(vt[c] for c in cards_of(taken))
        f[2], f[3] = float(bool(taken & near[0])), float(bool(taken & near[1]))
        if not u:
            f[4], f[5] = f[0], f[1]
        f[6], f[7], f[8] = 1.0, float(got.bit_count() == 3), held
        for c in cards_of(taken):
            if _KIND[c] < 3:
                f[9 + _KIND[c]] += 1
        f[23], f[24], f[25] = f[0] * share, f[1] * share, share
        if u:
            f[27 + u] = 1.0
    else:
        risk = LAY_RISK[u]
        f[12], f[13], f[14] = vm[card] * risk, vt[card] * risk, float(bool(near[1] & low)) * risk
        f[15 + u], f[19] = 1.0, held
        if _KIND[card] < 3:
            f[20 + _KIND[card]] = 1.0
        f[26], f[27] = f[12] * share, f[13] * share
    return f


@dataclass(frozen=True)
class FittedTables:
    """The weighted sum of ``move_features`` for one player, spread over tables by hand size (0 up to 8):
    ``capture[h][c]`` (a month still open) and ``safe[h][c]`` (nobody else can take it) per card in G,
    ``lay[h][u][c]`` per laid card by unseen cards of its month, ``base[h]`` per capture."""

    capture: tuple[tuple[float, ...], ...]
    safe: tuple[tuple[float, ...], ...]
    lay: tuple[tuple[tuple[float, ...], ...], ...]
    base: tuple[float, ...]
    three: float  # cap3
    held: float  # c_held
    finish: float  # c_fin
    deny: float  # c_deny
    open_one: float  # c_u1
    open_two: float  # c_u2
    lay_finish: float  # l_fin
    lay_held: float  # l_held

    @classmethod
    def build(cls, vm: Sequence[float], vt: Sequence[float], weights: Sequence[float], most: int = HAND
              ) -> FittedTables:
        """The tables for hands of up to ``most`` cards (hands only shrink: a search needs none bigger)."""
        w = dict(zip(FEATURES, weights, strict=True))
        kind_c = [(w["c_nB"], w["c_nA"], w["c_nR"], 0.0)[k] for k in _KIND]
        kind_l = [(w["l_B"], w["l_A"], w["l_R"], 0.0)[k] for k in _KIND]
        pairs = list(zip(vm, vt, kind_c, kind_l, strict=True))
        capture, safe, lay, base = [], [], [], []
        for h in range(most + 1):
            t = h / HAND
            a, b = w["c_vm"] + t * w["t_c_vm"], w["c_vt"] + t * w["t_c_vt"]
            sa, sb = a + w["c_safe_vm"], b + w["c_safe_vt"]
            la, lb = w["l_vm"] + t * w["t_l_vm"], w["l_vt"] + t * w["t_l_vt"]
            capture.append(tuple(a * m + b * o + k for m, o, k, _ in pairs))
            safe.append(tuple(sa * m + sb * o + k for m, o, k, _ in pairs))
            worth = [(la * m + lb * o, k) for m, o, _, k in pairs]
            lay.append(tuple(tuple(LAY_RISK[u] * x + w[f"l_u{u}"] + k for x, k in worth) for u in range(4)))
            base.append(w["cap"] + t * w["t_cap"])
        return cls(tuple(capture), tuple(safe), tuple(lay), tuple(base), w["cap3"], w["c_held"], w["c_fin"],
                   w["c_deny"], w["c_u1"], w["c_u2"], w["l_fin"], w["l_held"])
