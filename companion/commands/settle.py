"""``kibitz settle jielong|cedeng|kkori [--variant V]... [--rules FILE] PIPS...`` or ``... --hands TILES...``:
who pays whom after a Chinese-dominoes deal, as JSON (players in turn order, the first player of the deal
first)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.dominoes.profile import GAMES, DominoProfile
from engine.dominoes.report import settle_report
from engine.dominoes.tileset import DECKS, TileSet
from engine.errors import KibitzError


def register(sub: Any) -> None:
    parser = sub.add_parser("settle", help="settle a Chinese-dominoes deal from each player's pips and print JSON")
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--variant", action="append", default=[], metavar="NAME",
                        help="a variant of the game's profile (jielong: two-arm; cedeng: head6-tail7; "
                             "kkori: holder-leads, at-least-30, chips); repeat for more")
    parser.add_argument("--rules", metavar="FILE", help="your own TOML rules file (extends = \"GAME\")")
    parser.add_argument("--hands", action="store_true",
                        help='the values are each player\'s face-down (and leftover) tiles, e.g. --hands "1:3 6:6" '
                             '"2:2" "-" ("-" for none)')
    parser.add_argument("--counts", metavar="N,N,...",
                        help="with PIPS: the tiles each player did not lay (Ce Deng needs them)")
    parser.add_argument("--eight-doubles", type=int, metavar="PLAYER",
                        help="Ce Deng: this player was dealt eight doubles; PIPS/--hands are the whole hands")
    parser.add_argument("--set", choices=tuple(DECKS), help="the tile set --hands are checked against")
    # One positional list with nargs="+" (not "*"), so that it may follow the options.
    parser.add_argument("values", nargs="+", metavar="PIPS", help="each player's pips (or tiles), first player first")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        profile = DominoProfile.load(args.rules or args.game, args.variant)
        if profile.game != args.game:
            raise KibitzError(f"rules file {args.rules} is for {profile.game}, not {args.game}")
        hands = [_hand(text, i) for i, text in enumerate(args.values)] if args.hands else None
        pips = None if args.hands else [_number(text, "pips") for text in args.values]
        counts = [_number(text, "--counts") for text in args.counts.split(",")] if args.counts else None
        eight = None if args.eight_doubles is None else args.eight_doubles - 1
        report = settle_report(profile, pips, hands, counts, eight, args.set)
    except KibitzError as exc:
        print(f"kibitz settle: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report, ensure_ascii=False))
    return 0


def _number(text: str, what: str) -> int:
    if not text.strip().isdigit():
        raise KibitzError(f"{what} must be whole numbers of at least 0, not {text!r}")
    return int(text)


def _hand(text: str, index: int) -> TileSet:
    try:
        return TileSet.parse(text)
    except KibitzError as exc:
        raise KibitzError(f"--hands, player {index + 1}: {exc}") from exc
