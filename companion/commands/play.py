"""``kibitz play GAME [--camera N | --video FILE | --images DIR | --stream URL | --manual] ...``: the app at the
table.

Each game's screen module provides ``build_screen(game, args) -> Screen``; this command only parses the
common options and hands them over, so a new game is one line in ``GAMES``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any

from companion.i18n import LANGS
from engine.errors import KibitzError

# game name -> the module whose ``build_screen`` makes its screen
GAMES: dict[str, str] = {
    "koikoi": "companion.app.koikoi_screen",
    **dict.fromkeys(("hato", "minhwatu", "gostop", "matgo"), "companion.tables.hwatu"),
    **dict.fromkeys(("jielong", "cedeng", "kkori"), "companion.tables.dominoes"),
    "kan": "companion.tables.kan",
}


def build_screen(game: str, args: argparse.Namespace) -> Any:
    """The screen of ``game`` (``args.demo`` true: bots play the other seats, as in ``kibitz demo``)."""
    return importlib.import_module(GAMES[game]).build_screen(game, args)


def register(sub: Any) -> None:
    parser = sub.add_parser("play", help="follow a game at a real table")
    parser.add_argument("game", choices=sorted(GAMES))
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--manual", action="store_true", help="type the cards as they are played (the default)")
    source.add_argument("--camera", type=int, metavar="N", help="follow the table through webcam N")
    source.add_argument("--video", metavar="FILE", help="follow a recorded video of the table")
    source.add_argument("--images", metavar="DIR", help="follow a folder of photos of the table, in name order")
    source.add_argument("--stream", metavar="URL", help="follow a network stream (a phone camera app: rtsp://, http://)")
    rules = parser.add_mutually_exclusive_group()
    rules.add_argument("--profile", default=None, help="rule profile (default: the game's own)")
    rules.add_argument("--rules", metavar="FILE", help="a profile TOML file of house rules")
    parser.add_argument("--resume", metavar="RECORD", help="go on from a saved game record (JSON lines)")
    parser.add_argument("--players", type=int, default=None, help="number of players, where the game allows a choice")
    parser.add_argument("--lang", default="en", choices=LANGS)
    parser.add_argument("--no-hints", action="store_true")
    parser.add_argument("--teach", action="store_true", help="teaching mode: reasons and strategy advice")
    parser.set_defaults(run=run, demo=False)


def run(args: argparse.Namespace) -> int:
    from companion.app.app import KibitzApp

    try:
        screen = build_screen(args.game, args)
    except (KibitzError, OSError) as exc:
        print(f"kibitz play: {exc}", file=sys.stderr)
        return 2
    KibitzApp(screen).run()
    return 0
