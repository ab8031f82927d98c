"""Kan hints: every legal action ranked by sampled expected value, each with a one-line reason.

The unseen cards are dealt again and again in ways that agree with what the player knows (their hand, the
cards played, the suits a player failed to follow, the joker and pin shown with kan, cards shown or given
to them: ``KanDeal.view`` and ``sample_world``); each candidate is played in every sampled world and the
deal is finished by greedy bots in all seats (``engine.montecarlo``). The value is the points the player's
side takes in the deal (0 to 16); a declaration (juuroku, gyaku juuroku) and the stop-or-continue choice
after a sukonku are valued in ledger points instead, since that is what they change.

Reasons say what a card does to the trick, with its odds over sampled worlds: the chance that the trick
stays with the player's side whatever the opponents after them hold ("holds"), and for a lead the chance
that every opponent after them can follow the suit (nobody trumps in or throws away). They are ``Reason``
values (a key and its cards, suit and numbers); the companion renders them in the five languages.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from engine.kan.actions import Action, ActionKind, ShowWay
from engine.kan.bots import GreedyBot
from engine.kan.cards import Card, Suit
from engine.kan.cardset import JOKER_BIT, POINT_MASK, SUIT_MASKS, cards_of
from engine.kan.deal import KanDeal
from engine.kan.hands import Hands
from engine.kan.ledger import DealOutcome, Declaration, kankei_win
from engine.kan.profile import KanProfile
from engine.kan.table import DealSetup, Phase, Side
from engine.kan.tricks import playable, winning_index
from engine.montecarlo import SampledSearch

_BOT: Final = GreedyBot()
_LEDGER_PHASES: Final = (Phase.DECLARE, Phase.DECIDE)
ODDS_WORLDS: Final = 32


@dataclass(frozen=True)
class Reason:
    """Why an action: a message ``key`` with its ``cards``, ``suit`` and ``numbers`` (odds are 0..1)."""

    key: str
    cards: tuple[Card, ...] = ()
    suit: Suit | None = None
    numbers: tuple[float, ...] = ()


@dataclass
class KanHints:
    """A running search over the candidates and the reason for each; ``unit`` says what the values are."""

    search: SampledSearch[KanDeal, Action]
    reasons: dict[Action, Reason]
    unit: str  # "points" (the side's points in the deal) or "ledger" (ledger points a player)

    def best(self) -> Action:
        return self.search.ranked()[0].move


# ----------------------------------------------------------------- candidates and the search
def candidates(state: KanDeal) -> list[Action]:
    """The actions worth weighing: every legal one, but for showing cards only the two highest cards of
    each suit (one when alone) shown at once, and nothing (what the partner can name trump from)."""
    if state.phase is not Phase.SHOW:
        return state.generate_legal_moves()
    return show_shortlist(state.hands[state.turn])


def show_shortlist(hand: int) -> list[Action]:
    out = []
    for suit in Suit:
        top = sorted(cards_of(hand & SUIT_MASKS[suit]), reverse=True)[:2]
        if len(top) == 2:
            out.append(Action.show(ShowWay.TWO, top[0], top[1]))
        elif top:
            out.append(Action.show(ShowWay.SINGLE, top[0]))
    return [*out, Action.show(ShowWay.NONE)]


def hints(state: KanDeal, player: int, seed: int = 0, odds_worlds: int = ODDS_WORLDS) -> KanHints:
    """A search over ``player``'s candidate actions (it must be their turn), seeing only what they see."""
    view = state.view(player)
    if view.turn != player or view.is_over:
        raise ValueError(f"it is not player {player + 1}'s turn to act")
    moves = candidates(view)
    unit = "ledger" if view.phase in _LEDGER_PHASES else "points"
    search = SampledSearch(
        moves, functools.partial(sample_world, view), functools.partial(play_out, player, unit == "ledger"), seed
    )
    rng = random.Random(seed)
    worlds = [view.sample_world(rng) for _ in range(odds_worlds)] if view.phase is Phase.PLAY else []
    return KanHints(search, {m: reason(view, player, m, worlds) for m in moves}, unit)


def sample_world(view: KanDeal, rng: random.Random) -> KanDeal:
    """A full deal consistent with ``view`` (picklable as a ``functools.partial``)."""
    return view.sample_world(rng)


def play_out(player: int, ledger: bool, world: KanDeal, move: Action, rng: random.Random) -> float:
    """``player``'s payoff after ``move`` and greedy play by everybody to the end of the deal."""
    world.push(move, check=False)
    if move.kind is ActionKind.CONTINUE:
        return _next_deal_value(world, player, rng)
    if move.kind is ActionKind.STOP:
        return 0.0
    while world.phase not in (Phase.DECIDE, Phase.OVER):
        world.push(_BOT.choose(world), check=False)
    outcome = world.outcome()
    if ledger:
        return player_amount(deal_amount(outcome, world.number, world.profile), world.side(player), world.profile)
    return float(outcome.kankei_points if world.side(player) is Side.KANKEI else 16 - outcome.kankei_points)


def _next_deal_value(world: KanDeal, player: int, rng: random.Random) -> float:
    """Continuing after a sukonku: one more deal with the same partners, shuffled and played greedily."""
    talk, profile = world.talk, world.profile
    setup = DealSetup(world.number + 1, None, talk.order, talk.joker_partner, talk.ace_partner)
    nxt = KanDeal(Hands.shuffled(rng, 0, talk.order), setup, profile)
    while nxt.phase not in (Phase.DECIDE, Phase.OVER):
        nxt.push(_BOT.choose(nxt), check=False)
    outcome = nxt.outcome()
    amount = deal_amount(outcome, nxt.number, profile)
    if nxt.number == profile.max_deals and kankei_win(outcome, profile.win_points):
        amount += profile.ledger.all_three  # the deals before it were won, or there would be no choice
    return player_amount(amount, world.side(player), profile)


def deal_amount(outcome: DealOutcome, number: int, profile: KanProfile) -> int:
    """One deal's ledger lines for each kankei player, as ``engine.kan.ledger`` adds them, without what
    depends on the rest of the round (a failed gyaku juuroku's doubling of the round total, all three)."""
    table, declared = profile.ledger, outcome.declaration
    per_deal = number if table.per_deal == "deal-number" else 1
    won = kankei_win(outcome, profile.win_points)
    amount = table.deal_won if won else table.deal_lost
    if outcome.sukonku and (declared is not Declaration.JUUROKU or table.skunk_with_declaration):
        amount += table.sukonku
    if outcome.gyaku_sukonku and (declared is not Declaration.GYAKU_JUUROKU or table.skunk_with_declaration):
        amount += table.gyaku_sukonku_first_deal if number == 1 else table.gyaku_sukonku_later * per_deal
    if declared is Declaration.JUUROKU:
        amount += table.juuroku_made if outcome.sukonku else table.juuroku_failed
    elif declared is Declaration.GYAKU_JUUROKU:
        amount += table.gyaku_juuroku_made * per_deal if outcome.gyaku_sukonku else table.gyaku_juuroku_failed
    return amount


def player_amount(kankei_amount: int, side: Side | None, profile: KanProfile) -> float:
    """What one player of ``side`` gets when each kankei player gets ``kankei_amount``."""
    if side is Side.KANKEI:
        return float(kankei_amount)
    share = Fraction(-2, 3) if profile.balance == "share" else Fraction(-1)
    return float(kankei_amount * share)


# ----------------------------------------------------------------- trick odds
@dataclass(frozen=True)
class TrickOdds:
    """Over sampled worlds: ``holds`` the trick stays with the player's side whatever the opponents after
    them hold; ``follow`` every opponent after them holds the suit to follow."""

    holds: float
    follow: float


def trick_odds(view: KanDeal, player: int, action: Action, worlds: list[KanDeal]) -> TrickOdds:
    """The odds of playing ``action`` (a play, now, by ``player``) over ``worlds``."""
    card, trump = action.card, view.trump
    assert card is not None and trump is not None and worlds
    trick = (*view.trick, card)
    led = view.led if view.trick else action.suit if card is Card.JOKER else card.suit
    assert led is not None
    leader = view.lead if view.trick else player
    order = [leader]
    while len(order) < 5:
        order.append(view.right[order[-1]])
    best = trick[winning_index(trick, led, trump)]
    mine = view.side(player)
    ours = view.side(order[trick.index(best)]) is mine
    later = [q for q in order[len(trick):] if view.side(q) is not mine]
    top = _beaters(best, led, trump)
    n = len(view.tricks)
    holds = follow = 0
    for world in worlds:
        legal = [playable(world.hands[q], 0, led, n) for q in later]
        holds += ours and not any(mask & top for mask in legal)
        follow += all(world.hands[q] & SUIT_MASKS[led] for q in later)
    return TrickOdds(holds / len(worlds), follow / len(worlds))


def _beaters(best: Card, led: Suit, trump: Suit) -> int:
    """The cards that would take a trick ``best`` is winning (``led`` suit, ``trump``)."""
    if best is Card.JOKER:
        return 0
    suit = best // 13
    higher = SUIT_MASKS[suit] & ~((1 << (best + 1)) - 1)
    return JOKER_BIT | higher | (SUIT_MASKS[trump] if suit != trump else 0)


# ----------------------------------------------------------------- reasons
def reason(view: KanDeal, player: int, action: Action, worlds: list[KanDeal]) -> Reason:
    """Why ``action`` (by ``player``, to move in ``view``), from the rules and the position."""
    if action.kind is ActionKind.PLAY:
        return _play_reason(view, player, action, worlds)
    return _talk_reason(view, player, action)


def _play_reason(view: KanDeal, player: int, action: Action, worlds: list[KanDeal]) -> Reason:
    card, trump, trick = action.card, view.trump, view.trick
    assert card is not None and trump is not None
    points = sum(c.points for c in trick) + card.points
    if card is Card.JOKER:
        if not trick:
            return Reason("joker_lead", (card,), action.suit)
        return Reason("joker_takes", (card,), view.led, (points,))
    odds = trick_odds(view, player, action, worlds) if worlds else TrickOdds(0.0, 0.0)
    if not trick:
        key = "lead_trump" if card.suit is trump else "lead"
        return Reason(key, (card,), card.suit, (odds.holds, odds.follow))
    led = view.led
    assert led is not None
    best = winning_index(trick, led, trump)
    beats = winning_index((*trick, card), led, trump) == len(trick)
    winner = view.lead
    for _ in range(best):
        winner = view.right[winner]
    if view.side(winner) is view.side(player) and not beats:
        return Reason("partner_points" if card.points else "partner_low", (card, trick[best]), led, (points,))
    if beats:
        key = "beat_follow" if card.suit is led else "trump_in"
        return Reason(key, (card,), led, (odds.holds, points))
    if card.suit is led:
        return Reason("follow_low", (card, trick[best]), led, (points,))
    return Reason("discard_point" if card.points else "discard", (card,), led, (points,))


def _talk_reason(view: KanDeal, player: int, action: Action) -> Reason:
    kind, hand, profile = action.kind, view.hands[player], view.profile
    table = profile.ledger
    if kind is ActionKind.KAN:
        return Reason("kan", (action.card,) if action.card is not None else ())
    if kind in (ActionKind.IKU, ActionKind.KOI):
        return Reason(kind.word)
    if kind is ActionKind.GIVE:
        card = action.card
        left = (hand & SUIT_MASKS[card.suit]).bit_count() - 1 if card is not None and card.suit is not None else 0
        return Reason("give", (card,) if card is not None else (), card.suit if card is not None else None, (left,))
    if kind is ActionKind.SHOW:
        if not action.shown:
            return Reason("show_none")
        suit = action.shown[0].suit
        held = (hand & SUIT_MASKS[suit]).bit_count() if suit is not None else 0
        return Reason("show", action.shown, suit, (held, (hand & POINT_MASK).bit_count()))
    if kind is ActionKind.TRUMP:
        assert action.suit is not None
        showing = view.talk.showing
        shown = sum(1 for c in showing.cards if c.suit is action.suit) if showing is not None else 0
        held = hand & SUIT_MASKS[action.suit]
        return Reason("trump", tuple(cards_of(held & POINT_MASK)), action.suit, (held.bit_count(), shown))
    if kind is ActionKind.JUUROKU:
        return Reason("juuroku", numbers=(table.juuroku_made, table.juuroku_failed))
    if kind is ActionKind.GYAKU_JUUROKU:
        made = table.gyaku_juuroku_made * (view.number if table.per_deal == "deal-number" else 1)
        return Reason("gyaku_juuroku", numbers=(-made, -table.gyaku_juuroku_failed))
    if kind is ActionKind.PASS:
        return Reason("pass", numbers=(table.deal_won,))
    if kind is ActionKind.STOP:
        return Reason("stop", numbers=(view.number,))
    return Reason("continue", numbers=(view.number + 1,))


# ----------------------------------------------------------------- a bot that follows the hints
class HintBot:
    """Plays the hints' best action after ``samples`` sampled worlds (greedy where nothing is weighed)."""

    name = "hints"

    def __init__(self, samples: int = 8, seed: int = 0) -> None:
        self.samples = samples
        self.rng = random.Random(seed)

    def choose(self, state: KanDeal) -> Action:
        if state.phase is Phase.ANNOUNCE or len(candidates(state)) == 1:
            return _BOT.choose(state)
        found = hints(state, state.turn, self.rng.getrandbits(32), odds_worlds=0)
        found.search.add_samples(self.samples)
        return found.best()
