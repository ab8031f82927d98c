"""The 50 cards of Kan (Gonin-Kan): a 52-card deck without the 2♣, 2♦ and 2♥, plus one joker.

A card is an ``IntEnum`` numbered ``13 * suit + rank - 2`` and the joker is 52, so the cards of a suit
are one run of 13 bits of a set mask (see ``engine.kan.cardset``) and a higher number is a higher card
within its suit (A K Q J 10 ... 2). The three missing twos leave gaps at 0, 13 and 26.
"""

from __future__ import annotations

import difflib
import enum
from typing import Final

from engine.errors import InvalidCardError


class Suit(enum.IntEnum):
    """Suits in the order of the first-deal trump cycle (clubs, diamonds, hearts), spades last."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    def __str__(self) -> str:
        return self.letter

    @property
    def letter(self) -> str:
        return self.name[0]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """``H``, ``hearts``, ``heart`` or ``♥`` (any case)."""
        word = text.strip().lower()
        suit = _SUIT_WORDS.get(word)
        if suit is None:
            raise InvalidCardError(f"unknown suit {text!r}; write C, D, H or S (or clubs, diamonds, hearts, spades)")
        return suit


class Rank(enum.IntEnum):
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    @property
    def code(self) -> str:
        return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(self, str(int(self)))


class Card(enum.IntEnum):
    """One card. ``Card.parse("10H")``, ``card.code == "10H"``, ``card.points`` (A K Q J score 1)."""

    THREE_OF_CLUBS = 1
    FOUR_OF_CLUBS = 2
    FIVE_OF_CLUBS = 3
    SIX_OF_CLUBS = 4
    SEVEN_OF_CLUBS = 5
    EIGHT_OF_CLUBS = 6
    NINE_OF_CLUBS = 7
    TEN_OF_CLUBS = 8
    JACK_OF_CLUBS = 9
    QUEEN_OF_CLUBS = 10
    KING_OF_CLUBS = 11
    ACE_OF_CLUBS = 12
    THREE_OF_DIAMONDS = 14
    FOUR_OF_DIAMONDS = 15
    FIVE_OF_DIAMONDS = 16
    SIX_OF_DIAMONDS = 17
    SEVEN_OF_DIAMONDS = 18
    EIGHT_OF_DIAMONDS = 19
    NINE_OF_DIAMONDS = 20
    TEN_OF_DIAMONDS = 21
    JACK_OF_DIAMONDS = 22
    QUEEN_OF_DIAMONDS = 23
    KING_OF_DIAMONDS = 24
    ACE_OF_DIAMONDS = 25
    THREE_OF_HEARTS = 27
    FOUR_OF_HEARTS = 28
    FIVE_OF_HEARTS = 29
    SIX_OF_HEARTS = 30
    SEVEN_OF_HEARTS = 31
    EIGHT_OF_HEARTS = 32
    NINE_OF_HEARTS = 33
    TEN_OF_HEARTS = 34
    JACK_OF_HEARTS = 35
    QUEEN_OF_HEARTS = 36
    KING_OF_HEARTS = 37
    ACE_OF_HEARTS = 38
    TWO_OF_SPADES = 39
    THREE_OF_SPADES = 40
    FOUR_OF_SPADES = 41
    FIVE_OF_SPADES = 42
    SIX_OF_SPADES = 43
    SEVEN_OF_SPADES = 44
    EIGHT_OF_SPADES = 45
    NINE_OF_SPADES = 46
    TEN_OF_SPADES = 47
    JACK_OF_SPADES = 48
    QUEEN_OF_SPADES = 49
    KING_OF_SPADES = 50
    ACE_OF_SPADES = 51
    JOKER = 52

    def __repr__(self) -> str:
        return f"Card.{self.name}"

    def __str__(self) -> str:
        return self.code

    @property
    def code(self) -> str:
        return _CODES[self]

    @property
    def is_joker(self) -> bool:
        return self is Card.JOKER

    @property
    def suit(self) -> Suit | None:
        """The suit, ``None`` for the joker."""
        return None if self is Card.JOKER else Suit(self // 13)

    @property
    def rank(self) -> Rank | None:
        return None if self is Card.JOKER else Rank(self % 13 + 2)

    @property
    def points(self) -> int:
        """1 for an ace, king, queen or jack (16 in the deck), else 0."""
        return 1 if self is not Card.JOKER and self % 13 >= 9 else 0

    @property
    def symbol(self) -> str:
        """``Q♦``, ``10♥``, ``🃏``: for screens, not for parsing back (``parse`` accepts it anyway)."""
        if self is Card.JOKER:
            return "🃏"
        return f"{Rank(self % 13 + 2).code}{Suit(self // 13).symbol}"

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    @classmethod
    def of(cls, rank: Rank, suit: Suit) -> Card:
        """The card of a rank and suit; the 2♣, 2♦ and 2♥ are not in the deck."""
        value = 13 * suit + rank - 2
        if value not in _VALUES:
            raise InvalidCardError(f"{rank.code}{suit.letter} is not in the Kan deck ({_MISSING})")
        return cls(value)


_MISSING: Final = "the 2♣, 2♦ and 2♥ are taken out; the 2♠ stays"
_VALUES: Final = frozenset(int(card) for card in Card)
_CODES: Final = {
    card: "JOKER" if card is Card.JOKER else f"{Rank(card % 13 + 2).code}{Suit(card // 13).letter}" for card in Card
}
_BY_CODE: Final = {code: card for card, code in _CODES.items()}
ALL_CARDS: Final = tuple(Card)
BY_VALUE: Final = tuple(Card(v) if v in _VALUES else None for v in range(53))  # mask bit -> card

_SUIT_WORDS: Final = {
    **{s.letter.lower(): s for s in Suit},
    **{s.symbol: s for s in Suit},
    **{s.name.lower(): s for s in Suit},
    **{s.name.lower()[:-1]: s for s in Suit},
    "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES,
}
_RANK_WORDS: Final = {
    **{r.code.lower(): r for r in Rank},
    **{r.name.lower(): r for r in Rank},
    "t": Rank.TEN,
}
_JOKER_WORDS: Final = frozenset({"joker", "jk", "jkr", "jo", "🃏"})


def parse_card(text: str) -> Card:
    """Parse a card forgivingly: ``10H``, ``10h``, ``TH``, ``H10``, ``10♥``, ``ten of hearts``, ``joker``.

    Raises ``InvalidCardError`` naming the nearest valid codes when the text names no card of the deck.
    """
    raw = text.strip()
    norm = raw.lower().replace("_", " ").replace("-", " ")
    words = norm.split()
    if norm.replace(" ", "") in _JOKER_WORDS:
        return Card.JOKER
    compact = norm.replace(" ", "")
    splits = [(compact[:-1], compact[-1:]), (compact[1:], compact[:1])]  # 10H, then H10
    if len(words) == 3 and words[1] == "of":  # "ten of hearts", "q of ♦"
        splits.insert(0, (words[0], words[2]))
    for rank_text, suit_text in splits:
        rank, suit = _RANK_WORDS.get(rank_text), _SUIT_WORDS.get(suit_text)
        if rank is Rank.TWO and suit is not None and suit is not Suit.SPADES:
            raise InvalidCardError(f"{text!r} is not in the Kan deck ({_MISSING}); did you mean 2S or 3{suit.letter}?")
        if rank is not None and suit is not None:
            return Card.of(rank, suit)
    raise InvalidCardError(f"unknown card code {text!r}{_suggest(compact.upper())}")


def _suggest(norm: str) -> str:
    near = difflib.get_close_matches(norm, list(_BY_CODE), n=3, cutoff=0.4)
    if near:
        return f"; did you mean {' or '.join(near)}?"
    return "; codes look like AS, 10H, JC, QD, 2S or JOKER"
