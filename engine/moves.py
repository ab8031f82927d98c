"""Actions of the fishing (matching) card games: play a hand card, flip the stock, call koi-koi/go, stop,
and the Korean declarations: shake (show three of a month while playing one) and bomb (play three onto the
fourth).

Every action names its cards, so a game can be driven by what a camera saw: ``flip`` says which card
was revealed, ``take`` which field card was chosen when two of the month lie there.
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from engine.cards import Card, parse_card
from engine.errors import InvalidCardError, InvalidMoveError


class MoveKind(enum.IntEnum):
    PLAY = 0
    FLIP = 1
    KOIKOI = 2  # "go" in Korean games
    STOP = 3
    SHAKE = 4  # Go-Stop: play a card while showing the other two of its month in hand
    BOMB = 5  # Go-Stop: play three of a month at once onto the fourth on the field

    def __repr__(self) -> str:
        return f"MoveKind.{self.name}"


class Move(NamedTuple):
    """An action. ``take`` is the field card captured with ``card`` when there is exactly one or a
    choice of two; it is ``None`` when nothing matches or all three of the month are taken."""

    kind: MoveKind
    card: Card | None = None
    take: Card | None = None

    @classmethod
    def play(cls, card: Card, take: Card | None = None) -> Move:
        return cls(MoveKind.PLAY, card, take)

    @classmethod
    def flip(cls, card: Card, take: Card | None = None) -> Move:
        return cls(MoveKind.FLIP, card, take)

    @classmethod
    def koikoi(cls) -> Move:
        return cls(MoveKind.KOIKOI)

    @classmethod
    def go(cls) -> Move:
        """The Korean name of the same call: keep playing for more."""
        return cls(MoveKind.KOIKOI)

    @classmethod
    def shake(cls, card: Card, take: Card | None = None) -> Move:
        return cls(MoveKind.SHAKE, card, take)

    @classmethod
    def bomb(cls, card: Card, take: Card | None = None) -> Move:
        return cls(MoveKind.BOMB, card, take)

    @classmethod
    def stop(cls) -> Move:
        return cls(MoveKind.STOP)

    def __repr__(self) -> str:
        if self.card is None:
            return f"Move.{self.kind.name.lower()}()"
        take = "" if self.take is None else f", take={self.take!r}"
        return f"Move.{self.kind.name.lower()}({self.card!r}{take})"

    def __str__(self) -> str:
        if self.card is None:
            return self.kind.name.lower()
        take = "" if self.take is None else f" take {self.take.code}"
        return f"{self.kind.name.lower()} {self.card.code}{take}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse ``play pine-crane [take pine-plain-1]``, ``flip maple-deer``, ``koikoi``/``go``, ``stop``,
        ``shake pine-crane``, ``bomb pine-crane take pine-plain-1``."""
        words = text.strip().lower().split()
        if not words:
            raise InvalidMoveError("empty move")
        verb, rest = words[0], words[1:]
        if verb in ("koikoi", "koi-koi", "go") and not rest:
            return cls.koikoi()
        if verb == "stop" and not rest:
            return cls.stop()
        if verb not in _CARD_VERBS or len(rest) not in (1, 3) or (len(rest) == 3 and rest[1] != "take"):
            raise InvalidMoveError(
                f"cannot read move {text!r}: write 'play CARD [take CARD]', 'flip CARD [take CARD]', 'koikoi' or 'stop'"
                " (Go-Stop also: 'go', 'shake CARD', 'bomb CARD take CARD')"
            )
        try:
            card = parse_card(rest[0])
            take = parse_card(rest[2]) if len(rest) == 3 else None
        except InvalidCardError as exc:
            raise InvalidMoveError(f"cannot read move {text!r}: {exc}") from exc
        if take is not None and take.month is not card.month:
            raise InvalidMoveError(f"{card.code} cannot take {take.code}: they are of different months")
        return cls(_CARD_VERBS[verb], card, take)


_CARD_VERBS: Final = {"play": MoveKind.PLAY, "flip": MoveKind.FLIP, "shake": MoveKind.SHAKE, "bomb": MoveKind.BOMB}
