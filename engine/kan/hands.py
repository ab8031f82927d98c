"""The chance event of a Kan deal: ten cards to each of five players, explicit or shuffled from a seed.

A hand may be partly unknown (``hidden`` counts its face-down cards), so that a deal can start from what
one player sees at the table.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.errors import InvalidCardError, InvalidStateError
from engine.kan.cards import ALL_CARDS, parse_card
from engine.kan.cardset import FULL, CardSet, cards_of

PLAYERS = 5
HAND_SIZE = 10
SEATS = tuple(range(PLAYERS))


@dataclass(frozen=True)
class Hands:
    """``hands[p]`` is player ``p``'s hand (its known cards); ``hidden[p]`` how many more it holds."""

    hands: tuple[CardSet, ...]
    hidden: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if len(self.hands) != PLAYERS:
            raise InvalidStateError(f"Kan is dealt to {PLAYERS} players, not {len(self.hands)}")
        if not self.hidden:
            object.__setattr__(self, "hidden", (0,) * PLAYERS)
        if len(self.hidden) != PLAYERS or min(self.hidden) < 0:
            raise InvalidStateError("hidden must give a non-negative count for every hand")
        seen = 0
        for p, hand in enumerate(self.hands):
            if seen & hand.mask:
                twice = " ".join(c.code for c in cards_of(seen & hand.mask))
                raise InvalidStateError(f"{twice} dealt twice (again to player {p + 1})")
            seen |= hand.mask
            if len(hand) + self.hidden[p] != HAND_SIZE:
                raise InvalidStateError(f"player {p + 1} holds {len(hand) + self.hidden[p]} cards, not {HAND_SIZE}")

    @classmethod
    def shuffled(cls, seed: int | random.Random, dealer: int = 0, order: Sequence[int] = SEATS) -> Hands:
        """Shuffle and deal one card at a time, starting with the player on the dealer's right (the next in
        turn ``order``) and ending with the dealer."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        if sorted(order) != list(SEATS) or dealer not in order:
            raise InvalidStateError(f"order must seat players 1..{PLAYERS} once each, with the dealer among them")
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        start = list(order).index(dealer) + 1
        masks = [0] * PLAYERS
        for i, card in enumerate(deck):
            masks[order[(start + i) % PLAYERS]] |= 1 << card
        return cls(tuple(CardSet(m) for m in masks))

    @classmethod
    def arrange(cls, fixed: Mapping[int, str], seed: int | random.Random | None = None) -> Hands:
        """Hands where player ``p`` holds the cards ``fixed[p]`` names (``{0: "JOKER AC"}``); the other cards
        fill the hands up to ten, in card order or shuffled with ``seed``. For tests, lessons and set-ups."""
        masks = [0] * PLAYERS
        for p, codes in fixed.items():
            if p not in SEATS:
                raise InvalidStateError(f"players are 0..{PLAYERS - 1} in code, not {p}")
            try:
                masks[p] = CardSet.parse(codes).mask
            except InvalidCardError as exc:
                raise InvalidStateError(f"cannot read player {p + 1}'s cards: {exc}") from exc
        used = 0
        for p, mask in enumerate(masks):
            if used & mask or mask.bit_count() > HAND_SIZE:
                raise InvalidStateError(f"player {p + 1}'s cards are dealt twice or more than {HAND_SIZE}")
            used |= mask
        rest = cards_of(FULL & ~used)
        if seed is not None:
            (seed if isinstance(seed, random.Random) else random.Random(seed)).shuffle(rest)
        for p in SEATS:
            while masks[p].bit_count() < HAND_SIZE:
                masks[p] |= 1 << rest.pop(0)
        return cls(tuple(CardSet(m) for m in masks))

    @classmethod
    def parse(cls, text: str) -> Hands:
        """Five hands separated by ``/``; ``?`` stands for a card not seen: ``"AS KS ... / ? ? ... / ..."``."""
        parts = text.split("/")
        if len(parts) != PLAYERS:
            raise InvalidStateError(f"write {PLAYERS} hands separated by '/', not {len(parts)}")
        hands, hidden = [], []
        for part in parts:
            words = part.replace(",", " ").split()
            try:
                hands.append(CardSet(parse_card(w) for w in words if w != "?"))
            except InvalidCardError as exc:
                raise InvalidStateError(f"cannot read hands {text!r}: {exc}") from exc
            hidden.append(words.count("?"))
        return cls(tuple(hands), tuple(hidden))

    @property
    def unknown(self) -> CardSet:
        """Cards this deal does not place (they are in the hidden parts of hands)."""
        known = 0
        for hand in self.hands:
            known |= hand.mask
        return CardSet(FULL & ~known)

    def seen_by(self, player: int) -> Hands:
        """The same deal as ``player`` sees it: their own hand, ten face-down cards in every other."""
        return Hands(
            tuple(h if p == player else CardSet() for p, h in enumerate(self.hands)),
            tuple(0 if p == player else HAND_SIZE for p in SEATS),
        )

    def __str__(self) -> str:
        return " / ".join(" ".join([*h.codes(), *["?"] * n]) for h, n in zip(self.hands, self.hidden, strict=True))
