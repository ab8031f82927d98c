"""Hwatu hints: the legal moves of a Hato, Go-Stop or Matgo player ranked by sampled expected settlement.

``GuardedSearch`` (an ``engine.montecarlo.SampledSearch``) deals the cards the player cannot see at random
(the same worlds for every move), plays each move, and finishes the hand with the greedy bot in every seat;
the payoff is the player's net settlement in points. A go/stop decision is ranked the same way: stopping is
the settlement now, going on is the greedy play-out after the call, and the play-out also counts how often
another player wins the hand first (``Playout.others_first``), which the reason quotes.

A hand swings by tens of points on one card, so a few dozen worlds cannot separate moves a point apart: the
greedy bot's choice (stop, in a decision) stays first unless another move beats it by a standard error of
their paired difference, and moves clearly behind the leader stop being played.

In the flip phase the flipped card is face up for everyone, so it is passed as ``flipped``: worlds are
sampled with it on top of the stock (``hint_worlds``).
"""

from __future__ import annotations

import functools
import math
import random
from collections import Counter
from dataclasses import dataclass, field

from engine.capture import CaptureRound, Phase
from engine.cards import Card, Kind
from engine.hwatu.bots import GreedyBot, greedy_value
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.hato_round import HatoRound
from engine.hwatu.hint_reasons import HintReason, move_reason
from engine.hwatu.hint_worlds import lay_exclusions, sample_world
from engine.montecarlo import MoveValue, SampledSearch
from engine.moves import Move, MoveKind

AnyRound = HatoRound | GoStopRound
_GREEDY = GreedyBot()
MARGIN = 1.0  # standard errors by which a move must beat the greedy favourite to rank above it
PRUNE_Z = 2.5  # standard errors below the leader at which a move stops being played
PRUNE_AFTER = 8  # worlds before the first pruning


@dataclass
class Playout:
    """The payoff of a move in a sampled world: the greedy play-out's net settlement for ``player``.

    Picklable (it travels to the hint process with the search) and it keeps, per move, how many worlds it
    played and in how many another player won the hand (``others_first``) or nobody did (``nagari``).
    """

    player: int
    payoffs: dict[Move, list[float]] = field(default_factory=dict)  # per move, world by world (paired)
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
        payoff = float(result.net[self.player])
        self.payoffs.setdefault(move, []).append(payoff)
        return payoff

    def gain_over(self, move: Move, base: Move) -> tuple[float, float]:
        """The mean and standard error of ``move``'s payoff less ``base``'s, world by world."""
        pairs = list(zip(self.payoffs.get(move, ()), self.payoffs.get(base, ()), strict=False))
        n = len(pairs)
        if n < 2:
            return 0.0, math.inf
        diffs = [a - b for a, b in pairs]
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean, math.sqrt(variance / n)

    def total(self) -> int:
        """Play-outs made so far, every move together."""
        return sum(self.played.values())

    def others_first(self, move: Move) -> float:
        """The share of worlds in which another player won the hand after ``move``."""
        n = self.played[move]
        return self.others[move] / n if n else 0.0


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


def favourite(view: AnyRound, moves: list[Move]) -> int:
    """The index of the move the greedy bot would make among ``moves`` (stop, in a go/stop decision)."""
    if view.phase is Phase.DECIDE:
        return next((i for i, m in enumerate(moves) if m.kind is MoveKind.STOP), 0)
    return max(range(len(moves)), key=lambda i: greedy_value(view, moves[i]))


class GuardedSearch(SampledSearch[CaptureRound, Move]):
    """A sampled search that races the candidates and ranks the greedy favourite first unless beaten clearly.

    A hand of hwatu swings by tens of points on one card, so with a few dozen worlds the best-looking move
    is often just the luckiest (the winner's curse). A challenger must beat the favourite by ``margin``
    standard errors of their paired difference (the same worlds); the others rank by that lower bound.
    Moves clearly worse than the leader (``PRUNE_Z`` standard errors) stop being played, so the worlds go
    to the close calls; the favourite is always played, as the yardstick.
    """

    def __init__(
        self, moves: list[Move], sample_world: functools.partial[CaptureRound], playout: Playout, seed: int,
        favourite: int, margin: float,
    ) -> None:
        super().__init__(moves, sample_world, playout, seed)
        self.playout = playout
        self.favourite = favourite
        self.margin = margin
        self.alive = list(range(len(moves)))

    def add_samples(self, worlds: int) -> None:
        if len(self.moves) == 1:
            self.samples += worlds
            return
        for _ in range(worlds):
            world_seed = self._rng.getrandbits(62)
            for i in self.alive:
                world = self.sample_world(random.Random(world_seed))
                self.play_out(world, self.moves[i], random.Random(world_seed + 1))
            self.samples += 1
            if self.samples >= PRUNE_AFTER and self.samples % max(4, self.samples // 4) == 0:
                self._prune()

    def _prune(self) -> None:
        payoffs = self.playout.payoffs
        leader = max(self.alive, key=lambda i: _mean(payoffs[self.moves[i]]))
        keep = []
        for i in self.alive:
            gain, stderr = self.playout.gain_over(self.moves[i], self.moves[leader])
            if i in (leader, self.favourite) or gain + PRUNE_Z * stderr >= 0:
                keep.append(i)
        self.alive = keep

    def ranked(self) -> list[MoveValue[Move]]:
        if len(self.moves) == 1:
            return [MoveValue(self.moves[0], 0, 0.0, 0.0, self.samples)]
        base = self.moves[self.favourite]
        scored = []
        for i, move in enumerate(self.moves):
            payoffs = self.playout.payoffs.get(move, [])
            n = len(payoffs)
            mean = _mean(payoffs)
            stderr = math.sqrt(sum((x - mean) ** 2 for x in payoffs) / (n - 1) / n) if n > 1 else 0.0
            guard = 0.0
            if i != self.favourite and self.margin:  # (a move with one world has an infinite error)
                guard = self.margin * self.playout.gain_over(move, base)[1]
            scored.append((mean - guard, MoveValue(move, i, mean, stderr, n)))
        scored.sort(key=lambda pair: -pair[0])
        return [value for _, value in scored]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


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
    stock top, when it knows its stock). ``margin``: see ``GuardedSearch``. ``infer`` deals no sampled hand
    a month its holder showed it lacked by laying a card (``hint_worlds.lay_exclusions``); off by default,
    the worlds are then uniform over the unseen cards.
    """

    def __init__(
        self, state: AnyRound, player: int, seed: int = 0, flipped: Card | None = None, margin: float = MARGIN,
        infer: bool = False,
    ) -> None:
        if state.turn != player and not state.is_over:
            raise ValueError(f"it is player {state.turn + 1}'s turn, not player {player + 1}'s")
        if flipped is None:
            flipped = state.stock_top()  # a flip phase's card is face up; a blank turn's names the real card
        self.player = player
        self.view = view = state.view(player)
        exclusions = lay_exclusions(state, player) if infer else None
        self.moves = candidate_moves(view, flipped)
        if view.phase is not Phase.FLIP:
            flipped = None  # sampled worlds keep the stock unknown: the play comes before any flip
        self.reasons = {m: self._reason(m) for m in self.moves}
        self.playout = Playout(player)
        self.search: GuardedSearch | None = None
        if self.moves:
            assert isinstance(view, HatoRound | GoStopRound)
            self.search = GuardedSearch(
                self.moves, functools.partial(sample_world, view, flipped, exclusions), self.playout, seed,
                favourite(view, self.moves), margin,
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
    """Plays the hints' first move after about ``playouts`` play-outs (forced moves at once).

    The budget counts play-outs rather than worlds because pruned moves stop costing any: 336 is 48
    worlds of seven candidates, about a third of a second.
    """

    name = "hints"

    def __init__(self, playouts: int = 336, seed: int = 0, infer: bool = False) -> None:
        self.playouts = playouts
        self.rng = random.Random(seed)
        self.infer = infer

    def choose(self, state: AnyRound) -> Move:
        moves = state.generate_legal_moves()
        if len(moves) == 1:
            return moves[0]
        hints = HwatuHints(state, state.turn, seed=self.rng.getrandbits(32), infer=self.infer)
        if len(hints.moves) > 1:
            while hints.playout.total() < self.playouts:
                hints.add_samples(1)
        return hints.ranked()[0].move
