"""Hwatu positions as text for the table screen: cards by Korean month number, captures by kind, scores,
history, move labels and hint reasons. Pure functions of an engine round; no widgets."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from rich.text import Text

from companion.i18n import t
from companion.tables.hwatu_texts import TEXTS  # importing it registers the texts
from engine.capture import CaptureRound
from engine.cards import Card, Kind, Month
from engine.cardset import MONTH_MASK_BY_CARD, MONTH_MASKS, cards_of
from engine.hwatu.gostop_round import GoStopRound
from engine.hwatu.hato_round import HatoRound
from engine.hwatu.hint_reasons import HintReason
from engine.hwatu.names import HWATU_LANGS, term
from engine.moves import Move, MoveKind
from engine.names import KIND_NAMES, PLANTS, SUBJECTS

KIND_STYLE: Final = {Kind.BRIGHT: "bold yellow", Kind.ANIMAL: "green", Kind.RIBBON: "red", Kind.PLAIN: ""}
MONTHS_KOREAN: Final = sorted(Month, key=lambda m: m.korean)


def who(seat: int, you: int, lang: str) -> str:
    return t("you", lang) if seat == you else t("hwatu_player", lang, n=seat + 1)


def element_name(name: str, lang: str, cards: int = 0) -> str:
    """A Go-Stop element or Hato bonus, in Korean or English (the hwatu terms exist in those two)."""
    return term(name, lang if lang in HWATU_LANGS else "en", cards)


def subject(card: Card, lang: str) -> str:
    if card is Card.PAULOWNIA_PLAIN_3:
        return t("hwatu_double_pi", lang)
    words = SUBJECTS[lang]
    return words["plain"] if card.subject.startswith("plain") else words[card.subject]


def short(card: Card, lang: str) -> str:
    """``3 curtain``, ``12 rain man``, ``11 double plain``: the Korean month number and what the card shows."""
    return f"{card.month.korean} {subject(card, lang)}"


def card_list(cards: Iterable[Card], lang: str) -> str:
    return ", ".join(short(c, lang) for c in sorted(cards, key=lambda c: (c.month.korean, c)))


def by_month(mask: int, lang: str, mark: int = 0) -> Text:
    """Cards grouped by Korean month: ``1 Pine: crane, plain   3 Cherry: ribbon``; ``mark`` cards underlined."""
    out = Text()
    for month in MONTHS_KOREAN:
        cards = cards_of(mask & MONTH_MASKS[month])
        if not cards:
            continue
        if out:
            out.append("   ")
        out.append(f"{month.korean} ", style="bold")
        out.append(f"{PLANTS[lang][month]}: ")
        for i, card in enumerate(cards):
            if i:
                out.append(", ")
            style = KIND_STYLE[card.kind] + (" underline" if mark >> card & 1 else "")
            out.append(subject(card, lang), style=style.strip())
    return out or Text("—", style="dim")


def captures_line(state: CaptureRound, player: int, lang: str) -> Text:
    """A pile by kind: brights, animals and ribbons by month number (one of each kind per month), pi counted."""
    pile = state.captured[player]
    out = Text()
    for kind in (Kind.BRIGHT, Kind.ANIMAL, Kind.RIBBON):
        cards = [c for c in cards_of(pile) if c.kind is kind]
        if out:
            out.append(" · ")
        out.append(f"{KIND_NAMES[lang][kind]} {len(cards)}", style=KIND_STYLE[kind])
        if cards:
            out.append(": " + " ".join(str(c.month.korean) for c in sorted(cards, key=lambda c: c.month.korean)))
    plains = [c for c in cards_of(pile) if c.kind is Kind.PLAIN]
    count = state.profile.pi_value(pile) if isinstance(state, GoStopRound) else len(plains)
    out.append(f" · {KIND_NAMES[lang][Kind.PLAIN]} {count}")
    return out


def score_line(state: CaptureRound, player: int, you: int, lang: str) -> Text:
    """What a player's pile scores now: Go-Stop elements and go calls, or Hato card points and bonuses."""
    out = Text(f"{who(player, you, lang)}: ", style="bold" if player == you else "")
    if isinstance(state, GoStopRound):
        out.append(t("hwatu_pts", lang, n=state.score(player)), style="bold cyan")
        found = state.elements(player)
        if found:
            out.append(" (" + ", ".join(f"{element_name(y.name, lang, y.cards)} {y.points}" for y in found) + ")")
        if state.gos(player):
            out.append(f" {t('hwatu_go_count', lang, n=state.gos(player))}", style="magenta")
    elif isinstance(state, HatoRound):
        standing = state.standing()
        out.append(t("hwatu_pts", lang, n=standing.points[player]), style="bold cyan")
        out.append(f" ({t('hwatu_card_points', lang, n=standing.card_points[player])}")
        for bonus in standing.bonuses[player]:
            out.append(f", {element_name(bonus.name, lang)} +{bonus.points}")
        out.append(")")
    return out


def move_label(state: CaptureRound, move: Move, lang: str) -> str:
    """A legal move in words: ``play 1 crane → takes 1 plain``, ``bomb: three of Pine onto 1 plain``."""
    kind, card, take = move
    if kind is MoveKind.KOIKOI:
        return t("hwatu_m_go", lang)
    if kind is MoveKind.STOP:
        return t("hwatu_m_stop", lang)
    assert card is not None
    if kind is MoveKind.BOMB:
        assert take is not None
        return t("hwatu_m_bomb", lang, month=PLANTS[lang][card.month], take=short(take, lang))
    if kind is MoveKind.SHAKE:
        return t("hwatu_m_shake", lang, card=short(card, lang))
    if kind is MoveKind.FLIP and state.phase.name == "PLAY":
        return t("hwatu_m_blank", lang, card=short(card, lang))
    text = t("hwatu_m_play" if kind is MoveKind.PLAY else "hwatu_m_flip", lang, card=short(card, lang))
    matches = state.field & MONTH_MASK_BY_CARD[card] & ~(1 << card)
    if take is not None:
        return t("hwatu_m_takes", lang, move=text, take=short(take, lang))
    if matches.bit_count() == 3:
        return t("hwatu_m_takes", lang, move=text, take=t("hwatu_m_all", lang))
    return text


def reason_text(reason: HintReason, lang: str, you: int) -> str:
    """A hint reason in words (the go reason's numbers are filled in later, in the hint process)."""
    key, numbers = reason.key, reason.numbers
    n = numbers[0] if numbers else 0.0
    cards = card_list(reason.cards, lang)
    month = PLANTS[lang][reason.cards[0].month] if reason.cards else ""
    element = element_name(reason.element, lang) if reason.element else ""
    if key == "go":
        return go_template(lang)
    if key in ("stop", "stop-last"):
        return t("hwatu_r_stop" if key == "stop" else "hwatu_r_stop_last", lang, stop=n)
    if key in ("bomb", "shake"):
        return t(f"hwatu_r_{key}", lang, month=month, cards=cards, n=float(numbers[0]))
    if key == "blank":
        return t("hwatu_r_blank", lang)
    if key == "scores":
        return t("hwatu_r_scores", lang, cards=cards, element=element, n=n, total=numbers[1])
    if key in ("threshold", "completes"):
        return t(f"hwatu_r_{key}", lang, cards=cards, element=element, n=n)
    if key == "toward":
        return t("hwatu_r_toward", lang, cards=cards, element=element, n=n, need=numbers[1])
    if key == "denies":
        return t("hwatu_r_denies", lang, cards=cards, element=element, who=who(int(n), you, lang))
    if key == "takes-all":
        return t("hwatu_r_takes_all_safe" if n else "hwatu_r_takes_all", lang, month=month)
    if key == "takes":
        return t("hwatu_r_takes_pts", lang, cards=cards, n=n) if n else t("hwatu_r_takes", lang, cards=cards)
    if key == "lays":
        return t("hwatu_r_lays", lang, cards=cards, n=n) if n else t("hwatu_r_lays_safe", lang, cards=cards)
    return ""


def go_template(lang: str) -> str:
    """The go reason with its numbers left as format fields (``{go}``, ``{stop}``, ``{p}``)."""
    table = TEXTS["hwatu_r_go"]
    return table.get(lang, table["en"])
