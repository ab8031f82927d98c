"""Domino vision: find tiles, read their pips, name them against the set (``DominoRecognizer``)."""

from vision.dominoes.observation import DominoTableObservation, TileObservation
from vision.dominoes.recognizer import DominoRecognizer
from vision.dominoes.sets import SETS, DominoSet, domino_set

__all__ = ["SETS", "DominoRecognizer", "DominoSet", "DominoTableObservation", "TileObservation", "domino_set"]
