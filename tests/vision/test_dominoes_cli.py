"""``kibitz recognize --dominoes`` and ``kibitz eval-vision --dominoes`` on rendered tables."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from datasets.dominoes.scenes import DominoSceneConfig, render_scene
from datasets.hanafuda.config import preset

CLEAN = DominoSceneConfig(size=(960, 540), styles=("european-white",), layouts={"row": 1.0}, tiles=(4, 4),
                          tilt_max_deg=0.0, tile_length=(0.3, 0.32), photo=replace(preset("clean"), surfaces={"felt": 1.0}))


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    folder = tmp_path_factory.mktemp("dominoes")
    scene = render_scene(5, CLEAN)
    cv2.imwrite(str(folder / "row.png"), scene.image)
    (folder / "labels.csv").write_text("image,tile\n" + "".join(f"row.png,{t}\n" for t in scene.labels()))
    return folder, scene.labels()


def test_recognize_prints_one_object_per_image(table: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    folder, truth = table
    (folder / "empty.jpg").write_bytes(b"")
    status = main(["recognize", "--dominoes", "double-six", "--json", str(folder / "row.png"), str(folder / "empty.jpg")])
    out = json.loads(capsys.readouterr().out)
    assert status == 1  # the empty file is reported, the photo is still read
    assert [o["image"] for o in out] == [str(folder / "row.png"), str(folder / "empty.jpg")]
    assert sorted(t["tile"] for t in out[0]["tiles"]) == sorted(truth)
    assert out[0]["face_down"] == 0 and "error" in out[1]
    tile = out[0]["tiles"][0]
    assert set(tile) >= {"tile", "pips", "confidence", "quad"} and len(tile["quad"]) == 4
    assert out[0]["pip_total"] == sum(int(a) + int(b) for a, b in (t.split(":") for t in truth))


def test_pip_total_mode(table: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    folder, truth = table
    assert main(["recognize", "--dominoes", "double-six", "--pip-total", str(folder / "row.png")]) == 0
    total = sum(int(a) + int(b) for a, b in (t.split(":") for t in truth))
    assert f": {total} pips:" in capsys.readouterr().out
    assert main(["recognize", "--pip-total", str(folder / "row.png")]) == 2  # needs --dominoes


def test_eval_vision_tile_mode(table: tuple[Path, list[str]], capsys: pytest.CaptureFixture[str]) -> None:
    folder, _ = table
    assert main(["eval-vision", "--dominoes", "double-six", "--json", str(folder)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["images"] == 1 and report["recall"] == 1.0 and report["precision"] == 1.0
