"""What players do in Kan, as values: play a card, say kan / iku / koi, give back a card, show cards,
choose the trump, declare juuroku or gyaku juuroku (or pass), stop the round after a skunk or play on.

Every action parses from and formats to one line of text (``play JOKER H``, ``show another 5H KH``) and
has a repr that evaluates back. A card the speaker could not see is left out (``give``, ``show two``):
a player's view of the table is driven by such actions.
"""

from __future__ import annotations

import enum
from typing import Final, NamedTuple

from engine.errors import InvalidCardError, InvalidMoveError
from engine.kan.cards import Card, Suit, parse_card


class ActionKind(enum.IntEnum):
    PLAY = 0
    KAN = 1  # the holder of the joker or of the pin shows it
    GIVE = 2  # a double holder's partner gives back a card for the pin
    IKU = 3  # "I go": I lead the first trick
    KOI = 4  # "come": you lead
    SHOW = 5  # deals 2 and 3: one partner shows cards to the other, unseen by the rest
    TRUMP = 6
    JUUROKU = 7  # the kankei undertake to take all 16 points
    GYAKU_JUUROKU = 8  # the mukankei undertake the same
    PASS = 9  # no declaration
    STOP = 10  # after a sukonku: end the round now
    CONTINUE = 11  # after a sukonku: play the next deal

    def __repr__(self) -> str:
        return f"ActionKind.{self.name}"

    @property
    def word(self) -> str:
        return self.name.lower().replace("_", "-")


class ShowWay(enum.IntEnum):
    """The five allowed ways of showing cards before the trump is named (``cards``: how many are seen)."""

    TWO = 0  # two cards at once
    ANOTHER = 1  # one card, taken back, then another
    SAME = 2  # one card, taken back, then the same card again
    SINGLE = 3  # a single card
    NONE = 4  # no card at all (rare)

    def __repr__(self) -> str:
        return f"ShowWay.{self.name}"

    @property
    def word(self) -> str:
        return self.name.lower()

    @property
    def cards(self) -> int:
        return (2, 2, 1, 1, 0)[self]


class Action(NamedTuple):
    """One action. ``card``: the card played, shown (first), given or announced; ``other``: the second
    card shown; ``suit``: the suit named with a led joker, or the trump; ``player``: who says kan."""

    kind: ActionKind
    card: Card | None = None
    other: Card | None = None
    suit: Suit | None = None
    way: ShowWay | None = None
    player: int | None = None

    @classmethod
    def play(cls, card: Card, suit: Suit | None = None) -> Action:
        """Play ``card``; leading the joker names the ``suit`` the others must follow."""
        return cls(ActionKind.PLAY, card, suit=suit)

    @classmethod
    def kan(cls, card: Card, player: int) -> Action:
        """Player ``player`` (0-based) shows the joker or the trump ace."""
        return cls(ActionKind.KAN, card, player=player)

    @classmethod
    def give(cls, card: Card | None = None) -> Action:
        """Give back ``card`` for the pin; ``None`` when the card was not seen."""
        return cls(ActionKind.GIVE, card)

    @classmethod
    def iku(cls) -> Action:
        return cls(ActionKind.IKU)

    @classmethod
    def koi(cls) -> Action:
        return cls(ActionKind.KOI)

    @classmethod
    def show(cls, way: ShowWay, card: Card | None = None, other: Card | None = None) -> Action:
        """Show cards the ``way`` says; leave them out when they were not seen. Two cards shown at once
        are kept in card order, so that ``show two 5H KH`` and ``show two KH 5H`` are one action."""
        if other is not None and card is None:
            raise InvalidMoveError("a second card shown needs a first one")
        if card is not None and way.cards == 2 and other == card:
            raise InvalidMoveError(f"'show {way.word}' shows two different cards, not {card.code} twice")
        if way is ShowWay.TWO and card is not None and other is not None and other < card:
            card, other = other, card
        return cls(ActionKind.SHOW, card, other, way=way)

    @classmethod
    def trump(cls, suit: Suit) -> Action:
        return cls(ActionKind.TRUMP, suit=suit)

    @classmethod
    def juuroku(cls) -> Action:
        return cls(ActionKind.JUUROKU)

    @classmethod
    def gyaku_juuroku(cls) -> Action:
        return cls(ActionKind.GYAKU_JUUROKU)

    @classmethod
    def pass_(cls) -> Action:
        return cls(ActionKind.PASS)

    @classmethod
    def stop(cls) -> Action:
        return cls(ActionKind.STOP)

    @classmethod
    def continue_(cls) -> Action:
        return cls(ActionKind.CONTINUE)

    @property
    def shown(self) -> tuple[Card, ...]:
        """The cards a show action names (none when unseen)."""
        return tuple(c for c in (self.card, self.other) if c is not None)

    def __repr__(self) -> str:
        kind = self.kind
        name = {ActionKind.PASS: "pass_", ActionKind.CONTINUE: "continue_"}.get(kind, kind.name.lower())
        if kind is ActionKind.PLAY:
            args = [repr(self.card)] + ([repr(self.suit)] if self.suit is not None else [])
        elif kind is ActionKind.KAN:
            args = [repr(self.card), repr(self.player)]
        elif kind is ActionKind.GIVE:
            args = [repr(self.card)] if self.card is not None else []
        elif kind is ActionKind.SHOW:
            args = [repr(self.way)] + [repr(c) for c in self.shown]
        elif kind is ActionKind.TRUMP:
            args = [repr(self.suit)]
        else:
            args = []
        return f"Action.{name}({', '.join(args)})"

    def __str__(self) -> str:
        kind = self.kind
        words = [kind.word]
        if kind is ActionKind.PLAY:
            words.append(self.card.code if self.card is not None else "?")
            if self.suit is not None:
                words.append(self.suit.letter)
        elif kind is ActionKind.KAN:
            words += [self.card.code if self.card is not None else "?", "by", str((self.player or 0) + 1)]
        elif kind in (ActionKind.GIVE, ActionKind.SHOW):
            if self.way is not None:
                words.append(self.way.word)
            words += [c.code for c in self.shown]
        elif kind is ActionKind.TRUMP and self.suit is not None:
            words.append(self.suit.letter)
        return " ".join(words)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read one action: ``play 10H``, ``play JOKER H``, ``kan JOKER by 3``, ``give 7H``, ``iku``, ``koi``,
        ``show two|another|same|single|none [CARD [CARD]]``, ``trump S``, ``juuroku``, ``gyaku-juuroku``,
        ``pass``, ``stop``, ``continue``. Player numbers are 1-based, as people count."""
        words = text.strip().lower().replace("gyaku juuroku", "gyaku-juuroku").split()
        if not words:
            raise InvalidMoveError("empty action")
        verb, rest = words[0], words[1:]
        try:
            if verb in _BARE and not rest:
                return cls(_BARE[verb])
            if verb == "play" and len(rest) in (1, 2):
                return cls.play(parse_card(rest[0]), Suit.parse(rest[1]) if len(rest) == 2 else None)
            if verb == "kan" and len(rest) == 3 and rest[1] == "by":
                return cls.kan(parse_card(rest[0]), _player(rest[2]))
            if verb == "give" and len(rest) <= 1:
                return cls.give(parse_card(rest[0]) if rest else None)
            if verb == "trump" and len(rest) == 1:
                return cls.trump(Suit.parse(rest[0]))
            if verb == "show" and rest and rest[0] in _WAYS:
                way = _WAYS[rest[0]]
                cards = [parse_card(word) for word in rest[1:]]
                if len(cards) not in (0, way.cards):
                    raise InvalidMoveError(
                        f"'show {way.word}' names {way.cards} card(s) or none (unseen), not {len(cards)}"
                    )
                return cls.show(way, *cards)
        except InvalidCardError as exc:
            raise InvalidMoveError(f"cannot read action {text!r}: {exc}") from exc
        raise InvalidMoveError(f"cannot read action {text!r}: {_USAGE}")


def _player(word: str) -> int:
    if not word.isdigit() or not 1 <= int(word) <= 5:
        raise InvalidMoveError(f"players are numbered 1 to 5, not {word!r}")
    return int(word) - 1


_BARE: Final = {
    kind.word: kind
    for kind in (
        ActionKind.IKU, ActionKind.KOI, ActionKind.JUUROKU, ActionKind.GYAKU_JUUROKU, ActionKind.PASS,
        ActionKind.STOP, ActionKind.CONTINUE,
    )
}
_WAYS: Final = {way.word: way for way in ShowWay}
_USAGE: Final = (
    "write 'play CARD [SUIT]', 'kan CARD by N', 'give [CARD]', 'iku', 'koi', 'show two|another|same|single|none "
    "[CARDS]', 'trump SUIT', 'juuroku', 'gyaku-juuroku', 'pass', 'stop' or 'continue'"
)
