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

import base64
import html
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Callable

import ipywidgets as widgets
import traitlets

from tabletop_widgets.core.i18n import LOCALES, T, check_locale, tr
from tabletop_widgets.core.phases import FINISH_ACTION, phase_words
from tabletop_widgets.core.problems import Problem, ValidationError
from tabletop_widgets.core.registry import get_system
from tabletop_widgets.front import stylesheet

from . import language
from .base import locale_validator, text_lookup
from .sheet_advance import AdvancePanel
from .sheet_fields import (
    ActionBar,
    DerivedView,
    FieldView,
    ResourceView,
    SheetContext,
    button_widget,
    close_tree,
    fixed_layout,
    hbox,
    html_widget,
    make_view,
    own_layout,
    problems_html,
    section_actions,
    vbox,
)

#: The largest character file the sheet accepts (bytes).
MAX_UPLOAD_BYTES = 1_000_000

#: User-facing text of the sheet's frame, in English and Russian.
TEXTS: dict[str, dict[str, str]] = {
    "unnamed": {"en": "Unnamed character", "ru": "Безымянный персонаж"},
    "sheet_tip": {"en": "Character sheet", "ru": "Лист персонажа"},
    "locale_tip": {"en": "Language", "ru": "Язык"},
    "en_tip": {"en": "English", "ru": "English"},
    "ru_tip": {"en": "Русский", "ru": "Русский"},
    "save": {"en": "Save JSON", "ru": "Сохранить JSON"},
    "save_tip": {
        "en": "Prepare a download of this character as a JSON file",
        "ru": "Подготовить файл JSON с этим персонажем для скачивания",
    },
    "download": {"en": "Download {name}", "ru": "Скачать {name}"},
    "load": {"en": "Load JSON", "ru": "Загрузить JSON"},
    "load_tip": {
        "en": "Replace this character with one from a JSON file saved by the sheet",
        "ru": "Заменить персонажа данными из файла JSON, сохранённого листом",
    },
    "loaded": {"en": "Loaded {name}.", "ru": "Загружен файл {name}."},
    "load_failed": {
        "en": "Could not load {name}; the sheet is unchanged.",
        "ru": "Не удалось загрузить {name}; лист не изменён.",
    },
    "too_big": {"en": "the file is larger than {limit} bytes", "ru": "файл больше {limit} Б"},
    "not_json": {"en": "not a JSON file ({detail})", "ru": "это не файл JSON ({detail})"},
    "not_utf8": {"en": "the file is not UTF-8 text", "ru": "файл не в кодировке UTF-8"},
    "not_object": {
        "en": "expected a JSON object with the character's values",
        "ru": "ожидался объект JSON со значениями персонажа",
    },
    "problems": {"en": "Sheet check", "ru": "Проверка листа"},
    "all_good": {"en": "No problems found.", "ru": "Проблем не найдено."},
    "not_allowed": {"en": "you may not do this", "ru": "вам нельзя это делать"},
    "phase_tip": {
        "en": "Being created: the creation rules apply. In play: only what always holds.",
        "ru": "Создаётся: действуют правила создания. В игре: только то, что верно всегда.",
    },
    "show": {"en": "Show", "ru": "Показать"},
    "hide": {"en": "Hide", "ru": "Скрыть"},
    "show_tip": {"en": "Show the section {name}", "ru": "Показать раздел «{name}»"},
    "hide_tip": {"en": "Hide the section {name}", "ru": "Скрыть раздел «{name}»"},
}

#: Field kinds that are reference material rather than numbers in play: a section made only of
#: these (or laid out as a table or free text) starts folded, unless it holds a resource.
REFERENCE_KINDS = frozenset({"list", "tags", "mapping", "longtext", "text"})


def starts_open(section) -> bool:
    """Whether a section starts unfolded: ``Section.collapsed`` when the system says;
    otherwise folded when it is a table or free text, or holds only reference kinds
    (:data:`REFERENCE_KINDS`), and unfolded when it holds a resource (the +/- of play)."""
    declared = section.collapsed
    if declared is not None:
        return not declared
    kinds = {f.kind for f in section.fields}
    if "resource" in kinds:
        return True
    return not (section.layout in ("table", "text") or kinds <= REFERENCE_KINDS)


class SheetViews(Mapping):
    """``{trait name: FieldView}`` of every field on the sheet. A field whose section is folded
    and not built yet is built on first access (the section stays folded)."""

    def __init__(self, sheet: "CharacterSheet"):
        self._sheet = sheet
        self.built: dict[str, FieldView] = {}

    def __getitem__(self, name: str) -> FieldView:
        if name not in self.built:
            section_id = self._sheet.section_of.get(name)
            if section_id is None:
                raise KeyError(name)
            self._sheet.build_section(section_id)
        return self.built[name]

    def __contains__(self, name: object) -> bool:
        section_id = self._sheet.section_of.get(name)  # type: ignore[arg-type]
        if section_id is None:
            return False
        return name in self.built if section_id in self._sheet.built_sections else True

    def __iter__(self) -> Iterator[str]:
        self._sheet.build_all()
        return iter(list(self.built))

    def __len__(self) -> int:
        self._sheet.build_all()
        return len(self.built)


_CSS = stylesheet("sheet")  # tabletop_widgets/front/sheet.css


_t = text_lookup(TEXTS)


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _slug_filename(name: str, system: str) -> str:
    base = re.sub(r"[^\w\-]+", "_", name.strip(), flags=re.UNICODE).strip("_") or "character"
    return f"{base}.{system}.json"


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
        given, locale = locale, language.start_locale(locale)  # None: the page's language
        check_locale(locale)
        self.character = character
        self.system = system if system is not None else get_system(character.SYSTEM)
        self.can = can or (lambda action: True)
        self.ctx = SheetContext(character, self.system, locale=locale, can=self.can, perform=perform)
        self.ctx.problems_changed = self._on_field_problems
        self.problems: list[Problem] = []
        self.load_error: ValidationError | None = None
        self._load_message: tuple[str, dict] | None = None
        self.views = SheetViews(self)
        self._extra_views: list[FieldView] = []
        self.actions: dict[str, list] = {}
        self._watchers: dict[str, list[FieldView]] = {}

        self.style_block = html_widget(_CSS, classes=["tt-style"])
        self.title = html_widget(classes=["tt-sheet-title"])
        self.locale_toggle = widgets.ToggleButtons(
            options=[("EN", "en"), ("RU", "ru")], value=locale, style={"button_width": "44px"}
        )
        self.locale_toggle.add_class("tt-locale")
        self.save_button = button_widget(
            icon="download", layout=widgets.Layout(width="auto"), classes=["tt-sheet-save"]
        )
        self.download = html_widget(layout=widgets.Layout(display="none"), classes=["tt-sheet-download"])
        self.upload = widgets.FileUpload(
            accept=".json,application/json", multiple=False, layout=widgets.Layout(width="auto")
        )
        self.upload.add_class("tt-sheet-load")
        self.status = html_widget(layout=widgets.Layout(display="none"), classes=["tt-sheet-status"])
        tools = hbox([self.save_button, self.download, self.upload, self.locale_toggle], classes=["tt-sheet-tools"])
        header = hbox([self.title, tools], classes=["tt-sheet-header"])
        self.summary = html_widget(classes=["tt-sheet-problems"])
        # the phase, and in creation the one step into play
        self.phase_badge = html_widget(classes=["tt-sheet-phase"])
        self.finish = ActionBar(self.ctx, FINISH_ACTION)
        self.finish.widget.add_class("tt-sheet-finish")
        self.phase_bar = hbox([self.phase_badge, self.finish.widget], classes=["tt-sheet-phase-bar"])

        self.sections: dict[str, widgets.Widget] = {}
        self.section_titles: dict[str, tuple[widgets.HTML, Any]] = {}
        self._visibility: list[tuple[widgets.Widget, str]] = []
        self._section_specs = {s.id: s for s in self.system.sheet.sections}
        #: ``{trait name: section id}`` of every field, built or not
        self.section_of: dict[str, str] = {}
        for s in self.system.sheet.sections:
            for f in s.fields:
                self.section_of.setdefault(f.name, s.id)
        self.built_sections: set[str] = set()
        self._relabelled = False  # True once the whole sheet has been labelled
        self._folds: dict[str, tuple[widgets.VBox, widgets.Button]] = {}
        if open_sections is None:
            opened = {s.id for s in self.system.sheet.sections if starts_open(s)}
        elif open_sections == "all":
            opened = set(self._section_specs)
        else:
            opened = set(open_sections)
            unknown = opened - set(self._section_specs)
            if unknown:
                raise ValueError(
                    f"unknown section(s) {', '.join(sorted(unknown))}: this sheet has {', '.join(self._section_specs)}"
                )
        body = [self._build_section(s, s.id in opened) for s in self.system.sheet.sections]
        self.body = widgets.GridBox(
            body,
            layout=widgets.Layout(
                grid_template_columns="repeat(2, minmax(0, 1fr))", grid_auto_flow="row dense", width="100%"
            ),
        )
        self.body.add_class("tt-sheet-body")
        # the Advancement part: a folded card, built when first opened (sheet_advance.py)
        self.advancement = AdvancePanel(self.ctx, advance=advance, award=award)
        self.body.children = (*self.body.children, self.advancement.widget)

        super().__init__([self.style_block, header, self.status, self.phase_bar, self.summary, self.body], **kwargs)
        self.add_class("tt-sheet")
        self.add_class(f"tt-sheet-{self.system.slug}")
        built_in = self.ctx.locale  # the views and actions were made in it, with their words
        self._constructing = True  # the one relabel below does what a locale change would
        self.locale = locale

        self.save_button.on_click(lambda _b: self.prepare_download())
        self.upload.observe(self._on_upload, names="value")
        self.locale_toggle.observe(lambda ch: language.toggled(self, ch["new"]), names="value")
        language.adopt(self, given, self.locale_toggle)
        character.observe(self._on_character, names=traitlets.All)
        self._sheet_closed = False
        self._constructing = False
        self._relabel(views=self.ctx.locale != built_in)
        self.revalidate()

    # -- layout ----------------------------------------------------------------------------
    def _view(self, field, classes: Iterable[str] = ()) -> FieldView:
        view = make_view(self.ctx, field, classes=classes)
        self.views.built.setdefault(field.name, view)
        for name in view.names:
            self._watchers.setdefault(name, []).append(view)
        return view

    def _build_section(self, section, opened: bool) -> widgets.Widget:
        """The section's card: its title and fold button now, its fields when first opened."""
        # each widget made with its classes: one message each, not one more per class
        title = html_widget(self._section_title_html(section.id), classes=["tt-section-title"])
        toggle = button_widget(
            layout=fixed_layout(width="auto"), classes=["tt-section-toggle"], **self._fold_words(section.id, opened)
        )
        toggle.on_click(lambda _b, sid=section.id: self.toggle_section(sid))
        head = hbox([title, toggle], classes=["tt-section-head"])
        # folded or not from the start: open_section / fold_section below then change nothing
        content = vbox(classes=["tt-section-content"], layout=widgets.Layout(display=None if opened else "none"))
        classes = ["tt-section", f"tt-section-{section.id}", f"tt-layout-{section.layout}"]
        if section.layout in ("tree", "table", "text") or section.columns >= 3:
            classes.append("tt-wide")
        if not opened:
            classes.append("tt-folded")
        box = vbox([head, content], classes=classes)
        self.sections[section.id] = box
        self.section_titles[section.id] = (title, section.label)
        self._folds[section.id] = (content, toggle)
        self._conditional(box, section.visible_if)
        if opened:
            self.open_section(section.id)
        else:
            self.fold_section(section.id)
        return box

    # -- folding -------------------------------------------------------------------------------
    def is_open(self, section_id: str) -> bool:
        content, _toggle = self._folds[section_id]
        return content.layout.display != "none"

    def open_section(self, section_id: str) -> None:
        """Unfold a section, building its fields the first time."""
        if section_id not in self._folds:
            raise KeyError(f"no section {section_id!r} on this sheet")
        self.build_section(section_id)
        content, _toggle = self._folds[section_id]
        own_layout(content).display = None
        self.sections[section_id].remove_class("tt-folded")
        self._label_fold(section_id)

    def fold_section(self, section_id: str) -> None:
        """Fold a section away (its widgets, once built, are kept)."""
        if section_id not in self._folds:
            raise KeyError(f"no section {section_id!r} on this sheet")
        content, _toggle = self._folds[section_id]
        own_layout(content).display = "none"
        self.sections[section_id].add_class("tt-folded")
        self._label_fold(section_id)

    def toggle_section(self, section_id: str) -> None:
        """The fold button: open a folded section, fold an open one. (Only what this viewer
        sees changes: nothing of the character, so no permission is needed.)"""
        if self.is_open(section_id):
            self.fold_section(section_id)
        else:
            self.open_section(section_id)

    def _label_fold(self, section_id: str) -> None:
        _content, toggle = self._folds[section_id]
        words = self._fold_words(section_id, self.is_open(section_id))
        with toggle.hold_sync():  # one message
            toggle.description = words["description"]
            toggle.tooltip = words["tooltip"]

    def _fold_words(self, section_id: str, is_open: bool) -> dict[str, str]:
        """The fold button's words: Show or Hide, and its tooltip naming the section."""
        loc = self.ctx.locale
        name = tr(self._section_specs[section_id].label, loc)
        key = "hide" if is_open else "show"
        return {"description": _t(key, loc), "tooltip": _t(f"{key}_tip", loc, name=name)}

    def _section_title_html(self, section_id: str) -> str:
        return f"<h3>{_esc(tr(self._section_specs[section_id].label, self.ctx.locale))}</h3>"

    def build_all(self) -> None:
        """Build every section's fields (folded sections stay folded)."""
        for section_id in self._section_specs:
            self.build_section(section_id)

    def build_section(self, section_id: str) -> None:
        """Build a section's fields if not built yet (the section stays as folded or open as it
        is): its views follow the character, show their problems and speak the sheet's
        language from then on."""
        if section_id in self.built_sections:
            return
        self.built_sections.add(section_id)
        section = self._section_specs[section_id]
        before = {id(v) for v in self._all_views()}
        content, _toggle = self._folds[section_id]
        parts, wide = self._section_parts(section)
        content.children = parts
        if wide:
            self.sections[section_id].add_class("tt-wide")
        new = [v for v in self._all_views() if id(v) not in before]
        by_home = self._by_home(self.problems)
        for view in new:
            if self.views.built.get(view.field.name) is view:
                view.set_problems(by_home.get(view.field.name, []))
        if self._relabelled:
            # a section opened later: label what was just built in the sheet's language
            for view in new:
                view.relabel()
            for bar in self.actions.get(section_id, []):
                bar.relabel()
            self._relabel_heads()

    def _section_parts(self, section) -> tuple[list[widgets.Widget], bool]:
        fields = list(section.fields)
        parts: list[widgets.Widget] = []
        wide = False
        if section.layout == "tree" and any(f.tier is not None for f in fields):
            tree_fields = [f for f in fields if f.tier is not None]
            parts.append(self._tree(section, tree_fields))
            fields = [f for f in fields if f.tier is None]
        elif any(f.row is not None and f.column is not None for f in fields):
            matrix = [f for f in fields if f.row is not None and f.column is not None]
            parts.append(self._matrix(matrix))
            fields = [f for f in fields if f not in matrix]
        elif any(f.group_label for f in fields):
            grouped = [f for f in fields if f.group_label]
            parts.append(self._groups(grouped))
            fields = [f for f in fields if f not in grouped]
        views = [self._view(f) for f in fields]
        resources = [v for v in views if isinstance(v, ResourceView)]
        narrow = [v for v in views if not v.wide and not isinstance(v, ResourceView)]
        wide_views = [v for v in views if v.wide]
        if resources:
            parts.append(vbox([v.widget for v in resources], classes=["tt-resources"]))
        if narrow:
            cols = max(1, min(section.columns, 4))
            grid = widgets.GridBox(
                [v.widget for v in narrow],
                layout=widgets.Layout(grid_template_columns=f"repeat({cols}, minmax(0, 1fr))", width="100%"),
            )
            grid.add_class("tt-grid")
            parts.append(grid)
        parts += [v.widget for v in wide_views]
        actions = section_actions(self.ctx, section)
        if actions:
            self.actions[section.id] = actions
            bar = vbox([a.widget for a in actions], classes=["tt-actions"])
            parts.append(bar)
        if wide_views and any(
            not hasattr(v, "columns") or len(getattr(v, "columns", [])) > 2
            for v in wide_views
            if v.field.kind == "list"
        ):
            wide = True
        for view in views:
            self._conditional(view.widget, view.field.visible_if)
        return parts, wide

    def _conditional(self, widget: widgets.Widget, trait: str | None) -> None:
        """``visible_if`` names a boolean trait: the section or field shows only while it
        is true (e.g. a shapeshifter's forms), following every change."""
        if not trait or not self.character.has_trait(trait):
            return
        self._visibility.append((widget, trait))
        self._apply_visibility(widget, trait)

    def _apply_visibility(self, widget: widgets.Widget, trait: str) -> None:
        own_layout(widget).display = None if getattr(self.character, trait) else "none"

    def _tree(self, section, fields) -> widgets.Widget:
        """A parameter tree as columns: each root on top, its children below, their leaves under
        them (``Field.tier`` and ``Field.parent``)."""
        by_parent: dict[Any, list] = {}
        for f in fields:
            by_parent.setdefault(f.parent, []).append(f)

        def branch(f, depth: int) -> widgets.Widget:
            kids = by_parent.get(f.name, [])
            place = "tt-tree-root" if depth == 0 else "tt-tree-leaf" if not kids else None
            view = self._view(f, [place] if place else [])  # made with its place in the tree
            if depth == 0:
                return vbox([view.widget] + [branch(k, 1) for k in kids], classes=["tt-tree-col"])
            if not kids:
                return view.widget
            return vbox([view.widget] + [branch(k, depth + 1) for k in kids], classes=["tt-tree-branch"])

        roots = by_parent.get(None, [])
        return hbox([branch(r, 0) for r in roots], classes=["tt-tree"])

    def _matrix(self, fields) -> widgets.Widget:
        """Fields with ``row`` / ``column``: a table, one row per ``row``."""
        rows: list[str] = []
        cols: list[str] = []
        cell: dict[tuple[str, str], Any] = {}
        for f in fields:
            r, c = f.row, f.column
            rows += [r] if r not in rows else []
            cols += [c] if c not in cols else []
            cell[(r, c)] = f
        self._matrix_heads: list[tuple[widgets.HTML, str, list]] = getattr(self, "_matrix_heads", [])
        children: list[widgets.Widget] = [html_widget()]
        for c in cols:
            head = html_widget(classes=["tt-matrix-head"])
            self._matrix_heads.append((head, c, [cell[(r, c)] for r in rows if (r, c) in cell]))
            children.append(head)
        for r in rows:
            first = cell.get((r, cols[0]))
            lab = html_widget(classes=["tt-matrix-rowlabel"])
            self._matrix_heads.append((lab, "", [first] if first else []))
            children.append(lab)
            for c in cols:
                f = cell.get((r, c))
                children.append(self._view(f).widget if f else html_widget())
        grid = widgets.GridBox(
            children,
            layout=widgets.Layout(
                grid_template_columns=f"minmax(var(--tt-matrix-label, 110px), 1.4fr) repeat({len(cols)}, minmax(0, 1fr))",
                width="100%",
            ),
        )
        grid.add_class("tt-matrix")
        return grid

    def _groups(self, fields) -> widgets.Widget:
        """Fields with ``group_label``: one column per group, with the group's total
        (``row_total``, a trait shown as a derived value) underneath."""
        groups: dict[str, list] = {}
        for f in fields:
            groups.setdefault(f.group, []).append(f)
        cols = []
        self._group_heads: list[tuple[widgets.HTML, Any]] = getattr(self, "_group_heads", [])
        for _key, members in groups.items():
            head = html_widget(classes=["tt-group-title"])
            self._group_heads.append((head, members[0].group_label))
            items = [head] + [self._view(f).widget for f in members]
            total = members[0].row_total
            if total:
                try:
                    total_field = self.system.sheet.field(total)
                except KeyError:
                    total_field = None
                if total_field is not None:
                    view = DerivedView(self.ctx, total_field)
                    for name in view.names:
                        self._watchers.setdefault(name, []).append(view)
                    self._extra_views.append(view)
                    view.widget.add_class("tt-group-total")
                    items.append(view.widget)
            col = vbox(items, classes=["tt-group"])
            cols.append(col)
        box = hbox(cols, classes=["tt-groups"])
        return box

    # -- language ------------------------------------------------------------------------------
    _check_locale = locale_validator()

    @traitlets.observe("locale")
    def _on_locale(self, change) -> None:
        if not hasattr(self, "ctx"):
            return
        self.ctx.locale = change["new"]
        if self.locale_toggle.value != change["new"]:
            self.locale_toggle.value = change["new"]
        if not getattr(self, "_constructing", False):
            self._relabel()

    def _all_views(self) -> list[FieldView]:
        seen, out = set(), []
        for views in self._watchers.values():
            for v in views:
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    def _relabel(self, views: bool = True) -> None:
        """Every text in the sheet's language; ``views=False``: not the fields' views and the
        actions (just made in that language)."""
        loc = self.locale
        if views:
            for v in self._all_views():
                v.relabel()
            for bars in self.actions.values():
                for bar in bars:
                    bar.relabel()
            self.finish.relabel()
        self.advancement.relabel()
        self._render_phase()
        for sid, (title, _label) in self.section_titles.items():
            title.value = self._section_title_html(sid)
            self._label_fold(sid)
        self._relabel_heads()
        self._relabelled = True

        self.locale_toggle.tooltip = _t("locale_tip", loc)
        self.locale_toggle.tooltips = [_t("en_tip", loc), _t("ru_tip", loc)]
        self.save_button.description = _t("save", loc)
        self.save_button.tooltip = _t("save_tip", loc)
        self.upload.description = _t("load", loc)
        self.upload.tooltip = _t("load_tip", loc)
        if self.download.layout.display != "none":
            self.prepare_download(check=False)
        self._render_title()
        self._render_summary()
        self._render_status()

    def _relabel_heads(self) -> None:
        loc = self.locale
        for head, column, members in getattr(self, "_matrix_heads", []):
            head.value = self._matrix_head_html(column, members)
        for head, label in getattr(self, "_group_heads", []):
            head.value = _esc(tr(label, loc))

    def _matrix_head_html(self, column: str, members: list) -> str:
        loc = self.locale
        if column == "":  # a row label: the row's first field
            f = members[0] if members else None
            if f is None:
                return ""
            tip = tr(f.help, loc) if f.help else tr(f.label, loc)
            return f'<span class="tt-label-text" title="{_esc(tip)}">{_esc(tr(f.label, loc))}</span>'
        labels = {tr(m.column_label or m.label, loc) for m in members}
        text = labels.pop() if len(labels) == 1 else self.ctx.label_for(column)
        return _esc(text)

    def _render_phase(self) -> None:
        """The phase badge; the Finish character action only while the character is created."""
        loc = self.locale
        phase = getattr(self.character, "phase", "creation")
        self.phase_badge.value = (
            f'<span class="tt-phase tt-phase-{_esc(phase)}" title="{_esc(_t("phase_tip", loc))}">'
            f"{_esc(phase_words(phase, loc))}</span>"
        )
        own_layout(self.finish.widget).display = None if phase == "creation" else "none"

    def finish_character(self) -> bool:
        """The Finish character action (as its button does): the character enters play, or the
        refusal's problems show under the button. Returns whether it entered play."""
        return self.finish.run()

    def _render_title(self) -> None:
        loc = self.locale
        name = getattr(self.character, "name", "") or _t("unnamed", loc)
        self.title.value = f'<h2>{_esc(name)}</h2><span class="tt-system">{_esc(tr(self.system.title, loc))}</span>'

    # -- live updates --------------------------------------------------------------------------
    def _on_character(self, change) -> None:
        name = change["name"]
        self.ctx.forget_checks()
        for widget, trait in self._visibility:
            if trait == name:
                self._apply_visibility(widget, trait)
        for view in self._watchers.get(name, ()):
            view.refresh()
        if name == "name":
            self._render_title()
        self.advancement.on_character(name)
        if name == "phase":  # the badge, the action, and what only creation lets players set
            self._render_phase()
            for view in self._all_views():
                view.relabel()
        tree_derived = [v for v in self._all_views() if isinstance(v, DerivedView) and v.field.die_label]
        for v in tree_derived:
            if name not in v.names:
                v.refresh()
        self.revalidate()

    def revalidate(self) -> list[Problem]:
        """Run ``SYSTEM.validate`` and show each problem next to its field (the rest on top)."""
        try:
            problems = list(self.system.validate(self.character))
        except Exception as exc:  # a rules bug must not break the sheet; show it
            problems = [
                Problem("validate_failed", T(f"checking the sheet failed: {exc}", f"проверка листа не удалась: {exc}"))
            ]
        self.problems = problems
        by_home = self._by_home(problems)
        self._revalidating = True
        try:
            for name, view in self.views.built.items():  # folded, unbuilt sections: when built
                view.set_problems(by_home.get(name, []))
        finally:
            self._revalidating = False
        self._on_field_problems()
        return problems

    # -- where each problem shows ------------------------------------------------------------
    def home_of(self, field: str | None) -> str | None:
        """The sheet field that shows a problem about ``field``: the field itself when it is
        on the sheet, else the field whose view shows that value too (a resource's maximum, a
        budget), else None (a problem of the whole character, shown only in the sheet check)."""
        if field is None:
            return None
        if field in self.section_of:
            return field
        for section in self.system.sheet.sections:
            for f in section.fields:
                if field in (f.max_trait, f.budget, f.row_total):
                    return f.name
        return None

    def _by_home(self, problems: Iterable[Problem]) -> dict[str | None, list[Problem]]:
        out: dict[str | None, list[Problem]] = {}
        for p in problems:
            out.setdefault(self.home_of(p.field), []).append(p)
        return out

    def shown_problems(self) -> list[tuple[str | None, Problem]]:
        """Every problem the sheet shows, with the field it shows next to (None: the whole
        character's): the rules check (``SYSTEM.validate``) and the edits just refused. The
        sheet check at the top lists exactly these."""
        out: list[tuple[str | None, Problem]] = []
        seen: set[tuple] = set()
        for name, view in self.views.built.items():
            if view.edit_error is not None:
                for p in view.edit_error.problems:
                    key = (name, p.code, p.field, tr(p.message, "en"))
                    if key not in seen:
                        seen.add(key)
                        out.append((name, p))
        for p in self.problems:
            home = self.home_of(p.field)
            key = (home, p.code, p.field, tr(p.message, "en"))
            if key not in seen:
                seen.add(key)
                out.append((home, p))
        return out

    def _on_field_problems(self) -> None:
        """A field's problems changed (a refused edit, or the rules check): the sections that
        have some say so, and the sheet check counts them."""
        if getattr(self, "_revalidating", False) or not hasattr(self, "summary"):
            return
        homes = {home for home, _p in self.shown_problems() if home is not None}
        for section_id, box in self.sections.items():  # a folded section says it has some
            if any(self.section_of.get(name) == section_id for name in homes):
                box.add_class("tt-section-has-problem")
            else:
                box.remove_class("tt-section-has-problem")
        self._render_summary()

    def _render_summary(self) -> None:
        loc = self.locale
        shown = self.shown_problems()
        if not shown:
            self.summary.value = f'<div class="tt-summary tt-clean" role="status">✓ {_esc(_t("all_good", loc))}</div>'
            return
        errors = sum(p.severity == "error" for _home, p in shown)
        warnings = len(shown) - errors
        counts = []
        if errors:
            counts.append(f"✖ {errors}")
        if warnings:
            counts.append(f"⚠ {warnings}")
        lines = []
        for home, p in shown:
            where = ""
            field = self._field(home)
            if p.label:
                where = f"<b>{_esc(tr(p.label, loc))}:</b> "
            elif field is not None:
                where = f"<b>{_esc(tr(field.label, loc))}:</b> "
            lines.append(
                f'<li class="tt-{"error" if p.severity == "error" else "warning"}" data-field="{_esc(home or "")}">'
                f"{where}{_esc(p.text(loc))}</li>"
            )
        self.summary.value = (
            f'<details class="tt-summary" role="status"><summary>{_esc(_t("problems", loc))}: '
            f'{" · ".join(counts)}</summary><ul class="tt-problem-list">{"".join(lines)}</ul>'
            f"</details>"
        )

    def _field(self, name: str | None):
        """The sheet's field ``name`` (built or not), or None."""
        section_id = self.section_of.get(name) if name else None
        if section_id is None:
            return None
        return next(f for f in self._section_specs[section_id].fields if f.name == name)

    def close(self) -> None:
        """Stop following the character and close every widget of the sheet."""
        if getattr(self, "_sheet_closed", True):  # already closed, or never fully built
            super().close()
            return
        self._sheet_closed = True
        try:
            self.character.unobserve(self._on_character, names=traitlets.All)
        except ValueError:
            pass
        for view in self._all_views():
            binding = getattr(view, "binding", None)
            if binding is not None:
                binding.unbind()
        for child in list(self.children):
            close_tree(child)
        super().close()

    # -- save and load -------------------------------------------------------------------------
    def to_json(self) -> str:
        """The character as the JSON text the sheet saves (``Character.to_dict``)."""
        return json.dumps(self.character.to_dict(), ensure_ascii=False, indent=2)

    def filename(self) -> str:
        return _slug_filename(getattr(self.character, "name", "") or "", self.system.slug)

    def prepare_download(self, check: bool = True) -> bool:
        """Show a download link (a ``data:`` URL) holding the character's JSON."""
        if check and not self.can("save"):
            self._set_status("error", {"en": TEXTS["not_allowed"]["en"], "ru": TEXTS["not_allowed"]["ru"]})
            return False
        data = base64.b64encode(self.to_json().encode("utf-8")).decode("ascii")
        name = self.filename()
        self.download.value = (
            f'<a download="{_esc(name)}" href="data:application/json;base64,{data}" '
            f'title="{_esc(_t("download", self.locale, name=name))}">⬇ '
            f"{_esc(_t('download', self.locale, name=name))}</a>"
        )
        own_layout(self.download).display = None
        return True

    def load_json(self, raw: bytes | str, filename: str = "character.json") -> bool:
        """Replace the character with the one in ``raw`` (JSON text), all or nothing. A bad file
        leaves the character and the sheet unchanged and shows why."""
        if not self.can("load"):
            self._set_status("error", {"en": TEXTS["not_allowed"]["en"], "ru": TEXTS["not_allowed"]["ru"]})
            return False
        try:
            if isinstance(raw, (bytes, bytearray, memoryview)):
                raw = bytes(raw)
                if len(raw) > MAX_UPLOAD_BYTES:
                    raise _LoadProblem("too_big", limit=MAX_UPLOAD_BYTES)
                try:
                    text = raw.decode("utf-8-sig")
                except UnicodeDecodeError:
                    raise _LoadProblem("not_utf8") from None
            else:
                text = raw
                if len(text.encode("utf-8")) > MAX_UPLOAD_BYTES:
                    raise _LoadProblem("too_big", limit=MAX_UPLOAD_BYTES)
            try:
                data = json.loads(text)
            except (json.JSONDecodeError, RecursionError) as exc:
                detail = (
                    f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
                    if isinstance(exc, json.JSONDecodeError)
                    else "too deeply nested"
                )
                raise _LoadProblem("not_json", detail=detail) from None
            if not isinstance(data, dict):
                raise _LoadProblem("not_object")
            self.character.load_dict(data)
        except _LoadProblem as exc:
            self.load_error = ValidationError([Problem(exc.code, exc.text)])
        except ValidationError as exc:
            self.load_error = exc
        else:
            self.load_error = None
            self._set_status("ok", {loc: _t("loaded", loc, name=filename) for loc in LOCALES})
            return True
        self._set_status("error", {loc: _t("load_failed", loc, name=filename) for loc in LOCALES})
        return False

    def _on_upload(self, change) -> None:
        files = change["new"]
        if not files:
            return
        f = files[0]
        try:
            self.load_json(f.get("content", b""), str(f.get("name", "character.json")))
        finally:
            # let the same file be uploaded again after a fix
            self.upload.unobserve(self._on_upload, names="value")
            try:
                self.upload.value = ()
            finally:
                self.upload.observe(self._on_upload, names="value")

    def _set_status(self, kind: str, message: dict) -> None:
        self._load_message = (kind, message)
        if kind == "ok":
            self.load_error = None
        self._render_status()

    def _render_status(self) -> None:
        if self._load_message is None:
            own_layout(self.status).display = "none"
            self.status.value = ""
            return
        kind, message = self._load_message
        loc = self.locale
        if kind == "ok":
            self.status.value = f'<div class="tt-ok" role="status">✓ {_esc(tr(message, loc))}</div>'
        else:
            details = problems_html(self.load_error.problems, loc, labelled=True) if self.load_error else ""
            self.status.value = (
                f'<div class="tt-field-problem tt-load-error" role="alert">'
                f'<b class="tt-error">✖ {_esc(tr(message, loc))}</b>{details}</div>'
            )
        own_layout(self.status).display = None


class _LoadProblem(Exception):
    def __init__(self, code: str, **fmt: Any):
        self.code = code
        self.text = {loc: _t(code, loc, **fmt) for loc in LOCALES}
        super().__init__(self.text["en"])


def show_sheet(character, system=None, locale: str | None = None, **kwargs: Any) -> CharacterSheet:
    """A live :class:`CharacterSheet` for ``character`` (its system is found from
    ``character.SYSTEM`` unless given); the notebook displays the returned widget."""
    return CharacterSheet(character, system, locale=locale, **kwargs)


__all__ = ["CharacterSheet", "show_sheet", "MAX_UPLOAD_BYTES"]
