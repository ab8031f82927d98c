"""Hwatu at the live table: whole Go-Stop, Matgo and Hato hands of real engine games followed from typed table
observations (cards per zone), go/stop and shakes typed, and a misread that must be a conflict."""

from __future__ import annotations

import random

import pytest

from companion.live.hwatu import HwatuLive
from companion.live.koikoi import visual_class
from companion.live.session import LiveSession
from companion.live.table import ObservedTable, SeenCard, captures, hand
from engine.capture import Phase
from engine.cards import Card
from engine.cardset import CardSet
from engine.hwatu.bots import GreedyBot
from engine.hwatu.gostop_profile import GoStopProfile
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.hato_profile import HatoProfile
from engine.hwatu.hato_round import HatoRound
from engine.moves import MoveKind
from tests.companion.live_helpers import canonical

SIZE = 140.0


class Table:
    """Where each card lies, kept from view to view like a real table (a card stays where it was put)."""

    def __init__(self) -> None:
        self.spot: dict[tuple[Card, str], tuple[float, float]] = {}
        self.free = 0

    def place(self, card: Card, role: str) -> tuple[float, float]:
        if (card, role) not in self.spot:
            self.free += 1
            rows = {"field": 300.0, "hand-0": 900.0}
            row = rows[role] if role in rows else 1200.0 + 200.0 * int(role[-1])
            self.spot[(card, role)] = (100.0 * (self.free % 40), row + 160.0 * (self.free // 40))
        return self.spot[(card, role)]

    def view(self, r, show_hand: bool = False, relabel: dict[Card, str] | None = None) -> ObservedTable:
        relabel = relabel or {}
        placed = [(c, "field") for c in r.field_cards()]
        for p in range(r.players):
            placed += [(c, captures(p)) for c in r.captures(p)]
        if show_hand:
            placed += [(c, hand(0)) for c in r.hand(0)]
        return ObservedTable(tuple(SeenCard(relabel.get(c, c.code), role, 0.95, self.place(c, role), SIZE)
                                   for c, role in placed))


def start(truth, game: str) -> tuple[LiveSession, Table]:
    table = Table()
    session = LiveSession(HwatuLive(game, players=truth.players, me=0), dealer=truth.dealer)
    for _ in range(2):  # a deal is believed on the second look
        session.observe(table.view(truth, show_hand=True))
    assert session.phase == "playing", [e.message for e in session.log]
    return session, table


def follow(truth, game: str, seed: int, skip: float = 0.0) -> LiveSession:
    """Play ``truth`` with greedy bots and show the camera the table after every action (or, with ``skip``,
    sometimes only after the flip)."""
    session, table = start(truth, game)
    rng = random.Random(seed)
    bot = GreedyBot()
    while not truth.is_over:
        move = bot.choose(truth)
        truth.push(move)
        if move.kind in (MoveKind.KOIKOI, MoveKind.STOP, MoveKind.SHAKE):
            session.type_action(str(move))  # announced, not seen
            if truth.is_over:
                session.observe(table.view(truth))  # a round-ending key waits for one more look
            continue
        if move.kind is MoveKind.PLAY and rng.random() < skip:
            continue  # the camera did not look between the play and the flip
        events = session.observe(table.view(truth, show_hand=rng.random() < 0.5))
        assert not [e.message for e in events if e.kind == "conflict"]
    assert session.phase == "over"
    followed = session.game.round
    assert [canonical_pile(p) for p in followed.captured] == [canonical_pile(p) for p in truth.captured]
    if truth.players == 2:  # with more players a play and the flip before it can stay interchangeable
        assert canonical(session.actions()) == canonical(str(m) for m in truth.move_stack)
    return session


def canonical_pile(mask: int) -> list[str]:
    return sorted(visual_class(c.code) or c.code for c in CardSet(mask))


@pytest.mark.parametrize("seed", [1, 3])
def test_whole_go_stop_hands_are_followed(seed: int) -> None:
    truth = GoStopRound.shuffled(seed)
    if truth.is_over:
        pytest.skip("a void deal or chongtong: no play")
    session = follow(truth, "gostop", seed)
    assert session.game.result() == {"reason": truth.result.reason, "winner": truth.result.winner,
                                     "net": list(truth.result.net)}


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2), (5, 3)])
def test_whole_hato_hands_are_followed_for_every_player_count(players: int, seed: int) -> None:
    truth = HatoRound.shuffled(seed, players, HatoProfile.load("hato"))
    if truth.is_over:
        pytest.skip("a void deal")
    session = follow(truth, "hato", seed, skip=0.5 if players == 2 else 0.0)
    assert session.game.result()["net"] == list(truth.result.net)


def test_a_matgo_hand_with_a_bomb_or_steal_is_followed() -> None:
    profile = GoStopProfile.load("matgo")
    for seed in range(60):  # a hand where pi changes piles (a bomb, ppeok taken, jjok, ttadak or a sweep)
        truth = GoStopRound.shuffled(seed, profile)
        copy = GoStopRound.shuffled(seed, profile)
        bot = GreedyBot()
        while not copy.is_over:
            copy.push(bot.choose(copy))
        if any(e.stolen for e in copy.events):
            break
    else:
        pytest.skip("no hand with a steal in these seeds")
    follow(truth, "matgo", seed, skip=0.5)


def test_a_misread_played_card_is_a_conflict_and_changes_nothing() -> None:
    truth = GoStopRound.shuffled(5)
    session, table = start(truth, "gostop")
    bot = GreedyBot()
    while truth.turn == 0 or truth.phase is not Phase.PLAY:
        move = bot.choose(truth)
        truth.push(move)
        if move.kind in (MoveKind.KOIKOI, MoveKind.STOP, MoveKind.SHAKE):
            session.type_action(str(move))
        else:
            session.observe(table.view(truth))
    before = session.actions()
    laid = next(m for m in truth.generate_legal_moves() if m.kind is MoveKind.PLAY and m.take is None)
    truth.push(laid)
    lying = next(c for c in truth.field_cards() if c.month is not laid.card.month)
    events = session.observe(table.view(truth, relabel={laid.card: lying.code}))
    conflicts = [e for e in events if e.kind == "conflict"]
    assert conflicts and lying.code in conflicts[0].message
    assert session.actions() == before  # nothing changed on a guess
    session.observe(table.view(truth))  # the next look reads it right
    assert session.actions()[-1].startswith(f"play {laid.card.code}")
