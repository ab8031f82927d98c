"""``pip install .`` (not only editable) must carry everything kibitz reads at run time."""

import subprocess
import sys
import zipfile
from pathlib import Path


def test_wheel_holds_packages_profiles_and_models_but_no_datasets(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--no-build-isolation", "-w", str(tmp_path)],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    wheel = next(tmp_path.glob("kibitz-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "engine/profiles/default.toml" in names and "engine/profiles/koikoi-japan.toml" in names
    assert "engine/koikoi/playouts.toml" in names  # the fitted play-out weights the hints load
    assert "companion/cli.py" in names and "vision/__init__.py" in names and "models/__init__.py" in names
    shipped = [n for n in names if n.startswith("models/") and n.endswith(".onnx")]
    in_repo = sorted(p.name for p in (Path(__file__).resolve().parent.parent / "models").glob("*.onnx"))
    assert sorted(Path(n).name for n in shipped) == in_repo
    assert not any(n.startswith(("datasets/", "tests/")) for n in names)
    entry = [n for n in names if n.endswith("entry_points.txt")]
    assert entry and "kibitz = companion.cli:main" in zipfile.ZipFile(wheel).read(entry[0]).decode()
