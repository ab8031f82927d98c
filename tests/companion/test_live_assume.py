"""Explanations the camera cannot tell apart: they stand a few views, then the best is assumed and said (and
revised when its card turns up); a card laid on the one it takes hides part of it, which is no reason to
believe another order of the turn."""

from __future__ import annotations

import pytest

from companion.live.infer import Mismatch, Score
from companion.live.koikoi import visual_class
from companion.live.session import LiveSession
from companion.live.table import ObservedTable, SeenCard, captures
from engine.capture import Phase
from engine.cards import Card
from engine.koikoi.bots import GreedyBot
from engine.koikoi.round import KoiKoiRound
from engine.moves import MoveKind
from tests.companion.live_helpers import canonical
from tests.companion.test_live_infer import Table, first_turn, kinds, opponent_capture, start


def _look_alikes(truth: KoiKoiRound, card: Card) -> list[Card]:
    """Cards player 0 has not seen that are of ``card``'s month but look different."""
    return [c for c in truth.view(0).unknown() if c.month == card.month and visual_class(c.code) != visual_class(
        card.code)]


def hidden_flip(max_seed: int = 300) -> tuple[KoiKoiRound, Table, LiveSession, Card]:
    """A round followed up to a flip by player 1 that takes a field card, where player 0 has not seen another
    card of the month that looks different (so that a flip of it would explain the pile as well)."""
    for seed in range(max_seed):
        truth = KoiKoiRound.shuffled(seed)
        if truth.is_over:
            continue
        table = Table()
        session = start(truth, table)
        bot = GreedyBot()
        while not truth.is_over and len(truth.move_stack) < 30:
            move = bot.choose(truth)
            alike = _look_alikes(truth, move.card) if move.card is not None else []
            if move.kind is MoveKind.FLIP and truth.turn == 1 and move.take is not None and alike:
                truth.push(move)
                return truth, table, session, move.card  # type: ignore[return-value]
            truth.push(move)
            if move.kind in (MoveKind.KOIKOI, MoveKind.STOP):
                break
            session.observe(table.view(truth))
    pytest.fail(f"no capturing flip by player 1 with a look-alike in {max_seed} seeds")


def test_explanations_left_open_are_assumed_after_a_few_views_and_play_goes_on() -> None:
    """The flipped card is never seen (under the pile): the views cannot tell it from its look-alikes. After
    ``max_open_views`` views the best explanation is assumed, said, and the later moves are followed."""
    truth, table, session, flipped = hidden_flip()
    bot = GreedyBot()
    events = session.observe(table.view(truth, hide=(flipped,)))
    assert "conflict" not in kinds(events)
    assumed: list[str] = []
    for _ in range(session.config.max_open_views + 2):
        if truth.is_over or truth.phase.name == "DECIDE":
            break
        truth.push(bot.choose(truth))
        events = session.observe(table.view(truth, hide=(flipped,)))
        assumed += [e.message for e in events if e.kind == "assumed"]
        if assumed:
            break
    assert assumed, "the explanations stood open for ever"
    assert "could not tell" in assumed[0]
    done = len(session.actions())
    assert done >= len(truth.move_stack) - 2  # the moves after the assumed one are not held back
    assert canonical(session.actions()[:done]) != [] and len(session.pending) <= session.config.max_hypotheses


def test_an_assumed_move_is_revised_when_its_card_shows_up() -> None:
    """Once the flipped card is seen where the assumed explanation does not put it, the assumption is replaced
    (said as "revised") and the round is the true one again."""
    truth, table, session, flipped = hidden_flip()
    bot = GreedyBot()
    session.observe(table.view(truth, hide=(flipped,)))
    for _ in range(session.config.max_open_views + 2):
        if any(e.kind == "assumed" for e in session.log) or truth.is_over or truth.phase.name == "DECIDE":
            break
        truth.push(bot.choose(truth))
        session.observe(table.view(truth, hide=(flipped,)))
    assumed = [e.message for e in session.log if e.kind == "assumed"]
    assert assumed
    guess = assumed[0].split(" assumed")[0].split()[1]  # "flip <card> take <card> assumed (...)"
    events = session.observe(table.view(truth))  # the pile is tidied: the flipped card is seen
    if visual_class(guess) != visual_class(flipped.code):
        assert "revised" in kinds(events)
    assert canonical(session.actions()) == canonical(str(m) for m in truth.move_stack)


def test_a_clear_read_of_a_partly_hidden_card_counts_against_an_explanation_that_leaves_it_out() -> None:
    """A partly hidden card nothing explains is no conflict (it may be misread), but the surer its read, the
    dearer: an explanation that places it beats one that leaves it out."""
    from companion.live.game import Expect, Prediction
    from companion.live.infer import score_table

    def seen(confidence: float) -> ObservedTable:
        return ObservedTable((SeenCard("pine-crane", "field", 0.95, (0.0, 0.0), 140.0),
                              SeenCard("pine-ribbon", "field", confidence, (30.0, 40.0), 140.0, partial=True)))

    without = Prediction((Expect("pine-crane", "field"),))
    placed = Prediction((Expect("pine-crane", "field"), Expect("pine-ribbon", "field")))
    for confidence in (0.3, 0.6, 0.95):
        left_out = score_table(without, seen(confidence), visual_class)
        assert left_out.count("extra") == 0
        assert score_table(placed, seen(confidence), visual_class).cost < left_out.cost
    assert score_table(without, seen(0.3), visual_class).cost < score_table(without, seen(0.95), visual_class).cost


def test_a_move_on_a_misread_card_is_revised_when_two_later_looks_read_it_otherwise() -> None:
    """The opponent's card, laid alone on the field, is misread for as long as the hand that laid it was still
    (the move is taken on that read). Later looks read it right where it lies: the first is taken for a misread
    of the card the move named, the second running makes the session explain the move again, and revise it."""
    for seed in range(100):
        truth, table, session = first_turn(seed)
        if truth.is_over or truth.dealer != 0:
            continue
        for _ in range(2):
            truth.push(GreedyBot().choose(truth))
        session.observe(table.view(truth))
        if truth.turn != 1 or truth.phase.name != "PLAY":
            continue
        move = next((m for m in truth.generate_legal_moves() if m.take is None), None)
        months = {c.month for c in truth.field_cards()}
        other = next((c for c in truth.view(0).unknown() if c.month not in months and move is not None
                      and move.card is not None and c.month != move.card.month), None)
        if move is not None and other is not None:
            break
    else:
        pytest.fail("no lone play by player 1 with an unseen card of a month not on the field in 100 seeds")
    assert move.card is not None
    truth.push(move)
    before = len(session.actions())
    session.observe(table.view(truth, relabel={move.card: other.code}))
    assert session.actions()[before:] == [f"play {other.code}"]  # believed: nothing contradicts it yet
    first = session.observe(table.view(truth))
    assert "revised" not in kinds(first)  # one look against one look: the misread is the later one
    second = session.observe(table.view(truth))
    assert "revised" in kinds(second)
    assert canonical(session.actions()[before:]) == canonical([str(move)])


def test_a_wrong_flip_and_the_move_it_made_up_are_revised_once_the_flip_is_seen() -> None:
    """Player 1's flip was committed as another card (an assumption, say), and the view after it was then
    explained by a move of player 0 that did not happen. A later view shows the true flip, and the card of the
    made-up move still in the hand: the flip is revised and the made-up move taken back, both said; the round is
    the true one again."""
    for seed in range(60):
        found = opponent_capture(seed)
        if found is None:
            continue
        truth, table, session, _ = found
        session.observe(table.view(truth))
        if truth.phase is not Phase.FLIP or session.actions() != [str(m) for m in truth.move_stack]:
            continue
        flip = truth.generate_legal_moves()[0]
        assert flip.card is not None
        wrong = next((c for c in truth.view(0).unknown() if visual_class(c.code) != visual_class(flip.card.code)
                      and all(f.month != c.month for f in truth.field_cards())), None)  # it would land alone
        if wrong is None:
            continue
        before = truth.field_cards()  # the session's field after the wrong flip, which lands alone
        truth.push(flip)
        if truth.is_over or truth.turn != 0 or truth.phase is not Phase.PLAY:
            continue
        lone = next((c for c in truth.hand(0) if all(f.month != c.month for f in (*before, *truth.field_cards(),
                                                                                   wrong))), None)
        if lone is not None:
            break
    else:
        pytest.fail("no round in 60 seeds with player 1's flip and a lone play for player 0 after it")
    truth_actions = [*session.actions(), str(flip)]
    session.game.push(f"flip {wrong.code}", "camera")  # what a wrong assumption commits
    session.game.push(f"play {lone.code}", "camera")  # and a move made up to explain the next view
    events = session.observe(table.view(truth, show_hand=True))  # the made-up move's card lies in the hand
    events += session.observe(table.view(truth, show_hand=True))
    said = " ".join(e.message for e in events if e.kind == "revised")
    assert f"play {lone.code} did not happen" in said and wrong.code in said
    assert canonical(session.actions()) == canonical(truth_actions)


def test_a_move_is_called_one_that_did_not_happen_only_where_the_view_shows_all_its_cards_elsewhere() -> None:
    """A repair may take back a committed move only where the view shows every card it moved where the standing
    actions cannot put it (read as another card, or unexplained): a card lying where the move put it, or out of
    sight, says nothing against it."""
    session = first_turn()[2]
    move = "play pine-crane take pine-ribbon"
    crane = SeenCard("pine-crane", captures(1), 0.95, (0.0, 0.0), 140.0)
    ribbon = SeenCard("pine-ribbon", captures(1), 0.95, (30.0, 40.0), 140.0)
    elsewhere = (Mismatch("extra", "pine-crane", captures(1), crane), Mismatch("misread", "iris-bridge", captures(1),
                                                                              ribbon))
    assert session._at_odds(move, Score(1.0, elsewhere))
    assert not session._at_odds(move, Score(1.0, elsewhere[:1]))  # the ribbon lies where the move put it
    assert not session._at_odds(move, Score(1.0, (elsewhere[0], Mismatch("missing", "pine-ribbon", "field"))))
    assert not session._at_odds(move, Score(0.0, ()))
