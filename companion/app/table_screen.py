"""The table screen of the hwatu, domino and Kan games: panels, a move list, hints and a command line.

It knows no rules: a ``TableSession`` (``companion.tables``) supplies the panels' text, the legal moves and
the hint searches, and checks every move. Hints come from the hint process and the camera from its worker,
both only as messages.
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from companion.app.game_screen import GameScreen
from companion.app.messages import CameraConflict, CameraMove, HintsReady
from companion.hint_service import DEFAULT_SCHEDULE, UNREADABLE, TableHintRequest
from companion.i18n import t
from companion.tables.base import PanelText, TableSession
from engine.errors import KibitzError


class TablePanel(Static):
    """A bordered panel of a table screen."""


class DealPrompt(ModalScreen[str | None]):
    """Manual mode: the deal as one line of text (what the session's ``deal_prompt`` asks for)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, prompt: str, error: str = "") -> None:
        super().__init__()
        self.title_text, self.prompt, self.error = title, prompt, error

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.title_text, classes="title")
            yield Input(placeholder=self.prompt, id="deal-line")
            if self.error:
                yield Label(self.error, id="deal-error", classes="error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class TableScreen(GameScreen):
    BINDINGS = [
        Binding("h", "toggle_hints", "Hints"),
        Binding("t", "toggle_teach", "Teach"),
        Binding("u", "undo", "Undo"),
        Binding("n", "next_hand", "Next hand"),
        Binding("l", "next_language", "Language"),
        Binding("slash,colon", "type_move", "Type a move"),
        Binding("escape", "leave_command", "Back to the moves", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(
        self,
        session: TableSession,
        lang: str = "en",
        hints: bool = True,
        teach: bool = False,
        bot_delay: float = 0.6,
        hint_schedule: tuple[float, ...] = DEFAULT_SCHEDULE,
        hint_samples: int | None = None,
    ) -> None:
        super().__init__(lang, hints, teach, camera=session.mode == "camera", classes=f"table-{session.game}")
        self.session = session
        self.bot_delay = bot_delay
        self.hint_schedule = hint_schedule
        self.hint_samples = hint_samples

    # ----------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="table"):
            with Vertical(id="left"):
                for panel in self.session.panels(self.lang):
                    yield TablePanel(id=panel.key)
                yield OptionList(id="moves")
            with Vertical(id="right"):
                yield TablePanel(id="hints")
                for panel in self.session.side_panels(self.lang):
                    yield TablePanel(id=panel.key)
        yield Input(placeholder=t("table_input_placeholder", self.lang), id="command")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#moves", OptionList).focus()
        if self.hints_on:
            self.start_hint_process()
        if self.session.started:
            self.state_changed()
        else:
            self.ask_for_deal()

    # ----------------------------------------------------------------- refreshing
    def state_changed(self) -> None:
        """Re-render, then start the bot or the hints as the new state needs."""
        self.generation += 1
        session = self.session
        if session.started and not session.hand_over:
            if session.bot_to_move:
                self.set_timer(self.bot_delay, self.bot_step)
            elif self.hints_on and session.your_turn:
                self.hint_lines = Text(t("thinking", self.lang), style="dim italic")
                self.request_hints()
        self.refresh_panels()

    def refresh_panels(self) -> None:
        session, lang = self.session, self.lang
        self.query_one("#status", Static).update(Text(session.status(lang) + self.message_suffix()))
        for panel in session.panels(lang):
            self._show(panel)
        side = list(session.side_panels(lang))
        for panel in side[:-1]:
            self._show(panel)
        if side:  # the camera's state goes under the last side panel
            body = side[-1].body.copy()
            body.append(f"\n\n{t('camera', lang)}: ", style="bold")
            body.append_text(self.camera_line)
            self._show(PanelText(side[-1].key, side[-1].title, body))
        self._show(PanelText("hints", t("hints", lang), self.hints_text()))
        moves = self.query_one("#moves", OptionList)
        moves.border_title = t("legal_moves", lang)
        moves.clear_options()
        moves.add_options([Option(choice.label, id=choice.token) for choice in session.choices(lang)])
        self.query_one("#command", Input).placeholder = t("table_input_placeholder", lang)

    def _show(self, panel: PanelText) -> None:
        widget = self.query_one(f"#{panel.key}", TablePanel)
        widget.border_title = panel.title
        widget.update(panel.body)

    def hints_text(self) -> Text:
        session, lang = self.session, self.lang
        if not self.hints_on:
            return Text(t("hints_off", lang), style="dim")
        if not session.started or session.hand_over or not session.your_turn:
            out = Text(t("not_your_turn", lang), style="dim")
        else:
            out = self.hint_lines.copy()
        if self.teach and session.started and not session.hand_over:
            advice = session.advice(lang)
            if advice:
                out.append(f"\n\n{t('advice', lang)}:\n", style="bold")
                for line in advice[:3]:
                    out.append(f"• {line}\n", style="italic")
        return out

    # ----------------------------------------------------------------- hints
    def request_hints(self) -> None:
        search = self.session.hint_search(self.lang, seed=self.generation)
        if search is None:
            self.hint_lines = Text()
            return
        self.start_hint_process().request(
            TableHintRequest(self.generation, search, self.hint_schedule, self.hint_samples)
        )

    def on_hints_ready(self, ready: HintsReady) -> None:
        report = ready.report
        if report.generation not in (self.generation, UNREADABLE):
            return  # the table has moved on
        if report.error:
            self.hint_lines = Text(f"hints unavailable: {report.error}", style="red")
        else:
            out = Text()
            for i, line in enumerate(report.lines[:5]):
                out.append(f"{i + 1}. ", style="bold" if i == 0 else "")
                out.append(line.label)
                out.append(f"  · {t('expected', self.lang, v=line.value)} ±{line.stderr:.1f}\n", style="cyan")
                if line.reason and (i < 3 or self.teach):
                    out.append(f"   {line.reason}\n", style="italic dim")
            out.append(f"({report.samples} samples{'' if report.final else ' …'})", style="dim")
            self.hint_lines = out
        self._show(PanelText("hints", t("hints", self.lang), self.hints_text()))

    # ----------------------------------------------------------------- moves
    def play(self, text: str, source: str = "typed") -> None:
        try:
            self.session.apply(text, source)
            self.message = ""
        except KibitzError as exc:
            self.message = str(exc)
        self.state_changed()

    def bot_step(self) -> None:
        if self.session.started and not self.session.hand_over and self.session.bot_to_move:
            self.session.play_bot()
            self.state_changed()

    @on(OptionList.OptionSelected, "#moves")
    def move_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.play(event.option.id)

    @on(Input.Submitted, "#command")
    def command_entered(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if text.lower() == "undo":
            self.action_undo()
        elif text:
            self.play(text)

    def on_camera_move(self, message: CameraMove) -> None:
        self.play(message.move, source="camera")

    def on_camera_conflict(self, message: CameraConflict) -> None:
        self.message = f"camera conflict: {message.description}"
        self.refresh_panels()

    # ----------------------------------------------------------------- actions
    def take_back(self) -> None:
        self.session.undo()

    def action_next_hand(self) -> None:
        session = self.session
        if session.started and not session.hand_over:
            return
        if session.match_over:
            self.app.exit()
            return
        session.next_hand()
        if session.started:
            self.state_changed()
        else:
            self.ask_for_deal()

    def ask_for_deal(self, error: str = "") -> None:
        prompt = DealPrompt(t("deal_title", self.lang), self.session.deal_prompt(self.lang), error)
        self.app.push_screen(prompt, self.deal_entered)

    def deal_entered(self, text: str | None) -> None:
        if text is None:
            if not self.session.started:
                self.app.exit()
            return
        try:
            self.session.start_from_text(text)
        except KibitzError as exc:
            self.ask_for_deal(str(exc))
            return
        self.state_changed()
