"""The Koi-Koi table screen: panels that render the session's model, a move list, a command line.

All game logic lives in ``KoiKoiSession``; this screen turns keys and clicks into session calls and
the session's model into text. Hints and the camera arrive only as messages from worker threads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from companion.app import render
from companion.app.dialogs import Correction, CorrectionDialog, DealDialog, DealEntry, ReferenceScreen
from companion.app.game_screen import GameScreen
from companion.app.messages import CameraConflict, CameraMove, CameraNotice, CameraSync, HintsReady
from companion.hint_service import DEFAULT_SCHEDULE, HintRequest
from companion.i18n import t
from companion.session import KoiKoiSession, TableModel
from engine.capture import Phase
from engine.cards import Card
from engine.errors import InvalidStateError, KibitzError
from engine.koikoi.advice import strategy_advice
from engine.koikoi.hints import MatchContext
from engine.koikoi.progress import yaku_progress
from engine.moves import Move

if TYPE_CHECKING:
    from companion.live.app_bridge import CameraBridge


class Panel(Static):
    """A bordered text panel whose title follows the language."""

    def __init__(self, title_key: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.title_key = title_key


class KoiKoiScreen(GameScreen):
    SEEN = "cards"
    BINDINGS = [
        Binding("h", "toggle_hints", "Hints"),
        Binding("t", "toggle_teach", "Teach"),
        Binding("r", "reference", "Yaku"),
        Binding("c", "correct", "Correct"),
        Binding("u", "undo", "Undo"),
        Binding("n", "next_round", "Next round"),
        Binding("l", "next_language", "Language"),
        Binding("a", "toggle_autoplay", "Autoplay", show=False),
        Binding("slash,colon", "type_move", "Type a move"),
        Binding("escape", "leave_command", "Back to the moves", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(
        self,
        session: KoiKoiSession,
        lang: str = "en",
        hints: bool = True,
        teach: bool = False,
        autoplay: bool = False,
        bot_delay: float = 0.6,
        hint_schedule: tuple[float, ...] = DEFAULT_SCHEDULE,
        hint_samples: int | None = None,
        camera: CameraBridge | None = None,
    ) -> None:
        super().__init__(lang, hints, teach, camera=session.mode == "camera")
        self.session = session
        self.autoplay = autoplay
        self.bot_delay = bot_delay
        self.hint_schedule = hint_schedule
        self.hint_samples = hint_samples
        self.camera = camera  # the worker following the table; the session is then its mirror

    # ----------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="table"):
            with Vertical(id="left"):
                yield Panel("field", id="field")
                yield Panel("your_hand", id="hand")
                with Horizontal(id="piles"):
                    yield Panel("your_captures", id="mine")
                    yield Panel("their_captures", id="theirs")
                yield OptionList(id="moves")
            with Vertical(id="right"):
                yield Panel("hints", id="hints")
                yield Panel("yaku", id="progress")
                yield Panel("scoreboard", id="side")
        yield Input(placeholder=t("input_placeholder", self.lang), id="command")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#moves", OptionList).border_title = t("legal_moves", self.lang)
        self.query_one("#moves", OptionList).focus()  # letters are commands; "/" starts typing a move
        if self.hints_on:
            self.start_hint_process()  # warm before the first question
        if self.session.mode == "demo":
            self.session.start_round()
            self.state_changed()
        elif self.camera is not None:
            self.message = f"waiting for the camera to see the deal (recording to {self.camera.record_path})"
            self.refresh_panels()
            self.camera.start(self.post_message)
        else:
            self.ask_for_deal()

    # ----------------------------------------------------------------- refreshing
    def state_changed(self) -> None:
        """Re-render everything, then start hints and the bot as the new state needs."""
        self.generation += 1
        session = self.session
        view = session.view
        if view is not None and not view.is_over:
            if session.bot_to_move:
                self.set_timer(self.bot_delay, self.bot_step)
            elif session.mode == "demo" and view.phase is Phase.FLIP and len(session.legal_moves()) == 1:
                self.set_timer(self.bot_delay, self.auto_flip)  # nothing to choose: the card just turns
            elif self.hints_on and view.turn == session.you and (view.phase is not Phase.FLIP or session.truth):
                self.hint_lines = Text(t("thinking", self.lang), style="dim italic")
                self.request_hints()
        self.refresh_panels()

    def refresh_panels(self) -> None:
        session, lang = self.session, self.lang
        if session.view is None:
            self.query_one("#status", Static).update(Text(self.message))
            self.query_one("#side", Static).update(Text(f"{t('camera', lang)}: ", style="bold") + self.camera_line)
            return
        model = session.model()
        for panel in self.query(Panel):
            panel.border_title = t(panel.title_key, lang)
        self.query_one("#status", Static).update(Text(render.status_line(model, lang) + self.message_suffix()))
        self.query_one("#field", Static).update(render.field_text(model, lang))
        self.query_one("#mine", Static).update(render.captures_text(model, model.you, lang))
        self.query_one("#theirs", Static).update(render.captures_text(model, 1 - model.you, lang))
        self.query_one("#hand", Static).update(render.hand_text(model, lang))
        self.query_one("#progress", Static).update(self.progress_text())
        self.query_one("#side", Static).update(self.side_text(model))
        self.query_one("#hints", Static).update(self.hints_text())
        moves = self.query_one("#moves", OptionList)
        moves.border_title = t("legal_moves", lang)
        moves.clear_options()
        moves.add_options([Option(render.move_text(m, lang), id=str(m)) for m in model.legal])
        self.query_one("#command", Input).placeholder = t("input_placeholder", lang)

    def progress_text(self) -> Text:
        out = Text()
        for line in yaku_progress(self.session.state, self.session.you)[:8]:
            style = "strike dim" if line.dead else ("bold magenta" if line.points else "")
            out.append(line.text(self.lang) + "\n", style=style)
        return out

    def side_text(self, model: TableModel) -> Text:
        out = render.scoreboard_text(model, self.lang)
        out.append("\n\n")
        out.append(f"{t('camera', self.lang)}: ", style="bold")
        out.append_text(self.camera_line)
        out.append("\n\n")
        out.append_text(render.history_text(model, self.lang))
        return out

    def hints_text(self) -> Text:
        if not self.hints_on:
            return Text(t("hints_off", self.lang), style="dim")
        view = self.session.view
        if view is None or view.is_over or view.turn != self.session.you:
            out = Text(t("not_your_turn", self.lang), style="dim")
        else:
            out = self.hint_lines.copy()
        if self.teach and view is not None and not view.is_over:
            out.append(f"\n\n{t('advice', self.lang)}:\n", style="bold")
            for reason in strategy_advice(view, self.session.you, self.match_context())[:3]:
                out.append(f"• {reason.text(self.lang)}\n", style="italic")
        return out

    def match_context(self) -> MatchContext:
        match = self.session.match
        scores = (match.scores[0], match.scores[1])
        return MatchContext(round_number=len(match.results) + 1, rounds=match.rounds or 1, scores=scores)

    # ----------------------------------------------------------------- hints
    def request_hints(self) -> None:
        """Ask the hint process about the current state; its reports come back as ``HintsReady``."""
        process = self.start_hint_process()
        session = self.session
        # In demo mode the true round tells the search which card a flip turned, nothing more: the
        # search itself only looks at the player's view.
        state = session.truth or session.state
        process.request(
            HintRequest(self.generation, state, session.you, self.match_context(), self.hint_schedule,
                        self.hint_samples, greedy_opponent=session.greedy_opponent)
        )

    def on_unmount(self) -> None:
        if self.camera is not None:
            self.camera.stop()
        super().on_unmount()

    def on_hints_ready(self, ready: HintsReady) -> None:
        message = ready.report
        if message.generation != self.generation:
            return  # the table has moved on
        lang = self.lang
        out = Text()
        if message.error:
            self.hint_lines = Text(f"hints unavailable: {message.error}", style="red")
            self.query_one("#hints", Static).update(self.hints_text())
            return
        if message.decision is not None:
            d = message.decision
            out.append(
                t("decision_hint", lang, stop=d.stop_points, go=d.koikoi_expected, p=d.opponent_first) + "\n",
                style="bold",
            )
            out.append("→ ")
            out.append_text(render.move_text(d.advice, lang))
            out.append(f"  {d.reason.text(lang)}\n", style="italic")
        for i, hint in enumerate(message.moves[:5]):
            out.append(f"{i + 1}. ", style="bold" if i == 0 else "")
            out.append_text(render.move_text(hint.move, lang))
            out.append(f"   {t('chance', lang, p=hint.value)} · {t('expected', lang, v=hint.points)}\n", style="cyan")
            if i < 3 or self.teach:
                out.append(f"   {hint.reason.text(lang)}\n", style="italic dim")
        out.append(f"({message.samples} samples{'' if message.final else ' …'})", style="dim")
        self.hint_lines = out
        self.query_one("#hints", Static).update(self.hints_text())
        if message.final and self.autoplay and (message.decision is not None or message.moves):
            best = message.decision.advice if message.decision is not None else message.moves[0].move
            self.play(best, source="hint")

    # ----------------------------------------------------------------- moves
    def play(self, move: Move, source: str = "typed") -> None:
        if self.camera is not None and source != "camera":
            self.camera.typed(str(move))  # the worker's session decides; the state comes back as CameraSync
            return
        try:
            self.session.apply(move, source)
            self.message = ""
        except KibitzError as exc:
            self.message = str(exc)
        self.state_changed()

    def auto_flip(self) -> None:
        view = self.session.view
        if view is not None and view.phase is Phase.FLIP and view.turn == self.session.you:
            self.play(self.session.legal_moves()[0], source="flip")

    def bot_step(self) -> None:
        if self.session.bot_to_move:
            self.session.play_bot()
            self.state_changed()

    @on(OptionList.OptionSelected, "#moves")
    def move_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.play(Move.parse(event.option.id))

    @on(Input.Submitted, "#command")
    def command_entered(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if not text:
            return
        if self.camera is not None:
            self.camera.typed(text)
            return
        if text.lower() == "undo":
            self.action_undo()
            return
        try:
            move = self.session.resolve(text)
        except KibitzError as exc:
            self.message = str(exc)
            self.refresh_panels()
            return
        self.play(move)

    def on_camera_move(self, message: CameraMove) -> None:
        if self.camera is not None:  # a notice: the state itself comes as CameraSync
            self.message = f"camera: {message.move}"
            self.refresh_panels()
            return
        try:
            move = self.session.resolve(message.move)
        except KibitzError as exc:
            self.message = f"camera: {exc}"
            self.refresh_panels()
            return
        self.play(move, source="camera")

    def on_camera_conflict(self, message: CameraConflict) -> None:
        self.message = f"camera conflict: {message.description} — press c to correct"
        self.refresh_panels()

    def on_camera_sync(self, message: CameraSync) -> None:
        if self.camera is not None and self.camera.sync(message.rounds):
            self.state_changed()

    def on_camera_notice(self, message: CameraNotice) -> None:
        self.message = message.text if message.kind != "error" else f"error: {message.text}"
        self.refresh_panels()

    # ----------------------------------------------------------------- actions
    def action_toggle_autoplay(self) -> None:
        self.autoplay = not self.autoplay
        self.state_changed()

    def action_reference(self) -> None:
        self.app.push_screen(ReferenceScreen(self.session.profile, self.lang))

    def take_back(self) -> None:
        if self.camera is not None:
            raise InvalidStateError("the camera keeps the moves: press c to correct one")
        self.session.take_back()

    def action_correct(self) -> None:
        history = [(p, m) for p, m, _ in self.session.history]
        if not any(m.card for _, m in history):
            self.message = t("nothing_to_correct", self.lang)
            self.refresh_panels()
            return
        self.app.push_screen(CorrectionDialog(history, self.lang), self.correction_made)

    def correction_made(self, correction: Correction | None) -> None:
        if correction is None:
            return
        if self.camera is not None:  # fixed in the worker's session and record, then mirrored here
            self.camera.correct(correction.index, correction.card)
            return
        try:
            self.session.correct(correction.index, Card.parse(correction.card))
            self.message = ""
        except KibitzError as exc:
            self.message = str(exc)
        self.state_changed()

    def action_next_round(self) -> None:
        session = self.session
        if session.view is not None and not session.view.is_over:
            return
        if session.match.is_over:
            self.app.exit()
            return
        if self.camera is not None:
            self.message = "the camera reads the next deal from the table"
            self.refresh_panels()
        elif session.mode == "demo":
            session.start_round()
            self.state_changed()
        else:
            self.ask_for_deal()

    def ask_for_deal(self, error: str = "") -> None:
        self.app.push_screen(DealDialog(self.lang, error), self.deal_entered)

    def deal_entered(self, entry: DealEntry | None) -> None:
        if entry is None:
            if self.session.view is None:
                self.app.exit()
            return
        try:
            deal = self.session.table_deal(entry.hand, entry.field, entry.leader)
            self.session.start_round(deal)
        except KibitzError as exc:
            self.ask_for_deal(str(exc))
            return
        self.state_changed()


def build_screen(game: str, args: object, **camera: object) -> KoiKoiScreen:
    """The screen ``kibitz play koikoi`` shows (see ``companion.commands.play``): typed moves, or with
    ``--camera/--video/--images`` a camera worker (``camera`` are its options: recogniser, stability, realtime).
    A bad source or a damaged ``--resume`` record is refused here, before the app starts."""
    from companion.live.app_bridge import open_camera
    from engine.koikoi.profile import KoiKoiProfile

    options = vars(args)
    profile = KoiKoiProfile.load(options.get("rules") or options.get("profile") or "default")
    if options.get("video") or options.get("images"):
        camera.setdefault("realtime", True)  # a recording plays at its own pace, as the camera saw it
    bridge = open_camera(options, profile, **camera)
    session = bridge.mirror if bridge is not None else KoiKoiSession(profile, mode="manual")
    return KoiKoiScreen(session, lang=options.get("lang", "en"), hints=not options.get("no_hints"),
                        teach=bool(options.get("teach")), camera=bridge)
