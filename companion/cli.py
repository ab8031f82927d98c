"""The ``kibitz`` command line: one sub-command per module in ``companion.commands``."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from companion.commands import COMMAND_MODULES


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="kibitz", description="A companion for real card and tile tables.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"companion.commands.{name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
