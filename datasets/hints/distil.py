"""Fit the Koi-Koi play-out policy to the hint search's own picks (one step of expert iteration).

    python -m datasets.hints.distil collect --first 5000 --rounds 1397 --out /tmp/decisions.jsonl  # 5.5 min
    python -m datasets.hints.distil fit /tmp/decisions.jsonl --out engine/koikoi/playouts.toml     # 2 s

``collect`` plays hint-bot (player 0, 100 worlds a move, hand-tuned play-outs) against greedy (player 1)
rounds from seeded deals and, at every hand-card decision of either player with more than one distinct
move, runs the same 100-world search without pruning and writes the value of every move: one JSON line
per decision, ``[player, hand, field, captured, their captured, their hand, stock left, koi-koi, their
koi-koi, seed, [[card, taken mask, value, points], ...]]``. One random stream from ``--first`` drives the
searches, so a run is reproducible as a whole.

``fit`` turns each move into ``engine.koikoi.playout_features.move_features`` and fits a softmax over
each decision's moves to the search's values, sharpened (``softmax(value / 0.03)``) into soft targets,
with an L2 penalty, on standardised features (Newton's method: the loss is convex). Decisions of seeds
divisible by 5 are held out; the report gives the held-out regret (win chance lost against the search's
best move) of the fitted policy and of a random move.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from engine.capture import Phase, taken
from engine.koikoi.bots import GreedyBot
from engine.koikoi.hints import HintBot, HintSearch, MatchContext
from engine.koikoi.playout_features import FEATURES, move_features, parse_weights
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.progress import finisher_table, finishers_in
from engine.koikoi.rollout import card_worths
from engine.koikoi.round import KoiKoiRound

WORLDS = 100
TEMPERATURE = 0.03
L2 = 1e-3


# ----------------------------------------------------------------------------------- collecting
def collect(first: int, rounds: int, worlds: int = WORLDS, fitted: bool = False) -> Iterator[list[object]]:
    """The search's value of every move at each hand-card decision of seeded hint-bot vs greedy rounds
    (``fitted``: the search with the shipped fitted play-outs, for a further step of expert iteration)."""
    context, greedy, rng = MatchContext.single_round(), GreedyBot(), random.Random(first)
    for seed in range(first, first + rounds):
        state = KoiKoiRound.shuffled(seed, dealer=seed % 2)
        while not state.is_over:
            p, best = state.turn, None
            if state.phase is Phase.PLAY:
                search = HintSearch(state, p, context, seed=rng.getrandbits(32), fitted=fitted, prune=False)
                if len(search.estimates()) > 1:
                    search.add_samples(worlds)
                    yield _record(state, p, seed, search)
                    best = search.ranked()[0].move
            if p == 0:
                state.push(best or HintBot(worlds, context=context, seed=seed, fitted=fitted).choose(state))
            else:
                state.push(greedy.choose(state))


def _record(state: KoiKoiRound, p: int, seed: int, search: HintSearch) -> list[object]:
    moves = [[int(move.card), taken(move, state.field), round(value, 4), round(points, 2)]
             for move, value, points in search.estimates()]
    return [p, state.hands[p], state.field, state.captured[p], state.captured[1 - p], state.hands[1 - p],
            state.stock_left, state.koikoi[p], state.koikoi[1 - p], seed, moves]


# ----------------------------------------------------------------------------------- fitting
class Decisions:
    """Every move of every decision as feature rows, with the segment each decision spans."""

    def __init__(self, records: Sequence[list[object]], profile: KoiKoiProfile) -> None:
        table = finisher_table(profile)
        rows, values, starts, seeds = [], [], [0], []
        for record in records:
            _, hand, field, mine, theirs, _, _, _, _, seed, moves = record
            assert isinstance(moves, list)
            worths = (card_worths(profile, mine, theirs), card_worths(profile, theirs, mine))
            near = (finishers_in(table, mine, theirs), finishers_in(table, theirs, mine))
            for card, got, value, _ in moves:
                rows.append(move_features(hand, field, mine, theirs, worths, near, card, got))
                values.append(value)
            starts.append(len(rows))
            seeds.append(seed)
        self.x = np.array(rows)
        self.values = np.array(values)
        self.starts = np.array(starts)
        self.seeds = np.array(seeds)
        self.segment = np.repeat(np.arange(len(seeds)), np.diff(self.starts))

    def segment_sum(self, a: np.ndarray) -> np.ndarray:
        return np.add.reduceat(a, self.starts[:-1], axis=0)

    def softmax(self, z: np.ndarray) -> np.ndarray:
        top = np.maximum.reduceat(z, self.starts[:-1])
        e = np.exp(z - top[self.segment])
        return e / self.segment_sum(e)[self.segment]

    def regret(self, scores: np.ndarray, decisions: np.ndarray) -> float:
        """Mean value lost against each decision's best move by playing the top-scored one."""
        lost = []
        for i in np.flatnonzero(decisions):
            a, b = self.starts[i], self.starts[i + 1]
            lost.append(self.values[a:b].max() - self.values[a + int(np.argmax(scores[a:b]))])
        return float(np.mean(lost))

    def random_regret(self, decisions: np.ndarray) -> float:
        """The same for a move picked at random."""
        best = np.maximum.reduceat(self.values, self.starts[:-1])
        mean = self.segment_sum(self.values) / np.diff(self.starts)
        return float(np.mean((best - mean)[decisions]))


def fit(data: Decisions, train: np.ndarray, temperature: float = TEMPERATURE, l2: float = L2) -> np.ndarray:
    """Weights (on raw features) minimising the soft-target cross-entropy over the ``train`` decisions."""
    sd = data.x.std(axis=0) + 1e-9
    x = data.x / sd
    rows = train[data.segment].astype(float)
    target = data.softmax(data.values / temperature)
    n = rows.sum() / (len(data.values) / len(data.seeds))
    w = np.zeros(x.shape[1])

    def loss(w: np.ndarray) -> float:
        p = data.softmax(x @ w)
        return float(-np.sum(rows * target * np.log(p + 1e-300)) / n + l2 * w @ w)

    for _ in range(50):
        p = data.softmax(x @ w)
        grad = (rows * (p - target)) @ x / n + 2 * l2 * w
        px = (rows * p)[:, None] * x
        mean = data.segment_sum(px)
        hess = (x.T @ px - mean.T @ mean) / n + 2 * l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        size, before = 1.0, loss(w)
        while loss(w - size * step) > before and size > 1e-6:
            size /= 2
        w = w - size * step
        if np.abs(size * step).max() < 1e-10:
            break
    return w / sd


def write_weights(path: Path, weights: Sequence[float], note: str) -> None:
    """A weights file as ``engine/koikoi/playouts.toml`` is, ``note`` saying where it came from."""
    lines = ["# The play-out policy's weights (engine/koikoi/playout_features.py).", f"# {note}", "", "[weights]"]
    lines += [f"{name} = {value:.6f}" for name, value in zip(FEATURES, weights, strict=True)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def read_weights(path: Path) -> tuple[float, ...]:
    """The weights of a file ``write_weights`` wrote, in ``FEATURES`` order."""
    return parse_weights(path.read_text(encoding="utf-8"), str(path))


# ----------------------------------------------------------------------------------- command line
def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--first", type=int, default=5000)
    c.add_argument("--rounds", type=int, default=1397)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--worlds", type=int, default=WORLDS, help="sampled worlds a decision")
    c.add_argument("--fitted", action="store_true", help="search with the shipped fitted play-outs")
    f = sub.add_parser("fit")
    f.add_argument("data", type=Path)
    f.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "collect":
        started, count = time.time(), 0
        with args.out.open("w") as out:
            for record in collect(args.first, args.rounds, args.worlds, args.fitted):
                out.write(json.dumps(record) + "\n")
                count += 1
        print(f"{count} decisions in {time.time() - started:.0f} s")
        return
    records = [json.loads(line) for line in args.data.read_text().splitlines() if line.strip()]
    data = Decisions(records, KoiKoiProfile.load("default"))
    test = data.seeds % 5 == 0
    weights = fit(data, ~test)
    fitted = data.regret(data.x @ weights, test)
    print(f"{len(records)} decisions ({int(test.sum())} held out); held-out regret: fitted {fitted:.4f}, "
          f"a random move {data.random_regret(test):.4f}")
    write_weights(args.out, weights, f"`python -m datasets.hints.distil fit`: soft targets (temperature {TEMPERATURE}, "
                  f"L2 {L2}) on {len(records)} decisions of {args.data.name}; held-out regret {fitted:.4f}.")


if __name__ == "__main__":
    sys.exit(main())
