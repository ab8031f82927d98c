"""The business logic behind the app's Koi-Koi screen: no widgets here, so it is testable alone.

A session follows one match from one player's seat. In ``demo`` mode it also holds the true round
(the bot plays from it); at a real table (``manual`` or ``camera``) only the player's view exists:
the opponent's hand and the stock are unknown, and every move names the card that was seen.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.bots import Bot
from engine.capture import Phase
from engine.cards import Card, Kind, Month
from engine.cardset import CardSet
from engine.deal import Deal
from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, InvalidStateError, KibitzError
from engine.koikoi.bots import GreedyBot
from engine.koikoi.match import KoiKoiMatch
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.round import KoiKoiRound
from engine.koikoi.yaku import Yaku
from engine.moves import Move, MoveKind

Listener = Callable[[Move, int, str], None]  # the move, who made it, its source ("typed", "camera", ...)


@dataclass(frozen=True)
class TableModel:
    """Everything the screen shows, from the player's seat; widgets only render it."""

    round_number: int
    rounds: int
    scores: tuple[int, int]
    you: int
    dealer: int
    turn: int
    phase: Phase
    field_by_month: tuple[tuple[Month, tuple[Card, ...]], ...]
    stock_left: int
    hand: tuple[Card, ...]
    opponent_hand: int
    captures: tuple[dict[Kind, tuple[Card, ...]], dict[Kind, tuple[Card, ...]]]
    yaku: tuple[tuple[Yaku, ...], tuple[Yaku, ...]]
    koikoi: tuple[int, int]
    legal: tuple[Move, ...]
    history: tuple[tuple[int, Move], ...]
    result_line: tuple[int | None, int] | None  # (winner, points) once the round is over
    match_over: bool


@dataclass
class KoiKoiSession:
    profile: KoiKoiProfile
    mode: str = "demo"  # "demo", "manual" or "camera"
    seed: int | None = None
    you: int = 0
    bot: Bot | None = None
    rounds: int | None = None
    listeners: list[Listener] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.mode not in ("demo", "manual", "camera"):
            raise KibitzError(f"unknown mode {self.mode!r}")
        self.match = KoiKoiMatch(self.profile, seed=self.seed, rounds=self.rounds)
        self.truth: KoiKoiRound | None = None
        self.view: KoiKoiRound | None = None
        self.history: list[tuple[int, Move, str]] = []
        self.rng = random.Random(self.seed)

    # ----------------------------------------------------------------- rounds
    def reset_match(self) -> None:
        """Forget every round: a camera session's match is rebuilt from the worker's record."""
        self.match = KoiKoiMatch(self.profile, seed=self.seed, rounds=self.rounds)
        self.truth = None
        self.view = None
        self.history = []

    def start_round(self, deal: Deal | None = None) -> KoiKoiRound:
        """Deal the next round: shuffled in demo mode, from the table's deal otherwise."""
        if self.mode == "demo":
            self.truth = self.match.new_round()
            self.view = self.truth.view(self.you)
        else:
            if deal is None:
                raise InvalidStateError("at a real table the round starts from the deal that was seen")
            self.truth = None
            self.view = KoiKoiRound(deal, self.profile, self.match.dealer)
        self.history = []
        if self.view.is_over:  # decided at the deal (teshi, redeal)
            self._finish_round()
        return self.view

    def table_deal(self, hand: str, field_cards: str, leader: int | None = None) -> Deal:
        """The deal as a player sees it: their hand and the field; the rest unknown."""
        mine, table = CardSet.parse(hand), CardSet.parse(field_cards)
        size = self.profile.hand_size
        if len(mine) != size or len(table) != self.profile.field_size:
            raise InvalidStateError(
                f"a Koi-Koi deal shows {size} hand cards and {self.profile.field_size} field cards, "
                f"not {len(mine)} and {len(table)}"
            )
        if leader is not None:
            self.match.dealer = leader
        hands = (mine, CardSet()) if self.you == 0 else (CardSet(), mine)
        hidden = (0, size) if self.you == 0 else (size, 0)
        return Deal(hands, table, None, hidden, 48 - 2 * size - len(table))

    @property
    def state(self) -> KoiKoiRound:
        if self.view is None:
            raise InvalidStateError("no round has been dealt yet")
        return self.view

    @property
    def bot_to_move(self) -> bool:
        return self.mode == "demo" and self.view is not None and not self.view.is_over and self.view.turn != self.you

    @property
    def greedy_opponent(self) -> bool:
        """The opponent is the app's greedy bot (the demo): the hints may read its hand from its plays. A person
        at the table need not play so, and their hand is never read that way."""
        return self.mode == "demo" and isinstance(self.bot, GreedyBot)

    # ----------------------------------------------------------------- moves
    def apply(self, move: Move, source: str = "typed") -> None:
        """Push a move onto the round (and the true round in demo mode); errors say why."""
        view = self.state
        player = view.turn
        if self.truth is not None:
            reason = self.truth.illegal_reason(move)
            if reason is not None:
                raise reason
            self.truth.push(move)
        view.push(move)
        self.history.append((player, move, source))
        for listener in self.listeners:
            listener(move, player, source)
        if view.is_over:
            self._finish_round()

    def play_bot(self) -> Move:
        """Let the bot make its move (demo mode, on its turn)."""
        if not self.bot_to_move or self.bot is None or self.truth is None:
            raise IllegalMoveError("it is not the bot's turn")
        move = self.bot.choose(self.truth)
        self.apply(move, source="bot")
        return move

    def undo(self) -> Move:
        """Take back the last move (both rounds)."""
        view = self.state
        if not view.move_stack:
            raise IllegalMoveError("there is no move to undo")
        if view.is_over and self.match.results and self.match.results[-1] is view.result:
            raise IllegalMoveError("the round is over and scored; it cannot be undone")
        if self.truth is not None:
            self.truth.pop()
        self.history.pop()
        return view.pop()

    def take_back(self) -> list[Move]:
        """Undo one move at a table; against the bot, undo back to before your last card."""
        if self.mode != "demo":
            return [self.undo()]
        undone = [self.undo()]
        while self.history and not (undone[-1].kind == MoveKind.PLAY and self.state.turn == self.you):
            undone.append(self.undo())
        if not (undone[-1].kind == MoveKind.PLAY and self.state.turn == self.you):
            for move in reversed(undone):  # nothing of yours to take back: leave it as it was
                self.apply(move, "redo")
            raise IllegalMoveError("you have not played a card yet")
        return undone

    def correct(self, index: int, card: Card) -> Move:
        """Replace the card of move ``index`` (a misread), replaying the moves after it."""
        view = self.state
        if not 0 <= index < len(self.history):
            raise IllegalMoveError(f"there is no move {index + 1} to correct")
        _, wrong, _ = self.history[index]
        if wrong.card is None:
            raise IllegalMoveError(f"{wrong} names no card to correct")
        later = [(p, m, s) for p, m, s in self.history[index + 1 :]]
        saved = list(self.history)
        for _ in range(len(self.history) - index):
            self.undo()
        fixed = self.resolve(f"{wrong.kind.name.lower()} {card.code}")
        try:
            self.apply(fixed, source="corrected")
            for _, move, source in later:
                self.apply(move, source)
        except KibitzError as exc:
            # Put everything back as it was: a correction must lose nothing.
            while len(view.move_stack) > index:
                self.undo()
            for _, move, source in saved[index:]:
                self.apply(move, source)
            raise IllegalMoveError(f"cannot correct {wrong} to {card.code}: {exc}") from exc
        return fixed

    def legal_moves(self) -> tuple[Move, ...]:
        """Moves for the player to move; in demo mode the true round knows which card a flip reveals."""
        return tuple((self.truth or self.state).generate_legal_moves())

    def resolve(self, text: str) -> Move:
        """A move from what the player typed: ``pine-crane``, ``play X take Y``, ``flip X``, ``koikoi``."""
        view = self.state
        words = text.strip().lower().split()
        if not words:
            raise InvalidMoveError("type a move")
        if words[0] in ("play", "flip", "koikoi", "koi-koi", "go", "stop"):
            move = Move.parse(text)
        elif words[0] in ("k", "s") and len(words) == 1:
            move = Move.koikoi() if words[0] == "k" else Move.stop()
        else:
            verb = "flip" if view.phase is Phase.FLIP else "play"
            move = Move.parse(f"{verb} {text}")
        if move.take is None and move.kind in (MoveKind.PLAY, MoveKind.FLIP):
            options = [m for m in self.legal_moves() if m.kind == move.kind and m.card == move.card]
            if len(options) == 1:
                return options[0]
            if len(options) > 1:
                choices = " or ".join(f"take {m.take.code}" for m in options if m.take is not None)
                raise AmbiguousMoveError(f"{move.card.code if move.card else ''} matches two cards: add {choices}")
        return move

    # ----------------------------------------------------------------- match
    def _finish_round(self) -> None:
        finished = self.truth or self.view
        assert finished is not None
        self.match.record(finished)

    def model(self) -> TableModel:
        view = self.state
        me, them = self.you, 1 - self.you
        by_month: dict[Month, list[Card]] = {}
        for card in view.field_cards():
            by_month.setdefault(card.month, []).append(card)
        result = view.result
        return TableModel(
            round_number=len(self.match.results) + (0 if view.is_over else 1),
            rounds=self.match.rounds or 0,
            scores=(self.match.scores[0], self.match.scores[1]),
            you=me,
            dealer=view.dealer,
            turn=view.turn,
            phase=view.phase,
            field_by_month=tuple((m, tuple(cards)) for m, cards in sorted(by_month.items())),
            stock_left=view.stock_left,
            hand=tuple(view.hand(me)),
            opponent_hand=view.hand_size(them),
            captures=(_by_kind(view.captures(0)), _by_kind(view.captures(1))),
            yaku=(tuple(view.yaku(0)), tuple(view.yaku(1))),
            koikoi=view.koikoi,
            legal=self.legal_moves() if view.turn == me or self.mode != "demo" else (),
            history=tuple((p, m) for p, m, _ in self.history),
            result_line=None if result is None else (result.winner, max(result.points)),
            match_over=self.match.is_over,
        )


def _by_kind(cards: CardSet) -> dict[Kind, tuple[Card, ...]]:
    return {kind: tuple(c for c in cards if c.kind is kind) for kind in Kind}
