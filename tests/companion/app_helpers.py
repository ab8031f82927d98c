"""Driving the app in tests: build screens with deterministic hints and play through pilots."""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.app.app import KibitzApp
from companion.app.koikoi_screen import KoiKoiScreen
from companion.session import KoiKoiSession
from engine.koikoi.bots import GreedyBot
from engine.koikoi.profile import KoiKoiProfile

SIZE = (120, 40)


def demo_app(seed: int = 3, rounds: int = 1, lang: str = "en", hints: bool = True, teach: bool = False,
             autoplay: bool = False) -> tuple[KibitzApp, KoiKoiScreen, KoiKoiSession]:
    session = KoiKoiSession(KoiKoiProfile.load("default"), mode="demo", seed=seed, bot=GreedyBot(), rounds=rounds)
    screen = KoiKoiScreen(session, lang=lang, hints=hints, teach=teach, autoplay=autoplay, bot_delay=0.01,
                          hint_samples=24)
    return KibitzApp(screen), screen, session


def manual_app(lang: str = "en", rounds: int = 1) -> tuple[KibitzApp, KoiKoiScreen, KoiKoiSession]:
    session = KoiKoiSession(KoiKoiProfile.load("default"), mode="manual", seed=1, rounds=rounds)
    screen = KoiKoiScreen(session, lang=lang, hints=False, bot_delay=0.01, hint_samples=16)
    return KibitzApp(screen), screen, session


async def wait_until(pilot, condition: Callable[[], bool], seconds: float = 120.0,  # type: ignore[no-untyped-def]
                     what: str = "the screen never got there") -> None:
    """Pause until ``condition()`` holds. The deadline is wall time and generous: a loaded machine starts the
    hint process slowly, and a test must fail only when the screen is wrong, not when the machine is busy."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(what)
        await pilot.pause(0.02)


def hints_shown(screen) -> bool:  # type: ignore[no-untyped-def]
    """The hints panel holds a final report (``(N samples)`` without the trailing ellipsis)."""
    text = str(screen.query_one("#hints").render())
    return "samples)" in text and "…)" not in text
