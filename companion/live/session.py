"""A game followed live: stable views in, checked actions and events out, every action in the record.

The session owns the flow, the game adapter owns the rules. It reads the deal from the table (or the typed
hand), then explains each stable view (``companion.live.infer``): actions it is sure of are committed with
source "camera"; anything else is reported and the state waits. Keys (koi-koi, stop) and corrections come in
as typed actions. A session can be resumed from its record after a crash: the record is replayed into a
fresh game, so nothing that was written is lost.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.live.game import LiveGame
from companion.live.infer import Inference, InferenceConfig, infer
from companion.live.table import ObservedTable, ZoneMap
from companion.record import Header, RecordError, RecordWriter
from engine.errors import KibitzError
from vision.capture import CaptureEvent
from vision.stability import StableView


@dataclass(frozen=True)
class LiveEvent:
    """What the user should see. ``kind``: waiting, round, move, unchanged, hidden, ambiguous, conflict,
    awaiting, round-end, camera or error."""

    kind: str
    message: str
    actions: tuple[str, ...] = ()
    players: tuple[int, ...] = ()
    time: float = 0.0


class LiveSession:
    def __init__(self, game: LiveGame, writer: RecordWriter | None = None, zones: ZoneMap | None = None,
                 config: InferenceConfig | None = None, dealer: int | None = None) -> None:
        self.game = game
        self.writer = writer
        self.zones = zones or ZoneMap(me=game.me or 0, players=game.players)
        self.config = config or InferenceConfig()
        self.first_dealer = dealer
        self.phase = "setup"  # setup (waiting for a deal), playing, over (waiting for the next deal)
        self.rounds = 0
        self.typed_hand: list[str] | None = None
        self.last_table: ObservedTable | None = None
        self.last_inference: Inference | None = None
        self.log: list[LiveEvent] = []

    # ----------------------------------------------------------------- creating and resuming
    @classmethod
    def create(cls, path: str | Path, game: LiveGame, players: Iterable[str] = ("player 1", "player 2"),
               **kwargs: Any) -> LiveSession:
        writer = RecordWriter.create(path, Header(game.name, game.profile_name, tuple(players), game.me))
        return cls(game, writer, **kwargs)

    @classmethod
    def resume(cls, path: str | Path, game: LiveGame, repair: bool = False, **kwargs: Any) -> LiveSession:
        """Replay a record into ``game`` and go on appending to it."""
        writer = RecordWriter.resume(path, repair=repair)
        record = writer.record
        if record.header.game != game.name:
            writer.close()
            raise RecordError(path, 1, f"this is a {record.header.game} record, not {game.name}")
        session = cls(game, None, **kwargs)
        for r in record.rounds:
            try:
                game.start(r.deal, r.dealer)
            except KibitzError as exc:
                writer.close()
                raise RecordError(path, r.line, f"round {r.number}: the recorded deal is impossible: {exc}") from exc
            session.rounds = r.number
            for a in r.actions:
                try:
                    game.push(a.action, a.source)
                except KibitzError as exc:
                    writer.close()
                    raise RecordError(path, a.line, f"action #{a.seq} {a.action!r} cannot be replayed: {exc}") from exc
        current = record.current
        session.phase = "setup" if current is None else ("over" if game.is_over() else "playing")
        session.writer = writer
        session._emit("round", f"resumed {path}: round {session.rounds}, {len(game.history)} actions replayed")
        return session

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()

    # ----------------------------------------------------------------- input
    def observe(self, view: StableView | ObservedTable) -> list[LiveEvent]:
        """A new stable view of the table."""
        table = self.zones.table(view) if isinstance(view, StableView) else view
        self.last_table = table
        start = len(self.log)
        if self.phase in ("setup", "over"):
            self._try_deal(table)
        else:
            self._explain(table)
        return self.log[start:]

    def type_action(self, text: str, source: str = "typed") -> list[LiveEvent]:
        """A key or a typed move ("k", "stop", "play pine-crane"); the last view is explained again after it."""
        start = len(self.log)
        if self.phase != "playing":
            self._emit("error", f"no round in progress: {text!r} ignored")
            return self.log[start:]
        try:
            action = self.game.normalise(text)
            self._commit(action, source)
        except KibitzError as exc:
            self._emit("error", f"{text!r}: {exc}")
            return self.log[start:]
        self._after_commit()
        if self.phase == "playing" and self.last_table is not None:
            self._explain(self.last_table)
        return self.log[start:]

    def correct(self, text: str) -> list[LiveEvent]:
        """Replace the last action (a misread the camera committed) by the typed one."""
        start = len(self.log)
        if self.phase != "playing" or not self.game.history:
            self._emit("error", "there is no action to correct")
            return self.log[start:]
        wrong = self.game.pop()
        try:
            action = self.game.normalise(text)
            player = self.game.push(action, "corrected")
        except KibitzError as exc:
            self.game.push(wrong, "camera")
            self._emit("error", f"cannot correct {wrong} to {text!r}: {exc}")
            return self.log[start:]
        if self.writer is not None:
            self.writer.retract(f"corrected to {action}")
        self._record(player, action, "corrected")
        self._after_commit()
        return self.log[start:]

    def set_hand(self, labels: Iterable[str]) -> None:
        """The player's hand, typed before the deal is read (used when the hand is not shown)."""
        self.typed_hand = list(labels)

    def camera_event(self, event: CaptureEvent) -> LiveEvent:
        if self.writer is not None:
            self.writer.note(event.message)
        return self._emit("camera", event.message)

    # ----------------------------------------------------------------- the flow
    def _try_deal(self, table: ObservedTable) -> None:
        result = self.game.setup(table)
        deal = result.deal
        if deal is None:
            self._emit("waiting", result.message)
            return
        if self.typed_hand is not None and self.game.me is not None and not deal["hands"][self.game.me]:
            deal["hands"][self.game.me] = list(self.typed_hand)
            deal["hidden"][self.game.me] = 0
        dealer = self.first_dealer if self.rounds == 0 else None
        try:
            self.game.start(deal, dealer)
        except KibitzError as exc:
            self._emit("waiting", f"the deal seen is impossible: {exc}")
            return
        self.rounds += 1
        self.typed_hand = None
        if self.writer is not None:
            self.writer.start_round(self.rounds, self.game.dealer(), self.game.deal())
        self.phase = "playing"
        self._emit("round", f"round {self.rounds}: {result.message}; player {self.game.dealer() + 1} deals")
        self._after_commit()

    def _explain(self, table: ObservedTable) -> None:
        inference = infer(self.game, table, self.config)
        self.last_inference = inference
        if inference.verdict == "moves":
            for action in inference.actions:
                self._commit(action, "camera", note=inference.message or None)
            self._after_commit()
        elif inference.verdict != "unchanged" or inference.message != "no change":
            self._emit(inference.verdict, inference.message)
        if inference.corrected and inference.verdict == "unchanged":
            self._emit("corrected", inference.message)

    def _commit(self, action: str, source: str, note: str | None = None) -> None:
        self._record(self.game.push(action, source), action, source, note)

    def _record(self, player: int, action: str, source: str, note: str | None = None) -> None:
        if self.writer is not None:
            self.writer.action(player, action, source, note=note)
        self._emit("move", f"player {player + 1}: {action}" + (f" ({source})" if source != "camera" else ""),
                   (action,), (player,))

    def _after_commit(self) -> None:
        if self.game.is_over():
            result = self.game.result() or {}
            if self.writer is not None:
                self.writer.end_round(result)
            self.phase = "over"
            self._emit("round-end", f"round {self.rounds} over: {result}")
            return
        waiting = self.game.awaiting()
        if waiting:
            self._emit("awaiting", waiting)

    def _emit(self, kind: str, message: str, actions: tuple[str, ...] = (), players: tuple[int, ...] = ()
              ) -> LiveEvent:
        time = self.last_table.time if self.last_table is not None else 0.0
        event = LiveEvent(kind, message, actions, players, time)
        self.log.append(event)
        return event

    # ----------------------------------------------------------------- queries
    def actions(self) -> list[str]:
        return list(self.game.history)
