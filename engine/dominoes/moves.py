"""The two actions of the joining games: lay a tile on an open end of the line, or lay one face down.

``end`` is the number a played tile leaves open: for the leader in the one-arm game it names the open end
(the other is closed), in the two-arm game it says which end the tile went on (the one it does not leave
open). ``None`` lets the round fill it in where only one is possible. A face-down tile may be ``None``:
a camera sees that a tile went face down, not which.
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from engine.dominoes.tiles import Tile, parse_tile
from engine.errors import InvalidCardError, InvalidMoveError


class MoveKind(enum.IntEnum):
    PLAY = 0
    DOWN = 1

    def __repr__(self) -> str:
        return f"MoveKind.{self.name}"


class DominoMove(NamedTuple):
    kind: MoveKind
    tile: Tile | None = None
    end: int | None = None

    @classmethod
    def play(cls, tile: Tile, end: int | None = None) -> DominoMove:
        return cls(MoveKind.PLAY, tile, end)

    @classmethod
    def down(cls, tile: Tile | None = None) -> DominoMove:
        return cls(MoveKind.DOWN, tile)

    def __repr__(self) -> str:
        if self.kind is MoveKind.DOWN:
            return "DominoMove.down()" if self.tile is None else f"DominoMove.down({self.tile!r})"
        end = "" if self.end is None else f", end={self.end}"
        return f"DominoMove.play({self.tile!r}{end})"

    def __str__(self) -> str:
        if self.kind is MoveKind.DOWN:
            return f"down {'?' if self.tile is None else self.tile.code}"
        tile = "?" if self.tile is None else self.tile.code
        return f"play {tile}" if self.end is None else f"play {tile} open {self.end}"

    @classmethod
    def parse(cls, text: str) -> DominoMove:
        """Parse ``play 3:5``, ``play 3:5 open 5`` (same as ``play 3:5 on 3``), ``3:5``, ``down 6:6``, ``down``."""
        words = text.strip().lower().split()
        if not words:
            raise InvalidMoveError("empty move")
        if words[0] not in _VERBS:
            words = ["play", *words]
        verb, rest = words[0], words[1:]
        try:
            if verb == "down":
                if len(rest) > 1:
                    raise InvalidMoveError(f"cannot read move {text!r}: write 'down TILE' or 'down'")
                return cls.down(None if not rest or rest[0] == "?" else parse_tile(rest[0]))
            if len(rest) not in (1, 3) or (len(rest) == 3 and rest[1] not in ("open", "on")):
                raise InvalidMoveError(f"cannot read move {text!r}: write 'play TILE [open N]' or 'play TILE on N'")
            tile = parse_tile(rest[0])
            if len(rest) == 1:
                return cls.play(tile)
            if not rest[2].isdigit() or not tile.has(int(rest[2])):
                raise InvalidMoveError(f"{tile.code} has no end {rest[2]!r}")
            number = int(rest[2])
            return cls.play(tile, number if rest[1] == "open" else tile.other(number))
        except InvalidCardError as exc:
            raise InvalidMoveError(f"cannot read move {text!r}: {exc}") from exc


_VERBS: Final = ("play", "down")
