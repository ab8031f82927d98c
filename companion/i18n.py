"""The app's own words in the five languages kibitz speaks. Card and yaku names live in the engine."""

from __future__ import annotations

from typing import Final

LANGS: Final = ("en", "ru", "uk", "ja", "ko")

_TEXT: Final[dict[str, dict[str, str]]] = {
    "field": {"en": "Field", "ru": "Поле", "uk": "Поле", "ja": "場札", "ko": "바닥패"},
    "stock": {"en": "Stock", "ru": "Колода", "uk": "Колода", "ja": "山札", "ko": "더미"},
    "your_hand": {"en": "Your hand", "ru": "Ваша рука", "uk": "Ваша рука", "ja": "手札", "ko": "내 패"},
    "your_captures": {"en": "Your captures", "ru": "Ваши взятки", "uk": "Ваші взятки", "ja": "自分の取り札",
                      "ko": "내가 먹은 패"},
    "their_captures": {"en": "Opponent's captures", "ru": "Взятки соперника", "uk": "Взятки суперника",
                       "ja": "相手の取り札", "ko": "상대가 먹은 패"},
    "opponent_hand": {"en": "Opponent holds {n} cards", "ru": "У соперника {n} карт", "uk": "У суперника {n} карт",
                      "ja": "相手の手札 {n} 枚", "ko": "상대 패 {n}장"},
    "legal_moves": {"en": "Legal moves", "ru": "Возможные ходы", "uk": "Можливі ходи", "ja": "合法手",
                    "ko": "둘 수 있는 수"},
    "hints": {"en": "Hints", "ru": "Подсказки", "uk": "Підказки", "ja": "ヒント", "ko": "힌트"},
    "hints_off": {"en": "Hints are off (press h)", "ru": "Подсказки выключены (h)", "uk": "Підказки вимкнено (h)",
                  "ja": "ヒントはオフ (h)", "ko": "힌트 꺼짐 (h)"},
    "thinking": {"en": "thinking…", "ru": "думаю…", "uk": "думаю…", "ja": "考え中…", "ko": "생각 중…"},
    "not_your_turn": {"en": "Opponent to move", "ru": "Ход соперника", "uk": "Хід суперника", "ja": "相手の番",
                      "ko": "상대 차례"},
    "yaku": {"en": "Yaku", "ru": "Комбинации", "uk": "Комбінації", "ja": "役", "ko": "족보"},
    "scoreboard": {"en": "Match", "ru": "Матч", "uk": "Матч", "ja": "対戦", "ko": "경기"},
    "round": {"en": "Round {n} of {total}", "ru": "Раунд {n} из {total}", "uk": "Раунд {n} з {total}",
              "ja": "第{n}局 / {total}", "ko": "{n}/{total} 판"},
    "you": {"en": "You", "ru": "Вы", "uk": "Ви", "ja": "あなた", "ko": "나"},
    "opponent": {"en": "Opponent", "ru": "Соперник", "uk": "Суперник", "ja": "相手", "ko": "상대"},
    "dealer": {"en": "dealer", "ru": "сдаёт", "uk": "роздає", "ja": "親", "ko": "선"},
    "to_move": {"en": "{who} to {what}", "ru": "{who}: {what}", "uk": "{who}: {what}", "ja": "{who}: {what}",
                "ko": "{who}: {what}"},
    "phase_play": {"en": "play a card", "ru": "сыграть карту", "uk": "зіграти карту", "ja": "手札を出す",
                   "ko": "패를 낸다"},
    "phase_flip": {"en": "flip the stock", "ru": "открыть карту колоды", "uk": "відкрити карту колоди",
                   "ja": "山札をめくる", "ko": "더미를 뒤집는다"},
    "phase_decide": {"en": "call koi-koi or stop", "ru": "кой-кой или стоп", "uk": "кой-кой чи стоп",
                     "ja": "こいこい か 勝負", "ko": "고 또는 스톱"},
    "phase_over": {"en": "round over", "ru": "раунд окончен", "uk": "раунд закінчено", "ja": "終局",
                   "ko": "판 끝"},
    "camera": {"en": "Camera", "ru": "Камера", "uk": "Камера", "ja": "カメラ", "ko": "카메라"},
    "camera_none": {"en": "no camera: manual entry", "ru": "без камеры: ручной ввод",
                    "uk": "без камери: ручне введення",
                    "ja": "カメラなし: 手入力", "ko": "카메라 없음: 직접 입력"},
    "input_placeholder": {"en": "type a move: pine-crane, play X take Y, flip X, koikoi, stop, undo",
                          "ru": "ход: pine-crane, play X take Y, flip X, koikoi, stop, undo",
                          "uk": "хід: pine-crane, play X take Y, flip X, koikoi, stop, undo",
                          "ja": "手を入力: pine-crane, play X take Y, flip X, koikoi, stop, undo",
                          "ko": "수 입력: pine-crane, play X take Y, flip X, koikoi, stop, undo"},
    "round_won": {"en": "{who} wins the round: {points} points", "ru": "{who} выигрывает раунд: {points} очк.",
                  "uk": "{who} виграє раунд: {points} очок", "ja": "{who}の勝ち: {points}点",
                  "ko": "{who} 승리: {points}점"},
    "round_drawn": {"en": "Round over: nobody scores", "ru": "Раунд окончен: без очков",
                    "uk": "Раунд закінчено: без очок", "ja": "流局: 得点なし", "ko": "나가리: 점수 없음"},
    "match_over": {"en": "Match over: {a} - {b}", "ru": "Матч окончен: {a} - {b}", "uk": "Матч закінчено: {a} - {b}",
                   "ja": "対戦終了: {a} - {b}", "ko": "경기 끝: {a} - {b}"},
    "next_round": {"en": "press n for the next round", "ru": "n: следующий раунд", "uk": "n: наступний раунд",
                   "ja": "n: 次の局へ", "ko": "n: 다음 판"},
    "koikoi_called": {"en": "koi-koi ×{n}", "ru": "кой-кой ×{n}", "uk": "кой-кой ×{n}", "ja": "こいこい ×{n}",
                      "ko": "고 ×{n}"},
    "expected": {"en": "expected {v:+.1f}", "ru": "ожидание {v:+.1f}", "uk": "очікування {v:+.1f}",
                 "ja": "期待値 {v:+.1f}", "ko": "기대값 {v:+.1f}"},
    "chance": {"en": "win {p:.0%}", "ru": "победа {p:.0%}", "uk": "перемога {p:.0%}", "ja": "勝率 {p:.0%}",
               "ko": "승률 {p:.0%}"},
    "decision_hint": {"en": "Stop now: {stop} points. Koi-koi: expected {go:.1f}; opponent first {p:.0%}",
                      "ru": "Стоп сейчас: {stop} очк. Кой-кой: ожидание {go:.1f}; соперник раньше {p:.0%}",
                      "uk": "Стоп зараз: {stop} очок. Кой-кой: очікування {go:.1f}; суперник раніше {p:.0%}",
                      "ja": "今やめると {stop}点。こいこい: 期待値 {go:.1f}、相手が先に役 {p:.0%}",
                      "ko": "지금 스톱: {stop}점. 고: 기대값 {go:.1f}, 상대가 먼저 {p:.0%}"},
    "advice": {"en": "Advice", "ru": "Совет", "uk": "Порада", "ja": "助言", "ko": "조언"},
    "reference": {"en": "Yaku reference", "ru": "Справочник комбинаций", "uk": "Довідник комбінацій",
                  "ja": "役一覧", "ko": "족보 설명"},
    "correct_title": {"en": "Correct a move", "ru": "Исправить ход", "uk": "Виправити хід", "ja": "手を訂正",
                      "ko": "수 고치기"},
    "correct_prompt": {"en": "the right card for: {move}", "ru": "верная карта для: {move}",
                       "uk": "правильна карта для: {move}", "ja": "正しい札: {move}", "ko": "올바른 패: {move}"},
    "nothing_to_correct": {"en": "nothing to correct yet", "ru": "исправлять нечего", "uk": "виправляти нічого",
                           "ja": "訂正する手はありません", "ko": "고칠 수가 없습니다"},
    "deal_title": {"en": "The deal", "ru": "Раздача", "uk": "Роздача", "ja": "配札", "ko": "패 돌리기"},
    "deal_hand": {"en": "your 8 hand cards", "ru": "ваши 8 карт", "uk": "ваші 8 карт", "ja": "手札8枚",
                  "ko": "내 패 8장"},
    "deal_field": {"en": "the 8 field cards", "ru": "8 карт на поле", "uk": "8 карт на полі", "ja": "場札8枚",
                   "ko": "바닥패 8장"},
    "deal_leader": {"en": "who leads: you or opponent", "ru": "кто ходит первым: you/opponent",
                    "uk": "хто ходить першим: you/opponent", "ja": "先手: you / opponent", "ko": "선: you / opponent"},
    "table_input_placeholder": {"en": "type a move (as in the list), or undo", "ru": "ход (как в списке) или undo",
                                "uk": "хід (як у списку) або undo", "ja": "手を入力 (一覧のとおり) / undo",
                                "ko": "수 입력 (목록처럼) 또는 undo"},
    "ok": {"en": "OK", "ru": "OK", "uk": "OK", "ja": "OK", "ko": "확인"},
    "cancel": {"en": "Cancel", "ru": "Отмена", "uk": "Скасувати", "ja": "取消", "ko": "취소"},
}


def register(texts: dict[str, dict[str, str]]) -> None:
    """Add a game's own words (each game's table module registers its texts when imported)."""
    for key, table in texts.items():
        if key in _TEXT and _TEXT[key] != table:
            raise ValueError(f"text key {key!r} is already defined differently")
        _TEXT[key] = table


def t(key: str, lang: str, **params: object) -> str:
    """The text ``key`` in ``lang`` (English when a language lacks it), formatted with ``params``."""
    table = _TEXT[key]
    return table.get(lang, table["en"]).format(**params)


def missing_translations() -> list[tuple[str, str]]:
    return [(key, lang) for key, table in _TEXT.items() for lang in LANGS if lang not in table]
