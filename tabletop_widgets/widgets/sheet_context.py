"""What the CharacterSheet's field views share: their texts, the :class:`SheetContext` (the
character, its system, the language, the role check, cached lookups), the choices and values as
a reader sees them, and the small widget helpers (shared layouts, boxes, closing a tree)."""

from __future__ import annotations

import html
from typing import Any, Callable, Mapping, Sequence

import ipywidgets as widgets
import traitlets

from tabletop_widgets.core.i18n import LOCALES, tr
from tabletop_widgets.core.problems import Problem, ValidationError

from .base import close_tree, text_lookup

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
    # a resource the rules let go past its maximum (Р.Э.Т.'s Luck): said, so "7 / 6" is no bug
    "over_max": {"en": "+{n} over", "ru": "+{n} сверх"},
    "over_max_tip": {
        "en": "{label} is {n} over its maximum, as the rules allow",
        "ru": "«{label}» на {n} выше максимума: правила это позволяют",
    },
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
    "refused_problems": {"en": "Not yet: fix these first.", "ru": "Пока нельзя: сначала исправьте это."},
    "creation_tip": {
        "en": "Set when the character is created; in play only the rules or the {gm} change it",
        "ru": "Задаётся при создании персонажа; в игре это меняют только правила или {gm}",
    },
    "creation_badge": {"en": "creation", "ru": "создание"},
    "awards_tip": {
        "en": "In play this changes only by the {gm}'s awards and by advances (the Advancement part)",
        "ru": "В игре это меняют только награды, которые выдаёт {gm}, и развитие (раздел «Развитие»)",
    },
    "awards_badge": {"en": "awards", "ru": "награды"},
}


t = text_lookup(TEXTS)


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def refusal_text(exc: BaseException) -> dict[str, str]:
    """A refusal in both languages: the rules' and the table's errors carry both (their
    ``message``); any other error says what it says in each."""
    message = getattr(exc, "message", None)
    if isinstance(message, Mapping) and message:
        return {loc: tr(message, loc) for loc in LOCALES}
    return {loc: str(exc) for loc in LOCALES}


# ------------------------------------------------------------------------------------------
# The context a view needs (given by the CharacterSheet)
# ------------------------------------------------------------------------------------------
class SheetContext:
    """What field views share: the character, its system, the language, the role check, and
    lookups of data tables and labels (cached)."""

    def __init__(
        self,
        character,
        system,
        *,
        locale: str = "en",
        can: Callable[[str], bool] | None = None,
        perform: Callable[[Any, list], Any] | None = None,
    ):
        self.character = character
        self.system = system
        self.locale = locale
        self._can = can or (lambda action: True)
        #: ``perform(action, args)`` runs a section's rules action somewhere else (a shared
        #: table records it as its event); None: the action's method runs on the character here
        self.perform = perform
        self._rows: dict[str, list[dict]] = {}
        self._labels: dict[str, Mapping[str, str]] = {}
        self._checks: dict[str, Any] | None = None
        self._awarded: frozenset[str] | None = None
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

    @property
    def in_play(self) -> bool:
        """Whether the character is in play (``phase``): fields only creation sets are then
        the GM's to change (``Field.creation_only``)."""
        return getattr(self.character, "phase", "creation") == "play"

    @property
    def awarded_traits(self) -> frozenset[str]:
        """The traits of the system's advancement resources (experience and the like): in play
        they change only by the GM's awards and by advances, as the shared table checks it."""
        if self._awarded is None:
            try:
                self._awarded = frozenset(r.trait for r in self.system.advancement_resources())
            except Exception:  # a system without the contract
                self._awarded = frozenset()
        return self._awarded

    def not_allowed(self, field: str | None) -> ValidationError:
        """The refusal of an edit this viewer may not make, next to ``field``."""
        return ValidationError([Problem("not_allowed", dict(TEXTS["not_allowed"]), field=field)])

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
    """One model of class ``cls`` (``HTMLStyle``, ``ButtonStyle``, ``DescriptionStyle``, ...) for
    all the sheet's widgets of that kind: the sheet never changes a style (only classes and
    layouts), and one shared model instead of one per widget keeps a notebook saved with widget
    state small. A closed one (``Widget.close_all()``) is replaced."""
    style = _SHARED_STYLES.get(cls)
    if style is None or getattr(style, "comm", None) is None:
        style = _SHARED_STYLES[cls] = cls()
    return style


_LAYOUT_TRAITS = [n for n in widgets.Layout.class_trait_names(sync=True) if not n.startswith("_")]


class SharedLayout(widgets.Layout):
    """A ``Layout`` that many of the sheet's widgets share: the empty one (:func:`shared_layout`)
    that HTML pieces, boxes and buttons get unless given their own, and one per fixed size
    (:func:`fixed_layout`, e.g. the 80 px of every number box). Its values are set when it is
    made and never change after, so a widget that needs to hide or size itself must get its own
    Layout (:func:`own_layout`): a change here would move every widget sharing it."""

    def __init__(self, **values: Any):
        self._tt_frozen = False
        super().__init__(**values)
        self._tt_frozen = True

    @traitlets.validate(*_LAYOUT_TRAITS)
    def _refuse(self, proposal):
        if not getattr(self, "_tt_frozen", False):
            return proposal["value"]
        raise traitlets.TraitError(
            f"the sheet's shared layout cannot change ({proposal['trait'].name}); "
            "give this widget its own widgets.Layout()"
        )


_FIXED_LAYOUTS: dict[tuple, SharedLayout] = {}


def shared_layout() -> SharedLayout:
    return fixed_layout()


def fixed_layout(**values: str) -> SharedLayout:
    """The one shared, unchangeable layout with these values (``fixed_layout(width="80px")``):
    one model for every widget of that size instead of one each. A closed one is replaced."""
    key = tuple(sorted(values.items()))
    layout = _FIXED_LAYOUTS.get(key)
    if layout is None or getattr(layout, "comm", None) is None:
        layout = _FIXED_LAYOUTS[key] = SharedLayout(**values)
    return layout


def own_layout(widget: widgets.DOMWidget) -> widgets.Layout:
    """``widget.layout``, first made the widget's own (a copy of the shared one's values) if it
    is a shared one: call it before hiding or sizing a widget."""
    shared = widget.layout
    if isinstance(shared, SharedLayout):
        values = {n: getattr(shared, n) for n in _LAYOUT_TRAITS if getattr(shared, n) is not None}
        widget.layout = widgets.Layout(**values)
    return widget.layout


def set_display(widget: widgets.DOMWidget, display: str | None) -> None:
    """Show (``None``) or hide (``"none"``) ``widget``. A widget on a shared layout moves to the
    shared layout with the same values and this ``display`` (one update, and no new model once
    that layout exists); a widget with a layout of its own changes it."""
    layout = widget.layout
    if isinstance(layout, SharedLayout):
        values = {n: getattr(layout, n) for n in _LAYOUT_TRAITS if getattr(layout, n) is not None}
        values.pop("display", None)
        if display is not None:
            values["display"] = display
        target = fixed_layout(**values)
        if target is not layout:
            widget.layout = target
    elif layout.display != display:
        layout.display = display


def _with_classes(kwargs: dict, classes: Sequence[str]) -> dict:
    """``kwargs`` for a widget made with its CSS classes: they go with the widget's first
    message instead of one update per ``add_class`` (a sheet makes hundreds of widgets)."""
    if classes:
        kwargs["_dom_classes"] = tuple(classes)
    return kwargs


def hbox(children: Sequence[widgets.Widget] = (), *, classes: Sequence[str] = (), **kwargs: Any) -> widgets.HBox:
    """``widgets.HBox`` with the shared layout unless ``layout`` is given, and its ``classes``."""
    kwargs.setdefault("layout", shared_layout())
    return widgets.HBox(list(children), **_with_classes(kwargs, classes))


def vbox(children: Sequence[widgets.Widget] = (), *, classes: Sequence[str] = (), **kwargs: Any) -> widgets.VBox:
    """``widgets.VBox`` with the shared layout unless ``layout`` is given, and its ``classes``."""
    kwargs.setdefault("layout", shared_layout())
    return widgets.VBox(list(children), **_with_classes(kwargs, classes))


def html_widget(value: str = "", *, classes: Sequence[str] = (), **kwargs: Any) -> widgets.HTML:
    """``widgets.HTML`` with the shared style and, unless ``layout`` is given, the shared
    (unchangeable) layout, and its ``classes``."""
    kwargs.setdefault("style", shared_style(widgets.widget_string.HTMLStyle))
    kwargs.setdefault("layout", shared_layout())
    return widgets.HTML(value, **_with_classes(kwargs, classes))


def button_widget(*, classes: Sequence[str] = (), **kwargs: Any) -> widgets.Button:
    """``widgets.Button`` with the shared style and, unless ``layout`` is given, the shared
    (unchangeable) layout, and its ``classes``."""
    kwargs.setdefault("style", shared_style(widgets.ButtonStyle))
    kwargs.setdefault("layout", shared_layout())
    return widgets.Button(**_with_classes(kwargs, classes))


def replace_children(box, children: list) -> None:
    """Give ``box`` new children and close the old ones (and everything inside them), so that
    re-rendered rows do not pile up as live widgets in the kernel."""
    old = list(box.children)
    box.children = children
    keep = {id(c) for c in children}
    for widget in old:
        if id(widget) not in keep:
            close_tree(widget)


def insert_after(box, widget: widgets.Widget, after: widgets.Widget) -> None:
    """Put ``widget`` among ``box``'s children right after ``after`` (at the end when ``after``
    is not there)."""
    children = list(box.children)
    children.insert(children.index(after) + 1 if after in children else len(children), widget)
    box.children = children


def bounds_text(lo: int | None, hi: int | None) -> str:
    """``0–8``, ``≥ 1``, ``≤ 0`` (empty when unbounded)."""
    if lo is not None and hi is not None:
        return f"{lo}–{hi}".replace("-", "−") if lo < 0 else f"{lo}–{hi}"
    if lo is not None:
        return f"≥ {lo}"
    if hi is not None:
        return f"≤ {hi}"
    return ""


def is_int_trait(trait) -> bool:
    return isinstance(trait, (traitlets.Int, traitlets.CInt)) and not isinstance(trait, traitlets.Bool)


def optional_trait(trait) -> bool:
    return bool(getattr(trait, "allow_none", False))


def parse_int(text: str, *, optional: bool, locale: str) -> int | None:
    text = (text or "").strip().replace("−", "-")
    if text == "":
        if optional:
            return None
        raise ValueError(t("whole_number_req", locale))
    try:
        return int(text)
    except ValueError:
        raise ValueError(t("whole_number" if optional else "whole_number_req", locale)) from None
