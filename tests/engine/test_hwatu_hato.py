"""Hato and Min-hwatu: card points, every bonus, settlements, deal sizes, patu and the dealer rule."""

import random

import pytest

from engine.bots import RandomBot
from engine.capture import Phase
from engine.cards import Card
from engine.cardset import CardSet
from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidStateError, ProfileError
from engine.hwatu.deal import explicit_deal
from engine.hwatu.hato import bonuses, card_points, settle_hato
from engine.hwatu.hato_profile import HatoProfile
from engine.hwatu.hato_round import HatoRound
from engine.hwatu.match import HatoMatch
from engine.hwatu.play import play_round
from engine.moves import Move
from engine.profile import load_profile_data

HATO = HatoProfile.load("hato")
MIN = HatoProfile.load("minhwatu")


def pile(codes: str) -> int:
    return CardSet.parse(codes).mask


def names(found) -> list[tuple[str, int]]:
    return [(b.name, b.points) for b in found]


@pytest.mark.parametrize(
    ("codes", "points"),
    [("pine-crane", 20), ("plum-warbler", 10), ("chrysanthemum-sake", 10), ("pine-ribbon", 5),
     ("willow-ribbon", 5), ("pine-plain-1", 0), ("paulownia-plain-3", 0), ("willow-lightning", 1)],
)
def test_card_points(codes, points):
    assert card_points(pile(codes), HATO) == points == card_points(pile(codes), MIN)


def test_the_whole_deck_is_worth_241():
    assert card_points((1 << 48) - 1, HATO) == 5 * 20 + 9 * 10 + 10 * 5 + 1


def test_hato_bonuses():
    assert names(bonuses(pile("pine-ribbon plum-ribbon cherry-ribbon"), HATO)) == [("hongdan", 30)]
    assert names(bonuses(pile("peony-ribbon chrysanthemum-ribbon maple-ribbon"), HATO)) == [("cheongdan", 30)]
    assert bonuses(pile("wisteria-ribbon iris-ribbon clover-ribbon"), HATO) == []  # hato needs the willow too
    red = "wisteria-ribbon iris-ribbon clover-ribbon willow-ribbon"
    assert names(bonuses(pile(red), HATO)) == [("chodan", 40)]
    brights = "pine-crane cherry-curtain pampas-moon willow-rainman paulownia-phoenix"
    assert names(bonuses(pile(brights), HATO)) == [("ogwang", 50)]
    assert bonuses(pile("pine-crane cherry-curtain pampas-moon willow-rainman"), HATO) == []
    pine = "pine-crane pine-ribbon pine-plain-1 pine-plain-2"
    assert names(bonuses(pile(pine), HATO)) == [("songhak-yak", 20)]
    assert bonuses(pile("pine-crane pine-ribbon pine-plain-1"), HATO) == []
    every_month = bonuses((1 << 48) - 1, HATO)
    assert len(every_month) == 4 + 12 and sum(b.points for b in every_month) == 150 + 12 * 20
    # listed in Korean month order: paulownia (11) before willow (12)
    assert [b.name for b in every_month[-2:]] == ["odong-yak", "bi-yak"]


def test_minhwatu_bonuses():
    assert names(bonuses(pile("wisteria-ribbon iris-ribbon clover-ribbon"), MIN)) == [("chodan", 30)]
    assert bonuses(pile("pine-crane pine-ribbon pine-plain-1 pine-plain-2"), MIN) == []  # pine is not listed
    willow = "willow-rainman willow-swallow willow-ribbon willow-lightning"
    assert names(bonuses(pile(willow), MIN)) == [("bi-yak", 20)]
    assert names(bonuses(pile("maple-deer maple-ribbon maple-plain-1 maple-plain-2"), MIN)) == [("danpung-yak", 20)]
    assert {b.name for b in bonuses((1 << 48) - 1, MIN)} == {
        "hongdan", "cheongdan", "chodan", "ogwang", "heukssari-yak", "nancho-yak", "hongssari-yak", "danpung-yak",
        "bi-yak",
    }


PILES = (
    pile("pine-crane pine-ribbon pine-plain-1 pine-plain-2"),  # 25 card points, four pines
    pile("peony-ribbon chrysanthemum-ribbon maple-ribbon maple-deer"),  # 25 card points, cheongdan
    pile("willow-lightning"),  # 1 card point
)


def test_hato_settlement_is_zero_sum_pairwise():
    result = settle_hato(PILES, HATO)
    assert result.card_points == (25, 25, 1)
    assert names(result.bonuses[0]) == [("songhak-yak", 20)] and names(result.bonuses[1]) == [("cheongdan", 30)]
    assert result.points == (45, 55, 1)
    assert result.net == (3 * 45 - 101, 3 * 55 - 101, 3 * 1 - 101) and sum(result.net) == 0
    assert result.winner == 1 and result.reason == "exhausted"


def test_minhwatu_bonuses_are_taken_off_every_other_player():
    result = settle_hato(PILES, MIN)
    assert result.bonuses[0] == ()  # four pines earn nothing in min-hwatu
    assert result.points == (25 - 30, 25 + 30, 1 - 30)
    assert result.net == (3 * -5 - 21, 3 * 55 - 21, 3 * -29 - 21) and sum(result.net) == 0


def test_a_tie_for_the_top_has_no_winner():
    result = settle_hato((pile("pine-crane"), pile("cherry-curtain"), 0), HATO)
    assert result.points == (20, 20, 0) and result.winner is None and sum(result.net) == 0


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_player_count_deals_its_sizes_and_plays_out(players):
    hand, field = {2: (10, 8), 3: (7, 6), 4: (5, 8), 5: (4, 8)}[players]
    rng = random.Random(players)
    r = HatoRound.shuffled(rng, players)
    while r.is_over:  # a void deal: shuffle again
        r = HatoRound.shuffled(rng, players)
    assert [len(r.hand(p)) for p in range(players)] == [hand] * players
    assert len(r.field_cards()) == field and r.stock_left == players * hand
    result = play_round(r, [RandomBot(p) for p in range(players)])
    assert r.stock_left == 0 and not any(r.hands)
    assert sum(len(r.captures(p)) for p in range(players)) + len(r.field_cards()) == 48
    assert sum(result.card_points) == 241 - card_points(r.field, HATO)
    assert sum(result.net) == 0
    assert not any(m.kind.name in ("KOIKOI", "STOP") for m in r.move_stack)


def test_hato_plays_like_koikoi_without_calls():
    deal = explicit_deal(
        ["pine-crane maple-deer plum-warbler", "iris-bridge cherry-curtain clover-boar"],
        "pine-plain-1 pine-plain-2 maple-ribbon maple-plain-1 maple-plain-2 peony-plain-1 iris-plain-1 clover-plain-1",
        "wisteria-cuckoo",
    )
    r = HatoRound(deal)
    assert Move.play(Card.PINE_CRANE, Card.PINE_PLAIN_1) in r.legal_moves
    assert Move.play(Card.PINE_CRANE, Card.PINE_PLAIN_2) in r.legal_moves
    with pytest.raises(AmbiguousMoveError, match="choose which"):
        r.push(Move.play(Card.PINE_CRANE))
    r.push(Move.play(Card.MAPLE_DEER))  # the fourth maple takes all three
    assert r.captures(0) == CardSet.parse("maple-deer maple-ribbon maple-plain-1 maple-plain-2")
    r.push(Move.flip(Card.WISTERIA_CUCKOO))
    assert r.turn == 1 and r.phase is Phase.PLAY
    with pytest.raises(IllegalMoveError):
        r.push(Move.koikoi())


def test_patu_voids_a_deal_with_four_of_a_month_in_a_hand_or_on_the_table():
    in_hand = explicit_deal(
        ["pine-crane pine-ribbon pine-plain-1 pine-plain-2 plum-warbler plum-ribbon cherry-curtain",
         "maple-deer", "iris-bridge"], "peony-plain-1 iris-plain-1"
    )
    on_table = explicit_deal(["maple-deer", "iris-bridge", "peony-ribbon"], "pine-crane pine-ribbon pine-plain-1 pine-plain-2")
    for deal in (in_hand, on_table):
        for profile in (HATO, MIN):
            r = HatoRound(deal, profile)
            assert r.is_over and r.result is not None and r.result.reason == "patu"
            assert r.result.net == (0, 0, 0) and r.generate_legal_moves() == []
    three_only = explicit_deal(["pine-crane pine-ribbon pine-plain-1", "maple-deer", "iris-bridge"], "pine-plain-2")
    assert not HatoRound(three_only).is_over


def test_patu_can_be_switched_off(tmp_path):
    rules = tmp_path / "house.toml"
    rules.write_text('extends = "hato"\n[deal]\npatu = false\n')
    deal = explicit_deal(["maple-deer", "iris-bridge", "peony-ribbon"], "pine-crane pine-ribbon pine-plain-1 pine-plain-2")
    assert not HatoRound(deal, HatoProfile.load(rules)).is_over


def test_a_match_redeals_void_deals_and_the_winner_deals_and_leads():
    for seed in range(300):
        match = HatoMatch(players=2, seed=seed, dealer=0)
        state = match.new_round()
        if match.patus:
            break
    assert match.patus >= 1 and not state.is_over  # the void deal was shuffled again
    match = HatoMatch(players=3, seed=5, dealer=2)
    bots = [RandomBot(p) for p in range(3)]
    for _ in range(4):
        state = match.new_round()
        assert state.turn == state.dealer == match.dealer  # the dealer leads
        before = match.dealer
        result = play_round(state, bots)
        match.record(state)
        assert match.dealer == (before if result.winner is None else result.winner)
    assert sum(match.scores) == 0 and len(match.results) == 4


def test_profiles_refuse_bad_settings(tmp_path):
    with pytest.raises(ProfileError, match="is for 'gostop', not hato"):
        HatoProfile.load("gostop")
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "hato"\n[deal]\nplayers-5 = [6, 8]\n')
    with pytest.raises(ProfileError, match="players-5"):
        HatoProfile.load(bad)
    bad.write_text('extends = "hato"\n[bonus.sets.hongdan]\ncards = ["pine-ribon"]\n')
    with pytest.raises(ProfileError, match="bonus.sets.hongdan.cards: unknown card code 'pine-ribon'"):
        HatoProfile.load(bad)
    bad.write_text('extends = "hato"\n[bonus]\nfour-of-a-month-months = ["pine", "moon"]\n')
    with pytest.raises(ProfileError, match="unknown month 'moon'"):
        HatoProfile.load(bad)
    with pytest.raises(ProfileError, match="no deal for 1 players"):
        HATO.deal_sizes(1)
    data = load_profile_data("hato")
    del data["deal"]["players-5"]
    four_at_most = HatoProfile.from_data(data)
    five = explicit_deal(["pine-crane", "plum-warbler", "cherry-curtain", "iris-bridge", "maple-deer"], "")
    with pytest.raises(InvalidStateError, match="no deal for 5 players"):
        HatoRound(five, four_at_most)
