"""What a finder finds. The card finder and the domino-tile finder share the network, the trainer, the export
and the scoring; a ``FinderTask`` names the rest: the training scenes, the styles held out, the scene sets it
is scored on, the runtime class that reads the model, and its model card's text.

    python -m datasets.training.train_finder --scenes dominoes ...   # TASKS["dominoes"]
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from datasets.hanafuda import TEST_STYLE, TRAIN_STYLES
from datasets.training.finder_card import CARD_TEMPLATE
from datasets.training.finder_data import CARD_SCENES, PRESET_MIX
from datasets.training.finder_eval import CALIBRATION_SETS, SCENE_SETS, EvalScene, card_eval_scene
from datasets.training.stream import load_renderer


@dataclass(frozen=True)
class FinderTask:
    name: str  # the trainer's --scenes value
    model: str  # the model file's stem and the metadata's task, checked by the runtime
    what: str  # the one class found ("card", "tile")
    scenes: str  # training scene renderer, module:function (see finder_data.SceneRenderer)
    train_styles: tuple[str, ...]
    test_style: str  # never seen in training
    scene: EvalScene  # scenes to score and calibrate on
    eval_sets: tuple[str, ...]  # scored for the model card, held-out style
    calibration_sets: tuple[str, ...]  # drawn in turn, training styles, 1280x720
    probe_set: str  # the export check runs on three 512x288 scenes of this set
    latency_sets: tuple[str, ...]  # full-size frames timed for the model card
    mix: str  # the training mix in words
    finder: str  # runtime class, module:Class, called as Class(path, threads=1)
    template: str  # the model card, ``str.format`` fields as in finder_card.CARD_TEMPLATE

    def open_finder(self, path: Path) -> Any:
        return load(self.finder)(path, threads=1)


def load(spec: str) -> Any:
    """The object named ``module:name``."""
    return load_renderer(spec)


CARDS = FinderTask(
    name="cards", model="card-finder", what="card", scenes=CARD_SCENES, train_styles=tuple(TRAIN_STYLES),
    test_style=TEST_STYLE, scene=card_eval_scene, eval_sets=tuple(SCENE_SETS), calibration_sets=CALIBRATION_SETS,
    probe_set="default", latency_sets=("default", "1080p-mat"),
    mix=", ".join(f"{k} {v:.0%}" for k, v in PRESET_MIX.items()), finder="vision.finder_learned:LearnedFinder",
    template=CARD_TEMPLATE,
)
# name -> module:object, imported when asked for (a task may need data the other does not)
TASKS: dict[str, str] = {"cards": "datasets.training.finder_tasks:CARDS",
                         "dominoes": "datasets.dominoes.finder_scenes:TASK"}


def finder_task(name: str) -> FinderTask:
    if name not in TASKS:
        raise ValueError(f"unknown finder task {name!r}; choose from {', '.join(TASKS)}")
    task = load(TASKS[name])
    if not isinstance(task, FinderTask):
        raise TypeError(f"{TASKS[name]} is not a FinderTask")
    return task

