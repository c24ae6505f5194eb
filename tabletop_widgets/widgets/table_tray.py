"""A seat's dice on its table page: :class:`TrayArea`, the part of :class:`~.table_view.TableView`
that shows the seat's :class:`~.tray.DiceTray` acting through the table's play (the table's fair
dice, the role and option checks, the outcome in the log), with the GM's *Roll for* picker and
*hidden roll* toggle above it, and the campaign's roll tables this seat may roll
(:mod:`.table_rolltables`).

It is built from the seat's session and play, the characters' models it rolls for, the
screen's language and whether the Dice tab is the one shown (``shown()``, asked before the tray
is built); the screen tells it when a character came (:meth:`TrayArea.set_characters`) and when
the language changed (:meth:`TrayArea.relabel`)."""

from __future__ import annotations

from typing import Any, Callable, Mapping

import ipywidgets as widgets

from .base import text_lookup
from .sheet_context import fixed_layout, hbox, shared_layout, vbox
from .table_rolltables import RollTablesBar
from .table_texts import TEXTS, gm_words
from .tray import DiceTray

_t = text_lookup(TEXTS)


class TrayArea:
    """The Dice tab of :class:`~.table_view.TableView`: ``tray_box`` holds the GM's bar (whose
    character the tray rolls for, and whether the roll is hidden) and the seat's
    :class:`~.tray.DiceTray`. A player's tray rolls for their own character; an observer's page
    has no tray area. The tray is built when the Dice tab is first shown (a player's page that
    opens on their character's creation builds it only if they look at their dice), or when
    something asks for :attr:`tray`.

    Parameters
    ----------
    session, play :
        The seat's ``TableSession`` and the play the tray rolls through.
    models : mapping
        Character id -> model, the characters the seat may see (the screen's, kept up to date).
    characters : list of (name, id)
        A GM's *Roll for* choices (:meth:`set_characters` updates them).
    locale : str
        The language it is built in (:meth:`relabel` switches it).
    animate : bool
        Tumble the tray's dice.
    shown : callable
        ``shown() -> bool``: whether the Dice tab is the one shown (:meth:`show_tray`).
    """

    hidden_toggle: widgets.Checkbox | None = None
    roll_for: widgets.Dropdown | None = None
    #: *Roll blind* (a GM's and a player's), and a GM's *Hide what is rolled* (shown while blind)
    blind_toggle: widgets.Checkbox | None = None
    hide_notation_toggle: widgets.Checkbox | None = None

    def __init__(
        self,
        session: Any,
        play: Any,
        *,
        models: Mapping[str, Any],
        characters: list[tuple[str, str]],
        locale: str,
        animate: bool,
        shown: Callable[[], bool],
    ):
        self.session = session
        self.play = play
        self.models = models
        self.locale = locale
        self.animate = animate
        self._shown = shown
        self._tray: DiceTray | None = None
        bar: list[widgets.Widget] = []
        if session.role == "gm":
            self.hidden_toggle = widgets.Checkbox(
                value=False,
                indent=False,
                description=_t("hidden_roll", locale),
                tooltip=_t("hidden_roll_tip", locale),
                _dom_classes=("tt-hidden-roll",),
            )
            self.hidden_toggle.observe(self._on_hidden_toggle, names="value")
            self.roll_for = widgets.Dropdown(
                options=characters,
                value=characters[0][1] if characters else None,
                description=_t("roll_for", locale),
                tooltip=_t("roll_for_tip", locale),
                style={"description_width": "initial"},
                _dom_classes=("tt-roll-for",),
            )
            self.roll_for.observe(self._on_roll_for, names="value")
            bar = [self.roll_for, self.hidden_toggle]
        if session.role in ("gm", "player"):
            bar += self._blind_toggles(locale)
        # a bar without toggles is empty and stays hidden: one shared layout says so
        layout = shared_layout() if bar else fixed_layout(display="none")
        self.tray_bar = hbox(bar, classes=("tt-table-tray-bar",), layout=layout)
        #: the campaign's roll tables this seat may roll (hidden while there are none)
        self.roll_tables = RollTablesBar(session, locale, hidden_wanted=self.hidden_wanted)
        self.tray_box = vbox([self.tray_bar, self.roll_tables.box], classes=("tt-table-tray-area",))
        # the character the tray rolls for
        self._tray_for: str | None = self.roll_for.value if self.roll_for is not None else session.character_id

    def _blind_toggles(self, locale: str) -> list[widgets.Widget]:
        """*Roll blind*, and on a GM's page *Hide what is rolled* (shown while blind is on)."""
        words = gm_words(self.session.system, locale)
        self.blind_toggle = widgets.Checkbox(
            value=False,
            indent=False,
            description=_t("blind_roll", locale),
            tooltip=_t("blind_roll_tip", locale, **words),
            _dom_classes=("tt-blind-roll",),
        )
        self.blind_toggle.observe(self._on_blind_toggle, names="value")
        if self.session.role != "gm":
            return [self.blind_toggle]
        self.hide_notation_toggle = widgets.Checkbox(
            value=False,
            indent=False,
            description=_t("hide_notation", locale),
            tooltip=_t("hide_notation_tip", locale),
            layout=widgets.Layout(display="none"),
            _dom_classes=("tt-hide-notation",),
        )
        return [self.blind_toggle, self.hide_notation_toggle]

    def blind_wanted(self) -> bool:
        """Whether the seat's next roll is blind (the session checks what it may do)."""
        return bool(self.blind_toggle is not None and self.blind_toggle.value is True)

    def hide_notation_wanted(self) -> bool:
        toggle = self.hide_notation_toggle
        return bool(self.blind_wanted() and toggle is not None and toggle.value is True and self.session.role == "gm")

    def _on_blind_toggle(self, change) -> None:
        if change["new"] and not self.session.can("roll"):
            self.blind_toggle.value = False
            return
        if self.hide_notation_toggle is not None:
            self.hide_notation_toggle.layout.display = None if change["new"] else "none"

    def set_characters(self, characters: list[tuple[str, str]]) -> None:
        """The table's characters (a new one came): a GM's *Roll for* offers them."""
        if self.roll_for is not None:
            self.roll_for.options = characters

    @property
    def tray(self) -> DiceTray | None:
        """The seat's tray (None on an observer's page), built on first use."""
        if self._tray is None:
            self._set_tray(self._tray_for, self.locale)
        return self._tray

    @property
    def built_tray(self) -> DiceTray | None:
        """The tray if it is built (None before the Dice tab is first shown)."""
        return self._tray

    def show_tray(self) -> None:
        """Build the tray when the Dice tab is the one shown."""
        if self._shown():
            self.tray  # noqa: B018 - built on first use

    def _set_tray(self, cid: str | None, locale: str) -> None:
        if self._tray is not None:
            self._tray.close()
        self._tray_for = cid
        character = self.models.get(cid) if cid else None
        self._tray = DiceTray(
            character,
            play=self.play,
            character_id=cid if character is not None else None,
            locale=locale,
            animate=self.animate,
            who=self.session.name or self.session.seat,
        )
        self._tray.add_class("tt-table-tray")
        self._tray.locale_toggle.layout.display = "none"  # the screen's one switch rules
        self.tray_box.children = [self.tray_bar, self.roll_tables.box, self._tray]

    def hidden_wanted(self) -> bool:
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

    def relabel(self, loc: str) -> None:
        """The GM's bar in ``loc`` (the tray follows its own ``locale``, which the screen sets)."""
        self.locale = loc
        if self.blind_toggle is not None:
            self.blind_toggle.description = _t("blind_roll", loc)
            self.blind_toggle.tooltip = _t("blind_roll_tip", loc, **gm_words(self.session.system, loc))
        if self.hide_notation_toggle is not None:
            self.hide_notation_toggle.description = _t("hide_notation", loc)
            self.hide_notation_toggle.tooltip = _t("hide_notation_tip", loc)
        self.roll_tables.relabel(loc)
        if self.hidden_toggle is not None:
            self.hidden_toggle.description = _t("hidden_roll", loc)
            self.hidden_toggle.tooltip = _t("hidden_roll_tip", loc)
            self.roll_for.description = _t("roll_for", loc)
            self.roll_for.tooltip = _t("roll_for_tip", loc)


__all__ = ["TrayArea"]
