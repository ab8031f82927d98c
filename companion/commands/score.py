"""``kibitz score koikoi [--profile P | --rules FILE] [--koikoi N] [--opponent-koikoi] CARD...``"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.cardset import CardSet
from engine.errors import KibitzError
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.yaku import round_total, score_yaku

GAMES = ("koikoi",)


def register(sub: Any) -> None:
    parser = sub.add_parser("score", help="score a captured pile and print JSON")
    parser.add_argument("game", choices=GAMES)
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--profile", default="default", help="a shipped rule profile (default: %(default)s)")
    source.add_argument("--rules", metavar="FILE", help="your own TOML rules file")
    parser.add_argument("--koikoi", type=int, default=0, metavar="N", help="koi-koi calls the owner made")
    parser.add_argument("--opponent-koikoi", action="store_true", help="the opponent had called koi-koi")
    parser.add_argument("cards", nargs="+", metavar="CARD")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        cards = parse_pile(args.cards)
        if args.koikoi < 0:
            raise KibitzError("--koikoi must not be negative")
        profile = KoiKoiProfile.load(args.rules or args.profile)
    except KibitzError as exc:
        print(f"kibitz score: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(score_koikoi(cards, profile, args.koikoi, args.opponent_koikoi)))
    return 0


def parse_pile(codes: list[str]) -> CardSet:
    """Card codes to a set; a code given twice is an error (a real pile holds each card once)."""
    pile = CardSet()
    for code in codes:
        one = CardSet.parse(code)
        if not pile.isdisjoint(one):
            raise KibitzError(f"card {code!r} is listed twice")
        pile |= one
    return pile


def score_koikoi(cards: CardSet, profile: KoiKoiProfile, koikoi: int, opponent_koikoi: bool) -> dict[str, Any]:
    yaku = score_yaku(cards.mask, profile, koikoi_called=koikoi > 0)
    base = sum(y.points for y in yaku)
    total = round_total(base, profile, koikoi, opponent_koikoi) if base else 0
    return {"yaku": [{"name": y.name, "points": y.points} for y in yaku], "base": base, "total": total}
