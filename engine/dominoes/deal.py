"""A domino deal: the chance event that starts a round, given explicitly (what the camera saw, hands partly
hidden) or shuffled from a seed. Tiles not in any hand stay out of the game, face down (Jie Long for three
players leaves two).

Seats are numbered in turn order: player ``p + 1`` plays after player ``p``. The games go
counter-clockwise, so at the table number the players counter-clockwise (the next player sits on the
right).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.dominoes.tiles import Tile
from engine.dominoes.tileset import DECKS, UNIT, TileSet, add_masks, tiles_of
from engine.errors import InvalidStateError


@dataclass(frozen=True)
class DominoDeal:
    """``hands[p]`` are the known tiles of player ``p``; ``hidden[p]`` counts their unseen ones."""

    hands: tuple[TileSet, ...]
    hidden: tuple[int, ...] = ()
    deck: str = "chinese"

    def __post_init__(self) -> None:
        if len(self.hands) < 2:
            raise InvalidStateError(f"a deal needs at least 2 hands, not {len(self.hands)}")
        if self.deck not in DECKS:
            raise InvalidStateError(f"unknown tile set {self.deck!r}; sets: {', '.join(DECKS)}")
        if not self.hidden:
            object.__setattr__(self, "hidden", (0,) * len(self.hands))
        if len(self.hidden) != len(self.hands) or min(self.hidden) < 0:
            raise InvalidStateError("hidden must give a non-negative count for every hand")
        sizes = {len(hand) + hidden for hand, hidden in zip(self.hands, self.hidden, strict=True)}
        if len(sizes) != 1 or 0 in sizes:
            shown = ", ".join(str(len(h) + n) for h, n in zip(self.hands, self.hidden, strict=True))
            raise InvalidStateError(f"every hand must be dealt the same number of tiles, not {shown}")
        dealt = [0] * 28
        for p, hand in enumerate(self.hands):
            for tile in hand.distinct():
                dealt[tile] += hand.count(tile)
                if dealt[tile] > self.set.count(tile):
                    have = self.set.count(tile)
                    raise InvalidStateError(
                        f"{tile.code} dealt too often (again to player {p + 1}); the {self.deck} set has {have}"
                    )
        if self.hand_size * len(self.hands) > len(self.set):
            raise InvalidStateError(
                f"{len(self.hands)} hands of {self.hand_size} need more than the {len(self.set)} {self.deck} tiles"
            )

    @property
    def set(self) -> TileSet:
        return DECKS[self.deck]

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def hand_size(self) -> int:
        return len(self.hands[0]) + self.hidden[0]

    @property
    def unused(self) -> int:
        """How many tiles of the set stay out of the game."""
        return len(self.set) - self.hand_size * self.players

    @property
    def unknown(self) -> TileSet:
        """Tiles whose place the deal does not say: in a hidden hand or out of the game."""
        known = 0
        for hand in self.hands:
            known = add_masks(known, hand.mask)
        return TileSet(self.set.mask - known)

    @classmethod
    def parse(cls, hands: Sequence[str], deck: str = "chinese") -> DominoDeal:
        """A deal typed in: each hand as tile codes (``"1:3 6:6 ..."``)."""
        return cls(tuple(TileSet.parse(hand) for hand in hands), (), deck)

    @classmethod
    def shuffled(cls, seed: int | random.Random, players: int, hand_size: int, deck: str = "chinese") -> DominoDeal:
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        if deck not in DECKS:
            raise InvalidStateError(f"unknown tile set {deck!r}; sets: {', '.join(DECKS)}")
        tiles = _DECK_TILES[deck]
        if players * hand_size > len(tiles):
            raise InvalidStateError(f"{players} hands of {hand_size} need more than the {len(tiles)} {deck} tiles")
        keys = [rng.random() for _ in tiles]  # a sort on random keys: faster than shuffle()
        shuffled = [tiles[i] for i in sorted(range(len(tiles)), key=keys.__getitem__)]
        masks = [sum(UNIT[t] for t in shuffled[p * hand_size : (p + 1) * hand_size]) for p in range(players)]
        # Valid by construction: skip the checks of an explicit deal (this is the simulator's hot path).
        deal = object.__new__(cls)
        object.__setattr__(deal, "hands", tuple(TileSet(mask) for mask in masks))
        object.__setattr__(deal, "hidden", (0,) * players)
        object.__setattr__(deal, "deck", deck)
        return deal


_DECK_TILES: Final = {name: tiles_of(tiles.mask) for name, tiles in DECKS.items()}


def leader_by_lot(drawn: Sequence[Tile]) -> int | None:
    """Who leads after each player drew a tile: the most pips; ``None`` when the most is drawn twice (draw again)."""
    pips = [tile.pips for tile in drawn]
    best = max(pips)
    return pips.index(best) if pips.count(best) == 1 else None


def draw_for_leader(rng: random.Random, players: int, deck: str = "chinese") -> int:
    """The first leader by lot: each player draws a tile from the shuffled set, drawing again on a tie."""
    tiles = _DECK_TILES[deck]
    while True:
        leader = leader_by_lot(rng.sample(tiles, players))
        if leader is not None:
            return leader

