"""Kan (Gonin-Kan), the five-player trick-taking game from Aomori: cards, deals, rounds, ledger, bots.

``from engine.kan import KanDeal, Hands, Action`` is enough to play a deal; ``KanMatch`` plays rounds and
keeps the ledger. README, "Kan rules and choices", lists the rules and every choice made where they are silent.
"""

from engine.history import LegalMoves
from engine.kan.actions import Action, ActionKind, ShowWay
from engine.kan.cards import Card, Rank, Suit, parse_card
from engine.kan.cardset import CardSet
from engine.kan.deal import KanDeal
from engine.kan.hands import Hands
from engine.kan.ledger import DealOutcome, Declaration, LedgerEntry, RoundLedger, kankei_win, round_entries, settle
from engine.kan.match import KanMatch, KanRound
from engine.kan.profile import KanProfile, LedgerTable
from engine.kan.table import DealResult, DealSetup, Phase, SeatChange, Showing, Side
from engine.kan.tricks import Trick

__all__ = [
    "Action", "ActionKind", "Card", "CardSet", "DealOutcome", "DealResult", "DealSetup", "Declaration", "Hands",
    "KanDeal", "KanMatch", "KanProfile", "KanRound", "LedgerEntry", "LedgerTable", "LegalMoves", "Phase", "Rank",
    "RoundLedger", "SeatChange", "ShowWay", "Showing", "Side", "Suit", "Trick", "kankei_win", "parse_card",
    "round_entries", "settle",
]
