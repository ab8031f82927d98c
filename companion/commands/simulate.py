"""``kibitz simulate koikoi|hato|minhwatu|gostop|matgo|jielong|cedeng|kkori --games N --seed S [--profile P]
[--bots A,B,...] [--players N] [--variant V]``: bot matches and a summary."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any

from engine.bots import Bot, RandomBot
from engine.dominoes.bots import make_bots as make_domino_bots
from engine.dominoes.play import format_summary as format_domino_summary
from engine.dominoes.play import simulate as simulate_dominoes
from engine.dominoes.profile import GAMES as DOMINO_GAMES
from engine.dominoes.profile import DominoProfile
from engine.errors import KibitzError
from engine.hwatu.play import simulate
from engine.hwatu.report import GAMES as HWATU_GAMES
from engine.hwatu.report import load_profile, make_bots, players_for
from engine.kan.play import format_summary as format_kan_summary
from engine.kan.play import make_bots as make_kan_bots
from engine.kan.play import simulate as simulate_kan
from engine.kan.profile import KanProfile
from engine.koikoi.bots import GreedyBot, PlayoutBot
from engine.koikoi.match import KoiKoiMatch
from engine.koikoi.play import play_match
from engine.koikoi.profile import KoiKoiProfile


def register(sub: Any) -> None:
    parser = sub.add_parser("simulate", help="play bot matches and print a summary")
    parser.add_argument("game", choices=("koikoi", *HWATU_GAMES, *DOMINO_GAMES, "kan"))
    parser.add_argument("--games", "--matches", type=int, default=100, help="matches to play (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0)
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--profile", help="default: default for koikoi, else the game's own")
    source.add_argument("--rules", metavar="FILE")
    parser.add_argument("--rounds", type=int, help="rounds per match (default: the profile's)")
    parser.add_argument("--bots", help="one per player of: random, greedy, and for koikoi playout (the hint search's "
                        "play-out policy alone) (default: greedy, then random)")
    parser.add_argument("--players", type=int, help="hato, minhwatu: 2 to 5 (default 3); jielong, kkori: 2 to 4 (4)")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME", help="dominoes: a profile variant")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(run=run)


def make_bot(name: str, seed: int) -> Bot:
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot()
    if name == "playout":
        return PlayoutBot()
    raise KibitzError(f"unknown bot {name!r}; choose random, greedy or playout")


def run(args: argparse.Namespace) -> int:
    if args.game in DOMINO_GAMES:
        return run_dominoes(args)
    if args.variant:
        print("kibitz simulate: --variant is for the domino games", file=sys.stderr)
        return 2
    if args.game == "kan":
        return run_kan(args)
    if args.game != "koikoi":
        return run_hwatu(args)
    try:
        if args.players not in (None, 2):
            raise KibitzError("Koi-Koi is for 2 players")
        names = (args.bots or "greedy,random").split(",")
        if len(names) != 2:
            raise KibitzError("--bots needs two names separated by a comma, e.g. greedy,random")
        if args.games < 1:
            raise KibitzError("--games must be at least 1")
        profile = KoiKoiProfile.load(args.rules or args.profile or "default")
        bots = [make_bot(name, args.seed * 2 + i) for i, name in enumerate(names)]
    except KibitzError as exc:
        print(f"kibitz simulate: {exc}", file=sys.stderr)
        return 2
    summary = simulate_koikoi(profile, bots, args.games, args.seed, args.rounds)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_summary(summary))
    return 0


def simulate_koikoi(
    profile: KoiKoiProfile, bots: list[Bot], games: int, seed: int, rounds: int | None = None
) -> dict[str, Any]:
    """Play ``games`` matches, swapping seats every match so neither bot keeps the first deal."""
    wins = [0, 0]
    draws = 0
    points = [0, 0]
    reasons: Counter[str] = Counter()
    yaku: Counter[str] = Counter()
    n_rounds = 0
    started = time.perf_counter()
    for game in range(games):
        seats = [bots[game % 2], bots[1 - game % 2]]
        match = play_match(KoiKoiMatch(profile, seed=seed * 100_003 + game, rounds=rounds), seats)
        for seat, bot_index in enumerate((game % 2, 1 - game % 2)):
            points[bot_index] += match.scores[seat]
        if match.leader is None:
            draws += 1
        else:
            wins[game % 2 if match.leader == 0 else 1 - game % 2] += 1
        for result in match.results:
            n_rounds += 1
            reasons[result.reason] += 1
            yaku.update(y.name for y in result.yaku)
    elapsed = time.perf_counter() - started
    return {
        "game": "koikoi",
        "profile": profile.name,
        "matches": games,
        "rounds": n_rounds,
        "bots": [bot.name for bot in bots],
        "wins": wins,
        "draws": draws,
        "points_per_match": [round(p / games, 2) for p in points],
        "round_endings": dict(reasons.most_common()),
        "yaku_scored": dict(yaku.most_common()),
        "seconds": round(elapsed, 3),
    }


def format_summary(s: dict[str, Any]) -> str:
    a, b = s["bots"]
    lines = [
        f"{s['matches']} Koi-Koi matches ({s['rounds']} rounds, profile {s['profile']}) in {s['seconds']} s",
        f"  {a:>8}: {s['wins'][0]} wins, {s['points_per_match'][0]} points a match",
        f"  {b:>8}: {s['wins'][1]} wins, {s['points_per_match'][1]} points a match",
        f"  draws: {s['draws']}",
        "  rounds ended by: " + ", ".join(f"{k} {v}" for k, v in s["round_endings"].items()),
        "  yaku scored: " + ", ".join(f"{k} {v}" for k, v in s["yaku_scored"].items()),
    ]
    return "\n".join(lines)


def run_hwatu(args: argparse.Namespace) -> int:
    try:
        if args.games < 1:
            raise KibitzError("--games must be at least 1")
        profile = load_profile(args.game, args.rules or args.profile)
        players = players_for(profile, args.players)
        names = args.bots.split(",") if args.bots else ["greedy"] + ["random"] * (players - 1)
        bots = make_bots(names, players, args.seed)
    except KibitzError as exc:
        print(f"kibitz simulate: {exc}", file=sys.stderr)
        return 2
    summary = simulate(profile, bots, args.games, args.seed, players, args.rounds)
    print(json.dumps(summary, indent=2) if args.json else format_hwatu_summary(summary))
    return 0


def format_hwatu_summary(s: dict[str, Any]) -> str:
    lines = [f"{s['matches']} {s['profile']} matches ({s['hands']} hands, {s['players']} players) in {s['seconds']} s"]
    for i, bot in enumerate(s["bots"]):
        lines.append(f"  {i + 1}. {bot:>8}: {s['wins'][i]} wins, {s['points_per_match'][i]} points a match")
    lines.append(f"  draws: {s['draws']}; void deals redealt: {s['patu']}")
    for key, title in (("hand_endings", "hands ended by"), ("scored", "scored"), ("events", "events")):
        if s[key]:
            lines.append(f"  {title}: " + ", ".join(f"{k} {v}" for k, v in s[key].items()))
    return "\n".join(lines)


def run_dominoes(args: argparse.Namespace) -> int:
    try:
        if args.games < 1:
            raise KibitzError("--games must be at least 1")
        profile = DominoProfile.load(args.rules or args.profile or args.game, args.variant)
        if profile.game != args.game:
            raise KibitzError(f"profile {profile.name!r} is for {profile.game}, not {args.game}")
        players = args.players or max(profile.players)
        profile.deal_for(players)
        default = ["greedy", "random"] * (players // 2) + ["greedy"] * (players % 2)
        names = args.bots.split(",") if args.bots else default
        bots = make_domino_bots(names, players, args.seed)
    except KibitzError as exc:
        print(f"kibitz simulate: {exc}", file=sys.stderr)
        return 2
    summary = simulate_dominoes(profile, bots, args.games, args.seed, args.rounds)
    print(json.dumps(summary, indent=2, ensure_ascii=False) if args.json else format_domino_summary(summary))
    return 0


def run_kan(args: argparse.Namespace) -> int:
    """Kan: five bots, a ledger printout per round (the logic lives in ``engine.kan.play``)."""
    try:
        if args.games < 1 or (args.rounds is not None and args.rounds < 1):
            raise KibitzError("--matches and --rounds must be at least 1")
        if args.players not in (None, 5):
            raise KibitzError("Kan is for 5 players")
        profile = KanProfile.load(args.rules or args.profile or "kan")
        bots = make_kan_bots(args.bots, args.seed)
    except KibitzError as exc:
        print(f"kibitz simulate: {exc}", file=sys.stderr)
        return 2
    summary = simulate_kan(profile, bots, args.games, args.seed, args.rounds)
    print(json.dumps(summary, indent=2) if args.json else format_kan_summary(summary))
    return 0
