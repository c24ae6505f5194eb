"""Field renderers of the CharacterSheet: one view per ``core.sheet.Field`` kind.

Each view owns its widgets, binds them to the character through ``_bind`` (edits are committed
all or nothing and the model's value is written back), re-renders its labels on a language switch
and shows, next to itself, the problems that concern it. Nothing here knows a particular system:
views read what the Field declares (kind, choices, ``source`` data table, item fields, its typed
hints) and what the model's traits are.

The views live in :mod:`.sheet_views` (one value: numbers, texts, choices, derived values,
resources) and :mod:`.sheet_lists` (lists, tags, mappings), on what :mod:`.sheet_context`
shares; this module holds a section's actions and :func:`make_view` (the view for a field), and
re-exports the rest under the names the sheet and the tests import.
"""

from __future__ import annotations

from typing import Any, Iterable

import ipywidgets as widgets
from ipywidgets.widgets import widget_description
import traitlets

from tabletop_widgets.core.i18n import LOCALES, tr
from tabletop_widgets.core.problems import ValidationError

from .sheet_context import (
    TEXTS,
    SharedLayout,
    SheetContext,
    button_widget,
    choice_options,
    close_tree,
    esc,
    fixed_layout,
    hbox,
    html_widget,
    own_layout,
    pretty,
    problems_html,
    replace_children,
    row_id,
    row_label,
    set_display,
    shared_layout,
    shared_style,
    vbox,
)
from .sheet_lists import ItemForm, ListView, MappingView, TagsView, item_from_row
from .sheet_views import DerivedView, FieldView, ResourceView, ScalarView, make_control


# ------------------------------------------------------------------------------------------
# Section actions: buttons that call a rules method the section declares
# ------------------------------------------------------------------------------------------
class ActionBar:
    """A rules action a section declares (:class:`~tabletop_widgets.core.sheet.SheetAction`): one
    click calls ``method(character)``; with a ``source``, a picker of that data table's rows and
    a button calling ``method(character, row_id)``. The rules method changes the character (or
    raises a RuleError, shown here, with the problems it lists); the sheet only shows the result.
    Where the sheet was given ``perform`` (a shared table), the action runs through it instead:
    ``perform(action, args)`` records it as the table's event."""

    def __init__(self, ctx: SheetContext, action, *, classes: Iterable[str] = ()):
        self.ctx, self.action = ctx, action
        self.method = action.bound(ctx.system)
        self.source = action.source
        self._picker: widgets.Dropdown | None = None
        self._message: widgets.HTML | None = None
        self.button = button_widget(layout=fixed_layout(width="auto", flex="0 0 auto"), classes=["tt-action-button"])
        self.button.on_click(lambda _b: self.run())
        # with a source: the picker and the button in a row; without: the button alone
        top = hbox([self.picker, self.button], classes=["tt-action-row"]) if self.source else self.button
        self.widget = vbox([top], classes=["tt-action", *classes])
        self._last: tuple[str, Any] | None = None
        self._problems: list = []
        self.relabel()

    @property
    def picker(self) -> widgets.Dropdown:
        """The picker of the ``source`` table's rows (shown only for an action with a source:
        made on first use)."""
        if self._picker is None:
            self._picker = widgets.Dropdown(
                style=shared_style(widget_description.DescriptionStyle),
                layout=fixed_layout(width="auto", flex="1 1 0", min_width="0"),
                _dom_classes=("tt-action-picker",),
            )
        return self._picker

    @property
    def message(self) -> widgets.HTML:
        """The outcome under the button (``.tt-field-problem``): made, and put under the button,
        on first use (most actions are never run on a page)."""
        if self._message is None:
            self._message = html_widget(layout=fixed_layout(display="none"), classes=["tt-field-problem"])
            self.widget.children = (*self.widget.children, self._message)
        return self._message

    def options(self) -> list[tuple[str, Any]]:
        loc, cost = self.ctx.locale, self.action.cost_field
        out = []
        for r in self.ctx.rows(self.source):
            # a row's id is a code for the program; a reader gets its group (a category) and label
            group = {k: r[f"category_{k}"] for k in LOCALES if r.get(f"category_{k}")}
            text = f"{tr(group, loc)} · {tr(row_label(r), loc)}" if group else tr(row_label(r), loc)
            if cost and r.get(cost) is not None:
                text += f" ({r[cost]})"
            out.append((text, row_id(r)))
        return out

    def run(self) -> bool:
        from tabletop_widgets.core.problems import RuleError

        if not self.ctx.can("act") or (self.action.who == "gm" and not self.ctx.can("edit_gm")):
            self._last = ("error", TEXTS["not_allowed"])
            self.render()
            return False
        args = [self.ctx.character] + ([self.picker.value] if self.source else [])
        self._problems = []
        perform = self.ctx.perform
        try:
            if perform is not None:
                perform(self.action, args)
            else:
                self.method(*args)
        except RuleError as exc:
            problems = list((exc.data or {}).get("problems") or [])
            if problems:  # a refusal that lists problems: say so, and list them
                self._problems = problems
                self._last = ("error", TEXTS["refused_problems"])
            else:
                self._last = ("error", exc.message)
        except (ValidationError, ValueError, TypeError, KeyError, PermissionError) as exc:
            message = getattr(exc, "message", None)  # the table's refusals are bilingual
            self._last = ("error", dict(message) if isinstance(message, dict) else {"en": str(exc), "ru": str(exc)})
        else:
            what = f": {self.picker.value}" if self.source else ""
            label = tr(self.action.label, "en"), tr(self.action.label, "ru")
            self._last = ("ok", {"en": f"✓ {label[0]}{what}", "ru": f"✓ {label[1]}{what}"})
            self.render()
            return True
        self.render()
        return False

    def render(self) -> None:
        if self._last is None:
            if self._message is not None:
                set_display(self._message, "none")
            return
        kind, text = self._last
        cls = "tt-ok" if kind == "ok" else "tt-error"
        role = "status" if kind == "ok" else "alert"
        listed = problems_html(self._problems, self.ctx.locale, labelled=True) if self._problems else ""
        value = f'<div class="{cls}" role="{role}">{esc(tr(text, self.ctx.locale))}{listed}</div>'
        if self._message is None:  # the first outcome: made shown, with its text (one message)
            self._message = html_widget(value, classes=["tt-field-problem"])
            self.widget.children = (*self.widget.children, self._message)
            return
        self._message.value = value
        set_display(self._message, None)

    def relabel(self) -> None:
        loc = self.ctx.locale
        if self.source:
            current = self.picker.value
            opts = self.options()
            self.picker.options = opts
            if opts:
                self.picker.value = current if current in dict((v, 1) for _, v in opts) else opts[0][1]
            self.picker.tooltip = tr(self.action.label, loc)
        self.button.description = tr(self.action.label, loc)
        self.button.tooltip = tr(self.action.label, loc)
        self.render()


def section_actions(ctx: SheetContext, section) -> list[ActionBar]:
    """The action bars of a section's :class:`~tabletop_widgets.core.sheet.SheetAction` s (their
    methods were checked when the system registered)."""
    return [ActionBar(ctx, action) for action in section.actions]


def make_view(ctx: SheetContext, field, *, classes: Iterable[str] = (), label: bool = True) -> FieldView:
    """The view for ``field`` (by its kind, and by its trait when they disagree); ``classes``
    are more CSS classes of its outer widget; ``label=False``: without its label (a matrix's
    cell, whose heads say what it is)."""
    trait = ctx.trait(field.name)
    if field.kind == "derived" or (trait is not None and trait.metadata.get("derived")):
        cls = DerivedView
    elif isinstance(trait, traitlets.Dict) or field.kind == "mapping":
        cls = MappingView
    elif field.kind == "list":
        cls = ListView
    elif field.kind == "tags":
        cls = TagsView
    elif field.kind == "resource":
        cls = ResourceView
    else:
        cls = ScalarView
    return cls(ctx, field, classes=list(classes), label=label)


#: the names the sheet, the tests and notebooks import from here (the views live in
#: ``sheet_context``, ``sheet_views`` and ``sheet_lists``; this module keeps the actions and the
#: choice of a view, and re-exports the rest)
__all__ = [
    "TEXTS",
    "SheetContext",
    "FieldView",
    "ScalarView",
    "DerivedView",
    "ResourceView",
    "ListView",
    "ItemForm",
    "TagsView",
    "MappingView",
    "ActionBar",
    "section_actions",
    "make_view",
    "make_control",
    "item_from_row",
    "pretty",
    "problems_html",
    "row_id",
    "row_label",
    "choice_options",
    "SharedLayout",
    "shared_layout",
    "fixed_layout",
    "own_layout",
    "set_display",
    "hbox",
    "vbox",
    "html_widget",
    "button_widget",
    "replace_children",
    "close_tree",
]
