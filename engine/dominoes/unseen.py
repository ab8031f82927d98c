"""Dealing the unseen tiles of a partly observed round so that they agree with what was seen.

A slot is one unseen tile of some player (in hand or face down) with the numbers it cannot have: a player
who laid a tile face down on an open 3 held no 3, neither the tile laid nor those kept. Slots are filled
by plain shuffling when that fits (exactly uniform); otherwise slot by slot, the most constrained first,
each with a random tile that leaves the rest fillable (close to uniform, never stuck). Whether the rest is
fillable is Hall's condition: every group of slot kinds together needs no more tiles than fit any of them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.dominoes.tiles import ALL_TILES, NUMBERS, Tile
from engine.errors import InvalidStateError

_SHUFFLES = 12


def assign(forbidden: Sequence[int], tiles: Sequence[Tile], rng: random.Random) -> list[Tile]:
    """One tile for each slot (``forbidden[i]``: a bit per number slot ``i`` cannot show), from ``tiles``;
    the tiles left over go nowhere (they are out of the game)."""
    if len(forbidden) > len(tiles):
        raise InvalidStateError(f"{len(forbidden)} unseen tiles but only {len(tiles)} tiles unaccounted for")
    pool = list(tiles)
    for _ in range(_SHUFFLES):
        rng.shuffle(pool)
        if all(not NUMBERS[t] & f for t, f in zip(pool, forbidden, strict=False)):
            return pool[: len(forbidden)]
    counts = [0] * 28
    for tile in tiles:
        counts[tile] += 1
    demand: dict[int, int] = {}
    for f in forbidden:
        demand[f] = demand.get(f, 0) + 1
    if not fillable(demand, counts):
        raise InvalidStateError("no way to place the unseen tiles agrees with what was seen")
    chosen: list[Tile | None] = [None] * len(forbidden)
    for slot in sorted(range(len(forbidden)), key=lambda i: -forbidden[i].bit_count()):
        f = forbidden[slot]
        demand[f] -= 1
        copies = [t for t in range(28) if not NUMBERS[t] & f for _ in range(counts[t])]
        rng.shuffle(copies)  # a random copy first: each tile as likely as its copies make it
        for t in dict.fromkeys(copies):
            counts[t] -= 1
            if fillable(demand, counts):
                chosen[slot] = ALL_TILES[t]
                break
            counts[t] += 1
    return [tile for tile in chosen if tile is not None]


def fillable(demand: dict[int, int], counts: Sequence[int]) -> bool:
    """Whether ``demand[f]`` slots forbidding numbers ``f`` can all get a tile from ``counts`` (Hall's
    condition, checked over every group of constrained slot kinds)."""
    if sum(demand.values()) > sum(counts):
        return False
    kinds = [(f, n) for f, n in demand.items() if f and n]
    allowed = [sum(1 << t for t in range(28) if counts[t] and not NUMBERS[t] & f) for f, _ in kinds]
    union = [0] * (1 << len(kinds))
    need = [0] * (1 << len(kinds))
    for group in range(1, 1 << len(kinds)):
        low = group & -group
        k = low.bit_length() - 1
        tiles = union[group] = union[group ^ low] | allowed[k]
        need[group] = need[group ^ low] + kinds[k][1]
        if need[group] > sum(counts[t] for t in range(28) if tiles >> t & 1):  # any number of copies a tile
            return False
    return True
