"""The generic character sheet: any system's ``sheet`` layout rendered as a live paper-like sheet.

``CharacterSheet(character)`` lays out the sections the system declares (grids of label/value
pairs, a parameter tree as columns, resource bars with quick +/- buttons, tables for lists with
add/edit/remove from the system's data tables, tags and mappings). Inputs are bound both ways:
every edit goes through the model's own limits, refused edits are shown next to the field and
the widget goes back to the model's value, clamped values are written back, derived values
update live. ``SYSTEM.validate`` problems are shown next to their field, in the sheet's language
(the rules of the character's phase: the creation rules only while it is being created). The
header shows the phase and, in creation, the **Finish character** action
(``GameSystem.start_play``; a refusal lists what is left to fix).
The character saves as a JSON download link and loads from an uploaded JSON file, all or nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Callable

import ipywidgets as widgets
import traitlets

from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.phases import FINISH_ACTION, phase_words
from tabletop_widgets.core.problems import Problem
from tabletop_widgets.front import stylesheet

from . import language
from .base import locale_toggle, locale_validator, text_lookup
from .character_view import CharacterView
from .sheet_advance import AdvancePanel
from .sheet_context import esc
from .sheet_fields import ActionBar, DerivedView, close_tree, hbox, html_widget, set_display
from .sheet_file import MAX_UPLOAD_BYTES, SheetFile
from .sheet_problems import SheetProblems
from .sheet_sections import REFERENCE_KINDS, SheetSections, SheetViews, starts_open

#: User-facing text of the sheet's frame, in English and Russian (the sections', the sheet
#: check's and Save/Load's words are in their modules).
TEXTS: dict[str, dict[str, str]] = {
    "unnamed": {"en": "Unnamed character", "ru": "Безымянный персонаж"},
    "sheet_tip": {"en": "Character sheet", "ru": "Лист персонажа"},
    "locale_tip": {"en": "Language", "ru": "Язык"},
    "en_tip": {"en": "English", "ru": "English"},
    "ru_tip": {"en": "Русский", "ru": "Русский"},
    "phase_tip": {
        "en": "Being created: the creation rules apply. In play: only what always holds.",
        "ru": "Создаётся: действуют правила создания. В игре: только то, что верно всегда.",
    },
}

_CSS = stylesheet("sheet")  # tabletop_widgets/front/sheet.css


_t = text_lookup(TEXTS)


class CharacterSheet(CharacterView, SheetSections, SheetProblems, SheetFile, widgets.VBox):
    """A live character sheet for ``character`` laid out from its system's ``sheet``.

    Parameters
    ----------
    character : CharacterModel
        The character (any system's ``Character``); edited in place.
    system : GameSystem, optional
        Defaults to ``get_system(character.SYSTEM)``.
    locale : {"en", "ru"}, optional
        Starting language; the EN/RU toggle (or setting ``locale``) switches it live. Not
        given: the page's language, followed live (:mod:`~tabletop_widgets.widgets.language`).
    can : callable, optional
        ``can(action) -> bool`` for ``"edit"``, ``"edit_gm"`` (fields the GM enters), ``"save"``,
        ``"load"`` and ``"act"`` (rules actions a section declares, and Finish character); checked
        in every handler (forged front-end messages reach handlers even when a button is
        disabled). Default: everything allowed.
    perform : callable, optional
        ``perform(action, args)`` runs a rules action (a ``SheetAction``, with ``args`` the
        character and the picked row) somewhere else: a shared table records it as its event.
        Default: the action's method runs on the character here.
    advance, award : callable, optional
        The Advancement part's seam (:mod:`~tabletop_widgets.widgets.sheet_advance`):
        ``advance(advance_id, **options)`` buys an advance, ``award(resource, amount)`` gives
        one (shown where ``can("edit_gm")``). Default: the system's ``advance`` / ``award`` on
        the character; at a shared table, the session's seat actions.
    open_sections : "all" or iterable of section ids, optional
        The sections that start unfolded; by default :func:`starts_open` decides. A folded
        section's widgets are built when it is first opened (``open_section``), so a notebook
        saved with widget state stays small.

    Attributes
    ----------
    views
        ``{trait name: FieldView}`` of every field on the sheet (a :class:`SheetViews`: a field
        of a folded section is built when it is looked up).
    sections
        ``{section id: VBox}``; ``open_section(id)`` / ``fold_section(id)`` /
        ``is_open(id)``.
    problems
        The latest ``SYSTEM.validate(character)`` list.
    """

    locale = traitlets.Unicode("en", help="Language of the sheet: 'en' or 'ru'")

    def __init__(
        self,
        character,
        system=None,
        *,
        locale: str | None = None,
        can: Callable[[str], bool] | None = None,
        open_sections: str | Iterable[str] | None = None,
        perform: Callable[[Any, list], Any] | None = None,
        advance: Callable[..., Any] | None = None,
        award: Callable[..., Any] | None = None,
        **kwargs: Any,
    ):
        given, locale = self.view_character(character, system, locale=locale, can=can, perform=perform)
        self.ctx.problems_changed = self.on_field_problems
        self.problems: list[Problem] = []
        self.views = SheetViews(self)
        self.actions: dict[str, list] = {}

        self.style_block = html_widget(_CSS, classes=["tt-style"])
        header = self._build_header(locale)
        self.summary = html_widget(classes=["tt-sheet-problems"])
        self._build_phase_bar()
        self.body = self.build_body(open_sections)
        # the Advancement part: a folded card, built when first opened (sheet_advance.py)
        self.advancement = AdvancePanel(self.ctx, advance=advance, award=award)
        self.body.children = (*self.body.children, self.advancement.widget)

        # the status line (``status``) goes after the header when first needed
        super().__init__([self.style_block, header, self.phase_bar, self.summary, self.body], **kwargs)
        self.add_class("tt-sheet")
        self.add_class(f"tt-sheet-{self.system.slug}")
        self._start(locale, given)

    def _build_header(self, locale: str) -> widgets.HBox:
        """The title, and the tools: Save, Load and the EN/RU toggle."""
        self.title = html_widget(classes=["tt-sheet-title"])
        self.locale_toggle = locale_toggle(locale)
        self.tools = hbox([*self.build_file_tools(), self.locale_toggle], classes=["tt-sheet-tools"])
        self.header = hbox([self.title, self.tools], classes=["tt-sheet-header"])
        return self.header

    def _build_phase_bar(self) -> None:
        """The phase, and in creation the one step into play (Finish character)."""
        self.phase_badge = html_widget(classes=["tt-sheet-phase"])
        self._finish: ActionBar | None = None  # made while the character is created (finish)
        if getattr(self.character, "phase", "creation") == "creation":  # made with the bar: one message
            self._finish = ActionBar(self.ctx, FINISH_ACTION, classes=["tt-sheet-finish"])
        parts = [self.phase_badge] + ([self._finish.widget] if self._finish is not None else [])
        self.phase_bar = hbox(parts, classes=["tt-sheet-phase-bar"])

    @property
    def finish(self) -> ActionBar:
        """The Finish character action (``.tt-sheet-finish``), after the phase badge: shown
        only while the character is created, made when first needed."""
        if self._finish is None:
            self._finish = ActionBar(self.ctx, FINISH_ACTION, classes=["tt-sheet-finish"])
            if getattr(self.character, "phase", "creation") != "creation":
                set_display(self._finish.widget, "none")
            self.phase_bar.children = (*self.phase_bar.children, self._finish.widget)
        return self._finish

    def _start(self, locale: str, given: str | None) -> None:
        """Speak ``locale`` (or follow the page's language when none was ``given``), follow the
        character, and show everything once in that language with the rules check."""
        built_in = self.ctx.locale  # the views and actions were made in it, with their words
        self._constructing = True  # the one relabel below does what a locale change would
        self.locale = locale
        self.locale_toggle.observe(lambda ch: language.toggled(self, ch["new"]), names="value")
        language.adopt(self, given, self.locale_toggle)
        self.character.observe(self._on_character, names=traitlets.All)
        self._sheet_closed = False
        self._constructing = False
        self._relabel(views=self.ctx.locale != built_in)
        self.revalidate()

    # -- language ------------------------------------------------------------------------------
    _check_locale = locale_validator()

    @traitlets.observe("locale")
    def _on_locale(self, change) -> None:
        if self.follow_locale(change["new"]) and not getattr(self, "_constructing", False):
            self._relabel()

    def _relabel(self, views: bool = True) -> None:
        """Every text in the sheet's language; ``views=False``: not the fields' views and the
        actions (just made in that language)."""
        loc = self.locale
        if views:
            for v in self.all_views():
                v.relabel()
            for bars in self.actions.values():
                for bar in bars:
                    bar.relabel()
            if self._finish is not None:
                self._finish.relabel()
        self.advancement.relabel()
        self._render_phase()
        self.relabel_sections()

        self.locale_toggle.tooltip = _t("locale_tip", loc)
        self.locale_toggle.tooltips = [_t("en_tip", loc), _t("ru_tip", loc)]
        self.relabel_file_tools()
        self._render_title()
        self.render_summary()
        self.render_status()

    def _render_phase(self) -> None:
        """The phase badge; the Finish character action only while the character is created."""
        loc = self.locale
        phase = getattr(self.character, "phase", "creation")
        self.phase_badge.value = (
            f'<span class="tt-phase tt-phase-{esc(phase)}" title="{esc(_t("phase_tip", loc))}">'
            f"{esc(phase_words(phase, loc))}</span>"
        )
        if phase == "creation":
            set_display(self.finish.widget, None)
        elif self._finish is not None:
            set_display(self._finish.widget, "none")

    def finish_character(self) -> bool:
        """The Finish character action (as its button does): the character enters play, or the
        refusal's problems show under the button. Returns whether it entered play."""
        return self.finish.run()

    def _render_title(self) -> None:
        loc = self.locale
        name = getattr(self.character, "name", "") or _t("unnamed", loc)
        self.title.value = f'<h2>{esc(name)}</h2><span class="tt-system">{esc(tr(self.system.title, loc))}</span>'

    # -- live updates --------------------------------------------------------------------------
    def _on_character(self, change) -> None:
        name = change["name"]
        self.ctx.forget_checks()
        self.follow(name)
        if name == "name":
            self._render_title()
        self.advancement.on_character(name)
        if name == "phase":  # the badge, the action, and what only creation lets players set
            self._render_phase()
            for view in self.all_views():
                view.relabel()
        tree_derived = [v for v in self.all_views() if isinstance(v, DerivedView) and v.field.die_label]
        for v in tree_derived:
            if name not in v.names:
                v.refresh()
        self.revalidate()

    def close(self) -> None:
        """Stop following the character and close every widget of the sheet."""
        if getattr(self, "_sheet_closed", True):  # already closed, or never fully built
            super().close()
            return
        self._sheet_closed = True
        self.stop_following(self._on_character)
        for view in self.all_views():
            binding = getattr(view, "binding", None)
            if binding is not None:
                binding.unbind()
        for child in list(self.children):
            close_tree(child)
        super().close()


def show_sheet(character, system=None, locale: str | None = None, **kwargs: Any) -> CharacterSheet:
    """A live :class:`CharacterSheet` for ``character`` (its system is found from
    ``character.SYSTEM`` unless given); the notebook displays the returned widget."""
    return CharacterSheet(character, system, locale=locale, **kwargs)


__all__ = ["CharacterSheet", "show_sheet", "MAX_UPLOAD_BYTES", "REFERENCE_KINDS", "SheetViews", "starts_open"]
