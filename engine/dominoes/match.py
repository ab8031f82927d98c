"""A match of a joining game: deals in a row, void deals dealt again, running scores, and who leads.

The first leader is drawn by lot (each player draws a tile, the most pips leads, a tie draws again), then
the winner of a deal (the lowest hand) leads the next. With a lead tile in the profile (Kkoribuchigi's
2:5) its holder leads every deal instead.
"""

from __future__ import annotations

import random

from engine.dominoes.deal import DominoDeal, draw_for_leader
from engine.dominoes.profile import DominoProfile
from engine.dominoes.round import DominoRound, holder_of
from engine.dominoes.settle import Settlement
from engine.errors import IllegalMoveError


class DominoMatch:
    """``DominoMatch(DominoProfile.load("cedeng"), seed=1)``; scores add up each deal's ``net``."""

    def __init__(
        self, profile: DominoProfile | None = None, players: int | None = None, seed: int | None = None,
        rounds: int | None = None, leader: int = -1,
    ) -> None:
        self.profile = profile or DominoProfile.load("jielong")
        self.players = players or max(self.profile.players)
        self.hand_size, self.deck = self.profile.deal_for(self.players)
        self.rounds = rounds or self.profile.rounds
        self.rng = random.Random(seed)
        if leader >= 0:
            self.leader = leader
        elif self.profile.first_leader == "lot":
            self.leader = draw_for_leader(self.rng, self.players, self.deck)
        else:
            self.leader = 0
        self.scores = [0] * self.players
        self.results: list[Settlement] = []
        self.redeals = 0  # void deals dealt again

    @property
    def round_number(self) -> int:
        """1-based number of the deal being (or about to be) played."""
        return len(self.results) + 1

    @property
    def is_over(self) -> bool:
        return len(self.results) >= self.rounds

    @property
    def ahead(self) -> int | None:
        """The player ahead on points, ``None`` when the top is shared."""
        top = max(self.scores)
        return self.scores.index(top) if self.scores.count(top) == 1 else None

    def leader_for(self, deal: DominoDeal) -> int:
        """Who leads ``deal``: the holder of the profile's lead tile where it is seen, else the match's leader."""
        tile = self.profile.lead_holder
        holder = holder_of(deal, tile) if tile is not None else None
        return self.leader if holder is None else holder

    def new_round(self, deal: DominoDeal | None = None, leader: int | None = None) -> DominoRound:
        """The next deal, from ``deal`` (seen at the table) or a fresh shuffle, shuffling again while the deal
        is void (seven doubles)."""
        if self.is_over:
            raise IllegalMoveError("the match is over")
        while True:
            current_deal = deal or DominoDeal.shuffled(self.rng, self.players, self.hand_size, self.deck)
            lead = self.leader_for(current_deal) if leader is None else leader
            current = DominoRound(current_deal, self.profile, lead)
            if current.ending != "redeal":
                return current
            self.redeals += 1
            if deal is not None:
                return current  # an observed deal that must be dealt again: the caller decides

    def record(self, finished: DominoRound, result: Settlement | None = None) -> None:
        """Add a finished deal's settlement (``result``: its ``count`` where unseen tiles had to be turned
        up) and choose the next leader."""
        result = result or finished.result
        if result is None:
            raise IllegalMoveError("the deal is not settled yet: turn up the unseen tiles (DominoRound.count)")
        if result.reason == "redeal":
            return  # counted by new_round
        self.results.append(result)
        for p in range(self.players):
            self.scores[p] += result.net[p]
        if self.profile.next_leader == "winner" and result.winner is not None:
            self.leader = result.winner
