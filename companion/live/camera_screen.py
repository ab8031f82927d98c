"""The table screen while a camera follows the game (dominoes, hwatu): the camera worker's session is the
truth and this screen's session its mirror, brought in line by the bridge's ``sync`` on every ``CameraSync``.
Moves typed or picked here go to the worker, which sends the state back; nothing is applied here first."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from companion.app.messages import CameraMove, CameraNotice, CameraSync
from companion.app.table_screen import TableScreen
from companion.live.app_bridge import CameraBridge
from engine.errors import IllegalMoveError

SHOWN_NOTICES = frozenset({"round", "revised", "assumed", "round-end", "error", "awaiting", "waiting", "hidden",
                            "revealed", "clutter"})


class CameraTableScreen(TableScreen):
    """A ``TableScreen`` over ``camera.mirror`` (a ``TableSession`` in "camera" mode) that starts the worker."""

    def __init__(self, camera: CameraBridge, **kwargs: Any) -> None:
        super().__init__(camera.mirror, **kwargs)  # type: ignore[arg-type]
        self.camera = camera
        self.refused = False  # the message is the worker refusing what was typed: it stays until the next input

    # Textual calls the handlers of every class in the MRO: TableScreen's on_mount runs after this one and asks
    # for the deal (``ask_for_deal``, here: wait for the camera); its on_camera_move calls ``play`` (ignored here).
    def on_mount(self) -> None:
        self.camera.start(self.post_message)

    def on_unmount(self) -> None:
        self.camera.stop()

    def ask_for_deal(self, error: str = "") -> None:
        self.message = f"waiting for the camera to see the deal (recording to {self.camera.record_path})"
        self.refresh_panels()

    def refresh_panels(self) -> None:
        if self.session.started:
            super().refresh_panels()
        else:
            self.query_one("#status", Static).update(self.message)

    def play(self, text: str, source: str = "typed") -> None:
        if source == "camera":
            return  # the state itself comes as CameraSync
        self.camera.typed(text)
        self.refused = False
        self.message = f"sent to the camera's game: {text}"
        self.refresh_panels()

    def on_camera_move(self, message: CameraMove) -> None:
        self.message = f"camera: {message.move}"
        self.refresh_panels()

    def on_camera_sync(self, message: CameraSync) -> None:
        if self.camera.sync(message.rounds):
            if not (self.refused or self.message.startswith("camera")):
                self.message = ""
            self.state_changed()

    def on_camera_notice(self, message: CameraNotice) -> None:
        if message.kind in SHOWN_NOTICES:
            self.message = message.text
            self.refused = message.kind == "error"
            self.refresh_panels()

    def take_back(self) -> None:
        raise IllegalMoveError("the camera keeps the moves: type the right move, or 'look' to look again")

    def action_next_hand(self) -> None:
        if self.session.match_over:
            self.app.exit()
            return
        self.message = "the camera reads the next deal from the table"
        self.refresh_panels()
