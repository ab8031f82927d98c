"""Write rendered domino scenes to a folder: images, ``labels.csv`` (``image,tile``) for ``kibitz eval-vision
--dominoes``, and ``manifest.jsonl`` with every tile's truth. Run from the repository root:

    python -m datasets.dominoes.generate --style paigow-art --count 50 --seed 7 --out /tmp/dominoes
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from datasets.dominoes.scenes import DominoSceneConfig, render_scene
from datasets.dominoes.styles import STYLES


def write_scenes(out: Path, style: str, count: int, seed: int, size: tuple[int, int] = (1280, 720)) -> list[str]:
    """Render ``count`` scenes of one style into ``out``; returns the image names."""
    out.mkdir(parents=True, exist_ok=True)
    config = DominoSceneConfig(size=size, styles=(style,))
    names = []
    with (out / "labels.csv").open("w", newline="") as labels, (out / "manifest.jsonl").open("w") as manifest:
        labels.write("image,tile\n")
        for i in range(count):
            scene = render_scene(np.random.default_rng([seed, i]), config)
            name = f"{style}-{seed}-{i:04d}.png"
            cv2.imwrite(str(out / name), scene.image)
            labels.writelines(f"{name},{label}\n" for label in scene.labels())
            tiles = [{"pips": list(f), "face_up": bool(u), "quad": np.round(q.astype(float), 2).tolist(),
                      "visible": round(float(v), 4), "cut": bool(c)}
                     for f, u, q, v, c in zip(scene.faces, scene.face_up, scene.quads, scene.visible, scene.cut,
                                              strict=True)]
            manifest.write(json.dumps({"image": name, "seed": [seed, i], "style": style, "layout": scene.layout,
                                       "set": scene.tile_set, "tiles": tiles}) + "\n")
            names.append(name)
    return names


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="render domino scenes with ground truth")
    parser.add_argument("--style", required=True, choices=STYLES)
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    names = write_scenes(args.out, args.style, args.count, args.seed)
    print(f"wrote {len(names)} scenes to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
