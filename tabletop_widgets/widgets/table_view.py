"""TableView: one seat's screen at a shared table (GM or player), following the table live.

``TableView(session)`` builds what the seat may see and nothing else:

* GM: every character's sheet (tabs), a dice tray with a character picker and a *hidden roll*
  toggle, the combat tracker with every control, GM notes, the shared log.
* player: their own sheet, a tray for their character, the shared log, the combat tracker as
  players may see it (no hidden combatants, read-only).
* observer: the shared log and the public tracker.

Nothing is rolled or changed in the widgets themselves: every action goes through the
:class:`~tabletop_widgets.table.TableSession` (which checks the seat's role in Python, rolls with
the table's fair dice and appends the outcome), and every handler here checks ``session.can``
first as well (a viewer can forge widget messages; a disabled button still fires). GM-only
widgets are only built in a GM's kernel, and a player's kernel never holds hidden information
(the session's store query filters it), so it cannot reach a synced trait.

The view follows the table: ``session.follow()`` runs an asyncio task in the kernel that applies
other seats' events, and :meth:`TableView._on_events` redraws what they changed (sheets, log,
tracker, notes). A reload is a fresh kernel that rebuilds the same state from the store.

The combat tracker is shared as ``combat.state`` events written by the GM in one transaction:
the players' copy is a *public projection* (hidden combatants removed, a hidden current
combatant shown as "?"), the GM's copy carries the Combat event itself, so a GM's kernel rebuilds
the tracker with :meth:`Combat.replay` over those events.

Initiative is dice, so it uses the table's fair dice: the GM's Combat is a :class:`TableCombat`
whose ``roll_initiative`` goes through :meth:`TableSession.roll_initiative`. In one write
transaction the session takes the next roll index, records an ``initiative`` outcome event
(``verify`` re-rolls it from the seed), and the Combat rolls with the same index's stream; its
``combat.state`` events go out in that transaction.
"""
from __future__ import annotations

import copy
import html
import json
import logging
import re
from types import SimpleNamespace
from typing import Any, Callable, Mapping

import ipywidgets as widgets
import traitlets as t

from tabletop_widgets.core.combat import Combat
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.i18n import LOCALES, T, tr
from tabletop_widgets.dice.results import Die
from tabletop_widgets.front import stylesheet
from tabletop_widgets.table import EventError, PermissionDenied, check as check_request
from tabletop_widgets.table.events import jsonable

from .log import RollLog
from .sheet import CharacterSheet
from .tracker import CombatTracker
from .tray import DiceTray, _error_text, _t as _tray_t

log = logging.getLogger(__name__)

#: Version of the payloads this view writes in ``combat.state`` events.
COMBAT_FORMAT = 1
#: Combat events kept in the players' copy (for the tracker's log lines).
PUBLIC_COMBAT_EVENTS = 12

TEXTS: dict[str, dict[str, str]] = {
    "table": T("Table", "Стол"),
    "gm": T("Game master", "Ведущий"),
    "player": T("Player", "Игрок"),
    "observer": T("Observer", "Зритель"),
    "seat_tip": T("Your seat at this table", "Ваше место за этим столом"),
    "commitment": T("Dice commitment", "Обязательство кубиков"),
    "commitment_tip": T("SHA-256 of the table's secret dice seed, published at the start; the seed "
                        "is revealed when the GM closes the table, so anyone can verify every roll.",
                        "SHA-256 секретного зерна кубиков стола, опубликован в начале; зерно "
                        "раскрывается, когда ведущий закрывает стол, и любой может проверить броски."),
    "seed": T("Seed revealed", "Зерно раскрыто"),
    "closed": T("This table is closed: nothing can change any more.",
                "Стол закрыт: больше ничего нельзя изменить."),
    "sheets": T("Characters", "Персонажи"),
    "tab_dice": T("Dice", "Кубики"),
    "your_sheet": T("Your character", "Ваш персонаж"),
    "no_character": T("Your seat has no character yet: ask your GM.",
                      "У вашего места пока нет персонажа: спросите ведущего."),
    "roll_for": T("Roll for", "Бросает"),
    "roll_for_tip": T("The character whose checks the tray offers",
                      "Персонаж, чьи проверки предлагает лоток"),
    "hidden_roll": T("Hidden roll (only you see it)", "Скрытый бросок (видите только вы)"),
    "hidden_roll_tip": T("Players never receive hidden rolls: not in their page, not in their kernel",
                         "Скрытые броски не доходят до игроков: ни на страницу, ни в их ядро"),
    "log_title": T("Table log", "Журнал стола"),
    "hidden_mark": T("hidden", "скрыто"),
    "notes": T("GM notes", "Заметки ведущего"),
    "notes_tip": T("Only GM seats ever load these", "Их загружают только места ведущего"),
    "note_title": T("Title", "Заголовок"),
    "note_text": T("Note", "Заметка"),
    "note_add": T("Add note", "Добавить заметку"),
    "note_empty": T("No notes yet.", "Заметок пока нет."),
    "note_need_text": T("Write the note first.", "Сначала напишите заметку."),
    "combat_add": T("Bring into combat", "Ввести в бой"),
    "combat_add_tip": T("Add a table character to the combat tracker",
                        "Добавить персонажа стола в трекер боя"),
    "combat_who": T("Character", "Персонаж"),
    "combat_hidden": T("hidden", "скрыт"),
    "not_allowed": T("Your seat may not do that.", "Вашему месту это нельзя."),
    "refused": T("Refused: {why}", "Отказано: {why}"),
    "locale_tip": T("Language", "Язык"),
    "combat_reloaded": T("The combat changed elsewhere; the tracker was reloaded.",
                         "Бой изменился в другом окне; трекер перезагружен."),
}


def _t(key: str, locale: str, **fmt: Any) -> str:
    text = TEXTS[key].get(locale) or TEXTS[key]["en"]
    return text.format(**fmt) if fmt else text


_CSS = stylesheet("table")  # tabletop_widgets/front/table.css


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


# ----------------------------------------------------------------------------------------------
# Results rebuilt from a stored event (the tray shows what the table rolled, not a local roll)
# ----------------------------------------------------------------------------------------------
def _dice_from_json(data: Mapping[str, Any]) -> list[Die]:
    if data.get("results"):
        return [d for sub in data["results"] for d in _dice_from_json(sub)]
    out = []
    for d in data.get("dice") or ():
        flags = {k: d[k] for k in ("dropped", "rerolled", "exploded", "success", "failure", "crit")
                 if k in d and d[k]}
        if not d.get("counted", True) and not (flags.get("dropped") or flags.get("rerolled")):
            flags["kept"] = False
        out.append(Die(d.get("faces"), d.get("value"), **flags))
    return out


class StoredRoll:
    """A roll as the table recorded it (``RollResult.to_json()`` plus its texts): what the tray,
    the log and the dice animation need, without rolling again."""

    def __init__(self, data: Mapping[str, Any], texts: Mapping[str, str] | None = None):
        self.data = dict(data or {})
        self.expression = str(self.data.get("expression", ""))
        self.total = self.data.get("total")
        check = self.data.get("check")
        self.passed = check.get("passed") if isinstance(check, Mapping) else None
        self._texts = {k: v for k, v in (texts or {}).items() if v}
        self._texts.setdefault("en", str(self.data.get("text", "")))

    @property
    def dice(self) -> list[Die]:
        return _dice_from_json(self.data)

    def text(self, locale: str | None = None) -> str:
        return self._texts.get(locale or "en") or self._texts["en"]

    def html(self, locale: str | None = None, *, css: bool = True, live: bool = True) -> str:
        dice = "".join(
            f'<span class="tt-die{"" if d.counted else " tt-dropped"}'
            f'{" tt-success" if d.success else ""}{" tt-failure" if d.failure else ""}">{_esc(d.value)}</span>'
            for d in self.dice)
        total = f' = <span class="tt-total">{_esc(self.total)}</span>' if self.total is not None else ""
        return (f'<div class="tt-roll" aria-label="{_esc(self.text(locale))}">'
                f'<span class="tt-term">{_esc(self.expression)}</span>: {dice}{total}</div>')


class StoredCheck:
    """A named check as the table recorded it (``check_json`` of the session)."""

    def __init__(self, payload: Mapping[str, Any]):
        r = payload["result"]
        self.check_id = r.get("check_id")
        self.label = r.get("label") or {}
        self.success = r.get("success")
        self.total = r.get("total")
        self.outcome = r.get("outcome") or {}
        self.critical = r.get("critical")
        self.margin = r.get("margin")
        self.degree = r.get("degree")
        self.degree_label = r.get("degree_label")
        self.details = r.get("details") or {}
        self.options = payload.get("options") or {}
        roll = r.get("roll")
        self.roll = StoredRoll(roll) if isinstance(roll, Mapping) else None
        self.effects = [SimpleNamespace(trait=e.get("trait"), delta=e.get("delta"), reason=e.get("reason"))
                        for e in r.get("effects") or ()]
        self.character_id = payload.get("character_id")
        self.character = payload.get("character") or {}


# ----------------------------------------------------------------------------------------------
# The tray, routed through the session
# ----------------------------------------------------------------------------------------------
class TableTray(DiceTray):
    """A :class:`DiceTray` whose rolls go through the table session (fair dice, role checks,
    the outcome appended to the log; resource effects applied by the session in the same
    write). ``hidden()`` says whether the next roll is a hidden one."""

    def __init__(self, session, character_id: str | None, character: Any, *,
                 hidden: Callable[[], bool] | None = None, **kwargs: Any):
        self.session = session
        self.character_id = character_id
        self._hidden = hidden or (lambda: False)
        kwargs.setdefault("can", self._can)
        super().__init__(character, system=session.system, **kwargs)
        self.add_class("tt-table-tray")

    def _can(self, action: str) -> bool:
        s = self.session
        if action == "roll_check":
            return (self.character_id is not None and s.can("check", self.character_id)
                    and s.can("roll.hidden" if self._hidden() else "roll"))
        if action == "roll_notation":
            return s.can("roll.hidden" if self._hidden() else "roll")
        if action == "gm_options":
            return s.role == "gm"
        if action == "set_option":
            return s.can("roll")
        return False

    def roll_check(self, check_id: str, **overrides: Any):
        if not self.can("roll_check"):
            self._show_error(PermissionError(_tray_t("not_allowed", "en")))
            return None
        try:
            self._spec(check_id)
            options = {**self.options_for(check_id), **overrides}
            event = self.session.roll(check_request(check_id, self.character_id, **options),
                                      hidden=bool(self._hidden()), locale=self.locale)
        except PermissionDenied as exc:
            self._show_error(PermissionError(str(exc)))
            return None
        except (EventError, ValueError, KeyError) as exc:
            self._show_error(exc)
            return None
        result = StoredCheck(event.payload)
        after = self.session.state.characters.get(self.character_id, {})
        changes = {e.trait: (result.character.get(e.trait), after.get(e.trait))
                   for e in result.effects if result.character.get(e.trait) != after.get(e.trait)}
        self.last_error = None
        self.last_result = result
        self.last_kind = "check"
        self.last_changes = changes
        self.last_effects_error = None
        self._last_check_id = check_id
        self._mark_last(check_id)
        self._render_error()
        self._render_result()
        self._animate(result.roll)
        return result

    def roll(self, expression: str | None = None):
        if not self.can("roll_notation"):
            self._show_error(PermissionError(_tray_t("not_allowed", "en")))
            return None
        text = self.notation.value if expression is None else expression
        try:
            # only the numbers go into the log (the tray also passes the character object, for
            # system words that roll named checks; the session's roll records plain JSON)
            variables = {k: v for k, v in self.variables().items()
                         if isinstance(v, int) and not isinstance(v, bool)}
            event = self.session.roll(text, hidden=bool(self._hidden()), variables=variables,
                                      locale=self.locale)
        except PermissionDenied as exc:
            self._show_error(PermissionError(str(exc)))
            return None
        except (EventError, ValueError) as exc:
            self._show_error(exc)
            return None
        p = event.payload
        result = StoredRoll(p["result"], {self.locale: p.get("text", "")})
        self.show_notation_result(result)
        return result


# ----------------------------------------------------------------------------------------------
# Combat: the public projection and rebuilding
# ----------------------------------------------------------------------------------------------
def secret_combatants(combat: Combat) -> set[str]:
    """Ids that are hidden now, or were hidden when last seen (removed while hidden)."""
    flag: dict[str, bool] = {}
    for e in combat.events:
        if e.get("type") == "add":
            flag[e["id"]] = bool(e.get("hidden"))
        elif e.get("type") == "set_hidden":
            flag[e["id"]] = bool(e.get("value"))
    for cid in combat.ids:
        flag[cid] = combat.combatant(cid).hidden
    return {cid for cid, hidden in flag.items() if hidden}


def _mentions(value: Any, pattern: re.Pattern | None) -> bool:
    """Whether any text anywhere in ``value`` (JSON data) names a secret id or name."""
    if pattern is None:
        return False
    return bool(pattern.search(json.dumps(value, ensure_ascii=False, default=str)))


def _visible_part(combatant: Mapping[str, Any]) -> dict:
    """What of a visible combatant the guard checks (its own name and sheet are its own)."""
    return {k: v for k, v in combatant.items() if k not in ("character", "name")}


def public_combat(combat: Combat) -> dict[str, Any]:
    """What players may know of ``combat``: hidden combatants removed (a hidden combatant
    whose turn it is becomes an anonymous ``?``); tie-break notes, initiative texts and log
    events that name a hidden combatant anywhere are left out. JSON data for a
    ``combat.state`` event.

    The rule is generic on purpose (Combat's event format grows): anything outside the visible
    combatants' own names and sheets that mentions a secret id (or a secret name no visible
    combatant shares) as a word does not go out."""
    full = combat.state()
    secret = secret_combatants(combat)
    visible_names = {d["name"] for cid, d in full["combatants"].items() if cid not in secret}
    secret_names = {full["combatants"][c]["name"] for c in secret if c in full["combatants"]}
    for e in combat.events:   # names of removed hidden combatants, as they were added
        if e.get("type") in ("add", "rename") and e.get("id") in secret and e.get("name"):
            secret_names.add(e["name"])
    words = sorted({w for w in {*secret, *(secret_names - visible_names)} if w}, key=len, reverse=True)
    pattern = (re.compile(r"(?<![\w])(" + "|".join(re.escape(w) for w in words) + r")(?![\w])")
               if words else None)
    hidden_now = [cid for cid in full["order"] if cid in secret]
    alias = {cid: f"hidden-{i}" for i, cid in enumerate(hidden_now, 1)}
    state: dict[str, Any] = {"round": full["round"], "next_uid": full["next_uid"],
                             "tiebreaks": [tb for tb in full["tiebreaks"] if not _mentions(tb, pattern)]}
    combatants = {cid: copy.deepcopy(d) for cid, d in full["combatants"].items() if cid not in secret}
    for d in combatants.values():
        for inst in d.get("conditions", []):
            if inst.get("ticks_on") in alias:
                inst["ticks_on"] = alias[inst["ticks_on"]]
        if d.get("initiative") and _mentions(d["initiative"], pattern):
            d["initiative"] = {"key": d["initiative"].get("key"), "text": "?", "roll": None}
        for key in list(d):
            if key not in ("character", "name", "initiative") and _mentions(d[key], pattern):
                d[key] = [] if isinstance(d[key], list) else None
    current = full["current"]
    if current in secret:
        current = alias[current]
        combatants[current] = {"name": "?", "hidden": True, "delayed": False, "defeated": None,
                               "initiative": None, "conditions": [], "character": {}}
    state["current"] = current
    state["order"] = [alias.get(cid, cid) for cid in full["order"]
                      if cid not in secret or alias.get(cid) == current]
    state["combatants"] = combatants
    needed = set(combatants) | {i.get("ticks_on") for d in combatants.values() for i in d.get("conditions", [])}
    state["turns"] = {alias.get(cid, cid): v for cid, v in full["turns"].items()
                      if alias.get(cid, cid) in needed and (cid not in secret or cid in alias)}
    events = []
    for e in combat.events:
        if e.get("type") == "initiative":
            e = {**e, "ids": [c for c in e.get("ids", []) if c not in secret],
                 "order": [c for c in e.get("order", []) if c not in secret],
                 "rolls": {c: ({**r, "text": "?", "roll": None} if _mentions(r, pattern) else r)
                           for c, r in (e.get("rolls") or {}).items() if c not in secret},
                 "tiebreaks": [tb for tb in e.get("tiebreaks", []) if not _mentions(tb, pattern)]}
        elif e.get("type") == "act_now":
            e = {**e, "order": [c for c in e.get("order", []) if c not in secret]}
        if _mentions(e, pattern):
            continue  # anything still naming a hidden combatant stays with the GM
        events.append(e)
    out = {"format": COMBAT_FORMAT, "state": state, "events": jsonable(events[-PUBLIC_COMBAT_EVENTS:])}
    guard = {**state, "combatants": {c: _visible_part(d) for c, d in combatants.items()}}
    if _mentions(guard, pattern):   # cannot happen by the rules above; never send it anyway
        log.error("public combat state still names a hidden combatant: sending none")
        return {"format": COMBAT_FORMAT, "state": {}, "events": []}
    return out


def restore_combat(combat: Combat, payload: Mapping[str, Any]) -> None:
    """Put a public projection into ``combat`` (a players' read-only copy)."""
    state = copy.deepcopy(dict(payload.get("state") or {}))
    # (a public ``Combat.from_state`` would replace this: the players' copy is a projection
    # of ``Combat.state()``, not a log it could replay)
    combat._reset()
    combat.events = copy.deepcopy(list(payload.get("events") or []))
    if not state:
        return
    combat.round = int(state.get("round", 0))
    combat.current = state.get("current")
    combat.order = list(state.get("order", []))
    combat.tiebreaks = list(state.get("tiebreaks", []))
    combat._next_uid = int(state.get("next_uid", 1))
    combat._turns = {k: list(v) for k, v in (state.get("turns") or {}).items()}
    combat._c = {}
    for cid, data in (state.get("combatants") or {}).items():
        values = data.pop("character", None) or {}
        combat._objects[cid] = _character_from(combat.system, values)
        combat._c[cid] = data


def _character_from(system, values: Mapping[str, Any]):
    """A system Character with ``values`` (a ``to_dict``), or as many of them as it takes."""
    if values:
        try:
            return system.Character.from_dict(values)
        except ValueError:
            pass
    ch = system.Character()
    for name, value in values.items():
        if name in ("system", "schema"):
            continue
        try:
            setattr(ch, name, value)
        except Exception:  # noqa: BLE001 - keep what loads
            pass
    return ch


class TableCombat(Combat):
    """The GM's Combat at a shared table: ``roll_initiative`` (the tracker's "Roll initiative"
    button, or a call) is handed to ``roller(ids, options)``, which rolls through the table
    session with the fair dice (:meth:`TableView._roll_initiative`); without a roller it rolls
    as a plain Combat. Replaying events never rolls, so replay is unchanged."""

    roller: Callable[[Any, dict], dict] | None = None

    def roll_initiative(self, ids=None, **options: Any) -> dict:
        if self.roller is None:
            return super().roll_initiative(ids, **options)
        return self.roller(ids, options)

    def roll_initiative_with(self, rng, ids=None, **options: Any) -> dict:
        """Roll with ``rng`` (the table's stream for this roll index) instead of ``self.rng``."""
        saved = self.rng
        self.rng = rng
        try:
            return super().roll_initiative(ids, **options)
        finally:
            self.rng = saved


def _norm(value: Any) -> Any:
    return json.loads(json.dumps(jsonable(value), sort_keys=True))


def gm_combat_events(session) -> list[dict]:
    """The Combat events the GM seats wrote, in order (read from the log)."""
    out = []
    for e in session.events():
        if e.kind == "combat.state" and e.audience == "gm":
            st = e.payload.get("state") or {}
            if st.get("format") == COMBAT_FORMAT and isinstance(st.get("event"), Mapping):
                out.append(dict(st["event"]))
    return out


# ----------------------------------------------------------------------------------------------
# The view
# ----------------------------------------------------------------------------------------------
class TableView(widgets.VBox):
    """One seat's screen at a shared table (class ``tt-table-view``).

    Parameters
    ----------
    session : TableSession
        The seat (``TableSession.from_voila()`` in a Voila page).
    locale : {"en", "ru"}
    follow : bool
        Start the session's follower (an asyncio task in the kernel's loop) so other seats'
        actions appear without interaction. Tests call ``session.poll()`` instead.
    animate : bool
        Tumble the tray's dice.
    """

    locale = t.Unicode("en", help="Language of the whole screen: 'en' or 'ru'")

    def __init__(self, session, *, locale: str = "en", follow: bool = True, animate: bool = True,
                 **kwargs: Any):
        if locale not in LOCALES:
            raise ValueError(f"unknown locale {locale!r}")
        self.session = session
        self.system = session.system
        self.role = session.role
        self.is_gm = session.role == "gm"
        self._animate = animate
        self._syncing = 0
        self._combat_writing = False
        self._log_seq = 0
        self._message: tuple[str, dict] | None = None
        self.models: dict[str, Any] = {}
        self.sheets: dict[str, CharacterSheet] = {}
        self.tray: TableTray | None = None
        self.hidden_toggle: widgets.Checkbox | None = None
        self.roll_for: widgets.Dropdown | None = None
        self.notes_box: widgets.VBox | None = None
        self.combat_add: widgets.HBox | None = None

        self.style_block = widgets.HTML(_CSS)
        self.style_block.add_class("tt-style")
        self.title = widgets.HTML()
        self.title.add_class("tt-table-title")
        self.commit = widgets.HTML()
        self.commit.add_class("tt-table-commit")
        self.locale_toggle = widgets.ToggleButtons(options=[("EN", "en"), ("RU", "ru")], value=locale,
                                                   style={"button_width": "44px"})
        self.locale_toggle.add_class("tt-locale")
        header = widgets.HBox([widgets.VBox([self.title, self.commit]), self.locale_toggle])
        header.add_class("tt-table-header")
        self.status = widgets.HTML(layout=widgets.Layout(display="none"))
        self.status.add_class("tt-table-status")

        super().__init__(**kwargs)
        self.add_class("tt-table-view")
        self.add_class(f"tt-table-{self.role}")

        # what this seat shows
        self._build_models()
        self.roll_log = RollLog(locale=locale, title=TEXTS["log_title"],
                           can=lambda a: a in ("add", "filter") and session.can("read"))
        self.roll_log.add_class("tt-table-log")
        self._build_tracker(locale)
        parts: list[widgets.Widget] = [self.style_block, header, self.status]
        # the table at a glance (the fight, the log) on top; the seat's tools in tabs below
        self.combat_column = widgets.VBox([self.tracker])
        self.combat_column.add_class("tt-table-combat")
        self.log_column = widgets.VBox([self.roll_log])
        self.log_column.add_class("tt-table-log-column")
        top = widgets.HBox([self.combat_column, self.log_column])
        top.add_class("tt-table-top")
        parts.append(top)
        self.tabs: widgets.Tab | None = None
        self._tab_keys: list[str] = []
        if self.is_gm:
            self._build_sheet_tabs(locale)
            self._build_tray(locale)
            self._build_notes()
            self._build_combat_add()
            self.combat_column.children = [self.tracker, self.combat_add]
            self._tab_keys = ["tab_dice", "sheets", "notes"]
            self.tabs = widgets.Tab(children=[self.tray_box, self.sheet_area, self.notes_box])
        elif self.role == "player":
            self._build_sheet_tabs(locale)
            self._build_tray(locale)
            self._tab_keys = ["tab_dice", "your_sheet"]
            self.tabs = widgets.Tab(children=[self.tray_box, self.sheet_area])
        if self.tabs is not None:
            self.tabs.add_class("tt-table-tabs")
            parts.append(self.tabs)
        self.children = parts
        # one language switch for the whole screen; the log is the table's (nothing to clear)
        self.roll_log.clear_button.layout.display = "none"
        self._hide_inner_toggles()

        self.locale = locale
        self.locale_toggle.observe(lambda ch: setattr(self, "locale", ch["new"]), names="value")
        self._add_log_entries()
        self._render_labels()
        self._unsubscribe = session.on_events(self._on_events)
        self.task = session.follow() if follow else None

    # ==========================================================================================
    # building
    # ==========================================================================================
    def _visible_character_ids(self) -> list[str]:
        st = self.session.state
        if self.is_gm:
            return list(st.characters)
        if self.role == "player":
            cid = self.session.character_id
            return [cid] if cid in st.characters else []
        return []

    def _build_models(self) -> None:
        for cid in self._visible_character_ids():
            self._make_model(cid)

    def _make_model(self, cid: str):
        data = self.session.state.characters[cid]
        try:
            model = self.system.Character.from_dict(data)
        except ValueError:
            log.exception("character %s does not load", cid)
            model = self.system.Character()
        model.observe(lambda change, c=cid: self._on_model_change(c), names=t.All)
        self.models[cid] = model
        return model

    def _character_name(self, cid: str) -> str:
        data = self.session.state.characters.get(cid) or {}
        return str(data.get("name") or cid)

    def _sheet_can(self, cid: str) -> Callable[[str], bool]:
        s = self.session

        def can(action: str) -> bool:
            if action in ("edit", "load", "act"):
                return s.can("character.edit", cid)
            if action == "edit_gm":
                return s.role == "gm" and s.can("character.edit", cid)
            if action == "save":
                return s.can("read")
            return False
        return can

    def _build_sheet_tabs(self, locale: str) -> None:
        ids = list(self.models)
        for cid in ids:
            self.sheets[cid] = CharacterSheet(self.models[cid], self.system, locale=locale,
                                              can=self._sheet_can(cid))
        self.sheet_title = widgets.HTML()
        self.sheet_title.add_class("tt-table-section-title")
        if self.is_gm:
            self.sheet_tabs = widgets.Tab(children=[self.sheets[c] for c in ids])
            for i, cid in enumerate(ids):
                self.sheet_tabs.set_title(i, self._character_name(cid))
            self.sheet_tabs.add_class("tt-table-sheets")
            body: widgets.Widget = self.sheet_tabs
        elif ids:
            body = self.sheets[ids[0]]
        else:
            body = widgets.HTML()
            body.add_class("tt-no-character")
            self._no_character = body
        self.sheet_area = widgets.VBox([body])
        self.sheet_area.add_class("tt-table-sheet-area")

    def _build_tray(self, locale: str) -> None:
        bar: list[widgets.Widget] = []
        if self.is_gm:
            self.hidden_toggle = widgets.Checkbox(value=False, indent=False)
            self.hidden_toggle.add_class("tt-hidden-roll")
            self.hidden_toggle.observe(self._on_hidden_toggle, names="value")
            opts = [(self._character_name(c), c) for c in self.models]
            self.roll_for = widgets.Dropdown(options=opts, value=opts[0][1] if opts else None,
                                             style={"description_width": "initial"})
            self.roll_for.add_class("tt-roll-for")
            self.roll_for.observe(self._on_roll_for, names="value")
            bar = [self.roll_for, self.hidden_toggle]
        self.tray_bar = widgets.HBox(bar)
        self.tray_bar.add_class("tt-table-tray-bar")
        self.tray_bar.layout.display = None if bar else "none"
        self.tray_box = widgets.VBox([self.tray_bar])
        self.tray_box.add_class("tt-table-tray-area")
        cid = self.roll_for.value if self.roll_for is not None else self.session.character_id
        self._set_tray(cid, locale)

    def _set_tray(self, cid: str | None, locale: str) -> None:
        if self.tray is not None:
            self.tray.close()
        character = self.models.get(cid) if cid else None
        self.tray = TableTray(self.session, cid if character is not None else None, character,
                              hidden=self._hidden_wanted, locale=locale, animate=self._animate,
                              who=self.session.name or self.session.seat)
        self.tray_box.children = [self.tray_bar, self.tray]
        self.tray.locale_toggle.layout.display = "none"

    def _hide_inner_toggles(self) -> None:
        for w in [*self.sheets.values(), self.tray, self.tracker]:
            toggle = getattr(w, "locale_toggle", None)
            if toggle is not None:
                toggle.layout.display = "none"

    def _hidden_wanted(self) -> bool:
        return bool(self.hidden_toggle is not None and self.hidden_toggle.value and self.session.role == "gm")

    def _build_tracker(self, locale: str) -> None:
        s = self.session
        if self.is_gm:
            combat = self._replay_gm_combat()
            self.tracker = CombatTracker(combat=combat, locale=locale, audience="gm",
                                         can=lambda action: s.can("combat"))
            combat.observe(self._on_combat_event)
        else:
            combat = Combat(self.system)
            if s.state.combat:
                try:
                    restore_combat(combat, s.state.combat)
                except Exception:  # a bad payload must not take the page down
                    log.exception("combat state does not load")
            # players never act on the combat: every tracker action is refused in Python
            self.tracker = CombatTracker(combat=combat, locale=locale, audience="player",
                                         can=lambda action: False)
            self.tracker.add_class("tt-player-tracker")
        self.tracker.add_class("tt-table-tracker")
        self._push_into_combat()

    def _replay_gm_combat(self) -> Combat:
        self._combat_writing = True
        try:
            combat = TableCombat(self.system)
            for e in gm_combat_events(self.session):
                try:
                    combat.apply(e)
                except Exception:
                    log.exception("combat event %s does not apply", e.get("seq"))
        finally:
            self._combat_writing = False
        combat.roller = self._roll_initiative
        return combat

    def _roll_initiative(self, ids, options: dict) -> dict | None:
        """GM: the tracker's "Roll initiative", through the table's fair dice. The session
        reserves the next roll index inside its write transaction, rolls the system's initiative
        with that index's stream and records an ``initiative`` event; in the same transaction
        the tracker's Combat rolls with the same stream (so it gets the same outcome, checked
        here) and its state goes out as ``combat.state`` events."""
        if not self.session.can("combat"):
            self._say("error", TEXTS["not_allowed"])
            return None
        combat = self.tracker.combat
        ids = list(combat.order if ids is None else ids)
        for cid in ids:
            if cid not in combat:
                raise RuleError("unknown_combatant", T(f"No combatant {cid!r}.", f"Нет участника {cid!r}."))
        if not ids:
            raise RuleError("nobody", T("Nobody to roll initiative for.", "Некому бросать инициативу."))
        characters = {cid: jsonable(combat.character(cid).to_dict()) for cid in ids}
        hidden = bool(set(ids) & secret_combatants(combat))
        names = {cid: combat.name(cid) for cid in ids}
        rolled: dict[str, Any] = {}

        def in_combat(rng, outcome):
            self._combat_writing = True
            try:
                event = combat.roll_initiative_with(rng, ids, **options)
            finally:
                self._combat_writing = False
            rolled["event"] = event
            got = event.get("rolls") or {}
            same = (sorted(got) == sorted(outcome["rolls"])
                    and all(_norm(got[c].get("key")) == outcome["rolls"][c]["key"]
                            and _norm(got[c].get("text")) == outcome["rolls"][c]["text"] for c in got)
                    and _norm(event.get("tiebreaks") or []) == outcome["tiebreaks"])
            if not same:
                raise RuntimeError("the tracker's initiative differs from the table's fair roll "
                                   "(the system's roll_initiative is not deterministic given its rng)")
            return {"format": COMBAT_FORMAT, "event": event}, public_combat(combat)

        try:
            self.session.roll_initiative(characters, options=options, hidden=hidden, combat=in_combat,
                                         names=names, locale=self.locale)
        except Exception as exc:
            if "event" in rolled:   # the Combat moved but nothing was written: back to the log
                self._reload_gm_combat()
            if isinstance(exc, (PermissionDenied, EventError, RuntimeError)):
                self._refused(exc)
                return None
            raise
        self._pull_from_combat()
        return rolled["event"]

    def _build_notes(self) -> None:
        self.note_title = widgets.Text(style={"description_width": "initial"},
                                       layout=widgets.Layout(width="100%"))
        self.note_title.add_class("tt-note-title-input")
        self.note_text = widgets.Textarea(layout=widgets.Layout(width="100%"))
        self.note_text.add_class("tt-note-text")
        self.note_button = widgets.Button(button_style="warning")
        self.note_button.add_class("tt-note-add")
        self.note_button.on_click(lambda _b: self.add_note())
        self.notes_head = widgets.HTML()
        self.notes_list = widgets.HTML()
        self.notes_list.add_class("tt-note-list")
        self.notes_box = widgets.VBox([self.notes_head, self.notes_list, self.note_title, self.note_text,
                                       self.note_button])
        self.notes_box.add_class("tt-gm-notes")

    def _build_combat_add(self) -> None:
        self.combat_pick = widgets.Dropdown(options=[(self._character_name(c), c) for c in self.models],
                                            style={"description_width": "initial"})
        self.combat_pick.add_class("tt-combat-pick")
        self.combat_pick_hidden = widgets.Checkbox(value=False, indent=False,
                                                   layout=widgets.Layout(width="90px"))
        self.combat_pick_hidden.add_class("tt-combat-pick-hidden")
        self.combat_add_button = widgets.Button(button_style="info")
        self.combat_add_button.add_class("tt-combat-add-button")
        self.combat_add_button.on_click(lambda _b: self.bring_into_combat())
        self.combat_add = widgets.HBox([self.combat_pick, self.combat_pick_hidden, self.combat_add_button])
        self.combat_add.add_class("tt-combat-add")

    # ==========================================================================================
    # actions (each checks the seat first)
    # ==========================================================================================
    def add_note(self, text: str | None = None, title: str | None = None):
        if not self.session.can("note"):
            return self._say("error", TEXTS["not_allowed"])
        text = (self.note_text.value if text is None else text).strip()
        title = (self.note_title.value if title is None else title).strip() or None
        if not text:
            return self._say("error", TEXTS["note_need_text"])
        try:
            event = self.session.note(text, title)
        except (PermissionDenied, EventError) as exc:
            return self._refused(exc)
        self.note_text.value = ""
        self.note_title.value = ""
        self._say(None, None)
        return event

    def bring_into_combat(self, cid: str | None = None, hidden: bool | None = None):
        """GM: put a table character into the combat tracker (as combatant ``cid``)."""
        if not self.session.can("combat"):
            return self._say("error", TEXTS["not_allowed"])
        cid = cid or self.combat_pick.value
        hidden = self.combat_pick_hidden.value if hidden is None else hidden
        data = self.session.state.characters.get(cid)
        if data is None:
            return None
        character = self.system.Character.from_dict(data)
        return self.tracker.add_combatant(character, name=self._character_name(cid), cid=cid,
                                          hidden=bool(hidden))

    # ==========================================================================================
    # handlers
    # ==========================================================================================
    def _on_hidden_toggle(self, change) -> None:
        if change["new"] and not self.session.can("roll.hidden"):
            self.hidden_toggle.value = False

    def _on_roll_for(self, change) -> None:
        cid = change["new"]
        if cid is None or cid not in self.models or not self.session.can("check", cid):
            return
        self._set_tray(cid, self.locale)

    def _on_model_change(self, cid: str) -> None:
        """A sheet edit (or a rules action) changed the character: record it, or put it back."""
        if self._syncing:
            return
        model = self.models[cid]
        stored = self.session.state.characters.get(cid, {})
        now = jsonable(model.to_dict())
        diff = {k: v for k, v in now.items() if k not in ("system", "schema") and stored.get(k) != v}
        if not diff:
            return
        if not self.session.can("character.edit", cid):
            self._say("error", TEXTS["closed"] if self.session.state.closed else TEXTS["not_allowed"])
            self._push_model(cid)
            return
        try:
            self.session.update_character(cid, diff, reason="sheet")
        except (PermissionDenied, EventError, ValueError) as exc:
            self._refused(exc)
            self._push_model(cid)

    def _on_combat_event(self, event: dict) -> None:
        """GM: the tracker applied a Combat event; record it (with the players' projection)."""
        if self._combat_writing:
            return
        combat = self.tracker.combat
        try:
            self.session.set_combat({"format": COMBAT_FORMAT, "event": event},
                                    public=public_combat(combat))
        except (PermissionDenied, EventError, ValueError) as exc:
            self._refused(exc)
            self._reload_gm_combat()
            return
        self._pull_from_combat()

    def _pull_from_combat(self) -> None:
        """GM: table characters in the combat whose values the combat changed (damage,
        healing, undo) are recorded as character updates."""
        st = self.session.state
        combat = self.tracker.combat
        for cid in combat.ids:
            if cid not in st.characters:
                continue
            now = jsonable(combat.character(cid).to_dict())
            stored = st.characters[cid]
            diff = {k: v for k, v in now.items() if k not in ("system", "schema") and stored.get(k) != v}
            if diff:
                try:
                    self.session.update_character(cid, diff, reason={"combat": combat.events[-1]["type"]})
                except (PermissionDenied, EventError, ValueError) as exc:
                    self._refused(exc)

    def _push_into_combat(self) -> None:
        """Table characters in the combat take their values from the table (sheet edits)."""
        st = self.session.state
        combat = self.tracker.combat
        changed = False
        for cid in combat.ids:
            data = st.characters.get(cid)
            if data is None:
                continue
            ch = combat.character(cid)
            if jsonable(ch.to_dict()) == data:
                continue
            try:
                ch.load_dict(data)
                changed = True
            except ValueError:
                log.exception("character %s does not load into the combat", cid)
        if changed:
            self.tracker.render()

    def _reload_gm_combat(self) -> None:
        old = self.tracker
        combat = self._replay_gm_combat()
        self.tracker = CombatTracker(combat=combat, locale=self.locale, audience="gm",
                                     can=lambda action: self.session.can("combat"))
        self.tracker.add_class("tt-table-tracker")
        combat.observe(self._on_combat_event)
        self.combat_column.children = [self.tracker if c is old else c for c in self.combat_column.children]
        old.close()
        self.tracker.locale_toggle.layout.display = "none"
        self._push_into_combat()

    # ==========================================================================================
    # following the table
    # ==========================================================================================
    def _on_events(self, events) -> None:
        """New events (followed, or written here): redraw what they touched."""
        try:
            self._apply_events(events)
        except Exception:  # never let a drawing bug stop the follower
            log.exception("table view: redraw failed")

    def _apply_events(self, events) -> None:
        st = self.session.state
        touched: set[str] = set()
        combat_public = False
        combat_remote = False
        notes = False
        for e in events:
            if e.kind in ("character.set", "character.update"):
                touched.add(e.payload.get("character_id"))
            elif e.kind == "combat.state":
                if e.audience == "gm":
                    combat_remote = combat_remote or not self._own_combat_event(e)
                else:
                    combat_public = True
            elif e.kind == "note":
                notes = True
        for cid in touched:
            if cid in self.models:
                self._push_model(cid)
            elif cid in st.characters and self.is_gm:
                self._add_character(cid)
        if self.is_gm and combat_remote:
            self._reload_gm_combat()
            self._say("info", TEXTS["combat_reloaded"])
        elif not self.is_gm and combat_public and st.combat:
            restore_combat(self.tracker.combat, st.combat)
            self.tracker.render()
        if touched:
            self._push_into_combat()
        if notes:
            self._render_notes()
        self._add_log_entries()
        if any(e.kind == "table.closed" for e in events):
            self._render_header()

    def _own_combat_event(self, e) -> bool:
        st = e.payload.get("state") or {}
        ev = st.get("event") or {}
        mine = self.tracker.combat.events
        return e.actor == self.session.seat and bool(mine) and ev.get("seq") is not None and \
            ev.get("seq") < len(mine) and mine[ev["seq"]] == ev

    def _push_model(self, cid: str) -> None:
        data = self.session.state.characters.get(cid)
        model = self.models.get(cid)
        if data is None or model is None:
            return
        self._syncing += 1
        try:
            if jsonable(model.to_dict()) != data:
                model.load_dict(data)
        except ValueError:
            log.exception("character %s does not load", cid)
        finally:
            self._syncing -= 1

    def _add_character(self, cid: str) -> None:
        self._make_model(cid)
        sheet = CharacterSheet(self.models[cid], self.system, locale=self.locale, can=self._sheet_can(cid))
        self.sheets[cid] = sheet
        sheet.locale_toggle.layout.display = "none"
        self.sheet_tabs.children = list(self.sheet_tabs.children) + [sheet]
        self.sheet_tabs.set_title(len(self.sheet_tabs.children) - 1, self._character_name(cid))
        opts = [(self._character_name(c), c) for c in self.models]
        self.roll_for.options = opts
        self.combat_pick.options = opts

    # ==========================================================================================
    # rendering
    # ==========================================================================================
    @t.validate("locale")
    def _check_locale(self, proposal):
        if proposal["value"] not in LOCALES:
            raise t.TraitError(f"unknown locale {proposal['value']!r}: expected 'en' or 'ru'")
        return proposal["value"]

    @t.observe("locale")
    def _on_locale(self, change) -> None:
        loc = change["new"]
        if self.locale_toggle.value != loc:
            self.locale_toggle.value = loc
        for w in [*self.sheets.values(), self.tray, self.roll_log, self.tracker]:
            if w is not None and getattr(w, "locale", loc) != loc:
                w.locale = loc
        self._render_labels()

    def _render_labels(self) -> None:
        loc = self.locale
        self.locale_toggle.tooltip = _t("locale_tip", loc)
        self.locale_toggle.tooltips = ["English", "Русский"]
        if hasattr(self, "sheet_title"):
            key = "sheets" if self.is_gm else "your_sheet"
            self.sheet_title.value = f"<h2>{_esc(_t(key, loc))}</h2>"
            if getattr(self, "_no_character", None) is not None:
                self._no_character.value = f"<p><i>{_esc(_t('no_character', loc))}</i></p>"
        if self.tabs is not None:
            for i, key in enumerate(self._tab_keys):
                self.tabs.set_title(i, _t(key, loc))
        if self.hidden_toggle is not None:
            self.hidden_toggle.description = _t("hidden_roll", loc)
            self.hidden_toggle.tooltip = _t("hidden_roll_tip", loc)
            self.roll_for.description = _t("roll_for", loc)
            self.roll_for.tooltip = _t("roll_for_tip", loc)
        if self.combat_add is not None:
            self.combat_pick.description = _t("combat_who", loc)
            self.combat_pick.tooltip = _t("combat_add_tip", loc)
            self.combat_pick_hidden.description = _t("combat_hidden", loc)
            self.combat_add_button.description = _t("combat_add", loc)
            self.combat_add_button.tooltip = _t("combat_add_tip", loc)
        if self.notes_box is not None:
            self.note_title.description = _t("note_title", loc)
            self.note_text.placeholder = _t("note_text", loc)
            self.note_text.tooltip = _t("note_text", loc)
            self.note_button.description = _t("note_add", loc)
            self.note_button.tooltip = _t("notes_tip", loc)
            self._render_notes()
        self._render_header()
        self._render_status()

    def _render_header(self) -> None:
        loc = self.locale
        st = self.session.state
        title = st.title or _t("table", loc)
        badge = f'<span class="tt-seat-badge tt-seat-{self.role}" title="{_esc(_t("seat_tip", loc))}">' \
                f'{_esc(_t(self.role, loc))}: {_esc(self.session.name or self.session.seat)}</span>'
        self.title.value = (f'<h1>{_esc(title)}{badge}</h1>'
                            f'<span class="tt-sub">{_esc(tr(self.system.title, loc))}</span>')
        commit = f'{_esc(_t("commitment", loc))}: <span title="{_esc(_t("commitment_tip", loc))}">' \
                 f'{_esc(st.seed_hash[:16])}…</span>'
        if st.closed and st.seed:
            commit += f' · {_esc(_t("seed", loc))}: <span class="tt-seed">{_esc(st.seed)}</span>'
        self.commit.value = commit
        if st.closed:
            self._message = ("info", TEXTS["closed"])
            self._render_status()

    def _render_notes(self) -> None:
        if self.notes_box is None:
            return
        loc = self.locale
        self.notes_head.value = f'<h3 title="{_esc(_t("notes_tip", loc))}">{_esc(_t("notes", loc))}</h3>'
        notes = self.session.state.notes
        if not notes:
            self.notes_list.value = f"<i>{_esc(_t('note_empty', loc))}</i>"
            return
        items = "".join(
            "<li>" + (f'<span class="tt-note-title">{_esc(n.get("title"))}</span>' if n.get("title") else "")
            + f'{_esc(n.get("text", ""))}</li>' for n in notes)
        self.notes_list.value = f"<ul>{items}</ul>"

    def _say(self, kind: str | None, text: Mapping[str, str] | None):
        self._message = (kind, dict(text)) if kind and text else None
        self._render_status()
        return None

    def _refused(self, exc: BaseException):
        why = {loc: _error_text(exc, loc) for loc in LOCALES}
        return self._say("error", {loc: _t("refused", loc, why=why[loc]) for loc in LOCALES})

    def _render_status(self) -> None:
        if self._message is None:
            self.status.layout.display = "none"
            self.status.value = ""
            return
        kind, text = self._message
        cls = "tt-msg" if kind == "error" else "tt-msg tt-info"
        role = "alert" if kind == "error" else "status"
        self.status.value = f'<div class="{cls}" role="{role}">{_esc(tr(text, self.locale))}</div>'
        self.status.layout.display = None

    # -- the shared log -----------------------------------------------------------------------
    def _add_log_entries(self) -> None:
        st = self.session.state
        for entry in st.log:
            if entry["seq"] <= self._log_seq:
                continue
            self._log_seq = entry["seq"]
            self._log_entry(entry)

    def _who(self, seat: str) -> str:
        info = self.session.state.seats.get(seat) or {}
        return str(info.get("name") or seat)

    def _log_entry(self, e: Mapping[str, Any]) -> None:
        who = self._who(e.get("actor", ""))
        hidden = bool(e.get("hidden"))

        def mark(what: Mapping[str, str] | str) -> dict[str, str]:
            base = {loc: tr(what, loc) for loc in LOCALES}
            if hidden:
                return {loc: f"[{_t('hidden_mark', loc)}] {base[loc]}" for loc in LOCALES}
            return base

        kind = e.get("kind")
        if kind == "roll":
            r = e.get("result") or {}
            label = e.get("label") or e.get("expr") or r.get("expression", "")
            text = r.get("text") or e.get("text", "")
            passed = (r.get("check") or {}).get("passed")
            self.roll_log.add(who=who, what=mark(label), breakdown=text, success=passed)
        elif kind == "check":
            r = e.get("result") or {}
            roll = r.get("roll") or {}
            name = self._character_name(e.get("character_id") or "")
            what = {loc: f"{tr(r.get('label') or {}, loc)} · {name}" for loc in LOCALES}
            effects = "; ".join(f"{x.get('trait')} {x.get('delta'):+}" for x in r.get("effects") or ()
                                if isinstance(x.get("delta"), int))
            self.roll_log.add(who=who, what=mark(what), breakdown=roll.get("text", ""),
                         outcome=r.get("outcome") or "", success=r.get("success"), effects=effects)
        elif kind == "initiative":
            what = T("Initiative", "Инициатива")
            self.roll_log.add(who=who, what=mark(what), breakdown=e.get("text", ""))
        elif kind == "message":
            self.roll_log.add(who=who, what=e.get("text", ""))
        elif kind == "table.closed":
            self.roll_log.add(who=who, what=TEXTS["closed"], breakdown=e.get("text", ""))

    # ==========================================================================================
    def close(self) -> None:
        unsubscribe = getattr(self, "_unsubscribe", None)
        try:
            if unsubscribe is not None:
                self.session.stop()
                unsubscribe()
        finally:
            super().close()


def show_table(session, locale: str = "en", **kwargs: Any) -> TableView:
    """The seat's screen for ``session``; the notebook displays the returned widget."""
    return TableView(session, locale=locale, **kwargs)


__all__ = ["TableView", "TableTray", "TableCombat", "StoredRoll", "StoredCheck", "public_combat",
           "restore_combat", "secret_combatants", "show_table"]


def seat_error_page(error, locale: str = "en") -> widgets.HTML:
    """The page a link without a valid seat token gets: what is wrong and what to do, in both
    languages; nothing of the table is loaded (``TableSession.join`` refused before reading)."""
    message = getattr(error, "message", None) or {"en": str(error), "ru": str(error)}
    first, second = (locale, "ru" if locale == "en" else "en") if locale in LOCALES else ("en", "ru")
    head = T("No seat at this table", "Нет места за этим столом")
    body = (f'<div class="tt-seat-error" role="alert" style="max-width:640px;margin:40px auto;padding:18px 24px;'
            f'border:1px solid #f0b8b8;border-radius:12px;background:#fff4f4;color:#6b1414;'
            f"font-family:'DejaVu Sans',system-ui,sans-serif\">"
            f'<h2 style="margin:0 0 8px">{_esc(tr(head, first))}</h2>'
            f'<p style="font-size:1.1em">{_esc(message.get(first) or message.get("en", ""))}</p>'
            f'<p lang="{second}" style="color:#8a4a4a">{_esc(message.get(second) or "")}</p></div>')
    page = widgets.HTML(body)
    page.add_class("tt-seat-error-page")
    return page


__all__ += ["seat_error_page"]
