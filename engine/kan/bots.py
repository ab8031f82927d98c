"""A greedy Kan bot: one trick ahead, using only what its player knows (own hand, the table, the partners
once they are shown). The random bot is ``engine.bots.RandomBot``."""

from __future__ import annotations

from engine.kan.actions import Action, ShowWay
from engine.kan.cards import BY_VALUE, Card, Suit
from engine.kan.cardset import JOKER_BIT, POINT_MASK, SUIT_MASKS, cards_of
from engine.kan.deal import KanDeal
from engine.kan.table import Phase, Side
from engine.kan.tricks import winning_index


class GreedyBot:
    """Wins tricks worth points as cheaply as it can, gives its partner points, saves the joker for a
    trick worth two points or more. Talk: the pin's holder leads (it says iku, the joker's holder koi)."""

    name = "greedy"

    def choose(self, state: KanDeal) -> Action:
        phase = state.phase
        if phase is Phase.PLAY:
            return self._play(state)
        if phase is Phase.CALL:
            return Action.iku() if state.turn == state.talk.ace_partner else Action.koi()
        if phase is Phase.GIVE:
            cards = [m.card for m in state.generate_legal_moves() if m.card is not None]
            return Action.give(min(cards, key=lambda c: _cost(c, state.trump)))
        if phase is Phase.SHOW:
            return _show_best_suit(state)
        if phase is Phase.TRUMP:
            return Action.trump(_best_trump(state))
        if phase is Phase.DECLARE:
            return _declare(state)
        if phase is Phase.DECIDE:
            return Action.stop()  # a bird in the hand
        return state.generate_legal_moves()[0]  # kan: forced

    def _play(self, state: KanDeal) -> Action:
        p, trick, trump = state.turn, state.trick, state.trump
        assert trump is not None
        mask = state.playable_mask(p)
        options = cards_of(mask & ~JOKER_BIT)
        if not options or mask == JOKER_BIT:
            return Action.play(Card.JOKER, _named_suit(state) if not trick else None)
        if not trick:
            return Action.play(_lead(options, trump))
        led = state.led
        assert led is not None
        winner = state.lead
        for _ in range(winning_index(trick, led, trump)):
            winner = state.right[winner]
        points = sum(c.points for c in trick)
        mine = state.side(p)
        if mine is not None and state.side(winner) is mine:  # partner is winning: give them points
            return Action.play(max(options, key=lambda c: (c.points, c // 13 != trump, -(c % 13))))
        beating = [c for c in options if winning_index((*trick, c), led, trump) == len(trick)]
        if points and beating:
            following = [c for c in beating if c // 13 == led]
            return Action.play(max(following) if following else min(beating, key=lambda c: _cost(c, trump)))
        if points >= 2 and mask & JOKER_BIT:
            return Action.play(Card.JOKER)
        losing = [c for c in options if c not in beating] or options
        return Action.play(min(losing, key=lambda c: _cost(c, trump)))


def _cost(card: Card, trump: Suit | None) -> tuple[int, int, int]:
    """How much a card is worth keeping: trumps most, then point cards, then rank."""
    return (card // 13 == trump, card.points, card % 13)


def _lead(options: list[Card], trump: Suit) -> Card:
    """An ace of a side suit (likely to win a point), else the cheapest card."""
    aces = [c for c in options if c % 13 == 12 and c // 13 != trump]
    return aces[0] if aces else min(options, key=lambda c: _cost(c, trump))


def _named_suit(state: KanDeal) -> Suit:
    """Leading the joker: name the suit the bot holds least of (the others must spend theirs)."""
    hand = state.hands[state.turn]
    return min(Suit, key=lambda s: ((hand & SUIT_MASKS[s]).bit_count(), s == state.trump))


def _strength(hand: int, suit: int) -> int:
    cards = hand & SUIT_MASKS[suit]
    return 2 * cards.bit_count() + (cards & POINT_MASK).bit_count()


def _show_best_suit(state: KanDeal) -> Action:
    """Show the two highest cards of the longest suit at once (a single card when it is alone)."""
    hand = state.hands[state.turn]
    suit = max(Suit, key=lambda s: _strength(hand, s))
    cards = [BY_VALUE[v] for v in range(52, -1, -1) if hand >> v & 1 and v // 13 == suit]
    if len(cards) >= 2:
        return Action.show(ShowWay.TWO, cards[0], cards[1])
    if cards:
        return Action.show(ShowWay.SINGLE, cards[0])
    return Action.show(ShowWay.NONE)


def _best_trump(state: KanDeal) -> Suit:
    """The suit of the namer's hand and the partner's shown cards that holds the most."""
    hand = state.hands[state.turn]
    showing = state.talk.showing
    shown = [c for c in showing.cards if c is not Card.JOKER] if showing is not None else []
    return max(Suit, key=lambda s: _strength(hand, s) + 3 * sum(1 for c in shown if c // 13 == s))


def _declare(state: KanDeal) -> Action:
    """Juuroku only with the joker and seven trumps in hand; never gyaku juuroku."""
    hand, trump = state.hands[state.turn], state.trump
    assert trump is not None
    kankei = state.talk.declare_step == 0 and state.side(state.turn) is Side.KANKEI
    if kankei and hand & JOKER_BIT and (hand & SUIT_MASKS[trump]).bit_count() >= 7:
        return Action.juuroku()
    return Action.pass_()

