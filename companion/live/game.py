"""What a game must provide to be followed live: the table its state predicts, and the legal action sequences
that could have led to what the camera sees.

The inference (``companion.live.infer``) is game-neutral: it compares predicted and observed tables and ranks
candidates. A game adapter only knows its engine. Koi-Koi is ``companion.live.koikoi``; the Korean capture
games reuse it with their own engine round; dominoes predict tiles on the open ends (``field``) and face-down
tiles; Kan predicts the trick (``field``) and the trick piles (``captures-N``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from companion.live.table import ObservedTable, SeenCard


@dataclass(frozen=True)
class Expect:
    """One card (of a visual class) the state says is visible in ``role``; ``alt_role`` is a place where it may
    still lie at a small cost (a capture not yet gathered, still on the field), ``group`` ties cards that move
    together (they should lie near each other while they wait there); ``may_hide`` cards cost little when
    unseen (old captures under newer ones)."""

    cls: str
    role: str
    alt_role: str | None = None
    group: int = -1
    may_hide: bool = False  # it may be out of sight without meaning anything (under a pile of captures)
    fixed: bool = False  # it never moves again this round (so, like ``may_hide``, unseen it costs little)


@dataclass(frozen=True)
class Prediction:
    """Every visible card a state predicts. Cards in ``optional_roles`` may be out of sight as a whole (a
    player holding their hand): when such a zone is empty nothing there is missed."""

    cards: tuple[Expect, ...]
    optional_roles: frozenset[str] = frozenset()
    # role -> cards lying there that the state cannot name (own hand cards unreadable at the deal): a card seen
    # there that nothing else explains may be one of them
    unnamed: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Candidate:
    """A legal sequence of actions from the current state, and the table it leads to. ``implied`` counts the
    actions the camera cannot see that the sequence assumes (a koi-koi call before the next turn)."""

    actions: tuple[str, ...]
    players: tuple[int, ...]
    prediction: Prediction
    implied: int = 0
    over: bool = False  # the round ends with it: no later view can tell such candidates apart
    state: Any = None  # the game state it leads to, when the game can say (explanations reaching it are one)


@dataclass(frozen=True)
class SetupResult:
    """The deal as far as the table shows it (``deal`` None while the table is not dealt yet) and what is seen;
    ``clutter``: things on the table that are not part of the deal (they are left out where they lie)."""

    deal: dict[str, Any] | None
    message: str
    clutter: tuple[SeenCard, ...] = ()


class LiveGame(Protocol):
    """A game followed at the table. Actions are the engine's move text ("play pine-crane take pine-plain-1").

    Two methods are optional (the inference looks for them): ``state_key(base)``, the state after ``base`` as a
    hashable key (explanations reaching one state are one), and ``misread_likeness(label, cls)``, below 1 where
    the recogniser reads one as the other more easily than as anything else (a domino a pip off)."""

    name: str
    players: int
    me: int | None

    @property
    def profile_name(self) -> str: ...

    def visual_class(self, label: str) -> str | None:
        """The class the camera can tell this label apart as (interchangeable cards share one), or None for a
        label that is not a face of this game (a back, "unknown")."""
        ...

    def setup(self, table: ObservedTable) -> SetupResult: ...

    def start(self, deal: dict[str, Any], dealer: int | None = None) -> None: ...

    def deal(self) -> dict[str, Any]:
        """The current round's deal as recorded (as far as it is known)."""
        ...

    def dealer(self) -> int: ...

    def revealed(self, table: ObservedTable) -> dict[str, Any] | None:
        """The deal amended with the player's own cards that were unreadable at the deal and are read in their
        hand now (None: nothing new to learn)."""
        ...

    def prediction(self, base: tuple[str, ...] = ()) -> Prediction:
        """The table the state predicts after the (not committed) ``base`` actions."""
        ...

    def candidates(self, table: ObservedTable, novel: frozenset[str], max_actions: int,
                   base: tuple[str, ...] = ()) -> list[Candidate]:
        """Legal sequences of 1..max_actions actions after ``base`` whose visible cards are among ``novel``
        (classes seen where the state does not put them), each with its predicted table. The game's state
        is the same afterwards."""
        ...

    def push(self, action: str, source: str) -> int:
        """Apply an action; returns the player who made it. Raises a KibitzError saying why it is illegal."""
        ...

    def pop(self) -> str: ...

    def fork(self, actions: tuple[str, ...], deal: dict[str, Any] | None = None,
             dealer: int | None = None) -> LiveGame:
        """A detached copy of the current round replayed from its deal (or from ``deal``, to weigh two readings
        of a deal) up to ``actions``; changing it changes nothing here."""
        ...

    def unseen(self, action: str) -> bool:
        """Whether the camera cannot see this action (an announcement: koi-koi, stop)."""
        ...

    def normalise(self, text: str) -> str:
        """A typed action in the game's canonical text (``pine-crane`` -> ``play pine-crane take ...``)."""
        ...

    def to_move(self) -> int | None: ...

    def awaiting(self) -> str | None:
        """An announcement the camera cannot see that the game waits for (``koikoi or stop``), or None."""
        ...

    def is_over(self) -> bool: ...

    def result(self) -> dict[str, Any] | None: ...

    def where(self, cls: str) -> str:
        """Where the state has the cards of a class, in words (for conflict messages)."""
        ...

    def suspects(self, cls: str) -> list[int]:
        """Indices (0-based, in the round) of standing actions that moved a card of this class."""
        ...

    @property
    def history(self) -> list[str]: ...
