"""The domino face of ``kibitz settle``: a deal settled from each player's pips or face-down tiles, as the
JSON-ready dict the command prints. Players are numbered from 1, the first player of the deal first."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.dominoes.profile import DominoProfile
from engine.dominoes.settle import Settlement, needs_counts, settle, settle_eight_doubles
from engine.dominoes.tileset import DECKS, TileSet, add_masks, count_of, tiles_of
from engine.errors import KibitzError


def settle_report(
    profile: DominoProfile, pips: Sequence[int] | None = None, hands: Sequence[TileSet] | None = None,
    counts: Sequence[int] | None = None, eight_doubles: int | None = None, deck: str | None = None,
) -> dict[str, Any]:
    """Settle from ``pips`` (with ``counts``: the tiles each player did not lay, which Ce Deng needs) or from
    ``hands`` (each player's face-down and leftover tiles). ``eight_doubles`` (0-based) names a player dealt
    eight doubles: then the pips or hands are the whole hands dealt."""
    if (pips is None) == (hands is None):
        raise KibitzError("give either each player's pips or each player's tiles (--hands), not both")
    players = len(pips if pips is not None else hands)  # type: ignore[arg-type]
    size, own_deck = profile.deal_for(players)
    deck = deck or own_deck
    if hands is not None:
        if counts is not None:
            raise KibitzError("--counts goes with pips; with --hands the tiles are counted")
        _check_hands(hands, deck, size)
        pips, counts = [hand.pips for hand in hands], [len(hand) for hand in hands]
    assert pips is not None
    if eight_doubles is None and counts is None and needs_counts(profile):
        raise KibitzError(f"{profile.game} needs the tiles each player did not lay: give --counts N,N,... or --hands")
    if eight_doubles is None:
        result = settle(pips, profile, counts)
    else:
        result = _eight_doubles(profile, pips, hands, eight_doubles)
    report = as_json(result, profile)
    if hands is not None:
        report["set"] = deck
    return report


def _eight_doubles(
    profile: DominoProfile, pips: Sequence[int], hands: Sequence[TileSet] | None, winner: int
) -> Settlement:
    if profile.eight_doubles != "win":
        raise KibitzError(f"{profile.game} has no eight-doubles rule")
    if not 0 <= winner < len(pips):
        raise KibitzError(f"--eight-doubles names a player 1 to {len(pips)}, not {winner + 1}")
    if hands is not None and hands[winner].doubles < 8:
        shown = hands[winner]
        raise KibitzError(f"player {winner + 1}'s tiles {shown} hold {shown.doubles} doubles, not eight")
    return settle_eight_doubles(pips, winner, profile)


def _check_hands(hands: Sequence[TileSet], deck: str, size: int) -> None:
    if deck not in DECKS:
        raise KibitzError(f"unknown tile set {deck!r}; sets: {', '.join(DECKS)}")
    tiles = DECKS[deck]
    together = 0
    for p, hand in enumerate(hands):
        if len(hand) > size:
            raise KibitzError(f"player {p + 1} has {len(hand)} tiles; a hand holds {size}")
        for tile in hand.distinct():
            if tile not in tiles:
                raise KibitzError(f"{tile.code} (player {p + 1}) is not in the {deck} set")
        together = add_masks(together, hand.mask)
    for tile in tiles_of(together):
        if count_of(together, tile) > tiles.count(tile):
            given, have = count_of(together, tile), tiles.count(tile)
            raise KibitzError(f"{tile.code} is given {given} times; the {deck} set has {have}")


def as_json(result: Settlement, profile: DominoProfile) -> dict[str, Any]:
    n = len(result.pips)
    return {
        "game": profile.game,
        "profile": profile.name,
        "variants": list(profile.variants),
        "reason": result.reason,
        "pips": list(result.pips),
        "tiles_not_laid": None if result.unplayed is None else list(result.unplayed),
        "multipliers": [
            {"receives": result.receives[p], "pays": result.pays[p], "why": list(result.flags[p])} for p in range(n)
        ],
        "winner": None if result.winner is None else result.winner + 1,
        "payments": [
            {"payer": pay.payer + 1, "payee": pay.payee + 1, "amount": pay.amount, "multiplier": pay.multiplier,
             "reasons": list(pay.reasons)}
            for pay in result.payments
        ],
        "net": list(result.net),
    }
