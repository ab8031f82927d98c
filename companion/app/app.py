"""The kibitz Textual app: a shell that shows one game screen and routes camera messages to it."""

from __future__ import annotations

from textual.app import App
from textual.screen import Screen


class KibitzApp(App[None]):
    CSS_PATH = "kibitz.tcss"
    TITLE = "kibitz"

    def __init__(self, screen: Screen[None]) -> None:
        super().__init__()
        self.game_screen = screen

    def on_mount(self) -> None:
        self.push_screen(self.game_screen)
