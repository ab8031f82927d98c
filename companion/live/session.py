"""A game followed live: stable views in, checked actions and events out, every action in the record.

The session owns the flow, the game adapter owns the rules. It reads the deal from the table (or the typed
hand), then explains each stable view (``companion.live.infer``): actions it is sure of are committed with
source "camera"; anything else is reported and the state waits. Keys (koi-koi, stop) and corrections come in
as typed actions. A session can be resumed from its record after a crash: the record is replayed into a
fresh game, so nothing that was written is lost.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.live.game import LiveGame
from companion.live.infer import NOTHING_PENDING, Hypothesis, Inference, InferenceConfig, infer, remember
from companion.live.recovery import Recovery
from companion.live.rereads import Rereads
from companion.live.strays import Strays, without
from companion.live.table import ObservedTable, SeenCard, ZoneMap
from companion.record import Header, RecordError, RecordWriter
from engine.errors import KibitzError
from vision.capture import CaptureEvent
from vision.stability import StableView


@dataclass(frozen=True)
class LiveEvent:
    """What the user should see. ``kind``: waiting (for a deal), round (dealt), move, corrected (a misread the
    rules explained away), revised (an earlier move taken back: its card was misread), hidden (cards out of
    sight, no move), ambiguous (waiting to tell moves apart), conflict (nothing legal explains the table),
    clutter (a stray thing nothing explains left out),
    awaiting (a key is needed), round-end, camera (capture status) or error."""

    kind: str
    message: str
    actions: tuple[str, ...] = ()
    players: tuple[int, ...] = ()
    time: float = 0.0


MAX_DEALER_DOUBTS = 2  # first-round views held while the other seat dealing explains them about as well


class LiveSession(Recovery, Strays, Rereads):
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
        self.pending: tuple[Hypothesis, ...] = NOTHING_PENDING
        self.open_views = 0  # consecutive views that left several explanations standing
        self.assumed: list[tuple[int, tuple[str, ...]]] = []  # assumed actions (index) and what else they could be
        self.doubted: frozenset[str] = frozenset()  # classes the last view read where the state has another card
        self._deals: list[dict[str, Any]] = []  # readings of a deal not yet confirmed by a second look
        self.clutter: tuple[SeenCard, ...] = ()  # what lay on the table beside the deal's setup: left out
        self.strays: tuple[tuple[SeenCard, int], ...] = ()  # unexplained backs and unknowns, views lain there
        self.ballots: list[tuple[str, tuple[float, float]]] = []  # what each view of the round read where
        self.reread_tried: dict[tuple[str, str, int], int] = {}  # beliefs tried: the views that had read it then
        self.memory: dict[str, list[tuple[float, float]]] = {}  # where each card class was last seen
        self.dealer_doubts = 0  # views of the first round held because another seat dealing fits as well
        self.deferred: tuple[str, str] | None = None  # a round-ending key, applied after the next view
        self.defer_round_end = True
        self.max_revised = 2
        self.reveal_seen: str | None = None  # an own-hand card read once where the deal had an unreadable one
        """Committed actions one revision may change (a turn's play and flip, explained again together)."""
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
        if self.phase == "playing":
            table = self._without_clutter(table)
        self.last_table = table
        start = len(self.log)
        if self.phase in ("setup", "over"):
            self._try_deal(table)
        else:
            self._explain(table)
            self._reveal(table)
            self._apply_deferred()
        return self.log[start:]

    def type_action(self, text: str, source: str = "typed") -> list[LiveEvent]:
        """A key or a typed move ("k", "stop", "play pine-crane"); the last view is explained again after it."""
        start = len(self.log)
        if self.phase != "playing":
            self._emit("error", f"no round in progress: {text!r} ignored")
            return self.log[start:]
        self._settle_pending()
        try:
            action = self.game.normalise(text)
            ends = self.game.fork((*self.game.history, action)).is_over()
        except KibitzError as exc:
            self._emit("error", f"{text!r}: {exc}")
            return self.log[start:]
        if ends and self.defer_round_end:
            self.deferred = (action, source)
            self._emit("waiting", f"{action}: the round ends after one more look at the table")
            return self.log[start:]
        self._commit(action, source)
        self._after_commit()
        if self.phase == "playing" and self.last_table is not None:
            self._explain(self.last_table)
        return self.log[start:]

    def _apply_deferred(self) -> None:
        """A round-ending key waits for one more view: a misread card of the last turn is still found (and the
        turn revised) before the round is scored."""
        if self.deferred is None or self.phase != "playing":
            return
        action, source = self.deferred
        self.deferred = None
        try:
            self._commit(self.game.normalise(action), source)
        except KibitzError as exc:
            self._emit("error", f"{action!r} no longer fits after the last look: {exc}; type it again")
            return
        self._after_commit()

    def correct(self, text: str) -> list[LiveEvent]:
        """Replace the last action (a misread the camera committed) by the typed one."""
        return self.correct_at(len(self.game.history) - 1, text)

    def correct_card(self, index: int, card: str) -> list[LiveEvent]:
        """Action ``index`` (0-based, in the round) named the wrong card: the same kind of action with ``card``
        (its take found by the rules when there is one choice); the actions after it are replayed."""
        history = self.game.history
        if not 0 <= index < len(history):
            return [self._emit("error", f"there is no action {index + 1} to correct")]
        verb = history[index].split()[0]
        if verb not in ("play", "flip"):
            return [self._emit("error", f"{history[index]} names no card to correct")]
        return self.correct_at(index, f"{verb} {card}")

    def correct_at(self, index: int, text: str) -> list[LiveEvent]:
        """Replace action ``index`` of the round by the typed one and replay the later actions on top of it. If
        anything no longer fits, everything is put back as it was: a correction loses nothing."""
        start = len(self.log)
        self._settle_pending()
        history = list(self.game.history)
        if self.phase != "playing" or not 0 <= index < len(history):
            self._emit("error", "there is no action to correct")
            return self.log[start:]
        later = history[index + 1:]
        sources = self._sources()[index + 1:] if self.writer is not None else ["camera"] * len(later)
        undone = [self.game.pop() for _ in range(len(history) - index)]
        pushed = 0
        try:
            action = self.game.normalise(text)
            players = [self.game.push(action, "corrected")]
            pushed += 1
            for old, source in zip(later, sources, strict=True):
                players.append(self.game.push(old, source))
                pushed += 1
        except KibitzError as exc:
            for _ in range(pushed):
                self.game.pop()
            for old in reversed(undone):
                self.game.push(old, "camera")
            self._emit("error", f"cannot correct {history[index]} to {text!r}: {exc}")
            return self.log[start:]
        if self.writer is not None:
            for _ in undone:
                self.writer.retract(f"corrected: {history[index]} was {action}")
        self._record(players[0], action, "corrected")
        for player, old, source in zip(players[1:], later, sources, strict=True):
            self._record(player, old, source, note="replayed after a correction")
        self._after_commit()
        return self.log[start:]

    def _sources(self) -> list[str]:
        """The source of each standing action of the current round, as recorded."""
        assert self.writer is not None
        current = self.writer.record.current
        return [a.source for a in current.actions] if current is not None else []

    def set_hand(self, labels: Iterable[str]) -> None:
        """The player's hand, typed before the deal is read (used when the hand is not shown)."""
        self.typed_hand = list(labels)

    def camera_event(self, event: CaptureEvent) -> LiveEvent:
        if self.writer is not None:
            self.writer.note(event.message)
        return self._emit("camera", event.message)

    # ----------------------------------------------------------------- the flow
    def _try_deal(self, table: ObservedTable) -> None:
        """A deal is believed when two stable views agree on it (a misread rarely survives two looks). When
        play starts before two looks agree, the readings seen so far are weighed by how well each explains
        the new view, the best is taken and the view explained from it."""
        result = self.game.setup(table)
        deal = result.deal
        if deal is None:
            self.clutter = ()  # whatever lies there now may be the play
            if self._deals and self._start(self._likeliest_deal(table), "dealt (as the play shows)"):
                self._explain(table)
            else:
                self._emit("waiting", result.message)
            return
        if self.typed_hand is not None and self.game.me is not None and not deal["hands"][self.game.me]:
            deal["hands"][self.game.me] = list(self.typed_hand)
            deal["hidden"][self.game.me] = 0
        agreeing = next((seen for seen in self._deals if self._same_deal(seen, deal)), None)
        if agreeing is not None:
            self.clutter = result.clutter
            if self._start(self._merge_deals(agreeing, deal), result.message):
                self._explain(self._without_clutter(table))  # nothing to explain yet: this notes where cards lie
            return
        self._deals = [*self._deals[-2:], deal]
        self._emit("waiting", f"{result.message}; looking again to confirm")

    def _without_clutter(self, table: ObservedTable) -> ObservedTable:
        """The table less whatever lies where the deal's setup saw clutter (a box, a marker read as a card)."""
        return without(table, self.clutter)

    def _likeliest_deal(self, table: ObservedTable) -> dict[str, Any]:
        """Of the readings of the field and of the hands seen, the pairing from which the play on ``table`` is
        best explained."""
        readings, self._deals = self._deals, []
        combos = [{**field, "hands": hands["hands"], "hidden": hands["hidden"]} if any(hands["hands"]) else field
                  for field in readings for hands in readings]
        unique = list({repr(sorted(d.items())): d for d in reversed(combos)}.values())
        if len(unique) == 1:
            return unique[0]
        dealer = self.first_dealer if self.rounds == 0 else None

        def cost(deal: dict[str, Any]) -> float:
            try:
                return infer(self.game.fork((), deal, dealer), table, self.config).best.total
            except KibitzError:
                return float("inf")

        return min(unique, key=cost)

    def _same_deal(self, a: dict[str, Any], b: dict[str, Any]) -> bool:
        def classes(labels: list[str]) -> list[str]:
            return sorted(self.game.visual_class(x) or x for x in labels)

        if classes(a["field"]) != classes(b["field"]):
            return False
        return all(not ha or not hb or classes(ha) == classes(hb) for ha, hb in zip(a["hands"], b["hands"],
                                                                                  strict=True))

    @staticmethod
    def _merge_deals(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
        """The later deal, with a hand only the earlier view showed (the hand was picked up meanwhile)."""
        merged = {**b, "hands": [list(h) for h in b["hands"]], "hidden": list(b["hidden"])}
        for seat, hand_cards in enumerate(a["hands"]):
            if hand_cards and not merged["hands"][seat]:
                merged["hands"][seat] = list(hand_cards)
                merged["hidden"][seat] = a["hidden"][seat]
        return merged

    def _start(self, deal: dict[str, Any], message: str) -> bool:
        dealer = self.first_dealer if self.rounds == 0 else None
        try:
            self.game.start(deal, dealer)
        except KibitzError as exc:
            self._emit("waiting", f"the deal seen is impossible: {exc}")
            return False
        self.rounds += 1
        self._deals = []
        self.typed_hand = None
        self.pending = NOTHING_PENDING
        self.open_views = 0
        self.assumed = []
        self.strays = ()
        self.ballots = []
        self.reread_tried = {}
        self.memory = {}
        if self.writer is not None:
            self.writer.start_round(self.rounds, self.game.dealer(), self.game.deal())
        self.phase = "playing"
        self._emit("round", f"round {self.rounds}: {message}; player {self.game.dealer() + 1} deals")
        self._after_commit()
        return True

    def _explain(self, table: ObservedTable) -> None:
        # After a round-ending key nothing more can have been played: the view only checks the last turn.
        config = replace(self.config, max_actions=0) if self.deferred is not None else self.config
        inference = infer(self.game, table, config, self.pending, self.memory)
        if inference.verdict != "unchanged" and self._other_dealer(table, inference):
            return
        if self.assumed and inference.best.total >= self.config.margin and self._revisit(table, inference):
            return
        doubted, self.doubted = self.doubted, frozenset(m.cls for m in inference.corrected)
        if (inference.verdict == "conflict" or doubted & self.doubted) and self._repair(table, inference):
            return  # a misread corrected in two views running may be the right read of a card a move misnamed
        if self._reread(table, inference):
            return
        if self._leave_out_strays(table, inference):
            return
        if inference.verdict != "conflict":
            remember(self.memory, inference.best.score)
        self.last_inference = inference
        self.pending = inference.pending
        note = inference.message if inference.message != "no change" else None
        for action in inference.actions:
            self._commit(action, "camera", note=note)
        if inference.actions:
            self._after_commit()
        if inference.verdict in ("ambiguous", "hidden", "conflict") or (
                inference.actions and len(inference.pending) > 1):
            self._emit(inference.verdict if not inference.actions else "ambiguous", inference.message)
        elif inference.corrected:
            self._emit("corrected", "; ".join(m.describe() for m in inference.corrected))
        if inference.verdict in ("moves", "ambiguous"):  # a view that hid cards or conflicts told nothing
            self._bound_open()

    def _other_dealer(self, table: ObservedTable, current: Inference) -> bool:
        """Nobody said who deals the first round (the draw for it happens off camera): its first view after
        the deal that shows a change may be explained better with another seat dealing (the dealer plays
        first; a weak look may let the wrong seat's moves fit too). If one explains it clearly better, the
        round is dealt again with that dealer (nothing was played yet) and the view explained from there.
        With two players, also when the other seat's moves still wait for another look; and while the other
        seat fits about as well (its capture and flip against one card the guessed seat would have laid: each
        action costs a little, so the fewer win a tie), the guessed seat's moves are not taken: the view is held,
        for ``MAX_DEALER_DOUBTS`` views at most. (With more seats any of them could lead the first card, and
        holding only loses the views that tell them apart.)"""
        if self.first_dealer is not None or self.rounds != 1 or self.game.history:
            return False
        two = self.game.players == 2
        fits_as_well = False
        for seat in range(self.game.players):
            if seat == self.game.dealer():
                continue
            try:
                alt = infer(self.game.fork((), None, seat), table, self.config, NOTHING_PENDING, self.memory)
            except KibitzError:
                continue
            if alt.verdict not in (("moves", "ambiguous") if two else ("moves",)):
                continue
            if alt.best.total < current.best.total - self.config.margin:
                self.first_dealer = seat
                self.game.start(self.game.deal(), seat)
                if self.writer is not None:
                    self.writer.start_round(self.rounds, seat, self.game.deal())
                self.pending = NOTHING_PENDING
                self._emit("round", f"round {self.rounds}: player {seat + 1} deals (as the first play shows)")
                self._explain(table)
                return True
            fits_as_well |= alt.best.total <= current.best.total + self.config.margin
        if two and fits_as_well and current.actions and self.dealer_doubts < MAX_DEALER_DOUBTS:
            self.dealer_doubts += 1
            self._emit("ambiguous", f"cannot tell yet who deals: player {self.game.dealer() + 1} or the other")
            return True
        return False

    def _settle_pending(self) -> None:
        """Before a typed action: take the best standing explanation (it was the camera's best guess)."""
        best = self.pending[0]
        self.pending = NOTHING_PENDING
        for action in best.actions:
            self._commit(action, "camera", note="assumed: the camera could not tell it apart")

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
    @property
    def wants_fresh_look(self) -> bool:
        """True while a deal is awaited: the tracker should recognise the table again even if it looks the
        same as before (the deal is confirmed by a second look)."""
        return self.phase != "playing"

    def actions(self) -> list[str]:
        return list(self.game.history)
