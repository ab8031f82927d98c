"""``kibitz demo``: a Koi-Koi match between two bots, needing no camera."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from engine.bots import RandomBot
from engine.errors import KibitzError
from engine.koikoi.bots import GreedyBot
from engine.koikoi.match import KoiKoiMatch
from engine.koikoi.profile import KoiKoiProfile


def register(sub: Any) -> None:
    parser = sub.add_parser("demo", help="watch two bots play a Koi-Koi match (no camera needed)")
    parser.add_argument("--profile", default="default")
    parser.add_argument("--seed", type=int, default=None, help="seed of the shuffle (default: random)")
    parser.add_argument("--rounds", type=int, help="rounds to play (default: the profile's)")
    parser.add_argument("--text", action="store_true", help="print the match as text instead of the app")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds between printed lines")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from companion.textdemo import narrate_match

    try:
        profile = KoiKoiProfile.load(args.profile)
        match = KoiKoiMatch(profile, seed=args.seed, rounds=args.rounds)
    except KibitzError as exc:
        print(f"kibitz demo: {exc}", file=sys.stderr)
        return 2
    narrate_match(match, [GreedyBot(), RandomBot(args.seed)], sys.stdout, args.delay)
    return 0
