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

The sheet is a composition of parts, each built with what it needs: the character's binding
to its system and its play (:class:`~.character_view.CharacterBinding`), the places of the
layout (:class:`~.sheet_index.SheetIndex`), the section cards and their field views
(:class:`~.sheet_sections.SectionCards`), the sheet check (:class:`~.sheet_problems.SheetCheck`),
Save/Load (:class:`~.sheet_file.SheetFile`), the phase bar (:class:`~.sheet_phase.PhaseBar`)
and the Advancement card (:class:`~.sheet_advance.AdvancePanel`). :class:`CharacterSheet` builds
them, puts their widgets in place, and passes the character's changes and the language on.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Callable

import ipywidgets as widgets
import traitlets

from tabletop_widgets.core.i18n import check_locale, tr
from tabletop_widgets.core.play import LocalPlay, Play
from tabletop_widgets.core.problems import Problem, ValidationError
from tabletop_widgets.core.registry import get_system
from tabletop_widgets.front import stylesheet

from . import language
from .base import locale_toggle, locale_validator, text_lookup
from .character_view import CharacterBinding
from .sheet_advance import AdvancePanel
from .sheet_context import esc, insert_after
from .sheet_fields import ActionBar, FieldView, close_tree, hbox, html_widget
from .sheet_file import MAX_UPLOAD_BYTES, SheetFile
from .sheet_index import SheetIndex
from .sheet_phase import PhaseBar
from .sheet_problems import SheetCheck
from .sheet_sections import REFERENCE_KINDS, SectionCards, SheetViews, starts_open

#: User-facing text of the sheet's frame, in English and Russian (the sections', the sheet
#: check's, the phase's and Save/Load's words are in their modules).
TEXTS: dict[str, dict[str, str]] = {
    "unnamed": {"en": "Unnamed character", "ru": "Безымянный персонаж"},
    "sheet_tip": {"en": "Character sheet", "ru": "Лист персонажа"},
    "locale_tip": {"en": "Language", "ru": "Язык"},
    "en_tip": {"en": "English", "ru": "English"},
    "ru_tip": {"en": "Русский", "ru": "Русский"},
}

_CSS = stylesheet("sheet")  # tabletop_widgets/front/sheet.css


_t = text_lookup(TEXTS)


class CharacterSheet(widgets.VBox):
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
        one (shown where ``can("edit_gm")``). Default: the play's.
    play : Play, optional
        What the sheet acts through (:mod:`tabletop_widgets.core.play`): its permissions, its
        rules actions, advances and awards. By default the notebook's own (the rules on the
        character here); a shared table's seat gives its ``TablePlay`` (recorded at the table).
    character_id : str, optional
        The character's id where ``play`` keeps several (a table's).
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
    binding, index, cards, checker, file, phase_part, advancement
        The sheet's parts (see the module's docs).
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
        play: Play | None = None,
        character_id: str | None = None,
        **kwargs: Any,
    ):
        given, locale = locale, language.start_locale(locale)  # None: the page's language
        check_locale(locale)
        system = system if system is not None or play is None else play.system
        if play is None:
            play = LocalPlay(system if system is not None else get_system(character.SYSTEM), permit=can)
        self.binding = CharacterBinding(
            character,
            system,
            locale=locale,
            can=can,
            perform=perform,
            advance=advance,
            award=award,
            play=play,
            character_id=character_id,
        )
        b = self.binding
        self.character, self.system, self.can, self.ctx = b.character, b.system, b.can, b.ctx
        self.play, self.character_id = b.play, b.character_id
        self.ctx.problems_changed = self.on_field_problems
        self.index = SheetIndex(self.system.sheet)
        built: dict[str, FieldView] = {}  # the views, as the cards build them: the check reads them

        self.style_block = html_widget(_CSS, classes=["tt-style"])
        header = self._build_header(locale)
        self.checker = SheetCheck(self.ctx, self.index, built)
        self.summary = self.checker.widget
        self.phase_part = PhaseBar(self.ctx)
        self.phase_bar = self.phase_part.widget
        self.cards = SectionCards(
            self.ctx, self.index, built=built, problems_by_home=self.checker.by_home, open_sections=open_sections
        )
        self.body = self.cards.body
        self.views: SheetViews = self.cards.views
        self.actions: dict[str, list[ActionBar]] = self.cards.actions
        # the Advancement part: a folded card, built when first opened (sheet_advance.py)
        self.advancement = AdvancePanel(self.ctx, advance=b.advance, award=b.award)
        self.body.children = (*self.body.children, self.advancement.widget)

        # the status line (``status``) goes after the header when first needed
        super().__init__([self.style_block, header, self.phase_bar, self.summary, self.body], **kwargs)
        self.add_class("tt-sheet")
        self.add_class(f"tt-sheet-{self.system.slug}")
        self._start(locale, given)

    def _build_header(self, locale: str) -> widgets.HBox:
        """The title, and the tools: Save, Load and the EN/RU toggle."""
        self.title = html_widget(classes=["tt-sheet-title"])
        self.file = SheetFile(
            self.ctx,
            can=self.can,
            place_link=lambda link: insert_after(self.tools, link, self.file.save_button),
            place_status=lambda line: insert_after(self, line, self.header),
        )
        self.locale_toggle = locale_toggle(locale)
        self.tools = hbox([*self.file.tools, self.locale_toggle], classes=["tt-sheet-tools"])
        self.header = hbox([self.title, self.tools], classes=["tt-sheet-header"])
        return self.header

    def _start(self, locale: str, given: str | None) -> None:
        """Speak ``locale`` (or follow the page's language when none was ``given``), follow the
        character, and show everything once in that language with the rules check."""
        built_in = self.ctx.locale  # the views and actions were made in it, with their words
        self._constructing = True  # the one relabel below does what a locale change would
        self.locale = locale
        self.locale_toggle.observe(lambda ch: language.toggled(self, ch["new"]), names="value")
        language.adopt(self, given, self.locale_toggle)
        self.binding.observe(self._on_character)
        self._sheet_closed = False
        self._constructing = False
        self._relabel(views=self.ctx.locale != built_in)
        self.revalidate()

    # -- language ------------------------------------------------------------------------------
    _check_locale = locale_validator()

    @traitlets.observe("locale")
    def _on_locale(self, change) -> None:
        if not hasattr(self, "ctx") or not hasattr(self, "locale_toggle"):
            return  # not built yet: nothing to relabel
        self.ctx.locale = change["new"]  # the parts speak the context's language
        if self.locale_toggle.value != change["new"]:
            self.locale_toggle.value = change["new"]
        if not getattr(self, "_constructing", False):
            self._relabel()

    def _relabel(self, views: bool = True) -> None:
        """Every text in the sheet's language; ``views=False``: not the fields' views and the
        actions (just made in that language)."""
        loc = self.locale
        if views:
            self.cards.relabel_views()
            self.phase_part.relabel()
        self.advancement.relabel()
        self.phase_part.render()
        self.cards.relabel_sections()

        self.locale_toggle.tooltip = _t("locale_tip", loc)
        self.locale_toggle.tooltips = [_t("en_tip", loc), _t("ru_tip", loc)]
        self.file.relabel()
        self._render_title()
        self.checker.render()
        self.file.render_status()

    def _render_title(self) -> None:
        loc = self.locale
        name = getattr(self.character, "name", "") or _t("unnamed", loc)
        self.title.value = f'<h2>{esc(name)}</h2><span class="tt-system">{esc(tr(self.system.title, loc))}</span>'

    # -- live updates --------------------------------------------------------------------------
    def _on_character(self, change) -> None:
        name = change["name"]
        self.ctx.forget_checks()
        self.cards.follow(name)
        if name == "name":
            self._render_title()
        self.advancement.on_character(name)
        if name == "phase":  # the badge, the action, and what only creation lets players set
            self.phase_part.render()
            for view in self.cards.all_views():
                view.relabel()
        self.cards.refresh_tree_derived(name)
        self.revalidate()

    def revalidate(self) -> list[Problem]:
        """Run ``SYSTEM.validate`` and show each problem next to its field (the rest on top)."""
        problems = self.checker.revalidate()
        self.on_field_problems()
        return problems

    def on_field_problems(self) -> None:
        """A field's problems changed (a refused edit, or the rules check): the sections that
        have some say so, and the sheet check counts them."""
        if getattr(self, "cards", None) is None or self.checker.revalidating:
            return
        self.cards.mark_problems(self.checker.homes())
        self.checker.render()

    def close(self) -> None:
        """Stop following the character and close every widget of the sheet."""
        if getattr(self, "_sheet_closed", True):  # already closed, or never fully built
            super().close()
            return
        self._sheet_closed = True
        self.binding.unobserve(self._on_character)
        self.cards.unbind()
        for child in list(self.children):
            close_tree(child)
        super().close()

    # -- the parts' public names, on the sheet ---------------------------------------------------
    @property
    def problems(self) -> list[Problem]:
        """The latest ``SYSTEM.validate(character)`` list."""
        return self.checker.problems

    def shown_problems(self) -> list[tuple[str | None, Problem]]:
        """Every problem the sheet shows, with the field it shows next to (the sheet check's)."""
        return self.checker.shown()

    def render_summary(self) -> None:
        """The sheet check on top, in the sheet's language."""
        self.checker.render()

    def home_of(self, field: str | None) -> str | None:
        """The sheet field that shows a problem about ``field`` (:meth:`SheetIndex.home_of`)."""
        return self.index.home_of(field)

    def by_home(self, problems: Iterable[Problem]) -> dict[str | None, list[Problem]]:
        """``problems`` by the field each shows next to (None: the whole character's)."""
        return self.index.by_home(problems)

    def sheet_field(self, name: str | None):
        """The sheet's field ``name`` (built or not), or None."""
        return self.index.field(name)

    @property
    def section_of(self) -> dict[str, str]:
        """``{trait name: section id}`` of every field, built or not."""
        return self.index.section_of

    @property
    def section_specs(self) -> dict[str, Any]:
        """``{section id: Section}`` of the layout."""
        return self.index.section_specs

    @property
    def sections(self) -> dict[str, widgets.Widget]:
        """``{section id: VBox}``: each section's card."""
        return self.cards.sections

    @property
    def section_titles(self) -> dict[str, tuple[widgets.HTML, Any]]:
        return self.cards.section_titles

    @property
    def built_sections(self) -> set[str]:
        """The ids of the sections whose fields are built."""
        return self.cards.built_sections

    def open_section(self, section_id: str) -> None:
        """Unfold a section, building its fields the first time."""
        self.cards.open_section(section_id)

    def fold_section(self, section_id: str) -> None:
        """Fold a section away (its widgets, once built, are kept)."""
        self.cards.fold_section(section_id)

    def toggle_section(self, section_id: str) -> None:
        """Open a folded section, fold an open one (its fold button)."""
        self.cards.toggle_section(section_id)

    def is_open(self, section_id: str) -> bool:
        return self.cards.is_open(section_id)

    def build_section(self, section_id: str) -> None:
        """Build a section's fields if not built yet (it stays folded or open)."""
        self.cards.build_section(section_id)

    def build_all(self) -> None:
        """Build every section's fields (folded sections stay folded)."""
        self.cards.build_all()

    def all_views(self) -> list[FieldView]:
        """Every built field view (group totals included)."""
        return self.cards.all_views()

    @property
    def save_button(self) -> widgets.Button:
        return self.file.save_button

    @property
    def upload(self) -> widgets.FileUpload:
        return self.file.upload

    @property
    def download(self) -> widgets.HTML:
        """The download link Save shows (``.tt-sheet-download``), after the Save button."""
        return self.file.download

    @property
    def status(self) -> widgets.HTML:
        """The status line under the header (``.tt-sheet-status``): a load's or save's outcome."""
        return self.file.status

    @property
    def load_error(self) -> ValidationError | None:
        """The last refused file's ``ValidationError`` (None after a good one)."""
        return self.file.load_error

    def to_json(self) -> str:
        """The character as the JSON text the sheet saves (``Character.to_dict``)."""
        return self.file.to_json()

    def filename(self) -> str:
        """The file name the character saves under."""
        return self.file.filename()

    def prepare_download(self, check: bool = True) -> bool:
        """Show a download link (a ``data:`` URL) holding the character's JSON."""
        return self.file.prepare_download(check)

    def load_json(self, raw: bytes | str, filename: str = "character.json") -> bool:
        """Replace the character with the one in ``raw`` (JSON text), all or nothing."""
        return self.file.load_json(raw, filename)

    def render_status(self) -> None:
        """The status line in the sheet's language."""
        self.file.render_status()

    @property
    def phase_badge(self) -> widgets.HTML:
        return self.phase_part.badge

    @property
    def finish(self) -> ActionBar:
        """The Finish character action (``.tt-sheet-finish``): shown only while the character
        is created, made when first needed."""
        return self.phase_part.finish

    def finish_character(self) -> bool:
        """The Finish character action (as its button does): the character enters play, or the
        refusal's problems show under the button. Returns whether it entered play."""
        return self.phase_part.finish_character()


def show_sheet(character, system=None, locale: str | None = None, **kwargs: Any) -> CharacterSheet:
    """A live :class:`CharacterSheet` for ``character`` (its system is found from
    ``character.SYSTEM`` unless given); the notebook displays the returned widget."""
    return CharacterSheet(character, system, locale=locale, **kwargs)


__all__ = ["CharacterSheet", "show_sheet", "MAX_UPLOAD_BYTES", "REFERENCE_KINDS", "SheetViews", "starts_open"]
