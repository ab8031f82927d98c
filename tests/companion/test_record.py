"""The JSON-lines game record: written line by line, read back checked, damaged files named by line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.record import Header, RecordError, RecordWriter, load_record

HEADER = Header("koikoi", "default", ("Ann", "Bo"), me=0)
DEAL = {"field": ["pine-crane"], "hands": [["maple-deer"], []], "hidden": [0, 8], "stock_size": 24}


def small_record(path: Path) -> Path:
    with RecordWriter.create(path, HEADER) as writer:
        writer.start_round(1, 0, DEAL)
        writer.action(0, "play maple-deer", "camera", confidence=0.97)
        writer.action(0, "flip pine-ribbon take pine-crane", "camera")
        writer.note("camera lost, retrying")
        writer.retract("misread")
        writer.action(0, "flip pine-plain-1 take pine-crane", "corrected")
        writer.action(1, "stop", "typed")
        writer.end_round({"reason": "stop", "winner": 1, "points": [0, 6]})
    return path


def test_round_trip_keeps_everything(tmp_path: Path) -> None:
    record = load_record(small_record(tmp_path / "game.jsonl"))
    assert record.header.players == ("Ann", "Bo") and record.header.me == 0 and record.header.created
    (r,) = record.rounds
    assert r.deal == DEAL and r.dealer == 0
    assert [(a.seq, a.action, a.source) for a in r.actions] == [
        (1, "play maple-deer", "camera"),
        (3, "flip pine-plain-1 take pine-crane", "corrected"),
        (4, "stop", "typed"),
    ]
    assert [a.action for a in r.retracted] == ["flip pine-ribbon take pine-crane"]
    assert r.actions[0].confidence == pytest.approx(0.97)
    assert r.result == {"reason": "stop", "winner": 1, "points": [0, 6]}
    assert record.notes[0][1] == "camera lost, retrying"
    assert record.lines == 9


def test_exports(tmp_path: Path) -> None:
    record = load_record(small_record(tmp_path / "game.jsonl"))
    document = json.loads(json.dumps(record.to_json()))
    assert document["format"] == "kibitz-record"
    assert [a["action"] for a in document["rounds"][0]["actions"]][-1] == "stop"
    text = record.to_text()
    assert "Ann: play maple-deer\n" in text and "Ann: flip pine-plain-1 take pine-crane (corrected)" in text
    assert "Bo: stop (typed)" in text


def test_create_refuses_to_overwrite(tmp_path: Path) -> None:
    path = small_record(tmp_path / "game.jsonl")
    with pytest.raises(FileExistsError, match="resume it"):
        RecordWriter.create(path, HEADER)


def test_resume_appends_with_increasing_seq(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    writer = RecordWriter.create(path, HEADER)
    writer.start_round(1, 0, DEAL)
    writer.action(0, "play maple-deer", "camera")
    writer.close()  # the program dies here
    again = RecordWriter.resume(path)
    assert again.action(0, "flip pine-ribbon take pine-crane", "camera").seq == 2
    again.close()
    assert [a.action for a in load_record(path).rounds[0].actions] == ["play maple-deer",
                                                                       "flip pine-ribbon take pine-crane"]


@pytest.mark.parametrize(
    ("line", "replacement", "message"),
    [
        (3, "{not json", "line 3: not valid JSON"),
        (3, '{"kind": "action", "seq": "one", "player": 0, "action": "x", "source": "camera", "t": 1}',
         "line 3: action: field 'seq' must be int"),
        (3, '{"kind": "action", "seq": 1, "player": 5, "action": "x", "source": "camera", "t": 1}',
         "line 3: action: player 5 is not a seat"),
        (3, '{"kind": "action", "seq": 1, "player": 0, "action": "x", "source": "telepathy", "t": 1}',
         "line 3: action: unknown source"),
        (4, '{"kind": "retract", "seq": 99, "t": 1}', "line 4: retract: action 99"),
        (1, '{"kind": "header", "format": "kibitz-record", "version": 7, "game": "koikoi"}', "line 1: record version 7"),
        (2, '["a list"]', "line 2: expected a JSON object"),
        (2, "", "line 2: empty line"),
        (2, '{"kind": "wormhole"}', "line 2: unknown entry kind"),
    ],
)
def test_damaged_lines_are_named(tmp_path: Path, line: int, replacement: str, message: str) -> None:
    path = small_record(tmp_path / "game.jsonl")
    lines = path.read_text().splitlines()
    lines[line - 1] = replacement
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match=message) as info:
        load_record(path)
    assert info.value.line == line


def test_truncated_last_line_is_named_and_can_be_moved_aside(tmp_path: Path) -> None:
    path = small_record(tmp_path / "game.jsonl")
    data = path.read_bytes()
    cut = data[: data.rindex(b"\n", 0, len(data) - 1) + 1 + 17]  # the last line loses its end
    path.write_bytes(cut)
    with pytest.raises(RecordError, match=r"line 9: truncated"):
        load_record(path)
    with pytest.raises(RecordError, match="line 9"):
        RecordWriter.resume(path)
    writer = RecordWriter.resume(path, repair=True)
    writer.end_round({"reason": "stop", "winner": 1, "points": [0, 6]})
    writer.close()
    assert (tmp_path / "game.jsonl.damaged").read_bytes() == cut[cut.rindex(b"\n") + 1:]
    assert load_record(path).rounds[0].result == {"reason": "stop", "winner": 1, "points": [0, 6]}


def test_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"kind": "round"}\n')
    with pytest.raises(RecordError, match="line 1: the first line must be the header"):
        load_record(path)
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError, match="line 1: not UTF-8"):
        load_record(path)
    with pytest.raises(FileNotFoundError, match="no such record"):
        load_record(tmp_path / "missing.jsonl")


def test_writer_rejects_bad_entries(tmp_path: Path) -> None:
    writer = RecordWriter.create(tmp_path / "g.jsonl", HEADER)
    with pytest.raises(ValueError, match="no round is in progress"):
        writer.action(0, "play maple-deer", "camera")
    writer.start_round(1, 0, DEAL)
    with pytest.raises(ValueError, match="unknown action source"):
        writer.action(0, "play maple-deer", "guess")
    with pytest.raises(ValueError, match="no action to retract"):
        writer.retract()
    writer.close()
