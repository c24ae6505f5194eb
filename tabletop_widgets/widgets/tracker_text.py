"""Every user-facing string of the combat tracker (:mod:`.tracker`), in English and Russian, and
the texts it writes from a combat: combatant ids shown as names, tie-break notes, log lines."""

from __future__ import annotations

import html
import re

from tabletop_widgets.core.combat import Combat
from tabletop_widgets.core.combat.text import attack_dice
from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.system import term_of

from .base import text_lookup

#: Every user-facing string of the tracker, in English and Russian.
TEXTS: dict[str, dict[str, str]] = {
    "title": {"en": "Combat", "ru": "Бой"},
    "round": {"en": "Round", "ru": "Раунд"},
    "not_started": {"en": "Not started", "ru": "Не начат"},
    "turn_of": {"en": "Turn", "ru": "Ход"},
    "start": {"en": "Start ▶", "ru": "Начать ▶"},
    "next": {"en": "Next ▶", "ru": "Дальше ▶"},
    "next_tip": {
        "en": "End this turn; the next combatant able to act starts (defeated are skipped)",
        "ru": "Закончить ход; ходит следующий, кто может (выбывшие пропускаются)",
    },
    "prev": {"en": "◀ Back", "ru": "◀ Назад"},
    "prev_tip": {
        "en": "Back to the previous turn (defeated are skipped)",
        "ru": "Вернуться к предыдущему ходу (выбывшие пропускаются)",
    },
    "delay": {"en": "Delay", "ru": "Отложить"},
    "delay_tip": {
        "en": "The current combatant holds the turn and acts later (Act now)",
        "ru": "Текущий участник откладывает ход и ходит позже («Ходить сейчас»)",
    },
    "initiative": {"en": "Roll initiative", "ru": "Бросить инициативу"},
    "initiative_tip": {
        "en": "Roll initiative for everyone by the system's rules",
        "ru": "Бросить инициативу всем по правилам системы",
    },
    "initiative_late_tip": {
        "en": "Roll initiative for those who have none yet (they join the order by it)",
        "ru": "Бросить инициативу тем, у кого её ещё нет (они встанут в очередь по ней)",
    },
    "undo": {"en": "↶ Undo", "ru": "↶ Отменить"},
    "undo_tip": {"en": "Undo the last action", "ru": "Отменить последнее действие"},
    "end": {"en": "End", "ru": "Завершить"},
    "end_tip": {"en": "End the combat (round 0)", "ru": "Завершить бой (раунд 0)"},
    "tiebreaks": {"en": "Tie-breaks", "ru": "При равенстве"},
    "empty": {"en": "No combatants yet: add some below.", "ru": "Участников пока нет: добавьте ниже."},
    "empty_watch": {
        "en": "No fight yet: the {gm} brings the combatants in when one starts.",
        "ru": "Боя пока нет: {gm} добавит участников, когда он начнётся.",
    },
    "defeated": {"en": "Out", "ru": "Вне боя"},
    "defeated_tip": {
        "en": "Defeated (skipped in turn order); click to mark or unmark",
        "ru": "Выбыл (пропускается в очереди); нажмите, чтобы отметить или снять",
    },
    "hidden": {"en": "Hidden", "ru": "Скрыто"},
    "hidden_tip": {"en": "Hidden from players", "ru": "Скрыт от игроков"},
    "delayed": {"en": "delaying", "ru": "ждёт"},
    "act_now": {"en": "Act now", "ru": "Ходить сейчас"},
    "act_now_tip": {
        "en": "This delaying combatant acts now, after the current turn",
        "ru": "Отложивший ход участник ходит сейчас, после текущего хода",
    },
    "select_tip": {
        "en": "Select to damage, heal, add conditions, rename",
        "ru": "Выбрать: урон, лечение, состояния, имя",
    },
    "selected": {"en": "Selected", "ru": "Выбран"},
    "none_selected": {"en": "Select a combatant by its name.", "ru": "Выберите участника по имени."},
    "amount": {"en": "Amount", "ru": "Сколько"},
    "amount_tip": {"en": "Damage or healing amount", "ru": "Урон или лечение"},
    "damage": {"en": "Damage", "ru": "Урон"},
    "damage_tip": {
        "en": "Apply damage by the system's rules (with the options shown)",
        "ru": "Нанести урон по правилам системы (с указанными параметрами)",
    },
    "heal": {"en": "Heal", "ru": "Лечить"},
    "heal_tip": {
        "en": "Heal by the system's rules (with the healing options shown)",
        "ru": "Лечить по правилам системы (с указанными параметрами лечения)",
    },
    "damage_options": {"en": "Damage", "ru": "Урон"},
    "heal_options": {"en": "Healing", "ru": "Лечение"},
    "sits_out": {"en": "sits out until round {n}", "ru": "пропускает до раунда {n}"},
    "sits_out_tip": {
        "en": "Skipped in the turn order through round {last} (its initiative roll)",
        "ru": "Пропускается в очереди до конца раунда {last} (по броску инициативы)",
    },
    "conditions": {"en": "Conditions", "ru": "Состояния"},
    "condition_tip": {"en": "A condition from the system's catalogue", "ru": "Состояние из каталога системы"},
    "duration": {"en": "Turns", "ru": "Ходов"},
    "duration_tip": {
        "en": "Duration in the bearer's turns (0: the catalogue's default / until removed)",
        "ru": "Длительность в ходах носителя (0: по каталогу / пока не снимут)",
    },
    "add_condition": {"en": "Add", "ru": "Добавить"},
    "add_condition_tip": {"en": "Add the condition", "ru": "Добавить состояние"},
    "remove_condition_tip": {"en": "Remove this condition", "ru": "Снять это состояние"},
    "rename": {"en": "Rename", "ru": "Переименовать"},
    "rename_tip": {"en": "Rename the selected combatant", "ru": "Переименовать выбранного участника"},
    "up": {"en": "▲", "ru": "▲"},
    "up_tip": {"en": "Move up in the order", "ru": "Выше в очереди"},
    "down": {"en": "▼", "ru": "▼"},
    "down_tip": {"en": "Move down in the order", "ru": "Ниже в очереди"},
    "remove": {"en": "Remove", "ru": "Убрать"},
    "remove_tip": {"en": "Remove from the combat", "ru": "Убрать из боя"},
    "new_name": {"en": "Name", "ru": "Имя"},
    "new_name_tip": {"en": "Name of the new combatant", "ru": "Имя нового участника"},
    "template": {"en": "Based on", "ru": "По образцу"},
    "template_tip": {
        "en": "A fresh character, or a copy of a combatant (e.g. another goblin)",
        "ru": "Новый персонаж или копия участника (например, ещё один гоблин)",
    },
    "blank": {"en": "new character", "ru": "новый персонаж"},
    "copy_of": {"en": "copy of", "ru": "копия:"},
    "add_hidden": {"en": "hidden", "ru": "скрыть от игроков"},
    "add": {"en": "Add", "ru": "Добавить"},
    "add_tip": {"en": "Add the combatant to the end of the order", "ru": "Добавить участника в конец очереди"},
    "log": {"en": "Log", "ru": "Журнал"},
    "dice": {"en": "Dice", "ru": "Кубики"},
    "not_allowed": {"en": "You are not allowed to do that.", "ru": "Вам это делать нельзя."},
    "not_your_attack": {
        "en": "You attack with your own character only, on its turn.",
        "ru": "Атаковать можно только своим персонажем и в его ход.",
    },
    "need_name": {"en": "Type a name first.", "ru": "Сначала введите имя."},
    "locale_tip": {"en": "Language", "ru": "Язык"},
    "init_none": {"en": "—", "ru": "—"},
    "health": {"en": "Health", "ru": "Здоровье"},
    "place": {"en": "place", "ru": "место"},
    "options_section": {"en": "Damage and healing options", "ru": "Параметры урона и лечения"},
    "no_options": {
        "en": "These rules give damage and healing no options.",
        "ru": "В этих правилах у урона и лечения нет параметров.",
    },
    "conditions_section": {"en": "Conditions", "ru": "Состояния"},
    "edit_section": {"en": "Name and place in the order", "ru": "Имя и место в очереди"},
}


_t = text_lookup(TEXTS)


def title_html(system, loc: str) -> str:
    """The tracker's title: "Combat" and the system's name."""
    return f'<h2>{_t("title", loc)} <span class="tt-system">· {html.escape(tr(system.title, loc))}</span></h2>'


def round_html(combat: Combat, loc: str, *, show_hidden: bool) -> str:
    """The round counter and whose turn it is ("?" for a hidden combatant unless
    ``show_hidden``), or that the combat has not started."""
    if not combat.started:
        return f'<span class="tt-round-box tt-idle">{_t("not_started", loc)}</span>'
    cur = combat.name(combat.current) if combat.current else "—"
    if combat.current and not show_hidden and combat.combatant(combat.current).hidden:
        cur = "?"
    return (
        f'<span class="tt-round-box" aria-live="polite">{_t("round", loc)} '
        f'<b class="tt-round-number">{combat.round}</b> · {term_of(combat.system, "turn", loc)}: '
        f'<span class="tt-current-name">{html.escape(cur)}</span></span>'
    )


def id_pattern(ids) -> str:
    """A regular expression matching any of ``ids`` as a whole word (the longest first)."""
    ids = sorted((i for i in ids if i), key=len, reverse=True)
    return r"(?<![\w])(" + "|".join(re.escape(i) for i in ids) + r")(?![\w])"


def names_in(combat: Combat, text: str) -> str:
    """System texts name combatants by id: show their names instead (whole words only)."""
    if not combat.ids:
        return text
    return re.sub(id_pattern(combat.ids), lambda m: combat.name(m.group(1)), text)


def tiebreak_text(combat: Combat, note, loc: str) -> str:
    """A tie-break note in ``loc`` with combatant names: the ids the note lists (``"ids"`` or
    ``"pair"``) are replaced by names, or put in front when the text does not name them; a note
    without them falls back to replacing any combatant id."""
    text = tr(note, loc)
    ids = [i for i in Combat.tiebreak_ids(note) if i in combat]
    if not ids:
        return names_in(combat, text)
    pattern = id_pattern(ids)
    if re.search(pattern, text):
        return re.sub(pattern, lambda m: combat.name(m.group(1)), text)
    return f"{' · '.join(combat.name(i) for i in ids)}: {text}"


def describe(combat: Combat, event: dict, loc: str, secret: set) -> str:
    """The log line of ``event`` in ``loc`` with its notes, leaving out the combatants in
    ``secret`` (those this audience must not see)."""
    text = combat.describe(event, loc, skip=secret)
    notes = [tr(n, loc) for n in event.get("notes", []) if isinstance(n, dict)]
    if event.get("state"):
        notes.append(tr(event["state"], loc))
    for entry in event.get("effects") or ():
        if not isinstance(entry, dict) or entry.get("id") in secret:
            continue
        if entry.get("hook") != "attack":  # an attack's sentence tells its notes (a wound) itself
            notes += [tr(n, loc) for n in entry.get("notes", []) if isinstance(n, dict)]
        if entry.get("state"):
            notes.append(tr(entry["state"], loc))
    return text + (" — " + "; ".join(notes) if notes else "")


#: How many recent events the tracker's log shows (newest first).
LOG_LINES = 8


def log_html(combat: Combat, events: list, loc: str, secret: set) -> str:
    """The tracker's log: the last :data:`LOG_LINES` of ``events`` (those this reader may read),
    newest first, each attack's dice folded under its sentence."""
    lines = []
    for event in reversed(events[-LOG_LINES:]):
        said = html.escape(describe(combat, event, loc, secret))
        dice = attack_dice(event, loc) if event.get("type") == "attack" else []
        if dice:
            rows = "".join(f"<div>{html.escape(d)}</div>" for d in dice)
            said += f'<details class="tt-attack-dice"><summary>{_t("dice", loc)}</summary>{rows}</details>'
        lines.append(f"<li>{said}</li>")
    return f"<b>{_t('log', loc)}</b><ol reversed>{''.join(lines)}</ol>" if lines else ""
