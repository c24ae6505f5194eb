"""The campaign's roll tables on a seat's Dice tab: :class:`RollTablesBar`, a pick of the tables
this seat may roll (a GM: every table the campaign keeps; a player: the shared ones) and a
*Roll table* button that rolls it with the table's fair dice (``session.roll_saved_table``: the
outcome goes to the log like a tray roll). The GM's *hidden roll* toggle hides it; a GM's own
table is rolled hidden unless the toggle is off and... no: a GM's own table is always rolled as
the session decides by default (hidden), the toggle only adds hiding.

Nothing is drawn until the campaign has a table this seat may roll (an empty bar is one hidden
box). The screen tells it when the tables changed (:meth:`RollTablesBar.render`) and when the
language changed (:meth:`RollTablesBar.relabel`); every click is checked again by the session."""

from __future__ import annotations

import html
from typing import Any, Callable

import ipywidgets as widgets

from tabletop_widgets.core.i18n import T

from .base import text_lookup
from .sheet_context import fixed_layout, hbox, html_widget, set_display

TEXTS = {
    "pick": T("Table", "Таблица"),
    "pick_tip": T(
        "A roll table the campaign keeps: its dice pick one of its rows",
        "Таблица бросков кампании: её кубики выбирают одну из строк",
    ),
    "roll": T("Roll it", "Бросить таблицу"),
    "roll_tip": T(
        "Roll the chosen table with the table's fair dice: the entry goes to the log",
        "Бросить выбранную таблицу честными кубиками стола: результат попадёт в журнал",
    ),
    "own": T("{name} (yours only)", "{name} (только ваша)"),
}

_t = text_lookup(TEXTS)


class RollTablesBar:
    """``box``: the pick and the button, hidden while there is nothing to roll.

    Parameters
    ----------
    session : TableSession
        The seat (its :meth:`saved_roll_tables` and :meth:`roll_saved_table`).
    locale : str
        The language it is drawn in.
    hidden_wanted : callable
        ``hidden_wanted() -> bool``: whether the GM's *hidden roll* toggle is on.
    """

    def __init__(self, session: Any, locale: str, *, hidden_wanted: Callable[[], bool]):
        self.session = session
        self.locale = locale
        self._hidden_wanted = hidden_wanted
        self.pick: widgets.Dropdown | None = None
        self.button: widgets.Button | None = None
        self.status: widgets.HTML | None = None
        self.box = hbox([], classes=("tt-table-rolltables",), layout=fixed_layout(display="none"))
        self.render()

    def _tables(self) -> dict:
        try:
            return self.session.saved_roll_tables()
        except Exception:  # noqa: BLE001 - a damaged state never stops the page
            return {}

    def _options(self, tables: dict) -> list[tuple[str, str]]:
        return [
            (name if item.shared or self.session.role != "gm" else _t("own", self.locale, name=name), name)
            for name, item in tables.items()
        ]

    def _build(self) -> None:
        self.pick = widgets.Dropdown(
            options=[], description=_t("pick", self.locale), _dom_classes=("tt-rolltable-pick",)
        )
        self.pick.style.description_width = "initial"
        self.button = widgets.Button(description=_t("roll", self.locale), _dom_classes=("tt-rolltable-roll",))
        self.button.on_click(lambda _b: self.roll())
        self.status = html_widget("", classes=("tt-rolltable-status",))
        self.box.children = [self.pick, self.button, self.status]
        self.relabel(self.locale)

    def render(self) -> None:
        """Offer the tables this seat may roll now (a table taken away is no longer offered)."""
        tables = self._tables()
        if not tables and self.pick is None:
            return
        if self.pick is None:
            self._build()
        chosen = self.pick.value
        options = self._options(tables)
        self.pick.options = options
        names = [v for _label, v in options]
        self.pick.value = chosen if chosen in names else (names[0] if names else None)
        set_display(self.box, None if options else "none")

    def roll(self, name: str | None = None) -> Any:
        """Roll the chosen table (or ``name``); a refusal is said under the button, in words."""
        name = name if name is not None else (self.pick.value if self.pick is not None else None)
        if not name:
            return None
        hidden = True if self._hidden_wanted() else None
        try:
            event = self.session.roll_saved_table(name, hidden=hidden, locale=self.locale)
        except Exception as exc:  # noqa: BLE001 - shown to the seat, never raised into the page
            from .tray_text import error_text

            self._say(error_text(exc, self.locale))
            return None
        self._say("")
        return event

    def _say(self, text: str) -> None:
        if self.status is not None:
            self.status.value = f'<span class="tt-rolltable-error">{html.escape(text)}</span>' if text else ""

    def relabel(self, loc: str) -> None:
        self.locale = loc
        if self.pick is None:
            return
        self.pick.description = _t("pick", loc)
        self.pick.tooltip = _t("pick_tip", loc)
        self.button.description = _t("roll", loc)
        self.button.tooltip = _t("roll_tip", loc)
        self.render()


__all__ = ["RollTablesBar", "TEXTS"]
