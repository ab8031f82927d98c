"""The game record: JSON lines, appended as the game goes, so a crash loses at most the line being written.

    {"kind": "header", "format": "kibitz-record", "version": 1, "game": "koikoi", "profile": "default", ...}
    {"kind": "round", "number": 1, "dealer": 0, "deal": {...as far as known...}, "t": 1700000000.0}
    {"kind": "action", "seq": 1, "player": 0, "action": "play pine-crane take pine-plain-1", "source": "camera", ...}
    {"kind": "retract", "seq": 1, "t": ..., "reason": "misread: it was pine-ribbon"}
    {"kind": "note", "t": ..., "text": "camera lost, retrying"}
    {"kind": "round-end", "number": 1, "result": {...}, "t": ...}

The record is game-neutral: actions are the game's own move text and the deal is the game's own dictionary;
the live game adapters turn them back into engine moves (``companion.live``). Nothing is ever rewritten: a
correction is a ``retract`` line followed by the corrected action, so the file is also the audit trail.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from engine.errors import KibitzError

FORMAT = "kibitz-record"
VERSION = 1
SOURCES = ("camera", "typed", "corrected")


class RecordError(KibitzError):
    """A record that cannot be read; the message names the file and the line (a KibitzError, so commands show it
    as they show any error that says why)."""

    def __init__(self, path: str | Path, line: int, message: str) -> None:
        super().__init__(f"{path}, line {line}: {message}")
        self.path = str(path)
        self.line = line


@dataclass(frozen=True)
class Header:
    game: str
    profile: str
    players: tuple[str, ...]
    me: int | None = None  # the seat of the person using kibitz (None for a spectator)
    created: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": "header", "format": FORMAT, "version": VERSION, "game": self.game, "profile": self.profile,
                "players": list(self.players), "me": self.me, "created": self.created}


@dataclass(frozen=True)
class Action:
    seq: int
    player: int
    action: str
    source: str
    t: float
    confidence: float | None = None
    note: str | None = None
    line: int = 0  # where it was read from (0 when written in this run), for error messages

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "action", "seq": self.seq, "player": self.player, "action": self.action,
                               "source": self.source, "t": round(self.t, 3)}
        if self.confidence is not None:
            out["confidence"] = round(self.confidence, 4)
        if self.note:
            out["note"] = self.note
        return out


@dataclass
class Round:
    """One round as recorded: the deal and the actions still standing (retracted ones removed)."""

    number: int
    dealer: int
    deal: dict[str, Any]
    t: float
    actions: list[Action] = field(default_factory=list)
    retracted: list[Action] = field(default_factory=list)
    result: dict[str, Any] | None = None
    line: int = 0


@dataclass
class GameRecord:
    header: Header
    rounds: list[Round] = field(default_factory=list)
    notes: list[tuple[float, str]] = field(default_factory=list)
    lines: int = 0

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def last_seq(self) -> int:
        return max((a.seq for r in self.rounds for a in [*r.actions, *r.retracted]), default=0)

    def to_json(self) -> dict[str, Any]:
        """The whole record as one JSON document (the export format)."""
        return {
            **self.header.to_json(),
            "rounds": [
                {"number": r.number, "dealer": r.dealer, "deal": r.deal, "t": r.t,
                 "actions": [a.to_json() for a in r.actions], "result": r.result}
                for r in self.rounds
            ],
            "notes": [{"t": t, "text": text} for t, text in self.notes],
        }

    def to_text(self) -> str:
        """A readable transcript: one line per action, with who, what and where it came from."""
        h = self.header
        lines = [f"{h.game} ({h.profile}): {' vs '.join(h.players)}" + (f", recorded at seat {h.me + 1}"
                                                                          if h.me is not None else "")]
        for r in self.rounds:
            lines.append(f"round {r.number}, dealer {h.players[r.dealer]}")
            for a in r.actions:
                extra = f" ({a.source})" if a.source != "camera" else ""
                lines.append(f"  {a.seq:3d}. {h.players[a.player]}: {a.action}{extra}")
            if r.result is not None:
                lines.append(f"  result: {json.dumps(r.result, sort_keys=True)}")
        return "\n".join(lines) + "\n"


def _now() -> float:
    return time.time()


class RecordWriter:
    """Appends lines to a record file; every line is written whole, flushed and synced before returning."""

    def __init__(self, path: str | Path, record: GameRecord, handle: TextIO) -> None:
        self.path = Path(path)
        self.record = record
        self._handle = handle
        self._seq = record.last_seq

    @classmethod
    def create(cls, path: str | Path, header: Header) -> RecordWriter:
        """Start a new record; refuses to overwrite an existing one (resume it instead)."""
        path = Path(path)
        if path.exists() and path.stat().st_size > 0:
            raise FileExistsError(f"{path}: a record already exists there; resume it or choose another file")
        if not header.created:
            header = Header(header.game, header.profile, header.players, header.me,
                            datetime.now(UTC).isoformat(timespec="seconds"))
        writer = cls(path, GameRecord(header), path.open("w", encoding="utf-8"))
        writer._write(header.to_json())
        return writer

    @classmethod
    def resume(cls, path: str | Path, repair: bool = False) -> RecordWriter:
        """Continue a record after a crash. With ``repair``, a truncated last line is moved to
        ``<file>.damaged`` and cut off; without it a damaged record raises RecordError."""
        path = Path(path)
        try:
            record = load_record(path)
        except RecordError as exc:
            if not repair or not _is_truncated_tail(path, exc.line):
                raise
            _cut_tail(path, exc.line)
            record = load_record(path)
        return cls(path, record, path.open("a", encoding="utf-8"))

    # ----------------------------------------------------------------- entries
    def start_round(self, number: int, dealer: int, deal: dict[str, Any]) -> Round:
        """Record a deal. A round dealt but not yet played (a redeal, a deal read again) is replaced."""
        current = self.record.current
        if current is not None and current.result is None and current.actions:
            raise ValueError(f"round {current.number} is still in progress; end it first")
        entry = Round(number, dealer, deal, _now())
        self._write({"kind": "round", "number": number, "dealer": dealer, "deal": deal, "t": round(entry.t, 3)})
        if current is not None and current.result is None:
            self.record.rounds.pop()
        self.record.rounds.append(entry)
        return entry

    def action(self, player: int, action: str, source: str, confidence: float | None = None,
               note: str | None = None) -> Action:
        current = self._round()
        if source not in SOURCES:
            raise ValueError(f"unknown action source {source!r}; expected one of {', '.join(SOURCES)}")
        self._seq += 1
        entry = Action(self._seq, player, action, source, _now(), confidence, note)
        self._write(entry.to_json())
        current.actions.append(entry)
        return entry

    def retract(self, reason: str = "") -> Action:
        """Take back the last standing action of the current round."""
        current = self._round()
        if not current.actions:
            raise ValueError("there is no action to retract in this round")
        last = current.actions[-1]
        self._write({"kind": "retract", "seq": last.seq, "t": round(_now(), 3), "reason": reason})
        current.retracted.append(current.actions.pop())
        return last

    def note(self, text: str) -> None:
        t = _now()
        self._write({"kind": "note", "t": round(t, 3), "text": text})
        self.record.notes.append((t, text))

    def end_round(self, result: dict[str, Any]) -> None:
        current = self._round()
        self._write({"kind": "round-end", "number": current.number, "result": result, "t": round(_now(), 3)})
        current.result = result

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _round(self) -> Round:
        current = self.record.current
        if current is None or current.result is not None:
            raise ValueError("no round is in progress")
        return current

    def _write(self, entry: dict[str, Any]) -> None:
        self._handle.write(json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self.record.lines += 1


# --------------------------------------------------------------------- reading
def load_record(path: str | Path) -> GameRecord:
    """Read a record, checking every line; a damaged one raises RecordError naming the line."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such record")
    with path.open("r", encoding="utf-8", errors="strict", newline="") as handle:
        try:
            text = handle.read()
        except UnicodeDecodeError as exc:
            line = text_line_of_byte(path.read_bytes(), exc.start)
            raise RecordError(path, line, "not UTF-8 text (the file is damaged or not a record)") from exc
    reader = _Reader(path)
    for number, (line, complete) in enumerate(_lines(text), start=1):
        reader.feed(number, line, complete)
    return reader.finish()


def text_line_of_byte(data: bytes, offset: int) -> int:
    return data[:offset].count(b"\n") + 1


def _lines(text: str) -> Iterator[tuple[str, bool]]:
    """Each line and whether it ended with a newline (a line cut off by a crash does not)."""
    parts = text.split("\n")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if last and part == "":
            return
        yield part.rstrip("\r"), not last


class _Reader:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.record: GameRecord | None = None
        self.seen_seq: set[int] = set()
        self.count = 0

    def fail(self, line: int, message: str) -> RecordError:
        return RecordError(self.path, line, message)

    def feed(self, number: int, line: str, complete: bool) -> None:
        self.count = number
        if not line.strip():
            raise self.fail(number, "empty line")
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            if not complete:
                raise self.fail(number, "truncated: the file ends in the middle of this line "
                                        "(resume with repair to move it aside)") from exc
            raise self.fail(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from exc
        if not isinstance(entry, dict):
            raise self.fail(number, f"expected a JSON object, got {type(entry).__name__}")
        kind = entry.get("kind")
        if self.record is None:
            if kind != "header":
                raise self.fail(number, "the first line must be the header (kind 'header')")
            self.record = self._header(number, entry)
            return
        handler = {"round": self._round, "action": self._action, "retract": self._retract, "note": self._note,
                   "round-end": self._round_end}.get(str(kind))
        if handler is None:
            raise self.fail(number, f"unknown entry kind {kind!r}")
        handler(number, entry, self.record)

    def finish(self) -> GameRecord:
        if self.record is None:
            raise RecordError(self.path, 1, "empty record: no header line")
        self.record.lines = self.count
        return self.record

    def _need(self, number: int, entry: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
        value = entry.get(key)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            name = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise self.fail(number, f"{entry.get('kind')}: field {key!r} must be {name}, got {value!r}")
        return value

    def _header(self, number: int, entry: dict[str, Any]) -> GameRecord:
        if entry.get("format") != FORMAT:
            raise self.fail(number, f"not a kibitz record (format {entry.get('format')!r})")
        if entry.get("version") != VERSION:
            raise self.fail(number, f"record version {entry.get('version')!r} is not supported (expected {VERSION})")
        players = self._need(number, entry, "players", list)
        if len(players) < 2 or not all(isinstance(p, str) for p in players):
            raise self.fail(number, "header: 'players' must list at least two names")
        me = entry.get("me")
        if me is not None and (not isinstance(me, int) or not 0 <= me < len(players)):
            raise self.fail(number, f"header: 'me' must be a seat 0..{len(players) - 1} or null")
        header = Header(self._need(number, entry, "game", str), self._need(number, entry, "profile", str),
                        tuple(players), me, str(entry.get("created", "")))
        return GameRecord(header)

    def _round(self, number: int, entry: dict[str, Any], record: GameRecord) -> None:
        current = record.current
        if current is not None and current.result is None and current.actions:
            raise self.fail(number, f"round {current.number} has no round-end before the next round")
        dealer = self._need(number, entry, "dealer", int)
        if not 0 <= dealer < len(record.header.players):
            raise self.fail(number, f"round: dealer {dealer} is not a seat")
        r = Round(self._need(number, entry, "number", int), dealer, self._need(number, entry, "deal", dict),
                  float(self._need(number, entry, "t", (int, float))), line=number)
        if current is not None and current.result is None:
            record.rounds.pop()  # a round started but never played (a redeal): the new deal replaces it
        record.rounds.append(r)

    def _action(self, number: int, entry: dict[str, Any], record: GameRecord) -> None:
        current = record.current
        if current is None or current.result is not None:
            raise self.fail(number, "an action outside a round")
        seq = self._need(number, entry, "seq", int)
        if seq in self.seen_seq or seq <= record.last_seq:
            raise self.fail(number, f"action seq {seq} is out of order (last was {record.last_seq})")
        player = self._need(number, entry, "player", int)
        if not 0 <= player < len(record.header.players):
            raise self.fail(number, f"action: player {player} is not a seat")
        source = self._need(number, entry, "source", str)
        if source not in SOURCES:
            raise self.fail(number, f"action: unknown source {source!r}")
        confidence = entry.get("confidence")
        if confidence is not None and not isinstance(confidence, int | float):
            raise self.fail(number, f"action: confidence must be a number, got {confidence!r}")
        self.seen_seq.add(seq)
        current.actions.append(Action(seq, player, self._need(number, entry, "action", str), source,
                                      float(self._need(number, entry, "t", (int, float))),
                                      None if confidence is None else float(confidence), entry.get("note"),
                                      number))

    def _retract(self, number: int, entry: dict[str, Any], record: GameRecord) -> None:
        current = record.current
        seq = self._need(number, entry, "seq", int)
        if current is None or not current.actions or current.actions[-1].seq != seq:
            raise self.fail(number, f"retract: action {seq} is not the last standing action of the round")
        current.retracted.append(current.actions.pop())

    def _note(self, number: int, entry: dict[str, Any], record: GameRecord) -> None:
        record.notes.append((float(self._need(number, entry, "t", (int, float))),
                             self._need(number, entry, "text", str)))

    def _round_end(self, number: int, entry: dict[str, Any], record: GameRecord) -> None:
        current = record.current
        if current is None or current.result is not None:
            raise self.fail(number, "round-end without a round in progress")
        current.result = self._need(number, entry, "result", dict)


def _is_truncated_tail(path: Path, line: int) -> bool:
    data = path.read_bytes()
    return not data.endswith(b"\n") and data.count(b"\n") + 1 == line


def _cut_tail(path: Path, line: int) -> None:
    """Move the damaged last line to ``<file>.damaged`` (nothing is lost) and cut it from the record."""
    data = path.read_bytes()
    keep = data.rfind(b"\n") + 1
    path.with_name(path.name + ".damaged").write_bytes(data[keep:])
    with path.open("r+b") as handle:
        handle.truncate(keep)
