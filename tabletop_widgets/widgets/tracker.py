"""The combat tracker: a view of :class:`~tabletop_widgets.core.combat.Combat` for any system.

Combatants in turn order with health bars, the current turn highlighted, the round counter,
buttons for next/previous/delay/initiative/undo, and a panel for the selected combatant: an
attack on another combatant with its odds before the roll (:mod:`.tracker_attack`), damage
and healing with the system's damage and healing options, conditions from the system's catalogue
with durations, rename, reorder, remove. What the system's hooks do at turn starts and ends, on
conditions and on initiative (``on_turn``, ``condition_changed``, ``InitiativeRoll.effects`` and
``skip_rounds``) is done by the Combat and shown here: in the status line, the log and the list.
Nothing here computes a rule: every change is a Combat action (an event), every rule a GameSystem
method. Every handler asks ``can(action)`` first
(a viewer can forge widget messages; a disabled button still fires).
"""

from __future__ import annotations

import contextlib
import html
import random
import re
from typing import Any, Callable

import ipywidgets as widgets
import traitlets

from tabletop_widgets.core.combat import Combat, clone_character
from tabletop_widgets.table.audience import PLAYERS, project_combat, secret_combatants
from tabletop_widgets.core.i18n import count, tr
from tabletop_widgets.core.problems import RuleError, ValidationError
from tabletop_widgets.core.system import term_of
from tabletop_widgets.front import stylesheet

from . import language
from .base import locale_validator, text_lookup
from .tracker_attack import TEXTS as ATTACK_TEXTS
from .tracker_attack import AttackPanel, check_attack

#: How many recent events the tracker's log shows (newest first).
LOG_LINES = 8

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
    "not_allowed": {"en": "You are not allowed to do that.", "ru": "Вам это делать нельзя."},
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

#: The folded parts of the selected combatant's panel, in their order (each made when first opened).
DETAILS = ("options", "conditions", "edit")

#: The panel's Attack part: folded above the DETAILS, shown to a seat that ``can("attack")``.
ATTACK = "attack"

#: The widgets made on demand, by the part of the tracker that makes them: the panel's row of
#: harm ("harm", when a combatant is first selected), its folded Attack part and DETAILS (when
#: first opened) and the row for adding combatants ("add", for a seat allowed to add). Reading one as an attribute
#: (``tracker.condition_picker``) makes its part, as opening it does.
LAZY_PARTS = {
    "harm": ("amount", "damage_button", "heal_button", "attack_fold", "details"),
    "attack": ("attack_panel",),
    "options": (
        "options_box",
        "heal_options_box",
        "damage_caption",
        "heal_caption",
        "damage_options_row",
        "heal_options_row",
        "no_options_note",
    ),
    "conditions": ("condition_picker", "condition_duration", "add_condition_button", "conditions_box"),
    "edit": ("rename_text", "rename_button", "up_button", "down_button", "remove_button"),
    "add": ("new_name", "new_template", "new_hidden", "add_button"),
}
_PART_OF = {name: part for part, names in LAZY_PARTS.items() for name in names}

_CSS = stylesheet("tracker")  # tabletop_widgets/front/tracker.css


_t = text_lookup(TEXTS)


def _allow_all(action: str) -> bool:
    return True


def _combat_for(system, combat: Combat | None, rng: random.Random | None) -> Combat:
    """The Combat a tracker shows: ``combat``, or a new one for ``system`` (a GameSystem or slug)."""
    if combat is not None:
        return combat
    if system is None:
        raise ValueError("give a system or a combat")
    if isinstance(system, str):
        from tabletop_widgets.core.registry import get_system

        system = get_system(system)
    return Combat(system, rng=rng)


def _button(cls: str, action: Callable[[], Any], style: str = "") -> widgets.Button:
    b = widgets.Button(button_style=style)
    b.add_class(cls)
    b.on_click(lambda _b: action())
    return b


@contextlib.contextmanager
def _batched(*parts: widgets.Widget):
    """Each widget's trait changes inside go to the browser as one message per widget."""
    with contextlib.ExitStack() as stack:
        for w in parts:
            stack.enter_context(w.hold_sync())
        yield


def _hp_class(cur: int, mx: int, defeated: bool) -> str:
    if defeated:
        return "tt-hp-out"
    if mx <= 0 or cur * 2 > mx:
        return "tt-hp-ok"
    if cur * 4 > mx:
        return "tt-hp-hurt"
    return "tt-hp-low"


class _Row:
    """The widgets of one combatant's line (updated in place, never rebuilt)."""

    def __init__(self, tracker: "CombatTracker", cid: str):
        self.cid = cid
        self.marker = widgets.HTML()
        self.marker.add_class("tt-turn-marker")
        self.select = widgets.Button()
        self.select.add_class("tt-select")
        self.init = widgets.HTML()
        self.init.add_class("tt-init")
        self.hp = widgets.HTML()
        self.hp.add_class("tt-hp")
        self.tags = widgets.HTML()
        self.tags.add_class("tt-row-conditions")
        self.act_now = widgets.Button()
        self.act_now.add_class("tt-act-now")
        self.defeated = widgets.ToggleButton()
        self.defeated.add_class("tt-row-toggle")
        self.defeated.add_class("tt-defeated-toggle")
        self.hidden = widgets.ToggleButton()
        self.hidden.add_class("tt-row-toggle")
        self.hidden.add_class("tt-hidden-toggle")
        self.box = widgets.HBox(
            [self.marker, self.select, self.init, self.hp, self.tags, self.act_now, self.defeated, self.hidden]
        )
        self.box.add_class("tt-combatant")
        self.box.add_class(f"tt-id-{re.sub(r'[^A-Za-z0-9_-]', '_', cid)}")
        self._updating = False
        self.select.on_click(lambda _b: tracker.select(cid))
        self.act_now.on_click(lambda _b: tracker.act_now(cid))
        self.defeated.observe(
            lambda ch: None if self._updating else tracker.set_defeated(cid, ch["new"]), names="value"
        )
        self.hidden.observe(lambda ch: None if self._updating else tracker.set_hidden(cid, ch["new"]), names="value")

    def update(self, tracker: "CombatTracker", place: int) -> None:
        parts = (self.marker, self.select, self.init, self.hp, self.tags, self.act_now, self.defeated, self.hidden)
        with _batched(*parts, self.act_now.layout, self.hidden.layout):
            self._update(tracker, place)

    def _update(self, tracker: "CombatTracker", place: int) -> None:
        loc = tracker.locale
        combat = tracker.combat
        c = combat.combatant(self.cid)
        current = combat.current == self.cid
        flags = (
            ("tt-current", current),
            ("tt-is-defeated", c.defeated),
            ("tt-is-hidden", c.hidden),
            ("tt-is-delayed", c.delayed),
            ("tt-is-selected", tracker.selected == self.cid),
        )
        classes = [k for k in self.box._dom_classes if k not in dict(flags)] + [k for k, on in flags if on]
        if list(self.box._dom_classes) != classes:
            self.box._dom_classes = classes  # one message: no flicker of two highlighted rows
        self.marker.value = "▶" if current else f'<span class="tt-place">{place}</span>'
        self.marker.tooltip = term_of(tracker.system, "turn", loc) if current else f"{_t('place', loc)} {place}"
        self.select.description = c.name
        # a seat that cannot act on combatants (a player) is not told to select one for that
        self.select.tooltip = f"{c.name}: {_t('select_tip', loc)}" if tracker.can("damage") else c.name
        if c.initiative:
            text = tracker._names_in(tr(c.initiative.get("text"), loc))
            roll = c.initiative.get("roll") or {}
            detail = tr({k: v for k, v in roll.items() if k in ("en", "ru")}, loc) if roll else ""
            title = html.escape(f"{text} — {detail}" if detail and detail != text else text, quote=True)
            self.init.value = f'<span class="tt-init-box" title="{title}">{html.escape(text)}</span>'
        else:
            self.init.value = f'<span class="tt-init-box">{_t("init_none", loc)}</span>'
        cur, mx = c.health
        frac = 0 if mx <= 0 else max(0.0, min(1.0, cur / mx))
        label = html.escape(f"{cur} / {mx}")
        self.hp.value = (
            f'<div class="tt-hp-bar" role="meter" aria-label="{_t("health", loc)}" '
            f'aria-valuenow="{cur}" aria-valuemin="0" aria-valuemax="{mx}" title="{_t("health", loc)} {label}">'
            f'<div class="tt-hp-fill {_hp_class(cur, mx, c.defeated)}" style="width:{frac * 100:.0f}%"></div>'
            f'<div class="tt-hp-text">{label}</div></div>'
        )
        chips = []
        if c.delayed:
            chips.append(f'<span class="tt-chip tt-tag-delayed">{_t("delayed", loc)}</span>')
        if c.skip_until and combat.round <= c.skip_until:
            tip = html.escape(_t("sits_out_tip", loc).format(last=c.skip_until), quote=True)
            chips.append(
                f'<span class="tt-chip tt-tag-skip" title="{tip}">'
                f"{html.escape(_t('sits_out', loc).format(n=c.skip_until + 1))}</span>"
            )
        for inst in c.conditions:
            label = html.escape(tracker.condition_label(inst["id"]))
            left = f" · {count(inst['remaining'], 'turn', loc)}" if inst["remaining"] is not None else ""
            effect = html.escape(tracker.condition_effect(inst["id"]), quote=True)
            chips.append(f'<span class="tt-chip tt-condition" title="{label}{left}: {effect}">{label}{left}</span>')
        self.tags.value = "".join(chips)
        self.act_now.description = _t("act_now", loc)
        self.act_now.tooltip = _t("act_now_tip", loc)
        self.act_now.layout.display = "" if c.delayed and combat.started else "none"
        self._updating = True
        try:
            self.defeated.value = c.defeated
            self.hidden.value = c.hidden
        finally:
            self._updating = False
        self.defeated.description = _t("defeated", loc)
        self.defeated.tooltip = _t("defeated_tip", loc)
        self.hidden.description = _t("hidden", loc)
        self.hidden.tooltip = _t("hidden_tip", loc)
        self.hidden.layout.display = "" if tracker.audience == "gm" else "none"


class CombatTracker(widgets.VBox):
    """A combat tracker for any GameSystem.

    Parameters
    ----------
    system : GameSystem
        The rules (or give ``combat``: an existing :class:`Combat`, whose system is used).
    combat : Combat, optional
        The state machine to show (a new empty one by default).
    locale : {"en", "ru"}, optional
        Not given: the page's language, followed live (:mod:`~tabletop_widgets.widgets.language`).
    can : callable, optional
        ``can(action) -> bool``, asked in every handler before acting (default: allow all).
        Actions: add, remove, rename, move, initiative, next, prev, delay, act_now, end, damage,
        heal, condition, defeated, hidden, undo, attack (the Attack part is shown only while
        ``can("attack")``).
    audience : {"gm", "player"}
        ``"player"`` leaves hidden combatants out of the list.
    rng : random.Random, optional
        Dice for initiative (when ``combat`` is not given).
    """

    locale = traitlets.Unicode("en", help="Language of every label: 'en' or 'ru'")
    audience = traitlets.Unicode("gm", help="'gm' sees everything; 'player' does not see hidden combatants")
    selected = traitlets.Unicode(None, allow_none=True, help="Id of the combatant the panel acts on")
    message = traitlets.Unicode("", help="The last status or error message (plain text)")

    _valid_locale = locale_validator()

    @traitlets.validate("audience")
    def _valid_audience(self, proposal):
        if proposal["value"] not in ("gm", "player"):
            raise traitlets.TraitError("audience must be 'gm' or 'player'")
        return proposal["value"]

    def __init__(
        self,
        system=None,
        *,
        combat: Combat | None = None,
        locale: str | None = None,
        can: Callable[[str], bool] | None = None,
        audience: str = "gm",
        rng: random.Random | None = None,
        **kwargs: Any,
    ):
        given, locale = locale, language.start_locale(locale)  # None: the page's language
        self.combat = _combat_for(system, combat, rng)
        self.system = self.combat.system
        self.can = can or _allow_all
        self._rows: dict[str, _Row] = {}
        self._parts: set[str] = set()
        super().__init__(**kwargs)
        self.locale = locale
        self.audience = audience
        header = self._make_header(locale)
        toolbar = self._make_toolbar()
        self._make_list()
        self._make_panel()
        self._make_footer()
        self.children = [
            self.style_block,
            header,
            toolbar,
            self.tiebreak_view,
            self.empty_note,
            self.list_box,
            self.status,
            self.panel,
            self.add_box,
            self.log_view,
        ]
        self.add_class("tt-tracker")
        language.adopt(self, given, self.locale_toggle)
        self._follow_changes()
        self.render()

    # ------------------------------------------------------------------------------------------
    # The parts, in the order they appear
    # ------------------------------------------------------------------------------------------
    def _make_header(self, locale: str) -> widgets.Widget:
        self.style_block = widgets.HTML(_CSS)
        self.style_block.add_class("tt-style")
        self.title = widgets.HTML()
        self.title.add_class("tt-tracker-title")
        self.round_label = widgets.HTML()
        self.round_label.add_class("tt-round")
        self.locale_toggle = widgets.ToggleButtons(
            options=[("EN", "en"), ("RU", "ru")], value=locale, style={"button_width": "44px"}
        )
        self.locale_toggle.add_class("tt-locale")
        self.locale_toggle.observe(self._on_locale_toggle, names="value")
        header = widgets.HBox([self.title, self.round_label, self.locale_toggle])
        header.add_class("tt-tracker-header")
        return header

    def _make_toolbar(self) -> widgets.Widget:
        self.prev_button = _button("tt-prev", lambda: self.previous_turn())
        self.next_button = _button("tt-next", lambda: self.next_turn(), "primary")
        self.delay_button = _button("tt-delay", lambda: self.delay())
        self.initiative_button = _button("tt-initiative", lambda: self.roll_initiative(), "info")
        self.undo_button = _button("tt-undo", lambda: self.undo())
        self.end_button = _button("tt-end", lambda: self.end())
        toolbar = widgets.HBox(
            [
                self.prev_button,
                self.next_button,
                self.delay_button,
                self.initiative_button,
                self.undo_button,
                self.end_button,
            ]
        )
        toolbar.add_class("tt-tracker-toolbar")
        return toolbar

    def _make_list(self) -> None:
        self.tiebreak_view = widgets.HTML()
        self.tiebreak_view.add_class("tt-tiebreaks")
        self.list_box = widgets.VBox()
        self.list_box.add_class("tt-combatants")
        self.empty_note = widgets.HTML()
        self.empty_note.add_class("tt-empty")

    def _make_panel(self) -> None:
        """The selected combatant's panel: its head now, its body when a combatant is first
        selected (see :meth:`_make_part`)."""
        self.panel_head = widgets.HTML()
        self.panel_head.add_class("tt-panel-head")
        self._option_widgets: dict[str, widgets.Widget] = {}
        self._options_for: tuple | None = None
        self._heal_option_widgets: dict[str, widgets.Widget] = {}
        self._heal_options_for: tuple | None = None
        self.panel_body = widgets.VBox()
        self.panel = widgets.VBox([self.panel_head, self.panel_body])
        self.panel.add_class("tt-tracker-panel")

    def _make_footer(self) -> None:
        self.add_box = widgets.HBox()  # its row is made for a seat that may add (see _make_part)
        self.add_box.add_class("tt-add-row")
        self.status = widgets.HTML()
        self.status.add_class("tt-tracker-status")
        self.status.add_class("tt-live")
        self.log_view = widgets.HTML()
        self.log_view.add_class("tt-tracker-log")

    def _follow_changes(self) -> None:
        self.observe(lambda _c: self.render(), names=["locale", "audience", "selected"])
        self._unsubscribe = self.combat.observe(lambda _e: self.render())
        # a sheet edit changes what the rows show (health, defeat) without a combat event
        self._unwatch = self.combat.observe_characters(lambda _cid: self._character_changed())

    def _character_changed(self) -> None:
        self._render_rows()
        if ATTACK in self._parts:
            self.attack_panel.changed()  # the odds follow the characters

    # -- the parts made on demand ------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        # only for the names of LAZY_PARTS not made yet: make the part, then answer
        part = _PART_OF.get(name)
        if part is None or "_parts" not in self.__dict__:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self._make_part(part)
        return self.__dict__[name]

    def built_parts(self) -> set[str]:
        """The parts of :data:`LAZY_PARTS` made so far."""
        return set(self._parts)

    def open_details(self, part: str) -> None:
        """Open the folded part ``part`` (:data:`ATTACK` or one of :data:`DETAILS`) of the panel,
        as a click on its header does."""
        if part == ATTACK:
            self._make_part("harm")
            self.attack_fold.selected_index = 0
            return
        if part not in DETAILS:
            raise ValueError(f"unknown panel part {part!r}: expected one of {', '.join((ATTACK, *DETAILS))}")
        self._make_part(part)
        self.details.selected_index = DETAILS.index(part)

    def _make_part(self, part: str) -> None:
        if part in self._parts:
            return
        if part in DETAILS or part == ATTACK:
            self._make_part("harm")
        self._parts.add(part)
        getattr(self, f"_make_{part}")()
        if part in DETAILS or part == ATTACK:
            self._render_panel()

    def _make_harm(self) -> None:
        self.amount = widgets.BoundedIntText(
            value=1, min=0, max=9999, layout=widgets.Layout(width="150px"), style={"description_width": "initial"}
        )
        self.amount.add_class("tt-amount")
        self.damage_button = _button("tt-damage", lambda: self.damage_selected(), "danger")
        self.heal_button = _button("tt-heal", lambda: self.heal_selected(), "success")
        harm_row = widgets.HBox([self.amount, self.damage_button, self.heal_button])
        harm_row.add_class("tt-panel-row")
        self.attack_fold = widgets.Accordion([widgets.VBox()], selected_index=None)
        self.attack_fold.add_class("tt-attack-fold")
        self.attack_fold.observe(self._on_attack_fold, names="selected_index")
        self.details = widgets.Accordion([widgets.VBox() for _ in DETAILS], selected_index=None)
        self.details.add_class("tt-panel-details")
        self.details.observe(self._on_details, names="selected_index")
        self.panel_body.children = [harm_row, self.attack_fold, self.details]

    def _make_attack(self) -> None:
        self.attack_panel = AttackPanel(self)
        self.attack_fold.children[0].children = [self.attack_panel.box]
        self.attack_panel.render()

    def _make_options(self) -> None:
        self.options_box = widgets.HBox()
        self.options_box.add_class("tt-damage-options")
        self.heal_options_box = widgets.HBox()
        self.heal_options_box.add_class("tt-heal-options")
        self.damage_caption = widgets.HTML()
        self.damage_caption.add_class("tt-option-caption")
        self.heal_caption = widgets.HTML()
        self.heal_caption.add_class("tt-option-caption")
        self.damage_options_row = widgets.HBox([self.damage_caption, self.options_box])
        self.damage_options_row.add_class("tt-option-group")
        self.damage_options_row.add_class("tt-damage-option-group")
        self.heal_options_row = widgets.HBox([self.heal_caption, self.heal_options_box])
        self.heal_options_row.add_class("tt-option-group")
        self.heal_options_row.add_class("tt-heal-option-group")
        self.no_options_note = widgets.HTML()
        self.no_options_note.add_class("tt-no-options")
        self._pane("options").children = [self.damage_options_row, self.heal_options_row, self.no_options_note]

    def _make_conditions(self) -> None:
        self.condition_picker = widgets.Dropdown(
            layout=widgets.Layout(width="260px"), style={"description_width": "initial"}
        )
        self.condition_picker.add_class("tt-condition-picker")
        self.condition_duration = widgets.BoundedIntText(
            value=0, min=0, max=999, layout=widgets.Layout(width="110px"), style={"description_width": "initial"}
        )
        self.condition_duration.add_class("tt-condition-duration")
        self.add_condition_button = _button("tt-add-condition", lambda: self.add_condition_selected())
        self.conditions_box = widgets.HBox()
        self.conditions_box.add_class("tt-panel-conditions")
        cond_row = widgets.HBox(
            [self.condition_picker, self.condition_duration, self.add_condition_button, self.conditions_box]
        )
        cond_row.add_class("tt-panel-row")
        self._pane("conditions").children = [cond_row]

    def _make_edit(self) -> None:
        self.rename_text = widgets.Text(layout=widgets.Layout(width="180px"))
        self.rename_text.add_class("tt-rename")
        self.rename_button = _button("tt-rename-button", lambda: self.rename(self.selected, self.rename_text.value))
        self.up_button = _button("tt-move-up", lambda: self.move_by(self.selected, -1))
        self.down_button = _button("tt-move-down", lambda: self.move_by(self.selected, +1))
        self.remove_button = _button("tt-remove", lambda: self.remove(self.selected), "warning")
        for b in (self.up_button, self.down_button):
            b.layout.width = "40px"
        edit_row = widgets.HBox(
            [self.rename_text, self.rename_button, self.up_button, self.down_button, self.remove_button]
        )
        edit_row.add_class("tt-panel-row")
        self._pane("edit").children = [edit_row]

    def _make_add(self) -> None:
        self.new_name = widgets.Text(layout=widgets.Layout(width="230px"), style={"description_width": "initial"})
        self.new_name.add_class("tt-new-name")
        self.new_name.on_msg(self._on_new_name_msg)
        self.new_template = widgets.Dropdown(
            layout=widgets.Layout(width="260px"), style={"description_width": "initial"}
        )
        self.new_template.add_class("tt-new-template")
        self.new_hidden = widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="90px"))
        self.new_hidden.add_class("tt-new-hidden")
        self.add_button = _button("tt-add", lambda: self.add_from_form())
        self.add_box.children = [self.new_name, self.new_template, self.new_hidden, self.add_button]

    def _pane(self, part: str) -> widgets.Box:
        return self.details.children[DETAILS.index(part)]

    def _on_details(self, change) -> None:
        index = change["new"]
        if index is not None and 0 <= index < len(DETAILS):
            self._make_part(DETAILS[index])

    def _on_attack_fold(self, change) -> None:
        if change["new"] is None:
            return
        if not self.can("attack"):  # a forged click on a hidden header: nothing is made
            self.attack_fold.selected_index = None
            self._say(_t("not_allowed", self.locale), error=True)
            return
        if ATTACK in self._parts:
            self.attack_panel.render()  # folded, it was not redrawn
        else:
            self._make_part(ATTACK)

    # ------------------------------------------------------------------------------------------
    # Actions (each asks ``can`` first; errors are shown, nothing half-applied)
    # ------------------------------------------------------------------------------------------
    def _run(self, action: str, fn: Callable[[], Any]) -> Any:
        if not self.can(action):
            self._say(_t("not_allowed", self.locale), error=True)
            return None
        try:
            event = fn()
        except (RuleError, ValidationError) as exc:
            msg = exc.message if isinstance(exc, RuleError) and hasattr(exc, "message") else None
            self._say(
                tr(msg, self.locale)
                if msg
                else (exc.messages(self.locale) if isinstance(exc, ValidationError) else str(exc)),
                error=True,
            )
            return None
        except (ValueError, TypeError, KeyError) as exc:
            self._say(str(exc), error=True)
            return None
        if isinstance(event, dict):
            self._say(self.describe(event))
        return event

    def next_turn(self):
        return self._run("next", self.combat.next_turn)

    def previous_turn(self):
        return self._run("prev", self.combat.previous_turn)

    def delay(self):
        return self._run("delay", self.combat.delay)

    def act_now(self, cid: str):
        return self._run("act_now", lambda: self.combat.act_now(cid))

    def end(self):
        return self._run("end", self.combat.end)

    def roll_initiative(self, ids=None, **options):
        """Roll for ``ids``; by default for those still without initiative when some have it
        (late joiners are merged into the order), else for everyone."""
        if ids is None:
            missing = self._without_initiative()
            if missing and len(missing) < len(self.combat.ids):
                ids = missing
        return self._run("initiative", lambda: self.combat.roll_initiative(ids, **options))

    def _without_initiative(self) -> list[str]:
        return [c.id for c in self.combat.combatants() if c.initiative is None]

    def undo(self):
        return self._run("undo", self.combat.undo)

    def add_combatant(self, character=None, *, name: str | None = None, cid: str | None = None, hidden: bool = False):
        """Add a character (default: a fresh ``system.Character()``) under ``name``."""

        def act():
            ch = character if character is not None else self.system.Character()
            nm = (name or getattr(ch, "name", "") or "").strip()
            if not nm and not cid:
                raise RuleError("need_name", TEXTS["need_name"])
            return self.combat.add(cid, ch, name=nm or None, hidden=hidden)

        return self._run("add", act)

    def add_from_form(self):
        template = self.new_template.value
        name = self.new_name.value.strip()
        if not name:
            if not self.can("add"):
                return self._run("add", lambda: None)
            self._say(_t("need_name", self.locale), error=True)
            return None
        if template and template in self.combat:
            ch = clone_character(self.combat.character(template))
        else:
            ch = self.system.Character()
        if "name" in ch.traits():
            try:
                ch.name = name
            except Exception:  # noqa: BLE001 - a name the model refuses stays only in the tracker
                pass
        event = self.add_combatant(ch, name=name, hidden=self.new_hidden.value)
        if event:
            self.new_name.value = ""
        return event

    def remove(self, cid):
        event = self._run("remove", lambda: self.combat.remove(self._need_selected(cid)))
        if event and self.selected == cid:
            self.selected = None
        return event

    def rename(self, cid, name: str):
        return self._run("rename", lambda: self.combat.rename(self._need_selected(cid), name))

    def move_by(self, cid, step: int):
        def act():
            cid_ = self._need_selected(cid)
            return self.combat.move(cid_, self.combat.order.index(cid_) + step)

        return self._run("move", act)

    def set_defeated(self, cid: str, value):
        event = self._run("defeated", lambda: self.combat.set_defeated(cid, value))
        if event is None:
            self.render()  # a refused toggle springs back
        return event

    def set_hidden(self, cid: str, value: bool):
        event = self._run("hidden", lambda: self.combat.set_hidden(cid, value))
        if event is None:
            self.render()
        return event

    def damage(self, cid: str, amount: int, **options):
        return self._run("damage", lambda: self.combat.damage(cid, amount, **options))

    def heal(self, cid: str, amount: int, **options):
        return self._run("heal", lambda: self.combat.heal(cid, amount, **options))

    def damage_selected(self):
        return self._run(
            "damage",
            lambda: self.combat.damage(
                self._need_selected(self.selected), int(self.amount.value), **self.damage_option_values()
            ),
        )

    def heal_selected(self):
        return self._run(
            "heal",
            lambda: self.combat.heal(
                self._need_selected(self.selected), int(self.amount.value), **self.heal_option_values()
            ),
        )

    # -- attacks (the Attack part, :mod:`.tracker_attack`) -----------------------------------------
    def attack_targets(self, attacker_id: str | None) -> list[str]:
        """The combatants ``attacker_id`` may be shown as targets: the others this audience sees."""
        return [c.id for c in self.combat.combatants(audience=self.audience) if c.id != attacker_id]

    def attacks_on(self, attacker_id: str, target_id: str) -> list:
        """The attacks (``AttackSpec``) the system offers ``attacker_id`` on ``target_id`` now."""
        return list(self.system.attacks(self.combat.character(attacker_id), self.combat.character(target_id)))

    def attack_option_specs(self, spec, attacker_id: str, target_id: str) -> list:
        """The options (``OptionSpec``) of the attack ``spec`` that this tracker lets its seat
        choose: all of ``spec.options`` here. A table overrides it to leave out
        ``spec.defender_options`` when the target's seat chooses them; an option left out takes
        its default, and a request naming it is refused."""
        return list(spec.options)

    def attack_odds(self, attacker_id: str, target_id: str, attack_id: str, options: dict):
        """The exact odds (``AttackOdds``) the panel shows before the roll: the system's
        ``attack_odds`` on the combat's characters. A table may override it."""
        return self.system.attack_odds(
            self.combat.character(attacker_id), self.combat.character(target_id), attack_id, **options
        )

    def check_attack(self, attacker_id, target_id, attack_id, options) -> tuple:
        """``(attacker_id, target_id, attack_id, options)`` when this seat may ask for the attack
        (both combatants ones it sees, an attack the system offers, only options
        :meth:`attack_option_specs` offers), else a bilingual ``RuleError``."""
        return check_attack(self, attacker_id, target_id, attack_id, options)

    def perform_attack(self, attacker_id: str, target_id: str, attack_id: str, options: dict) -> dict | None:
        """Make the attack: ``Combat.attack`` (rolled with the combat's dice, applied by the
        rules, one undoable event), after ``can("attack")`` and :meth:`check_attack`; the
        event, or None when refused (the refusal shown, nothing changed). A table overrides it
        to roll with its fair dice and record the event in its log."""

        def act():
            a, t, aid, opts = self.check_attack(attacker_id, target_id, attack_id, options)
            return self.combat.attack(a, t, aid, **opts)

        return self._run("attack", act)

    def attack_selected(self):
        """The Attack button: the selected combatant attacks as the panel's controls say
        (checked like a forged message, then :meth:`perform_attack`)."""

        def ask():
            return self.check_attack(*self.attack_panel.request())

        request = self._run("attack", ask)
        if request is None:
            return None
        return self.perform_attack(*request)

    def add_condition(self, cid: str, condition: str, duration: int | None = None):
        return self._run("condition", lambda: self.combat.add_condition(cid, condition, duration=duration))

    def remove_condition(self, cid: str, uid: int):
        return self._run("condition", lambda: self.combat.remove_condition(cid, uid))

    def add_condition_selected(self):
        dur = int(self.condition_duration.value) or None
        return self._run(
            "condition",
            lambda: self.combat.add_condition(
                self._need_selected(self.selected), self.condition_picker.value, duration=dur
            ),
        )

    def select(self, cid: str | None):
        if cid is not None and cid not in self.combat:
            return
        self.selected = cid

    def damage_option_values(self) -> dict:
        """The damage options the Damage button applies (the system's defaults while the
        options are folded and not yet made)."""
        if "options" not in self._parts:
            return self._default_options(self.system.damage_options)
        return {name: w.value for name, w in self._option_widgets.items()}

    def heal_option_values(self) -> dict:
        """The healing options the Heal button applies (defaults, as for damage)."""
        if "options" not in self._parts:
            return self._default_options(self.system.healing_options)
        return {name: w.value for name, w in self._heal_option_widgets.items()}

    def _default_options(self, options_of) -> dict:
        cid = self.selected if self.selected in self.combat else None
        if cid is None:
            return {}
        return {s.name: s.default for s in options_of(self.combat.character(cid))}

    def _need_selected(self, cid):
        if not cid or cid not in self.combat:
            raise RuleError("none_selected", TEXTS["none_selected"])
        return cid

    # ------------------------------------------------------------------------------------------
    # Text
    # ------------------------------------------------------------------------------------------
    def _condition_spec(self, cond_id: str):
        return next((c for c in self.system.conditions() if c.id == cond_id), None)

    def condition_label(self, cond_id: str) -> str:
        spec = self._condition_spec(cond_id)
        return tr(spec.label, self.locale) if spec else cond_id

    def condition_effect(self, cond_id: str) -> str:
        spec = self._condition_spec(cond_id)
        return tr(spec.effect, self.locale) if spec else ""

    @staticmethod
    def _id_pattern(ids) -> str:
        ids = sorted((i for i in ids if i), key=len, reverse=True)
        return r"(?<![\w])(" + "|".join(re.escape(i) for i in ids) + r")(?![\w])"

    def _secret_ids(self) -> set:
        """Ids this audience must not see (hidden combatants, now or when they left, for players)."""
        if self.audience == "gm":
            return set()
        return secret_combatants(self.combat)

    def _names_in(self, text: str) -> str:
        """System texts name combatants by id: show their names instead (whole words only)."""
        if not self.combat.ids:
            return text
        return re.sub(self._id_pattern(self.combat.ids), lambda m: self.combat.name(m.group(1)), text)

    def tiebreak_text(self, note) -> str:
        """A tie-break note in the tracker's locale with combatant names: the ids the note
        lists (``"ids"`` or ``"pair"``) are replaced by names, or put in front when the text
        does not name them; a note without them falls back to replacing any combatant id."""
        text = tr(note, self.locale)
        ids = [i for i in Combat.tiebreak_ids(note) if i in self.combat]
        if not ids:
            return self._names_in(text)
        pattern = self._id_pattern(ids)
        if re.search(pattern, text):
            return re.sub(pattern, lambda m: self.combat.name(m.group(1)), text)
        return f"{' · '.join(self.combat.name(i) for i in ids)}: {text}"

    def player_view(self) -> dict:
        """What players may know of the combat: the table's one audience projection."""
        return project_combat(self.combat, PLAYERS)

    def visible_tiebreaks(self) -> list:
        """The tie-break notes this audience may read."""
        if self.audience == "gm":
            return list(self.combat.tiebreaks)
        return list(self.player_view()["state"].get("tiebreaks", []))

    def visible_events(self) -> list:
        """The log as this audience may read it (the audience projection's log lines)."""
        return self.combat.events if self.audience == "gm" else self.player_view()["events"]

    def describe(self, event: dict) -> str:
        secret = self._secret_ids()
        text = self.combat.describe(event, self.locale, skip=secret)
        notes = [tr(n, self.locale) for n in event.get("notes", []) if isinstance(n, dict)]
        if event.get("state"):
            notes.append(tr(event["state"], self.locale))
        for entry in event.get("effects") or ():
            if not isinstance(entry, dict) or entry.get("id") in secret:
                continue
            notes += [tr(n, self.locale) for n in entry.get("notes", []) if isinstance(n, dict)]
            if entry.get("state"):
                notes.append(tr(entry["state"], self.locale))
        return text + (" — " + "; ".join(notes) if notes else "")

    def _say(self, text: str, *, error: bool = False) -> None:
        self.message = text
        cls = "tt-msg tt-error" if error else "tt-msg"
        role = "alert" if error else "status"
        self.status.value = (
            f'<div class="{cls}" role="{role}" aria-live="polite">{html.escape(text)}</div>' if text else ""
        )

    # ------------------------------------------------------------------------------------------
    # Rendering
    # ------------------------------------------------------------------------------------------
    def _on_locale_toggle(self, change):
        language.toggled(self, change["new"])

    def _on_new_name_msg(self, _widget, content, _buffers):
        if isinstance(content, dict) and content.get("event") == "submit":
            self.add_from_form()

    def render(self) -> None:
        parts = [self.title, self.round_label, self.tiebreak_view, self.log_view, self.locale_toggle]
        parts += [self.prev_button, self.next_button, self.delay_button, self.initiative_button]
        parts += [self.undo_button, self.end_button, self.panel_head]
        parts += [getattr(self, name) for name in ("amount", "damage_button", "heal_button") if "harm" in self._parts]
        with _batched(*parts):
            self._render()

    def _render(self) -> None:
        loc = self.locale
        combat = self.combat
        if self.locale_toggle.value != loc:
            self.locale_toggle.value = loc
        self.locale_toggle.tooltip = _t("locale_tip", loc)
        self.title.value = (
            f'<h2>{_t("title", loc)} <span class="tt-system">· {html.escape(tr(self.system.title, loc))}</span></h2>'
        )
        if combat.started:
            cur = combat.name(combat.current) if combat.current else "—"
            if combat.current and self.audience != "gm" and combat.combatant(combat.current).hidden:
                cur = "?"
            self.round_label.value = (
                f'<span class="tt-round-box" aria-live="polite">{_t("round", loc)} '
                f'<b class="tt-round-number">{combat.round}</b> · {term_of(self.system, "turn", loc)}: '
                f'<span class="tt-current-name">{html.escape(cur)}</span></span>'
            )
        else:
            self.round_label.value = f'<span class="tt-round-box tt-idle">{_t("not_started", loc)}</span>'
        for key, b in (
            ("prev", self.prev_button),
            ("delay", self.delay_button),
            ("initiative", self.initiative_button),
            ("undo", self.undo_button),
            ("end", self.end_button),
        ):
            b.description = _t(key, loc)
            b.tooltip = _t(f"{key}_tip", loc)
        missing = self._without_initiative()
        if missing and len(missing) < len(combat.ids):
            self.initiative_button.tooltip = _t("initiative_late_tip", loc)
        self.next_button.description = _t("next" if combat.started else "start", loc)
        self.next_button.tooltip = _t("next_tip", loc)
        self.prev_button.disabled = not combat.started
        self.delay_button.disabled = not combat.started
        self.end_button.disabled = not combat.started
        self.undo_button.disabled = not combat.can_undo
        self.next_button.disabled = not combat.ids
        self.initiative_button.disabled = not combat.ids
        tiebreaks = self.visible_tiebreaks()
        self.tiebreak_view.layout.display = "" if tiebreaks else "none"
        if tiebreaks:
            items = "".join(f"<li>{html.escape(self.tiebreak_text(t))}</li>" for t in tiebreaks)
            self.tiebreak_view.value = f"<b>{_t('tiebreaks', loc)}:</b><ul>{items}</ul>"
        else:
            self.tiebreak_view.value = ""
        self._render_rows()
        self._render_panel()
        self._render_add()
        lines = [f"<li>{html.escape(self.describe(e))}</li>" for e in reversed(self.visible_events()[-LOG_LINES:])]
        self.log_view.value = f"<b>{_t('log', loc)}</b><ol reversed>{''.join(lines)}</ol>" if lines else ""

    def _render_rows(self) -> None:
        combat = self.combat
        for cid in list(self._rows):
            if cid not in combat:
                del self._rows[cid]
        shown = [c.id for c in combat.combatants(audience=self.audience)]
        boxes = []
        for cid in shown:
            if cid not in self._rows:
                self._rows[cid] = _Row(self, cid)
            boxes.append(self._rows[cid].box)
        # the row losing the highlight first, so that the page never shows two current rows
        places = {cid: place for place, cid in enumerate(shown, 1)}
        for cid in sorted(shown, key=lambda i: i == combat.current):
            self._rows[cid].update(self, places[cid])
        if [id(b) for b in self.list_box.children] != [id(b) for b in boxes]:
            self.list_box.children = boxes
        empty = "empty" if self.can("add") else "empty_watch"  # written for the seat that reads it
        text = _t(empty, self.locale).replace("{gm}", term_of(self.system, "gm", self.locale))
        self.empty_note.value = "" if shown else f"<i>{html.escape(text)}</i>"
        self.empty_note.layout.display = "none" if shown else ""

    def _render_panel(self) -> None:
        loc = self.locale
        combat = self.combat
        cid = self.selected if self.selected in combat else None
        if self.audience != "gm" and cid and combat.combatant(cid).hidden:
            cid = None
        self.panel_body.layout.display = "" if cid else "none"
        if not cid:
            self.panel_head.value = f"<span>{_t('none_selected', loc)}</span>"
            return
        self._make_part("harm")  # the first selection makes the panel's body
        c = combat.combatant(cid)
        self.panel_head.value = f'{_t("selected", loc)}: <span class="tt-selected-name">{html.escape(c.name)}</span>'
        for i, part in enumerate(DETAILS):
            self.details.set_title(i, _t(f"{part}_section", loc))
        self._render_attack()
        self.amount.description = _t("amount", loc)
        self.amount.tooltip = _t("amount_tip", loc)
        self.damage_button.description = _t("damage", loc)
        self.damage_button.tooltip = _t("damage_tip", loc)
        self.heal_button.description = _t("heal", loc)
        self.heal_button.tooltip = _t("heal_tip", loc)
        if "options" in self._parts:
            self._render_options(c.character)
        if "conditions" in self._parts:
            self._render_conditions(cid, c)
        if "edit" in self._parts:
            self._render_edit(cid, c)

    def _render_attack(self) -> None:
        """The Attack part: shown while ``can("attack")`` (a table asks: own character, own
        turn); drawn when open (its odds are worked out only then)."""
        allowed = bool(self.can("attack"))
        self.attack_fold.set_title(0, ATTACK_TEXTS["section"].get(self.locale) or ATTACK_TEXTS["section"]["en"])
        self.attack_fold.layout.display = "" if allowed else "none"
        if not allowed and self.attack_fold.selected_index is not None:
            self.attack_fold.selected_index = None
        if ATTACK in self._parts and allowed and self.attack_fold.selected_index == 0:
            self.attack_panel.render()

    def _render_conditions(self, cid: str, c) -> None:
        loc = self.locale
        specs = self.system.conditions()
        opts = [(tr(s.label, loc), s.id) for s in specs]
        if list(self.condition_picker.options) != opts:
            keep = self.condition_picker.value
            self.condition_picker.options = opts
            values = [v for _, v in opts]
            if values:
                self.condition_picker.value = keep if keep in values else values[0]
        self.condition_picker.description = _t("conditions", loc)
        self.condition_picker.tooltip = _t("condition_tip", loc)
        self.condition_picker.disabled = not opts
        self.condition_duration.description = term_of(self.system, "turns", loc)
        self.condition_duration.tooltip = _t("duration_tip", loc)
        self.add_condition_button.description = _t("add_condition", loc)
        self.add_condition_button.tooltip = _t("add_condition_tip", loc)
        self.add_condition_button.disabled = not opts
        chip_sig = (cid, loc, tuple((i["uid"], i["remaining"]) for i in c.conditions))
        if chip_sig != getattr(self, "_chips_for", None):  # new buttons only when they change
            chips = []
            for inst in c.conditions:
                left = f" · {count(inst['remaining'], 'turn', loc)}" if inst["remaining"] is not None else ""
                b = widgets.Button(
                    description=f"✕ {self.condition_label(inst['id'])}{left}",
                    tooltip=f"{_t('remove_condition_tip', loc)}: {self.condition_effect(inst['id'])}",
                    layout=widgets.Layout(width="auto"),
                )
                b.add_class("tt-condition-remove")
                b.on_click(lambda _b, uid=inst["uid"], who=cid: self.remove_condition(who, uid))
                chips.append(b)
            for old in self.conditions_box.children:
                old.close()
            self.conditions_box.children = chips
            self._chips_for = chip_sig

    def _render_edit(self, cid: str, c) -> None:
        loc = self.locale
        if self.rename_text.value == "" or getattr(self, "_rename_for", None) != cid:
            self.rename_text.value = c.name
            self._rename_for = cid
        self.rename_text.tooltip = _t("rename_tip", loc)
        self.rename_button.description = _t("rename", loc)
        self.rename_button.tooltip = _t("rename_tip", loc)
        for key, b in (("up", self.up_button), ("down", self.down_button), ("remove", self.remove_button)):
            b.description = _t(key, loc)
            b.tooltip = _t(f"{key}_tip", loc)

    def _render_options(self, character) -> None:
        """Controls for ``system.damage_options`` and ``system.healing_options`` (each rebuilt
        when its options or the locale change)."""
        loc = self.locale
        self.damage_caption.value = html.escape(_t("damage_options", loc))
        self.heal_caption.value = html.escape(_t("heal_options", loc))
        for kind, specs in (
            ("damage", self.system.damage_options(character)),
            ("heal", self.system.healing_options(character)),
        ):
            specs = list(specs)
            sig = (loc, tuple((s.name, s.kind, s.default, s.min, s.max, tuple(v for v, _ in s.choices)) for s in specs))
            if kind == "damage":
                if sig != self._options_for:
                    self._option_widgets = self._option_controls(specs, self.damage_option_values(), "tt-damage-option")
                    self.options_box.children = list(self._option_widgets.values())
                    self._options_for = sig
                self.options_box.layout.display = "" if specs else "none"
                self.damage_options_row.layout.display = "" if specs else "none"
            else:
                if sig != self._heal_options_for:
                    self._heal_option_widgets = self._option_controls(
                        specs, self.heal_option_values(), "tt-heal-option"
                    )
                    self.heal_options_box.children = list(self._heal_option_widgets.values())
                    self._heal_options_for = sig
                self.heal_options_row.layout.display = "" if specs else "none"
        none = not self._option_widgets and not self._heal_option_widgets
        self.no_options_note.value = f"<i>{html.escape(_t('no_options', loc))}</i>" if none else ""
        self.no_options_note.layout.display = "" if none else "none"

    def _option_controls(self, specs, old: dict, cls: str) -> dict:
        """One control per OptionSpec (keeping the values already chosen)."""
        loc = self.locale
        made: dict[str, widgets.Widget] = {}
        for s in specs:
            label = tr(s.label, loc)
            tip = tr(s.help, loc) if s.help else label
            value = old.get(s.name, s.default)
            if s.kind == "choice":
                choices = [(tr(lab, loc), v) for v, lab in s.choices]
                values = [v for _, v in choices]
                w = widgets.Dropdown(
                    options=choices,
                    value=value if value in values else s.default,
                    description=label,
                    style={"description_width": "initial"},
                    layout=widgets.Layout(width="auto", min_width="220px"),
                )
            elif s.kind == "bool":
                w = widgets.Checkbox(
                    value=bool(value), description=label, indent=False, layout=widgets.Layout(width="auto")
                )
            elif s.kind == "int":
                lo = s.min if s.min is not None else -9999
                hi = s.max if s.max is not None else 9999
                w = widgets.BoundedIntText(
                    value=max(lo, min(hi, int(value or 0))),
                    min=lo,
                    max=hi,
                    description=label,
                    style={"description_width": "initial"},
                    layout=widgets.Layout(width="150px"),
                )
            else:
                w = widgets.Text(value=str(value or ""), description=label, style={"description_width": "initial"})
            w.tooltip = tip
            w.add_class(cls)
            w.add_class(f"tt-option-{s.name}")
            made[s.name] = w
        return made

    def _render_add(self) -> None:
        loc = self.locale
        combat = self.combat
        allowed = self.can("add")
        self.add_box.layout.display = "" if allowed else "none"
        if "add" not in self._parts:
            if not allowed:
                return  # a seat that may not add gets no form (a forged message has no widget)
            self._make_part("add")
        self.new_name.description = _t("new_name", loc)
        self.new_name.tooltip = _t("new_name_tip", loc)
        self.new_name.placeholder = _t("new_name_tip", loc)
        opts = [(_t("blank", loc), "")] + [(f"{_t('copy_of', loc)} {combat.name(i)}", i) for i in combat.ids]
        if list(self.new_template.options) != opts:
            keep = self.new_template.value
            self.new_template.options = opts
            self.new_template.value = keep if keep in [v for _, v in opts] else ""
        self.new_template.description = _t("template", loc)
        self.new_template.tooltip = _t("template_tip", loc)
        self.new_hidden.description = _t("add_hidden", loc)
        self.new_hidden.tooltip = _t("hidden_tip", loc)
        self.add_button.description = _t("add", loc)
        self.add_button.tooltip = _t("add_tip", loc)


def show_combat(system, locale: str | None = None, *, characters=None, **kwargs: Any) -> CombatTracker:
    """A combat tracker for ``system`` (a GameSystem or its slug); ``characters`` (a list of the
    system's Characters or ``{id: Character}``) are added in that order."""
    tracker = CombatTracker(system, locale=locale, **kwargs)
    if characters:
        items = characters.items() if hasattr(characters, "items") else [(None, c) for c in characters]
        for cid, ch in items:
            tracker.combat.add(cid, ch)
    return tracker
