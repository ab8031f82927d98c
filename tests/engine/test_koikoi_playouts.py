"""The fitted play-out policy and the reading of the greedy bot's hand."""

import random

from engine.bots import RandomBot
from engine.capture import Phase
from engine.cardset import FULL, MONTH_MASK_BY_CARD, cards_of
from engine.koikoi.bots import GreedyBot, PlayoutBot
from engine.koikoi.hints import HintSearch, MatchContext
from engine.koikoi.playout_features import FEATURES, load_weights, move_features
from engine.koikoi.progress import finishers_in
from engine.koikoi.reading import GreedyReader, deal_world
from engine.koikoi.rollout import RolloutPolicy, card_worths
from engine.koikoi.round import KoiKoiRound


def greedy_positions(rounds: int, bots=None):
    """The round at every hand-card decision of seeded rounds between ``bots`` (greedy by default)."""
    bots = bots or (GreedyBot(), GreedyBot())
    for seed in range(rounds):
        state = KoiKoiRound.shuffled(seed, dealer=seed % 2)
        while not state.is_over:
            if state.phase is Phase.PLAY:
                yield state
            state.push(bots[state.turn].choose(state))


def feature_score(state: KoiKoiRound, policy: RolloutPolicy, near: list[int], card: int) -> float:
    """The shipped weights times ``move_features`` of the player to move playing ``card``."""
    p = state.turn
    mine, theirs = state.captured[p], state.captured[1 - p]
    worths = (card_worths(state.profile, mine, theirs), card_worths(state.profile, theirs, mine))
    got = policy.best_take(p, state.field & MONTH_MASK_BY_CARD[card], near)
    features = move_features(state.hands[p], state.field, mine, theirs, worths, (near[p], near[1 - p]), card, got)
    return sum(w * f for w, f in zip(load_weights(), features, strict=True))


def test_the_fast_choice_is_the_weighted_sum_of_the_features():
    """The play-outs' inlined tables pick the hand card whose ``move_features`` score highest under the shipped
    weights: the readable definition and the hot loop are one policy."""
    assert len(load_weights()) == len(FEATURES) and any(w != 0 for w in load_weights())
    compared = 0
    for state in greedy_positions(12):
        p = state.turn
        policy = RolloutPolicy(state)
        near = [finishers_in(policy.finishers, state.captured[q], state.captured[1 - q]) for q in (0, 1)]
        unseen = FULL & ~(state.hands[p] | state.field | state.captured[0] | state.captured[1])
        scores = {card: feature_score(state, policy, near, card) for card in cards_of(state.hands[p])}
        best = max(scores.values())
        chosen = policy.choose_play(p, state.hands[p], state.field, unseen, near, [0.0] * 48)
        assert abs(scores[chosen] - best) < 1e-9  # two cards may tie (plains of a month): either is the choice
        compared += any(best - score > 0.1 for score in scores.values())  # a real choice to get right
    assert compared > 80


def test_the_hand_tuned_rule_is_still_there_and_differs():
    """``fitted=False`` plays by the hand-tuned rule (the expert the weights were fitted to): on many positions
    the two pick different cards."""
    differ = 0
    for state in greedy_positions(12):
        p = state.turn
        fitted, tuned = RolloutPolicy(state), RolloutPolicy(state, fitted=False)
        near = [finishers_in(fitted.finishers, state.captured[q], state.captured[1 - q]) for q in (0, 1)]
        unseen = FULL & ~(state.hands[p] | state.field | state.captured[0] | state.captured[1])
        args = (p, state.hands[p], state.field, unseen, near, [0.0] * 48)
        differ += fitted.choose_play(*args) != tuned.choose_play(*args)
    assert differ > 10


def test_reading_the_greedy_bot_never_rules_out_its_real_cards():
    """Against the greedy bot the reading keeps every card it really holds and rules others out; the cards it
    allows hold its real hand more densely than the unseen cards do."""
    reader = GreedyReader(KoiKoiRound.shuffled(0).profile)
    ruled_out = positions = 0
    real_share = allowed_share = 0.0
    for state in greedy_positions(30, (GreedyBot(), GreedyBot())):
        p = state.turn
        if len(state.move_stack) < 6 or not state.hands[1 - p]:
            continue
        unseen = state.view(p).unknown().mask
        allowed = reader.hand_cards(state, 1 - p, unseen)
        real = state.hands[1 - p]
        assert real & allowed == real, "a card the greedy bot holds was ruled out"
        assert allowed & ~unseen == 0
        ruled_out += (unseen & ~allowed).bit_count()
        positions += 1
        real_share += real.bit_count() / allowed.bit_count()
        allowed_share += real.bit_count() / unseen.bit_count()
    assert positions > 100 and ruled_out / positions > 1.0
    assert real_share > 1.2 * allowed_share


def test_a_view_without_history_rules_nothing_out():
    state = next(s for s in greedy_positions(3) if len(s.move_stack) >= 8)
    p = state.turn
    view = state.view(p)
    unseen = view.unknown().mask
    assert GreedyReader(state.profile).hand_cards(view, 1 - p, unseen) == unseen
    assert GreedyReader(state.profile).hand_cards(state, 1 - p, unseen) != unseen


def test_dealt_worlds_respect_the_reading_and_lose_no_card():
    rng = random.Random(4)
    state = next(s for s in greedy_positions(3, (GreedyBot(), RandomBot(1))) if len(s.move_stack) >= 8)
    p = state.turn
    view = state.view(p)
    unknown = cards_of(view.unknown().mask)
    allowed = 0
    for card in unknown[: view.hidden[1 - p] + 3]:
        allowed |= 1 << card
    for _ in range(20):
        world = deal_world(view, rng, 1 - p, allowed)
        assert world.hands[1 - p] & ~allowed == 0 and world.hands[1 - p].bit_count() == view.hidden[1 - p]
        everything = world.hands[0] | world.hands[1] | world.field | world.captured[0] | world.captured[1]
        for card in world.stock:
            assert not everything >> card & 1
            everything |= 1 << card
        assert everything == FULL
    too_few = 1 << unknown[0]
    world = deal_world(view, rng, 1 - p, too_few)  # a reading that cannot be right: dealt as if none was made
    assert world.hands[1 - p].bit_count() == view.hidden[1 - p]


def test_the_search_with_the_reading_is_reproducible_and_ranks_every_move():
    state = next(s for s in greedy_positions(2) if s.turn == 0 and len(s.move_stack) >= 6)
    ranks = []
    for _ in range(2):
        search = HintSearch(state, 0, MatchContext.single_round(), seed=9, greedy_opponent=True)
        search.add_samples(30)
        ranks.append([(h.move, round(h.value, 9)) for h in search.ranked()])
    assert ranks[0] == ranks[1]
    assert {m for m, _ in ranks[0]} == set(state.generate_legal_moves())


def test_the_playout_bot_plays_as_the_playouts_do():
    """``PlayoutBot`` is the play-outs' policy without noise: its move at each position (hand card and take)
    is the first move a noiseless play-out from there records, and flips take what the play-out takes."""
    bot = PlayoutBot()
    checked = 0
    for state in greedy_positions(10):
        record: list = []
        RolloutPolicy(state).rollout(state, [0.0] * 48, record)
        chosen = bot.choose(state)
        assert chosen in state.legal_moves
        assert (chosen.card, chosen.take) == (record[0].card, record[0].take)
        state.push(chosen)
        if state.phase is Phase.FLIP and len(state.generate_legal_moves()) > 1:
            assert (bot.choose(state).card, bot.choose(state).take) == (record[1].card, record[1].take)
            checked += 1
        state.pop()
    assert checked > 0


def test_the_playout_bot_takes_other_weights():
    """Weights passed in replace the shipped ones: turning every weight around changes the bot's play."""
    flipped = PlayoutBot(weights=tuple(-w for w in load_weights()))
    differ = sum(PlayoutBot().choose(state) != flipped.choose(state) for state in greedy_positions(6))
    assert differ > 10
