"""``kibitz score koikoi|hato|minhwatu|gostop|matgo [--profile P | --rules FILE] ... CARD...``"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.cardset import CardSet
from engine.errors import KibitzError
from engine.hwatu.names import HWATU_LANGS
from engine.hwatu.report import GAMES as HWATU_GAMES
from engine.hwatu.report import load_profile, score_report
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.yaku import round_total, score_yaku

GAMES = ("koikoi", *HWATU_GAMES)


def register(sub: Any) -> None:
    parser = sub.add_parser("score", help="score a captured pile and print JSON")
    parser.add_argument("game", choices=GAMES)
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--profile", help="a shipped rule profile (default: default for koikoi, else the game's own)")
    source.add_argument("--rules", metavar="FILE", help="your own TOML rules file")
    parser.add_argument("--koikoi", type=int, default=0, metavar="N", help="koi-koi calls the owner made")
    parser.add_argument("--opponent-koikoi", action="store_true", help="the opponent had called koi-koi")
    parser.add_argument("--go", type=int, default=0, metavar="N", help="go calls the owner made (gostop, matgo)")
    parser.add_argument("--shakes", type=int, default=0, metavar="N", help="the owner's shakes (gostop, matgo)")
    parser.add_argument("--bombs", type=int, default=0, metavar="N", help="the owner's bombs (gostop, matgo)")
    parser.add_argument("--lang", choices=HWATU_LANGS, help="label each element in this language (hwatu games)")
    parser.add_argument("cards", nargs="+", metavar="CARD")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        cards = parse_pile(args.cards)
        if args.game == "koikoi":
            if args.go or args.shakes or args.bombs or args.lang:
                raise KibitzError("--go, --shakes, --bombs and --lang are for the hwatu games")
            if args.koikoi < 0:
                raise KibitzError("--koikoi must not be negative")
            profile = KoiKoiProfile.load(args.rules or args.profile or "default")
            report = score_koikoi(cards, profile, args.koikoi, args.opponent_koikoi)
        else:
            if args.koikoi or args.opponent_koikoi:
                raise KibitzError("--koikoi and --opponent-koikoi are for koikoi")
            hwatu = load_profile(args.game, args.rules or args.profile)
            report = score_report(hwatu, cards, args.go, args.shakes, args.bombs, args.lang)
    except KibitzError as exc:
        print(f"kibitz score: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report, ensure_ascii=False))
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
