"""What every game screen shares: the hint process, the command line, language and teaching toggles, the
camera line. Subclasses draw their own table (``refresh_panels``) and react to a new state (``state_changed``).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.screen import Screen
from textual.widgets import Input, OptionList

from companion.app.messages import CameraStatus, HintsReady
from companion.hint_service import HintProcess
from companion.i18n import LANGS, t
from engine.errors import KibitzError


class GameScreen(Screen[None]):
    """Base of the game screens: the hint process, the command line, the toggles and the camera line."""

    SEEN = "seen"  # what the camera line counts ("cards" for the card games)

    def __init__(self, lang: str, hints: bool, teach: bool, camera: bool, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.lang = lang
        self.hints_on = hints
        self.teach = teach
        self.generation = 0
        self.hint_process: HintProcess | None = None
        self.hint_lines = Text()
        self.camera_line = Text() if camera else Text(t("camera_none", lang), style="dim")
        self.message = ""

    # Each game screen defines these hooks (Textual's metaclass rules out ``ABC``):
    state_changed: Callable[[], None]  # re-render, then start the bot or the hints as the new state needs
    refresh_panels: Callable[[], None]  # re-render only
    take_back: Callable[[], None]  # undo the last move in the session (a ``KibitzError`` when there is none)

    # ----------------------------------------------------------------- shared
    def message_suffix(self) -> str:
        return f"  ·  {self.message}" if self.message else ""

    def start_hint_process(self) -> HintProcess:
        if self.hint_process is None:
            self.hint_process = HintProcess(lambda report: self.post_message(HintsReady(report)))
        return self.hint_process

    def on_unmount(self) -> None:
        if self.hint_process is not None:
            self.hint_process.close()
            self.hint_process = None

    def on_camera_status(self, message: CameraStatus) -> None:
        if not message.connected:
            self.camera_line = Text(message.note or "camera lost, retrying…", style="bold red")
        else:
            self.camera_line = Text(f"{message.fps:.0f} fps, {message.cards_seen} {self.SEEN}")
            if message.low_confidence:
                self.camera_line.append(" · unsure: " + ", ".join(message.low_confidence), style="bold yellow")
            if message.note:
                self.camera_line.append(f" · {message.note}", style="dim")
        self.refresh_panels()

    def action_type_move(self) -> None:
        self.query_one("#command", Input).focus()

    def action_leave_command(self) -> None:
        self.query_one("#moves", OptionList).focus()

    def action_toggle_hints(self) -> None:
        self.hints_on = not self.hints_on
        self.state_changed()

    def action_toggle_teach(self) -> None:
        self.teach = not self.teach
        self.refresh_panels()

    def action_next_language(self) -> None:
        self.lang = LANGS[(LANGS.index(self.lang) + 1) % len(LANGS)]
        self.state_changed()

    def action_undo(self) -> None:
        try:
            self.take_back()
            self.message = ""
        except KibitzError as exc:
            self.message = str(exc)
        self.state_changed()
