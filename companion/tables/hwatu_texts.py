"""The hwatu table's own words in the five languages (card names come from ``engine.names``, scoring
terms from ``engine.hwatu.names``). Each entry is (en, ru, uk, ja, ko); registered on import."""

from __future__ import annotations

from typing import Final

from companion.i18n import register

_ORDER: Final = ("en", "ru", "uk", "ja", "ko")

_ROWS: Final[dict[str, tuple[str, str, str, str, str]]] = {
    # games and frame
    "hwatu_game_hato": ("Hato", "Хато", "Хато", "ハト", "하투"),
    "hwatu_game_minhwatu": ("Min-hwatu", "Мин-хвату", "Мін-хвату", "ミンファトゥ", "민화투"),
    "hwatu_game_gostop": ("Go-Stop", "Го-стоп", "Го-стоп", "ゴーストップ", "고스톱"),
    "hwatu_game_matgo": ("Matgo", "Матго", "Матго", "マッコ", "맞고"),
    "hwatu_hand_no": (
        "hand {n}/{total}",
        "раздача {n}/{total}",
        "роздача {n}/{total}",
        "第{n}局/{total}",
        "{n}/{total} 판",
    ),
    "hwatu_player": ("Player {n}", "Игрок {n}", "Гравець {n}", "{n}番", "{n}번"),
    "hwatu_to_act": ("{who} to {what}", "{who}: {what}", "{who}: {what}", "{who}: {what}", "{who}: {what}"),
    "hwatu_phase_decide": ("call go or stop", "го или стоп", "го чи стоп", "ゴーかストップ", "고 또는 스톱"),
    "hwatu_stock": ("stock {n}", "колода {n}", "колода {n}", "山札 {n}", "더미 {n}"),
    "hwatu_holds": ("{who}: {n} cards", "{who}: {n} карт", "{who}: {n} карт", "{who}: {n}枚", "{who}: {n}장"),
    "hwatu_captures": ("Captures", "Взятки", "Взятки", "取り札", "먹은 패"),
    "hwatu_score": ("Score", "Счёт", "Рахунок", "得点", "점수"),
    "hwatu_history": ("History", "История", "Історія", "履歴", "기록"),
    "hwatu_pts": ("{n} pts", "{n} очк.", "{n} оч.", "{n}点", "{n}점"),
    "hwatu_threshold": (
        "go or stop from {n} points",
        "го или стоп с {n} очков",
        "го чи стоп з {n} очок",
        "{n}点からゴー/ストップ",
        "{n}점부터 고/스톱",
    ),
    "hwatu_card_points": ("card points {n}", "очки карт {n}", "очки карт {n}", "札の点 {n}", "끗수 {n}"),
    "hwatu_go_count": ("go ×{n}", "го ×{n}", "го ×{n}", "ゴー ×{n}", "{n}고"),
    "hwatu_match_line": ("Match, {hand}", "Матч, {hand}", "Матч, {hand}", "対戦、{hand}", "경기, {hand}"),
    "hwatu_nothing_yet": ("nothing yet", "пока ничего", "поки нічого", "まだなし", "아직 없음"),
    "hwatu_double_pi": ("double plain", "двойная пустая", "подвійна порожня", "二枚カス", "쌍피"),
    "hwatu_pending": ("(just played)", "(только что)", "(щойно)", "(今出した)", "(방금 낸 패)"),
    # outcomes
    "hwatu_wins": (
        "{who} won the hand: {how}",
        "{who} выигрывает: {how}",
        "{who} виграє: {how}",
        "{who}の勝ち: {how}",
        "{who} 승: {how}",
    ),
    "hwatu_no_winner": (
        "hand over, no winner: {how}",
        "раздача без победителя: {how}",
        "роздача без переможця: {how}",
        "勝者なし: {how}",
        "승자 없음: {how}",
    ),
    "hwatu_void": (
        "void deal (patu): press n and deal again",
        "пересдача (пату): n и сдать снова",
        "перероздача (пату): n і роздати знову",
        "配り直し(パトゥ): n で配り直す",
        "파투: n 누르고 다시 돌리기",
    ),
    "hwatu_match_over": (
        "match over: {scores}",
        "матч окончен: {scores}",
        "матч закінчено: {scores}",
        "対戦終了: {scores}",
        "경기 끝: {scores}",
    ),
    "hwatu_bot_turn": (
        "it is {who}'s turn (a bot plays it)",
        "ход {who} (играет бот)",
        "хід {who} (грає бот)",
        "{who}の番です(ボットが打つ)",
        "{who} 차례 (봇이 둔다)",
    ),
    # move labels
    "hwatu_m_play": ("play {card}", "сыграть {card}", "зіграти {card}", "{card}を出す", "{card} 내기"),
    "hwatu_m_flip": ("flip {card}", "открыть {card}", "відкрити {card}", "{card}をめくる", "{card} 뒤집기"),
    "hwatu_m_takes": (
        "{move} → takes {take}",
        "{move} → берёт {take}",
        "{move} → бере {take}",
        "{move} → {take}を取る",
        "{move} → {take} 먹기",
    ),
    "hwatu_m_all": ("all three", "все три", "усі три", "三枚とも", "세 장 모두"),
    "hwatu_m_shake": (
        "shake {card} (show three)",
        "тряска {card} (показать три)",
        "трясіння {card} (показати три)",
        "{card}で揺さぶり(三枚見せる)",
        "{card} 흔들기",
    ),
    "hwatu_m_bomb": (
        "bomb: three of {month} onto {take}",
        "бомба: три {month} на {take}",
        "бомба: три {month} на {take}",
        "爆弾: {month}三枚で{take}を取る",
        "폭탄: {month} 세 장으로 {take}",
    ),
    "hwatu_m_blank": (
        "blank turn: flip {card}",
        "пустой ход: открыть {card}",
        "порожній хід: відкрити {card}",
        "空番: {card}をめくる",
        "빈 턴: {card} 뒤집기",
    ),
    "hwatu_m_go": ("go", "го", "го", "ゴー", "고"),
    "hwatu_m_stop": ("stop", "стоп", "стоп", "ストップ", "스톱"),
    # hint reasons
    "hwatu_r_go": (
        "go on: expected {go:+.1f} against {stop:+.0f} now; others win first {p:.0%}",
        "дальше: ожидание {go:+.1f} против {stop:+.0f} сейчас; другие раньше {p:.0%}",
        "далі: очікування {go:+.1f} проти {stop:+.0f} зараз; інші раніше {p:.0%}",
        "続ける: 期待値 {go:+.1f}、今なら {stop:+.0f}; 他家が先に上がる {p:.0%}",
        "고: 기대값 {go:+.1f}, 지금 스톱 {stop:+.0f}; 남이 먼저 날 확률 {p:.0%}",
    ),
    "hwatu_r_stop": (
        "stop now: {stop:+.0f} for sure",
        "стоп сейчас: {stop:+.0f} наверняка",
        "стоп зараз: {stop:+.0f} напевно",
        "今ストップ: 確実に {stop:+.0f}",
        "지금 스톱: 확실한 {stop:+.0f}",
    ),
    "hwatu_r_stop_last": (
        "no turn left to improve in: stop ({stop:+.0f})",
        "ходов больше нет: стоп ({stop:+.0f})",
        "ходів більше немає: стоп ({stop:+.0f})",
        "もう手番がない: ストップ ({stop:+.0f})",
        "남은 턴 없음: 스톱 ({stop:+.0f})",
    ),
    "hwatu_r_bomb": (
        "bomb takes all four of {month}, {n:.0f} pi from each player, and doubles your score",
        "бомба берёт все четыре {month}, по {n:.0f} пи с каждого и удваивает счёт",
        "бомба бере всі чотири {month}, по {n:.0f} пі з кожного і подвоює рахунок",
        "爆弾で{month}四枚、各自から皮{n:.0f}枚、得点倍",
        "폭탄: {month} 네 장, 각자에게서 피 {n:.0f}장, 점수 두 배",
    ),
    "hwatu_r_blank": (
        "a blank turn after your bomb: flip without playing",
        "пустой ход после бомбы: только открыть",
        "порожній хід після бомби: лише відкрити",
        "爆弾の後の空番: めくるだけ",
        "폭탄 뒤 빈 턴: 뒤집기만",
    ),
    "hwatu_r_shake": (
        "shows {cards}: your score ×{n:.0f} if you win",
        "показать {cards}: счёт ×{n:.0f}, если выиграете",
        "показати {cards}: рахунок ×{n:.0f}, якщо виграєте",
        "{cards}を見せる: 勝てば ×{n:.0f}",
        "{cards} 보여주기: 이기면 ×{n:.0f}",
    ),
    "hwatu_r_threshold": (
        "takes {cards}: {n:.0f} points, go or stop next",
        "берёт {cards}: {n:.0f} очк., затем го или стоп",
        "бере {cards}: {n:.0f} оч., далі го чи стоп",
        "{cards}を取る: {n:.0f}点、ゴーかストップ",
        "{cards} 먹기: {n:.0f}점, 고 또는 스톱",
    ),
    "hwatu_r_scores": (
        "takes {cards}: {element} +{n:.0f} (total {total:.0f})",
        "берёт {cards}: {element} +{n:.0f} (всего {total:.0f})",
        "бере {cards}: {element} +{n:.0f} (усього {total:.0f})",
        "{cards}を取る: {element} +{n:.0f} (計 {total:.0f})",
        "{cards} 먹기: {element} +{n:.0f} (합 {total:.0f})",
    ),
    "hwatu_r_completes": (
        "takes {cards}: completes {element} (+{n:.0f})",
        "берёт {cards}: собирает {element} (+{n:.0f})",
        "бере {cards}: складає {element} (+{n:.0f})",
        "{cards}を取る: {element}完成 (+{n:.0f})",
        "{cards} 먹기: {element} 완성 (+{n:.0f})",
    ),
    "hwatu_r_toward": (
        "takes {cards}: {element} {n:.0f} of {need:.0f}",
        "берёт {cards}: {element} {n:.0f} из {need:.0f}",
        "бере {cards}: {element} {n:.0f} з {need:.0f}",
        "{cards}を取る: {element} {n:.0f}/{need:.0f}",
        "{cards} 먹기: {element} {n:.0f}/{need:.0f}",
    ),
    "hwatu_r_denies": (
        "takes {cards}: {who} needs it for {element}",
        "берёт {cards}: это нужно {who} для {element}",
        "бере {cards}: це потрібно {who} для {element}",
        "{cards}を取る: {who}の{element}を防ぐ",
        "{cards} 먹기: {who}의 {element} 막기",
    ),
    "hwatu_r_takes_all": (
        "the fourth card takes all of {month}",
        "четвёртая карта берёт весь {month}",
        "четверта карта бере весь {month}",
        "四枚目で{month}を全部取る",
        "네 번째 패로 {month} 모두 먹기",
    ),
    "hwatu_r_takes_all_safe": (
        "takes all of {month}; no hurry, nobody else can take them",
        "берёт весь {month}; можно не спешить, никто другой их не возьмёт",
        "бере весь {month}; можна не поспішати, ніхто інший їх не візьме",
        "{month}を全部取る; 他に取れる人はいない、急がなくてよい",
        "{month} 모두 먹기; 서두를 필요 없음, 아무도 못 먹음",
    ),
    "hwatu_r_takes": ("takes {cards}", "берёт {cards}", "бере {cards}", "{cards}を取る", "{cards} 먹기"),
    "hwatu_r_takes_pts": (
        "takes {cards}: +{n:.0f} card points",
        "берёт {cards}: +{n:.0f} очк. карт",
        "бере {cards}: +{n:.0f} оч. карт",
        "{cards}を取る: 札の点 +{n:.0f}",
        "{cards} 먹기: 끗수 +{n:.0f}",
    ),
    "hwatu_r_lays": (
        "lays {cards}: {n:.0f} of its month unseen, others may take it",
        "кладёт {cards}: {n:.0f} карт месяца не видно, её могут взять",
        "кладе {cards}: {n:.0f} карт місяця не видно, її можуть взяти",
        "{cards}を場に置く: 同じ月の見えない札 {n:.0f}枚、取られるかも",
        "{cards} 깔기: 같은 달 {n:.0f}장 안 보임, 먹힐 수 있음",
    ),
    "hwatu_r_lays_safe": (
        "lays {cards}: the rest of its month is seen, it stays",
        "кладёт {cards}: остальные карты месяца видны, она останется",
        "кладе {cards}: решта карт місяця видно, вона залишиться",
        "{cards}を場に置く: 同じ月は全部見えている、残る",
        "{cards} 깔기: 같은 달 다 나옴, 남는다",
    ),
    # teaching mode
    "hwatu_a_stop": (
        "stop is safer: {who} has {n} points, {need} short of the threshold; if you go and they win, you pay for "
        "everyone (go-bak)",
        "безопаснее стоп: у {who} {n} очк., до порога {need}; если вы скажете го, а выиграют они, вы платите за "
        "всех (го-бак)",
        "безпечніше стоп: у {who} {n} оч., до порогу {need}; якщо ви скажете го, а виграють вони, ви платите за "
        "всіх (го-бак)",
        "ストップが安全: {who}は{n}点、あと{need}点; ゴーして相手に上がられると全員分を払う(ゴーバク)",
        "스톱이 안전: {who} {n}점, 기준까지 {need}점; 고 했다가 상대가 나면 혼자 다 낸다(고박)",
    ),
    "hwatu_a_stop_late": (
        "stop: only {stock} cards are left to flip, a go has little time to pay and a rival may still win",
        "стоп: в колоде осталось {stock} карт, го почти не успеет окупиться, а соперник ещё может выиграть",
        "стоп: у колоді лишилося {stock} карт, го майже не встигне окупитися, а суперник ще може виграти",
        "ストップ: 山札は残り{stock}枚、ゴーしても伸びる余地は少なく相手に上がられうる",
        "스톱: 더미가 {stock}장뿐, 고 해도 더 날 시간이 없고 상대가 날 수 있다",
    ),
    "hwatu_a_go": (
        "a go can pay: the closest rival ({who}) has {n} points and {stock} cards are left to flip; a go adds a "
        "point, but a rival's win after it makes you pay for everyone",
        "го может окупиться: ближайший соперник ({who}) набрал {n} очк., в колоде {stock} карт; го добавляет "
        "очко, но если потом выиграет соперник, вы платите за всех",
        "го може окупитися: найближчий суперник ({who}) має {n} оч., у колоді {stock} карт; го додає очко, "
        "але якщо потім виграє суперник, ви платите за всіх",
        "ゴーの好機: 一番近い相手({who})は{n}点、山札は{stock}枚; ゴーは1点加算、ただし相手に上がられると全員分を払う",
        "고 해볼 만함: 가장 가까운 상대({who}) {n}점, 더미 {stock}장; 고는 1점 추가, 단 상대가 나면 혼자 다 낸다",
    ),
    "hwatu_a_guard": (
        "guard: {who} needs {card} for {element} and you can take it now",
        "защита: {who} нужна {card} для {element}, а вы можете взять её сейчас",
        "захист: {who} потрібна {card} для {element}, а ви можете взяти її зараз",
        "守り: {who}は{element}に{card}が要る、今なら取れる",
        "방어: {who}는 {element}에 {card}이(가) 필요, 지금 먹을 수 있다",
    ),
    "hwatu_a_first": (
        "capture {card} first: {n} unseen card(s) of its month could take it; {month} can wait, nobody else "
        "holds that month",
        "сначала берите {card}: её могут взять {n} невидимые карты месяца; {month} подождёт, этого месяца "
        "больше ни у кого нет",
        "спершу беріть {card}: її можуть взяти {n} невидимі карти місяця; {month} зачекає, цього місяця "
        "більше ні в кого немає",
        "先に{card}を取る: 同じ月の見えない札{n}枚で取られうる; {month}は他に持つ人がいないので後でよい",
        "{card} 먼저 먹기: 같은 달 안 보이는 {n}장이 먹을 수 있다; {month}은(는) 아무도 없으니 나중에",
    ),
    "hwatu_a_fourth": (
        "three {month} cards lie on the field and you hold the fourth: nobody else can take them, keep it for "
        "later",
        "на поле три карты {month}, а четвёртая у вас: их никто другой не возьмёт, приберегите её",
        "на полі три карти {month}, а четверта у вас: їх ніхто інший не візьме, приберіть її на потім",
        "{month}の三枚が場にあり四枚目はあなたの手に: 他の誰も取れない、後に取っておく",
        "바닥에 {month} 석 장, 네 번째는 내 손에: 아무도 못 먹으니 아껴 두자",
    ),
    "hwatu_a_pi_bak": (
        "pi-bak risk: you have {n} pi (under {below} pays double if a winner scores pi) and {who} has {m}; "
        "take plains when it costs nothing else",
        "риск пи-бак: у вас {n} пи (меньше {below} — двойная плата, если победитель набрал пи), у {who} {m}; "
        "берите пустые карты, когда это ничего не стоит",
        "ризик пі-бак: у вас {n} пі (менше {below} — подвійна плата, якщо переможець набрав пі), у {who} {m}; "
        "беріть порожні карти, коли це нічого не коштує",
        "ピバクの危険: あなたのカスは{n}枚({below}枚未満だとカスで上がられて倍払い)、{who}は{m}枚; "
        "損のない時はカスを取る",
        "피박 위험: 내 피 {n}장({below}장 미만이면 피로 나면 두 배), {who} {m}장; 손해 없을 때 피를 먹자",
    ),
    "hwatu_a_gwang_bak": (
        "gwang-bak risk: you have no bright and {who} has {n}; their bright win would cost you double, one "
        "bright of your own is insurance",
        "риск гван-бак: у вас нет светлой карты, а у {who} их {n}; их победа на светлых обойдётся вдвое, "
        "одна своя светлая — страховка",
        "ризик гван-бак: у вас немає світлої карти, а у {who} їх {n}; їхня перемога на світлих коштуватиме "
        "вдвічі, одна своя світла — страховка",
        "光バクの危険: あなたは光札なし、{who}は{n}枚; 光で上がられると倍払い、光札一枚が保険",
        "광박 위험: 나는 광이 없고 {who} {n}장; 광으로 나면 두 배, 광 한 장이 보험",
    ),
    "hwatu_a_lay_safe": (
        "nothing to capture: lay a card nobody can take (the rest of its month is seen): {cards}",
        "брать нечего: положите карту, которую никто не возьмёт (остальные карты месяца видны): {cards}",
        "брати нічого: покладіть карту, яку ніхто не візьме (решту карт місяця видно): {cards}",
        "取れる札なし: 誰も取れない札を置く(同じ月は全部見えている): {cards}",
        "먹을 패 없음: 아무도 못 먹는 패를 깔자(같은 달 다 나옴): {cards}",
    ),
    "hwatu_a_lay_cheap": (
        "nothing to capture: lay your cheapest card ({card}); what you lay, others may take",
        "брать нечего: положите самую дешёвую карту ({card}); положенное могут взять другие",
        "брати нічого: покладіть найдешевшу карту ({card}); покладене можуть взяти інші",
        "取れる札なし: 一番安い札({card})を置く; 置いた札は取られうる",
        "먹을 패 없음: 가장 싼 패({card})를 깔자; 깐 패는 남이 먹을 수 있다",
    ),
    # manual entry
    "hwatu_deal_prompt": (
        "your {hand} cards / the {field} field cards [/ dealer N]: pine-crane … / maple-deer …",
        "ваши {hand} карт / {field} карт поля [/ dealer N]: pine-crane … / maple-deer …",
        "ваші {hand} карт / {field} карт поля [/ dealer N]: pine-crane … / maple-deer …",
        "手札{hand}枚 / 場札{field}枚 [/ dealer N]: pine-crane … / maple-deer …",
        "내 패 {hand}장 / 바닥패 {field}장 [/ dealer N]: pine-crane … / maple-deer …",
    ),
}

TEXTS: Final = {key: dict(zip(_ORDER, row, strict=True)) for key, row in _ROWS.items()}
register(TEXTS)
