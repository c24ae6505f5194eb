"""RollLog: a scrolling log of rolls (who, what, breakdown, outcome), filterable and exportable.

Entries keep both languages, so the ``locale`` trait switches the whole log live; the newest
roll is at the bottom and the list stays scrolled there (a ``column-reverse`` scroller, no
script).

The log renders incrementally: each shown entry is its own small widget, so a new roll sends
the browser only itself (and the list of the shown entries' ids), never the whole log. Only the
latest :data:`SHOWN_STEP` entries are shown; "Show earlier" adds older ones a step at a time.
The export (a plain-text download of what the filters let through) is built when the reader
asks for it (the "Export as text" button), not on every roll.
"""

from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

import ipywidgets as widgets
import traitlets as t

from tabletop_widgets.core.i18n import LOCALES, tr

# the engine's breakdown styles (.tt-die...), included once instead of once per entry
from tabletop_widgets.dice.render import ROLL_CSS
from tabletop_widgets.front import stylesheet

from .base import locale_validator, text_lookup
from .sheet_context import button_widget, fixed_layout, hbox, html_widget, shared_layout, vbox
from .tray_controls import label_style

#: How many entries the log keeps (the oldest are dropped beyond this).
LOG_LIMIT = 1000
#: How many (filtered) entries are drawn at first, and how many more "Show earlier" adds; the
#: export always holds every filtered entry.
SHOWN_STEP = 50
#: The most entries ever drawn at once.
SHOWN_LIMIT = 500

TEXTS: dict[str, dict[str, str]] = {
    "title": {"en": "Roll log", "ru": "Журнал бросков"},
    "filter": {"en": "Filter", "ru": "Фильтр"},
    "filter_tip": {
        "en": "Show only rolls whose text contains this",
        "ru": "Показывать только броски, в тексте которых есть это",
    },
    "filter_placeholder": {"en": "text in the roll…", "ru": "текст броска…"},
    "who": {"en": "Who", "ru": "Кто"},
    "who_tip": {"en": "Show only the rolls of one roller", "ru": "Показывать броски одного игрока"},
    "everyone": {"en": "everyone", "ru": "все"},
    "empty": {"en": "No rolls yet.", "ru": "Бросков пока не было."},
    "no_match": {"en": "No roll matches the filter.", "ru": "Ни один бросок не подходит под фильтр."},
    "export": {"en": "Export as text", "ru": "Сохранить как текст"},
    "export_tip": {
        "en": "Prepare the rolls shown as a plain-text file to download",
        "ru": "Подготовить показанные броски простым текстом для скачивания",
    },
    "download": {"en": "Download rolls.txt", "ru": "Скачать rolls.txt"},
    "download_tip": {
        "en": "The rolls shown when you pressed Export, as plain text",
        "ru": "Броски, показанные в момент сохранения, простым текстом",
    },
    "earlier": {"en": "Show earlier rolls", "ru": "Показать более ранние броски"},
    "earlier_tip": {
        "en": "Only the latest rolls are drawn; this adds older ones",
        "ru": "Показаны только последние броски; кнопка добавляет более ранние",
    },
    "clear": {"en": "Clear", "ru": "Очистить"},
    "clear_tip": {"en": "Remove every roll from the log", "ru": "Удалить все броски из журнала"},
    "log_tip": {
        "en": "Rolls, oldest first; the newest is at the bottom",
        "ru": "Броски, старые сверху; новый бросок внизу",
    },
    "count": {"en": "{shown} of {total}", "ru": "{shown} из {total}"},
    "open_dice": {"en": "Show the dice", "ru": "Показать кубики"},
    "close_dice": {"en": "Hide the dice", "ru": "Скрыть кубики"},
    "dice_tip": {
        "en": "A big roll is shown as a summary; this shows every die",
        "ru": "Большой бросок показан сводкой; кнопка показывает каждый кубик",
    },
    "nobody": {"en": "—", "ru": "—"},
}

_CSS = stylesheet("log")  # tabletop_widgets/front/log.css


_t = text_lookup(TEXTS)


def _both(text: Any) -> dict[str, str]:
    """A bilingual text from a string, a mapping or a ``locale -> str`` callable."""
    if callable(text):
        return {loc: str(text(loc)) for loc in LOCALES}
    return {loc: tr(text, loc) for loc in LOCALES}


@dataclass
class LogEntry:
    """One roll in the log, in both languages. ``success`` is True/False/None (no verdict)."""

    n: int
    who: str
    what: dict[str, str]
    breakdown: dict[str, str]
    outcome: dict[str, str] = field(default_factory=dict)
    success: bool | None = None
    effects: dict[str, str] = field(default_factory=dict)
    breakdown_html: dict[str, str] = field(default_factory=dict)
    #: for a big roll: ``locale -> HTML`` of every die, built when the reader opens the entry
    details: Callable[[str], str] | None = field(default=None, repr=False, compare=False)
    #: the entry's own CSS classes (a blind roll's face-down die)
    classes: tuple[str, ...] = ()
    #: a button under the entry: ``{"label", "tip"}`` (bilingual), ``"classes"``, ``"on_click"``
    action: dict | None = field(default=None, repr=False, compare=False)

    def text(self, locale: str = "en") -> str:
        """One plain-text line: ``#3 Alice — Attention: L3 d6: 5 = 5 → passed (Luck −1)``."""
        who = f"{self.who} — " if self.who else ""
        what = tr(self.what, locale)
        parts = [
            f"#{self.n} {who}{what}:" if what else f"#{self.n} {who}".rstrip(" —") + ":",
            tr(self.breakdown, locale),
        ]
        outcome = tr(self.outcome, locale)
        if outcome:
            parts.append(f"→ {outcome}")
        effects = tr(self.effects, locale)
        if effects:
            parts.append(f"({effects})")
        return " ".join(p for p in parts if p)

    def matches(self, needle: str) -> bool:
        needle = needle.strip().casefold()
        if not needle:
            return True
        hay = " ".join(
            [self.who, *self.what.values(), *self.breakdown.values(), *self.outcome.values(), *self.effects.values()]
        ).casefold()
        return needle in hay


class RollLog(widgets.VBox):
    """A scrolling, filterable, exportable log of rolls (class ``tt-roll-log``).

    Parameters
    ----------
    locale : {"en", "ru"}
        The language; the ``locale`` trait switches it live.
    can : callable, optional
        ``can(action) -> bool`` for ``"add"``, ``"clear"``, ``"filter"`` (default: allow all).

    Attributes
    ----------
    entries : list[LogEntry]
        Every roll kept, oldest first.
    filter_box, who_box, export_link, list_view, clear_button
        The widgets (classes ``tt-log-filter``, ``tt-log-who``, ``tt-log-export``,
        ``tt-log-list``, ``tt-log-clear``).
    """

    locale = t.Unicode("en", help="Language of the log: 'en' or 'ru'")

    def __init__(
        self, *, locale: str | None = None, can: Callable[[str], bool] | None = None, title: Any = None, **kwargs: Any
    ):
        from . import language  # None: the page's language, followed live

        given, locale = locale, language.start_locale(locale)
        self.can = can or (lambda action: True)
        self.entries: list[LogEntry] = []
        self.shown = SHOWN_STEP
        self._n = 0
        self._title_text = title
        self._entry_views: dict[int, widgets.Widget] = {}  # entry number -> its widget, while shown
        self._visible = 0  # how many entries the filters let through (kept as entries come)
        self._whos: list[str] = []
        # made with their classes and words (no update after them); the pieces that never hide or
        # resize share one frozen layout and one style per kind, those that do have their own
        self.style_block = html_widget(_CSS + ROLL_CSS, classes=("tt-style",))
        self.title = html_widget(classes=("tt-log-title",))
        self.clear_button = button_widget(
            icon="",
            layout=widgets.Layout(width="auto"),  # its own: a table's log hides it
            classes=("tt-log-clear",),
            description=_t("clear", locale),
            tooltip=_t("clear_tip", locale),
        )
        self.filter_box = widgets.Text(
            continuous_update=True,
            style=label_style(widgets.Text),
            layout=fixed_layout(flex="1 1 200px", width="auto"),
            _dom_classes=("tt-log-filter",),
            description=_t("filter", locale),
            placeholder=_t("filter_placeholder", locale),
            tooltip=_t("filter_tip", locale),
        )
        self.who_box = widgets.Dropdown(
            options=[(_t("everyone", locale), "")],
            value="",
            style=label_style(widgets.Dropdown),
            layout=shared_layout(),
            _dom_classes=("tt-log-who",),
            description=_t("who", locale),
            tooltip=_t("who_tip", locale),
        )
        self.export_button = button_widget(
            layout=fixed_layout(width="auto"),
            classes=("tt-log-export-button",),
            description=_t("export", locale),
            tooltip=_t("export_tip", locale),
        )
        self.count_view = html_widget(classes=("tt-log-count",))
        self.export_link = html_widget(classes=("tt-log-export",))
        self.earlier_button = button_widget(
            layout=widgets.Layout(width="auto", display="none"),
            classes=("tt-log-earlier",),
            description=_t("earlier", locale),
            tooltip=_t("earlier_tip", locale),
        )
        self.empty_note = html_widget(layout=widgets.Layout(), classes=("tt-log-empty",), tooltip=_t("log_tip", locale))
        self.scroll = vbox(classes=("tt-log-scroll",))  # (no tooltip: the front-end's Box view has none)
        self.list_view = vbox([self.earlier_button, self.empty_note, self.scroll], classes=("tt-log-list",))

        header = hbox([self.title, self.clear_button], classes=("tt-log-header",))
        controls = hbox(
            [self.filter_box, self.who_box, self.export_button, self.count_view, self.export_link],
            classes=("tt-log-controls",),
        )
        super().__init__([self.style_block, header, controls, self.list_view], **kwargs)
        self.add_class("tt-roll-log")
        self.locale = locale
        language.adopt(self, given)

        self.filter_box.observe(self._on_filter, names="value")
        self.who_box.observe(self._on_filter, names="value")
        self.clear_button.on_click(lambda _b: self.clear())
        self.export_button.on_click(lambda _b: self.export())
        self.earlier_button.on_click(lambda _b: self.show_earlier())
        self._render_all()

    # -- traits -----------------------------------------------------------------------------
    _check_locale = locale_validator()

    @t.observe("locale")
    def _on_locale(self, _change):
        if hasattr(self, "list_view"):
            self._render_all()

    # -- adding -----------------------------------------------------------------------------
    def add(self, **item: Any) -> LogEntry | None:
        """Append one roll, given by the keywords of :meth:`_new_entry` (``who``, ``what``,
        ``breakdown``, ``outcome``, ``success``, ``effects``, ``breakdown_html``, ``details``).
        Only the new entry goes to the browser."""
        if not self.can("add"):
            return None
        entry = self._new_entry(**item)
        if self._append(entry):
            self._render_whos()
        if self._passes(entry):
            self._show_new(entry)
        self._render_count()
        if self.export_link.value:  # the prepared download no longer matches the log
            self.export_link.value = ""
        return entry

    def add_many(self, items: Iterable[Mapping[str, Any]]) -> list[LogEntry]:
        """Append several rolls at once (each a mapping of :meth:`add`'s keywords), drawing the
        list once: how a page fills its log from a long session without creating (and then
        dropping) a widget per old entry. One item is the same as :meth:`add`."""
        items = list(items)
        if not self.can("add") or not items:
            return []
        if len(items) == 1:
            one = self.add(**items[0])
            return [one] if one is not None else []
        entries = [self._new_entry(**item) for item in items]
        new_whos = [self._append(e) for e in entries]
        if any(new_whos):
            self._render_whos()
        self._render_list()
        self._render_count()
        self.export_link.value = ""
        return entries

    def _new_entry(
        self,
        *,
        who: str = "",
        what: Any = "",
        breakdown: Any = "",
        outcome: Any = "",
        success: bool | None = None,
        effects: Any = "",
        breakdown_html: Any = None,
        details: Callable[[str], str] | None = None,
        classes: tuple[str, ...] = (),
        action: dict | None = None,
        n: int | None = None,
    ) -> LogEntry:
        """The next entry (numbered; not kept yet). Texts are a string, ``{"en":..,"ru":..}``
        or ``locale -> str``; ``success`` is True/False/None (no verdict); ``details``:
        ``locale -> HTML`` of a big roll's dice, built only when the reader presses the entry's
        "Show the dice" (the breakdown is then a summary); ``classes``, ``action``: see
        :class:`LogEntry`; ``n``: the number of an entry drawn again (:meth:`update`)."""
        if n is None:
            self._n += 1
            n = self._n
        return LogEntry(
            n=n,
            who=str(who or ""),
            what=_both(what),
            breakdown=_both(breakdown),
            outcome=_both(outcome),
            success=success,
            effects=_both(effects),
            breakdown_html=_both(breakdown_html) if breakdown_html is not None else {},
            details=details,
            classes=tuple(str(c) for c in classes),
            action=action,
        )

    def _append(self, entry: LogEntry) -> bool:
        """Keep ``entry`` (and the visible count); returns whether it brings a new roller."""
        self.entries.append(entry)
        if self._passes(entry):
            self._visible += 1
        if len(self.entries) > LOG_LIMIT:
            for old in self.entries[:-LOG_LIMIT]:
                if self._passes(old):
                    self._visible -= 1
            del self.entries[:-LOG_LIMIT]
        if entry.who and entry.who not in self._whos:
            self._whos.append(entry.who)
            return True
        return False

    def add_roll(self, result: Any, *, who: str = "", what: Any = None) -> LogEntry | None:
        """Append a ``RollResult`` (a notation roll); a big one (more than ``BIG_ROLL_DICE``
        dice) as its summary, with its dice on demand."""
        passed = getattr(result, "passed", None)
        from tabletop_widgets.table import BIG_ROLL_DICE, dice_html, summary_html, summary_text

        if len(getattr(result, "dice", ())) > BIG_ROLL_DICE:
            data = result.to_json()
            return self.add(
                who=who,
                what=what if what is not None else result.expression,
                breakdown=lambda loc: summary_text(data, loc),
                success=passed,
                breakdown_html=lambda loc: summary_html(data, loc),
                details=lambda loc: dice_html(data, loc),
            )
        return self.add(
            who=who,
            what=what if what is not None else result.expression,
            breakdown=result.text,
            success=passed,
            breakdown_html=lambda loc: _inline(result, loc),
        )

    def add_check(self, result: Any, *, who: str = "", effects: Any = "") -> LogEntry | None:
        """Append a ``CheckResult`` (a named check of a character), with its applied effects."""
        roll = result.roll
        breakdown = result.breakdown if hasattr(result, "breakdown") else (roll.text if hasattr(roll, "text") else "")
        html_of = (lambda loc: _inline(roll, loc)) if roll is not None and hasattr(roll, "html") else None
        return self.add(
            who=who,
            what=result.label,
            breakdown=breakdown,
            outcome=result.outcome,
            success=result.success,
            effects=effects,
            breakdown_html=html_of,
        )

    def update(self, n: int, **item: Any) -> LogEntry | None:
        """Draw entry number ``n`` again as ``item`` (:meth:`add`'s keywords): a blind roll's
        face-down die turned into its dice. None when the log no longer holds it."""
        if not self.can("add"):
            return None
        at = next((i for i, e in enumerate(self.entries) if e.n == n), None)
        if at is None:
            return None
        entry = self._new_entry(n=n, **item)
        self.entries[at] = entry
        if n in self._entry_views:
            self._render_list()
        return entry

    def clear(self) -> None:
        if not self.can("clear"):
            return
        self.entries.clear()
        self._whos.clear()
        self._render_all()

    def show_earlier(self) -> None:
        """Draw :data:`SHOWN_STEP` more of the older entries."""
        self.shown = min(SHOWN_LIMIT, self.shown + SHOWN_STEP)
        self._render_list()

    def export(self) -> str:
        """Build the download of what the filters let through (on demand); returns its text."""
        loc = self.locale
        text = self.export_text(loc)
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        self.export_link.value = (
            f'<a href="data:text/plain;charset=utf-8;base64,{data}" download="rolls.txt" '
            f'title="{html.escape(_t("download_tip", loc))}">{html.escape(_t("download", loc))}</a>'
        )
        return text

    # -- reading ----------------------------------------------------------------------------
    def _passes(self, e: LogEntry) -> bool:
        who = self.who_box.value
        return (not who or e.who == who) and e.matches(self.filter_box.value)

    def visible_entries(self) -> list[LogEntry]:
        """The entries the filters let through, oldest first."""
        return [e for e in self.entries if self._passes(e)]

    def shown_entries(self) -> list[LogEntry]:
        """The entries drawn now (the latest of the visible ones), oldest first."""
        return [e for e in self.entries if e.n in self._entry_views]

    def export_text(self, locale: str | None = None) -> str:
        """The filtered log as plain text, one roll per line (what the download holds)."""
        loc = locale or self.locale
        return "".join(e.text(loc) + "\n" for e in self.visible_entries())

    def whos(self) -> list[str]:
        return list(self._whos)

    # -- handlers ---------------------------------------------------------------------------
    def _on_filter(self, change):
        if not self.can("filter"):
            return
        self.shown = SHOWN_STEP
        self._render_list()
        self._render_count()
        self.export_link.value = ""

    # -- rendering --------------------------------------------------------------------------
    def _render_all(self) -> None:
        loc = self.locale
        title = tr(self._title_text, loc) if self._title_text else _t("title", loc)
        self.title.value = f"<h3>{html.escape(title)}</h3>"
        self.filter_box.description = _t("filter", loc)
        self.filter_box.placeholder = _t("filter_placeholder", loc)
        self.filter_box.tooltip = _t("filter_tip", loc)
        self.who_box.description = _t("who", loc)
        self.who_box.tooltip = _t("who_tip", loc)
        self.clear_button.description = _t("clear", loc)
        self.clear_button.tooltip = _t("clear_tip", loc)
        self.export_button.description = _t("export", loc)
        self.export_button.tooltip = _t("export_tip", loc)
        self.earlier_button.description = _t("earlier", loc)
        self.earlier_button.tooltip = _t("earlier_tip", loc)
        self.empty_note.tooltip = _t("log_tip", loc)
        self._render_whos()
        self._render_list()
        self._render_count()
        self.export_link.value = ""

    def _render_whos(self) -> None:
        current = self.who_box.value
        options = [(_t("everyone", self.locale), "")] + [(w, w) for w in self._whos]
        with self.who_box.hold_trait_notifications():
            self.who_box.options = options
            self.who_box.value = current if current in dict(options).values() else ""

    def _entry_view(self, e: LogEntry) -> widgets.Widget:
        view: widgets.Widget = html_widget(_entry_html(e, self.locale), classes=("tt-log-item", *e.classes))
        if e.details is not None:
            view = self._big_entry_view(e, view)
        if e.action is not None:
            view = self._action_view(e, view)
        self._entry_views[e.n] = view
        return view

    def _action_view(self, e: LogEntry, head: widgets.Widget) -> widgets.VBox:
        """An entry with its button under it (the GM's *Reveal* of a blind roll)."""
        action = e.action or {}
        button = button_widget(
            layout=fixed_layout(width="auto"),
            classes=tuple(action.get("classes") or ("tt-log-action",)),
            description=tr(action.get("label") or "", self.locale),
            tooltip=tr(action.get("tip") or "", self.locale),
        )
        click = action.get("on_click")
        if callable(click):
            button.on_click(lambda _b: click())
        return vbox([head, button], classes=("tt-log-item", "tt-log-with-action", *e.classes))

    def _big_entry_view(self, e: LogEntry, head: widgets.HTML) -> widgets.VBox:
        """A big roll's entry: its summary, a button, and the dice once the reader opens them."""
        loc = self.locale
        toggle = button_widget(
            layout=fixed_layout(width="auto"),
            classes=("tt-log-dice-toggle",),
            description=_t("open_dice", loc),
            tooltip=_t("dice_tip", loc),
        )
        dice = html_widget(layout=widgets.Layout(display="none"), classes=("tt-log-dice",))
        box = vbox([head, toggle, dice], classes=("tt-log-item", "tt-log-big"))

        def flip(_b=None) -> None:
            opening = dice.layout.display == "none"
            if opening and not dice.value:
                dice.value = e.details(self.locale)  # built now, on demand
            dice.layout.display = None if opening else "none"
            toggle.description = _t("close_dice" if opening else "open_dice", self.locale)

        toggle.on_click(flip)
        return box

    def _drop_views(self, keep: set[int]) -> None:
        for n in [n for n in self._entry_views if n not in keep]:
            _close_view(self._entry_views.pop(n))

    def _show_new(self, entry: LogEntry) -> None:
        """A new entry that passes the filters: its own widget in front (the scroller is
        ``column-reverse``: the first child is drawn at the bottom)."""
        kids = (self._entry_view(entry),) + tuple(self.scroll.children)
        if len(kids) > self.shown:
            kids = kids[: self.shown]
            self.earlier_button.layout.display = None
        self.scroll.children = kids  # first out of the list, then closed (never a dangling view)
        self._drop_views({n for n, v in self._entry_views.items() if any(v is k for k in kids)})
        if self.empty_note.layout.display != "none":
            self.empty_note.value = ""  # as _render_list leaves it: a page drawn either way reads the same
            self.empty_note.layout.display = "none"

    def _render_list(self) -> None:
        loc = self.locale
        entries = self.visible_entries()
        self._visible = len(entries)
        window = entries[-self.shown :]
        old = dict(self._entry_views)
        self._entry_views = {}
        self.scroll.children = tuple(self._entry_view(e) for e in reversed(window))
        for view in old.values():  # out of the list first, then closed
            _close_view(view)
        self.earlier_button.layout.display = None if len(entries) > len(window) else "none"
        if not self.entries:
            note = _t("empty", loc)
        elif not entries:
            note = _t("no_match", loc)
        else:
            note = ""
        self.empty_note.value = f'<p class="tt-empty">{html.escape(note)}</p>' if note else ""
        self.empty_note.layout.display = None if note else "none"

    def _render_count(self) -> None:
        loc = self.locale
        count = _t("count", loc).format(shown=self._visible, total=len(self.entries))
        self.count_view.value = f'<span class="tt-count">{html.escape(count)}</span>'


def _close_view(view: widgets.Widget) -> None:
    for child in getattr(view, "children", ()) or ():
        _close_view(child)
    view.close()


def _inline(roll, loc: str) -> str:
    """A breakdown for the log: without the engine's <style> (the log includes ROLL_CSS once) and
    without role=status (the log is not a live region; the tray announces)."""
    return roll.html(loc, css=False, live=False)


def _entry_html(e: LogEntry, loc: str) -> str:
    cls = {True: "tt-pass", False: "tt-fail", None: ""}[e.success] + "".join(f" {c}" for c in e.classes)
    who = f'<span class="tt-log-who">{html.escape(e.who)}</span>' if e.who else ""
    what = tr(e.what, loc)
    what_html = f'<span class="tt-log-what">{html.escape(what)}</span>' if what else ""
    outcome = tr(e.outcome, loc)
    outcome_html = f' → <span class="tt-log-outcome {cls}">{html.escape(outcome)}</span>' if outcome else ""
    breakdown = tr(e.breakdown_html, loc) if e.breakdown_html else html.escape(tr(e.breakdown, loc))
    effects = tr(e.effects, loc)
    effects_html = f'<div class="tt-log-effects">{html.escape(effects)}</div>' if effects else ""
    # one list item per entry widget (each entry is drawn on its own, so each is its own list)
    return (
        f'<ol class="tt-log-one"><li class="tt-log-entry {cls}"><span class="tt-log-n">#{e.n}</span>'
        f'{who}{what_html}{outcome_html}<div class="tt-log-breakdown">{breakdown}</div>{effects_html}'
        f"</li></ol>"
    )


__all__ = ["RollLog", "LogEntry", "LOG_LIMIT", "SHOWN_LIMIT", "SHOWN_STEP"]
