"""Driving the app in tests: build screens with deterministic hints and play through pilots."""

from __future__ import annotations

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
