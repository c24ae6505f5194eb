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

The tracker is split along its seams: the list of combatants (:mod:`.tracker_list`), the toolbar
and the panel's parts made on demand, options, conditions, name and place, the add row
(:mod:`.tracker_parts`), the Attack part (:mod:`.tracker_attack`) and its words
(:mod:`.tracker_text`); this module holds them together and does every action.
"""

from __future__ import annotations

import html
import random
from typing import Any, Callable

import ipywidgets as widgets
import traitlets

from tabletop_widgets.core.combat import Combat, clone_character
from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.play import LocalPlay, Play
from tabletop_widgets.core.problems import RuleError, ValidationError
from tabletop_widgets.front import stylesheet
from tabletop_widgets.table import PLAYERS, project_combat, secret_combatants

from . import language
from .base import locale_toggle, locale_validator, text_lookup
from .tracker_attack import TEXTS as ATTACK_TEXTS
from .tracker_attack import AttackDesk, AttackPanel
from .tracker_forecast import ForecastPart
from .tracker_list import CombatantList
from .sheet_context import hbox, vbox
from .tracker_parts import DETAILS, PARTS, TOOLBAR_BUTTONS, Toolbar, batched, html_view, without_initiative
from .tracker_text import TEXTS, describe, log_html, names_in, round_html, tiebreak_text, title_html

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
        ``can(action) -> bool``, asked in every handler before acting (default: what ``play``
        allows). Actions: add, remove, rename, move, initiative, next, prev, delay, act_now, end,
        damage, heal, condition, defeated, hidden, undo, attack (the Attack part is shown only
        while ``can("attack")``).
    play : Play, optional
        What every action goes through (:mod:`tabletop_widgets.core.play`): by default the
        notebook's own (the rules applied to ``combat`` here); a shared table's seat gives its
        ``TablePlay`` (the table's fair dice; a player's attack sent to the table).
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
        play: Play | None = None,
        **kwargs: Any,
    ):
        given, locale = locale, language.start_locale(locale)  # None: the page's language
        self.combat = _combat_for(system, combat, rng)
        self.system = self.combat.system
        self.play = play if play is not None else LocalPlay(self.system, audience=audience)
        self.can = can or self.play.can
        self._parts: set[str] = set()
        self._made: dict[str, Any] = {}  # the parts of PARTS made so far, by name
        kwargs.setdefault("_dom_classes", ("tt-tracker",))  # with its first message
        super().__init__(**kwargs)
        self.locale = locale
        self.audience = audience
        header = self._make_header(locale)
        toolbar = self._make_toolbar()
        self._make_list()
        self._make_panel()
        self._make_footer()
        self.forecast_part = ForecastPart(self)  # the GM's folded forecast (a player's: empty)
        self.children = [
            self.style_block,
            header,
            toolbar,
            self.tiebreak_view,
            self.empty_note,
            self.list_box,
            self.status,
            self.attack_desk.box,
            self.panel,
            self.add_box,
            self.forecast_part.box,
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
        self.style_block = html_view("tt-style", value=_CSS)
        self.title = html_view("tt-tracker-title", value=self._title_html())
        self.round_label = html_view("tt-round", value=self._round_html())
        self.locale_toggle = locale_toggle(locale)
        self.locale_toggle.tooltip = _t("locale_tip", locale)
        self.locale_toggle.observe(self._on_locale_toggle, names="value")
        return hbox([self.title, self.round_label, self.locale_toggle], classes=("tt-tracker-header",))

    def _make_toolbar(self) -> widgets.Widget:
        self.toolbar = Toolbar(self)
        for name in TOOLBAR_BUTTONS:
            setattr(self, name, getattr(self.toolbar, name))
        return self.toolbar.box

    def _make_list(self) -> None:
        self.combatant_list = CombatantList(self)
        self._rows = self.combatant_list.rows
        self.tiebreak_view = self.combatant_list.tiebreak_view
        self.list_box = self.combatant_list.list_box
        self.empty_note = self.combatant_list.empty_note

    def _make_panel(self) -> None:
        """The selected combatant's panel: its head now, its body when a combatant is first
        selected (see :meth:`_make_part`)."""
        self.panel_head = html_view("tt-panel-head")
        self.panel_body = widgets.VBox(layout=widgets.Layout(display="none"))  # its own: it hides
        self.panel = vbox([self.panel_head, self.panel_body], classes=("tt-tracker-panel",))

    def _make_footer(self) -> None:
        # its row is made for a seat that may add (see _make_part)
        self.add_box = widgets.HBox(_dom_classes=("tt-add-row",))  # its own layout: it hides
        self.status = html_view("tt-tracker-status", "tt-live")
        self.attack_desk = AttackDesk(self)  # what this seat's attack waits for, its questions
        self.log_view = html_view("tt-tracker-log", value=self._log_html())

    def _follow_changes(self) -> None:
        self.observe(lambda _c: self.render(), names=["locale", "audience", "selected"])
        self._unsubscribe = self.combat.observe(lambda _e: self.render())
        self._unwatch_play = self.play.watch(self._play_changed)  # a table's answers and questions
        # a sheet edit changes what the rows show (health, defeat) without a combat event
        self._unwatch = self.combat.observe_characters(lambda _cid: self._character_changed())

    def _play_changed(self) -> None:
        """What waits on others changed (the table answered an odds request, asked a question,
        rolled this seat's attack): the Attack part and the desk follow."""
        self.attack_desk.render()
        if ATTACK in self._parts:
            self.attack_panel.changed()

    def _character_changed(self) -> None:
        self.combatant_list.render_rows()
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
        if part in PARTS:  # a part of its own (:mod:`.tracker_parts`): its widgets are ours too
            where = (
                {"add": self.add_box, "harm": self.panel_body}[part] if part in ("add", "harm") else self._pane(part)
            )
            made = self._made[part] = PARTS[part](self, where)
            for name in LAZY_PARTS[part]:
                setattr(self, name, getattr(made, name))
            if part == "harm":
                self.attack_fold.observe(self._on_attack_fold, names="selected_index")
                self.details.observe(self._on_details, names="selected_index")
        else:
            getattr(self, f"_make_{part}")()
        if part in DETAILS or part == ATTACK:
            self._render_panel()

    def _make_attack(self) -> None:
        self.attack_panel = AttackPanel(self)
        self.attack_fold.children[0].children = [self.attack_panel.box]
        self.attack_panel.render()

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
            why = "not_your_attack" if action == "attack" and self.audience != "gm" else "not_allowed"
            self._say(_t(why, self.locale), error=True)
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
        elif isinstance(getattr(event, "event", None), dict):  # an attack the play rolled now
            self._say(self.describe(event.event))
        elif event is not None and getattr(event, "text", None):  # an attack's news (the play's)
            self._say(tr(event.text, self.locale), error=bool(getattr(event, "error", False)))
        return event

    def next_turn(self):
        return self._run("next", lambda: self._act("next"))

    def previous_turn(self):
        return self._run("prev", lambda: self._act("prev"))

    def delay(self):
        return self._run("delay", lambda: self._act("delay"))

    def act_now(self, cid: str):
        return self._run("act_now", lambda: self._act("act_now", cid))

    def end(self):
        return self._run("end", lambda: self._act("end"))

    def roll_initiative(self, ids=None, **options):
        """Roll for ``ids``; by default for those still without initiative when some have it
        (late joiners are merged into the order), else for everyone."""
        if ids is None:
            missing = self._without_initiative()
            if missing and len(missing) < len(self.combat.ids):
                ids = missing
        return self._run("initiative", lambda: self._act("initiative", ids, **options))

    def _without_initiative(self) -> list[str]:
        return without_initiative(self.combat)

    def undo(self):
        return self._run("undo", lambda: self._act("undo"))

    def add_combatant(self, character=None, *, name: str | None = None, cid: str | None = None, hidden: bool = False):
        """Add a character (default: a fresh ``system.Character()``) under ``name``."""

        def act():
            ch = character if character is not None else self.system.Character()
            nm = (name or getattr(ch, "name", "") or "").strip()
            if not nm and not cid:
                raise RuleError("need_name", TEXTS["need_name"])
            return self._act("add", cid, ch, name=nm or None, hidden=hidden)

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
        event = self._run("remove", lambda: self._act("remove", self._need_selected(cid)))
        if event and self.selected == cid:
            self.selected = None
        return event

    def rename(self, cid, name: str):
        return self._run("rename", lambda: self._act("rename", self._need_selected(cid), name))

    def move_by(self, cid, step: int):
        def act():
            cid_ = self._need_selected(cid)
            return self._act("move", cid_, self.combat.order.index(cid_) + step)

        return self._run("move", act)

    def set_defeated(self, cid: str, value):
        event = self._run("defeated", lambda: self._act("defeated", cid, value))
        if event is None:
            self.render()  # a refused toggle springs back
        return event

    def set_hidden(self, cid: str, value: bool):
        event = self._run("hidden", lambda: self._act("hidden", cid, value))
        if event is None:
            self.render()
        return event

    def damage(self, cid: str, amount: int, **options):
        return self._run("damage", lambda: self._act("damage", cid, amount, **options))

    def heal(self, cid: str, amount: int, **options):
        return self._run("heal", lambda: self._act("heal", cid, amount, **options))

    def damage_selected(self):
        return self._run(
            "damage",
            lambda: self._act(
                "damage", self._need_selected(self.selected), int(self.amount.value), **self.damage_option_values()
            ),
        )

    def heal_selected(self):
        return self._run(
            "heal",
            lambda: self._act(
                "heal", self._need_selected(self.selected), int(self.amount.value), **self.heal_option_values()
            ),
        )

    def _act(self, action: str, *args: Any, **kwargs: Any) -> dict | None:
        """A tracker action, through the play (:mod:`tabletop_widgets.core.play`)."""
        return self.play.act(self.combat, action, *args, **kwargs)

    # -- attacks (the Attack part, :mod:`.tracker_attack`, asks the play for targets and attacks) --
    def attack_odds(self, attacker_id: str, target_id: str, attack_id: str, options: dict):
        """The exact odds (``AttackOdds``) the panel shows before the roll."""
        return self.play.attack_odds(self.combat, attacker_id, target_id, attack_id, options)

    def check_attack(self, attacker_id, target_id, attack_id, options) -> tuple:
        """``(attacker_id, target_id, attack_id, options)`` when this seat may ask for the attack,
        else a bilingual ``RuleError`` (checked by the play as if the browser were hostile)."""
        return self.play.check_attack(self.combat, attacker_id, target_id, attack_id, options)

    def perform_attack(self, attacker_id: str, target_id: str, attack_id: str, options: dict) -> dict | None:
        """Make the attack through the play: rolled and applied here (one undoable event), or at
        a table with its fair dice or sent to the table to be rolled (the Attack part says what
        it waits for). The Combat's event when rolled now, else None (a refusal is shown)."""

        def act():
            return self.play.attack(self.combat, attacker_id, target_id, attack_id, options)

        news = self._run("attack", act)
        if news is None:
            return None
        if news.event is None:  # sent, or waiting for a defence: the desk says so until it is over
            self.attack_desk.show(news)
        return news.event

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
        return self._run("condition", lambda: self._act("condition", cid, condition, duration=duration))

    def remove_condition(self, cid: str, uid: int):
        return self._run("condition", lambda: self._act("uncondition", cid, uid))

    def add_condition_selected(self):
        dur = int(self.condition_duration.value) or None
        return self._run(
            "condition",
            lambda: self._act(
                "condition", self._need_selected(self.selected), self.condition_picker.value, duration=dur
            ),
        )

    def select(self, cid: str | None):
        if cid is not None and cid not in self.combat:
            return
        self.selected = cid

    def damage_option_values(self) -> dict:
        """The damage options the Damage button applies (the system's defaults while the
        options are folded and not yet made)."""
        if "options" not in self._made:
            return self._default_options(self.system.damage_options)
        return self._made["options"].values()

    def heal_option_values(self) -> dict:
        """The healing options the Heal button applies (defaults, as for damage)."""
        if "options" not in self._made:
            return self._default_options(self.system.healing_options)
        return self._made["options"].heal_values()

    @property
    def _option_widgets(self) -> dict:
        """The damage options' controls by option name (none before the options part is made)."""
        return self._made["options"].option_widgets if "options" in self._made else {}

    @property
    def _heal_option_widgets(self) -> dict:
        """The healing options' controls by option name."""
        return self._made["options"].heal_option_widgets if "options" in self._made else {}

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
    def condition_label(self, cond_id: str) -> str:
        spec = self.combat.condition_spec(cond_id)
        return tr(spec.label, self.locale) if spec else cond_id

    def condition_effect(self, cond_id: str) -> str:
        spec = self.combat.condition_spec(cond_id)
        return tr(spec.effect, self.locale) if spec else ""

    def _secret_ids(self) -> set:
        """Ids this audience must not see (hidden combatants, now or when they left, for players)."""
        if self.audience == "gm":
            return set()
        return secret_combatants(self.combat)

    def names_in(self, text: str) -> str:
        """System texts name combatants by id: show their names instead (whole words only)."""
        return names_in(self.combat, text)

    _names_in = names_in

    def tiebreak_text(self, note) -> str:
        """A tie-break note in the tracker's locale with combatant names (:func:`.tracker_text.tiebreak_text`)."""
        return tiebreak_text(self.combat, note, self.locale)

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
        """A log line for ``event`` in the tracker's locale, without what this audience must not see."""
        return describe(self.combat, event, self.locale, self._secret_ids())

    def announce(self, event: dict) -> None:
        """Show ``event`` (one of the combat's events) in the status line, as the tracker's own
        actions do: a step made on the Combat itself (a page's scripted fight, played before its
        tracker is drawn) then reads as if it had been made here."""
        if not isinstance(event, dict) or not any(event is e for e in self.combat.events):
            raise ValueError("announce() takes one of this combat's events")
        self._say(self.describe(event))

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

    def render(self) -> None:
        parts = [self.title, self.round_label, self.tiebreak_view, self.log_view, self.locale_toggle]
        parts += [self.prev_button, self.next_button, self.delay_button, self.initiative_button]
        parts += [self.undo_button, self.end_button, self.panel_head]
        parts += [getattr(self, name) for name in ("amount", "damage_button", "heal_button") if "harm" in self._parts]
        with batched(*parts):
            self._render()

    def _render(self) -> None:
        loc = self.locale
        if self.locale_toggle.value != loc:
            self.locale_toggle.value = loc
        self.locale_toggle.tooltip = _t("locale_tip", loc)
        self.title.value = self._title_html()
        self.round_label.value = self._round_html()
        self.toolbar.render()
        self.combatant_list.render_tiebreaks()
        self.combatant_list.render_rows()
        self._render_panel()
        self._render_add()
        self.attack_desk.render()
        self.log_view.value = self._log_html()

    def _title_html(self) -> str:
        return title_html(self.system, self.locale)

    def _round_html(self) -> str:
        return round_html(self.combat, self.locale, show_hidden=self.audience == "gm")

    def _log_html(self) -> str:
        return log_html(self.combat, self.visible_events(), self.locale, self._secret_ids())

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
        self._made["harm"].render()
        self._render_attack()
        if "options" in self._made:
            self._made["options"].render(c.character)
        for part in ("conditions", "edit"):
            if part in self._made:
                self._made[part].render(cid, c)

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

    def _render_add(self) -> None:
        allowed = self.can("add")
        self.add_box.layout.display = "" if allowed else "none"
        if "add" not in self._parts:
            if not allowed:
                return  # a seat that may not add gets no form (a forged message has no widget)
            self._make_part("add")
        self._made["add"].render()


def show_combat(system, locale: str | None = None, *, characters=None, **kwargs: Any) -> CombatTracker:
    """A combat tracker for ``system`` (a GameSystem or its slug); ``characters`` (a list of the
    system's Characters or ``{id: Character}``) are added in that order."""
    combat = _combat_for(system, kwargs.pop("combat", None), kwargs.pop("rng", None))
    if characters:  # added before the view is made: it is drawn once, with them
        items = characters.items() if hasattr(characters, "items") else [(None, c) for c in characters]
        for cid, ch in items:
            combat.add(cid, ch)
    return CombatTracker(combat=combat, locale=locale, **kwargs)
