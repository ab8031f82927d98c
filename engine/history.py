"""Undo for every game state: ``push`` saves a small snapshot tuple, ``pop`` restores it (never deepcopy)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import Any, Generic, TypeVar

from engine.errors import IllegalMoveError

M = TypeVar("M")


class History(ABC, Generic[M]):
    """The move stack and the snapshot stack of a game state; subclasses say what a snapshot holds."""

    move_stack: list[M]
    _stack: list[tuple[Any, ...]]

    def _start_history(self) -> None:
        self.move_stack = []
        self._stack = []

    def _remember(self, move: M) -> None:
        """Call before applying ``move``: what ``pop`` will restore."""
        self._stack.append(self._snapshot())
        self.move_stack.append(move)

    def pop(self) -> M:
        """Undo the last move and return it."""
        if not self.move_stack:
            raise IllegalMoveError("there is no move to undo")
        self._restore(self._stack.pop())
        return self.move_stack.pop()

    def history(self) -> Iterator[tuple[tuple[Any, ...], M]]:
        """Each move made with the snapshot of the state just before it; nothing for a copy without its history
        (a player's view). Only engine code reads snapshots: their layout is the state's ``_snapshot``."""
        if len(self._stack) != len(self.move_stack):
            return iter(())
        return zip(self._stack, self.move_stack, strict=True)

    def peek(self) -> M | None:
        return self.move_stack[-1] if self.move_stack else None

    @property
    def legal_moves(self) -> LegalMoves[M]:
        """A live view: ``move in state.legal_moves``, ``len``, iteration."""
        return LegalMoves(self)

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def generate_legal_moves(self) -> list[M]: ...

    @abstractmethod
    def illegal_reason(self, move: M) -> Exception | None: ...

    @abstractmethod
    def _snapshot(self) -> tuple[Any, ...]: ...

    @abstractmethod
    def _restore(self, snap: tuple[Any, ...]) -> None: ...


class LegalMoves(Generic[M]):
    """The legal moves of a state, asked for only when used (python-chess's ``LegalMoveGenerator``)."""

    __slots__ = ("_state",)

    def __init__(self, state: History[M]) -> None:
        self._state = state

    def __contains__(self, move: object) -> bool:
        try:
            return self._state.illegal_reason(move) is None  # type: ignore[arg-type]
        except (TypeError, ValueError, AttributeError, IndexError):
            return False  # not a move of this game at all

    def __iter__(self) -> Iterator[M]:
        return iter(self._state.generate_legal_moves())

    def __len__(self) -> int:
        return len(self._state.generate_legal_moves())

    def __bool__(self) -> bool:
        return not self._state.is_over

    def __repr__(self) -> str:
        return f"<LegalMoves: {', '.join(str(m) for m in self)}>"
