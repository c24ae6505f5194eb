"""The words of a seat's table page (every part of :class:`~.table_view.TableView`), in English
and Russian, and the small helpers the parts share to write them."""

from __future__ import annotations

import html
from typing import Any

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.system import term_of

TEXTS: dict[str, dict[str, str]] = {
    "table": T("Table", "Стол"),
    "gm": T("{gm_title}", "{gm_title}"),
    "player": T("Player", "Игрок"),
    "observer": T("Observer", "Зритель"),
    "seat_tip": T("Your seat at this table", "Ваше место за этим столом"),
    "proof": T("Fair dice", "Честные кубики"),
    "proof_tip": T(
        "The dice commitment and the log checkpoint: what anyone can use after the session to "
        "check that no roll was changed",
        "Печать кубиков и отметка журнала: по ним после сессии любой может проверить, что ни один бросок не подменён",
    ),
    "commitment": T("Dice commitment", "Печать кубиков"),
    "commitment_tip": T(
        "Published when this session started: the fingerprint (SHA-256) of the session's "
        "secret dice key. The key is shown when the {gm} ends the session, and then "
        "anyone can check that every roll of it came from it.",
        "Опубликована в начале этой сессии: отпечаток (SHA-256) секретного ключа "
        "кубиков сессии. Когда {gm} закончит сессию, ключ покажут всем: тогда любой "
        "может проверить, что все её броски сделаны с ним.",
    ),
    "head": T("Log checkpoint", "Отметка журнала"),
    "head_tip": T(
        "The fingerprint of the table's log up to the last entry you received. It changes "
        "with every new entry. Copy it and the dice commitment somewhere safe: after the "
        "session ends, verify --commitment … --head … proves nobody changed the dice or "
        "the log.",
        "Отпечаток журнала стола до последней полученной вами записи; меняется с каждой "
        "новой записью. Скопируйте её и печать кубиков в надёжное место: после конца "
        "сессии проверка журнала по ним докажет, что ни кубики, ни журнал не меняли.",
    ),
    "proof_help": T("Click a line to select it, then copy it.", "Щелчок по строке выделяет её для копирования."),
    "seed": T("Dice key revealed", "Ключ кубиков раскрыт"),
    "tab_seats": T("Seat links", "Ссылки мест"),
    "seats_help": T(
        "If a seat's link got out (pasted in a public chat, say), give that seat a new "
        "link: the old one stops working at once, and a page still open with it stops "
        "acting at the table. The new link is shown here once: send it to its player "
        "privately.",
        "Если ссылка места попала не туда (например, в общий чат), выдайте месту новую: "
        "старая сразу перестаёт работать, а открытая по ней страница больше не действует "
        "за столом. Новая ссылка показывается здесь один раз: отправьте её игроку лично.",
    ),
    "seat_pick": T("Seat", "Место"),
    "reissue": T("New link", "Новая ссылка"),
    "reissue_tip": T(
        "Replace this seat's link (the old one stops working)", "Заменить ссылку места (старая перестанет работать)"
    ),
    "reissued": T(
        "New link for {who} (shown once; the old link no longer works):",
        "Новая ссылка для места «{who}» (показана один раз; старая больше не работает):",
    ),
    "link_revoked": T(
        "Your seat link no longer works (the {gm} retired the seat or gave it a new link): this page "
        "no longer follows or acts at the table. Ask your {gm} if you should still be playing.",
        "Ссылка вашего места больше не действует ({gm_title} убрал место или выдал новую ссылку): "
        "эта страница больше не следит за столом и не действует за ним. Спросите у {gm_gen}, "
        "продолжаете ли вы игру.",
    ),
    "link_replaced": T(
        "The {gm} gave your seat a new link: this page no longer follows or acts at the "
        "table. Ask your {gm} for the new link.",
        "{gm_title} выдал вашему месту новую ссылку: эта страница больше не следит за "
        "столом и не действует за ним. Попросите у {gm_gen} новую ссылку.",
    ),
    "closed": T("This table is closed: nothing can change any more.", "Стол закрыт: больше ничего нельзя изменить."),
    "sheets": T("Characters", "Персонажи"),
    "tab_dice": T("Dice", "Кубики"),
    "your_sheet": T("Your character", "Ваш персонаж"),
    "no_character": T(
        "Your seat has no character yet: ask your {gm}.", "У вашего места пока нет персонажа: спросите {gm_gen}."
    ),
    "roll_for": T("Roll for", "Бросает"),
    "roll_for_tip": T("The character whose checks the tray offers", "Персонаж, чьи проверки предлагает лоток"),
    "hidden_roll": T("Hidden roll (only you see it)", "Скрытый бросок (видите только вы)"),
    "hidden_roll_tip": T(
        "Players never receive hidden rolls: not on their screen, not even in the data their page loads",
        "Скрытые броски не доходят до игроков: их нет ни на экране игрока, ни в данных, которые получает его страница",
    ),
    "blind_roll": T("Roll blind", "Бросок вслепую"),
    "blind_roll_tip": T(
        "Everyone sees that you rolled and what; only the {gm} sees the result, until they reveal it",
        "Все видят, что и когда вы бросили; результат видит только {gm}, пока не раскроет его",
    ),
    "hide_notation": T("Hide what is rolled", "Скрыть, что брошено"),
    "hide_notation_tip": T(
        "With a blind roll: the players see only that you rolled blind, not the dice or the label",
        "При броске вслепую: игроки видят только, что вы бросили вслепую, без кубиков и подписи",
    ),
    "reveal": T("Reveal", "Раскрыть"),
    "reveal_tip": T(
        "Show this blind roll's result to everyone who saw it rolled",
        "Показать результат этого броска вслепую всем, кто видел бросок",
    ),
    "log_title": T("Table log", "Журнал стола"),
    "hidden_mark": T("hidden", "скрыто"),
    "after_roll_mark": T("changed after the roll", "изменено после броска"),
    "after_nothing": T("Roll a check first.", "Сначала бросьте проверку."),
    "notes": T("{gm}'s notes", "Заметки {gm_gen}"),
    "notes_tip": T("Only the {gm}'s page ever loads these", "Их получает только страница {gm_gen}"),
    "note_title": T("Title", "Заголовок"),
    "note_text": T("Note", "Заметка"),
    "note_add": T("Add note", "Добавить заметку"),
    "note_empty": T("No notes yet.", "Заметок пока нет."),
    "note_need_text": T("Write the note first.", "Сначала напишите заметку."),
    "combat_add": T("Bring into combat", "Ввести в бой"),
    "combat_add_tip": T("Add a table character to the combat tracker", "Добавить персонажа стола в трекер боя"),
    "combat_all_in": T("Every table character is in the fight already", "Все персонажи стола уже в бою"),
    "combat_already_in": T("That character is in the fight already.", "Этот персонаж уже в бою."),
    "combat_who": T("Character", "Персонаж"),
    "combat_hidden": T("hide from players", "скрыть от игроков"),
    "not_allowed": T("Your seat may not do that.", "Вашему месту это нельзя."),
    "refused": T("Refused: {why}", "Отказано: {why}"),
    "locale_tip": T("Language", "Язык"),
    "gm_prepares": T(
        "Your {gm} is preparing your character: it appears here when it is ready. Meanwhile you "
        "can roll dice and follow the table.",
        "{gm_title} готовит вашего персонажа: он появится здесь, когда будет готов. А пока можно "
        "бросать кубики и следить за столом.",
    ),
    "players_build": T(
        "Players make their own characters (a character in creation opens on the creation wizard)",
        "Игроки сами создают персонажей (персонаж в создании открывается по шагам создания)",
    ),
    "players_build_tip": T(
        "Off: you prepare the characters, and players see that you do.",
        "Выключено: персонажей готовите вы. Игроки видят об этом сообщение.",
    ),
    "npcs_defend": T(
        "NPCs defend by their default choice (an attack on an NPC never waits for you)",
        "Неигровые персонажи защищаются выбором по умолчанию (атака на них не ждёт вашего ответа)",
    ),
    "npcs_defend_tip": T(
        "Off: when a player attacks an NPC whose defence has a choice, your page asks you for it.",
        "Выключено: когда игрок атакует неигрового персонажа, у которого есть выбор защиты, ваша страница спросит вас.",
    ),
    "tab_sessions": T("Sessions", "Сессии"),
    "tab_clocks": T("Clocks", "Часы"),
    "session_label": T("Session {n}", "Сессия {n}"),
    "session_commitment": T("Session {n} dice commitment", "Печать кубиков сессии {n}"),
    "session_seed": T("Session {n} dice key revealed", "Ключ кубиков сессии {n} раскрыт"),
    "session_open_status": T(
        "Session {n} is open: the dice commitment under Fair dice is this session's.",
        "Идёт сессия {n}: печать кубиков в «Честных кубиках» — печать этой сессии.",
    ),
    "session_ended_status": T(
        "Session {n} has ended: its dice key is revealed under Fair dice, so anyone can check its rolls. "
        "Nothing is rolled until the {gm} starts the next session.",
        "Сессия {n} окончена: её ключ кубиков раскрыт в «Честных кубиках» — любой может проверить её броски. "
        "Бросков нет, пока {gm} не начнёт следующую сессию.",
    ),
    "session_started_status": T(
        "Session {n} has started: a new dice commitment is shown under Fair dice. Copy it.",
        "Началась сессия {n}: в «Честных кубиках» новая печать кубиков. Скопируйте её.",
    ),
    "session_end": T("End tonight's session", "Закончить сегодняшнюю сессию"),
    "session_end_tip": T(
        "Reveals this session's dice key; nothing is rolled until you start the next session. "
        "Characters, notes and links stay.",
        "Раскрывает ключ кубиков этой сессии; до начала следующей сессии бросков нет. "
        "Персонажи, заметки и ссылки остаются.",
    ),
    "session_start": T("Start the next session", "Начать следующую сессию"),
    "session_start_tip": T(
        "Draws a fresh secret dice key and shows its commitment to every seat",
        "Создаёт новый секретный ключ кубиков и показывает его печать всем местам",
    ),
    "session_confirm_end": T(
        "End session {n}? Its dice key is revealed to everyone and nothing can be rolled until "
        "you start the next session.",
        "Закончить сессию {n}? Её ключ кубиков увидят все; бросать будет нельзя, пока вы не начнёте следующую сессию.",
    ),
    "session_confirm_start": T(
        "Start session {n}? Every seat gets its new dice commitment.",
        "Начать сессию {n}? Все места получат её новую печать кубиков.",
    ),
    "session_yes_end": T("Yes, end it", "Да, закончить"),
    "session_yes_start": T("Yes, start it", "Да, начать"),
    "session_cancel": T("Cancel", "Отмена"),
    "sessions_past": T("Sessions of this campaign", "Сессии этой кампании"),
    "sessions_col_n": T("Session", "Сессия"),
    "sessions_col_when": T("Played", "Когда"),
    "sessions_col_rolls": T("Rolls", "Бросков"),
    "sessions_col_commitment": T("Dice commitment", "Печать кубиков"),
    "sessions_col_check": T("Verification", "Проверка"),
    "session_verified": T("verified: every roll matches its dice key", "проверена: все броски сходятся с ключом"),
    "session_failed": T("FAILED: {why}", "НЕ ПРОШЛА: {why}"),
    "session_running": T("open now", "идёт сейчас"),
    "log_session_ended": T("Session {n} ended", "Сессия {n} окончена"),
    "transcripts": T("Session logs", "Журналы сессий"),
    "transcript_row": T("Session {n}:", "Сессия {n}:"),
    "transcript_md": T("text (Markdown)", "текст"),
    "transcript_html": T("web page", "веб-страница"),
    "transcript_tip": T(
        "What your seat saw of the session, to keep: rolls with their dice, checks with their odds, "
        "combat rounds, the chat",
        "Что ваше место видело за сессию, на память: броски с кубиками, проверки с шансами, раунды боя, чат",
    ),
    "log_session_started": T("Session {n} started", "Началась сессия {n}"),
    "combat_reloaded": T(
        "The combat changed elsewhere; the tracker was reloaded.", "Бой изменился в другом окне; трекер перезагружен."
    ),
}


def esc(text: Any) -> str:
    """``text`` as HTML text (quotes escaped too, for attributes)."""
    return html.escape(str(text), quote=True)


def gm_words(system: Any, loc: str) -> dict[str, str]:
    """The table's game's words for the GM (RET «мастер», Seasons «Рассказчик») in ``loc``: the
    ``gm``, ``gm_title`` and ``gm_gen`` fields the texts above use."""
    return {key: term_of(system, key, loc) for key in ("gm", "gm_title", "gm_gen")}


__all__ = ["TEXTS", "esc", "gm_words"]
