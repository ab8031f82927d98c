"""Hwatu hints: the legal moves of a Hato, Go-Stop or Matgo player ranked by sampled expected settlement.

``engine.montecarlo.SampledSearch`` deals the cards the player cannot see at random (the same worlds for
every move), plays each move, and finishes the hand with the greedy bot in every seat; the payoff is the
player's net settlement in points. A go/stop decision is ranked the same way: stopping is the settlement
now, going on is the greedy play-out after the call, and the play-out also counts how often another
player wins the hand first (``Playout.others_first``), which the reason quotes.

In the flip phase the flipped card is face up for everyone, so it is passed as ``flipped``: worlds are
sampled with it on top of the stock.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import dataclass, field

from engine.capture import CaptureRound, Phase
from engine.cards import Card, Kind
from engine.hwatu.bots import GreedyBot
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.hato_round import HatoRound
from engine.hwatu.hint_reasons import HintReason, move_reason
from engine.montecarlo import SampledSearch
from engine.moves import Move, MoveKind

AnyRound = HatoRound | GoStopRound
_GREEDY = GreedyBot()


@dataclass
class Playout:
    """The payoff of a move in a sampled world: the greedy play-out's net settlement for ``player``.

    Picklable (it travels to the hint process with the search) and it keeps, per move, how many worlds it
    played and in how many another player won the hand (``others_first``) or nobody did (``nagari``).
    """

    player: int
    played: Counter[Move] = field(default_factory=Counter)
    others: Counter[Move] = field(default_factory=Counter)
    nobody: Counter[Move] = field(default_factory=Counter)

    def __call__(self, world: CaptureRound, move: Move, rng: random.Random) -> float:
        assert isinstance(world, HatoRound | GoStopRound)
        played = move
        if move.kind is MoveKind.FLIP and world.phase is Phase.PLAY:  # a blank turn: this world's top card
            played = next(m for m in world.generate_legal_moves() if m.kind is MoveKind.FLIP)
        world.push(played, check=False)
        while not world.is_over:
            world.push(_GREEDY.choose(world), check=False)
        result = world.result
        assert result is not None
        self.played[move] += 1
        if result.winner is None:
            self.nobody[move] += 1
        elif result.winner != self.player:
            self.others[move] += 1
        return float(result.net[self.player])

    def others_first(self, move: Move) -> float:
        """The share of worlds in which another player won the hand after ``move``."""
        n = self.played[move]
        return self.others[move] / n if n else 0.0


def sample_world(view: CaptureRound, flipped: Card | None, rng: random.Random) -> CaptureRound:
    """A full deal consistent with ``view``, with the face-up ``flipped`` card (if any) on top of the stock."""
    world = view.sample_world(rng)
    if flipped is not None:
        _put_on_top(world, flipped)
    return world


def _put_on_top(world: CaptureRound, card: Card) -> None:
    assert world.stock is not None
    stock = list(world.stock[len(world.stock) - world.stock_left:])
    if stock[0] == card:
        return
    if card in stock:
        at = stock.index(card)
        stock[0], stock[at] = stock[at], stock[0]
    else:  # dealt into another hand in this world: swap it with the top card
        hands = list(world.hands)
        owner = next(p for p in range(world.players) if hands[p] >> card & 1)
        hands[owner] = hands[owner] & ~(1 << card) | 1 << stock[0]
        world.hands = tuple(hands)
        stock[0] = card
    world.stock = tuple(stock)


def _card_class(card: Card | None) -> int:
    """Plains of one month are the same card to every hwatu game, except the double pi (paulownia's third
    plain, willow's lightning)."""
    if card is None:
        return -1
    if card.kind is Kind.PLAIN and card not in (Card.WILLOW_LIGHTNING, Card.PAULOWNIA_PLAIN_3):
        return 100 + card // 4
    return int(card)


def move_class(move: Move) -> tuple[int, int, int]:
    """Moves of equal class have the same effect (they differ in which of two plains moves)."""
    return int(move.kind), _card_class(move.card), _card_class(move.take)


def candidate_moves(view: CaptureRound, flipped: Card | None = None) -> list[Move]:
    """What the player to move may choose between, one move per class (for a flip, only with the flipped
    card known; a blank turn's flip is one candidate, naming ``flipped`` when it is known)."""
    if view.is_over:
        return []
    moves = view.generate_legal_moves()
    if view.phase is Phase.FLIP:
        moves = [m for m in moves if m.card == flipped] if flipped is not None else []
    else:  # a blank turn after a bomb flips a card nobody knows yet: one candidate stands for it
        blank = sorted((m for m in moves if m.kind is MoveKind.FLIP), key=lambda m: m.card != flipped)
        moves = [m for m in moves if m.kind is not MoveKind.FLIP] + blank[:1]
    unique: dict[tuple[int, int, int], Move] = {}
    for move in moves:
        unique.setdefault(move_class(move), move)
    return list(unique.values())


@dataclass(frozen=True)
class HwatuHint:
    """A ranked move: its expected net settlement (points), and why."""

    move: Move
    value: float
    stderr: float
    samples: int
    others_first: float
    reason: HintReason


class HwatuHints:
    """The hint search for ``player`` (whose turn it is): ``step``/``add_samples``, then ``ranked``.

    ``state`` may be the full state (a demo) or a partly hidden one (manual entry): the search only uses
    what ``player`` sees. ``flipped`` is the face-up stock card of a flip phase (default: the state's
    stock top, when it knows its stock).
    """

    def __init__(self, state: AnyRound, player: int, seed: int = 0, flipped: Card | None = None) -> None:
        if state.turn != player and not state.is_over:
            raise ValueError(f"it is player {state.turn + 1}'s turn, not player {player + 1}'s")
        if flipped is None:
            flipped = state.stock_top()  # a flip phase's card is face up; a blank turn's names the real card
        self.player = player
        self.view = view = state.view(player)
        self.moves = candidate_moves(view, flipped)
        if view.phase is not Phase.FLIP:
            flipped = None  # sampled worlds keep the stock unknown: the play comes before any flip
        self.reasons = {m: self._reason(m) for m in self.moves}
        self.playout = Playout(player)
        self.search: SampledSearch[CaptureRound, Move] | None = None
        if self.moves:
            self.search = SampledSearch(
                self.moves, functools.partial(sample_world, view, flipped), self.playout, seed
            )

    def _reason(self, move: Move) -> HintReason:
        view = self.view
        if move.kind is MoveKind.KOIKOI:
            return HintReason("go")
        if move.kind is MoveKind.STOP:
            key = "stop" if len(self.moves) > 1 else "stop-last"
            return HintReason(key, numbers=(self.stop_net(),))
        return move_reason(view, self.player, move)

    def stop_net(self) -> float:
        """What stopping now settles for the player (Go-Stop and Matgo, in the decision phase)."""
        view = self.view
        if not isinstance(view, GoStopRound):
            return 0.0
        return float(view.settlement_if_stopped(self.player).net[self.player])

    @property
    def samples(self) -> int:
        return self.search.samples if self.search is not None else 0

    def step(self, budget_s: float) -> None:
        if self.search is not None:
            self.search.step(budget_s)

    def add_samples(self, worlds: int) -> None:
        if self.search is not None:
            self.search.add_samples(worlds)

    def ranked(self) -> list[HwatuHint]:
        """Every candidate, best first; the go/stop reasons carry the sampled numbers."""
        if self.search is None:
            return []
        return [
            HwatuHint(v.move, v.mean, v.stderr, v.samples, self.playout.others_first(v.move), self.reason(v.move))
            for v in self.search.ranked()
        ]

    def reason(self, move: Move) -> HintReason:
        """The move's reason; a go's gets (stop now, go expected, others first) from the samples so far."""
        reason = self.reasons[move]
        if reason.key != "go" or self.search is None:
            return reason
        values = {v.move: v.mean for v in self.search.ranked()}
        numbers = (self.stop_net(), values.get(move, 0.0), self.playout.others_first(move))
        return HintReason("go", numbers=numbers)


class HintBot:
    """Plays the hints' best move after ``samples`` sampled worlds (forced moves at once)."""

    name = "hints"

    def __init__(self, samples: int = 40, seed: int = 0) -> None:
        self.samples = samples
        self.rng = random.Random(seed)

    def choose(self, state: AnyRound) -> Move:
        moves = state.generate_legal_moves()
        if len(moves) == 1:
            return moves[0]
        hints = HwatuHints(state, state.turn, seed=self.rng.getrandbits(32))
        hints.add_samples(self.samples)
        return hints.ranked()[0].move
