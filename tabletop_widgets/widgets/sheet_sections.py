"""How a :class:`~.sheet.CharacterSheet` lays out its sections: each section's card (title and
fold button now, fields when first opened), folding, the layouts a section may ask for (a
parameter tree as columns, a matrix of rows and columns, groups with their totals, a grid), and
``visible_if``.

:class:`SectionCards` is the part of the sheet that does this, built from the field views'
:class:`~.sheet_context.SheetContext` and the layout's :class:`~.sheet_index.SheetIndex`.
:class:`SheetViews` is its (and the sheet's) ``views`` mapping, and :func:`starts_open` decides
which sections start unfolded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import ipywidgets as widgets

from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.problems import Problem

from .base import text_lookup
from .sheet_context import SheetContext, button_widget, esc, fixed_layout, hbox, html_widget, set_display, vbox
from .sheet_fields import ActionBar, DerivedView, FieldView, ResourceView, make_view, section_actions
from .sheet_index import SheetIndex

#: User-facing text of the sections' fold buttons, in English and Russian.
TEXTS: dict[str, dict[str, str]] = {
    "show": {"en": "Show", "ru": "Показать"},
    "hide": {"en": "Hide", "ru": "Скрыть"},
    "show_tip": {"en": "Show the section {name}", "ru": "Показать раздел «{name}»"},
    "hide_tip": {"en": "Hide the section {name}", "ru": "Скрыть раздел «{name}»"},
}

_t = text_lookup(TEXTS)

#: Roots a parameter tree lays out as one grid (the CSS has a column class for each).
TREE_COLUMNS = 6

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

    def __init__(self, cards: "SectionCards", built: dict[str, FieldView] | None = None):
        self._sheet = cards
        self.built: dict[str, FieldView] = {} if built is None else built

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


class SectionCards:
    """The section cards of a character sheet: one card per section of the system's layout,
    folded or open, its fields' views built when it is first opened (or looked up in
    ``views``), following the character.

    Inputs: ``ctx`` (the :class:`SheetContext` the views share: the character, its system, the
    language, the role check), ``index`` (the layout's :class:`SheetIndex`), ``built`` (the dict
    the views go into as they are built, ``{trait name: FieldView}``: the sheet check reads it
    too), ``problems_by_home()`` (the problems to show, by the field they show next to: a view
    shows its own when it is built) and ``open_sections`` (see :class:`~.sheet.CharacterSheet`).

    Attributes: ``body`` (the cards in the sheet's two-column grid), ``views`` (a
    :class:`SheetViews`), ``actions`` (``{section id: [ActionBar]}`` of built sections),
    ``sections`` (``{section id: VBox}``), ``section_titles`` and ``built_sections``.
    """

    def __init__(
        self,
        ctx: SheetContext,
        index: SheetIndex,
        *,
        built: dict[str, FieldView] | None = None,
        problems_by_home: Callable[[], Mapping[str | None, list[Problem]]] = dict,
        open_sections: str | Iterable[str] | None = None,
    ):
        self.ctx, self.index = ctx, index
        self.character, self.system = ctx.character, ctx.system
        self.problems_by_home = problems_by_home
        self.views = SheetViews(self, built)
        self.actions: dict[str, list[ActionBar]] = {}
        self.section_specs = index.section_specs
        self.section_of = index.section_of
        self.body = self._build_body(open_sections)

    def _build_body(self, open_sections: str | Iterable[str] | None) -> widgets.GridBox:
        """Every section's card, folded or open as ``open_sections`` says, in the sheet's
        two-column grid."""
        self.sections: dict[str, widgets.Widget] = {}
        self.section_titles: dict[str, tuple[widgets.HTML, Any]] = {}
        self._visibility: list[tuple[widgets.Widget, str]] = []
        self._watchers: dict[str, list[FieldView]] = {}
        self._extra_views: list[FieldView] = []
        self.built_sections: set[str] = set()
        self._relabelled = False  # True once the whole sheet has been labelled
        self._folds: dict[str, widgets.Button] = {}  # the sections' fold buttons
        opened = self._opened_at_start(open_sections)
        return widgets.GridBox(
            [self._build_section(s, s.id in opened) for s in self.system.sheet.sections],
            layout=fixed_layout(
                grid_template_columns="repeat(2, minmax(0, 1fr))", grid_auto_flow="row dense", width="100%"
            ),
            _dom_classes=("tt-sheet-body",),
        )

    def _opened_at_start(self, open_sections: str | Iterable[str] | None) -> set[str]:
        if open_sections is None:
            return {s.id for s in self.system.sheet.sections if starts_open(s)}
        if open_sections == "all":
            return set(self.section_specs)
        opened = set(open_sections)
        unknown = opened - set(self.section_specs)
        if unknown:
            raise ValueError(
                f"unknown section(s) {', '.join(sorted(unknown))}: this sheet has {', '.join(self.section_specs)}"
            )
        return opened

    # -- layout ----------------------------------------------------------------------------
    def _view(self, field, classes: Iterable[str] = (), label: bool = True) -> FieldView:
        view = make_view(self.ctx, field, classes=classes, label=label)
        self.views.built.setdefault(field.name, view)
        for name in view.names:
            self._watchers.setdefault(name, []).append(view)
        return view

    def _build_section(self, section, opened: bool) -> widgets.Widget:
        """The section's card: its title and fold button now, its fields when first opened. The
        title, the button and the fields' parts are the card's own children (its CSS grid puts
        the title and the button side by side, the parts under them): no box for the head or
        the content. Folded, the card has the class ``tt-folded`` and shows its head only."""
        # each widget made with its classes: one message each, not one more per class
        title = html_widget(self._section_title_html(section.id), classes=["tt-section-title"])
        toggle = button_widget(
            layout=fixed_layout(width="auto"), classes=["tt-section-toggle"], **self._fold_words(section.id, opened)
        )
        toggle.on_click(lambda _b, sid=section.id: self.toggle_section(sid))
        # folded or not from the start: open_section / fold_section below then change nothing
        classes = ["tt-section", f"tt-section-{section.id}", f"tt-layout-{section.layout}"]
        if section.layout in ("tree", "table", "text") or section.columns >= 3:
            classes.append("tt-wide")
        if not opened:
            classes.append("tt-folded")
        box = vbox([title, toggle], classes=classes)
        self.sections[section.id] = box
        self.section_titles[section.id] = (title, section.label)
        self._folds[section.id] = toggle
        self._conditional(box, section.visible_if)
        if opened:
            self.open_section(section.id)
        else:
            self.fold_section(section.id)
        return box

    # -- folding -------------------------------------------------------------------------------
    def is_open(self, section_id: str) -> bool:
        return "tt-folded" not in self.sections[section_id]._dom_classes

    def open_section(self, section_id: str) -> None:
        """Unfold a section, building its fields the first time."""
        if section_id not in self._folds:
            raise KeyError(f"no section {section_id!r} on this sheet")
        self.build_section(section_id)
        self.sections[section_id].remove_class("tt-folded")
        self._label_fold(section_id)

    def fold_section(self, section_id: str) -> None:
        """Fold a section away (its widgets, once built, are kept)."""
        if section_id not in self._folds:
            raise KeyError(f"no section {section_id!r} on this sheet")
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
        toggle = self._folds[section_id]
        words = self._fold_words(section_id, self.is_open(section_id))
        with toggle.hold_sync():  # one message
            toggle.description = words["description"]
            toggle.tooltip = words["tooltip"]

    def _fold_words(self, section_id: str, is_open: bool) -> dict[str, str]:
        """The fold button's words: Show or Hide, and its tooltip naming the section."""
        loc = self.ctx.locale
        name = tr(self.section_specs[section_id].label, loc)
        key = "hide" if is_open else "show"
        return {"description": _t(key, loc), "tooltip": _t(f"{key}_tip", loc, name=name)}

    def _section_title_html(self, section_id: str) -> str:
        return f"<h3>{esc(tr(self.section_specs[section_id].label, self.ctx.locale))}</h3>"

    def build_all(self) -> None:
        """Build every section's fields (folded sections stay folded)."""
        for section_id in self.section_specs:
            self.build_section(section_id)

    def build_section(self, section_id: str) -> None:
        """Build a section's fields if not built yet (the section stays as folded or open as it
        is): its views follow the character, show their problems and speak the sheet's
        language from then on."""
        if section_id in self.built_sections:
            return
        self.built_sections.add(section_id)
        section = self.section_specs[section_id]
        before = {id(v) for v in self.all_views()}
        box = self.sections[section_id]
        parts, wide = self._section_parts(section)
        box.children = (*box.children[:2], *parts)  # after the title and the fold button
        if wide:
            box.add_class("tt-wide")
        new = [v for v in self.all_views() if id(v) not in before]
        by_home = self.problems_by_home()
        for view in new:
            if self.views.built.get(view.field.name) is view:
                view.set_problems(by_home.get(view.field.name, []))
        if self._relabelled:
            # a section opened later: label what was just built in the sheet's language
            for view in new:
                view.relabel()
            for bar in self.actions.get(section_id, []):
                bar.relabel()
            self.relabel_heads()

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
            parts += [v.widget for v in resources]  # one under the other, in the card itself
        if narrow:
            cols = max(1, min(section.columns, 4))
            grid = widgets.GridBox(
                [v.widget for v in narrow],
                layout=fixed_layout(grid_template_columns=f"repeat({cols}, minmax(0, 1fr))", width="100%"),
                _dom_classes=("tt-grid",),
            )
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
        set_display(widget, None if getattr(self.character, trait) else "none")

    def _tree(self, section, fields) -> widgets.Widget:
        """A parameter tree as columns: each root on top, its children below, their leaves under
        them (``Field.tier`` and ``Field.parent``). Up to :data:`TREE_COLUMNS` roots, the tree is
        ONE grid: each item has its column's class (``tt-tree-c1``...), the CSS puts it there,
        in order, so no box per column is needed; more roots get a box each."""
        by_parent: dict[Any, list] = {}
        for f in fields:
            by_parent.setdefault(f.parent, []).append(f)

        def flat(f, more: list[str]) -> list[widgets.Widget]:
            """A branch whose children are all leaves: its head and leaves go straight into the
            column (no box), each marked as in the branch (the CSS draws the branch's rule)."""
            head = self._view(f, ["tt-tree-branch-head", "tt-tree-in-branch", *more])
            leaves = [self._view(k, ["tt-tree-leaf", "tt-tree-in-branch", *more]) for k in by_parent[f.name]]
            return [head.widget] + [v.widget for v in leaves]

        def branch(f, depth: int, more: list[str]) -> list[widgets.Widget]:
            kids = by_parent.get(f.name, [])
            if depth > 0 and kids and not any(by_parent.get(k.name) for k in kids):
                return flat(f, more)
            place = "tt-tree-root" if depth == 0 else "tt-tree-leaf" if not kids else None
            view = self._view(f, [*([place] if place else []), *more])  # made with its place in the tree
            below = [w for k in kids for w in branch(k, depth + 1, [] if depth else more)]
            if not kids:
                return [view.widget]
            if depth == 0:
                return [view.widget, *below]
            return [vbox([view.widget, *below], classes=["tt-tree-branch", *more])]

        roots = by_parent.get(None, [])
        if len(roots) <= TREE_COLUMNS:
            items = [w for i, r in enumerate(roots, 1) for w in branch(r, 0, [f"tt-tree-c{i}"])]
            return widgets.GridBox(
                items,
                layout=fixed_layout(grid_template_columns=f"repeat({len(roots)}, minmax(0, 1fr))", width="100%"),
                _dom_classes=("tt-tree", "tt-tree-grid"),
            )
        cols = [vbox(branch(r, 0, []), classes=["tt-tree-col", "tt-flat"]) for r in roots]
        return hbox(cols, classes=["tt-tree"])

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
                # a cell without its label: the row's and the column's heads say what it is
                children.append(self._view(f, label=False).widget if f else html_widget())
        return widgets.GridBox(
            children,
            layout=fixed_layout(
                grid_template_columns=f"minmax(var(--tt-matrix-label, 110px), 1.4fr) repeat({len(cols)}, minmax(0, 1fr))",
                width="100%",
            ),
            _dom_classes=("tt-matrix",),
        )

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

    # -- what the sheet follows ------------------------------------------------------------------
    def follow(self, name: str) -> None:
        """The character's trait ``name`` changed: the sections and fields shown only while it is
        true (``visible_if``) show or hide, and the views showing it refresh."""
        for widget, trait in self._visibility:
            if trait == name:
                self._apply_visibility(widget, trait)
        for view in self._watchers.get(name, ()):
            view.refresh()

    def all_views(self) -> list[FieldView]:
        seen, out = set(), []
        for views in self._watchers.values():
            for v in views:
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    # -- language ------------------------------------------------------------------------------
    def relabel_sections(self) -> None:
        """The sections' titles, fold buttons and table heads in the sheet's language."""
        for sid, (title, _label) in self.section_titles.items():
            title.value = self._section_title_html(sid)
            self._label_fold(sid)
        self.relabel_heads()
        self._relabelled = True

    def relabel_heads(self) -> None:
        loc = self.ctx.locale
        for head, column, members in getattr(self, "_matrix_heads", []):
            head.value = self._matrix_head_html(column, members)
        for head, label in getattr(self, "_group_heads", []):
            head.value = esc(tr(label, loc))

    def _matrix_head_html(self, column: str, members: list) -> str:
        loc = self.ctx.locale
        if column == "":  # a row label: the row's first field
            f = members[0] if members else None
            if f is None:
                return ""
            tip = tr(f.help, loc) if f.help else tr(f.label, loc)
            return f'<span class="tt-label-text" title="{esc(tip)}">{esc(tr(f.label, loc))}</span>'
        labels = {tr(m.column_label or m.label, loc) for m in members}
        text = labels.pop() if len(labels) == 1 else self.ctx.label_for(column)
        return esc(text)

    def relabel_views(self) -> None:
        """The built views and the sections' actions in the sheet's language."""
        for v in self.all_views():
            v.relabel()
        for bars in self.actions.values():
            for bar in bars:
                bar.relabel()

    def refresh_tree_derived(self, name: str) -> None:
        """The character's trait ``name`` changed: the derived values of a parameter tree that
        do not show it refresh too (their dice labels read the tree around them)."""
        tree_derived = [v for v in self.all_views() if isinstance(v, DerivedView) and v.field.die_label]
        for v in tree_derived:
            if name not in v.names:
                v.refresh()

    def mark_problems(self, homes: set[str]) -> None:
        """The cards holding a field of ``homes`` (the fields showing a problem) say so, folded
        or not (``tt-section-has-problem``); the others do not."""
        for section_id, box in self.sections.items():
            if any(self.section_of.get(name) == section_id for name in homes):
                box.add_class("tt-section-has-problem")
            else:
                box.remove_class("tt-section-has-problem")

    def unbind(self) -> None:
        """The built views stop writing to and following the character (the sheet closes)."""
        for view in self.all_views():
            binding = getattr(view, "binding", None)
            if binding is not None:
                binding.unbind()


__all__ = ["REFERENCE_KINDS", "SectionCards", "SheetViews", "starts_open"]
