"""The generic character sheet: any system's ``sheet`` layout rendered as a live paper-like sheet.

``CharacterSheet(character)`` lays out the sections the system declares (grids of label/value
pairs, a parameter tree as columns, resource bars with quick +/- buttons, tables for lists with
add/edit/remove from the system's data tables, tags and mappings). Inputs are bound both ways:
every edit goes through the model's own limits, refused edits are shown next to the field and
the widget goes back to the model's value, clamped values are written back, derived values
update live. ``SYSTEM.validate`` problems are shown next to their field, in the sheet's language.
The character saves as a JSON download link and loads from an uploaded JSON file, all or nothing.
"""
from __future__ import annotations

import base64
import html
import json
import re
from typing import Any, Callable

import ipywidgets as widgets
import traitlets

from tabletop_widgets.core.i18n import LOCALES, T, tr
from tabletop_widgets.core.problems import Problem, ValidationError
from tabletop_widgets.core.registry import get_system

from .sheet_fields import (DerivedView, FieldView, ResourceView, SheetContext, make_view,
                           close_tree, problems_html, section_actions)

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
    "save_tip": {"en": "Prepare a download of this character as a JSON file",
                 "ru": "Подготовить файл JSON с этим персонажем для скачивания"},
    "download": {"en": "Download {name}", "ru": "Скачать {name}"},
    "load": {"en": "Load JSON", "ru": "Загрузить JSON"},
    "load_tip": {"en": "Replace this character with one from a JSON file saved by the sheet",
                 "ru": "Заменить персонажа данными из файла JSON, сохранённого листом"},
    "loaded": {"en": "Loaded {name}.", "ru": "Загружен файл {name}."},
    "load_failed": {"en": "Could not load {name}; the sheet is unchanged.",
                    "ru": "Не удалось загрузить {name}; лист не изменён."},
    "too_big": {"en": "the file is larger than {limit} bytes", "ru": "файл больше {limit} Б"},
    "not_json": {"en": "not a JSON file ({detail})", "ru": "это не файл JSON ({detail})"},
    "not_utf8": {"en": "the file is not UTF-8 text", "ru": "файл не в кодировке UTF-8"},
    "not_object": {"en": "expected a JSON object with the character's values",
                   "ru": "ожидался объект JSON со значениями персонажа"},
    "problems": {"en": "Sheet check", "ru": "Проверка листа"},
    "all_good": {"en": "No problems found.", "ru": "Проблем не найдено."},
    "not_allowed": {"en": "you may not do this", "ru": "вам нельзя это делать"},
}

_CSS = """
<style>
.tt-sheet { max-width: 1180px; margin: 10px auto; padding: 14px 18px 18px; gap: 12px;
  background: #fbf8f1; border: 1px solid #d6cdb8; border-radius: 12px;
  font-family: 'DejaVu Sans', system-ui, sans-serif; color: #2b2a26; box-sizing: border-box; }
.tt-sheet-header { align-items: center; justify-content: space-between; width: 100%; gap: 12px;
  flex-wrap: wrap; border-bottom: 2px solid #3b3a36; padding-bottom: 8px; }
.tt-sheet-title h2 { margin: 0; font-size: 1.6em; font-weight: 700; letter-spacing: .01em; }
.tt-sheet-title .tt-system { font-size: .95em; color: #6b6456; font-variant: small-caps; }
.tt-sheet-tools { align-items: center; gap: 8px; flex-wrap: wrap; }
.tt-sheet-tools .widget-button, .tt-sheet-tools .jupyter-button { margin: 0; }
.tt-sheet-download a { color: #1d5fa8; font-weight: 600; }
.tt-sheet-status .tt-ok { color: #2d6a2d; }
.tt-sheet-problems { width: 100%; }
.tt-sheet-problems .tt-summary { margin: 0; padding: 6px 12px; border-radius: 8px; background: #fff8e6;
  border: 1px solid #ecd48a; }
.tt-sheet-problems .tt-summary.tt-clean { background: #f1f8ef; border-color: #b9dcb1; color: #2d6a2d; }
.tt-sheet-problems summary { cursor: pointer; font-weight: 600; }
.tt-sheet-body { gap: 12px; align-items: start; }
.tt-section { box-sizing: border-box; min-width: 0; background: #fff; margin: 0 !important;
  border: 1px solid #d6cdb8; border-radius: 10px; padding: 8px 12px 10px; gap: 4px; }
.tt-section.tt-wide { grid-column: 1 / -1; }
.tt-section-title h3 { margin: 0 0 4px; font-size: .95em; letter-spacing: .08em; text-transform: uppercase;
  color: #5b4a2a; border-bottom: 1px solid #e4dccb; padding-bottom: 3px; }
.tt-grid { width: 100%; column-gap: 18px; row-gap: 0; }
.tt-row { align-items: center; gap: 6px; min-height: 32px; border-bottom: 1px dotted #e3dccd; width: 100%; }
.tt-row-wide { gap: 2px; width: 100%; padding: 2px 0; }
.tt-field { width: 100%; }
.tt-field-label { flex: 1 1 auto; min-width: 0; }
.tt-kind-text .tt-row > .tt-field-label, .tt-kind-choice .tt-row > .tt-field-label { flex: 0 0 42%; }
.tt-kind-text .tt-row > .tt-control, .tt-kind-choice .tt-row > .tt-control { flex: 1 1 0 !important; min-width: 0; }
.tt-list-picker { max-width: 420px; }
.tt-field-label .widget-html-content, .tt-field-label { line-height: 1.25; }
.tt-label-text { color: #4a463e; font-size: .92em; }
.tt-help { color: #a39a85; font-size: .8em; cursor: help; }
.tt-badge { display: inline-block; font-size: .72em; padding: 0 5px; border-radius: 8px; background: #efe7d6;
  color: #6b5a36; vertical-align: 1px; }
.tt-badge-gm { background: #e4ecf7; color: #2f4f7a; }
.tt-derived-value { flex: 0 0 auto; }
.tt-value { font-weight: 700; font-size: 1.05em; font-variant-numeric: tabular-nums; padding: 1px 8px;
  border-radius: 6px; background: #f3efe4; display: inline-block; min-width: 1.6em; text-align: center; }
.tt-row-wide .tt-value { font-weight: 400; font-size: .92em; text-align: left; background: none; padding: 0; }
.tt-die { font-size: .78em; color: #8a7a55; font-weight: 400; margin-left: 4px; }
.tt-muted { color: #9a9384; font-weight: 400; }
.tt-dots { font-size: 1.05em; letter-spacing: 1px; color: #5b4a2a; flex: 0 0 auto; }
.tt-sheet .widget-text input, .tt-sheet .widget-dropdown select, .tt-sheet textarea, .tt-sheet .widget-combobox input {
  border-radius: 5px; }
.tt-sheet .widget-inline-hbox, .tt-sheet .widget-text, .tt-sheet .widget-dropdown { margin: 2px 0; }
.tt-control input[type=number], .tt-res-current input { text-align: center; font-weight: 600; }
.tt-has-problem .tt-control input, .tt-has-problem .tt-res-current input { border-color: #d9a43a; }
.tt-has-error .tt-control input, .tt-has-error .tt-res-current input { border-color: #d9534f; }
.tt-field-problem ul { margin: 0 0 3px; padding-left: 0; list-style: none; font-size: .84em; }
.tt-field-problem li.tt-error { color: #a52020; }
.tt-field-problem li.tt-warning { color: #8a5a00; }
.tt-resource { padding: 2px 0 6px; }
.tt-res-row .widget-button { font-weight: 700; margin: 0; }
.tt-res-of { font-weight: 600; color: #5b5443; white-space: nowrap; }
.tt-bar { height: 9px; background: #ece6d8; border-radius: 5px; overflow: hidden; margin: 2px 0; }
.tt-bar.tt-negative { background: #f4c9c6; }
.tt-bar-fill { height: 100%; border-radius: 5px; }
.tt-bar-fill.tt-ok { background: #4f9a48; } .tt-bar-fill.tt-low { background: #d9a43a; }
.tt-bar-fill.tt-bad { background: #c9473f; }
.tt-pips { font-size: 1.4em; letter-spacing: 3px; color: #7a4fa0; }
.tt-list { width: 100%; padding: 4px 0; }
.tt-list-head .tt-label-text { font-weight: 700; color: #3b3a36; font-size: .95em; }
.tt-list-row, .tt-list-headrow { align-items: center; gap: 4px; border-bottom: 1px solid #eee6d6; width: 100%; }
.tt-list-row-html { flex: 1 1 auto; min-width: 0; }
.tt-list-cells { display: grid; column-gap: 8px; font-size: .9em; }
.tt-list-cells > div { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.tt-list-header { font-size: .78em; color: #7b735f; text-transform: uppercase; letter-spacing: .04em; }
.tt-list-more { font-size: .78em; color: #7b735f; white-space: normal; }
.tt-list-addbar { gap: 6px; align-items: center; width: 100%; margin-top: 2px; }
.tt-item-form { border: 1px solid #cbbf9f; background: #fffdf6; border-radius: 8px; padding: 6px 10px; margin: 4px 0; }
.tt-form-cell { align-items: center; gap: 6px; }
.tt-form-buttons { gap: 6px; }
.tt-chips { flex-wrap: wrap; gap: 4px; }
.tt-chip { border-radius: 12px !important; background: #efe7d6 !important; font-size: .85em; height: 26px; }
.tt-map-entry { border-bottom: 1px dotted #e3dccd; }
table.tt-mini { border-collapse: collapse; font-size: .85em; margin: 2px 0; }
table.tt-mini th, table.tt-mini td { border-bottom: 1px solid #eee6d6; padding: 1px 6px; text-align: left; }
table.tt-mini th { color: #6b6456; font-weight: 600; }
.tt-kv .tt-k { color: #6b6456; }
.tt-tree { gap: 10px; width: 100%; align-items: flex-start; }
.tt-tree-col { flex: 1 1 0; min-width: 0; gap: 6px; }
.tt-tree-root { background: #3b3a36; color: #fff; border-radius: 8px; padding: 2px 10px; }
.tt-tree-root .tt-label-text { color: #fff; font-weight: 700; font-size: 1em; }
.tt-tree-root .tt-value { background: #fff; color: #2b2a26; }
.tt-tree-root .tt-die { color: #e8dcc0; }
.tt-tree-root .tt-row { border-bottom: none; }
.tt-tree-branch { border-left: 3px solid #cbbf9f; padding-left: 8px; gap: 2px; }
.tt-tree-branch > .tt-field:first-child .tt-label-text { font-weight: 700; color: #3b3a36; }
.tt-tree-leaf { padding-left: 12px; }
.tt-groups { gap: 14px; width: 100%; align-items: flex-start; }
.tt-group { flex: 1 1 0; min-width: 0; }
.tt-group-title { font-weight: 700; font-size: .85em; text-transform: uppercase; letter-spacing: .06em; color: #7b6a45; }
.tt-group-total { border-top: 2px solid #3b3a36; margin-top: 2px; }
.tt-matrix { width: 100%; column-gap: 8px; align-items: center; }
.tt-matrix-head { font-size: .78em; color: #7b735f; text-transform: uppercase; letter-spacing: .04em; text-align: center; }
.tt-matrix .tt-row { border-bottom: none; min-height: 30px; }
.tt-matrix .tt-field-label { display: none; }
.tt-matrix-rowlabel .tt-label-text { font-weight: 700; color: #3b3a36; }
.tt-actions { gap: 4px; margin-top: 4px; border-top: 1px solid #eee6d6; padding-top: 4px; }
.tt-action-row { gap: 6px; align-items: center; width: 100%; }
.tt-action-picker { max-width: 520px; }
.tt-ok { color: #2d6a2d; } .tt-error { color: #a52020; }
.tt-sheet .widget-button.tt-list-remove, .tt-sheet .jupyter-button.tt-list-remove { color: #a52020; padding: 0; }
</style>
"""


def _t(key: str, locale: str, **fmt: Any) -> str:
    text = TEXTS[key].get(locale) or TEXTS[key]["en"]
    return text.format(**fmt) if fmt else text


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
    locale : {"en", "ru"}
        Starting language; the EN/RU toggle (or setting ``locale``) switches it live.
    can : callable, optional
        ``can(action) -> bool`` for ``"edit"``, ``"edit_gm"`` (fields the GM enters), ``"save"``,
        ``"load"`` and ``"act"`` (rules actions a section declares); checked in every handler (forged front-end messages reach handlers
        even when a button is disabled). Default: everything allowed.

    Attributes
    ----------
    views
        ``{trait name: FieldView}`` of every field on the sheet.
    problems
        The latest ``SYSTEM.validate(character)`` list.
    """

    locale = traitlets.Unicode("en", help="Language of the sheet: 'en' or 'ru'")

    def __init__(self, character, system=None, *, locale: str = "en",
                 can: Callable[[str], bool] | None = None, **kwargs: Any):
        if locale not in LOCALES:
            raise ValueError(f"unknown locale {locale!r}: expected one of {', '.join(LOCALES)}")
        self.character = character
        self.system = system if system is not None else get_system(character.SYSTEM)
        self.can = can or (lambda action: True)
        self.ctx = SheetContext(character, self.system, locale=locale, can=self.can)
        self.problems: list[Problem] = []
        self.load_error: ValidationError | None = None
        self._load_message: tuple[str, dict] | None = None
        self.views: dict[str, FieldView] = {}
        self._extra_views: list[FieldView] = []
        self.actions: dict[str, list] = {}
        self._watchers: dict[str, list[FieldView]] = {}

        self.style_block = widgets.HTML(_CSS)
        self.style_block.add_class("tt-style")
        self.title = widgets.HTML()
        self.title.add_class("tt-sheet-title")
        self.locale_toggle = widgets.ToggleButtons(options=[("EN", "en"), ("RU", "ru")], value=locale,
                                                   style={"button_width": "44px"})
        self.locale_toggle.add_class("tt-locale")
        self.save_button = widgets.Button(icon="download", layout=widgets.Layout(width="auto"))
        self.save_button.add_class("tt-sheet-save")
        self.download = widgets.HTML(layout=widgets.Layout(display="none"))
        self.download.add_class("tt-sheet-download")
        self.upload = widgets.FileUpload(accept=".json,application/json", multiple=False,
                                         layout=widgets.Layout(width="auto"))
        self.upload.add_class("tt-sheet-load")
        self.status = widgets.HTML(layout=widgets.Layout(display="none"))
        self.status.add_class("tt-sheet-status")
        tools = widgets.HBox([self.save_button, self.download, self.upload, self.locale_toggle])
        tools.add_class("tt-sheet-tools")
        header = widgets.HBox([self.title, tools])
        header.add_class("tt-sheet-header")
        self.summary = widgets.HTML()
        self.summary.add_class("tt-sheet-problems")

        self.sections: dict[str, widgets.Widget] = {}
        self.section_titles: dict[str, tuple[widgets.HTML, Any]] = {}
        self._visibility: list[tuple[widgets.Widget, str]] = []
        body = [self._build_section(s) for s in self.system.sheet.sections]
        self.body = widgets.GridBox(body, layout=widgets.Layout(
            grid_template_columns="repeat(2, minmax(0, 1fr))", grid_auto_flow="row dense", width="100%"))
        self.body.add_class("tt-sheet-body")

        super().__init__([self.style_block, header, self.status, self.summary, self.body], **kwargs)
        self.add_class("tt-sheet")
        self.add_class(f"tt-sheet-{self.system.slug}")
        self.locale = locale

        self.save_button.on_click(lambda _b: self.prepare_download())
        self.upload.observe(self._on_upload, names="value")
        self.locale_toggle.observe(lambda ch: setattr(self, "locale", ch["new"]), names="value")
        character.observe(self._on_character, names=traitlets.All)
        self._sheet_closed = False
        self._relabel()
        self.revalidate()

    # -- layout ----------------------------------------------------------------------------
    def _view(self, field) -> FieldView:
        view = make_view(self.ctx, field)
        self.views.setdefault(field.name, view)
        for name in view.names:
            self._watchers.setdefault(name, []).append(view)
        return view

    def _build_section(self, section) -> widgets.Widget:
        fields = list(section.fields)
        title = widgets.HTML()
        title.add_class("tt-section-title")
        parts: list[widgets.Widget] = [title]
        wide = section.layout in ("tree", "table", "text") or section.columns >= 3
        if section.layout == "tree" and any("tier" in f.extra for f in fields):
            tree_fields = [f for f in fields if "tier" in f.extra]
            parts.append(self._tree(section, tree_fields))
            fields = [f for f in fields if "tier" not in f.extra]
        elif any("row" in f.extra and "column" in f.extra for f in fields):
            matrix = [f for f in fields if "row" in f.extra and "column" in f.extra]
            parts.append(self._matrix(matrix))
            fields = [f for f in fields if f not in matrix]
        elif any(f.extra.get("group_label") for f in fields):
            grouped = [f for f in fields if f.extra.get("group_label")]
            parts.append(self._groups(grouped))
            fields = [f for f in fields if f not in grouped]
        views = [self._view(f) for f in fields]
        resources = [v for v in views if isinstance(v, ResourceView)]
        narrow = [v for v in views if not v.wide and not isinstance(v, ResourceView)]
        wide_views = [v for v in views if v.wide]
        if resources:
            box = widgets.VBox([v.widget for v in resources])
            box.add_class("tt-resources")
            parts.append(box)
        if narrow:
            cols = max(1, min(section.columns, 4))
            grid = widgets.GridBox([v.widget for v in narrow], layout=widgets.Layout(
                grid_template_columns=f"repeat({cols}, minmax(0, 1fr))", width="100%"))
            grid.add_class("tt-grid")
            parts.append(grid)
        parts += [v.widget for v in wide_views]
        actions = section_actions(self.ctx, section)
        if actions:
            self.actions[section.id] = actions
            bar = widgets.VBox([a.widget for a in actions])
            bar.add_class("tt-actions")
            parts.append(bar)
        if wide_views and any(not hasattr(v, "columns") or len(getattr(v, "columns", [])) > 2
                              for v in wide_views if v.field.kind == "list"):
            wide = True
        box = widgets.VBox(parts)
        box.add_class("tt-section")
        box.add_class(f"tt-section-{section.id}")
        box.add_class(f"tt-layout-{section.layout}")
        if wide:
            box.add_class("tt-wide")
        self.sections[section.id] = box
        self.section_titles[section.id] = (title, section.label)
        self._conditional(box, section.extra.get("visible_if"))
        for view in views:
            self._conditional(view.widget, view.field.extra.get("visible_if"))
        return box

    def _conditional(self, widget: widgets.Widget, trait: str | None) -> None:
        """``extra["visible_if"]`` names a boolean trait: the section or field shows only while it
        is true (e.g. a shapeshifter's forms), following every change."""
        if not trait or not self.character.has_trait(trait):
            return
        self._visibility.append((widget, trait))
        self._apply_visibility(widget, trait)

    def _apply_visibility(self, widget: widgets.Widget, trait: str) -> None:
        widget.layout.display = None if getattr(self.character, trait) else "none"

    def _tree(self, section, fields) -> widgets.Widget:
        """A parameter tree as columns: each root on top, its children below, their leaves under
        them (``extra["tier"]`` and ``extra["parent"]``)."""
        by_parent: dict[Any, list] = {}
        for f in fields:
            by_parent.setdefault(f.extra.get("parent"), []).append(f)

        def branch(f, depth: int) -> widgets.Widget:
            view = self._view(f)
            kids = by_parent.get(f.name, [])
            if depth == 0:
                view.widget.add_class("tt-tree-root")
                col = widgets.VBox([view.widget] + [branch(k, 1) for k in kids])
                col.add_class("tt-tree-col")
                return col
            if not kids:
                view.widget.add_class("tt-tree-leaf")
                return view.widget
            box = widgets.VBox([view.widget] + [branch(k, depth + 1) for k in kids])
            box.add_class("tt-tree-branch")
            return box

        roots = by_parent.get(None, [])
        tree = widgets.HBox([branch(r, 0) for r in roots])
        tree.add_class("tt-tree")
        return tree

    def _matrix(self, fields) -> widgets.Widget:
        """Fields with ``extra["row"]`` / ``extra["column"]``: a table, one row per ``row``."""
        rows: list[str] = []
        cols: list[str] = []
        cell: dict[tuple[str, str], Any] = {}
        for f in fields:
            r, c = f.extra["row"], f.extra["column"]
            rows += [r] if r not in rows else []
            cols += [c] if c not in cols else []
            cell[(r, c)] = f
        self._matrix_heads: list[tuple[widgets.HTML, str, list]] = getattr(self, "_matrix_heads", [])
        children: list[widgets.Widget] = [widgets.HTML()]
        for c in cols:
            head = widgets.HTML()
            head.add_class("tt-matrix-head")
            self._matrix_heads.append((head, c, [cell[(r, c)] for r in rows if (r, c) in cell]))
            children.append(head)
        for r in rows:
            first = cell.get((r, cols[0]))
            lab = widgets.HTML()
            lab.add_class("tt-matrix-rowlabel")
            self._matrix_heads.append((lab, "", [first] if first else []))
            children.append(lab)
            for c in cols:
                f = cell.get((r, c))
                children.append(self._view(f).widget if f else widgets.HTML())
        grid = widgets.GridBox(children, layout=widgets.Layout(
            grid_template_columns=f"minmax(110px, 1.4fr) repeat({len(cols)}, minmax(0, 1fr))", width="100%"))
        grid.add_class("tt-matrix")
        return grid

    def _groups(self, fields) -> widgets.Widget:
        """Fields with ``extra["group_label"]``: one column per group, with the group's total
        (``extra["row_total"]``, a trait shown as a derived value) underneath."""
        groups: dict[str, list] = {}
        for f in fields:
            groups.setdefault(f.extra.get("group"), []).append(f)
        cols = []
        self._group_heads: list[tuple[widgets.HTML, Any]] = getattr(self, "_group_heads", [])
        for _key, members in groups.items():
            head = widgets.HTML()
            head.add_class("tt-group-title")
            self._group_heads.append((head, members[0].extra.get("group_label")))
            items = [head] + [self._view(f).widget for f in members]
            total = members[0].extra.get("row_total")
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
            col = widgets.VBox(items)
            col.add_class("tt-group")
            cols.append(col)
        box = widgets.HBox(cols)
        box.add_class("tt-groups")
        return box

    # -- language ------------------------------------------------------------------------------
    @traitlets.validate("locale")
    def _check_locale(self, proposal):
        if proposal["value"] not in LOCALES:
            raise traitlets.TraitError(f"unknown locale {proposal['value']!r}: expected one of {LOCALES}")
        return proposal["value"]

    @traitlets.observe("locale")
    def _on_locale(self, change) -> None:
        if not hasattr(self, "ctx"):
            return
        self.ctx.locale = change["new"]
        if self.locale_toggle.value != change["new"]:
            self.locale_toggle.value = change["new"]
        self._relabel()

    def _all_views(self) -> list[FieldView]:
        seen, out = set(), []
        for views in self._watchers.values():
            for v in views:
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    def _relabel(self) -> None:
        loc = self.locale
        for v in self._all_views():
            v.relabel()
        for bars in self.actions.values():
            for bar in bars:
                bar.relabel()
        for sid, (title, label) in self.section_titles.items():
            title.value = f"<h3>{_esc(tr(label, loc))}</h3>"
        for head, column, members in getattr(self, "_matrix_heads", []):
            head.value = self._matrix_head_html(column, members)
        for head, label in getattr(self, "_group_heads", []):
            head.value = _esc(tr(label, loc))

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

    def _matrix_head_html(self, column: str, members: list) -> str:
        loc = self.locale
        if column == "":      # a row label: the row's first field
            f = members[0] if members else None
            if f is None:
                return ""
            tip = tr(f.help, loc) if f.help else tr(f.label, loc)
            return f'<span class="tt-label-text" title="{_esc(tip)}">{_esc(tr(f.label, loc))}</span>'
        labels = {tr(m.extra.get("column_label") or m.label, loc) for m in members}
        text = labels.pop() if len(labels) == 1 else self.ctx.label_for(column)
        return _esc(text)

    def _render_title(self) -> None:
        loc = self.locale
        name = getattr(self.character, "name", "") or _t("unnamed", loc)
        self.title.value = (f'<h2>{_esc(name)}</h2>'
                            f'<span class="tt-system">{_esc(tr(self.system.title, loc))}</span>')

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
        tree_derived = [v for v in self._all_views() if isinstance(v, DerivedView)
                        and v.field.extra.get("die_label")]
        for v in tree_derived:
            if name not in v.names:
                v.refresh()
        self.revalidate()

    def revalidate(self) -> list[Problem]:
        """Run ``SYSTEM.validate`` and show each problem next to its field (the rest on top)."""
        try:
            problems = list(self.system.validate(self.character))
        except Exception as exc:   # a rules bug must not break the sheet; show it
            problems = [Problem("validate_failed", T(f"checking the sheet failed: {exc}",
                                                     f"проверка листа не удалась: {exc}"))]
        self.problems = problems
        by_field: dict[str, list[Problem]] = {}
        for p in problems:
            by_field.setdefault(p.field, []).append(p)
        for name, view in self.views.items():
            view.set_problems(by_field.get(name, []))
        self._render_summary()
        return problems

    def _render_summary(self) -> None:
        loc = self.locale
        if not self.problems:
            self.summary.value = (f'<div class="tt-summary tt-clean" role="status">✓ '
                                  f'{_esc(_t("all_good", loc))}</div>')
            return
        errors = sum(p.severity == "error" for p in self.problems)
        warnings = len(self.problems) - errors
        counts = []
        if errors:
            counts.append(f"✖ {errors}")
        if warnings:
            counts.append(f"⚠ {warnings}")
        lines = []
        for p in self.problems:
            where = ""
            if p.field in self.views:
                where = f"<b>{_esc(tr(self.views[p.field].field.label, loc))}:</b> "
            elif p.field:
                where = f"<b>{_esc(self.ctx.label_for(p.field))}:</b> "
            lines.append(f'<li class="tt-{"error" if p.severity == "error" else "warning"}">{where}'
                         f"{_esc(p.text(loc))}</li>")
        self.summary.value = (f'<details class="tt-summary" role="status"><summary>{_esc(_t("problems", loc))}: '
                              f'{" · ".join(counts)}</summary><ul class="tt-problem-list">{"".join(lines)}</ul>'
                              f"</details>")

    def close(self) -> None:
        """Stop following the character and close every widget of the sheet."""
        if getattr(self, "_sheet_closed", True):   # already closed, or never fully built
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
        self.download.value = (f'<a download="{_esc(name)}" href="data:application/json;base64,{data}" '
                               f'title="{_esc(_t("download", self.locale, name=name))}">⬇ '
                               f'{_esc(_t("download", self.locale, name=name))}</a>')
        self.download.layout.display = None
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
                detail = (f"line {exc.lineno}, column {exc.colno}: {exc.msg}"
                          if isinstance(exc, json.JSONDecodeError) else "too deeply nested")
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
            self.status.layout.display = "none"
            self.status.value = ""
            return
        kind, message = self._load_message
        loc = self.locale
        if kind == "ok":
            self.status.value = f'<div class="tt-ok" role="status">✓ {_esc(tr(message, loc))}</div>'
        else:
            details = problems_html(self.load_error.problems, loc) if self.load_error else ""
            self.status.value = (f'<div class="tt-field-problem tt-load-error" role="alert">'
                                 f'<b class="tt-error">✖ {_esc(tr(message, loc))}</b>{details}</div>')
        self.status.layout.display = None


class _LoadProblem(Exception):
    def __init__(self, code: str, **fmt: Any):
        self.code = code
        self.text = {loc: _t(code, loc, **fmt) for loc in LOCALES}
        super().__init__(self.text["en"])


def show_sheet(character, system=None, locale: str = "en", **kwargs: Any) -> CharacterSheet:
    """A live :class:`CharacterSheet` for ``character`` (its system is found from
    ``character.SYSTEM`` unless given); the notebook displays the returned widget."""
    return CharacterSheet(character, system, locale=locale, **kwargs)


__all__ = ["CharacterSheet", "show_sheet", "MAX_UPLOAD_BYTES"]
