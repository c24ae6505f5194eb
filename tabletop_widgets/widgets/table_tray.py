"""A seat's dice on its table page: :class:`TableTray` (the tray whose rolls go through the table
session) and :class:`TrayArea`, the part of :class:`~.table_view.TableView` that shows it (the
GM's *Roll for* picker and *hidden roll* toggle above it)."""

from __future__ import annotations

from typing import Any, Callable, Mapping

import ipywidgets as widgets

from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.table import check as check_request
from tabletop_widgets.table.after_roll import may_amend
from tabletop_widgets.table.records import StoredCheck, StoredRoll, check_changes

from .base import text_lookup
from .sheet_context import fixed_layout, hbox, shared_layout, vbox
from .table_texts import TEXTS
from .tray import DiceTray

_t = text_lookup(TEXTS)


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


class TrayArea:
    """The Dice tab of :class:`~.table_view.TableView`: ``tray_box`` holds the GM's bar (whose
    character the tray rolls for, and whether the roll is hidden) and the :class:`TableTray`.
    A player's tray rolls for their own character; an observer has none. The tray is built
    when the Dice tab is first shown (a player's page that opens on their character's creation
    builds it only if they look at their dice), or when something asks for :attr:`tray`."""

    _tray: TableTray | None = None
    _tray_wanted = False  # the seat has a tray, built on first use
    _tray_for: str | None = None  # the character it rolls for
    hidden_toggle: widgets.Checkbox | None = None
    roll_for: widgets.Dropdown | None = None

    def build_tray_area(self, locale: str) -> None:
        """Build ``tray_box``: the GM's bar, and the place of the tray for the first character
        (a GM's) or the seat's own."""
        bar: list[widgets.Widget] = []
        if self.is_gm:
            self.hidden_toggle = widgets.Checkbox(
                value=False,
                indent=False,
                description=_t("hidden_roll", locale),
                tooltip=_t("hidden_roll_tip", locale),
                _dom_classes=("tt-hidden-roll",),
            )
            self.hidden_toggle.observe(self._on_hidden_toggle, names="value")
            opts = [(self.character_name(c), c) for c in self.models]
            self.roll_for = widgets.Dropdown(
                options=opts,
                value=opts[0][1] if opts else None,
                description=_t("roll_for", locale),
                tooltip=_t("roll_for_tip", locale),
                style={"description_width": "initial"},
                _dom_classes=("tt-roll-for",),
            )
            self.roll_for.observe(self._on_roll_for, names="value")
            bar = [self.roll_for, self.hidden_toggle]
        # a player's bar is empty and stays hidden: one shared layout says so
        layout = shared_layout() if bar else fixed_layout(display="none")
        self.tray_bar = hbox(bar, classes=("tt-table-tray-bar",), layout=layout)
        self.tray_box = vbox([self.tray_bar], classes=("tt-table-tray-area",))
        self._tray_for = self.roll_for.value if self.roll_for is not None else self.session.character_id
        self._tray_wanted = True

    @property
    def tray(self) -> TableTray | None:
        """The seat's tray (None on an observer's page), built on first use."""
        if self._tray is None and self._tray_wanted:
            self._set_tray(self._tray_for, self.locale)
        return self._tray

    @property
    def built_tray(self) -> TableTray | None:
        """The tray if it is built (None before the Dice tab is first shown)."""
        return self._tray

    def show_tray(self) -> None:
        """Build the tray when the Dice tab is the one shown."""
        if self.showing("tab_dice"):
            self.tray  # noqa: B018 - built on first use

    def _set_tray(self, cid: str | None, locale: str) -> None:
        if self._tray is not None:
            self._tray.close()
        self._tray_for = cid
        character = self.models.get(cid) if cid else None
        self._tray = TableTray(
            self.session,
            cid if character is not None else None,
            character,
            hidden=self._hidden_wanted,
            locale=locale,
            animate=self.animate,
            who=self.session.name or self.session.seat,
        )
        self._tray.locale_toggle.layout.display = "none"  # the screen's one switch rules
        self.tray_box.children = [self.tray_bar, self._tray]

    def _hidden_wanted(self) -> bool:
        return bool(self.hidden_toggle is not None and self.hidden_toggle.value and self.session.role == "gm")

    def _on_hidden_toggle(self, change) -> None:
        if change["new"] and not self.session.can("roll.hidden"):
            self.hidden_toggle.value = False

    def _on_roll_for(self, change) -> None:
        cid = change["new"]
        if cid is None or cid not in self.models or not self.session.can("check", cid):
            return
        if self._tray is None:  # not shown yet: built for this character when shown
            self._tray_for = cid
            return
        self._set_tray(cid, self.locale)

    def relabel_tray(self, loc: str) -> None:
        """The GM's bar in ``loc`` (the tray follows the view's ``locale`` itself)."""
        if self.hidden_toggle is not None:
            self.hidden_toggle.description = _t("hidden_roll", loc)
            self.hidden_toggle.tooltip = _t("hidden_roll_tip", loc)
            self.roll_for.description = _t("roll_for", loc)
            self.roll_for.tooltip = _t("roll_for_tip", loc)


__all__ = ["TableTray", "TrayArea"]
