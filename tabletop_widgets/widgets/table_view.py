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

The view holds no game logic: what a seat may do or see, the stored roll and check records, the
GM's combat sync (with the players' projection and the fair-dice initiative) and the character
push/pull live in :mod:`tabletop_widgets.table` (``session``, ``records``, ``combat_sync``,
``audience``); the widgets here call them and render the answer.
"""

from __future__ import annotations

import html
import logging
from typing import Any, Callable, Mapping

import ipywidgets as widgets
import traitlets as t

from tabletop_widgets.core.combat import Combat
from tabletop_widgets.core.i18n import LOCALES, T, check_locale, tr
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import term_of
from tabletop_widgets.front import stylesheet
from tabletop_widgets.table import EventError, check as check_request
from tabletop_widgets.table.after_roll import may_amend
from tabletop_widgets.table.audience import combat_from_view
from tabletop_widgets.table.combat_sync import CombatSync, character_changes, push_characters, record_sheet
from tabletop_widgets.table.events import jsonable
from tabletop_widgets.table.records import (
    StoredCheck,
    StoredRoll,
    check_changes,
    dice_html,
    is_big,
    summary_html,
    summary_text,
)
from tabletop_widgets.table.seats import remember_locale, seat_locale, set_table_option, table_option

from . import language
from .base import locale_validator, text_lookup
from .log import RollLog
from .sheet import CharacterSheet
from .table_attack import TableAttacks
from .tracker import CombatTracker
from .tray import DiceTray, error_text
from .wizard import CreationWizard

log = logging.getLogger(__name__)

TEXTS: dict[str, dict[str, str]] = {
    "table": T("Table", "Стол"),
    "gm": T("{gm_title}", "{gm_title}"),
    "player": T("Player", "Игрок"),
    "observer": T("Observer", "Зритель"),
    "seat_tip": T("Your seat at this table", "Ваше место за этим столом"),
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
    "tab_sessions": T("Sessions", "Сессии"),
    "session_label": T("Session {n}", "Сессия {n}"),
    "session_commitment": T("Session {n} dice commitment", "Печать кубиков сессии {n}"),
    "session_seed": T("Session {n} dice key revealed", "Ключ кубиков сессии {n} раскрыт"),
    "session_open_status": T(
        "Session {n} is open: the dice commitment above is this session's.",
        "Идёт сессия {n}: печать кубиков выше — печать этой сессии.",
    ),
    "session_ended_status": T(
        "Session {n} has ended: its dice key is revealed above, so anyone can check its rolls. "
        "Nothing is rolled until the {gm} starts the next session.",
        "Сессия {n} окончена: её ключ кубиков раскрыт выше — любой может проверить её броски. "
        "Бросков нет, пока {gm} не начнёт следующую сессию.",
    ),
    "session_started_status": T(
        "Session {n} has started: a new dice commitment is shown above. Copy it.",
        "Началась сессия {n}: выше новая печать кубиков. Скопируйте её.",
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


_t = text_lookup(TEXTS)


_CSS = stylesheet("table")  # tabletop_widgets/front/table.css


def _texts(entry: Mapping[str, Any]) -> dict[str, str] | None:
    """A log entry's breakdown in every language, when the table recorded it so."""
    texts = entry.get("texts")
    if isinstance(texts, Mapping) and all(isinstance(texts.get(loc), str) for loc in LOCALES):
        return {loc: texts[loc] for loc in LOCALES}
    return None


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


# ----------------------------------------------------------------------------------------------
# The tray, routed through the session
# ----------------------------------------------------------------------------------------------
class TableTray(DiceTray):
    """A :class:`DiceTray` whose rolls go through the table session (fair dice, role and
    option checks, the outcome appended to the log; resource effects applied by the session in
    the same write). ``hidden()`` says whether the next roll is a hidden one."""

    def __init__(
        self,
        session,
        character_id: str | None,
        character: Any,
        *,
        hidden: Callable[[], bool] | None = None,
        **kwargs: Any,
    ):
        self.session = session
        self.character_id = character_id
        self.hidden_wanted = hidden or (lambda: False)
        self.check_index: int | None = None  # the roll index of the latest check rolled here
        kwargs.setdefault("can", self.allowed)
        super().__init__(character, system=session.system, **kwargs)
        self.add_class("tt-table-tray")

    def allowed(self, action: str) -> bool:
        s = self.session
        if action in ("roll_check", "roll_notation") and not s.state.closed and not s.session_open:
            return True  # between sessions: the session refuses, and says why
        if action == "roll_check":
            return (
                self.character_id is not None
                and s.can("check", self.character_id)
                and s.can("roll.hidden" if self.hidden_wanted() else "roll")
            )
        if action == "roll_notation":
            return s.can("roll.hidden" if self.hidden_wanted() else "roll")
        if action == "gm_options":
            return s.role == "gm"
        if action == "set_option":
            return s.can("roll")
        if action == "after_roll":  # the table's rules: this seat's latest check, once
            return self.check_index is not None and may_amend(s, self.check_index)
        return False

    def perform_check(self, check_id: str, options: Mapping[str, Any]):
        event = self.session.roll(
            check_request(check_id, self.character_id, **options), hidden=bool(self.hidden_wanted()), locale=self.locale
        )
        self.check_index = event.payload["index"]
        result = StoredCheck(event.payload)
        after = self.session.state.characters.get(self.character_id, {})
        return result, check_changes(result, after), None

    def perform_after_roll(self, previous, options: Mapping[str, Any]):
        """The table amends the latest check rolled here (``TableSession.after_roll``: checked
        and recorded there); the tray shows the result as the table recorded it."""
        if self.check_index is None:
            raise RuleError("no_after_roll", TEXTS["after_nothing"])
        before = dict(self.session.state.characters.get(self.character_id) or {})
        event = self.session.after_roll(self.check_index, locale=self.locale, **dict(options))
        result = StoredCheck(dict(event.payload, character=before))
        after = self.session.state.characters.get(self.character_id, {})
        return result, check_changes(result, after), None

    def perform_roll(self, text: str):
        # only the numbers go into the log (the tray also passes the character object, for
        # system words that roll named checks; the session's roll records plain JSON)
        variables = {k: v for k, v in self.variables().items() if isinstance(v, int) and not isinstance(v, bool)}
        event = self.session.roll(text, hidden=bool(self.hidden_wanted()), variables=variables, locale=self.locale)
        p = event.payload
        return StoredRoll(p["result"], p.get("texts") or {self.locale: p.get("text", "")})


# ----------------------------------------------------------------------------------------------
# The creation wizard a player making their character follows
# ----------------------------------------------------------------------------------------------
def creation_wizard(view: "TableView", character_id: str) -> CreationWizard:
    """The wizard a player's seat shows for their character in creation
    (``TableView.creation_guide``): it edits the view's model of the character, so every edit
    takes the sheet's seat path (the table checks and records it, or puts it back); Finish is
    ``TableSession.finish_character``. ``refresh()`` follows the view's language."""
    wizard = CreationWizard(
        view.models[character_id],
        view.system,
        locale=view.locale,
        can=view._sheet_can(character_id),
        start_play=lambda _c: view.session.finish_character(character_id),
    )
    wizard.locale_toggle.layout.display = "none"  # the screen's one switch rules
    shown = wizard.refresh

    def refresh() -> None:
        if wizard.locale != view.locale:
            wizard.locale = view.locale
        shown()

    wizard.refresh = refresh  # type: ignore[method-assign]
    return wizard


# ----------------------------------------------------------------------------------------------
# The view
# ----------------------------------------------------------------------------------------------
class TableView(widgets.VBox):
    """One seat's screen at a shared table (class ``tt-table-view``).

    Parameters
    ----------
    session : TableSession
        The seat (``TableSession.from_voila()`` in a Voila page).
    locale : {"en", "ru"}, optional
        Not given: the language the seat chose last time (remembered with the seat), else the
        page's. The screen's one EN/RU switch switches everything on it, the page's language
        with it, and is remembered for the seat.
    follow : bool
        Start the session's follower (an asyncio task in the kernel's loop) so other seats'
        actions appear without interaction. Tests call ``session.poll()`` instead.
    animate : bool
        Tumble the tray's dice.
    """

    locale = t.Unicode("en", help="Language of the whole screen: 'en' or 'ru'")

    def __init__(self, session, *, locale: str | None = None, follow: bool = True, animate: bool = True, **kwargs: Any):
        if locale is None:
            locale = seat_locale(session) or language.page_language().locale
        check_locale(locale)
        self.session = session
        self.system = session.system
        self.role = session.role
        self.is_gm = session.role == "gm"
        self._animate = animate
        self._syncing = 0
        self._log_seq = 0
        self._message: tuple[str, dict] | None = None
        self.models: dict[str, Any] = {}
        self.sheets: dict[str, CharacterSheet] = {}
        self.tray: TableTray | None = None
        self.hidden_toggle: widgets.Checkbox | None = None
        self.roll_for: widgets.Dropdown | None = None
        self.notes_box: widgets.VBox | None = None
        self.combat_add: widgets.HBox | None = None
        self.seats_box: widgets.VBox | None = None
        self.sessions_box: widgets.VBox | None = None
        self._confirming: str | None = None  # "end" / "start": the GM's session step awaiting a yes
        self._session_seen = (session.state.session, session.state.session_open)
        self.replaced = False
        self.creation_box: widgets.VBox | None = None  # a player's: the creation steps or a note
        self._building: bool | None = None
        self._guide_kind: str | None = None

        self.style_block = widgets.HTML(_CSS)
        self.style_block.add_class("tt-style")
        self.title = widgets.HTML()
        self.title.add_class("tt-table-title")
        self.commit = widgets.HTML()
        self.commit.add_class("tt-table-commit")
        self.locale_toggle = widgets.ToggleButtons(
            options=[("EN", "en"), ("RU", "ru")], value=locale, style={"button_width": "44px"}
        )
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
        self.roll_log = RollLog(
            locale=locale, title=TEXTS["log_title"], can=lambda a: a in ("add", "filter") and session.can("read")
        )
        self.roll_log.add_class("tt-table-log")
        self.table_attacks = TableAttacks(self)  # the Attack part at the table, the defender's questions
        self._build_tracker(locale)
        parts: list[widgets.Widget] = [self.style_block, header, self.status]
        # the table at a glance (the fight, the log) on top; the seat's tools in tabs below
        self.combat_column = widgets.VBox([self.tracker, self.table_attacks.box])
        self.combat_column.add_class("tt-table-combat")
        self.transcripts = widgets.HTML()
        self.transcripts.add_class("tt-transcripts")
        self._transcript_cache: dict[tuple[int, str, str], str] = {}
        self.log_column = widgets.VBox([self.roll_log, self.transcripts])
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
            self._build_seats()
            self._build_sessions()
            self.combat_column.children = [self.tracker, self.table_attacks.box, self.combat_add]
            self._tab_keys = ["tab_dice", "sheets", "notes", "tab_seats", "tab_sessions"]
            self.tabs = widgets.Tab(
                children=[self.tray_box, self.sheet_area, self.notes_box, self.seats_box, self.sessions_box]
            )
        elif self.role == "player":
            self._build_sheet_tabs(locale)
            self._build_tray(locale)
            self._tab_keys = ["tab_dice", "your_sheet"]
            self.tabs = widgets.Tab(children=[self.tray_box, self.sheet_area])
        if self.tabs is not None:
            # sheets are built when they are first shown (a sheet is hundreds of widgets, and the
            # screen opens on the Dice tab)
            self.tabs.observe(lambda _ch: self._show_sheet(), names="selected_index")
        if self.tabs is not None:
            self.tabs.add_class("tt-table-tabs")
            parts.append(self.tabs)
        self.children = parts
        if self._render_creation() and self.tabs is not None:  # an unfinished character to build
            self.tabs.selected_index = self._tab_keys.index("your_sheet")
        # one language switch for the whole screen; the log is the table's (nothing to clear)
        self.roll_log.clear_button.layout.display = "none"
        self._hide_inner_toggles()

        self.locale = locale
        self.locale_toggle.observe(lambda ch: self.choose_locale(ch["new"]), names="value")
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

    def _sheet_perform(self, cid: str) -> Callable[[Any, list], Any]:
        """How the sheet's rules actions run at the table: Finish character is the table's own
        seat action (``TableSession.finish_character``, checked and recorded there; the model
        follows the event); any other action runs on the model and is recorded as its changes."""

        def perform(action, args: list) -> Any:
            if action.method_name == "start_play":
                return self.session.finish_character(cid)
            return action.bound(self.system)(*args)

        return perform

    def _new_sheet(self, cid: str, locale: str) -> CharacterSheet:
        s = self.session
        sheet = CharacterSheet(
            self.models[cid],
            self.system,
            locale=locale,
            can=self._sheet_can(cid),
            perform=self._sheet_perform(cid),
            # the Advancement part: the table's seat actions (checked and recorded there)
            advance=lambda advance_id, **options: s.advance(cid, advance_id, **options),
            award=lambda resource, amount: s.award(cid, resource, amount),
        )
        self.sheets[cid] = sheet
        return sheet

    def _build_sheet_tabs(self, locale: str) -> None:
        ids = list(self.models)
        self.sheet_title = widgets.HTML()
        self.sheet_title.add_class("tt-table-section-title")
        # one empty slot per character; :meth:`sheet` fills a slot when its tab is shown
        self._sheet_slots: dict[str, widgets.VBox] = {cid: self._sheet_slot() for cid in ids}
        if self.is_gm:
            self.sheet_tabs = widgets.Tab(children=[self._sheet_slots[c] for c in ids])
            for i, cid in enumerate(ids):
                self.sheet_tabs.set_title(i, self._character_name(cid))
            self.sheet_tabs.add_class("tt-table-sheets")
            self.sheet_tabs.observe(lambda _ch: self._show_sheet(), names="selected_index")
            body: widgets.Widget = self.sheet_tabs
        elif ids:
            self.creation_box = widgets.VBox(layout=widgets.Layout(display="none"))
            self.creation_box.add_class("tt-creation")
            body = widgets.VBox([self.creation_box, self._sheet_slots[ids[0]]])
        else:
            body = widgets.HTML()
            body.add_class("tt-no-character")
            self._no_character = body
        self.sheet_area = widgets.VBox([body])
        self.sheet_area.add_class("tt-table-sheet-area")

    @staticmethod
    def _sheet_slot() -> widgets.VBox:
        slot = widgets.VBox()
        slot.add_class("tt-table-sheet-slot")
        return slot

    def sheet(self, cid: str) -> CharacterSheet:
        """The sheet of character ``cid`` that this seat may see, built on first use (the page
        builds it when its tab is first shown). ``KeyError`` for any other id."""
        if cid not in self.models:
            raise KeyError(cid)
        sheet = self.sheets.get(cid)
        if sheet is None:
            sheet = self._new_sheet(cid, self.locale)
            sheet.locale_toggle.layout.display = "none"
            self._sheet_slots[cid].children = [sheet]
        return sheet

    def _show_sheet(self) -> None:
        """Build the sheet the seat is looking at: a player's with the "Your character" tab
        open; a GM's with the Characters tab open and that character's tab selected. Indexes
        come from the browser: anything out of range shows nothing."""
        key = "sheets" if self.is_gm else "your_sheet"
        if self.tabs is None or self.tabs.selected_index != self._tab_keys.index(key):
            return
        ids = list(self._sheet_slots)
        index = self.sheet_tabs.selected_index if self.is_gm else 0
        if isinstance(index, int) and 0 <= index < len(ids):
            self.sheet(ids[index])

    def _build_tray(self, locale: str) -> None:
        bar: list[widgets.Widget] = []
        if self.is_gm:
            self.hidden_toggle = widgets.Checkbox(value=False, indent=False)
            self.hidden_toggle.add_class("tt-hidden-roll")
            self.hidden_toggle.observe(self._on_hidden_toggle, names="value")
            opts = [(self._character_name(c), c) for c in self.models]
            self.roll_for = widgets.Dropdown(
                options=opts, value=opts[0][1] if opts else None, style={"description_width": "initial"}
            )
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
        self.tray = TableTray(
            self.session,
            cid if character is not None else None,
            character,
            hidden=self._hidden_wanted,
            locale=locale,
            animate=self._animate,
            who=self.session.name or self.session.seat,
        )
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
            self.sync = CombatSync(s, on_reload=self._on_combat_reloaded, on_refused=self._refused)
            self.sync.locale = locale
            self.tracker = CombatTracker(
                combat=self.sync.combat, locale=locale, audience="gm", can=lambda action: s.can("combat")
            )
        else:
            self.sync = None
            combat = Combat(self.system)
            if s.state.combat:
                try:
                    combat_from_view(self.system, s.state.combat, into=combat)
                except Exception:  # a bad payload must not take the page down
                    log.exception("combat state does not load")
            # players act on the combat only by attacking with their own character on its turn
            # (through the table: the GM's page rolls it); every other action is refused in Python
            may = self.table_attacks.may_attack
            self.tracker = CombatTracker(
                combat=combat, locale=locale, audience="player", can=lambda action: action == "attack" and may()
            )
            self.tracker.add_class("tt-player-tracker")
        self.tracker.add_class("tt-table-tracker")
        self.table_attacks.install(self.tracker)
        self._push_into_combat()

    def _build_notes(self) -> None:
        self.note_title = widgets.Text(style={"description_width": "initial"}, layout=widgets.Layout(width="100%"))
        self.note_title.add_class("tt-note-title-input")
        self.note_text = widgets.Textarea(layout=widgets.Layout(width="100%"))
        self.note_text.add_class("tt-note-text")
        self.note_button = widgets.Button(button_style="warning")
        self.note_button.add_class("tt-note-add")
        self.note_button.on_click(lambda _b: self.add_note())
        self.notes_head = widgets.HTML()
        self.notes_list = widgets.HTML()
        self.notes_list.add_class("tt-note-list")
        self.notes_box = widgets.VBox(
            [self.notes_head, self.notes_list, self.note_title, self.note_text, self.note_button]
        )
        self.notes_box.add_class("tt-gm-notes")

    def _build_seats(self) -> None:
        """GM: give a seat a new link (the old one stops working at once); whether players
        build their own characters."""
        others = [s for s in self.session.store.seats(self.session.table_id) if s.seat != self.session.seat]
        self._other_seats = others
        self.seat_pick = widgets.Dropdown(
            options=self._seat_options(self.locale), style={"description_width": "initial"}
        )
        self.seat_pick.add_class("tt-seat-pick")
        self.reissue_button = widgets.Button(button_style="danger", disabled=not others)
        self.reissue_button.add_class("tt-seat-reissue")
        self.reissue_button.on_click(lambda _b: self.reissue_link())
        self.seats_help = widgets.HTML()
        self.new_link = widgets.HTML()
        self.new_link.add_class("tt-seat-new-link")
        self.players_build = widgets.Checkbox(
            value=table_option(self.session, "players_build"), indent=False, layout=widgets.Layout(width="auto")
        )
        self.players_build.add_class("tt-players-build")
        self.players_build.observe(self._on_players_build, names="value")
        self.seats_box = widgets.VBox(
            [self.seats_help, widgets.HBox([self.seat_pick, self.reissue_button]), self.new_link, self.players_build]
        )
        self.seats_box.add_class("tt-gm-seats")

    def _build_sessions(self) -> None:
        """GM: end tonight's session, start the next one (each after a confirm step), and the
        campaign's sessions with their verification."""
        self.session_status = widgets.HTML()
        self.session_status.add_class("tt-session-status")
        self.session_end_button = widgets.Button(button_style="warning")
        self.session_end_button.add_class("tt-session-end")
        self.session_end_button.on_click(lambda _b: self.ask_session("end"))
        self.session_start_button = widgets.Button(button_style="success")
        self.session_start_button.add_class("tt-session-start")
        self.session_start_button.on_click(lambda _b: self.ask_session("start"))
        self.session_confirm_text = widgets.HTML()
        self.session_confirm_text.add_class("tt-session-confirm-text")
        self.session_yes = widgets.Button(button_style="danger")
        self.session_yes.add_class("tt-session-confirm")
        self.session_yes.on_click(lambda _b: self.confirm_session())
        self.session_no = widgets.Button()
        self.session_no.add_class("tt-session-cancel")
        self.session_no.on_click(lambda _b: self.cancel_session())
        self.session_confirm = widgets.VBox(
            [self.session_confirm_text, widgets.HBox([self.session_yes, self.session_no])],
            layout=widgets.Layout(display="none"),
        )
        self.session_confirm.add_class("tt-session-confirm-box")
        self.session_list = widgets.HTML()
        self.session_list.add_class("tt-session-list")
        self._session_reports: list | None = None
        self.sessions_box = widgets.VBox(
            [
                self.session_status,
                widgets.HBox([self.session_end_button, self.session_start_button]),
                self.session_confirm,
                self.session_list,
            ]
        )
        self.sessions_box.add_class("tt-gm-sessions")

    def _seat_options(self, loc: str) -> list[tuple[str, str]]:
        """A seat as the GM knows it: its name and its role («Пётр — игрок»), never its id."""
        words = self._w(loc)
        role = {"gm": words["gm"], "player": _t("player", loc).lower(), "observer": _t("observer", loc).lower()}
        return [(f"{s.name or s.seat} — {role.get(s.role, s.role)}", s.seat) for s in self._other_seats]

    def _build_combat_add(self) -> None:
        self.combat_pick = widgets.Dropdown(
            options=[(self._character_name(c), c) for c in self.models], style={"description_width": "initial"}
        )
        self.combat_pick.add_class("tt-combat-pick")
        self.combat_pick_hidden = widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto"))
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
        except (PermissionError, EventError) as exc:
            return self._refused(exc)
        self.note_text.value = ""
        self.note_title.value = ""
        self._say(None, None)
        return event

    def reissue_link(self, seat: str | None = None, base: str | None = None) -> str | None:
        """GM: a new link for ``seat`` (the old one stops working at once); shown once."""
        from tabletop_widgets.table.seats import link
        from .lobby import default_base

        if not self.session.can("seat.manage"):
            return self._say("error", TEXTS["not_allowed"])
        seat = seat or self.seat_pick.value
        if not seat:
            return None
        try:
            token = self.session.reissue_seat(seat)
        except (PermissionError, EventError) as exc:
            return self._refused(exc)
        url = link(self.session.table_id, token, default_base() if base is None else base)
        who = {v: k for k, v in self.seat_pick.options}.get(seat, seat) if self.seats_box is not None else seat
        self._new_link = (who, url)
        self._render_new_link()
        self._say(None, None)
        return url

    def _render_new_link(self) -> None:
        made = getattr(self, "_new_link", None)
        if self.seats_box is None or made is None:
            return
        who, url = made
        self.new_link.value = (
            f'<p>{_esc(_t("reissued", self.locale, who=who))}</p><code class="tt-hash tt-link">{_esc(url)}</code>'
        )

    def ask_session(self, step: str) -> None:
        """GM: the first press of *End tonight's session* / *Start the next session*: shows
        what it will do and asks for a yes (:meth:`confirm_session`)."""
        if step not in ("end", "start") or not self.session.can("session.manage"):
            self._say("error", TEXTS["not_allowed"])
            return
        self._confirming = step
        self._render_sessions()

    def cancel_session(self) -> None:
        self._confirming = None
        self._render_sessions()

    def confirm_session(self):
        """GM: the yes of the confirm step: ends or starts the session (the table layer checks
        the role and the session's state again). Returns the event, or None."""
        step, self._confirming = self._confirming, None
        if step is None or not self.session.can("session.manage"):
            self._render_sessions()
            return self._say("error", TEXTS["not_allowed"]) if step is not None else None
        try:
            event = self.session.end_session() if step == "end" else self.session.start_session()
        except (PermissionError, EventError) as exc:
            self._refused(exc)
            self._render_sessions()
            return None
        self._session_reports = None  # the list verifies the ended session anew
        self._render_sessions()
        return event

    def bring_into_combat(self, cid: str | None = None, hidden: bool | None = None):
        """GM: put a table character into the combat tracker (as combatant ``cid``)."""
        if not self.session.can("combat"):
            return self._say("error", TEXTS["not_allowed"])
        cid = cid or self.combat_pick.value
        hidden = self.combat_pick_hidden.value if hidden is None else hidden
        if cid not in self.session.state.characters:
            return None
        character, name = self.sync.table_character(cid)
        return self.tracker.add_combatant(character, name=name, cid=cid, hidden=bool(hidden))

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

    def _on_players_build(self, change) -> None:
        """GM: players build their own characters (or not): for every seat, at once."""
        if self._syncing:
            return
        try:
            if not self.session.can("table.configure"):
                raise PermissionError("table.configure")
            set_table_option(self.session, "players_build", bool(change["new"]))
        except (PermissionError, EventError, ValueError, TypeError) as exc:
            if isinstance(exc, PermissionError) and not getattr(exc, "message", None):
                self._say("error", TEXTS["not_allowed"])
            else:
                self._refused(exc)
            self._syncing += 1
            try:  # the box springs back to what the table holds
                self.players_build.value = table_option(self.session, "players_build")
            finally:
                self._syncing -= 1

    def _on_model_change(self, cid: str) -> None:
        """A sheet edit (or a rules action) changed the character: record it, or put it back."""
        if cid == self.session.character_id:
            self._render_creation()
        if self._syncing:
            return
        stored = self.session.state.characters.get(cid, {})
        if not character_changes(stored, self.models[cid].to_dict()):
            return
        if not self.session.can("character.edit", cid):
            self._say("error", TEXTS["closed"] if self.session.state.closed else TEXTS["not_allowed"])
            self._push_model(cid)
            return
        try:
            record_sheet(self.session, cid, self.models[cid].to_dict(), reason="sheet")
        except (PermissionError, EventError, ValueError) as exc:
            self._refused(exc)
            self._push_model(cid)

    def _push_into_combat(self) -> None:
        """Table characters in the combat take their values from the table (sheet edits)."""
        if push_characters(self.session, self.tracker.combat):
            self.tracker.render()

    def _on_combat_reloaded(self, combat) -> None:
        """The GM's combat was rebuilt from the log: a new tracker shows it."""
        old = self.tracker
        self.tracker = CombatTracker(
            combat=combat, locale=self.locale, audience="gm", can=lambda action: self.session.can("combat")
        )
        self.tracker.add_class("tt-table-tracker")
        self.table_attacks.install(self.tracker)
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
        options = False
        for e in events:
            if e.kind in ("character.set", "character.update"):
                touched.add(e.payload.get("character_id"))
            elif e.kind == "combat.state":
                if e.audience == "gm":
                    combat_remote = combat_remote or not self.sync.is_own(e)
                else:
                    combat_public = True
            elif e.kind == "note":
                notes = True
            elif e.kind == "table.option":
                options = True
        if any(e.kind in ("session.ended", "session.started", "table.closed") for e in events):
            self._session_reports = None
            self._on_session_changed()
        for cid in touched:
            if cid in self.models:
                self._push_model(cid)
            elif cid in st.characters and self.is_gm:
                self._add_character(cid)
        if self.is_gm and combat_remote:
            self.sync.reload()
            self._say("info", TEXTS["combat_reloaded"])
        elif not self.is_gm and combat_public and st.combat:
            combat_from_view(self.system, st.combat, into=self.tracker.combat)
            push_characters(self.session, self.tracker.combat)
            self.tracker.render()
        if touched:
            self._push_into_combat()
        if notes:
            self._render_notes()
        if options or touched:
            self._render_options()
        self.table_attacks.on_events(events)
        self._add_log_entries()
        if (
            any(e.kind == "seat.reissued" and e.payload.get("seat") == self.session.seat for e in events)
            and self.session.link_replaced()
        ):
            self.link_was_replaced()
        self._render_header()

    def _on_session_changed(self) -> None:
        """A session ended or started: every seat is told (the status line), the GM's sessions
        tab is redrawn, and the tray's buttons follow."""
        st = self.session.state
        now = (st.session, st.session_open)
        if now == self._session_seen or st.closed:
            self._session_seen = now
            self._render_sessions()
            self._render_transcripts()
            return
        self._session_seen = now
        self._render_transcripts()
        key = "session_ended_status" if not st.session_open else "session_started_status"
        self._message = ("info", {loc: _t(key, loc, n=st.session, **self._w(loc)) for loc in LOCALES})
        self._render_status()
        self._render_sessions()
        if self.tray is not None:
            render = getattr(self.tray, "render", None)
            if callable(render):
                render()

    def link_was_replaced(self) -> None:
        """The GM gave this seat a new link: stop following the table and say so."""
        self.replaced = True
        self.session.stop()
        self._message = ("error", self._text("link_replaced"))
        self._render_status()

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
        self._sheet_slots[cid] = self._sheet_slot()
        self.sheet_tabs.children = list(self.sheet_tabs.children) + [self._sheet_slots[cid]]
        self.sheet_tabs.set_title(len(self.sheet_tabs.children) - 1, self._character_name(cid))
        self._show_sheet()
        opts = [(self._character_name(c), c) for c in self.models]
        self.roll_for.options = opts
        self.combat_pick.options = opts

    # ==========================================================================================
    # rendering
    # ==========================================================================================
    def _w(self, loc: str) -> dict[str, str]:
        """The table's game's words for the GM (RET «мастер», Seasons «Рассказчик»)."""
        return {key: term_of(self.system, key, loc) for key in ("gm", "gm_title", "gm_gen")}

    def _text(self, key: str) -> dict[str, str]:
        """``TEXTS[key]`` in both languages, with the table's words for the GM."""
        return {loc: _t(key, loc, **self._w(loc)) for loc in LOCALES}

    _check_locale = locale_validator()

    def choose_locale(self, locale: str) -> None:
        """The seat chose ``locale`` (the screen's switch): everything on the page switches
        (this screen, and the page's language) and the seat remembers it."""
        if locale not in LOCALES:  # a forged value: the switch goes back
            self.locale_toggle.value = self.locale
            return
        self.locale = locale
        language.page_language().locale = locale
        if not self.replaced:
            remember_locale(self.session, locale)

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
        self.table_attacks.relabel()
        self.locale_toggle.tooltip = _t("locale_tip", loc)
        self.locale_toggle.tooltips = ["English", "Русский"]
        if hasattr(self, "sheet_title"):
            key = "sheets" if self.is_gm else "your_sheet"
            self.sheet_title.value = f"<h2>{_esc(_t(key, loc))}</h2>"
            if getattr(self, "_no_character", None) is not None:
                self._no_character.value = f"<p><i>{_esc(_t('no_character', loc, **self._w(loc)))}</i></p>"
        if self.tabs is not None:
            for i, key in enumerate(self._tab_keys):
                title = term_of(self.system, "dice", loc) if key == "tab_dice" else _t(key, loc, **self._w(loc))
                self.tabs.set_title(i, title)
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
            self.note_button.tooltip = _t("notes_tip", loc, **self._w(loc))
            self._render_notes()
        if self.seats_box is not None:
            self.seats_help.value = f'<p class="tt-hint-text">{_esc(_t("seats_help", loc))}</p>'
            self.players_build.description = _t("players_build", loc)
            self.players_build.tooltip = _t("players_build_tip", loc)
            self.seat_pick.description = _t("seat_pick", loc)
            value = self.seat_pick.value
            self.seat_pick.options = self._seat_options(loc)
            self.seat_pick.value = value
            self.reissue_button.description = _t("reissue", loc)
            self.reissue_button.tooltip = _t("reissue_tip", loc)
            self._render_new_link()
        self._render_sessions()
        self._render_transcripts()
        self._render_creation()
        self._render_header()
        self._render_status()

    def _render_header(self) -> None:
        loc = self.locale
        st = self.session.state
        title = st.title or _t("table", loc)
        badge = (
            f'<span class="tt-seat-badge tt-seat-{self.role}" title="{_esc(_t("seat_tip", loc))}">'
            f"{_esc(_t(self.role, loc, **self._w(loc)))}: {_esc(self.session.name or self.session.seat)}</span>"
        )
        self.title.value = (
            f'<h1>{_esc(title)}{badge}</h1><span class="tt-sub">{_esc(tr(self.system.title, loc))}</span>'
        )
        # the fair-dice proof every seat keeps: the full commitment and the head it has reached
        n = st.session
        label = "session_commitment" if len(st.session_list()) > 1 or not st.session_open else "commitment"
        rows = [(label, self.session.commitment, "tt-commitment"), ("head", self.session.head, "tt-head")]
        current = st.session_list()[-1]
        if current.get("seed"):  # the session ended (or the table closed): its key is public
            rows.append(("session_seed" if label == "session_commitment" else "seed", current["seed"], "tt-seed"))
        tips = {"session_commitment": "commitment_tip"}
        commit = "".join(
            f'<div class="tt-proof-row" title="{_esc(self._tip(tips.get(key, key + "_tip"), loc))}">'
            f'<span class="tt-proof-label">{_esc(_t(key, loc, n=n))}:</span> '
            f'<code class="tt-hash {cls}">{_esc(value)}</code></div>'
            for key, value, cls in rows
        )
        self.commit.value = f'<div class="tt-proof" title="{_esc(_t("proof_help", loc))}">{commit}</div>'
        if self.replaced:
            self._message = ("error", self._text("link_replaced"))
            self._render_status()
        elif st.closed:
            self._message = ("info", TEXTS["closed"])
            self._render_status()
        elif not st.session_open and self._message is None:
            # a page opened between sessions says so (a page open at the time was told)
            self._message = ("info", {lc: _t("session_ended_status", lc, n=n, **self._w(lc)) for lc in LOCALES})
            self._render_status()

    def _render_transcripts(self) -> None:
        """Links to download each ended session's transcript as this seat saw it (Markdown, or
        a self-contained web page), in the screen's language; built once per session and
        language (an ended session does not change)."""
        import base64

        from tabletop_widgets.table.campaign import sessions
        from tabletop_widgets.table.transcript import session_transcript

        loc = self.locale
        ended = [s for s in sessions(self.session.state) if not s.is_open]
        if not ended:
            self.transcripts.value = ""
            return
        rows = []
        for s in ended:
            links = []
            for fmt, mime, key in (("md", "text/markdown", "transcript_md"), ("html", "text/html", "transcript_html")):
                data = self._transcript_cache.get((s.n, loc, fmt))
                if data is None:
                    try:
                        text = session_transcript(self.session, s.n, fmt=fmt, locale=loc)
                    except Exception:  # a transcript must not take the page down
                        log.exception("transcript of session %s failed", s.n)
                        continue
                    data = base64.b64encode(text.encode("utf-8")).decode("ascii")
                    self._transcript_cache[(s.n, loc, fmt)] = data
                name = f"session-{s.n}.{fmt}"
                links.append(
                    f'<a download="{name}" href="data:{mime};charset=utf-8;base64,{data}" '
                    f'class="tt-transcript-{fmt}" data-session="{s.n}">{_esc(_t(key, loc))}</a>'
                )
            rows.append(f"<li>{_esc(_t('transcript_row', loc, n=s.n))} {' · '.join(links)}</li>")
        self.transcripts.value = (
            f'<div title="{_esc(_t("transcript_tip", loc))}"><b>{_esc(_t("transcripts", loc))}</b>'
            f"<ul>{''.join(rows)}</ul></div>"
        )

    def _tip(self, key: str, loc: str) -> str:
        return _t(key, loc, **self._w(loc)) if key in TEXTS else ""

    def _render_sessions(self) -> None:
        """The GM's sessions tab: where the campaign is, the two steps and their confirm, and
        every session with its verification (the table layer verifies; this draws)."""
        if self.sessions_box is None:
            return
        from tabletop_widgets.table.campaign import session_reports

        loc = self.locale
        st = self.session.state
        n = st.session
        words = self._w(loc)
        key = "session_open_status" if st.session_open else "session_ended_status"
        self.session_status.value = f'<p class="tt-hint-text" role="status">{_esc(_t(key, loc, n=n, **words))}</p>'
        manage = self.session.can("session.manage")
        self.session_end_button.description = _t("session_end", loc)
        self.session_end_button.tooltip = _t("session_end_tip", loc)
        self.session_end_button.disabled = not (manage and st.session_open)
        self.session_start_button.description = _t("session_start", loc)
        self.session_start_button.tooltip = _t("session_start_tip", loc)
        self.session_start_button.disabled = not (manage and not st.session_open)
        step = self._confirming
        if step == "end" and not st.session_open or step == "start" and st.session_open:
            step = self._confirming = None  # the table moved on meanwhile
        if step is None:
            self.session_confirm.layout.display = "none"
        else:
            what = "session_confirm_end" if step == "end" else "session_confirm_start"
            self.session_confirm_text.value = (
                f'<p class="tt-msg tt-info" role="alert">{_esc(_t(what, loc, n=n if step == "end" else n + 1))}</p>'
            )
            self.session_yes.description = _t("session_yes_end" if step == "end" else "session_yes_start", loc)
            self.session_no.description = _t("session_cancel", loc)
            self.session_confirm.layout.display = None
        if self._session_reports is None:
            try:
                self._session_reports = session_reports(self.session.store, self.session.table_id)
            except Exception:  # the list must not take the page down
                log.exception("session reports failed")
                self._session_reports = []
        rows = []
        for r in self._session_reports:
            when = _when(r.started, loc) + (f" – {_when(r.ended, loc)}" if r.ended else "")
            if r.ok is None:
                verdict, cls = _t("session_running", loc), "tt-session-open"
            elif r.ok:
                verdict, cls = "✓ " + _t("session_verified", loc), "tt-session-ok"
            else:
                verdict, cls = "✗ " + _t("session_failed", loc, why="; ".join(r.problems[:2])), "tt-session-bad"
            rows.append(
                f'<tr class="{cls}" data-session="{r.n}"><td>{_esc(_t("session_label", loc, n=r.n))}</td>'
                f"<td>{_esc(when)}</td><td>{'' if r.rolls is None else r.rolls}</td>"
                f'<td><code class="tt-hash">{_esc(r.commitment)}</code></td><td>{_esc(verdict)}</td></tr>'
            )
        head = "".join(
            f"<th>{_esc(_t(k, loc))}</th>"
            for k in (
                "sessions_col_n",
                "sessions_col_when",
                "sessions_col_rolls",
                "sessions_col_commitment",
                "sessions_col_check",
            )
        )
        self.session_list.value = (
            f"<h3>{_esc(_t('sessions_past', loc))}</h3><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(reversed(rows))}</tbody></table>"
        )

    #: What a player making their character is shown: ``make(view, character_id) -> widget``
    #: (refreshed through its ``refresh()`` when the character or the language changes); the
    #: creation wizard (:func:`creation_wizard`), whose steps and checks are the rules'
    #: (:class:`~tabletop_widgets.core.wizard.Wizard`).
    creation_guide: Callable[["TableView", str], widgets.Widget]

    def _render_options(self) -> None:
        """The GM's table options as the table holds them (the box, the players' guides)."""
        box = getattr(self, "players_build", None)
        if box is not None:
            self._syncing += 1
            try:
                box.value = table_option(self.session, "players_build")
            finally:
                self._syncing -= 1
        was = self._building
        if self._render_creation() and self.tabs is not None and was is False:
            self.tabs.selected_index = self._tab_keys.index("your_sheet")  # the GM just allowed it

    def _render_creation(self) -> bool:
        """A player's character in creation: the creation wizard above the sheet (when the GM
        lets players make their characters), or a note that the GM prepares it. Returns whether
        the player makes it now."""
        box = getattr(self, "creation_box", None)
        cid = self.session.character_id
        if box is None or cid not in self.models:
            return False
        loc = self.locale
        unfinished = getattr(self.models[cid], "phase", "play") == "creation"
        builds = unfinished and table_option(self.session, "players_build")
        if not unfinished:
            kind = None
        else:
            kind = "build" if builds else "wait"
        if kind is None:
            box.layout.display = "none"
            for old in box.children:
                old.close()
            box.children = []
            self._guide_kind = None
        elif kind == "wait":
            note = widgets.HTML(
                f'<p class="tt-hint-text tt-gm-prepares" role="status">{_esc(_t("gm_prepares", loc, **self._w(loc)))}</p>'
            )
            self._set_creation(box, [note], kind)
        else:
            guide = self._guide if self._guide_kind == "build" else type(self).creation_guide(self, cid)
            refresh = getattr(guide, "refresh", None)
            if callable(refresh):
                refresh()
            self._guide = guide
            self._set_creation(box, [guide], kind)
        self._building = builds
        return builds

    def _set_creation(self, box, children, kind) -> None:
        for old in box.children:
            if old not in children:
                old.close()
        box.children = children
        box.layout.display = None
        self._guide_kind = kind

    def _render_notes(self) -> None:
        if self.notes_box is None:
            return
        loc = self.locale
        self.notes_head.value = (
            f'<h3 title="{_esc(_t("notes_tip", loc, **self._w(loc)))}">{_esc(_t("notes", loc, **self._w(loc)))}</h3>'
        )
        notes = self.session.state.notes
        if not notes:
            self.notes_list.value = f"<i>{_esc(_t('note_empty', loc))}</i>"
            return
        items = "".join(
            "<li>"
            + (f'<span class="tt-note-title">{_esc(n.get("title"))}</span>' if n.get("title") else "")
            + f"{_esc((n.get('texts') or {}).get(loc) or n.get('text', ''))}</li>"
            for n in notes
        )
        self.notes_list.value = f"<ul>{items}</ul>"

    def _say(self, kind: str | None, text: Mapping[str, str] | None):
        self._message = (kind, dict(text)) if kind and text else None
        self._render_status()
        return None

    def _refused(self, exc: BaseException):
        why = {loc: error_text(exc, loc) for loc in LOCALES}
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
        """The log entries of events not shown yet, added at once (a page opening on a long
        session draws its log once, not once per old entry)."""
        st = self.session.state
        items = []
        for entry in st.log:
            if entry["seq"] <= self._log_seq:
                continue
            self._log_seq = entry["seq"]
            item = self._log_item(entry)
            if item is not None:
                items.append(item)
        self.roll_log.add_many(items)

    def _trait_label(self, effect: Mapping[str, Any], loc: str) -> str:
        """An effect's trait as the sheet names it (never its id)."""
        try:
            return tr(self.system.sheet.field(str(effect.get("trait"))).label, loc)
        except (KeyError, AttributeError, LookupError, ValueError):
            reason = effect.get("reason")
            return tr(reason, loc) if isinstance(reason, Mapping) and reason else str(effect.get("trait"))

    def _who(self, seat: str) -> str:
        info = self.session.state.seats.get(seat) or {}
        return str(info.get("name") or seat)

    def _log_item(self, e: Mapping[str, Any]) -> dict[str, Any] | None:
        """What the log shows for one state log entry (``RollLog.add``'s keywords), or None."""
        who = self._who(e.get("actor", ""))
        hidden = bool(e.get("hidden"))

        def mark(what: Mapping[str, str] | str) -> dict[str, str]:
            base = {loc: tr(what, loc) for loc in LOCALES}
            if hidden:
                return {loc: f"[{_t('hidden_mark', loc)}] {base[loc]}" for loc in LOCALES}
            return base

        kind = e.get("kind")
        texts = _texts(e) or {}  # every language, when the table recorded it so
        if kind == "roll":
            r = e.get("result") or {}
            label = e.get("label") or e.get("expr") or r.get("expression", "")
            text = dict(texts) or r.get("text") or e.get("text", "")  # every reader's language
            passed = (r.get("check") or {}).get("passed")
            if is_big(r):  # a summary; the dice are built when the reader opens the entry
                return dict(
                    who=who,
                    what=mark(label),
                    breakdown=lambda loc: summary_text(r, loc),
                    success=passed,
                    breakdown_html=lambda loc: summary_html(r, loc),
                    details=lambda loc: dice_html(r, loc),
                )
            else:
                return dict(who=who, what=mark(label), breakdown=text, success=passed)
        elif kind in ("check", "check.after"):
            r = e.get("result") or {}
            roll = r.get("roll") or {}
            name = self._character_name(e.get("character_id") or "")
            what = {loc: f"{tr(r.get('label') or {}, loc)} · {name}" for loc in LOCALES}
            if kind == "check.after":  # the latest check, changed after the roll (epic dice)
                what = {loc: f"{what[loc]} · {_t('after_roll_mark', loc)}" for loc in LOCALES}
            effects = {
                loc: "; ".join(
                    f"{self._trait_label(x, loc)} {x.get('delta'):+}"
                    for x in r.get("effects") or ()
                    if isinstance(x.get("delta"), int)
                )
                for loc in LOCALES
            }
            return dict(
                who=who,
                what=mark(what),
                breakdown=dict(texts) or roll.get("text", ""),
                outcome=r.get("outcome") or "",
                success=r.get("success"),
                effects=effects,
            )
        elif kind == "attack":  # rolled with the table's dice: the line in every language
            what = T("Attack", "Атака")
            return dict(who=who, what=mark(what), breakdown=dict(texts) or e.get("text", ""), success=e.get("success"))
        elif kind == "initiative":
            what = T("Initiative", "Инициатива")
            return dict(who=who, what=mark(what), breakdown=e.get("text", ""))
        elif kind == "message":
            return dict(who=who, what=e.get("text", ""))
        elif kind in ("session.ended", "session.started"):
            n = e.get("session")
            if kind == "session.ended":
                what = {loc: _t("log_session_ended", loc, n=n) for loc in LOCALES}
                detail = {loc: f"{_t('session_seed', loc, n=n)}: {e.get('seed', '')}" for loc in LOCALES}
            else:
                what = {loc: _t("log_session_started", loc, n=n) for loc in LOCALES}
                detail = {loc: f"{_t('session_commitment', loc, n=n)}: {e.get('seed_hash', '')}" for loc in LOCALES}
            return dict(who=who, what=what, breakdown=detail)
        elif kind == "table.closed":
            seed = self.session.state.seed or ""
            return dict(who=who, what=TEXTS["closed"], breakdown={loc: f"{_t('seed', loc)}: {seed}" for loc in LOCALES})
        return None

    # ==========================================================================================
    def close(self) -> None:
        unsubscribe = getattr(self, "_unsubscribe", None)
        try:
            if unsubscribe is not None:
                self.session.stop()
                unsubscribe()
        finally:
            super().close()


def _when(stamp: Any, loc: str) -> str:
    """A session's start or end as a date and time (UTC), or nothing when not known."""
    import datetime

    if not isinstance(stamp, (int, float)) or isinstance(stamp, bool) or stamp <= 0:
        return ""
    when = datetime.datetime.fromtimestamp(stamp, tz=datetime.timezone.utc)
    if loc == "ru":
        return when.strftime("%d.%m.%Y %H:%M") + " по Гринвичу"
    return when.strftime("%Y-%m-%d %H:%M") + " UTC"


def show_table(session, locale: str | None = None, **kwargs: Any) -> TableView:
    """The seat's screen for ``session``; the notebook displays the returned widget."""
    return TableView(session, locale=locale, **kwargs)


TableView.creation_guide = creation_wizard  # a hook (see TableView)

__all__ = ["TableView", "TableTray", "creation_wizard", "show_table"]


def seat_error_page(error, locale: str = "en") -> widgets.HTML:
    """The page a link without a valid seat token gets: what is wrong and what to do, in both
    languages; nothing of the table is loaded (``TableSession.join`` refused before reading)."""
    message = getattr(error, "message", None) or {"en": str(error), "ru": str(error)}
    first, second = (locale, "ru" if locale == "en" else "en") if locale in LOCALES else ("en", "ru")
    head = T("No seat at this table", "Нет места за этим столом")
    body = (
        f'<div class="tt-seat-error" role="alert" style="max-width:640px;margin:40px auto;padding:18px 24px;'
        f"border:1px solid #f0b8b8;border-radius:12px;background:#fff4f4;color:#6b1414;"
        f"font-family:'DejaVu Sans',system-ui,sans-serif\">"
        f'<h2 style="margin:0 0 8px">{_esc(tr(head, first))}</h2>'
        f'<p style="font-size:1.1em">{_esc(message.get(first) or message.get("en", ""))}</p>'
        f'<p lang="{second}" style="color:#8a4a4a">{_esc(message.get(second) or "")}</p></div>'
    )
    page = widgets.HTML(body)
    page.add_class("tt-seat-error-page")
    return page


__all__ += ["seat_error_page"]
