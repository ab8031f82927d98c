"""``kibitz demo``: the app playing Koi-Koi against a bot with every hint on; ``--text`` narrates a bot match."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.i18n import LANGS
from engine.bots import RandomBot
from engine.errors import KibitzError
from engine.koikoi.bots import GreedyBot
from engine.koikoi.match import KoiKoiMatch
from engine.koikoi.profile import KoiKoiProfile


def register(sub: Any) -> None:
    parser = sub.add_parser("demo", help="play a Koi-Koi match against a bot, every hint on (no camera needed)")
    parser.add_argument("--game", default="koikoi", help="another game's table with bots in the other seats: "
                        "hato, minhwatu, gostop, matgo, jielong, cedeng, kkori, kan")
    parser.add_argument("--players", type=int, default=None, help="number of players, where the game allows a choice")
    parser.add_argument("--profile", default="default")
    parser.add_argument("--seed", type=int, default=None, help="seed of the shuffle (default: random)")
    parser.add_argument("--rounds", type=int, help="rounds to play (default: the profile's)")
    parser.add_argument("--text", action="store_true", help="print the match as text instead of the app")
    parser.add_argument("--lang", default="en", choices=LANGS)
    parser.add_argument("--autoplay", action="store_true", help="let the hints play your seat too")
    parser.add_argument("--teach", action="store_true", help="teaching mode: reasons and strategy advice")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds between printed lines")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.game != "koikoi":
        return _other_game(args)
    try:
        profile = KoiKoiProfile.load(args.profile)
    except KibitzError as exc:
        print(f"kibitz demo: {exc}", file=sys.stderr)
        return 2
    if args.text:
        from companion.textdemo import narrate_match

        match = KoiKoiMatch(profile, seed=args.seed, rounds=args.rounds)
        narrate_match(match, [GreedyBot(), RandomBot(args.seed)], sys.stdout, args.delay)
        return 0
    from companion.app.app import KibitzApp
    from companion.app.koikoi_screen import KoiKoiScreen
    from companion.session import KoiKoiSession

    session = KoiKoiSession(profile, mode="demo", seed=args.seed, bot=GreedyBot(), rounds=args.rounds)
    screen = KoiKoiScreen(session, lang=args.lang, hints=True, teach=args.teach, autoplay=args.autoplay)
    KibitzApp(screen).run()
    return 0


def _other_game(args: argparse.Namespace) -> int:
    from companion.app.app import KibitzApp
    from companion.commands.play import GAMES, build_screen

    if args.game not in GAMES:
        print(f"kibitz demo: unknown game {args.game!r}; choose from {', '.join(sorted(GAMES))}", file=sys.stderr)
        return 2
    args.demo, args.profile = True, None if args.profile == "default" else args.profile
    args.no_hints, args.rules, args.resume = False, None, None
    try:
        screen = build_screen(args.game, args)
    except KibitzError as exc:
        print(f"kibitz demo: {exc}", file=sys.stderr)
        return 2
    KibitzApp(screen).run()
    return 0
