"""Which actions the rules allow in a Kan deal, and why an action is not allowed (one error, saying why).

Functions of a ``KanDeal``, kept apart from the state so that the state reads as what happens and this
module as what may happen. Hands this state cannot see allow actions that name unseen cards, or leave
them out (``give``, ``show two``): that is how a player's view is driven.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from engine.errors import IllegalMoveError, InvalidMoveError, KibitzError
from engine.kan.actions import Action, ActionKind, ShowWay
from engine.kan.cards import Card, Suit
from engine.kan.cardset import JOKER_BIT, cards_of
from engine.kan.hands import PLAYERS
from engine.kan.table import Phase
from engine.kan.tricks import TRICKS

if TYPE_CHECKING:
    from engine.kan.deal import KanDeal

_EXPECTED: Final = {
    Phase.ANNOUNCE: (ActionKind.KAN,),
    Phase.GIVE: (ActionKind.GIVE,),
    Phase.CALL: (ActionKind.IKU, ActionKind.KOI),
    Phase.SHOW: (ActionKind.SHOW,),
    Phase.TRUMP: (ActionKind.TRUMP,),
    Phase.DECLARE: (ActionKind.JUUROKU, ActionKind.GYAKU_JUUROKU, ActionKind.PASS),
    Phase.PLAY: (ActionKind.PLAY,),
    Phase.DECIDE: (ActionKind.STOP, ActionKind.CONTINUE),
}
_FIELDS: Final = ("card", "other", "suit", "way", "player")
_USED: Final = {
    ActionKind.PLAY: ("card", "suit"),
    ActionKind.KAN: ("card", "player"),
    ActionKind.GIVE: ("card",),
    ActionKind.SHOW: ("card", "other", "way"),
    ActionKind.TRUMP: ("suit",),
}
_UNUSED: Final = {kind: tuple(f for f in _FIELDS if f not in _USED.get(kind, ())) for kind in ActionKind}
_DOING: Final = {
    Phase.ANNOUNCE: "say kan, showing the {card}",
    Phase.GIVE: "give back a card for the pin",
    Phase.CALL: "say iku or koi",
    Phase.SHOW: "show cards to their partner",
    Phase.TRUMP: "name the trump",
    Phase.DECLARE: "declare or pass",
    Phase.PLAY: "play a card",
    Phase.DECIDE: "stop the round or continue",
}


def talk_actions(deal: KanDeal) -> list[Action]:
    """The legal actions of every phase but play (``KanDeal.generate_legal_moves`` lists plays itself)."""
    phase = deal.phase
    if phase is Phase.ANNOUNCE:
        card = deal.announcing()
        return [Action.kan(card, p) for p in range(PLAYERS) if deal.could_hold(p, card)]
    if phase is Phase.GIVE:
        gives = [Action.give(c) for c in _source_cards(deal) if c != deal.pin]
        return gives + _unseen(deal, Action.give())
    if phase is Phase.CALL:
        return [Action.iku(), Action.koi()]
    if phase is Phase.SHOW:
        return _show_actions(deal)
    if phase is Phase.TRUMP:
        return [Action.trump(s) for s in Suit]
    if phase is Phase.DECLARE:
        declare = Action.juuroku() if deal.talk.declare_step == 0 else Action.gyaku_juuroku()
        return [declare, Action.pass_()]
    if phase is Phase.DECIDE:
        return [Action.stop(), Action.continue_()]
    return []


def _source_cards(deal: KanDeal) -> list[Card]:
    """Cards the mover might show or give: their known cards, and the unknown ones if some are unseen."""
    mask = deal.hands[deal.turn] | (deal.unknown().mask if deal.hidden[deal.turn] else 0)
    return cards_of(mask)


def _unseen(deal: KanDeal, action: Action) -> list[Action]:
    """``action`` with its cards left out: legal where this state cannot see the mover's hand."""
    return [action] if deal.hidden[deal.turn] else []


def _show_actions(deal: KanDeal) -> list[Action]:
    cards = _source_cards(deal)
    actions = [Action.show(ShowWay.NONE)]
    for i, card in enumerate(cards):
        actions += [Action.show(ShowWay.SINGLE, card), Action.show(ShowWay.SAME, card)]
        actions += [Action.show(ShowWay.TWO, card, other) for other in cards[i + 1 :]]
        actions += [Action.show(ShowWay.ANOTHER, card, other) for other in cards if other != card]
    for way in (ShowWay.TWO, ShowWay.ANOTHER, ShowWay.SAME, ShowWay.SINGLE):
        actions += _unseen(deal, Action.show(way))
    return actions


def illegal_reason(deal: KanDeal, action: Action) -> KibitzError | None:
    """``None`` for a legal action, else the error that ``KanDeal.push`` would raise."""
    phase = deal.phase
    if phase is Phase.OVER:
        return IllegalMoveError("the deal is over")
    if not isinstance(action, Action) or not isinstance(action.kind, ActionKind):
        return IllegalMoveError(f"{action!r} is not a Kan action")
    who = "the player to move" if deal.turn < 0 else f"player {deal.turn + 1}"
    if action.kind not in _EXPECTED[phase]:
        doing = _DOING[phase].format(card=deal.announcing().code if phase is Phase.ANNOUNCE else "")
        return IllegalMoveError(f"it is {who}'s turn to {doing}, not to {action.kind.word}")
    stray = [name for name in _UNUSED[action.kind] if getattr(action, name) is not None]
    if stray:
        return InvalidMoveError(f"a {action.kind.word} action takes no {' or '.join(stray)}")
    if phase is Phase.PLAY:
        return _play_reason(deal, action, who)
    if phase is Phase.ANNOUNCE:
        return _kan_reason(deal, action)
    if phase is Phase.GIVE:
        return _give_reason(deal, action, who)
    if phase is Phase.SHOW:
        return _show_reason(deal, action, who)
    if phase is Phase.TRUMP and action.suit is None:
        return IllegalMoveError("name the trump suit: trump C, D, H or S")
    if phase is Phase.DECLARE:
        wanted = ActionKind.JUUROKU if deal.talk.declare_step == 0 else ActionKind.GYAKU_JUUROKU
        if action.kind not in (wanted, ActionKind.PASS):
            side = "the kankei" if wanted is ActionKind.JUUROKU else "the mukankei"
            return IllegalMoveError(f"it is {side}' turn to declare: {wanted.word} or pass")
    return None


def _play_reason(deal: KanDeal, action: Action, who: str) -> KibitzError | None:
    card, p = action.card, deal.turn
    if not isinstance(card, Card):
        return IllegalMoveError("play needs a card")
    if not deal.could_hold(p, card):
        return IllegalMoveError(f"{who} cannot play {card.code}: it is {deal.where(card)}")
    if card is Card.JOKER and not deal.trick:
        if action.suit is None:
            return IllegalMoveError("whoever leads the joker names the suit to follow: play JOKER C, D, H or S")
    elif action.suit is not None:
        return IllegalMoveError("only a led joker names a suit")
    if deal.playable_mask(p) >> card & 1:
        return None
    n = len(deal.tricks)
    if card is Card.JOKER:
        return IllegalMoveError(f"the joker may not be played to the {'first' if n == 0 else 'last'} trick")
    if n == TRICKS - 2 and deal.hands[p] & JOKER_BIT:
        return IllegalMoveError(f"{who} must play the joker now: it may not be played to the last trick")
    led = deal.led
    assert led is not None
    return IllegalMoveError(f"{who} must follow suit ({led.symbol}) and cannot play {card.code}")


def _kan_reason(deal: KanDeal, action: Action) -> KibitzError | None:
    card, player = deal.announcing(), action.player
    if action.card != card:
        return IllegalMoveError(f"kan is said for the joker first, then for the pin; now for the {card.code}")
    if player is None or not 0 <= player < PLAYERS:
        return IllegalMoveError("say who says kan: kan CARD by N")
    if not deal.could_hold(player, card):
        return IllegalMoveError(f"player {player + 1} cannot show the {card.code}: it is {deal.where(card)}")
    return None


def _give_reason(deal: KanDeal, action: Action, who: str) -> KibitzError | None:
    card = action.card
    if card is None:
        return None if deal.hidden[deal.turn] else IllegalMoveError("say which card is given back: give CARD")
    if card == deal.pin:
        return IllegalMoveError("the pin stays with the partner: give back another card")
    if not deal.could_hold(deal.turn, card):
        return IllegalMoveError(f"{who} cannot give back {card.code}: it is {deal.where(card)}")
    return None


def _show_reason(deal: KanDeal, action: Action, who: str) -> KibitzError | None:
    way, shown = action.way, action.shown
    if way is None:
        return IllegalMoveError("say how the cards are shown: show two|another|same|single|none")
    if not shown and way.cards:
        if deal.hidden[deal.turn]:
            return None  # not seen by this state
        return IllegalMoveError(f"say which card(s) are shown: show {way.word} CARD")
    if len(shown) != way.cards:
        return IllegalMoveError(f"'show {way.word}' shows {way.cards} card(s), not {len(shown)}")
    for card in shown:
        if not deal.could_hold(deal.turn, card):
            return IllegalMoveError(f"{who} cannot show {card.code}: it is {deal.where(card)}")
    return None
