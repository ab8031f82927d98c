"""Teaching: move reasons, the strategy advice on positions built for each piece, yaku explanations."""

import string

import pytest

from engine.cards import Card
from engine.koikoi.advice import Reason, move_reason, points_text, strategy_advice, yaku_explanation, yaku_name
from engine.koikoi.hints import MatchContext
from engine.koikoi.profile import YAKU_NAMES, KoiKoiProfile
from engine.koikoi.round import KoiKoiRound
from engine.koikoi.texts import MESSAGES, YAKU_ABOUT, YAKU_TITLES
from engine.moves import Move
from engine.names import LANGUAGES
from tests.engine.koikoi_helpers import make_deal
from tests.engine.test_koikoi_hints import inoshikacho_decision, sanko_chance
from tests.engine.test_koikoi_progress import FIELD, H1, H2, akatan_two, position

EARLY = MatchContext(round_number=1, rounds=12, scores=(0, 0))

# A fresh deal for player 1 with: three maples on the field and the fourth in hand; the moon on the field
# and one pampas in hand; the crane on the field and two pines in hand; the sake cup on the field and a
# chrysanthemum in hand.
FRESH_H1 = "maple-plain-2 pampas-plain-1 pine-plain-1 pine-plain-2 chrysanthemum-plain-1 iris-plain-1 peony-plain-1 willow-ribbon"
FRESH_H2 = "plum-ribbon wisteria-ribbon iris-ribbon peony-ribbon clover-ribbon chrysanthemum-ribbon willow-swallow cherry-plain-1"
FRESH_FIELD = "maple-deer maple-ribbon maple-plain-1 pampas-moon pine-crane chrysanthemum-sake clover-plain-1 paulownia-plain-1"


def fresh() -> KoiKoiRound:
    return KoiKoiRound(make_deal(FRESH_H1, FRESH_H2, FRESH_FIELD))


def keys(state: KoiKoiRound, player: int = 0, context: MatchContext = EARLY) -> dict[str, Reason]:
    return {reason.key: reason for reason in strategy_advice(state, player, context)}


def test_keep_the_last_card_of_a_month_whose_three_lie_on_the_field():
    assert keys(fresh())["advice.keep_last"].cards == (Card.MAPLE_PLAIN_2,)


def test_brights_first_but_no_hurry_for_a_bright_whose_month_you_hold_twice():
    advice = keys(fresh())
    assert advice["advice.priority"].cards == (Card.PAMPAS_MOON,)
    assert advice["advice.wait_bright"].cards == (Card.PINE_CRANE,)


def test_control_the_sake_cup_and_keep_it_from_an_opponent_with_the_moon():
    assert keys(fresh())["advice.sake"].cards == (Card.CHRYSANTHEMUM_SAKE,)
    # the seats swapped: player 2 holds the pampas and takes the moon
    state = position(
        FRESH_H2, FRESH_H1, FRESH_FIELD, "wisteria-plain-1 cherry-plain-2",
        "play plum-ribbon", "flip wisteria-plain-1", "play pampas-plain-1 take pampas-moon", "flip cherry-plain-2",
    )
    assert keys(state)["advice.sake_deny"].cards == (Card.PAMPAS_MOON,)
    off = KoiKoiProfile.from_data(_profile_data(rules={"viewing": "off"}))
    assert "advice.sake" not in keys(KoiKoiRound(make_deal(FRESH_H1, FRESH_H2, FRESH_FIELD), off))


def test_deny_a_capture_that_builds_two_expensive_yaku():
    """The opponent holds a bright and a poem ribbon; the pine ribbon lies on the field and the crane is
    unseen: one pine capture would advance both their sanko and akatan."""
    h1 = "pine-plain-1 iris-plain-1 peony-plain-1 clover-plain-1 maple-plain-1 willow-swallow paulownia-plain-1 wisteria-plain-2"
    h2 = "cherry-plain-1 wisteria-ribbon iris-ribbon peony-ribbon clover-ribbon pampas-geese maple-ribbon pine-crane"
    field = "pine-ribbon cherry-curtain plum-ribbon iris-plain-2 peony-plain-2 clover-plain-2 maple-plain-2 pampas-plain-1"
    state = position(
        h1, h2, field, "willow-lightning plum-plain-1 chrysanthemum-plain-1",
        "play wisteria-plain-2", "flip willow-lightning",
        "play cherry-plain-1 take cherry-curtain", "flip plum-plain-1 take plum-ribbon",
    )
    deny = keys(state)["advice.deny_double"]
    assert deny.cards == (Card.PINE_RIBBON,) and set(deny.yaku) == {"sanko", "akatan"}


def test_balance_a_main_yaku_and_a_fallback():
    assert keys(akatan_two())["advice.balance_one"].yaku == ("akatan", "tanzaku")
    h1 = "pine-crane iris-plain-1 peony-plain-1 clover-plain-1 maple-plain-1 willow-swallow paulownia-plain-1 wisteria-plain-2"
    h2 = "cherry-plain-1 wisteria-ribbon iris-ribbon clover-ribbon pampas-geese maple-ribbon plum-warbler chrysanthemum-ribbon"
    field = "pine-ribbon peony-ribbon cherry-curtain iris-plain-2 plum-plain-1 clover-plain-2 maple-plain-2 pampas-plain-1"
    many = position(h1, h2, field, "peony-butterflies", "play pine-crane take pine-ribbon", "flip peony-butterflies take peony-ribbon")
    assert set(keys(many)["advice.balance_many"].yaku) == {"sanko", "inoshikacho", "akatan", "aotan"}


def test_dont_chase_kasu_alone():
    h1 = "paulownia-phoenix iris-plain-1 peony-plain-1 clover-plain-1 maple-plain-1 willow-swallow pine-plain-1 wisteria-plain-2"
    field = "paulownia-plain-1 paulownia-plain-2 paulownia-plain-3 iris-plain-2 plum-plain-1 clover-plain-2 maple-plain-2 pampas-plain-1"
    h2 = "cherry-plain-1 wisteria-ribbon iris-ribbon clover-ribbon pampas-geese maple-ribbon plum-warbler chrysanthemum-ribbon"
    state = position(h1, h2, field, "pampas-plain-2", "play paulownia-phoenix", "flip pampas-plain-2 take pampas-plain-1")
    assert "advice.kasu" in keys(state)
    assert "advice.kasu" not in keys(akatan_two())


def test_koikoi_advice_follows_the_match():
    state = inoshikacho_decision()
    early = keys(state, 0, EARLY)
    assert early["advice.dont_stop_cheap"].numbers == (5,)
    late = keys(state, 0, MatchContext(12, 12, (30, 10)))
    assert "advice.dont_stop_cheap" not in late and late["advice.no_koikoi_late"].numbers == (25, 0)
    assert "win by 1 is as good as a win by 60" in late["advice.no_koikoi_late"].text("en")


def test_move_reasons_say_what_a_move_takes_completes_denies_and_exposes():
    moon = move_reason(sanko_chance(), 0, Move.play(Card.PAMPAS_PLAIN_1, Card.PAMPAS_MOON))
    assert moon.text("en") == "takes Pampas moon; completes Sanko (5 points)"
    state = akatan_two()  # player 1 holds two poem ribbons; player 2 holds the cherry ribbon
    deny = move_reason(state, 1, Move.play(Card.CHERRY_RIBBON, Card.CHERRY_PLAIN_2))
    assert "keeps Cherry ribbon from the opponent's Akatan" in deny.text("en")
    exposed = akatan_two(H1, H2, FIELD.replace("cherry-plain-2", "willow-lightning"))
    lay = move_reason(exposed, 1, Move.play(Card.CHERRY_RIBBON))
    assert lay.text("en") == "lays Cherry ribbon on the field; leaves Cherry ribbon on the field for the opponent's Akatan"
    geese = move_reason(state, 1, Move.play(Card.PAMPAS_GEESE))
    assert geese.text("en") == "lays Pampas geese on the field; gives the opponent a chance at Pampas geese"
    decision = inoshikacho_decision()
    assert move_reason(decision, 0, Move.stop()).text("en") == "stop and score 5 points"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_reasons_and_advice_render_in_every_language(lang):
    moon = move_reason(sanko_chance(), 0, Move.play(Card.PAMPAS_PLAIN_1, Card.PAMPAS_MOON)).text(lang)
    assert Card.PAMPAS_MOON.name_in(lang) in moon and yaku_name("sanko", lang) in moon
    for state, player, context in ((fresh(), 0, EARLY), (akatan_two(), 0, EARLY), (inoshikacho_decision(), 0, EARLY)):
        for reason in strategy_advice(state, player, context):
            text = reason.text(lang)
            assert text and "{" not in text and "}" not in text
    assert yaku_name("akatan", "ja") == "赤短" and yaku_name("akatan", "ko") == "홍단"


def test_every_language_has_every_message_with_the_same_fields():
    def fields(template: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    for table in (MESSAGES, YAKU_ABOUT):
        for lang in LANGUAGES:
            assert table[lang].keys() == table["en"].keys(), lang
            for key, template in table["en"].items():
                assert fields(table[lang][key]) == fields(template), (lang, key)
    for lang in LANGUAGES:
        assert set(YAKU_TITLES[lang]) == set(YAKU_NAMES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_yaku_explanations(lang):
    default = KoiKoiProfile.load("default")
    for name in YAKU_NAMES:
        text = yaku_explanation(name, lang, default)
        assert text.startswith(yaku_name(name, lang)) and "{" not in text
    akatan = yaku_explanation("akatan", lang, default)
    assert Card.CHERRY_RIBBON.name_in(lang) in akatan and "5" in akatan
    assert Card.WILLOW_RAINMAN.name_in(lang) in yaku_explanation("ameshiko", lang, default)
    japan = KoiKoiProfile.load("koikoi-japan")
    assert yaku_explanation("teshi", lang, japan) == f"{yaku_name('teshi', lang)} — {YAKU_ABOUT[lang]['off']}"
    assert YAKU_ABOUT[lang]["note.viewing-koikoi"].format(p0=points_text(3, lang)) in yaku_explanation("tsukimi", lang, japan)


def test_points_take_the_plural_of_each_language():
    assert [points_text(n, "en") for n in (1, 5)] == ["1 point", "5 points"]
    assert [points_text(n, "ru") for n in (1, 3, 5, 11, 21, 22)] == [
        "1 очко", "3 очка", "5 очков", "11 очков", "21 очко", "22 очка"
    ]
    assert [points_text(n, "uk") for n in (1, 2, 12)] == ["1 очко", "2 очки", "12 очок"]
    assert (points_text(5, "ja"), points_text(5, "ko")) == ("5点", "5점")
    assert yaku_explanation("tane", "en").endswith("1 point, and 1 more for each further animal.")


def _profile_data(**tables: dict) -> dict:
    from engine.profile import load_profile_data

    data = load_profile_data("default")
    for table, values in tables.items():
        data[table] = {**data[table], **values}
    return data
