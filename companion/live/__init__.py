"""Following a real game from the camera: stable views in, checked actions out (see ``session.LiveSession``)."""

from companion.live.game import Candidate, Expect, LiveGame, Prediction, SetupResult
from companion.live.infer import Inference, InferenceConfig, infer
from companion.live.session import LiveEvent, LiveSession
from companion.live.table import ObservedTable, SeenCard, ZoneMap

__all__ = [
    "Candidate",
    "Expect",
    "Inference",
    "InferenceConfig",
    "LiveEvent",
    "LiveGame",
    "LiveSession",
    "ObservedTable",
    "Prediction",
    "SeenCard",
    "SetupResult",
    "ZoneMap",
    "infer",
]
