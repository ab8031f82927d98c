"""Yaku progress from the player's view: have/need, where the missing cards are, dead and made yaku."""

import pytest

from engine.cards import Card
from engine.cardset import CardSet
from engine.koikoi.profile import KoiKoiProfile
from engine.koikoi.progress import finishers, yaku_progress
from engine.koikoi.round import KoiKoiRound
from engine.moves import Move
from engine.names import LANGUAGES
from tests.engine.koikoi_helpers import make_deal

H1 = "pine-plain-1 cherry-plain-1 iris-plain-1 peony-plain-1 clover-plain-1 maple-plain-1 willow-swallow paulownia-plain-1"
H2 = "wisteria-ribbon iris-ribbon peony-ribbon clover-ribbon pampas-geese chrysanthemum-ribbon maple-ribbon cherry-ribbon"
FIELD = "pine-ribbon plum-ribbon cherry-plain-2 iris-plain-2 peony-plain-2 clover-plain-2 maple-plain-2 wisteria-plain-1"
STOCK = "plum-plain-2 wisteria-plain-2"


def position(h1: str, h2: str, field: str, stock: str, *moves: str) -> KoiKoiRound:
    state = KoiKoiRound(make_deal(h1, h2, field, stock))
    for move in moves:
        state.push(Move.parse(move))
    return state


def akatan_two(h1: str = H1, h2: str = H2, field: str = FIELD, *more: str) -> KoiKoiRound:
    """Player 1 has taken the pine and plum poem ribbons in their first turn."""
    return position(h1, h2, field, STOCK, "play pine-plain-1 take pine-ribbon", "flip plum-plain-2 take plum-ribbon", *more)


def line(state: KoiKoiRound, name: str, player: int = 0):
    found = [p for p in yaku_progress(state, player) if p.name == name]
    assert len(found) == 1, [p.name for p in yaku_progress(state, player)]
    return found[0]


def test_akatan_two_of_three_needs_the_unseen_cherry_ribbon():
    akatan = line(akatan_two(), "akatan")
    assert akatan.have == (Card.PINE_RIBBON, Card.PLUM_RIBBON) and akatan.need == 3
    assert akatan.missing == (Card.CHERRY_RIBBON,) and akatan.places == ("unseen",)
    assert not akatan.dead and not akatan.made and akatan.points == 0 and akatan.value == 5
    assert akatan.text("en") == "Akatan 2/3 — needs Cherry ribbon, still unseen"


def test_the_missing_card_is_placed_on_the_field_or_in_hand():
    on_field = FIELD.replace("wisteria-plain-1", "cherry-ribbon")
    h2 = H2.replace("cherry-ribbon", "wisteria-plain-1")
    assert line(akatan_two(H1, h2, on_field), "akatan").places == ("field",)
    in_hand = H1.replace("cherry-plain-1", "cherry-ribbon")
    h2 = H2.replace("cherry-ribbon", "cherry-plain-1")
    assert line(akatan_two(in_hand, h2), "akatan").places == ("hand",)


def test_a_card_taken_by_the_opponent_kills_the_yaku():
    state = akatan_two(H1, H2, FIELD, "play cherry-ribbon take cherry-plain-2", "flip wisteria-plain-2 take wisteria-plain-1")
    akatan = line(state, "akatan")
    assert akatan.dead and akatan.lost == (Card.CHERRY_RIBBON,) and akatan.missing == ()
    assert "dead" in akatan.text("en") and "Cherry ribbon" in akatan.text("en")
    assert line(state, "akatan", player=1).dead  # and for the opponent too (they lack two of it)
    # the dead line sorts after the live ones
    names = [p.name for p in yaku_progress(state, 0)]
    assert names.index("akatan") > names.index("tanzaku")


def test_progress_reads_only_the_view():
    """Whether the cherry ribbon is in the opponent's hand or the stock, player 1 sees the same."""
    in_stock = akatan_two(H1, H2.replace("cherry-ribbon", "willow-ribbon"))
    in_hand = akatan_two()
    assert yaku_progress(in_stock, 0) == yaku_progress(in_hand, 0)


SANKO_H1 = "pine-plain-1 pampas-plain-1 iris-plain-1 peony-plain-1 clover-plain-1 maple-plain-1 willow-swallow paulownia-plain-1"
SANKO_H2 = "wisteria-ribbon iris-ribbon peony-ribbon clover-ribbon pampas-geese chrysanthemum-ribbon maple-ribbon plum-warbler"
SANKO_FIELD = "pine-crane cherry-curtain pampas-moon iris-plain-2 peony-plain-2 clover-plain-2 maple-plain-2 paulownia-plain-2"
SANKO_STOCK = "cherry-plain-2 wisteria-plain-1 chrysanthemum-plain-1"
SANKO_MOVES = (
    "play pine-plain-1 take pine-crane", "flip cherry-plain-2 take cherry-curtain",
    "play plum-warbler", "flip wisteria-plain-1",
    "play pampas-plain-1 take pampas-moon", "flip chrysanthemum-plain-1",
)


def sanko_after(moves: int) -> KoiKoiRound:
    """Player 1 takes the crane, the curtain, then the moon (sanko after six moves)."""
    return position(SANKO_H1, SANKO_H2, SANKO_FIELD, SANKO_STOCK, *SANKO_MOVES[:moves])


def test_bright_yaku_show_only_the_next_step_and_made_yaku_come_first():
    state = sanko_after(1)
    names = [p.name for p in yaku_progress(state, 0)]
    assert "sanko" in names and "shiko" not in names and "goko" not in names
    sanko = line(state, "sanko")
    assert sanko.have == (Card.PINE_CRANE,) and sanko.need == 3 and len(sanko.missing) == 3
    assert sanko.text("en") == "Sanko 1/3 — 2 more, 3 still to be had"
    assert line(sanko_after(2), "sanko").text("en") == "Sanko 2/3 — 1 more, 2 still to be had"
    lines = yaku_progress(sanko_after(6), 0)
    assert lines[0].name == "sanko" and lines[0].made and lines[0].points == 5
    assert lines[0].text("en") == "Sanko 3/3 — made: 5 points"
    assert "shiko" in [p.name for p in lines] and "goko" not in [p.name for p in lines]


def test_count_yaku_and_finishers():
    state = akatan_two()
    tanzaku = line(state, "tanzaku")
    assert (len(tanzaku.have), tanzaku.need) == (2, 5) and len(tanzaku.missing) == 8
    assert tanzaku.text("en") == "Tanzaku 2/5 — 3 more, 8 still to be had"
    profile = state.profile
    # two poem ribbons: the third finishes akatan; four ribbons: any open ribbon finishes tanzaku
    assert CardSet(finishers(profile, state.captured[0], state.captured[1])) == CardSet.parse("cherry-ribbon")
    four = CardSet.parse("pine-ribbon plum-ribbon wisteria-ribbon iris-ribbon").mask
    near = CardSet(finishers(profile, four, CardSet.parse("clover-ribbon").mask))
    assert Card.CHERRY_RIBBON in near and Card.MAPLE_RIBBON in near and Card.CLOVER_RIBBON not in near


def test_viewing_yaku_follow_the_profile():
    assert "tsukimi" in [p.name for p in yaku_progress(akatan_two(), 0)]  # open, with nothing of it yet
    from engine.profile import load_profile_data

    data = load_profile_data("default")
    data["rules"] = {**data["rules"], "viewing": "off"}
    off = KoiKoiProfile.from_data(data)
    state = KoiKoiRound(make_deal(H1, H2, FIELD, STOCK), off)
    state.push(Move.parse("play pine-plain-1 take pine-ribbon"))
    assert all(p.name not in ("tsukimi", "hanami") for p in yaku_progress(state, 0))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_progress_lines_render_in_every_language(lang):
    dead = akatan_two(H1, H2, FIELD, "play cherry-ribbon take cherry-plain-2", "flip wisteria-plain-2 take wisteria-plain-1")
    for state in (akatan_two(), dead):
        for progress in yaku_progress(state, 0):
            text = progress.text(lang)
            assert text and "{" not in text
    assert Card.CHERRY_RIBBON.name_in(lang) in line(akatan_two(), "akatan").text(lang)
