"""``kibitz play koikoi [--manual] [--profile P] [--lang L]``: the app at a real table."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.i18n import LANGS
from engine.errors import KibitzError
from engine.koikoi.profile import KoiKoiProfile

GAMES = ("koikoi",)


def register(sub: Any) -> None:
    parser = sub.add_parser("play", help="follow a game at a real table")
    parser.add_argument("game", choices=GAMES)
    parser.add_argument("--manual", action="store_true", help="type the cards as they are played (the default)")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--profile", default="default")
    source.add_argument("--rules", metavar="FILE")
    parser.add_argument("--lang", default="en", choices=LANGS)
    parser.add_argument("--no-hints", action="store_true")
    parser.add_argument("--teach", action="store_true", help="teaching mode: reasons and strategy advice")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from companion.app.app import KibitzApp
    from companion.app.koikoi_screen import KoiKoiScreen
    from companion.session import KoiKoiSession

    try:
        profile = KoiKoiProfile.load(args.rules or args.profile)
    except KibitzError as exc:
        print(f"kibitz play: {exc}", file=sys.stderr)
        return 2
    session = KoiKoiSession(profile, mode="manual")
    KibitzApp(KoiKoiScreen(session, lang=args.lang, hints=not args.no_hints, teach=args.teach)).run()
    return 0
