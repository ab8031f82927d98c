"""Teaching mode for the hwatu table: the teacher's advice (see the rule-book notes) applied to the position.

Each note looks at what the user can see (their view: own hand, the field, everyone's captures) and speaks
only when it applies: which capture comes first, guarding the sets others are one card short of, keeping
the fourth card of a month, pi and bright safety against pi-bak and gwang-bak, a safe card to lay, and
whether to go or stop. Notes come most pressing first; the screen shows the first three.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from companion.i18n import t
from companion.tables.hwatu_render import card_list, element_name, short, who
from engine.capture import CaptureRound, Phase
from engine.cards import Card, Kind
from engine.cardset import MONTH_MASK_BY_CARD, MONTH_MASKS, cards_of
from engine.hwatu.cards import GWANG
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.hato_round import HatoRound
from engine.hwatu.hint_reasons import goals
from engine.names import PLANTS

AnyRound = HatoRound | GoStopRound
Note = Callable[[AnyRound, int, str], str | None]
_SETS: Final = ("gwang", "ogwang", "godori", "hongdan", "cheongdan", "chodan")  # sets one card can complete or spoil
NEAR: Final = 2  # an opponent this many points from the go/stop threshold is a danger
LATE: Final = 2  # with fewer than this many turns each left, a go has no time to pay
PI_WATCH: Final = 3  # an opponent this many pi short of scoring pi makes pi-bak a danger


def advice(state: AnyRound, you: int, lang: str) -> list[str]:
    """The notes that apply to ``you`` now, most pressing first (none when it is not your turn)."""
    if state.is_over or state.turn != you:
        return []
    view = state.view(you)
    assert isinstance(view, HatoRound | GoStopRound)
    notes: tuple[Note, ...] = (_go_or_stop, _guard, _first, _fourth, _pi_bak, _gwang_bak, _lay)
    return [text for note in notes if (text := note(view, you, lang)) is not None]


def _unseen(view: CaptureRound, month_mask: int) -> int:
    return (view.unknown().mask & month_mask).bit_count()


def _playing(view: CaptureRound) -> bool:
    return view.phase is Phase.PLAY


def _value(view: AnyRound, card: Card) -> float:
    """How much a card is worth to whoever takes it: Hato card points, or Go-Stop's kind order."""
    if isinstance(view, HatoRound):
        return float(view.profile.card_points[card])
    doubles = view.profile.double_pi | view.profile.triple_pi
    return {Kind.BRIGHT: 4.0, Kind.ANIMAL: 2.0, Kind.RIBBON: 2.0}.get(card.kind, 1.5 if doubles >> card & 1 else 0.0)


def _go_or_stop(view: AnyRound, you: int, lang: str) -> str | None:
    """Go only when nobody threatens to win first: a go that someone else beats pays for every loser."""
    if not isinstance(view, GoStopRound) or view.phase is not Phase.DECIDE or len(view.generate_legal_moves()) < 2:
        return None
    threshold = view.profile.threshold
    rival = max((q for q in range(view.players) if q != you), key=lambda q: view.score(q))
    points = view.score(rival)
    if points >= threshold - NEAR:
        return t("hwatu_a_stop", lang, who=who(rival, you, lang), n=points, need=max(0, threshold - points))
    if view.stock_left <= LATE * view.players:
        return t("hwatu_a_stop_late", lang, stock=view.stock_left)
    return t("hwatu_a_go", lang, who=who(rival, you, lang), n=points, stock=view.stock_left)


def _guard(view: AnyRound, you: int, lang: str) -> str | None:
    """Another player is one card short of a set and that card lies on the field where you can take it."""
    if not _playing(view):
        return None
    hand = view.hands[you]
    for q in range(view.players):
        if q == you:
            continue
        for goal in goals(view):
            if goal.name not in _SETS and not goal.name.endswith("-yak"):
                continue
            need = goal.cards & ~view.captured[q]
            if isinstance(view, GoStopRound) and goal.name == "gwang":
                if (view.captured[q] & GWANG).bit_count() != 2:
                    continue
                need = GWANG & view.field
            elif need.bit_count() != 1 or not _alive_for(view, q, goal.cards):
                continue
            for card in cards_of(need & view.field):
                if hand & MONTH_MASK_BY_CARD[card]:
                    element = element_name(goal.name, lang)
                    return t("hwatu_a_guard", lang, who=who(q, you, lang), card=short(card, lang), element=element)
    return None


def _alive_for(view: CaptureRound, player: int, cards: int) -> bool:
    """Nobody but ``player`` holds a card of the set (else it is spoiled already)."""
    return not any(view.captured[q] & cards for q in range(view.players) if q != player)


def _first(view: AnyRound, you: int, lang: str) -> str | None:
    """Of two captures, take first the one others could take; a month nobody else can reach will wait."""
    if not _playing(view):
        return None
    hand, field = view.hands[you], view.field
    urgent: list[tuple[float, Card]] = []
    safe: list[Card] = []
    for month in MONTH_MASKS.values():
        on_field = field & month
        if not on_field or not hand & month:
            continue
        best = max(cards_of(on_field), key=lambda c: _value(view, c))
        if _unseen(view, month):
            urgent.append((_value(view, best), best))
        else:
            safe.append(best)
    urgent = [u for u in urgent if u[0] > 0]
    if not urgent or not safe:
        return None
    card = max(urgent)[1]
    return t("hwatu_a_first", lang, card=short(card, lang), n=_unseen(view, MONTH_MASK_BY_CARD[card]),
             month=PLANTS[lang][safe[0].month])


def _fourth(view: AnyRound, you: int, lang: str) -> str | None:
    """Three of a month on the field and the fourth in your hand: nobody else can take them."""
    if not _playing(view):
        return None
    for month, cards in MONTH_MASKS.items():
        if (view.field & cards).bit_count() == 3 and view.hands[you] & cards:
            return t("hwatu_a_fourth", lang, month=PLANTS[lang][month])
    return None


def _pi_bak(view: AnyRound, you: int, lang: str) -> str | None:
    """Few pi while an opponent nears scoring pi: losing would cost double (pi-bak)."""
    if not isinstance(view, GoStopRound) or view.profile.factors["pi-bak"] <= 1:
        return None
    profile = view.profile
    as_pi = profile.sake_cup != "animal"
    mine = profile.pi_value(view.captured[you], as_pi)
    if mine >= profile.pi_bak_below:
        return None
    need = profile.score["pi-cards"]
    rival = max((q for q in range(view.players) if q != you), key=lambda q: profile.pi_value(view.captured[q], True))
    theirs = profile.pi_value(view.captured[rival], True)
    if theirs < need - PI_WATCH:
        return None
    return t("hwatu_a_pi_bak", lang, n=mine, below=profile.pi_bak_below, who=who(rival, you, lang), m=theirs)


def _gwang_bak(view: AnyRound, you: int, lang: str) -> str | None:
    """No bright while an opponent holds two: their gwang win would cost double (gwang-bak)."""
    if not isinstance(view, GoStopRound) or view.profile.factors["gwang-bak"] <= 1 or view.captured[you] & GWANG:
        return None
    rival = max((q for q in range(view.players) if q != you), key=lambda q: (view.captured[q] & GWANG).bit_count())
    brights = (view.captured[rival] & GWANG).bit_count()
    if brights < 2:
        return None
    return t("hwatu_a_gwang_bak", lang, who=who(rival, you, lang), n=brights)


def _lay(view: AnyRound, you: int, lang: str) -> str | None:
    """Nothing to capture: lay a card nobody can take (its month is all seen), else the cheapest."""
    if not _playing(view) or view.field & _months(view.hands[you]):
        return None
    hand = cards_of(view.hands[you])
    if not hand:
        return None
    safe = [c for c in hand if not _unseen(view, MONTH_MASK_BY_CARD[c])]
    if safe:
        return t("hwatu_a_lay_safe", lang, cards=card_list(safe, lang))
    cheapest = min(hand, key=lambda c: (_value(view, c), _unseen(view, MONTH_MASK_BY_CARD[c])))
    return t("hwatu_a_lay_cheap", lang, card=short(cheapest, lang))


def _months(mask: int) -> int:
    """Every card of every month that ``mask`` holds a card of."""
    out = 0
    for card in cards_of(mask):
        out |= MONTH_MASK_BY_CARD[card]
    return out

