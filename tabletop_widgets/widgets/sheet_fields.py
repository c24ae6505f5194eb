"""Field renderers of the CharacterSheet: one view per ``core.sheet.Field`` kind.

Each view owns its widgets, binds them to the character through ``_bind`` (edits are committed
all or nothing and the model's value is written back), re-renders its labels on a language switch
and shows, next to itself, the problems that concern it. Nothing here knows a particular system:
views read what the Field declares (kind, choices, ``source`` data table, item fields, hints in
typed hints) and what the model's traits are.
"""

from __future__ import annotations

import copy
import html
from typing import Any, Callable, Mapping, Sequence

import ipywidgets as widgets
import traitlets

from tabletop_widgets.core.i18n import LOCALES, tr
from tabletop_widgets.core.problems import Problem, ValidationError
from tabletop_widgets.core.system import term_of

from ._bind import apply_edit, bind

#: User-facing text of the field views, in English and Russian.
TEXTS: dict[str, dict[str, str]] = {
    "add": {"en": "Add", "ru": "Добавить"},
    "add_tip": {"en": "Add the chosen entry", "ru": "Добавить выбранную запись"},
    "add_blank": {"en": "New…", "ru": "Новая…"},
    "add_blank_tip": {"en": "Add a new entry of your own", "ru": "Добавить свою запись"},
    "from_table": {"en": "from the list", "ru": "из списка"},
    "edit": {"en": "Edit", "ru": "Изменить"},
    "edit_tip": {"en": "Edit this entry", "ru": "Изменить эту запись"},
    "remove": {"en": "✕", "ru": "✕"},
    "remove_tip": {"en": "Remove this entry", "ru": "Удалить эту запись"},
    "save": {"en": "Save", "ru": "Сохранить"},
    "save_tip": {"en": "Keep the changes to this entry", "ru": "Сохранить изменения записи"},
    "cancel": {"en": "Cancel", "ru": "Отмена"},
    "cancel_tip": {"en": "Close without changes", "ru": "Закрыть без изменений"},
    "empty": {"en": "Nothing yet.", "ru": "Пока пусто."},
    "minus_tip": {"en": "Decrease {label} by 1", "ru": "Уменьшить «{label}» на 1"},
    "plus_tip": {"en": "Increase {label} by 1", "ru": "Увеличить «{label}» на 1"},
    "none": {"en": "—", "ru": "—"},
    "yes": {"en": "yes", "ru": "да"},
    "no": {"en": "no", "ru": "нет"},
    "whole_number": {"en": "enter a whole number (or leave empty)", "ru": "введите целое число (или оставьте пустым)"},
    "whole_number_req": {"en": "enter a whole number", "ru": "введите целое число"},
    "key": {"en": "Name", "ru": "Название"},
    "value": {"en": "Value", "ru": "Значение"},
    "key_missing": {"en": "choose or type a name first", "ru": "сначала выберите или введите название"},
    "gm_tip": {"en": "Entered by the {gm}", "ru": "Вводит {gm}"},
    "not_allowed": {"en": "you may not change this", "ru": "вам нельзя это менять"},
    "pick": {"en": "choose…", "ru": "выберите…"},
}


def t(key: str, locale: str, **fmt: Any) -> str:
    text = TEXTS[key].get(locale) or TEXTS[key]["en"]
    return text.format(**fmt) if fmt else text


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


# ------------------------------------------------------------------------------------------
# The context a view needs (given by the CharacterSheet)
# ------------------------------------------------------------------------------------------
class SheetContext:
    """What field views share: the character, its system, the language, the role check, and
    lookups of data tables and labels (cached)."""

    def __init__(self, character, system, *, locale: str = "en", can: Callable[[str], bool] | None = None):
        self.character = character
        self.system = system
        self.locale = locale
        self._can = can or (lambda action: True)
        self._rows: dict[str, list[dict]] = {}
        self._labels: dict[str, Mapping[str, str]] = {}
        self._checks: dict[str, Any] | None = None
        #: called when a field's shown problems change (the sheet recounts its sheet check)
        self.problems_changed: Callable[[], None] | None = None
        for f in system.sheet.fields():
            # the words a field's derived value uses as keys (table headers), declared with it
            for key, label in f.labels.items():
                self._labels.setdefault(str(key), label)
        for f in system.sheet.fields():
            self._labels.setdefault(f.name, f.label)
            for item in f.item_fields:
                self._labels.setdefault(item.name, item.label)
            for value, label in f.choices:
                self._labels.setdefault(str(value), label)
        sources = [s for f in system.sheet.fields() for s in (f.source, *(i.source for i in f.item_fields)) if s]
        try:
            others = list(system.data_tables())
        except Exception:
            others = []
        # labels for ids shown in derived values and mappings: the sheet's own tables first
        for source in dict.fromkeys(sources + others):
            for row in self.rows(source):
                if isinstance(row, Mapping) and ("en" in row or "ru" in row):
                    self._labels.setdefault(str(row_id(row)), row_label(row))

    def can(self, action: str) -> bool:
        try:
            return bool(self._can(action))
        except Exception:  # a broken role callback denies
            return False

    def trait(self, name: str):
        return type(self.character).class_traits().get(name)

    def rows(self, source: str | None) -> list[dict]:
        if not source:
            return []
        if source not in self._rows:
            try:
                self._rows[source] = list(self.system.data(source))
            except (KeyError, ValueError, LookupError):
                self._rows[source] = []
        return self._rows[source]

    def labels_covering(self, keys: Sequence[Any]) -> dict[str, Mapping[str, str]]:
        """Labels of ``keys`` from the first data table whose rows name them all (so that an id
        used by two tables, e.g. a coin and an element, gets the right one)."""
        wanted = {str(k) for k in keys}
        if not wanted:
            return {}
        try:
            tables = list(self.system.data_tables())
        except Exception:
            tables = []
        for table in tables:
            rows = {str(row_id(r)): row_label(r) for r in self.rows(table) if isinstance(r, Mapping)}
            if wanted <= set(rows):
                return {k: rows[k] for k in wanted}
        return {}

    def label_for(self, key: Any) -> str:
        lab = self._labels.get(str(key))
        if lab is not None:
            return tr(lab, self.locale)
        return str(key).replace("_", " ")

    def check(self, check_id: str):
        """The character's named check ``check_id`` (or None); refreshed by ``forget_checks``."""
        if self._checks is None:
            try:
                self._checks = {c.id: c for c in self.system.checks(self.character)}
            except Exception:
                self._checks = {}
        return self._checks.get(check_id)

    def forget_checks(self) -> None:
        self._checks = None


def row_id(row: Mapping[str, Any]) -> Any:
    for key in ("id", "code"):
        if row.get(key) not in (None, ""):
            return row[key]
    return row.get("en") or row.get("ru") or ""


def row_label(row: Mapping[str, Any]) -> dict[str, str]:
    en = row.get("en") or row.get("name") or str(row_id(row))
    return {"en": str(en), "ru": str(row.get("ru") or en)}


def choice_options(ctx: SheetContext, field, current: Any = None) -> list[tuple[str, Any]]:
    """``(label, value)`` pairs for a choice: the declared choices, else the data table's rows;
    the current value is kept as an option even when it is not (or no longer) in the list."""
    loc = ctx.locale
    if field.choices:
        opts = [(tr(label, loc), value) for value, label in field.choices]
    elif field.source:
        opts = [(tr(row_label(r), loc), row_id(r)) for r in ctx.rows(field.source)]
    elif field.choice_values:
        opts = [(ctx.label_for(v), v) for v in field.choice_values]
    elif field.choices_from:
        # picked from one of the character's own lists (Seasons: the active Problem is one of
        # the character's Problems); list items are names or rows with a name
        items = getattr(ctx.character, field.choices_from, None) or []
        names = [str(i.get("name") or i.get("en") or "") if isinstance(i, Mapping) else str(i) for i in items]
        opts = [(n, n) for n in dict.fromkeys(names) if n]
        if field.allow_empty:
            opts.insert(0, (t("none", loc), ""))
    else:
        opts = []
    values = [v for _, v in opts]
    if current is not None and not isinstance(current, (list, tuple)) and current not in values:
        opts.insert(0, (t("none", loc) if current == "" else str(current), current))
    return opts


def pretty(ctx: SheetContext, value: Any) -> str:
    """HTML for a derived value of any shape (number, flag, text, mapping, list of rows)."""
    loc = ctx.locale
    if value is None or value == "":
        return f'<span class="tt-muted">{esc(t("none", loc))}</span>'
    if isinstance(value, bool):
        return "✓" if value else f'<span class="tt-muted">{esc(t("no", loc))}</span>'
    if isinstance(value, float):
        return esc(f"{value:g}")
    if isinstance(value, int):
        return esc(value)
    if isinstance(value, str):
        return esc(ctx.label_for(value) if value in ctx._labels else value)
    if isinstance(value, Mapping):
        if set(value) <= {"en", "ru"} and value:
            return esc(tr(value, loc))
        if not value:
            return f'<span class="tt-muted">{esc(t("none", loc))}</span>'
        if all(isinstance(v, Mapping) for v in value.values()):
            cols: list[str] = []
            for v in value.values():
                cols += [k for k in v if k not in cols]
            head = "".join(f"<th>{esc(ctx.label_for(c))}</th>" for c in cols)
            body = "".join(
                f"<tr><th>{esc(ctx.label_for(k))}</th>"
                + "".join(f"<td>{pretty(ctx, v.get(c))}</td>" for c in cols)
                + "</tr>"
                for k, v in value.items()
            )
            return f'<table class="tt-mini"><tr><th></th>{head}</tr>{body}</table>'
        return " · ".join(
            f'<span class="tt-kv"><span class="tt-k">{esc(ctx.label_for(k))}</span> {pretty(ctx, v)}</span>'
            for k, v in value.items()
        )
    if isinstance(value, (list, tuple)):
        if not value:
            return f'<span class="tt-muted">{esc(t("none", loc))}</span>'
        if all(isinstance(v, Mapping) for v in value):
            rows = [
                {
                    **{k: v for k, v in r.items() if k not in ("en", "ru")},
                    **({"_text": tr(r, loc)} if ("en" in r or "ru" in r) else {}),
                }
                for r in value
            ]
            cols: list[str] = []
            for r in rows:
                cols += [k for k in r if k not in cols]
            head = "".join(f"<th>{esc('' if c == '_text' else ctx.label_for(c))}</th>" for c in cols)
            body = "".join("<tr>" + "".join(f"<td>{pretty(ctx, r.get(c))}</td>" for c in cols) + "</tr>" for r in rows)
            return f'<table class="tt-mini"><tr>{head}</tr>{body}</table>'
        return ", ".join(pretty(ctx, v) for v in value)
    return esc(value)


def problems_html(
    problems: Sequence[Problem], locale: str, *, alert: bool = False, labelled: bool = False, home: str = ""
) -> str:
    """The problems as a list; ``labelled``: each with its field's label (away from the field);
    ``home``: the field they show next to (``data-field``)."""
    items = "".join(
        f'<li class="tt-{"error" if p.severity == "error" else "warning"}" data-field="{esc(home)}">'
        f"{'⚠' if p.severity != 'error' else '✖'} {esc(p.full_text(locale) if labelled else p.text(locale))}</li>"
        for p in problems
    )
    role = ' role="alert"' if alert else ""
    return f'<ul class="tt-problem-list"{role}>{items}</ul>'


_SHARED_STYLES: dict[type, widgets.Widget] = {}


def shared_style(cls: type) -> widgets.Widget:
    """One model of class ``cls`` (``HTMLStyle``, ``ButtonStyle``, :class:`SharedLayout`) for
    all the sheet's widgets of that kind: the sheet never changes a style (only classes and
    layouts), and one shared model instead of one per widget keeps a notebook saved with widget
    state small. A closed one (``Widget.close_all()``) is replaced."""
    style = _SHARED_STYLES.get(cls)
    if style is None or getattr(style, "comm", None) is None:
        style = _SHARED_STYLES[cls] = cls()
    return style


_LAYOUT_TRAITS = [n for n in widgets.Layout.class_trait_names(sync=True) if not n.startswith("_")]


class SharedLayout(widgets.Layout):
    """The one empty ``Layout`` that the sheet's HTML pieces and buttons share unless they are
    given their own (``layout=...``). It refuses every change, so a widget that needs to hide
    or size itself must get its own Layout: a change here would move every widget sharing it."""

    @traitlets.validate(*_LAYOUT_TRAITS)
    def _refuse(self, proposal):
        raise traitlets.TraitError(
            f"the sheet's shared layout cannot change ({proposal['trait'].name}); "
            "give this widget its own widgets.Layout()"
        )


def shared_layout() -> SharedLayout:
    return shared_style(SharedLayout)


def own_layout(widget: widgets.DOMWidget) -> widgets.Layout:
    """``widget.layout``, first made the widget's own if it is the shared one: call it before
    hiding or sizing a widget."""
    if isinstance(widget.layout, SharedLayout):
        widget.layout = widgets.Layout()
    return widget.layout


def hbox(children: Sequence[widgets.Widget] = (), **kwargs: Any) -> widgets.HBox:
    """``widgets.HBox`` with the shared layout unless ``layout`` is given."""
    kwargs.setdefault("layout", shared_layout())
    return widgets.HBox(list(children), **kwargs)


def vbox(children: Sequence[widgets.Widget] = (), **kwargs: Any) -> widgets.VBox:
    """``widgets.VBox`` with the shared layout unless ``layout`` is given."""
    kwargs.setdefault("layout", shared_layout())
    return widgets.VBox(list(children), **kwargs)


def html_widget(value: str = "", **kwargs: Any) -> widgets.HTML:
    """``widgets.HTML`` with the shared style and, unless ``layout`` is given, the shared
    (unchangeable) layout."""
    kwargs.setdefault("style", shared_style(widgets.widget_string.HTMLStyle))
    kwargs.setdefault("layout", shared_layout())
    return widgets.HTML(value, **kwargs)


def button_widget(**kwargs: Any) -> widgets.Button:
    """``widgets.Button`` with the shared style and, unless ``layout`` is given, the shared
    (unchangeable) layout."""
    kwargs.setdefault("style", shared_style(widgets.ButtonStyle))
    kwargs.setdefault("layout", shared_layout())
    return widgets.Button(**kwargs)


def replace_children(box, children: list) -> None:
    """Give ``box`` new children and close the old ones (and everything inside them), so that
    re-rendered rows do not pile up as live widgets in the kernel."""
    old = list(box.children)
    box.children = children
    keep = {id(c) for c in children}
    for widget in old:
        if id(widget) not in keep:
            close_tree(widget)


def close_tree(widget) -> None:
    for child in getattr(widget, "children", ()) or ():
        close_tree(child)
    widget.close()


def bounds_text(lo: int | None, hi: int | None) -> str:
    """``0–8``, ``≥ 1``, ``≤ 0`` (empty when unbounded)."""
    if lo is not None and hi is not None:
        return f"{lo}–{hi}".replace("-", "−") if lo < 0 else f"{lo}–{hi}"
    if lo is not None:
        return f"≥ {lo}"
    if hi is not None:
        return f"≤ {hi}"
    return ""


def _is_int_trait(trait) -> bool:
    return isinstance(trait, (traitlets.Int, traitlets.CInt)) and not isinstance(trait, traitlets.Bool)


def _optional(trait) -> bool:
    return bool(getattr(trait, "allow_none", False))


def _parse_int(text: str, *, optional: bool, locale: str) -> int | None:
    text = (text or "").strip().replace("−", "-")
    if text == "":
        if optional:
            return None
        raise ValueError(t("whole_number_req", locale))
    try:
        return int(text)
    except ValueError:
        raise ValueError(t("whole_number" if optional else "whole_number_req", locale)) from None


# ------------------------------------------------------------------------------------------
# Base view
# ------------------------------------------------------------------------------------------
class FieldView:
    """One field of the sheet: ``widget`` to place, ``names`` of traits it shows."""

    wide = False

    def __init__(self, ctx: SheetContext, field):
        self.ctx = ctx
        self.field = field
        self.names: set[str] = {field.name}
        self.problems: list[Problem] = []
        self.edit_error: ValidationError | None = None
        self.label = html_widget()
        self.label.add_class("tt-field-label")
        self._problem: widgets.HTML | None = None  # built when there is first a problem to show
        self.build()
        self.widget.add_class("tt-field")
        self.widget.add_class(f"tt-field-{field.name}")
        self.widget.add_class(f"tt-kind-{field.kind}")
        self.relabel()
        self.refresh()

    # -- to override --------------------------------------------------------------------------
    def build(self) -> None:
        raise NotImplementedError

    def refresh(self) -> None:
        """Show the character's current values (bindings do most of this themselves)."""

    def relabel(self) -> None:
        self.label.value = self.label_html()
        self.render_problems()

    # -- shared -----------------------------------------------------------------------------
    @property
    def loc(self) -> str:
        return self.ctx.locale

    @property
    def text(self) -> str:
        return tr(self.field.label, self.loc)

    @property
    def tip(self) -> str:
        help_text = tr(self.field.help, self.loc) if self.field.help else ""
        text = f"{self.text}: {help_text}" if help_text else self.text
        allowed = self.range_text()
        return f"{text} ({allowed})" if allowed else text

    def input_range(self) -> tuple[int | None, int | None]:
        """The range a player may enter here (the model's ``input_range``, which follows the
        character's other values), or the field's declared bounds."""
        model = type(self.ctx.character)
        fn = getattr(model, "input_range", None)
        if fn is None or not hasattr(model, "persisted_traits"):
            return self.field.min, self.field.max
        values = {n: getattr(self.ctx.character, n) for n in model.persisted_traits()}
        try:
            return fn(self.field.name, values)
        except Exception:  # a rules bug must not break the sheet
            return self.field.min, self.field.max

    def range_text(self) -> str:
        """``0–8`` for a number field (what the player may enter), else ``""``."""
        if self.field.kind not in ("input", "resource") or not _is_int_trait(self.ctx.trait(self.field.name)):
            return ""
        return bounds_text(*self.input_range())

    @property
    def gm_field(self) -> bool:
        return bool(self.field.gm_only or self.field.gm_entered)

    def allowed(self) -> bool:
        return self.ctx.can("edit_gm" if self.gm_field else "edit")

    def badges_html(self) -> str:
        out = ""
        badge = self.field.badge
        if badge:
            out += f' <span class="tt-badge">{esc(tr(badge, self.loc))}</span>'
        if self.gm_field:
            system = self.ctx.system  # the book's word: «мастер», Seasons' «Рассказчик»
            tip = t("gm_tip", self.loc, gm=term_of(system, "gm", self.loc))
            out += (
                f' <span class="tt-badge tt-badge-gm" title="{esc(tip)}">'
                f"{esc(term_of(system, 'gm_title', self.loc))}</span>"
            )
        return out

    def label_html(self) -> str:
        help_mark = ' <span class="tt-help" aria-hidden="true">i</span>' if self.field.help else ""
        return f'<span class="tt-label-text" title="{esc(self.tip)}">{esc(self.text)}{help_mark}</span>{self.badges_html()}'

    @property
    def problem(self) -> widgets.HTML:
        """The problems shown under the field (``.tt-field-problem``). Most fields never have
        one, so it is made, and put last in ``widget``, on first use: a saved notebook then
        holds no empty problem box per field."""
        if self._problem is None:
            self._problem = html_widget(layout=widgets.Layout(display="none"))
            self._problem.add_class("tt-field-problem")
            self.widget.children = (*self.widget.children, self._problem)
        return self._problem

    def set_problems(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        self.render_problems()

    def show_edit_error(self, exc: ValidationError | None) -> None:
        changed = exc is not None or self.edit_error is not None
        self.edit_error = exc
        self.render_problems()
        if changed and self.ctx.problems_changed is not None:
            self.ctx.problems_changed()

    def render_problems(self) -> None:
        shown = list(self.edit_error.problems) if self.edit_error else []
        shown += [p for p in self.problems if p not in shown]
        if shown or self._problem is not None:
            own_layout(self.problem).display = None if shown else "none"
            self.problem.value = (
                problems_html(shown, self.loc, alert=self.edit_error is not None, home=self.field.name) if shown else ""
            )
        if shown:
            self.widget.add_class("tt-has-problem")
        else:
            self.widget.remove_class("tt-has-problem")
        if any(p.severity == "error" for p in shown):
            self.widget.add_class("tt-has-error")
        else:
            self.widget.remove_class("tt-has-error")

    def commit(self, value: Any, name: str | None = None) -> bool:
        """Apply an edit (not through a bound widget); shows a refusal inline. True if kept."""
        try:
            if not self.allowed():
                raise ValidationError(
                    [
                        Problem(
                            "not_allowed",
                            {"en": TEXTS["not_allowed"]["en"], "ru": TEXTS["not_allowed"]["ru"]},
                            field=self.field.name,
                        )
                    ]
                )
            apply_edit(self.ctx.character, name or self.field.name, value)
        except ValidationError as exc:
            self.show_edit_error(exc)
            self.refresh()
            return False
        self.show_edit_error(None)
        self.refresh()
        return True

    def _bind(self, widget, name: str | None = None, **kw):
        return bind(
            self.ctx.character,
            name or self.field.name,
            widget,
            on_error=self.show_edit_error,
            on_ok=lambda: self.show_edit_error(None),
            allowed=self.allowed,
            **kw,
        )


# ------------------------------------------------------------------------------------------
# Scalars: input / text / longtext / choice / flag
# ------------------------------------------------------------------------------------------
def make_control(ctx: SheetContext, field, trait, *, current: Any = None):
    """A control for one scalar value, and its (to_widget, to_model) converters."""
    kind = field.kind
    loc = lambda: ctx.locale  # noqa: E731 - converters read the language at edit time
    if kind == "flag":
        return widgets.Checkbox(indent=False, layout=widgets.Layout(width="auto")), None, None
    if kind == "longtext":
        return (
            widgets.Textarea(continuous_update=False, rows=3, layout=widgets.Layout(width="100%")),
            (lambda v: v or ""),
            None,
        )
    if kind == "choice":
        if field.multiple:
            ctl = widgets.SelectMultiple(
                options=choice_options(ctx, field), rows=4, layout=widgets.Layout(width="auto")
            )
            return ctl, (lambda v: tuple(v or ())), (lambda v: list(v))
        if field.free_text:
            ctl = widgets.Combobox(
                options=[label for label, _ in choice_options(ctx, field)],
                ensure_option=False,
                continuous_update=False,
                layout=widgets.Layout(width="auto", flex="1 1 auto"),
            )
            return ctl, (lambda v: v or ""), None
        ctl = widgets.Dropdown(
            options=choice_options(ctx, field, current), layout=widgets.Layout(width="auto", flex="1 1 auto")
        )
        return ctl, None, None
    if kind == "text" and not _is_int_trait(trait):
        return (
            widgets.Text(continuous_update=False, layout=widgets.Layout(width="auto", flex="1 1 auto")),
            (lambda v: v or ""),
            None,
        )
    # numbers
    optional = _optional(trait) or current is None
    if isinstance(trait, traitlets.Float):
        return widgets.FloatText(layout=widgets.Layout(width="80px")), None, None
    if optional:
        ctl = widgets.Text(continuous_update=False, placeholder="—", layout=widgets.Layout(width="80px"))
        return ctl, (lambda v: "" if v is None else str(v)), (lambda s: _parse_int(s, optional=True, locale=loc()))
    return widgets.IntText(layout=widgets.Layout(width="80px")), None, None


class ScalarView(FieldView):
    def build(self) -> None:
        f = self.field
        trait = self.ctx.trait(f.name)
        self.control, to_w, to_m = make_control(self.ctx, f, trait, current=getattr(self.ctx.character, f.name))
        if f.choices_from:
            self.names.add(f.choices_from)  # new items in that list become options
        self.control.add_class("tt-control")
        self.binding = self._bind(self.control, to_widget=to_w, to_model=to_m)
        self.dots = html_widget()
        self.dots.add_class("tt-dots")
        self.wide = f.kind == "longtext"
        parts = [self.label]
        if f.dots:
            parts.append(self.dots)
            own_layout(self.control).width = "56px"
        parts.append(self.control)
        row = hbox(parts)
        row.add_class("tt-row")
        if self.wide:
            row = vbox(parts)
            row.add_class("tt-row-wide")
        self.widget = vbox([row])

    def refresh(self) -> None:
        if self.field.choices_from and hasattr(self, "binding"):
            self.relabel()  # the options follow the character's list
        if self.field.kind == "input":
            self.control.tooltip = self.tip  # the range may follow other values (an NPC's cap)
        dots = self.field.dots
        if dots:
            v = getattr(self.ctx.character, self.field.name)
            cap = dots if isinstance(dots, int) and not isinstance(dots, bool) else 5
            n = v if isinstance(v, int) and not isinstance(v, bool) else 0
            top = max(cap, min(n, 2 * cap))  # dots for the usual range; a number beyond is a number
            n = max(0, min(n, top))
            self.dots.value = (
                f'<span class="tt-dots-inner" aria-hidden="true">{"●" * max(n, 0)}{"○" * max(top - n, 0)}</span>'
            )

    def relabel(self) -> None:
        self.control.tooltip = self.tip
        if self.field.kind == "choice" and hasattr(self, "binding"):
            with self.binding.quiet():
                if isinstance(self.control, widgets.Combobox):
                    self.control.options = [label for label, _ in choice_options(self.ctx, self.field)]
                else:
                    self.control.options = choice_options(
                        self.ctx,
                        self.field,
                        None if self.field.multiple else getattr(self.ctx.character, self.field.name),
                    )
        super().relabel()


class DerivedView(FieldView):
    def build(self) -> None:
        self.value = html_widget()
        self.value.add_class("tt-derived-value")
        budget = self.field.budget
        if isinstance(budget, str):
            self.names.add(budget)
        value = getattr(self.ctx.character, self.field.name, None)
        self.wide = (
            isinstance(value, (Mapping, list, tuple))
            and bool(value)
            and not (isinstance(value, Mapping) and set(value) <= {"en", "ru"})
        )
        row = (vbox if self.wide else hbox)([self.label, self.value])
        row.add_class("tt-row-wide" if self.wide else "tt-row")
        self.widget = vbox([row])

    def refresh(self) -> None:
        c, f = self.ctx.character, self.field
        v = getattr(c, f.name, None)
        text = pretty(self.ctx, v)
        if f.signed and isinstance(v, int) and not isinstance(v, bool) and v >= 0:
            text = "+" + text
        budget = f.budget
        if budget is not None:
            limit = getattr(c, budget, None) if isinstance(budget, str) else budget
            if limit is not None:
                text += f' <span class="tt-muted">/ {pretty(self.ctx, limit)}</span>'
        die = ""
        if f.die_label:
            check = self.ctx.check(f.name)
            if check is not None and check.help:
                die = f' <span class="tt-die-label" title="{esc(tr(check.help, self.loc))}">{esc(tr(check.help, self.loc))}</span>'
        self.value.value = f'{die}<span class="tt-value" title="{esc(self.tip)}">{text}</span>'

    def relabel(self) -> None:
        super().relabel()
        self.refresh()


# ------------------------------------------------------------------------------------------
# Resources: current / max with quick - and + buttons
# ------------------------------------------------------------------------------------------
class ResourceView(FieldView):
    def build(self) -> None:
        f = self.field
        if f.max_trait:
            self.names.add(f.max_trait)
        trait = self.ctx.trait(f.name)
        self.minus = button_widget(description="−", layout=widgets.Layout(width="34px"))
        self.minus.add_class("tt-res-minus")
        self.plus = button_widget(description="+", layout=widgets.Layout(width="34px"))
        self.plus.add_class("tt-res-plus")
        self.control, to_w, to_m = make_control(
            self.ctx, f.__class__(f.name, f.label, "input"), trait, current=getattr(self.ctx.character, f.name)
        )
        own_layout(self.control).width = "64px"
        self.control.add_class("tt-res-current")
        self.binding = self._bind(self.control, to_widget=to_w, to_model=to_m)
        self.max_html = html_widget()
        self.max_html.add_class("tt-res-max")
        self.bar = html_widget()
        self.bar.add_class("tt-res-bar")
        self.minus.on_click(lambda _b: self.step(-1))
        self.plus.on_click(lambda _b: self.step(+1))
        top = hbox([self.label, self.minus, self.control, self.max_html, self.plus])
        top.add_class("tt-row")
        top.add_class("tt-res-row")
        self.widget = vbox([top, self.bar])
        self.widget.add_class("tt-resource")

    def maximum(self):
        f = self.field
        if f.max_trait:
            return getattr(self.ctx.character, f.max_trait, None)
        return f.max

    def step(self, delta: int) -> bool:
        """The quick +/- buttons: one point up or down (the model's rules may clamp it)."""
        cur = getattr(self.ctx.character, self.field.name)
        if cur is None:
            cur = self.maximum() or 0
        return self.commit(cur + delta)

    def refresh(self) -> None:
        cur = getattr(self.ctx.character, self.field.name)
        mx = self.maximum()
        self.control.tooltip = self.tip  # the range follows the maximum
        self.max_html.value = (
            f'<span class="tt-res-of">/ {esc(mx)}</span>'
            if mx is not None
            else '<span class="tt-res-of tt-muted">/ ∞</span>'
        )
        if self.field.pips and isinstance(mx, int) and 0 < mx <= 12:
            n = max(0, min(cur or 0, mx))
            self.bar.value = (
                f'<div class="tt-pips" role="img" aria-label="{esc(self.text)} {cur} / {mx}">'
                + "●" * n
                + "○" * (mx - n)
                + "</div>"
            )
            return
        if isinstance(mx, int) and mx > 0 and isinstance(cur, int):
            frac = max(0.0, min(1.0, cur / mx))
            level = frac if not self.field.track else 1.0 - frac
            tone = "ok" if level > 0.5 else "low" if level > 0.25 else "bad"
            neg = " tt-negative" if cur < 0 else ""
            self.bar.value = (
                f'<div class="tt-bar{neg}" role="meter" aria-valuemin="0" aria-valuemax="{mx}" '
                f'aria-valuenow="{cur}" aria-label="{esc(self.text)}">'
                f'<div class="tt-bar-fill tt-{tone}" style="width:{frac * 100:.0f}%"></div></div>'
            )
        else:
            self.bar.value = ""

    def relabel(self) -> None:
        self.control.tooltip = self.tip
        self.minus.tooltip = t("minus_tip", self.loc, label=self.text)
        self.plus.tooltip = t("plus_tip", self.loc, label=self.text)
        super().relabel()
        self.refresh()  # the bar's accessible label is in the language too


# ------------------------------------------------------------------------------------------
# Lists of items (a table with add / edit / remove; rows picked from a data table)
# ------------------------------------------------------------------------------------------
def item_default(item_field) -> Any:
    k = item_field.kind
    if k == "flag":
        return False
    if k == "input":
        return item_field.min if item_field.min is not None and item_field.min > 0 else 0
    if k == "choice":
        if item_field.multiple:
            return []
        return item_field.choices[0][0] if item_field.choices else ""
    return ""


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
        value = item_default(f)
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
                    continuous_update=True, placeholder=bounds_text(f.min, f.max), layout=widgets.Layout(width="90px")
                )
            ctl.add_class(f"tt-item-{f.name}")
            lab = html_widget()
            lab.add_class("tt-field-label")
            cell = vbox([lab, ctl]) if f.kind in ("longtext",) or f.multiple else hbox([lab, ctl])
            cell.add_class("tt-form-cell")
            cells.append(cell)
            self.controls[f.name] = (f, ctl, lab)
        if not view.field.item_fields:  # a list of plain strings
            opts = [tr(row_label(r), ctx.locale) for r in ctx.rows(view.field.source)]
            ctl = widgets.Combobox(options=opts, ensure_option=False, layout=widgets.Layout(width="100%"))
            ctl.add_class("tt-item-text")
            lab = html_widget()
            cells.append(vbox([lab, ctl]))
            self.controls[""] = (None, ctl, lab)
        self.grid = widgets.GridBox(
            cells, layout=widgets.Layout(grid_template_columns="repeat(auto-fill, minmax(260px, 1fr))", width="100%")
        )
        self.error = html_widget()
        self.error.add_class("tt-field-problem")
        self.save = button_widget(button_style="primary")
        self.save.add_class("tt-item-save")
        self.cancel = button_widget()
        self.cancel.add_class("tt-item-cancel")
        buttons = hbox([self.save, self.cancel])
        buttons.add_class("tt-form-buttons")
        self.widget = vbox([self.grid, self.error, buttons])
        self.widget.add_class("tt-item-form")
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
            v = item.get(name, item_default(f)) if isinstance(item, Mapping) else item_default(f)
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
                    item[name] = _parse_int(ctl.value, optional=optional, locale=self.view.loc)
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
        self.rows_box = vbox()
        self.rows_box.add_class("tt-list-rows")
        self.picker = widgets.Dropdown(layout=widgets.Layout(width="auto", flex="1 1 auto"))
        self.picker.add_class("tt-list-picker")
        self.add_button = button_widget(icon="", layout=widgets.Layout(width="auto"))
        self.add_button.add_class("tt-list-add")
        self.new_button = button_widget(layout=widgets.Layout(width="auto"))
        self.new_button.add_class("tt-list-new")
        self.add_button.on_click(lambda _b: self.add_from_table(self.picker.value))
        self.new_button.on_click(lambda _b: self.open_form(None))
        bar = [self.picker, self.add_button] if self.ctx.rows(f.source) else []
        self.add_bar = hbox(bar + [self.new_button])
        self.add_bar.add_class("tt-list-addbar")
        self._form: ItemForm | None = None  # built on first use (it has many widgets)
        self.form_box = vbox()
        head = hbox([self.label])
        head.add_class("tt-list-head")
        self.widget = vbox([head, self.rows_box, self.form_box, self.add_bar])
        self.widget.add_class("tt-list")

    @property
    def form(self) -> ItemForm:
        """The edit form (built the first time it is needed)."""
        if self._form is None:
            self._form = ItemForm(self)
            self._form.save.on_click(lambda _b: self.save_form())
            self._form.cancel.on_click(lambda _b: self.close_form())
            own_layout(self._form.widget).display = "none"
            self.form_box.children = [self._form.widget]
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
            self.show_edit_error(
                ValidationError(
                    [
                        Problem(
                            "not_allowed",
                            {"en": TEXTS["not_allowed"]["en"], "ru": TEXTS["not_allowed"]["ru"]},
                            field=self.field.name,
                        )
                    ]
                )
            )
            return
        items = self.items()
        if index is None:
            item = {f.name: item_default(f) for f in self.field.item_fields} if self.field.item_fields else ""
        else:
            item = items[index]
        self.form.load(index, item)
        own_layout(self.form.widget).display = None

    def close_form(self) -> None:
        own_layout(self.form.widget).display = "none"
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
        if items and self.columns:
            head = "".join(f"<div>{esc(tr(c.label, loc))}</div>" for c in self.columns)
            header = html_widget(f'<div class="tt-list-cells tt-list-header" style="{grid}">{head}</div>')
            header.add_class("tt-list-row-html")
            spacer = html_widget(layout=widgets.Layout(width="136px"))
            hb = hbox([header, spacer])
            hb.add_class("tt-list-headrow")
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
            cell = html_widget(body)
            cell.add_class("tt-list-row-html")
            edit = button_widget(
                description=t("edit", loc), tooltip=t("edit_tip", loc), layout=widgets.Layout(width="92px")
            )
            edit.add_class("tt-list-edit")
            rm = button_widget(
                description=t("remove", loc), tooltip=t("remove_tip", loc), layout=widgets.Layout(width="36px")
            )
            rm.add_class("tt-list-remove")
            edit.on_click(lambda _b, i=i: self.open_form(i))
            rm.on_click(lambda _b, i=i: self.remove(i))
            row = hbox([cell, edit, rm])
            row.add_class("tt-list-row")
            children.append(row)
        if not items:
            empty = html_widget(f'<span class="tt-muted">{esc(t("empty", loc))}</span>')
            empty.add_class("tt-list-empty")
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
        self.chips = hbox()
        self.chips.add_class("tt-chips")
        self.picker = widgets.Combobox(ensure_option=False, layout=widgets.Layout(width="220px"))
        self.picker.add_class("tt-tags-picker")
        self.add_button = button_widget(layout=widgets.Layout(width="auto"))
        self.add_button.add_class("tt-tags-add")
        self.add_button.on_click(lambda _b: self.add(self.picker.value))
        row = hbox([self.label, self.chips, self.picker, self.add_button])
        row.add_class("tt-row")
        row.add_class("tt-tags-row")
        self.widget = vbox([row])
        self.widget.add_class("tt-tags")

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
                layout=widgets.Layout(width="auto"),
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

    def build(self) -> None:
        f = self.field
        self.key_field = next((i for i in f.item_fields if i.kind == "choice"), None)
        self.value_field = next((i for i in f.item_fields if i.kind in ("input", "text", "flag")), None)
        self.fixed_keys = list(f.keys or ())
        self.key_labels = self.ctx.labels_covering(self.fixed_keys)
        self.entries = widgets.GridBox(
            layout=widgets.Layout(grid_template_columns="repeat(auto-fill, minmax(230px, 1fr))", width="100%")
        )
        self.entries.add_class("tt-map-entries")
        self.key_picker = widgets.Combobox(ensure_option=False, layout=widgets.Layout(width="220px"))
        self.key_picker.add_class("tt-map-key")
        self.value_box = widgets.Text(layout=widgets.Layout(width="90px"))
        self.value_box.add_class("tt-map-value")
        self.add_button = button_widget(layout=widgets.Layout(width="auto"))
        self.add_button.add_class("tt-map-add")
        self.add_button.on_click(lambda _b: self.add(self.key_picker.value, self.value_box.value))
        self.add_bar = hbox([self.key_picker, self.value_box, self.add_button])
        self.add_bar.add_class("tt-list-addbar")
        if self.fixed_keys:
            own_layout(self.add_bar).display = "none"
        head = hbox([self.label])
        head.add_class("tt-list-head")
        self.widget = vbox([head, self.entries, self.add_bar])
        self.widget.add_class("tt-mapping")

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
            return _parse_int(text, optional=False, locale=self.loc)
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
        for k in keys:
            v = m.get(k, 0 if self.fixed_keys else None)
            lab = html_widget(f'<span class="tt-label-text">{esc(self.key_label(k))}</span>')
            lab.add_class("tt-field-label")
            parts = [lab]
            if isinstance(v, (int, str)) and not isinstance(v, bool):
                box = widgets.Text(
                    value=str(v),
                    continuous_update=False,
                    tooltip=self.key_label(k),
                    layout=widgets.Layout(width="80px"),
                )
                box.add_class("tt-map-entry-value")
                box.observe(lambda ch, k=k: self.set_entry(k, ch["new"]), names="value")
                parts.append(box)
            else:
                val = html_widget(pretty(self.ctx, v))
                val.add_class("tt-derived-value")
                parts.append(val)
            if k not in self.fixed_keys:
                rm = button_widget(
                    description=t("remove", self.loc),
                    tooltip=t("remove_tip", self.loc),
                    layout=widgets.Layout(width="32px"),
                )
                rm.add_class("tt-list-remove")
                rm.on_click(lambda _b, k=k: self.remove(k))
                parts.append(rm)
            cell = hbox(parts)
            cell.add_class("tt-row")
            cell.add_class("tt-map-entry")
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


# ------------------------------------------------------------------------------------------
# Section actions: buttons that call a rules method the section declares
# ------------------------------------------------------------------------------------------
class ActionBar:
    """A rules action a section declares (:class:`~tabletop_widgets.core.sheet.SheetAction`): one
    click calls ``method(character)``; with a ``source``, a picker of that data table's rows and
    a button calling ``method(character, row_id)``. The rules method changes the character (or
    raises a RuleError, shown here); the sheet only shows the result."""

    def __init__(self, ctx: SheetContext, action):
        self.ctx, self.action = ctx, action
        self.method = action.bound(ctx.system)
        self.source = action.source
        self.picker = widgets.Dropdown(layout=widgets.Layout(width="auto", flex="1 1 0", min_width="0"))
        self.picker.add_class("tt-action-picker")
        self.button = button_widget(layout=widgets.Layout(width="auto", flex="0 0 auto"))
        self.button.add_class("tt-action-button")
        self.message = html_widget(layout=widgets.Layout(display="none"))
        self.message.add_class("tt-field-problem")
        self.button.on_click(lambda _b: self.run())
        parts = ([self.picker] if self.source else []) + [self.button]
        row = hbox(parts)
        row.add_class("tt-action-row")
        self.widget = vbox([row, self.message])
        self.widget.add_class("tt-action")
        self._last: tuple[str, Any] | None = None
        self.relabel()

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
        try:
            self.method(*args)
        except RuleError as exc:
            self._last = ("error", exc.message)
        except (ValidationError, ValueError, TypeError, KeyError) as exc:
            self._last = ("error", {"en": str(exc), "ru": str(exc)})
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
            own_layout(self.message).display = "none"
            return
        kind, text = self._last
        cls = "tt-ok" if kind == "ok" else "tt-error"
        role = "status" if kind == "ok" else "alert"
        self.message.value = f'<div class="{cls}" role="{role}">{esc(tr(text, self.ctx.locale))}</div>'
        own_layout(self.message).display = None

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


def make_view(ctx: SheetContext, field) -> FieldView:
    """The view for ``field`` (by its kind, and by its trait when they disagree)."""
    trait = ctx.trait(field.name)
    if field.kind == "derived" or (trait is not None and trait.metadata.get("derived")):
        return DerivedView(ctx, field)
    if isinstance(trait, traitlets.Dict) or field.kind == "mapping":
        return MappingView(ctx, field)
    if field.kind == "list":
        return ListView(ctx, field)
    if field.kind == "tags":
        return TagsView(ctx, field)
    if field.kind == "resource":
        return ResourceView(ctx, field)
    return ScalarView(ctx, field)


__all__ = [
    "SheetContext",
    "FieldView",
    "ScalarView",
    "DerivedView",
    "ResourceView",
    "ListView",
    "TagsView",
    "MappingView",
    "ActionBar",
    "section_actions",
    "make_view",
    "item_from_row",
    "pretty",
    "TEXTS",
]
