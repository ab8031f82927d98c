"""The hint bot against the greedy bot over seeded Koi-Koi rounds (target: at least 60% of decided rounds won).

    python -m tests.benchmarks.bench_hint_strength [--rounds 1000] [--playouts 2000 | --samples 100] [--profile default]
                                                   [--unknown-opponent] [--hand-tuned-playouts | --weights FILE]

Round ``i`` is dealt from seed ``i`` and dealt by player ``i % 2``; the hint bot is player 0. Rounds
decided at the deal (teshi, kuttsuki, redeals) involve no play and are skipped and counted. The bot
searches a fixed number of play-outs a decision (or of sampled worlds, with ``--samples``), so a run
gives the same figures on any machine. The default budget is what the app's first hint report holds:
the benchmark first measures how many play-outs the search does in the time of the app's first two reports
(80 and 300 ms, counted here as CPU time) on this machine and prints them (about 2,400 and 9,000 on the 2-core
development machine, so the default 2,000 and ``--playouts 8000`` stay below them), and the CPU time the bot
spent a decision is printed at the end, so that strength is stated at the time the app really gives the search.
The hint bot knows its opponent is the greedy bot, as the app's hints know in the demo, and reads the bot's
hand from its plays (``engine.koikoi.reading``); ``--unknown-opponent`` measures it without, as at a real
table. ``--hand-tuned-playouts`` plays the play-outs by the hand-tuned rule instead of the shipped weights,
``--weights FILE`` by the weights of a file such as ``datasets.hints.distil fit`` and ``datasets.hints.tune`` write.
A progress line goes to stdout every 50 rounds; run it in the background for the full 1,000:

    nohup python -m tests.benchmarks.bench_hint_strength > /tmp/kibitz-hint-strength.log 2>&1 &

It first shows the match awareness: the koi-koi decision on one position (inoshikacho made, six cards
left) early in a level match and late with a big lead.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from pathlib import Path

from companion.hint_service import DEFAULT_SCHEDULE
from datasets.hints.distil import read_weights
from engine.capture import Phase
from engine.koikoi.bots import GreedyBot
from engine.koikoi.hints import HintBot, HintSearch, MatchContext, move_class
from engine.koikoi.play import play_round
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.round import KoiKoiRound
from engine.moves import Move
from tests.engine.test_koikoi_hints import inoshikacho_decision


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--playouts", type=int, default=2000, help="play-outs per decision")
    parser.add_argument("--samples", type=int, default=None, help="sampled worlds per decision instead")
    parser.add_argument("--profile", default="default")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--unknown-opponent", action="store_true", help="do not read the greedy bot's hand")
    playouts = parser.add_mutually_exclusive_group()
    playouts.add_argument("--hand-tuned-playouts", action="store_true", help="hand-tuned play-outs, not the weights")
    playouts.add_argument("--weights", type=Path, help="a weights file instead of engine/koikoi/playouts.toml")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    match_awareness()
    profile = KoiKoiProfile.load(args.profile)
    for budget in DEFAULT_SCHEDULE[:2]:
        report_playouts(profile, budget)
    playouts = args.playouts if args.samples is None else None
    hints = TimedBot(HintBot(args.samples or 0, context=MatchContext.single_round(), seed=1, playouts=playouts,
                             greedy_opponent=not args.unknown_opponent, fitted=not args.hand_tuned_playouts,
                             weights=read_weights(args.weights) if args.weights else None))
    bots = [hints, GreedyBot()]
    won = lost = drawn = skipped = 0
    margin = 0
    started = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.rounds):
        state = KoiKoiRound.shuffled(seed, profile, dealer=seed % 2)
        if state.is_over:
            skipped += 1
            continue
        result = play_round(state, bots)
        margin += result.points[0] - result.points[1]
        if result.winner == 0:
            won += 1
        elif result.winner == 1:
            lost += 1
        else:
            drawn += 1
        played = won + lost + drawn
        if played % 50 == 0:
            report(played, won, lost, drawn, skipped, margin, time.perf_counter() - started)
    setting = f"{args.samples} worlds" if args.samples is not None else f"{args.playouts} play-outs"
    setting += ", " + ("opponent unknown" if args.unknown_opponent else "the greedy bot's hand read")
    setting += ", play-outs by " + ("the hand-tuned rule" if args.hand_tuned_playouts else
                                    f"the weights of {args.weights or 'engine/koikoi/playouts.toml'}")
    print(f"settings: {setting} per decision, profile {profile.name}, seeds {args.first_seed}..; "
          f"{hints.ms_per_decision():.1f} ms CPU time per searched decision ({hints.decisions} decisions)")
    report(won + lost + drawn, won, lost, drawn, skipped, margin, time.perf_counter() - started)


class TimedBot:
    """The hint bot, with the CPU time of its searched decisions (forced moves are not searched)."""

    def __init__(self, bot: HintBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds = 0.0
        self.decisions = 0

    def choose(self, state: KoiKoiRound) -> Move:
        started = time.process_time()
        move = self.bot.choose(state)
        if len({move_class(m) for m in state.generate_legal_moves()}) > 1:
            self.seconds += time.process_time() - started
            self.decisions += 1
        return move

    def ms_per_decision(self) -> float:
        return 1000 * self.seconds / max(self.decisions, 1)


def match_awareness() -> None:
    state = inoshikacho_decision()
    for context in (MatchContext(1, 12, (0, 0)), MatchContext(12, 12, (30, 10)), MatchContext(11, 12, (10, 12))):
        search = HintSearch(state, 0, context, seed=1)
        search.add_samples(500)
        decision = search.decision()
        assert decision is not None
        print(
            f"round {context.round_number}/{context.rounds}, score {context.scores[0]}-{context.scores[1]}: "
            f"{decision.advice} (stop {decision.stop_value:.3f}, koi-koi {decision.koikoi_value:.3f}) — "
            f"{decision.reason.text('en')}"
        )


def report_playouts(profile: KoiKoiProfile, budget: float, positions: int = 60) -> None:
    """How many play-outs the search does in the time the app gives one of its reports (``budget`` seconds of
    search), on this machine: positions from greedy rounds (every third decision of player 0), CPU time."""
    greedy, playouts, worlds, seen = GreedyBot(), 0, 0, 0
    seed = 10**6
    while seen < positions:
        state = KoiKoiRound.shuffled(seed, profile, dealer=seed % 2)
        seed += 1
        while not state.is_over and seen < positions:
            if state.turn == 0 and state.phase is Phase.PLAY and len(state.move_stack) % 3 == seed % 3:
                search = HintSearch(state, 0, MatchContext.single_round(), seed=seen)
                deadline = time.process_time() + budget
                while time.process_time() < deadline:
                    search.add_samples(1)
                playouts, worlds, seen = playouts + search.playouts, worlds + search.samples, seen + 1
            state.push(greedy.choose(state))
    print(f"the app's report after {1000 * budget:.0f} ms of search holds {playouts / seen:.0f} play-outs "
          f"({worlds / seen:.0f} worlds) on this machine, over {seen} positions", flush=True)


def report(played: int, won: int, lost: int, drawn: int, skipped: int, margin: int, seconds: float) -> None:
    decided = won + lost
    rate = won / decided if decided else 0.0
    error = math.sqrt(rate * (1 - rate) / decided) if decided else 0.0
    print(
        f"{played} rounds played ({skipped} decided at the deal, skipped): hints won {won}, greedy won {lost}, "
        f"{drawn} exhausted; win rate of decided rounds {rate:.1%} ± {error:.1%}; "
        f"mean margin {margin / max(played, 1):+.2f} points; {seconds:.0f} s",
        flush=True,
    )


if __name__ == "__main__":
    main()
