"""Modal screens: the deal at a real table, correcting a misread move, the yaku reference."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from companion.i18n import t
from engine.cards import ALL_CARDS
from engine.koikoi.advice import yaku_explanation
from engine.koikoi.profile import YAKU_NAMES, KoiKoiProfile
from engine.moves import Move

CARD_CODES = [card.code for card in ALL_CARDS]


class CardSuggester(SuggestFromList):
    """Completes the last card code of a line, so a whole hand can be typed with tab."""

    def __init__(self) -> None:
        super().__init__(CARD_CODES, case_sensitive=False)

    async def get_suggestion(self, value: str) -> str | None:
        head, _, last = value.rpartition(" ")
        if not last:
            return None
        suggestion = await super().get_suggestion(last)
        return None if suggestion is None else (f"{head} {suggestion}" if head else suggestion)


@dataclass(frozen=True)
class DealEntry:
    hand: str
    field: str
    leader: int


class DealDialog(ModalScreen[DealEntry | None]):
    """At a real table: type your hand and the field (tab completes card codes)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, lang: str, error: str = "") -> None:
        super().__init__()
        self.lang = lang
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(t("deal_title", self.lang), classes="title")
            yield Input(placeholder=t("deal_hand", self.lang), id="deal-hand", suggester=CardSuggester())
            yield Input(placeholder=t("deal_field", self.lang), id="deal-field", suggester=CardSuggester())
            yield Input(placeholder=t("deal_leader", self.lang), id="deal-leader", value="you")
            yield Label(self.error, id="deal-error", classes="error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        inputs = [self.query_one(f"#deal-{name}", Input) for name in ("hand", "field", "leader")]
        empty = next((i for i in inputs if not i.value.strip()), None)
        if empty is not None:
            empty.focus()
            return
        leader = inputs[2].value.strip().lower()
        if leader not in ("you", "opponent", "1", "2"):
            self.query_one("#deal-error", Label).update("who leads: type you or opponent")
            return
        self.dismiss(DealEntry(inputs[0].value, inputs[1].value, 0 if leader in ("you", "1") else 1))

    def action_cancel(self) -> None:
        self.dismiss(None)


@dataclass(frozen=True)
class Correction:
    index: int
    card: str


class CorrectionDialog(ModalScreen[Correction | None]):
    """Pick a move (the last one is selected) and type the card that was really there."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, moves: list[tuple[int, Move]], lang: str) -> None:
        super().__init__()
        self.moves = moves
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(t("correct_title", self.lang), classes="title")
            options = [Option(f"{i + 1}. {move}", id=str(i)) for i, (_, move) in enumerate(self.moves) if move.card]
            yield OptionList(*options, id="correct-moves")
            yield Input(placeholder="card code", id="correct-card", suggester=CardSuggester())

    def on_mount(self) -> None:
        moves = self.query_one(OptionList)
        if moves.option_count:
            moves.highlighted = moves.option_count - 1
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        moves = self.query_one(OptionList)
        if moves.highlighted is None or not event.value.strip():
            return
        option = moves.get_option_at_index(moves.highlighted)
        assert option.id is not None
        self.dismiss(Correction(int(option.id), event.value.strip()))

    def action_cancel(self) -> None:
        self.dismiss(None)


class ReferenceScreen(ModalScreen[None]):
    """Every yaku of the profile with its cards and points, in the chosen language."""

    BINDINGS = [Binding("escape,r,q", "close", "Close")]

    def __init__(self, profile: KoiKoiProfile, lang: str) -> None:
        super().__init__()
        self.profile = profile
        self.lang = lang

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Label(t("reference", self.lang), classes="title")
            for name in YAKU_NAMES:
                if self.profile.points.get(name):
                    yield Static(yaku_explanation(name, self.lang, self.profile), classes="reference-entry")

    def action_close(self) -> None:
        self.dismiss(None)
