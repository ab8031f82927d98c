"""One deal of Kan as a state you push actions onto: the talk before play, ten tricks, and the result.

Deal 1 of a round: the holders of the joker and of the pin (the trump ace) say kan, showing it; a double
holder's partner (two seats to the right) gets the pin and gives back a card; partners sitting side by
side are moved apart; the partners say iku or koi to settle who leads. Deals 2 and 3: one partner shows
cards, the other names the trump and leads. From deal 2 the kankei may declare juuroku, then the mukankei
gyaku juuroku. After a sukonku the kankei may stop the round.

State lives in a few ints and tuples; ``push`` saves a snapshot tuple and ``pop`` restores it. Hidden
information (``view``, ``sample_world``) is in ``engine.kan.hidden``.
"""

from __future__ import annotations

import random
from typing import Any, Final

from engine.errors import IllegalMoveError, InvalidStateError, KibitzError
from engine.history import History
from engine.kan import legality
from engine.kan.actions import Action, ActionKind
from engine.kan.cards import BY_VALUE, Card, Rank, Suit
from engine.kan.cardset import FULL, JOKER_BIT, POINT_MASK, SUIT_MASKS, CardSet, cards_of
from engine.kan.hands import PLAYERS, Hands
from engine.kan.ledger import DealOutcome, Declaration, kankei_win
from engine.kan.profile import KanProfile
from engine.kan.table import (
    DealResult,
    DealSetup,
    Phase,
    Showing,
    Side,
    Talk,
    right_of,
    seat_rule,
)
from engine.kan.tricks import TRICKS, Trick, playable, winning_index

_DEFAULT_PROFILE: Final = KanProfile()
_PLAYS: Final = tuple(Action.play(c) if c is not None else None for c in BY_VALUE)
_JOKER_LEADS: Final = tuple(Action.play(Card.JOKER, s) for s in Suit)
_JOKER_VOID: Final = 1 << 4  # in ``voids``: the player surely does not hold the joker
_PLAYING: Final = Phase.PLAY
class KanDeal(History[Action]):
    """``KanDeal(Hands.shuffled(7))``, then ``push(action)`` until ``is_over``; ``result`` says who won."""

    hands: tuple[int, ...]
    hidden: tuple[int, ...]
    won: tuple[int, ...]
    phase: Phase
    turn: int
    lead: int
    trick: tuple[Card, ...]
    led: Suit | None
    tricks: tuple[Trick, ...]
    voids: tuple[int, ...]
    trump: Suit | None
    right: tuple[int, ...]
    talk: Talk
    result: DealResult | None

    def __init__(self, hands: Hands, setup: DealSetup | None = None, profile: KanProfile | None = None) -> None:
        self.profile = profile or _DEFAULT_PROFILE
        self.setup = setup = setup or DealSetup()
        self.number = setup.number
        self.hands = tuple(h.mask for h in hands.hands)
        self.hidden = hands.hidden
        self.won = (0,) * PLAYERS
        self.lead = -1
        self.trick = ()
        self.led = None
        self.tricks = ()
        self.voids = (0,) * PLAYERS
        self.trump = setup.trump
        self.right = right_of(setup.order)
        self.result = None
        self._start_history()
        first = setup.number == 1
        self.talk = Talk(
            joker_holder=self.holder(Card.JOKER) if first else -1,
            ace_holder=self.holder(self.pin) if first else -1,
            announced=0,
            joker_partner=setup.joker_partner,
            ace_partner=setup.ace_partner,
            words=(),
            showing=None,
            declaration=Declaration.NONE,
            declare_step=0,
            seat_change=None,
            order=setup.order,
            public=(0,) * PLAYERS,
            private=(),
        )
        if first:
            self.phase, self.turn = Phase.ANNOUNCE, self.talk.joker_holder
        elif setup.trump is None:
            self.phase, self.turn = Phase.SHOW, setup.shower
        else:
            self._lead_known(setup.namer)

    @classmethod
    def shuffled(
        cls,
        seed: int | random.Random,
        setup: DealSetup | None = None,
        profile: KanProfile | None = None,
        dealer: int = 0,
    ) -> KanDeal:
        setup = setup or DealSetup()
        return cls(Hands.shuffled(seed, dealer, setup.order), setup, profile)

    # ----------------------------------------------------------------- snapshots and push/pop
    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self.hands, self.hidden, self.won, self.phase, self.turn, self.lead, self.trick, self.led, self.tricks,
            self.voids, self.trump, self.right, self.talk, self.result,
        )

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (
            self.hands, self.hidden, self.won, self.phase, self.turn, self.lead, self.trick, self.led, self.tricks,
            self.voids, self.trump, self.right, self.talk, self.result,
        ) = snap

    def push(self, action: Action, check: bool = True) -> None:
        """Apply an action. With ``check`` (the default) an impossible action raises an error saying why."""
        if check:
            reason = self.illegal_reason(action)
            if reason is not None:
                raise reason
        self._remember(action)
        if action.kind is ActionKind.PLAY:
            self._play(action.card, action.suit)  # type: ignore[arg-type]
        else:
            self._talk(action)


    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def pin(self) -> Card:
        """The trump ace of the first deal (whose holder is a partner)."""
        if self.setup.trump is None:
            raise InvalidStateError("only the first deal of a round has a pin")
        return Card.of(Rank.ACE, self.setup.trump)

    @property
    def order(self) -> tuple[int, ...]:
        """Players in turn order from seat 0 (after any seat change)."""
        return self.talk.order

    @property
    def kankei(self) -> tuple[int, int] | None:
        """The partners (joker's, pin's) when this state can tell, else ``None``."""
        talk = self.talk
        if talk.joker_partner >= 0:
            return talk.joker_partner, talk.ace_partner
        j, a = talk.joker_holder, talk.ace_holder
        if j < 0 or a < 0:
            return None
        return (j, self.right[self.right[j]]) if j == a else (j, a)

    def side(self, player: int) -> Side | None:
        """``player``'s side, ``None`` while this state cannot tell (a view before the kan announcements)."""
        kankei = self.kankei
        if kankei is not None:
            return Side.KANKEI if player in kankei else Side.MUKANKEI
        return Side.KANKEI if player in (self.talk.joker_holder, self.talk.ace_holder) else None

    def hand(self, player: int) -> CardSet:
        """The known cards of a hand (``hidden[player]`` more are unknown to this state)."""
        return CardSet(self.hands[player])

    def hand_size(self, player: int) -> int:
        return self.hands[player].bit_count() + self.hidden[player]

    def taken(self, player: int) -> CardSet:
        """The cards of the tricks ``player`` won."""
        return CardSet(self.won[player])

    def points(self, player: int) -> int:
        return (self.won[player] & POINT_MASK).bit_count()

    def side_points(self) -> tuple[int, int] | None:
        """Points taken so far by (kankei, mukankei), once the partnership is known."""
        kankei = self.kankei
        if kankei is None:
            return None
        mine = sum(self.points(p) for p in kankei)
        return mine, sum(self.points(p) for p in range(PLAYERS)) - mine

    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played."""
        return len(self.tricks) + 1

    def unknown(self) -> CardSet:
        """Cards whose place this state does not know (in the hidden parts of hands)."""
        return CardSet(self._unknown_mask())

    def _unknown_mask(self) -> int:
        known = 0
        for mask in self.hands:
            known |= mask
        for mask in self.won:
            known |= mask
        for card in self.trick:
            known |= 1 << card
        return FULL & ~known

    def holder(self, card: Card) -> int:
        """Whose known cards hold ``card`` (-1: nobody's, as far as this state knows)."""
        bit = 1 << card
        return next((p for p in range(PLAYERS) if self.hands[p] & bit), -1)

    def void_cards(self, player: int) -> int:
        """A mask of the cards ``player`` is known not to hold: suits they failed to follow, the joker when
        they did not play it to the ninth trick."""
        voids = self.voids[player]
        mask = JOKER_BIT if voids & _JOKER_VOID else 0
        for suit in range(4):
            if voids >> suit & 1:
                mask |= SUIT_MASKS[suit]
        return mask

    def could_hold(self, player: int, card: Card) -> bool:
        """Whether ``card`` is in ``player``'s hand or may be among its unseen cards."""
        bit = 1 << card
        if self.hands[player] & bit:
            return True
        return bool(self.hidden[player] and self._unknown_mask() & bit & ~self.void_cards(player))

    def where(self, card: Card) -> str:
        """Where a card is, in words, for error messages."""
        bit = 1 << card
        for p in range(PLAYERS):
            if self.hands[p] & bit:
                return f"in player {p + 1}'s hand"
            if self.won[p] & bit:
                return f"in a trick player {p + 1} won"
        if card in self.trick:
            return "on the table"
        return "not seen yet"

    # ----------------------------------------------------------------- legality
    def playable_mask(self, player: int) -> int:
        """The cards ``player`` may play now (a raw mask; unseen cards count when the hand is hidden)."""
        possible = self._unknown_mask() & ~self.void_cards(player) if self.hidden[player] else 0
        return playable(self.hands[player], possible, self.led, len(self.tricks))

    def generate_legal_moves(self) -> list[Action]:
        if self.phase is _PLAYING:
            mask = self.playable_mask(self.turn)
            moves = [_PLAYS[c] for c in cards_of(mask & ~JOKER_BIT)]
            if mask & JOKER_BIT:
                moves += list(_JOKER_LEADS) if not self.trick else [_PLAYS[Card.JOKER]]
            return moves  # type: ignore[return-value]
        return legality.talk_actions(self)

    def announcing(self) -> Card:
        """The card kan is said for next: the joker, then the pin."""
        return Card.JOKER if self.talk.announced == 0 else self.pin

    def random_move(self, rng: random.Random) -> Action:
        """A random legal action without listing them all in play (the hot path of random playouts)."""
        if self.phase is _PLAYING:
            mask = self.playable_mask(self.turn)
            for _ in range(int(rng.random() * mask.bit_count())):
                mask &= mask - 1
            low = mask & -mask
            if low == JOKER_BIT and not self.trick:
                return _JOKER_LEADS[int(rng.random() * 4)]
            return _PLAYS[low.bit_length() - 1]  # type: ignore[return-value]
        moves = self.generate_legal_moves()
        if not moves:
            raise IllegalMoveError("the deal is over")
        return moves[int(rng.random() * len(moves))]

    def illegal_reason(self, action: Action) -> KibitzError | None:
        """``None`` for a legal action, else the error that ``push`` would raise."""
        return legality.illegal_reason(self, action)

    # ----------------------------------------------------------------- applying actions
    def _take(self, player: int, card: int) -> None:
        """Take ``card`` out of ``player``'s hand (out of its unseen part when this state did not know it)."""
        bit = 1 << card
        hand = self.hands[player]
        if hand & bit:
            self.hands = _replace(self.hands, player, hand ^ bit)
        else:
            self.hidden = _replace(self.hidden, player, self.hidden[player] - 1)

    def _put(self, player: int, card: int) -> None:
        self.hands = _replace(self.hands, player, self.hands[player] | 1 << card)

    def _reveal(self, player: int, card: int) -> None:
        """``card`` was seen in ``player``'s hand: it becomes one of its known cards."""
        if not self.hands[player] >> card & 1:
            self._take(player, card)
            self._put(player, card)

    def _play(self, card: Card, suit: Suit | None) -> None:
        p = self.turn
        self._take(p, card)
        n = len(self.tricks)
        if n == TRICKS - 2 and card != Card.JOKER:
            self.voids = _replace(self.voids, p, self.voids[p] | _JOKER_VOID)
        trick = self.trick
        if not trick:
            self.lead = p
            self.led = suit if card == Card.JOKER else Suit(card // 13)
        elif card != Card.JOKER and card // 13 != self.led:
            self.voids = _replace(self.voids, p, self.voids[p] | 1 << self.led)  # type: ignore[operator]
        trick = (*trick, card)
        if len(trick) < PLAYERS:
            self.trick = trick
            self.turn = self.right[p]
            return
        led, trump = self.led, self.trump
        assert led is not None and trump is not None
        winner = self.lead
        for _ in range(winning_index(trick, led, trump)):
            winner = self.right[winner]
        mask = 0
        for c in trick:
            mask |= 1 << c
        self.won = _replace(self.won, winner, self.won[winner] | mask)
        self.tricks = (*self.tricks, Trick(self.lead, trick, led, winner))
        self.trick = ()
        self.led = None
        self.turn = winner
        if n + 1 == TRICKS:
            self._play_over()

    def _talk(self, action: Action) -> None:
        kind, talk = action.kind, self.talk
        if kind is ActionKind.KAN:
            self._announce(action.card, action.player)  # type: ignore[arg-type]
        elif kind is ActionKind.GIVE:
            self._give_back(action.card)
        elif kind in (ActionKind.IKU, ActionKind.KOI):
            self._call(kind)
        elif kind is ActionKind.SHOW:
            cards, to = action.shown, self.setup.namer
            for card in cards:  # a shown card is surely in the shower's hand
                self._reveal(self.turn, card)
            facts = (*talk.private, (to, self.turn, _mask(cards)))
            self.talk = talk._replace(showing=Showing(action.way, cards, self.turn, to), private=facts)  # type: ignore[arg-type]
            self.phase, self.turn = Phase.TRUMP, to
        elif kind is ActionKind.TRUMP:
            self.trump = action.suit
            self._lead_known(self.turn)
        elif kind is ActionKind.PASS:
            if talk.declare_step == 0:
                self.talk = talk._replace(declare_step=1)
                self.turn = self._representative(Side.MUKANKEI)
            else:
                self._start_play()
        elif kind in (ActionKind.JUUROKU, ActionKind.GYAKU_JUUROKU):
            declared = Declaration.JUUROKU if kind is ActionKind.JUUROKU else Declaration.GYAKU_JUUROKU
            self.talk = talk._replace(declaration=declared)
            self._start_play()
        elif kind in (ActionKind.STOP, ActionKind.CONTINUE):
            self._finish(stopped=kind is ActionKind.STOP)

    def _announce(self, card: Card, player: int) -> None:
        talk = self.talk
        self._reveal(player, card)
        public = _replace(talk.public, player, talk.public[player] | 1 << card)
        if talk.announced == 0:
            ace = talk.ace_holder if talk.ace_holder >= 0 else self.holder(self.pin)
            self.talk = talk._replace(joker_holder=player, ace_holder=ace, announced=1, public=public)
            self.turn = ace
            return
        self.talk = talk = talk._replace(ace_holder=player, announced=2, public=public)
        if talk.joker_holder == player:  # one player holds both: the pin goes face down to the partner
            partner = self.right[self.right[player]]
            self._take(player, self.pin)
            self._put(partner, self.pin)
            public = _replace(talk.public, player, talk.public[player] & ~(1 << self.pin))
            public = _replace(public, partner, public[partner] | 1 << self.pin)
            self.talk = talk._replace(joker_partner=player, ace_partner=partner, public=public)
            self.phase, self.turn = Phase.GIVE, partner
            return
        partners = (talk.joker_holder, player)
        order, change = seat_rule(talk.order, partners) if self.profile.seat_rule else (talk.order, None)
        self.right = right_of(order)
        self.talk = talk._replace(joker_partner=partners[0], ace_partner=partners[1], order=order, seat_change=change)
        self._start_call()

    def _give_back(self, card: Card | None) -> None:
        giver, holder = self.turn, self.talk.joker_partner
        if card is None:  # not seen by this state: one unseen card changes hands
            self.hidden = _replace(self.hidden, giver, self.hidden[giver] - 1)
            self.hidden = _replace(self.hidden, holder, self.hidden[holder] + 1)
        else:
            self._take(giver, card)
            self._put(holder, card)
            self.talk = self.talk._replace(private=(*self.talk.private, (giver, holder, 1 << card)))
        self._start_call()

    def _start_call(self) -> None:
        self.phase, self.turn = Phase.CALL, self.talk.joker_partner

    def _call(self, word: ActionKind) -> None:
        talk = self.talk
        words = (*talk.words, word)
        self.talk = talk._replace(words=words)
        if len(words) == 1:
            self.turn = talk.ace_partner
            return
        if words[0] != words[1]:
            leader = talk.joker_partner if words[0] is ActionKind.IKU else talk.ace_partner
        else:  # both said the same word: the lead passes to the mukankei player on the right
            leader = self._next_of(talk.joker_partner, Side.MUKANKEI)
        self._lead_known(leader)

    def _next_of(self, player: int, side: Side) -> int:
        """The first player of ``side`` to the right of ``player``."""
        p = self.right[player]
        while self.side(p) is not side:
            p = self.right[p]
        return p

    def _representative(self, side: Side) -> int:
        """Who speaks for a side's declaration: the leader if on that side, else the next of it to the right."""
        return self.lead if self.side(self.lead) is side else self._next_of(self.lead, side)

    def _lead_known(self, leader: int) -> None:
        self.lead = leader
        if self.number >= self.profile.declarations_from:
            self.phase, self.turn = Phase.DECLARE, self._representative(Side.KANKEI)
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase, self.turn = Phase.PLAY, self.lead

    def _play_over(self) -> None:
        outcome = self.outcome()
        won = kankei_win(outcome, self.profile.win_points)
        if won and outcome.sukonku and self.profile.stop_after_sukonku and self.number < self.profile.max_deals:
            self.phase, self.turn = Phase.DECIDE, self.talk.joker_partner
        else:
            self._finish(stopped=False)

    def outcome(self, stopped: bool = False) -> DealOutcome:
        """The deal as the ledger sees it (points so far while it is being played)."""
        points = self.side_points()
        if points is None:
            raise InvalidStateError("the partnership is not known yet")
        return DealOutcome(points[0], self.talk.declaration, stopped)

    def _finish(self, stopped: bool) -> None:
        talk, outcome = self.talk, self.outcome(stopped)
        assert self.trump is not None
        self.result = DealResult(
            number=self.number,
            trump=self.trump,
            kankei=(talk.joker_partner, talk.ace_partner),
            kankei_points=outcome.kankei_points,
            declaration=talk.declaration,
            kankei_won=kankei_win(outcome, self.profile.win_points),
            stopped=stopped,
            seat_change=talk.seat_change,
            showing=talk.showing,
            words=talk.words,
            tricks=self.tricks,
        )
        self.phase = Phase.OVER

    # ----------------------------------------------------------------- hidden information
    def view(self, player: int) -> KanDeal:
        """What ``player`` can see: their own hand, what was shown to all or to them, the tricks; the rest
        unknown. The view is itself a playable deal, driven by actions that name what they reveal."""
        from engine.kan.hidden import view

        return view(self, player)

    def observed(self, action: Action, player: int) -> Action:
        """``action``, about to be pushed, as ``player`` perceives it (to drive ``player``'s view)."""
        from engine.kan.hidden import observed

        return observed(self, action, player)

    def sample_world(self, rng: random.Random) -> KanDeal:
        """A full-information copy with the unknown cards dealt at random, consistent with what was seen
        (suits a player failed to follow, a joker not played to the ninth trick); for Monte Carlo."""
        from engine.kan.hidden import sample_world

        return sample_world(self, rng)

    def __repr__(self) -> str:
        hands = ", ".join(f"{p + 1}: [{self.hand(p)}]+{self.hidden[p]}" for p in range(PLAYERS))
        trump = self.trump.symbol if self.trump is not None else "?"
        return (
            f"<KanDeal {self.number} {self.phase.name} player {self.turn + 1}; trump {trump}; "
            f"trick {self.trick_number} [{' '.join(c.code for c in self.trick)}]; hands {hands}>"
        )


def _replace(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _mask(cards: tuple[Card, ...]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


