"""What the generic table screen needs from a game: the contract every game session fulfils.

The screen (``companion.app.table_screen``) knows no rules. A ``TableSession`` follows one game from one
seat and turns its state into panels of text, a list of legal moves and hint searches; it takes moves as
text (typed, clicked, from the camera or a bot) and checks them with the engine. No widgets here, so every
game's logic is testable without a terminal. Koi-Koi has its own, richer screen; the hwatu games,
the domino games and Kan use this one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from engine.errors import InvalidStateError
from engine.montecarlo import SampledSearch


@dataclass(frozen=True)
class PanelText:
    """One panel: ``key`` names it (and its CSS id), ``title`` is shown in its border."""

    key: str
    title: str
    body: Text


@dataclass(frozen=True)
class MoveChoice:
    """A legal move as the move list shows it; ``token`` is text that ``TableSession.apply`` accepts."""

    token: str
    label: str


@dataclass(frozen=True)
class HintLine:
    """A ranked move in a hint report: its expected payoff (in the game's points) and why."""

    token: str
    label: str
    value: float
    stderr: float
    reason: str


@dataclass
class TableHintSearch:
    """What the hint process runs for a table game: a sampled search plus each move's label and reason.

    Labels and reasons are made up front, in the app's language, so the process needs no game texts.
    """

    search: SampledSearch[Any, Any]
    labels: dict[int, tuple[str, str, str]]  # index in search.moves -> (token, label, reason)
    unit: str = "pts"

    @property
    def samples(self) -> int:
        return self.search.samples

    def step(self, budget_s: float) -> None:
        self.search.step(budget_s)

    def add_samples(self, worlds: int) -> None:
        self.search.add_samples(worlds)

    def lines(self) -> list[HintLine]:
        out = []
        for value in self.search.ranked():
            token, label, reason = self.labels[value.index]
            out.append(HintLine(token, label, value.mean, value.stderr, reason))
        return out


class TableSession(ABC):
    """One game followed from seat ``you``: ``demo`` (bots play the other seats), ``manual`` or ``camera``."""

    game: str
    mode: str
    you: int

    # ----------------------------------------------------------------- what the screen shows
    @abstractmethod
    def status(self, lang: str) -> str:
        """One line: the hand/deal number, whose turn, what is to be done."""

    @abstractmethod
    def panels(self, lang: str) -> Sequence[PanelText]:
        """The table, in the main column: always the same keys in the same order for a game."""

    @abstractmethod
    def side_panels(self, lang: str) -> Sequence[PanelText]:
        """Scores, progress and history, in the side column under the hints."""

    @abstractmethod
    def choices(self, lang: str) -> Sequence[MoveChoice]:
        """The legal moves of the player to act (empty when the hand is over)."""

    def advice(self, lang: str) -> Sequence[str]:
        """Teaching mode: strategy notes that apply to the position now (none by default)."""
        return ()

    # ----------------------------------------------------------------- flow
    @property
    @abstractmethod
    def started(self) -> bool:
        """Whether a hand is on the table (a manual session waits for its deal first)."""

    @property
    @abstractmethod
    def hand_over(self) -> bool: ...

    @property
    @abstractmethod
    def match_over(self) -> bool: ...

    @property
    @abstractmethod
    def your_turn(self) -> bool:
        """Whether the player at seat ``you`` is to act (and so wants hints)."""

    @property
    @abstractmethod
    def bot_to_move(self) -> bool:
        """Demo mode: whether a bot seat is to act."""

    @abstractmethod
    def play_bot(self) -> None: ...

    @abstractmethod
    def apply(self, text: str, source: str = "typed") -> None:
        """Make the move that ``text`` names; a ``KibitzError`` says why it is invalid or illegal."""

    @abstractmethod
    def undo(self) -> None:
        """Take back the last move (a ``KibitzError`` when there is none)."""

    @abstractmethod
    def next_hand(self) -> None:
        """Deal the next hand (demo) or wait for its deal (manual)."""

    def deal_prompt(self, lang: str) -> str:
        """Manual mode: what to type to start a hand (the screen asks when ``started`` is false)."""
        return ""

    def start_from_text(self, text: str) -> None:
        """Manual mode: start a hand from the typed deal (see ``deal_prompt``)."""
        raise InvalidStateError(f"{self.game}: this session deals by itself")

    # ----------------------------------------------------------------- hints
    @abstractmethod
    def hint_search(self, lang: str, seed: int) -> TableHintSearch | None:
        """A search over the legal moves of the player at ``you`` (None when there is nothing to weigh)."""
