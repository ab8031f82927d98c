"""The hint search: obvious moves first, match-aware koi-koi advice, no peeking and no mutation."""

import random

import pytest

from engine.capture import Phase
from engine.cards import Card
from engine.errors import IllegalMoveError
from engine.koikoi.bots import GreedyBot
from engine.koikoi.hints import HintBot, HintSearch, MatchContext, MoveHint, RolloutPolicy, move_class
from engine.koikoi.play import play_round
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.round import KoiKoiRound
from engine.moves import Move
from tests.engine.test_koikoi_progress import position

SINGLE = MatchContext.single_round()

# Player 1 takes the crane and the cherry curtain in the first turn; player 2 lays two cards; player 1
# may then take the moon for sanko (or any of five plains).
SANKO_H1 = "pine-plain-2 pampas-plain-1 iris-plain-1 peony-plain-1 clover-plain-1 maple-plain-1 willow-ribbon paulownia-plain-1"
SANKO_H2 = "plum-ribbon wisteria-ribbon iris-ribbon peony-ribbon clover-ribbon chrysanthemum-ribbon maple-ribbon willow-swallow"
SANKO_FIELD = "pine-crane cherry-curtain pampas-moon iris-plain-2 peony-plain-2 clover-plain-2 maple-plain-2 paulownia-plain-2"


def sanko_chance(h2: str = SANKO_H2) -> KoiKoiRound:
    return position(
        SANKO_H1, h2, SANKO_FIELD, "cherry-plain-1 wisteria-plain-1",
        "play pine-plain-2 take pine-crane", "flip cherry-plain-1 take cherry-curtain",
        "play plum-ribbon", "flip wisteria-plain-1",
    )


def inoshikacho_decision() -> KoiKoiRound:
    """Player 1 completes inoshikacho (5 points) on their second turn, with six cards left in hand."""
    h1 = "clover-boar peony-butterflies maple-deer pine-crane plum-warbler cherry-curtain wisteria-cuckoo iris-bridge"
    h2 = "pine-ribbon plum-ribbon cherry-ribbon wisteria-ribbon iris-ribbon willow-ribbon pampas-geese chrysanthemum-ribbon"
    field = "clover-plain-1 peony-plain-1 maple-plain-1 pampas-plain-1 pampas-plain-2 willow-swallow paulownia-plain-1 iris-plain-1"
    stock = "paulownia-plain-2 paulownia-plain-3 willow-lightning wisteria-plain-1 chrysanthemum-plain-1"
    state = position(
        h1, h2, field, stock,
        "play clover-boar take clover-plain-1", "flip paulownia-plain-2 take paulownia-plain-1",
        "play chrysanthemum-ribbon", "flip paulownia-plain-3",
        "play peony-butterflies take peony-plain-1", "flip willow-lightning take willow-swallow",
        "play iris-ribbon take iris-plain-1", "flip wisteria-plain-1",
        "play maple-deer take maple-plain-1", "flip chrysanthemum-plain-1 take chrysanthemum-ribbon",
    )
    assert state.phase is Phase.DECIDE and state.turn == 0 and state.score_if_stopped(0) == 5
    return state


def test_taking_the_bright_that_completes_sanko_ranks_first():
    state = sanko_chance()
    search = HintSearch(state, 0, SINGLE, seed=3)
    before = [h.move for h in search.ranked()]  # the instant ranking, before any sample
    assert before[0] == Move.play(Card.PAMPAS_PLAIN_1, Card.PAMPAS_MOON)
    search.add_samples(24)
    ranked = search.ranked()
    assert ranked[0].move == Move.play(Card.PAMPAS_PLAIN_1, Card.PAMPAS_MOON)
    assert ranked[0].value > ranked[-1].value and ranked[0].samples == 24 == search.samples
    assert {h.move for h in ranked} == set(state.generate_legal_moves())
    assert "completes Sanko (5 points)" in ranked[0].reason.text("en")
    assert search.decision() is None


def test_more_samples_refine_and_step_respects_its_budget():
    import time

    search = HintSearch(sanko_chance(), 0, SINGLE, seed=1)
    started = time.perf_counter()
    search.step(0.05)
    assert search.samples >= 1 and time.perf_counter() - started < 1.0
    first = search.samples
    search.step(0.05)
    assert search.samples > first


def test_search_never_mutates_the_state_nor_reads_hidden_cards():
    """Two rounds that differ only in the opponent's hand (and so the stock) get the same hints."""
    other_h2 = SANKO_H2.replace("willow-swallow", "willow-lightning")
    a, b = sanko_chance(), sanko_chance(other_h2)
    snapshot = (repr(a), a.hands, a.field, a.captured, a.stock, a.stock_left, list(a.move_stack), a.phase)
    rankings = []
    for state in (a, b):
        search = HintSearch(state, 0, SINGLE, seed=7)
        search.add_samples(6)
        rankings.append([(h.move, h.value, h.points, h.samples) for h in search.ranked()])
    assert rankings[0] == rankings[1]
    assert snapshot == (repr(a), a.hands, a.field, a.captured, a.stock, a.stock_left, list(a.move_stack), a.phase)


def test_flip_choice_takes_the_card_that_completes_sanko():
    """With the crane and the curtain taken, the flipped pampas may take the moon or the geese."""
    h1 = SANKO_H1.replace("pampas-plain-1", "willow-lightning")
    field = SANKO_FIELD.replace("paulownia-plain-2", "pampas-geese")
    state = position(
        h1, SANKO_H2, field, "cherry-plain-1 wisteria-plain-1 pampas-plain-1",
        "play pine-plain-2 take pine-crane", "flip cherry-plain-1 take cherry-curtain",
        "play plum-ribbon", "flip wisteria-plain-1", "play iris-plain-1 take iris-plain-2",
    )
    assert state.phase is Phase.FLIP
    moon = Move.flip(Card.PAMPAS_PLAIN_1, Card.PAMPAS_MOON)
    search = HintSearch(state, 0, SINGLE, seed=2)  # the full state knows the card being flipped
    search.add_samples(16)
    assert search.ranked()[0].move == moon
    # from the view, the flipped card is given by whoever saw it
    view = state.view(0)
    search = HintSearch(view, 0, SINGLE, seed=2, flipped=Card.PAMPAS_PLAIN_1)
    search.add_samples(16)
    ranked = search.ranked()
    assert [h.move for h in ranked] == [moon, Move.flip(Card.PAMPAS_PLAIN_1, Card.PAMPAS_GEESE)]
    assert ranked[0].value == 1.0 and "completes Sanko" in ranked[0].reason.text("en")
    with pytest.raises(IllegalMoveError, match="cannot be the flipped card"):
        HintSearch(view, 0, SINGLE, flipped=Card.PAMPAS_MOON)


def test_koikoi_advice_follows_the_match():
    state = inoshikacho_decision()
    early = HintSearch(state, 0, MatchContext(round_number=1, rounds=12, scores=(0, 0)), seed=5)
    early.add_samples(64)
    go = early.decision()
    assert go is not None and go.advice == Move.koikoi()
    assert go.koikoi_value > go.stop_value and go.koikoi_expected > go.stop_points
    assert 0 <= go.opponent_first < 0.5 and go.samples == 64
    late = HintSearch(state, 0, MatchContext(round_number=12, rounds=12, scores=(30, 10)), seed=5)
    late.add_samples(64)
    stop = late.decision()
    assert stop is not None and stop.advice == Move.stop() and stop.stop_value == 1.0
    assert "a win is a win" in stop.reason.text("en")
    assert late.ranked() == []


def test_context_utility_is_a_match_win_probability():
    single = MatchContext.single_round()
    assert (single.utility((5, 0), 0), single.utility((0, 0), 0), single.utility((5, 0), 1)) == (1.0, 0.5, 0.0)
    early = MatchContext(1, 12, (0, 0))
    ladder = [early.utility((p, 0), 0) for p in (0, 1, 5, 20, 60)]
    assert ladder == sorted(ladder) and ladder[0] == 0.5 and ladder[-1] < 1.0
    late = MatchContext(12, 12, (40, 0))
    assert late.utility((1, 0), 0) == late.utility((60, 0), 0) == 1.0
    assert late.rounds_left == 0 and early.rounds_left == 11


def test_nothing_to_rank_when_it_is_not_the_players_turn():
    state = sanko_chance()
    search = HintSearch(state, 1, SINGLE)
    search.step(0.01)
    assert search.ranked() == [] and search.decision() is None and search.samples == 0


def test_hint_bot_plays_legal_rounds():
    """play_round pushes every move checked: an illegal hint would raise."""
    bot = HintBot(samples=2, seed=3)
    movers = []
    for seed in (1, 2):
        state = KoiKoiRound.shuffled(seed, dealer=seed % 2)
        result = play_round(state, [bot, GreedyBot()], on_move=lambda s, m, p: movers.append(p))
        assert result.reason in ("stop", "exhausted")
    assert 0 in movers


@pytest.mark.parametrize("profile_name", ["default", "koikoi-japan"])
def test_playouts_follow_the_engine_rules(profile_name):
    """The playout simulates on plain ints; replaying its moves through the engine (checked) must end
    the same way, and the world it played from must be left untouched."""
    profile = KoiKoiProfile.load(profile_name)
    rng = random.Random(17)
    checked = 0
    for seed in range(40):
        state = KoiKoiRound.shuffled(seed, profile, dealer=seed % 2)
        for _ in range(rng.randrange(0, 20)):
            if state.is_over or state.phase is Phase.DECIDE:
                break
            state.push(state.random_move(rng))
        if state.is_over:
            continue
        view = state.view(state.turn)
        policy = RolloutPolicy(view)  # one policy for several worlds, as in a search: its caches warm up
        for _ in range(4):
            world = view.sample_world(rng)
            before = (world.hands, world.field, world.captured, world.stock_left, world.phase, world.turn)
            moves: list[Move] = []
            points, stopper = policy.rollout(world, [rng.random() for _ in range(48)], moves)
            assert before == (world.hands, world.field, world.captured, world.stock_left, world.phase, world.turn)
            replay = world.sample_world(rng)  # a full-information copy
            for move in moves:
                replay.push(move)
            assert replay.result is not None and replay.result.points == points
            assert stopper == (replay.result.winner if replay.result.reason == "stop" else -1)
            checked += 1
    assert checked >= 120


def test_a_playout_budget_gives_fewer_candidates_more_worlds():
    """``add_playouts`` stops once the candidates were played out that often: a world costs one play-out per
    candidate still in the running, so once the clearly worse moves are pruned the same budget buys more worlds."""
    state = sanko_chance()
    search = HintSearch(state, 0, SINGLE, seed=5)
    candidates = len(set(map(move_class, state.generate_legal_moves())))
    search.add_playouts(20 * candidates)
    assert search.samples == 20 and search.playouts == 20 * candidates
    search.add_playouts(600)
    assert 20 * candidates + 600 <= search.playouts < 20 * candidates + 600 + candidates
    assert search.samples > 20 + 600 // candidates  # pruned moves no longer cost play-outs
    assert search.playouts == sum(hint.samples for hint in _one_per_class(search.ranked()))


def _one_per_class(hints: list[MoveHint]) -> list[MoveHint]:
    seen: dict[tuple[int, int, int], MoveHint] = {}
    for hint in hints:
        seen.setdefault(move_class(hint.move), hint)
    return list(seen.values())


def test_hint_bot_on_a_playout_budget_plays_legal_rounds():
    bot = HintBot(seed=4, playouts=30)
    for seed in (3, 4):
        result = play_round(KoiKoiRound.shuffled(seed, dealer=seed % 2), [bot, GreedyBot()])
        assert result.reason in ("stop", "exhausted")
