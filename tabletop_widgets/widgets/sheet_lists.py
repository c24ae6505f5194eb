"""The field views of the CharacterSheet for collections: lists of items with their form
(:class:`ListView`, :class:`ItemForm`), tags (:class:`TagsView`) and mappings name -> value
(:class:`MappingView`)."""

from __future__ import annotations

import copy
from typing import Any, Mapping

import ipywidgets as widgets
from ipywidgets.widgets import widget_description, widget_string
import traitlets

from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.problems import Problem, ValidationError
from tabletop_widgets.core.sheet import blank_value, new_item

from .sheet_context import (
    TEXTS,
    bounds_text,
    button_widget,
    choice_options,
    esc,
    fixed_layout,
    hbox,
    html_widget,
    parse_int,
    pretty,
    problems_html,
    replace_children,
    row_id,
    row_label,
    set_display,
    shared_style,
    t,
    vbox,
)
from .sheet_views import FieldView, make_control


# ------------------------------------------------------------------------------------------
# Lists of items (a table with add / edit / remove; rows picked from a data table)
# ------------------------------------------------------------------------------------------
def _fits(item_field, value: Any) -> bool:
    k = item_field.kind
    if k == "flag":
        return isinstance(value, bool)
    if k == "input":
        return isinstance(value, int) and not isinstance(value, bool)
    if k == "choice" and item_field.multiple:
        return isinstance(value, list)
    return isinstance(value, str) and value != ""


def item_from_row(field, row: Mapping[str, Any], locale: str) -> dict[str, Any]:
    """A new list item made from a data-table row: each item field takes the row's value of the
    same name (or its ``<name>_<locale>`` text), a choice pointing at the same table takes the
    row's id, and the first text field left empty takes the row's name."""
    item: dict[str, Any] = {}
    named = False
    for f in field.item_fields:
        value = blank_value(f)
        if f.kind == "choice" and f.source and f.source == field.source and not f.multiple:
            value = row_id(row)
        elif f.name in row and _fits(f, row[f.name]):
            value = copy.deepcopy(row[f.name])
        elif f"{f.name}_{locale}" in row and _fits(f, row[f"{f.name}_{locale}"]):
            value = row[f"{f.name}_{locale}"]
        elif f.kind == "text" and not named and f.name in ("name", "title", "label"):
            value = tr(row_label(row), locale)
            named = True
        item[f.name] = value
    return item


class ItemForm:
    """The edit form of one list item (or of a plain text entry)."""

    def __init__(self, view: "ListView"):
        self.view = view
        ctx = view.ctx
        self.controls: dict[str, Any] = {}
        cells = []
        for f in view.field.item_fields:
            ctl, _, _ = make_control(ctx, f, traitlets.Int() if f.kind == "input" else None)
            if f.kind == "input":
                ctl = widgets.Text(
                    style=shared_style(widget_string.TextStyle),
                    continuous_update=True,
                    placeholder=bounds_text(f.min, f.max),
                    layout=fixed_layout(width="90px"),
                )
            ctl.add_class(f"tt-item-{f.name}")
            lab = html_widget(classes=["tt-field-label"])
            cell = (
                vbox([lab, ctl])
                if f.kind in ("longtext",) or f.multiple
                else hbox([lab, ctl], classes=["tt-form-cell"])
            )
            cells.append(cell)
            self.controls[f.name] = (f, ctl, lab)
        if not view.field.item_fields:  # a list of plain strings
            opts = [tr(row_label(r), ctx.locale) for r in ctx.rows(view.field.source)]
            ctl = widgets.Combobox(
                style=shared_style(widget_string.TextStyle),
                options=opts,
                ensure_option=False,
                layout=fixed_layout(width="100%"),
            )
            ctl.add_class("tt-item-text")
            lab = html_widget()
            cells.append(vbox([lab, ctl]))
            self.controls[""] = (None, ctl, lab)
        self.grid = widgets.GridBox(
            cells, layout=fixed_layout(grid_template_columns="repeat(auto-fill, minmax(260px, 1fr))", width="100%")
        )
        self.error = html_widget(classes=["tt-field-problem"])
        self.save = button_widget(button_style="primary", classes=["tt-item-save"])
        self.cancel = button_widget(classes=["tt-item-cancel"])
        buttons = hbox([self.save, self.cancel], classes=["tt-form-buttons"])
        self.widget = vbox([self.grid, self.error, buttons], classes=["tt-item-form"])
        self.index: int | None = None
        self.original: Any = None
        self.relabel()

    def relabel(self) -> None:
        loc = self.view.loc
        for name, (f, ctl, lab) in self.controls.items():
            text = tr(f.label, loc) if f else self.view.text
            lab.value = f'<span title="{esc(tr(f.help, loc) if f and f.help else text)}">{esc(text)}</span>'
            allowed = bounds_text(f.min, f.max) if f is not None and f.kind == "input" else ""
            ctl.tooltip = f"{text} ({allowed})" if allowed else text
            if f is not None and f.kind == "choice" and not f.free_text:
                value = ctl.value
                opts = choice_options(self.view.ctx, f, None if f.multiple else value)
                ctl.options = opts
                try:
                    ctl.value = value
                except traitlets.TraitError:
                    pass
        self.save.description = t("save", loc)
        self.save.tooltip = t("save_tip", loc)
        self.cancel.description = t("cancel", loc)
        self.cancel.tooltip = t("cancel_tip", loc)

    def load(self, index: int | None, item: Any) -> None:
        self.index, self.original = index, copy.deepcopy(item)
        self.error.value = ""
        for name, (f, ctl, _lab) in self.controls.items():
            if f is None:
                ctl.value = item if isinstance(item, str) else ""
                continue
            v = item.get(name, blank_value(f)) if isinstance(item, Mapping) else blank_value(f)
            if f.kind == "input":
                ctl.value = "" if v is None else str(v)
            elif f.kind == "flag":
                ctl.value = bool(v)
            elif f.kind == "choice" and f.multiple:
                ctl.options = choice_options(self.view.ctx, f)
                known = {o[1] for o in ctl.options}
                ctl.value = tuple(x for x in (v or []) if x in known)
            elif f.kind == "choice" and not f.free_text:
                ctl.options = choice_options(self.view.ctx, f, v)
                ctl.value = v
            else:
                ctl.value = "" if v is None else str(v)

    def value(self) -> Any:
        """The edited item; ``ValueError`` for a number that is not one."""
        if "" in self.controls:
            return self.controls[""][1].value.strip()
        item = dict(self.original) if isinstance(self.original, Mapping) else {}
        for name, (f, ctl, _lab) in self.controls.items():
            if f.kind == "input":
                optional = item.get(name, 0) is None
                try:
                    item[name] = parse_int(ctl.value, optional=optional, locale=self.view.loc)
                except ValueError as exc:
                    raise ValueError(f"{tr(f.label, self.view.loc)}: {exc}") from None
            elif f.kind == "choice" and f.multiple:
                item[name] = list(ctl.value)
            else:
                item[name] = ctl.value
        return item


class ListView(FieldView):
    """A list field: one row per item (the first columns, edit, remove), an add bar (a row of
    the field's data table, or a new blank entry) and an edit form."""

    wide = True
    MAX_COLUMNS = 6

    def build(self) -> None:
        f = self.field
        self.columns = [i for i in f.item_fields if i.kind != "longtext"][: self.MAX_COLUMNS]
        self.rows_box = vbox(classes=["tt-list-rows"])
        self.row_editors: list[widgets.Widget] = []  # each row's edit and remove buttons
        locked = self.locked()
        self.picker = widgets.Dropdown(
            style=shared_style(widget_description.DescriptionStyle),
            layout=fixed_layout(width="auto", flex="1 1 auto"),
            **locked,
        )
        self.picker.add_class("tt-list-picker")
        self.add_button = button_widget(icon="", layout=fixed_layout(width="auto"), classes=["tt-list-add"], **locked)
        self.new_button = button_widget(layout=fixed_layout(width="auto"), classes=["tt-list-new"], **locked)
        self.add_button.on_click(lambda _b: self.add_from_table(self.picker.value))
        self.new_button.on_click(lambda _b: self.open_form(None))
        bar = [self.picker, self.add_button] if self.ctx.rows(f.source) else []
        self.add_bar = hbox(bar + [self.new_button], classes=["tt-list-addbar"])
        self._form: ItemForm | None = None  # built on first use (it has many widgets)
        # the label heads the list itself (no box); the form goes under the rows when first used
        self.widget = vbox([self.label, self.rows_box, self.add_bar], classes=["tt-list"])

    def make_label(self) -> widgets.HTML:
        return html_widget(self.label_html(), classes=["tt-field-label", "tt-list-head"])

    def editors(self) -> list[widgets.Widget]:
        return [self.picker, self.add_button, self.new_button, *self.row_editors]

    @property
    def form(self) -> ItemForm:
        """The edit form (built the first time it is needed)."""
        if self._form is None:
            self._form = ItemForm(self)
            self._form.save.on_click(lambda _b: self.save_form())
            self._form.cancel.on_click(lambda _b: self.close_form())
            set_display(self._form.widget, "none")
            children = list(self.widget.children)
            children.insert(children.index(self.add_bar), self._form.widget)  # between the rows and the add bar
            self.widget.children = children
        return self._form

    # -- actions (each checks the role: a forged click reaches them even when disabled) -----
    def items(self) -> list:
        return list(getattr(self.ctx.character, self.field.name) or [])

    def add_from_table(self, row_key: Any) -> bool:
        rows = {row_id(r): r for r in self.ctx.rows(self.field.source)}
        if row_key not in rows:
            return False
        row = rows[row_key]
        item = item_from_row(self.field, row, self.loc) if self.field.item_fields else tr(row_label(row), self.loc)
        return self.commit(self.items() + [item])

    def remove(self, index: int) -> bool:
        items = self.items()
        if not 0 <= index < len(items):
            return False
        del items[index]
        if self._form is not None and self._form.index is not None:
            self.close_form()
        return self.commit(items)

    def open_form(self, index: int | None) -> None:
        if not self.allowed():
            self.show_edit_error(self.ctx.not_allowed(self.field.name))
            return
        items = self.items()
        if index is None:
            item = new_item(self.field) if self.field.item_fields else ""
        else:
            item = items[index]
        self.form.load(index, item)
        set_display(self.form.widget, None)

    def close_form(self) -> None:
        set_display(self.form.widget, "none")
        self.form.index = None
        self.form.error.value = ""

    def save_form(self) -> bool:
        try:
            item = self.form.value()
        except ValueError as exc:
            self.form.error.value = problems_html(
                [Problem("bad_input", {"en": str(exc), "ru": str(exc)})], self.loc, alert=True
            )
            return False
        items = self.items()
        if self.form.index is None:
            items.append(item)
        else:
            items[self.form.index] = item
        if self.commit(items):
            self.close_form()
            return True
        self.form.error.value = problems_html(self.edit_error.problems, self.loc, alert=True)
        return False

    # -- rendering -------------------------------------------------------------------------
    def cell_html(self, f, value: Any) -> str:
        if f.kind == "flag":
            return "✓" if value else ""
        if f.kind == "choice":
            if isinstance(value, list):
                return esc(", ".join(self.ctx.label_for(v) for v in value))
            labels = {v: lab for lab, v in choice_options(self.ctx, f)}
            return esc(labels.get(value, value if value not in (None, "") else ""))
        return esc("" if value is None else value)

    def refresh(self) -> None:
        items = self.items()
        loc = self.loc
        grid = f"grid-template-columns: repeat({max(len(self.columns), 1)}, minmax(0, 1fr))"
        children = []
        self.row_editors = []
        locked = self.locked()
        if items and self.columns:
            head = "".join(f"<div>{esc(tr(c.label, loc))}</div>" for c in self.columns)
            header = html_widget(
                f'<div class="tt-list-cells tt-list-header" style="{grid}">{head}</div>', classes=["tt-list-row-html"]
            )
            spacer = html_widget(layout=fixed_layout(width="136px"))
            hb = hbox([header, spacer], classes=["tt-list-headrow"])
            children.append(hb)
        for i, item in enumerate(items):
            if self.columns and isinstance(item, Mapping):
                cells = "".join(f"<div>{self.cell_html(c, item.get(c.name))}</div>" for c in self.columns)
                rest = [
                    f
                    for f in self.field.item_fields
                    if f not in self.columns and item.get(f.name) not in (None, "", False, [], 0)
                ]
                extra = " · ".join(f"{esc(tr(f.label, loc))}: {self.cell_html(f, item.get(f.name))}" for f in rest)
                body = f'<div class="tt-list-cells" style="{grid}">{cells}</div>' + (
                    f'<div class="tt-list-more">{extra}</div>' if extra else ""
                )
            else:
                body = f'<div class="tt-list-cells tt-chip-text">{pretty(self.ctx, item)}</div>'
            cell = html_widget(body, classes=["tt-list-row-html"])
            edit = button_widget(
                description=t("edit", loc), tooltip=t("edit_tip", loc), layout=fixed_layout(width="auto"), **locked
            )
            edit.add_class("tt-list-edit")
            rm = button_widget(
                description=t("remove", loc),
                tooltip=t("remove_tip", loc),
                layout=fixed_layout(width="36px"),
                **locked,
            )
            rm.add_class("tt-list-remove")
            self.row_editors += [edit, rm]
            edit.on_click(lambda _b, i=i: self.open_form(i))
            rm.on_click(lambda _b, i=i: self.remove(i))
            row = hbox([cell, edit, rm], classes=["tt-list-row"])
            children.append(row)
        if not items:
            empty = html_widget(f'<span class="tt-muted">{esc(t("empty", loc))}</span>', classes=["tt-list-empty"])
            children.append(empty)
        replace_children(self.rows_box, children)

    def relabel(self) -> None:
        loc = self.loc
        rows = self.ctx.rows(self.field.source)
        current = self.picker.value
        self.picker.options = [(tr(row_label(r), loc), row_id(r)) for r in rows]
        if current in {row_id(r) for r in rows}:
            self.picker.value = current
        elif rows:
            self.picker.value = row_id(rows[0])
        self.picker.tooltip = f"{self.text}: {t('from_table', loc)}"
        self.add_button.description = t("add", loc)
        self.add_button.tooltip = t("add_tip", loc)
        self.new_button.description = t("add_blank", loc)
        self.new_button.tooltip = t("add_blank_tip", loc)
        if self._form is not None:
            self._form.relabel()
        super().relabel()
        self.refresh()


# ------------------------------------------------------------------------------------------
# Tags: a list of short strings, optionally from choices / a data table
# ------------------------------------------------------------------------------------------
class TagsView(FieldView):
    wide = True

    def build(self) -> None:
        self.chips = hbox(classes=["tt-chips"])
        locked = self.locked()
        self.picker = widgets.Combobox(
            style=shared_style(widget_string.TextStyle),
            ensure_option=False,
            layout=fixed_layout(width="220px"),
            **locked,
        )
        self.picker.add_class("tt-tags-picker")
        self.add_button = button_widget(layout=fixed_layout(width="auto"), classes=["tt-tags-add"], **locked)
        self.add_button.on_click(lambda _b: self.add(self.picker.value))
        row = hbox([self.label, self.chips, self.picker, self.add_button], classes=["tt-row", "tt-tags-row"])
        self.widget = vbox([row], classes=["tt-tags"])

    def editors(self) -> list[widgets.Widget]:
        return [self.picker, self.add_button, *self.chips.children]

    def options(self) -> list[tuple[str, Any]]:
        return choice_options(self.ctx, self.field)

    def add(self, text: str) -> bool:
        text = (text or "").strip()
        if not text:
            return False
        by_label = {label: value for label, value in self.options()}
        value = by_label.get(text, text)
        items = list(getattr(self.ctx.character, self.field.name) or [])
        if value in items:
            return False
        ok = self.commit(items + [value])
        if ok:
            self.picker.value = ""
        return ok

    def remove(self, value: Any) -> bool:
        items = [v for v in getattr(self.ctx.character, self.field.name) or [] if v != value]
        return self.commit(items)

    def refresh(self) -> None:
        chips = []
        for v in getattr(self.ctx.character, self.field.name) or []:
            b = button_widget(
                description=f"{self.ctx.label_for(v)} ✕",
                tooltip=f"{t('remove_tip', self.loc)}: {self.ctx.label_for(v)}",
                layout=fixed_layout(width="auto"),
                **self.locked(),
            )
            b.add_class("tt-chip")
            b.on_click(lambda _b, v=v: self.remove(v))
            chips.append(b)
        replace_children(self.chips, chips)

    def relabel(self) -> None:
        self.picker.options = [label for label, _ in self.options()]
        self.picker.placeholder = t("pick", self.loc)
        self.picker.tooltip = self.tip
        self.add_button.description = t("add", self.loc)
        self.add_button.tooltip = t("add_tip", self.loc)
        super().relabel()
        self.refresh()


# ------------------------------------------------------------------------------------------
# Mappings: name -> value (skills by id, coins...)
# ------------------------------------------------------------------------------------------
class MappingView(FieldView):
    wide = True

    def make_label(self) -> widgets.HTML:
        return html_widget(self.label_html(), classes=["tt-field-label", "tt-list-head"])

    def build(self) -> None:
        f = self.field
        self.key_field = next((i for i in f.item_fields if i.kind == "choice"), None)
        self.value_field = next((i for i in f.item_fields if i.kind in ("input", "text", "flag")), None)
        self.fixed_keys = list(f.keys or ())
        self.key_labels = self.ctx.labels_covering(self.fixed_keys)
        self.entries = widgets.GridBox(
            layout=fixed_layout(grid_template_columns="repeat(auto-fill, minmax(230px, 1fr))", width="100%")
        )
        self.entries.add_class("tt-map-entries")
        self.entry_editors: list[widgets.Widget] = []  # each entry's value box and remove button
        locked = self.locked()
        self.key_picker = widgets.Combobox(
            style=shared_style(widget_string.TextStyle),
            ensure_option=False,
            layout=fixed_layout(width="220px"),
            **locked,
        )
        self.key_picker.add_class("tt-map-key")
        self.value_box = widgets.Text(
            style=shared_style(widget_string.TextStyle), layout=fixed_layout(width="90px"), **locked
        )
        self.value_box.add_class("tt-map-value")
        self.add_button = button_widget(layout=fixed_layout(width="auto"), classes=["tt-map-add"], **locked)
        self.add_button.on_click(lambda _b: self.add(self.key_picker.value, self.value_box.value))
        self.add_bar = hbox([self.key_picker, self.value_box, self.add_button], classes=["tt-list-addbar"])
        if self.fixed_keys:
            set_display(self.add_bar, "none")
        self.widget = vbox([self.label, self.entries, self.add_bar], classes=["tt-mapping"])

    def editors(self) -> list[widgets.Widget]:
        return [self.key_picker, self.value_box, self.add_button, *self.entry_editors]

    def mapping(self) -> dict:
        return dict(getattr(self.ctx.character, self.field.name) or {})

    def key_label(self, key: Any) -> str:
        if str(key) in self.key_labels:
            return tr(self.key_labels[str(key)], self.loc)
        return self.ctx.label_for(key)

    def key_options(self) -> list[tuple[str, Any]]:
        if self.key_field is not None:
            return choice_options(self.ctx, self.key_field)
        if self.field.source:
            return choice_options(self.ctx, self.field)
        return [(self.key_label(k), k) for k in self.fixed_keys]

    def numeric(self) -> bool:
        if self.value_field is not None:
            return self.value_field.kind == "input"
        values = list(self.mapping().values())
        return (
            bool(values)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in values)
            or bool(self.fixed_keys)
        )

    def parse(self, text: str) -> Any:
        text = (text or "").strip()
        if self.numeric():
            return parse_int(text, optional=False, locale=self.loc)
        try:
            return int(text)
        except ValueError:
            return text

    def set_entry(self, key: Any, text: Any) -> bool:
        try:
            value = self.parse(text) if isinstance(text, str) else text
        except ValueError as exc:
            self.show_edit_error(
                ValidationError([Problem("bad_input", {"en": str(exc), "ru": str(exc)}, field=self.field.name)])
            )
            self.refresh()
            return False
        m = self.mapping()
        m[key] = value
        return self.commit(m)

    def add(self, key_text: str, value_text: str) -> bool:
        key_text = (key_text or "").strip()
        if not key_text:
            self.show_edit_error(ValidationError([Problem("key_missing", TEXTS["key_missing"], field=self.field.name)]))
            return False
        by_label = {label: value for label, value in self.key_options()}
        ok = self.set_entry(by_label.get(key_text, key_text), value_text)
        if ok:
            self.key_picker.value = ""
            self.value_box.value = ""
        return ok

    def remove(self, key: Any) -> bool:
        m = self.mapping()
        m.pop(key, None)
        return self.commit(m)

    def refresh(self) -> None:
        m = self.mapping()
        keys = list(self.fixed_keys) + [k for k in m if k not in self.fixed_keys]
        cells = []
        self.entry_editors = []
        locked = self.locked()
        for k in keys:
            v = m.get(k, 0 if self.fixed_keys else None)
            lab = html_widget(
                f'<span class="tt-label-text">{esc(self.key_label(k))}</span>', classes=["tt-field-label"]
            )
            parts = [lab]
            if isinstance(v, (int, str)) and not isinstance(v, bool):
                box = widgets.Text(
                    style=shared_style(widget_string.TextStyle),
                    value=str(v),
                    continuous_update=False,
                    tooltip=self.key_label(k),
                    layout=fixed_layout(width="80px"),
                    _dom_classes=("tt-map-entry-value",),
                    **locked,
                )
                self.entry_editors.append(box)
                box.observe(lambda ch, k=k: self.set_entry(k, ch["new"]), names="value")
                parts.append(box)
            else:
                val = html_widget(pretty(self.ctx, v), classes=["tt-derived-value"])
                parts.append(val)
            if k not in self.fixed_keys:
                rm = button_widget(
                    description=t("remove", self.loc),
                    tooltip=t("remove_tip", self.loc),
                    layout=fixed_layout(width="32px"),
                    classes=["tt-list-remove"],
                    **locked,
                )
                self.entry_editors.append(rm)
                rm.on_click(lambda _b, k=k: self.remove(k))
                parts.append(rm)
            cell = hbox(parts, classes=["tt-row", "tt-map-entry"])
            cells.append(cell)
        if not cells:
            empty = html_widget(f'<span class="tt-muted">{esc(t("empty", self.loc))}</span>')
            cells.append(empty)
        replace_children(self.entries, cells)

    def relabel(self) -> None:
        self.key_picker.options = [label for label, _ in self.key_options()]
        self.key_picker.placeholder = t("key", self.loc)
        self.key_picker.tooltip = f"{self.text}: {t('key', self.loc)}"
        self.value_box.placeholder = t("value", self.loc)
        self.value_box.tooltip = f"{self.text}: {t('value', self.loc)}"
        self.add_button.description = t("add", self.loc)
        self.add_button.tooltip = t("add_tip", self.loc)
        super().relabel()
        self.refresh()
