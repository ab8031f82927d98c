"""The 48 hanafuda / hwatu cards: identity, month, kind, ribbon colour, codes and names.

A card is an ``IntEnum`` member numbered 0..47 in Japanese month order, four per month, so
``card // 4`` is its month index and a set of cards fits in a 48-bit integer (see ``cardset``).
"""

from __future__ import annotations

import difflib
import enum
from typing import Final

from engine.errors import InvalidCardError


class Month(enum.IntEnum):
    """Months in Japanese order (willow 11, paulownia 12); ``korean`` gives the hwatu number."""

    PINE = 1
    PLUM = 2
    CHERRY = 3
    WISTERIA = 4
    IRIS = 5
    PEONY = 6
    CLOVER = 7
    PAMPAS = 8
    CHRYSANTHEMUM = 9
    MAPLE = 10
    WILLOW = 11
    PAULOWNIA = 12

    def __repr__(self) -> str:
        return f"Month.{self.name}"

    @property
    def korean(self) -> int:
        """Month number in Korean hwatu order, where willow (rain) is 12 and paulownia 11."""
        return {Month.WILLOW: 12, Month.PAULOWNIA: 11}.get(self, int(self))

    @property
    def plant(self) -> str:
        return self.name.lower()


class Kind(enum.IntEnum):
    """Card kinds, most valuable first (hikari, tane, tanzaku, kasu)."""

    BRIGHT = 0
    ANIMAL = 1
    RIBBON = 2
    PLAIN = 3

    def __repr__(self) -> str:
        return f"Kind.{self.name}"


class Ribbon(enum.IntEnum):
    """Ribbon colours: red with a poem (akatan), blue (aotan), plain red (the rest)."""

    POEM = 0
    BLUE = 1
    RED = 2

    def __repr__(self) -> str:
        return f"Ribbon.{self.name}"


class Card(enum.IntEnum):
    """One physical card. ``Card.parse("pine-crane")``, ``card.code == "pine-crane"``."""

    PINE_CRANE = 0
    PINE_RIBBON = 1
    PINE_PLAIN_1 = 2
    PINE_PLAIN_2 = 3
    PLUM_WARBLER = 4
    PLUM_RIBBON = 5
    PLUM_PLAIN_1 = 6
    PLUM_PLAIN_2 = 7
    CHERRY_CURTAIN = 8
    CHERRY_RIBBON = 9
    CHERRY_PLAIN_1 = 10
    CHERRY_PLAIN_2 = 11
    WISTERIA_CUCKOO = 12
    WISTERIA_RIBBON = 13
    WISTERIA_PLAIN_1 = 14
    WISTERIA_PLAIN_2 = 15
    IRIS_BRIDGE = 16
    IRIS_RIBBON = 17
    IRIS_PLAIN_1 = 18
    IRIS_PLAIN_2 = 19
    PEONY_BUTTERFLIES = 20
    PEONY_RIBBON = 21
    PEONY_PLAIN_1 = 22
    PEONY_PLAIN_2 = 23
    CLOVER_BOAR = 24
    CLOVER_RIBBON = 25
    CLOVER_PLAIN_1 = 26
    CLOVER_PLAIN_2 = 27
    PAMPAS_MOON = 28
    PAMPAS_GEESE = 29
    PAMPAS_PLAIN_1 = 30
    PAMPAS_PLAIN_2 = 31
    CHRYSANTHEMUM_SAKE = 32
    CHRYSANTHEMUM_RIBBON = 33
    CHRYSANTHEMUM_PLAIN_1 = 34
    CHRYSANTHEMUM_PLAIN_2 = 35
    MAPLE_DEER = 36
    MAPLE_RIBBON = 37
    MAPLE_PLAIN_1 = 38
    MAPLE_PLAIN_2 = 39
    WILLOW_RAINMAN = 40
    WILLOW_SWALLOW = 41
    WILLOW_RIBBON = 42
    WILLOW_LIGHTNING = 43
    PAULOWNIA_PHOENIX = 44
    PAULOWNIA_PLAIN_1 = 45
    PAULOWNIA_PLAIN_2 = 46
    PAULOWNIA_PLAIN_3 = 47

    def __repr__(self) -> str:
        return f"Card.{self.name}"

    def __str__(self) -> str:
        return self.code

    @property
    def code(self) -> str:
        return _CODES[self]

    @property
    def month(self) -> Month:
        return Month(self // 4 + 1)

    @property
    def kind(self) -> Kind:
        return _KINDS[self]

    @property
    def ribbon(self) -> Ribbon | None:
        """The ribbon colour of a ribbon card, ``None`` for every other card."""
        return _RIBBONS.get(self)

    @property
    def subject(self) -> str:
        """The part of the code after the plant: ``crane``, ``ribbon``, ``plain-2``..."""
        return self.code.split("-", 1)[1]

    def name_in(self, lang: str = "en") -> str:
        """The card's name in ``en``, ``ja``, ``ko``, ``ru`` or ``uk``."""
        from engine.names import card_name

        return card_name(self, lang)

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)


_CODES: Final = {card: card.name.lower().replace("_", "-") for card in Card}
_BY_CODE: Final = {code: card for card, code in _CODES.items()}

_KINDS: Final = {
    card: (
        Kind.BRIGHT
        if card
        in (Card.PINE_CRANE, Card.CHERRY_CURTAIN, Card.PAMPAS_MOON, Card.WILLOW_RAINMAN, Card.PAULOWNIA_PHOENIX)
        else Kind.RIBBON
        if card.name.endswith("_RIBBON")
        else Kind.PLAIN
        if "_PLAIN_" in card.name or card is Card.WILLOW_LIGHTNING
        else Kind.ANIMAL
    )
    for card in Card
}

_RIBBONS: Final = {
    Card.PINE_RIBBON: Ribbon.POEM,
    Card.PLUM_RIBBON: Ribbon.POEM,
    Card.CHERRY_RIBBON: Ribbon.POEM,
    Card.PEONY_RIBBON: Ribbon.BLUE,
    Card.CHRYSANTHEMUM_RIBBON: Ribbon.BLUE,
    Card.MAPLE_RIBBON: Ribbon.BLUE,
    Card.WISTERIA_RIBBON: Ribbon.RED,
    Card.IRIS_RIBBON: Ribbon.RED,
    Card.CLOVER_RIBBON: Ribbon.RED,
    Card.WILLOW_RIBBON: Ribbon.RED,
}

# Aliases players actually type: the month number or the Japanese/hwatu plant words.
_PLANT_ALIASES: Final = {
    **{str(m.value): m.plant for m in Month},
    "matsu": "pine",
    "ume": "plum",
    "sakura": "cherry",
    "fuji": "wisteria",
    "ayame": "iris",
    "shobu": "iris",
    "botan": "peony",
    "hagi": "clover",
    "bushclover": "clover",
    "bush-clover": "clover",
    "susuki": "pampas",
    "tsuki": "pampas",
    "kiku": "chrysanthemum",
    "momiji": "maple",
    "yanagi": "willow",
    "ame": "willow",
    "rain": "willow",
    "kiri": "paulownia",
}
_SUBJECT_ALIASES: Final = {
    "sun": "crane",
    "bright": None,
    "light": None,
    "hikari": None,
    "animal": None,
    "tane": None,
    "tanzaku": "ribbon",
    "tan": "ribbon",
    "kasu": None,
    "plain": None,
    "bush-warbler": "warbler",
    "nightingale": "warbler",
    "butterfly": "butterflies",
    "rain-man": "rainman",
    "ono": "rainman",
    "phoenix": "phoenix",
    "sake-cup": "sake",
    "cup": "sake",
    "moon": "moon",
    "full-moon": "moon",
    "geese": "geese",
    "goose": "geese",
    "lightning": "lightning",
    "swallow": "swallow",
}
_KIND_WORDS: Final = {
    "bright": Kind.BRIGHT,
    "light": Kind.BRIGHT,
    "hikari": Kind.BRIGHT,
    "animal": Kind.ANIMAL,
    "tane": Kind.ANIMAL,
    "kasu": Kind.PLAIN,
    "plain": Kind.PLAIN,
}


def parse_card(text: str) -> Card:
    """Parse a card code forgivingly (case, ``_`` for ``-``, ``1-crane``, ``kiri-hikari``).

    Raises ``InvalidCardError`` naming the nearest valid codes when the text names no single card.
    """
    norm = text.strip().lower().replace("_", "-").replace(" ", "-")
    if norm in _BY_CODE:
        return _BY_CODE[norm]
    plant, _, subject = norm.partition("-")
    plant = _PLANT_ALIASES.get(plant, plant)
    month = next((m for m in Month if m.plant == plant), None)
    if month is not None:
        candidate = f"{plant}-{subject}"
        if candidate in _BY_CODE:
            return _BY_CODE[candidate]
        alias = _SUBJECT_ALIASES.get(subject, subject)
        if alias is not None and f"{plant}-{alias}" in _BY_CODE:
            return _BY_CODE[f"{plant}-{alias}"]
        if subject in _KIND_WORDS:
            # "kiri-hikari" is unambiguous; "pine-kasu" is not (two plains).
            matches = [c for c in Card if c.month is month and c.kind is _KIND_WORDS[subject]]
            if len(matches) == 1:
                return matches[0]
            if matches:
                raise InvalidCardError(
                    f"ambiguous card code {text!r}: it could be {', '.join(c.code for c in matches)}"
                )
    raise InvalidCardError(f"unknown card code {text!r}{_suggest(norm)}")


def _suggest(norm: str) -> str:
    near = difflib.get_close_matches(norm, list(_BY_CODE), n=3, cutoff=0.5)
    return f"; did you mean {' or '.join(near)}?" if near else "; codes look like pine-crane or maple-plain-1"


def month_cards(month: Month) -> tuple[Card, Card, Card, Card]:
    base = (month - 1) * 4
    return (Card(base), Card(base + 1), Card(base + 2), Card(base + 3))


ALL_CARDS: Final = tuple(Card)
