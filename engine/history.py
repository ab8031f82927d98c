"""Undo for every game state: ``push`` saves a small snapshot tuple, ``pop`` restores it (never deepcopy)."""

from __future__ import annotations

from abc import ABC, abstractmethod
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

    def peek(self) -> M | None:
        return self.move_stack[-1] if self.move_stack else None

    @abstractmethod
    def _snapshot(self) -> tuple[Any, ...]: ...

    @abstractmethod
    def _restore(self, snap: tuple[Any, ...]) -> None: ...
