"""The live domino benchmark's score of a deal (``domino_live_helpers.score_deal``): moves in order, phantom moves,
and the passes the rules imply at a blocked line, which are neither."""

from datasets.scripted.dominoes import script_deal
from tests.companion.domino_live_helpers import score_deal


def _blocked_deal() -> tuple[list[str], list[str]]:
    """Seed 6 ends in a blocked line and the count: (the moves before the count, the count's ``show`` actions)."""
    actions = script_deal(6).camera_actions()
    moves = [a for a in actions if not a.startswith("show")]
    return moves, actions[len(moves):]


def test_a_deal_followed_exactly_scores_every_move_and_no_phantom():
    moves, shows = _blocked_deal()
    score = score_deal(moves + shows, script_deal(6))
    assert (score.correct, score.phantom, score.implied, score.exact) == (score.truth, 0, 0, True)


def test_passes_the_rules_imply_before_the_count_are_implied_yours_too():
    moves, shows = _blocked_deal()
    passes = ["down 1:2", "down ?", "down ?", "down ?"]  # your own pass names your tile: your hand is known
    score = score_deal(moves + passes + shows, script_deal(6))
    assert (score.phantom, score.implied, score.exact) == (0, 4, True)


def test_a_move_that_did_not_happen_is_a_phantom():
    moves, shows = _blocked_deal()
    score = score_deal([*moves[:5], "play 1:1 open 1", *moves[5:], *shows], script_deal(6))
    assert (score.phantom, score.implied, score.exact) == (1, 0, False)


def test_the_counts_shows_match_in_any_order_but_a_wrong_one_does_not():
    moves, shows = _blocked_deal()
    assert len(shows) > 1
    score = score_deal(moves + shows[::-1], script_deal(6))  # the players turn their tiles up together
    assert (score.correct, score.phantom, score.exact) == (score.truth, 0, True)
    wrong = [*shows[:-1], shows[-1].rsplit(" ", 1)[0] + " 6:6"]
    score = score_deal(moves + wrong, script_deal(6))
    assert (score.correct, score.phantom, score.exact) == (score.truth - 1, 1, False)
