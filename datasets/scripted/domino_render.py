"""Render a scripted domino deal (``datasets.scripted.dominoes``) as video frames with per-frame truth.

The frames are made as the Koi-Koi ones are (``datasets.scripted.render.ScriptRenderer``: each step's table
rendered once, then camera jitter, a slow lighting drift, sensor noise and a hand sweeping in and out); only
the still of a step differs: domino tiles (``datasets.dominoes``' tile painter, one tile set of the chosen
style, by default the held-out shared Chinese art) and the red token marking the line's closed end. Truth
labels are tile codes (``a:b``) and ``back``, each with its zone role.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from datasets.dominoes.layouts import TilePlacement
from datasets.dominoes.scenes import _tile_layer
from datasets.dominoes.styles import TEST_STYLE, TileStyle, sample_style
from datasets.hanafuda.compose import composite
from datasets.scripted import script as koikoi_table
from datasets.scripted.dominoes import MARKER, TABLE_MM, TILE_MM, DominoScript, Laid
from datasets.scripted.render import TRUTH_SCALE, RenderConfig, ScriptRenderer, _Still, mark_truth
from datasets.scripted.script import Step

MARKER_MM = 8.0  # radius of the closed-end token
MARKER_BGR = (0.12, 0.14, 0.62)


class DominoRenderer(ScriptRenderer):
    """Frames of a scripted deal; deterministic for a seed. ``tile_style`` names a ``datasets.dominoes`` style
    family (``config.style`` stays the hanafuda art the hand model is drawn with)."""

    def __init__(self, script: DominoScript, config: RenderConfig | None = None, tile_style: str = TEST_STYLE,
                 seed: int | None = None) -> None:
        config = config or RenderConfig()
        # The card renderer frames its 600 mm table; this table is wider, so the same fill needs a smaller scale.
        scaled = replace(config, fill=config.fill * koikoi_table.TABLE_MM[0] / TABLE_MM[0])
        super().__init__(script, scaled, seed)  # type: ignore[arg-type]  # a DominoScript has seed and steps too
        self.tile_style: TileStyle = sample_style(self.rng, tile_style)
        self.tile_mm = (TILE_MM[1] / self.tile_style.aspect, TILE_MM[1])

    def _to_camera(self, p: tuple[float, float]) -> np.ndarray:
        return np.array([p[0] - TABLE_MM[0] / 2, p[1] - TABLE_MM[1] / 2])

    def still(self, step: Step) -> _Still:
        """Render a step's table once: the token, then every tile (all lie flat on the table)."""
        image, gloss = self.background.copy(), self.gloss.copy()
        tiles = [c for c in step.cards if c.label != MARKER]
        for marker in (c for c in step.cards if c.label == MARKER):
            self._draw_marker(image, marker.centre)
        w, h = self.config.size
        small = (h // TRUTH_SCALE, w // TRUTH_SCALE)
        index = np.full(small, -1, np.int16)
        quads, areas = [], []
        style = self.tile_style
        for i, laid in enumerate(tiles):
            assert isinstance(laid, Laid)
            placement = TilePlacement(laid.top, laid.bottom, laid.face_up, self._to_camera(laid.centre), laid.angle)
            top, canvas = _tile_layer(self.config.size, self.camera, placement, self.tile_mm, style, self.rng)
            composite(image, gloss, canvas.layer(style.thickness_mm, style.gloss), self.look,
                      self.camera.scale_at(placement.centre))
            mark_truth(index, areas, quads, top, i)
        return _Still(self.photograph(image, gloss, quads), tuple(tiles), quads, index, np.asarray(areas, np.float64))

    def _draw_marker(self, image: np.ndarray, centre: tuple[float, float]) -> None:
        turns = np.linspace(0, 2 * np.pi, 32, endpoint=False)
        ring = self._to_camera(centre) + MARKER_MM * np.column_stack([np.cos(turns), np.sin(turns)])
        points = np.round(self.camera.project(ring, 3.0) * 16).astype(np.int32)
        cv2.fillPoly(image, [points], MARKER_BGR, cv2.LINE_AA, shift=4)
