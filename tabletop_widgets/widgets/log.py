"""RollLog: a scrolling log of rolls (who, what, breakdown, outcome), filterable and exportable.

Entries keep both languages, so the ``locale`` trait switches the whole log live; the newest
roll is at the bottom and the list stays scrolled there (a ``column-reverse`` scroller, no
script). The export is a plain-text download link of what the filters show.
"""
from __future__ import annotations

import base64
import html
from dataclasses import dataclass, field
from typing import Any, Callable

import ipywidgets as widgets
import traitlets as t

from tabletop_widgets.core.i18n import LOCALES, tr
# the engine's breakdown styles (.tt-die...), included once instead of once per entry
from tabletop_widgets.dice.render import ROLL_CSS
from tabletop_widgets.front import stylesheet

#: How many entries the log keeps (the oldest are dropped beyond this).
LOG_LIMIT = 1000
#: How many (filtered) entries are drawn; the export always holds every filtered entry.
SHOWN_LIMIT = 200

TEXTS: dict[str, dict[str, str]] = {
    "title": {"en": "Roll log", "ru": "Журнал бросков"},
    "filter": {"en": "Filter", "ru": "Фильтр"},
    "filter_tip": {"en": "Show only rolls whose text contains this",
                   "ru": "Показывать только броски, в тексте которых есть это"},
    "filter_placeholder": {"en": "text in the roll…", "ru": "текст броска…"},
    "who": {"en": "Who", "ru": "Кто"},
    "who_tip": {"en": "Show only the rolls of one roller", "ru": "Показывать броски одного игрока"},
    "everyone": {"en": "everyone", "ru": "все"},
    "empty": {"en": "No rolls yet.", "ru": "Бросков пока не было."},
    "no_match": {"en": "No roll matches the filter.", "ru": "Ни один бросок не подходит под фильтр."},
    "export": {"en": "Export as text", "ru": "Сохранить как текст"},
    "export_tip": {"en": "Download the rolls shown as a plain-text file",
                   "ru": "Скачать показанные броски простым текстом"},
    "clear": {"en": "Clear", "ru": "Очистить"},
    "clear_tip": {"en": "Remove every roll from the log", "ru": "Удалить все броски из журнала"},
    "log_tip": {"en": "Rolls, oldest first; the newest is at the bottom",
                "ru": "Броски, старые сверху; новый бросок внизу"},
    "count": {"en": "{shown} of {total}", "ru": "{shown} из {total}"},
    "nobody": {"en": "—", "ru": "—"},
}

_CSS = stylesheet("log")  # tabletop_widgets/front/log.css


def _t(key: str, locale: str) -> str:
    return TEXTS[key].get(locale) or TEXTS[key]["en"]


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

    def text(self, locale: str = "en") -> str:
        """One plain-text line: ``#3 Alice — Attention: L3 d6: 5 = 5 → passed (Luck −1)``."""
        who = f"{self.who} — " if self.who else ""
        what = tr(self.what, locale)
        parts = [f"#{self.n} {who}{what}:" if what else f"#{self.n} {who}".rstrip(" —") + ":",
                 tr(self.breakdown, locale)]
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
        hay = " ".join([self.who, *self.what.values(), *self.breakdown.values(),
                        *self.outcome.values(), *self.effects.values()]).casefold()
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

    def __init__(self, *, locale: str = "en", can: Callable[[str], bool] | None = None,
                 title: Any = None, **kwargs: Any):
        self.can = can or (lambda action: True)
        self.entries: list[LogEntry] = []
        self._n = 0
        self._title_text = title
        self.style_block = widgets.HTML(_CSS + ROLL_CSS)
        self.style_block.add_class("tt-style")
        self.title = widgets.HTML()
        self.title.add_class("tt-log-title")
        self.clear_button = widgets.Button(icon="", layout=widgets.Layout(width="auto"))
        self.clear_button.add_class("tt-log-clear")
        self.filter_box = widgets.Text(continuous_update=True,
                                       style={"description_width": "initial"},
                                       layout=widgets.Layout(flex="1 1 200px", width="auto"))
        self.filter_box.add_class("tt-log-filter")
        self.who_box = widgets.Dropdown(options=[("everyone", "")], value="",
                                        style={"description_width": "initial"})
        self.who_box.add_class("tt-log-who")
        self.export_link = widgets.HTML()
        self.export_link.add_class("tt-log-export")
        self.list_view = widgets.HTML()
        self.list_view.add_class("tt-log-list")

        header = widgets.HBox([self.title, self.clear_button])
        header.add_class("tt-log-header")
        controls = widgets.HBox([self.filter_box, self.who_box, self.export_link])
        controls.add_class("tt-log-controls")
        super().__init__([self.style_block, header, controls, self.list_view], **kwargs)
        self.add_class("tt-roll-log")
        self.locale = locale

        self.filter_box.observe(self._on_filter, names="value")
        self.who_box.observe(self._on_filter, names="value")
        self.clear_button.on_click(lambda _b: self.clear())
        self._render_all()

    # -- traits -----------------------------------------------------------------------------
    @t.validate("locale")
    def _check_locale(self, proposal):
        if proposal["value"] not in LOCALES:
            raise t.TraitError(f"unknown locale {proposal['value']!r}: expected 'en' or 'ru'")
        return proposal["value"]

    @t.observe("locale")
    def _on_locale(self, _change):
        if hasattr(self, "list_view"):
            self._render_all()

    # -- adding -----------------------------------------------------------------------------
    def add(self, *, who: str = "", what: Any = "", breakdown: Any = "", outcome: Any = "",
            success: bool | None = None, effects: Any = "", breakdown_html: Any = None
            ) -> LogEntry | None:
        """Append one roll (texts: a string, ``{"en":..,"ru":..}`` or ``locale -> str``)."""
        if not self.can("add"):
            return None
        self._n += 1
        entry = LogEntry(n=self._n, who=str(who or ""), what=_both(what),
                         breakdown=_both(breakdown), outcome=_both(outcome), success=success,
                         effects=_both(effects),
                         breakdown_html=_both(breakdown_html) if breakdown_html is not None else {})
        self.entries.append(entry)
        del self.entries[:-LOG_LIMIT]
        self._render_all()
        return entry

    def add_roll(self, result: Any, *, who: str = "", what: Any = None) -> LogEntry | None:
        """Append a ``RollResult`` (a notation roll)."""
        passed = getattr(result, "passed", None)
        return self.add(who=who, what=what if what is not None else result.expression,
                        breakdown=result.text, success=passed,
                        breakdown_html=lambda loc: _inline(result, loc))

    def add_check(self, result: Any, *, who: str = "", effects: Any = "") -> LogEntry | None:
        """Append a ``CheckResult`` (a named check of a character), with its applied effects."""
        roll = result.roll
        breakdown = (roll.text if roll is not None and hasattr(roll, "text") else "")
        html_of = ((lambda loc: _inline(roll, loc)) if roll is not None and hasattr(roll, "html")
                   else None)
        return self.add(who=who, what=result.label, breakdown=breakdown, outcome=result.outcome,
                        success=result.success, effects=effects, breakdown_html=html_of)

    def clear(self) -> None:
        if not self.can("clear"):
            return
        self.entries.clear()
        self._render_all()

    # -- reading ----------------------------------------------------------------------------
    def visible_entries(self) -> list[LogEntry]:
        """The entries the filters let through, oldest first."""
        who = self.who_box.value
        needle = self.filter_box.value
        return [e for e in self.entries if (not who or e.who == who) and e.matches(needle)]

    def export_text(self, locale: str | None = None) -> str:
        """The filtered log as plain text, one roll per line (what the download link holds)."""
        loc = locale or self.locale
        return "".join(e.text(loc) + "\n" for e in self.visible_entries())

    def whos(self) -> list[str]:
        seen: list[str] = []
        for e in self.entries:
            if e.who and e.who not in seen:
                seen.append(e.who)
        return seen

    # -- handlers ---------------------------------------------------------------------------
    def _on_filter(self, change):
        if not self.can("filter"):
            return
        self._render_list()
        self._render_export()

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
        self.list_view.tooltip = _t("log_tip", loc)
        current = self.who_box.value
        options = [(_t("everyone", loc), "")] + [(w, w) for w in self.whos()]
        with self.who_box.hold_trait_notifications():
            self.who_box.options = options
            self.who_box.value = current if current in dict(options).values() else ""
        self._render_list()
        self._render_export()

    def _render_list(self) -> None:
        loc = self.locale
        entries = self.visible_entries()
        label = html.escape(_t("title", loc))
        if not self.entries:
            body = f'<p class="tt-empty">{html.escape(_t("empty", loc))}</p>'
        elif not entries:
            body = f'<p class="tt-empty">{html.escape(_t("no_match", loc))}</p>'
        else:
            body = "<ol>" + "".join(_entry_html(e, loc) for e in entries[-SHOWN_LIMIT:]) + "</ol>"
        self.list_view.value = (f'<div class="tt-log-scroll" role="log" aria-label="{label}" '
                                f'tabindex="0"><div>{body}</div></div>')

    def _render_export(self) -> None:
        loc = self.locale
        text = self.export_text(loc)
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        shown = len(self.visible_entries())
        count = _t("count", loc).format(shown=shown, total=len(self.entries))
        self.export_link.value = (
            f'<a href="data:text/plain;charset=utf-8;base64,{data}" download="rolls.txt" '
            f'title="{html.escape(_t("export_tip", loc))}">{html.escape(_t("export", loc))}</a>'
            f'<span class="tt-count">{html.escape(count)}</span>')


def _inline(roll, loc: str) -> str:
    """A breakdown for the log: without the engine's <style> (the log includes ROLL_CSS once) and
    without role=status (the log is not a live region; the tray announces)."""
    return roll.html(loc, css=False, live=False)


def _entry_html(e: LogEntry, loc: str) -> str:
    cls = {True: "tt-pass", False: "tt-fail", None: ""}[e.success]
    who = f'<span class="tt-log-who">{html.escape(e.who)}</span>' if e.who else ""
    what = tr(e.what, loc)
    what_html = f'<span class="tt-log-what">{html.escape(what)}</span>' if what else ""
    outcome = tr(e.outcome, loc)
    outcome_html = (f' → <span class="tt-log-outcome {cls}">{html.escape(outcome)}</span>'
                    if outcome else "")
    breakdown = (tr(e.breakdown_html, loc) if e.breakdown_html
                 else html.escape(tr(e.breakdown, loc)))
    effects = tr(e.effects, loc)
    effects_html = f'<div class="tt-log-effects">{html.escape(effects)}</div>' if effects else ""
    return (f'<li class="tt-log-entry {cls}"><span class="tt-log-n">#{e.n}</span>{who}{what_html}'
            f'{outcome_html}<div class="tt-log-breakdown">{breakdown}</div>{effects_html}</li>')


__all__ = ["RollLog", "LogEntry", "LOG_LIMIT", "SHOWN_LIMIT"]
