"""Pure functions from the session's models to Rich text: what each panel shows, testable without a terminal."""

from __future__ import annotations

from rich.text import Text

from companion.i18n import t
from companion.session import TableModel
from engine.capture import Phase
from engine.cards import Card, Kind
from engine.moves import Move, MoveKind
from engine.names import KIND_NAMES, PLANTS

KIND_STYLE = {Kind.BRIGHT: "bold yellow", Kind.ANIMAL: "green", Kind.RIBBON: "red", Kind.PLAIN: "dim"}
BLUE_RIBBON_STYLE = "bold blue"


def card_label(card: Card, lang: str) -> str:
    """Codes in English (they are what players type); the card's own name elsewhere."""
    return card.code if lang == "en" else card.name_in(lang)


def card_text(card: Card, lang: str) -> Text:
    style = KIND_STYLE[card.kind]
    if card.ribbon is not None and card.ribbon.name == "BLUE":
        style = BLUE_RIBBON_STYLE
    return Text(card_label(card, lang), style=style)


def cards_text(cards: tuple[Card, ...] | list[Card], lang: str, sep: str = "  ") -> Text:
    out = Text()
    for i, card in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(card, lang))
    return out


def move_text(move: Move, lang: str) -> Text:
    if move.card is None:
        return Text("koi-koi" if move.kind == MoveKind.KOIKOI else "stop", style="bold magenta")
    out = Text("play " if move.kind == MoveKind.PLAY else "flip ", style="bold")
    out.append_text(card_text(move.card, lang))
    if move.take is not None:
        out.append(" → ")
        out.append_text(card_text(move.take, lang))
    return out


def field_text(model: TableModel, lang: str) -> Text:
    out = Text()
    for month, cards in model.field_by_month:
        out.append(f"{month.value:>2} {PLANTS[lang][month]:<14} ", style="cyan")
        out.append_text(cards_text(cards, lang))
        out.append("\n")
    if not model.field_by_month:
        out.append("—\n", style="dim")
    out.append(f"{t('stock', lang)}: {model.stock_left}", style="bold")
    return out


def captures_text(model: TableModel, player: int, lang: str) -> Text:
    out = Text()
    piles = model.captures[player]
    for kind in Kind:
        cards = piles[kind]
        out.append(f"{KIND_NAMES[lang][kind]} {len(cards)}: ", style=KIND_STYLE[kind])
        out.append_text(cards_text(cards, lang, sep=" "))
        out.append("\n")
    yaku = model.yaku[player]
    if yaku:
        out.append(", ".join(f"{y.name} {y.points}" for y in yaku), style="bold magenta")
    if model.koikoi[player]:
        out.append("  " + t("koikoi_called", lang, n=model.koikoi[player]), style="bold red")
    return out


def hand_text(model: TableModel, lang: str) -> Text:
    out = cards_text(model.hand, lang)
    out.append("\n")
    out.append(t("opponent_hand", lang, n=model.opponent_hand), style="dim")
    return out


def status_line(model: TableModel, lang: str) -> str:
    """Round, score and who is to do what."""
    phase_key = {Phase.PLAY: "phase_play", Phase.FLIP: "phase_flip", Phase.DECIDE: "phase_decide",
                 Phase.OVER: "phase_over"}[model.phase]
    who = t("you", lang) if model.turn == model.you else t("opponent", lang)
    me, them = model.scores[model.you], model.scores[1 - model.you]
    parts = [
        t("round", lang, n=max(model.round_number, 1), total=model.rounds),
        f"{t('you', lang)} {me} : {them} {t('opponent', lang)}",
        t("to_move", lang, who=who, what=t(phase_key, lang)),
    ]
    if model.result_line is not None:
        winner, points = model.result_line
        if winner is None:
            parts.append(t("round_drawn", lang))
        else:
            name = t("you", lang) if winner == model.you else t("opponent", lang)
            parts.append(t("round_won", lang, who=name, points=points))
        parts.append(t("match_over", lang, a=me, b=them) if model.match_over else t("next_round", lang))
    return "  ·  ".join(parts)


def scoreboard_text(model: TableModel, lang: str) -> Text:
    out = Text()
    for p in (model.you, 1 - model.you):
        name = t("you", lang) if p == model.you else t("opponent", lang)
        dealer = f" ({t('dealer', lang)})" if p == model.dealer else ""
        out.append(f"{name}{dealer}: ", style="bold")
        out.append(f"{model.scores[p]}\n")
    out.append(t("round", lang, n=max(model.round_number, 1), total=model.rounds), style="dim")
    return out


def history_text(model: TableModel, lang: str, last: int = 6) -> Text:
    out = Text()
    for p, move in model.history[-last:]:
        who = t("you", lang) if p == model.you else t("opponent", lang)
        out.append(f"{who}: ", style="bold" if p == model.you else "")
        out.append_text(move_text(move, lang))
        out.append("\n")
    return out
