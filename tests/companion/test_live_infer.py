"""Move inference for Koi-Koi on tables built from real engine states: whole rounds, misreads the rules
correct, misreads that must be conflicts, hands over the table, take choices, implied koi-koi calls."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.live.koikoi import KoiKoiLive, visual_class
from companion.live.session import LiveSession
from companion.live.table import ObservedTable, SeenCard, captures, hand
from engine.bots import RandomBot
from engine.capture import Phase
from engine.cards import Card
from engine.koikoi.bots import GreedyBot
from engine.koikoi.round import KoiKoiRound
from engine.moves import Move, MoveKind
from tests.companion.live_helpers import canonical

SIZE = 140.0  # a card's long side in image pixels


class Table:
    """Where each card lies, kept from view to view like a real table: a card stays where it was put."""

    def __init__(self) -> None:
        self.spot: dict[tuple[Card, str], tuple[float, float]] = {}
        self.free = 0

    def place(self, card: Card, role: str, near: tuple[float, float] | None = None) -> tuple[float, float]:
        key = (card, role)
        if key not in self.spot:
            if near is not None:
                self.spot[key] = (near[0] + 30.0, near[1] + 40.0)
            else:
                row = {"field": 300.0, "captures-0": 600.0, "captures-1": 0.0, "hand-0": 800.0}[role]
                self.free += 1
                self.spot[key] = (100.0 * (self.free % 40), row + 160.0 * (self.free // 40))
        return self.spot[key]

    def view(self, r: KoiKoiRound, show_hand: bool = False, waiting: tuple[Card, ...] = (),
             relabel: dict[Card, str] | None = None, hide: tuple[Card, ...] = ()) -> ObservedTable:
        """What the camera sees of ``r``: captured cards in ``waiting`` still lie on the field (on the card
        they took), ``relabel`` misreads cards, ``hide`` puts a hand over some."""
        relabel = relabel or {}
        cards = []
        placed: list[tuple[Card, str]] = [(c, "field") for c in r.field_cards()]
        for p in (0, 1):
            placed += [(c, "field" if c in waiting else captures(p)) for c in r.captures(p)]
        if show_hand:
            placed += [(c, hand(0)) for c in r.hand(0)]
        for card, role in placed:
            if card in hide:
                continue
            where = self.place(card, role)
            cards.append(SeenCard(relabel.get(card, card.code), role, 0.95, where, SIZE))
        return ObservedTable(tuple(cards))


def start(truth: KoiKoiRound, table: Table, **kwargs: object) -> LiveSession:
    session = LiveSession(KoiKoiLive(me=0), dealer=truth.dealer, **kwargs)  # type: ignore[arg-type]
    view = table.view(truth, show_hand=True)
    session.observe(view)
    session.observe(view)  # a deal is believed on the second look
    assert session.phase == "playing"
    return session


def kinds(events: list) -> list[str]:  # type: ignore[type-arg]
    return [e.kind for e in events]


@pytest.mark.parametrize("seed", range(12))
def test_whole_rounds_are_followed_whether_or_not_the_play_is_seen_before_the_flip(seed: int) -> None:
    truth = KoiKoiRound.shuffled(seed)
    if truth.is_over:
        pytest.skip("dealt-hand yaku: no play")
    table = Table()
    session = start(truth, table)
    rng = random.Random(seed)
    bots = (GreedyBot(), RandomBot(seed))
    while not truth.is_over:
        move = bots[truth.turn].choose(truth)
        truth.push(move)
        if move.kind in (MoveKind.KOIKOI, MoveKind.STOP):
            assert session.game.awaiting()
            session.type_action(str(move))
            session.observe(table.view(truth))  # a round-ending key waits for one more look
            continue
        if move.kind is MoveKind.PLAY and rng.random() < 0.5:
            continue  # the camera did not see the table between the play and the flip
        events = session.observe(table.view(truth, show_hand=rng.random() < 0.5))
        assert "conflict" not in kinds(events)
    assert canonical(session.actions()) == canonical(str(m) for m in truth.move_stack)
    assert session.phase == "over"
    assert session.game.result() == {"reason": truth.result.reason, "winner": truth.result.winner,
                                     "points": list(truth.result.points), "yaku": [y.name for y in truth.result.yaku],
                                     "koikoi": list(truth.result.koikoi)}


def first_turn(seed: int = 11) -> tuple[KoiKoiRound, Table, LiveSession]:
    truth = KoiKoiRound.shuffled(seed)
    table = Table()
    return truth, table, start(truth, table)


def test_a_misread_of_a_card_lying_still_is_corrected_by_the_rules() -> None:
    truth, table, session = first_turn()
    truth.push(GreedyBot().choose(truth))
    still = next(c for c in truth.field_cards() if c != truth.move_stack[0].card)
    unseen = next(c for c in truth.view(0).unknown() if c.month != still.month)
    events = session.observe(table.view(truth, relabel={still: unseen.code}))
    assert kinds(events).count("move") == 1 and session.actions() == [str(truth.move_stack[0])]
    corrected = [e for e in events if e.kind == "corrected"]
    assert corrected and f"{unseen.code} at" in corrected[0].message and still.code.rsplit("-", 1)[0] in \
        corrected[0].message


def test_a_played_card_read_as_one_already_on_the_field_is_a_conflict_and_changes_nothing() -> None:
    truth, table, session = first_turn()
    truth.push(GreedyBot().choose(truth))
    truth.push(GreedyBot().choose(truth))  # the dealer's whole turn
    session.observe(table.view(truth))
    opponent = next(m for m in truth.generate_legal_moves() if m.take is None)  # lands alone on the field
    truth.push(opponent)
    assert opponent.card is not None
    lying = next(c for c in truth.field_cards() if c != opponent.card and c.month != opponent.card.month)
    before = session.actions()
    events = session.observe(table.view(truth, relabel={opponent.card: lying.code}))
    conflicts = [e for e in events if e.kind == "conflict"]
    assert conflicts and lying.code in conflicts[0].message
    assert len(before) == 2 and session.actions() == before  # nothing changed on a guess
    events = session.observe(table.view(truth))  # the next look reads it right
    assert str(opponent) in session.actions() and "conflict" not in kinds(events)


def test_a_hand_over_the_table_hides_cards_and_makes_no_move() -> None:
    truth, table, session = first_turn()
    covered = tuple(list(truth.field_cards())[:3])
    before = session.actions()
    events = session.observe(table.view(truth, hide=covered))
    assert kinds(events) == ["hidden"] and session.actions() == before
    assert all(c.code.rsplit("-", 1)[0] in events[0].message for c in covered)


def test_the_take_follows_the_card_the_player_laid_it_on() -> None:
    for seed in range(200):
        truth = KoiKoiRound.shuffled(seed)
        choice = [m for m in truth.generate_legal_moves() if m.take is not None and sum(
            c.month == m.card.month for c in truth.field_cards()) == 2]  # type: ignore[union-attr]
        if not truth.is_over and choice:
            break
    else:
        pytest.fail("no deal with a choice of take in 200 seeds")
    table = Table()
    session = start(truth, table)
    for move in choice:
        assert move.card is not None and move.take is not None
        table.spot[(move.card, "field")] = table.place(move.take, "field", near=table.spot[(move.take, "field")])
    move = choice[-1]
    assert move.card is not None and move.take is not None
    table.spot[(move.card, "field")] = (table.spot[(move.take, "field")][0] + 30.0,
                                        table.spot[(move.take, "field")][1] + 40.0)
    truth.push(move)
    session.observe(table.view(truth, waiting=(move.card, move.take)))
    assert session.actions() == [str(move)]


def test_koikoi_is_implied_when_play_goes_on_without_the_key() -> None:
    for seed in range(300):
        truth = KoiKoiRound.shuffled(seed)
        if truth.is_over:
            continue
        bots = (RandomBot(seed), RandomBot(seed + 1))
        table, session, found = Table(), None, False
        session = start(truth, table)
        while not truth.is_over:
            move = bots[truth.turn].choose(truth)
            if truth.phase is Phase.DECIDE:
                if Move.koikoi() not in truth.generate_legal_moves():
                    break
                truth.push(Move.koikoi())  # called aloud, the key not pressed
                found = True
                continue
            truth.push(move)
            if found and truth.phase is Phase.PLAY:  # the next player's play and flip are on the table
                break
            if not found:
                session.observe(table.view(truth))
        if found and not truth.is_over:
            truth.push(bots[truth.turn].choose(truth))
            truth.push(bots[truth.turn].choose(truth)) if truth.phase is Phase.FLIP else None
            session.observe(table.view(truth))
            assert "koikoi" in session.actions()
            assert canonical(session.actions()) == canonical(str(m) for m in truth.move_stack)
            return
    pytest.fail("no koi-koi call found in 300 seeded rounds")


def test_interchangeable_plains_are_no_conflict() -> None:
    truth, table, session = first_turn()
    plains = [c for c in truth.field_cards() if c.code.endswith(("-plain-1", "-plain-2"))]
    assert plains, "seed 11 deals a plain to the field"
    plain = plains[0]
    twin = plain.code[:-1] + ("2" if plain.code.endswith("1") else "1")
    events = session.observe(table.view(truth, relabel={plain: twin}))
    assert kinds(events) == [] and session.actions() == []


def opponent_capture(seed: int) -> tuple[KoiKoiRound, Table, LiveSession, Move] | None:
    """The dealer's (player 0) whole turn seen, then a capture by player 1 (None when the seed has none)."""
    truth, table, session = first_turn(seed)
    if truth.is_over or truth.dealer != 0:
        return None
    for _ in range(2):
        truth.push(GreedyBot().choose(truth))
    session.observe(table.view(truth))
    if truth.turn != 1 or truth.phase is not Phase.PLAY:
        return None
    move = next((m for m in truth.generate_legal_moves() if m.take is not None), None)
    if move is None:
        return None
    truth.push(move)
    return truth, table, session, move


@pytest.mark.parametrize("seed", range(8))
def test_an_unreadable_played_card_is_a_wildcard_never_a_wrong_move(seed: int) -> None:
    """The opponent's played card reads "unknown" on the card it took: legal moves may explain it. The move is
    taken when the rules leave one card it can be, else the view waits; never a conflict, never a wrong move."""
    found = opponent_capture(seed)
    if found is None:
        pytest.skip("no capture by player 1 after the dealer's turn")
    truth, table, session, move = found
    assert move.card is not None
    before = session.actions()
    events = session.observe(table.view(truth, relabel={move.card: "unknown"}))
    assert "conflict" not in kinds(events)
    added = session.actions()[len(before):]
    assert canonical(added) in ([], canonical([str(move)]))
    if not added:  # waiting for a better look: the true move is one of the explanations still standing
        assert session.last_inference is not None
        assert any(str(move) in r.actions for r in session.last_inference.options)
    events = session.observe(table.view(truth))  # the next look reads it
    assert canonical(session.actions()[len(before):]) == canonical([str(move)])


@pytest.mark.parametrize("misread_elsewhere", [False, True])
def test_a_move_committed_on_a_misread_card_is_revised_when_a_later_look_contradicts_it(
        misread_elsewhere: bool) -> None:
    """With ``misread_elsewhere``, a card that has nothing to do with the move is misread in every later look
    too: the repair still explains more of the table, so it still goes through."""
    for seed in range(60):
        found = opponent_capture(seed)
        if found is None:
            continue
        truth, table, session, move = found
        assert move.card is not None and move.take is not None
        unseen = truth.view(0).unknown()
        twin = next((c for c in unseen if c.month == move.card.month
                     and visual_class(c.code) != visual_class(move.card.code)), None)
        if twin is not None:
            break
    else:
        pytest.fail("no capture with a look-alike card in 60 seeds")
    before = session.actions()
    # First look: the played card, still on the card it took, is read as another card of its month.
    table.spot[(move.card, "field")] = table.place(move.take, "field", near=table.spot[(move.take, "field")])
    session.observe(table.view(truth, waiting=(move.card, move.take), relabel={move.card: twin.code}))
    wrong = session.actions()[len(before):]
    assert wrong and twin.code in wrong[0]
    # Later looks, once the capture is gathered, read it right: the move is revised, and said.
    elsewhere: dict[Card, str] = {}
    if misread_elsewhere:
        still = next(c for c in truth.field_cards() if c.month not in (move.card.month, twin.month))
        mine = next(c for c in truth.hand(0) if visual_class(c.code) != visual_class(still.code))
        elsewhere = {still: mine.code}
    events = session.observe(table.view(truth, relabel=elsewhere))
    revised = [e for e in events if e.kind == "revised"]
    assert revised and twin.code in revised[0].message and move.card.code in revised[0].message
    assert canonical(session.actions()[len(before):]) == canonical([str(move)])


def test_explanations_reaching_one_state_are_one() -> None:
    from companion.live.infer import Ranked, Score, _one_per_state

    def ranked(actions: tuple[str, ...], total: float, state: object) -> Ranked:
        return Ranked(actions, (0,) * len(actions), Score(total, ()), total, state=state)

    a, b = ranked(("play x", "flip y"), 0.1, "s1"), ranked(("flip y", "play x"), 0.2, "s1")
    c, d, e = ranked(("play z",), 0.3, "s2"), ranked(("play w",), 0.4, None), ranked(("play v",), 0.5, None)
    assert _one_per_state([a, b, c, d, e]) == [a, c, d, e]


@pytest.mark.parametrize("seed", range(4))
def test_a_partly_hidden_card_read_wrong_is_no_conflict(seed: int) -> None:
    """The opponent's played card lies half under a hand's shadow and reads as some other card: a partly
    visible card is a wildcard, so the view is no conflict and no wrong move is taken."""
    found = opponent_capture(seed)
    if found is None:
        pytest.skip("no capture by player 1 after the dealer's turn")
    truth, table, session, move = found
    assert move.card is not None
    other = next(c for c in truth.view(0).unknown() if c.month != move.card.month)
    view = table.view(truth, relabel={move.card: other.code})
    view = ObservedTable(tuple(replace(c, partial=True) if c.label == other.code else c for c in view.cards))
    before = session.actions()
    events = session.observe(view)
    assert "conflict" not in kinds(events)
    assert canonical(session.actions()[len(before):]) in ([], canonical([str(move)]))
