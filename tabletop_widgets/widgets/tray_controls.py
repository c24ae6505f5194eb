"""The dice tray's controls: its system, which checks share an option control, the controls'
widgets, the check groups and the check cards. An option the same (name, kind, label, choices)
in two or more checks gets ONE shared control; an option only one check takes is drawn inside
that check's card. :mod:`.tray` wires what is made here to the tray (observers, chances)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any, Callable, Mapping

import ipywidgets as widgets

from tabletop_widgets.core.i18n import LOCALES, tr
from tabletop_widgets.core.system import CheckSpec, GameSystem, OptionSpec
from tabletop_widgets.core.wording import join_en, join_ru

from .sheet_context import button_widget, fixed_layout, hbox, html_widget, shared_layout, vbox
from .tray_text import chance_pill, css_id, text


class OptionControl:
    """One option control: the spec it shows, the checks it feeds, its widget and value."""

    def __init__(self, key: tuple, spec: OptionSpec, checks: list[str], shared: bool):
        self.key = key
        self.spec = spec
        self.name = spec.name
        self.checks = checks
        self.shared = shared
        self.value: Any = spec.default
        self.error: BaseException | None = None
        self.widget: widgets.Widget | None = None
        self.nullable_int = spec.kind == "int" and spec.default is None and not spec.choices

    def refuse(self) -> None:
        """Mark the control's last value as not a number (the error says so in each language)."""
        self.error = ValueError(text("not_an_integer", "en", label=tr(self.spec.label, "en")))
        self.error.bilingual = {loc: text("not_an_integer", loc, label=tr(self.spec.label, loc)) for loc in LOCALES}
        if self.widget is not None:
            self.widget.add_class("tt-option-invalid")

    def accept(self, value: Any) -> None:
        """Take ``value`` (clamped to a number box's bounds); the error, if any, goes."""
        if isinstance(self.widget, widgets.BoundedIntText):
            value = max(self.widget.min, min(self.widget.max, int(value)))
        self.error = None
        if self.widget is not None:
            self.widget.remove_class("tt-option-invalid")
        self.value = value

    def coerce(self, raw: Any) -> Any:
        """The option value for ``raw`` (a widget value); ValueError when it is not one."""
        if self.nullable_int:
            raw_text = str(raw if raw is not None else "").strip()
            if raw_text in ("", "—", "-"):
                return None
            return int(raw_text)  # ValueError on junk
        return raw


def label_style(widget_class: type) -> widgets.Widget:
    """The one style of ``widget_class``'s kind (a DescriptionStyle, a TextStyle...) whose
    description is as wide as its words (``description_width="initial"``), shared by every
    control that wants it instead of one model each. Never changed after it is made."""
    klass = widget_class.class_traits()["style"].klass
    style = _LABEL_STYLES.get(klass)
    if style is None or getattr(style, "comm", None) is None:
        style = _LABEL_STYLES[klass] = klass(description_width="initial")
    return style


_LABEL_STYLES: dict[type, widgets.Widget] = {}


def option_key(o: OptionSpec) -> tuple:
    """What makes two checks' options one control: name, kind, English label, choices."""
    choices = tuple(repr(v) for v, _ in o.choices) if o.kind == "choice" else ()
    return (o.name, o.kind, tr(o.label, "en"), choices)


def plan_controls(
    checks: list[CheckSpec],
    *,
    show_gm: bool,
    old_values: Mapping[tuple, Any],
    start_value: Callable[[OptionSpec], Any] | None,
) -> dict[tuple, OptionControl]:
    """One control per option key of ``checks`` (GM-only options only with ``show_gm``; a choice
    with a single value needs none), keeping ``old_values`` and starting the others at the
    system's usual value (``start_value``) or the spec's default."""
    users: dict[tuple, list[str]] = {}
    specs: dict[tuple, list[OptionSpec]] = {}
    for c in checks:
        for o in c.options:
            if o.gm_only and not show_gm:
                continue
            if o.kind == "choice" and len(o.choices) <= 1:
                continue  # a single choice is no choice
            k = option_key(o)
            users.setdefault(k, []).append(c.id)
            specs.setdefault(k, []).append(o)
    controls: dict[tuple, OptionControl] = {}
    for k, ids in users.items():
        # the most common spec of the group stands for it (defaults may differ: None vs 0)
        top = Counter(repr(s) for s in specs[k]).most_common(1)[0][0]
        spec = next(s for s in specs[k] if repr(s) == top)
        ctrl = OptionControl(k, spec, ids, shared=len(ids) >= 2)
        if k in old_values:
            ctrl.value = old_values[k]
        elif start_value is not None:  # the system's usual value (RET: Medium)
            ctrl.value = start_value(spec)
        controls[k] = ctrl
    return controls


def checks_shape(checks: list[CheckSpec]) -> list[tuple]:
    """What the tray's widgets are made from: the checks' ids and groups, and their options'
    keys, GM flags and bounds. Checks of the same shape differ only in words, defaults and odds,
    which the tray redraws without making a widget anew."""
    return [
        (
            c.id,
            tr(c.group, "en"),
            tuple((option_key(o), o.gm_only, o.min, o.max, tuple(v for v, _ in o.choices)) for o in c.options),
        )
        for c in checks
    ]


def situation_controls(controls: list[OptionControl], checks: list[CheckSpec]) -> tuple[list, list]:
    """The shared controls of the Situation bar, in the order the checks declare them
    (difficulty first, as a rule), split into the main ones and the rare ones (used by fewer
    than a quarter of the checks), which fold away under "More options"."""
    shared = [c for c in controls if c.shared]
    n = max(1, len(checks))
    order: dict[str, int] = {}
    for c in checks:
        for i, o in enumerate(c.options):
            order[o.name] = min(order.get(o.name, i), i)
    shared.sort(key=lambda c: order.get(c.name, 99))
    main = [c for c in shared if len(c.checks) * 4 >= n]
    rare = [c for c in shared if len(c.checks) * 4 < n]
    return main, rare


def group_checks(checks: list[CheckSpec]) -> list[tuple[Mapping[str, str], list[CheckSpec]]]:
    """The checks by their group (``CheckSpec.group``), groups in first-seen order."""
    groups: dict[str, tuple[Mapping[str, str], list[CheckSpec]]] = {}
    for c in checks:
        groups.setdefault(tr(c.group, "en"), (c.group, []))[1].append(c)
    return list(groups.values())


def int_choice_options(ctrl: OptionControl, locale: str) -> list[tuple[str, Any]]:
    """A preset number's dropdown options (with "—" for none, and the current odd value)."""
    o = ctrl.spec
    opts: list[tuple[str, Any]] = []
    if o.default is None:
        opts.append((text("none", locale), None))
    opts += [(tr(lbl, locale), v) for v, lbl in o.choices]
    if ctrl.value not in [v for _, v in opts]:
        opts.append((str(ctrl.value), ctrl.value))
    return opts


def option_widget(ctrl: OptionControl, locale: str, labels: Mapping[str, Any] | None = None) -> widgets.Widget:
    """The widget for ``ctrl`` at its value (which it may settle: a choice not offered becomes the
    first, a number is clamped), made with ``labels`` (:func:`control_labels`: no update after)."""
    o = ctrl.spec
    classes = ("tt-option", f"tt-option-{css_id(o.name)}")  # made with the widget: no later message
    # one frozen layout and one style for all of them: a control never resizes or restyles itself
    shared = {"layout": shared_layout(), "_dom_classes": classes}
    labels = dict(labels or {})
    placeholder = labels.pop("placeholder", None)
    shared.update(labels)
    if placeholder is not None and (ctrl.nullable_int or o.kind == "text"):
        shared["placeholder"] = placeholder
    if o.kind == "bool":
        w = widgets.Checkbox(value=bool(ctrl.value), indent=False, style=label_style(widgets.Checkbox), **shared)
    elif o.kind == "choice":
        values = [v for v, _ in o.choices]
        value = ctrl.value if ctrl.value in values else values[0]
        options = [(tr(lbl, locale), v) for v, lbl in o.choices]
        w = widgets.Dropdown(options=options, value=value, style=label_style(widgets.Dropdown), **shared)
        ctrl.value = w.value
    elif o.kind == "int" and o.choices:
        w = widgets.Dropdown(
            options=int_choice_options(ctrl, locale), value=ctrl.value, style=label_style(widgets.Dropdown), **shared
        )
    elif ctrl.nullable_int or o.kind == "text":
        value = "" if ctrl.value is None else str(ctrl.value)
        w = widgets.Text(value=value, style=label_style(widgets.Text), continuous_update=False, **shared)
    else:  # int
        lo = o.min if o.min is not None else -(10**6)
        hi = o.max if o.max is not None else 10**6
        w = widgets.BoundedIntText(
            value=int(ctrl.value or 0), min=lo, max=hi, style=label_style(widgets.BoundedIntText), **shared
        )
        ctrl.value = w.value
    return w


def control_labels(ctrl: OptionControl, locale: str, check_labels: list[str], all_checks: int) -> dict[str, Any]:
    """``ctrl``'s words in ``locale`` as widget traits (``description``, ``tooltip``, and a text
    box's ``placeholder``); a shared control that not every check uses names the checks it
    feeds (``check_labels``, in ``ctrl.checks`` order)."""
    o = ctrl.spec
    tip = tr(o.help, locale) if o.help else tr(o.label, locale)
    if ctrl.shared and len(ctrl.checks) < all_checks:
        names = check_labels[:4]
        if len(ctrl.checks) > 4:
            names.append(text("more", locale, n=len(ctrl.checks) - 4))
        # «Бег, Спорт и ещё 235»: no comma before the last «и»
        joined = join_ru(names) if locale == "ru" else join_en(names)
        tip += "\n" + text("applies_to", locale, checks=joined)
    traits: dict[str, Any] = {"description": tr(o.label, locale), "tooltip": tip}
    if ctrl.nullable_int or o.kind == "text":  # the controls drawn as text boxes
        traits["placeholder"] = text("none", locale) if ctrl.nullable_int else ""
    return traits


def label_control(ctrl: OptionControl, locale: str, check_labels: list[str], all_checks: int) -> None:
    """Write ``ctrl``'s label and tooltip in ``locale`` (:func:`control_labels`) on its widget."""
    for name, value in control_labels(ctrl, locale, check_labels, all_checks).items():
        if name != "placeholder" or isinstance(ctrl.widget, widgets.Text):
            setattr(ctrl.widget, name, value)


def relabel_dropdown(ctrl: OptionControl, locale: str) -> None:
    """A dropdown's choices in ``locale``, keeping its value."""
    w = ctrl.widget
    value = w.value
    if ctrl.spec.kind == "int":
        w.options = int_choice_options(ctrl, locale)
    else:
        w.options = [(tr(lbl, locale), v) for v, lbl in ctrl.spec.choices]
    w.value = value


def show_value(ctrl: OptionControl, locale: str) -> None:
    """Put ``ctrl.value`` back into its widget (if it has one)."""
    w = ctrl.widget
    if w is None:
        return
    if isinstance(w, widgets.Text):
        w.value = "" if ctrl.value is None else str(ctrl.value)
    elif isinstance(w, widgets.Dropdown) and ctrl.spec.kind == "int":
        w.options = int_choice_options(ctrl, locale)
        w.value = ctrl.value
    else:
        w.value = ctrl.value


def option_rows(ctrls: list[OptionControl]) -> list[widgets.Widget]:
    """Numbers and choices in an aligned grid; the yes/no flags in a row of their own."""
    fields = [c.widget for c in ctrls if c.spec.kind != "bool"]
    flags = [c.widget for c in ctrls if c.spec.kind == "bool"]
    rows: list[widgets.Widget] = []
    if fields:
        grid = widgets.GridBox(
            fields, layout=grid_layout(200, "6px 14px", "flex-end"), _dom_classes=("tt-option-grid",)
        )
        rows.append(grid)
    if flags:
        row = hbox(flags, classes=("tt-option-flags",))
        rows.append(row)
    return rows


def cached_chance(
    cache: dict[tuple, tuple[Fraction | None, Any]], system: GameSystem, character: Any, check_id: str, options: dict
) -> tuple[Fraction | None, Any]:
    """``(the exact chance of check_id with options, None)``, or ``(None, why there is none)``;
    remembered in ``cache`` by check and options (clear it when the character changes)."""
    key = (check_id, tuple(sorted((k, repr(v)) for k, v in options.items())))
    hit = cache.get(key)
    if hit is None:
        try:
            hit = (Fraction(system.chance(character, check_id, **options)), None)
        except (ValueError, KeyError, TypeError, ArithmeticError) as exc:
            hit = (None, exc)
        cache[key] = hit
    return hit


def check_card(spec: CheckSpec, own: list[widgets.Widget], on_click: Callable[[], None]) -> dict[str, Any]:
    """A check's card: its button, its chance pill and the controls of its own options
    (``own``); ``{"box", "button", "pill"}``."""
    button = button_widget(layout=fixed_layout(width="auto"), classes=("tt-check-button",))
    button.on_click(lambda _b: on_click())
    pill = html_widget(classes=("tt-chance",))
    row = hbox([button, pill], classes=("tt-check-row",))
    children = [row]
    if own:
        opts = hbox(own, classes=("tt-check-options",))
        children.append(opts)
    box = vbox(children, classes=("tt-check", f"tt-check-{css_id(spec.id)}"))
    return {"box": box, "button": button, "pill": pill}


def render_card(card: Mapping[str, Any], spec: CheckSpec, p: Fraction | None, err: Any, loc: str) -> None:
    """Write a card's label, tooltip and chance ``p`` (``err``: why there is none) in ``loc``."""
    label = tr(spec.label, loc)
    button: widgets.Button = card["button"]
    button.description = label
    tip = text("check_tip", loc, label=label)
    if spec.notation:
        tip += f" ({spec.notation_text(loc)})"
    if spec.help:
        tip += "\n" + tr(spec.help, loc)
    pill, why, unavailable = chance_pill(p, err, loc)
    card["pill"].value = pill
    button.tooltip = tip + "\n" + why
    if unavailable:
        card["box"].add_class("tt-check-unavailable")
    else:
        card["box"].remove_class("tt-check-unavailable")


def resolve_system(system: GameSystem | str | None, character: Any) -> GameSystem | None:
    """The tray's rules: ``system`` (a GameSystem or its slug), else the character's own."""
    from tabletop_widgets.core.registry import get_system

    if isinstance(system, str):
        return get_system(system)
    if system is not None:
        return system
    if character is None:
        return None
    slug = getattr(character, "SYSTEM", "") or getattr(type(character), "SYSTEM", "")
    if not slug:
        raise ValueError("DiceTray: pass system= for a character that does not name its system")
    return get_system(slug)


def grid_layout(min_px: int, gap: str, align: str = "flex-start") -> widgets.Layout:
    """The one frozen layout of a grid of columns at least ``min_px`` wide (shared by every
    grid of that shape)."""
    return fixed_layout(
        grid_template_columns=f"repeat(auto-fill, minmax({min_px}px, 1fr))",
        grid_gap=gap,
        width="100%",
        align_items=align,
    )


__all__ = [
    "OptionControl",
    "label_style",
    "option_key",
    "plan_controls",
    "checks_shape",
    "situation_controls",
    "group_checks",
    "int_choice_options",
    "option_widget",
    "control_labels",
    "label_control",
    "relabel_dropdown",
    "show_value",
    "option_rows",
    "grid_layout",
    "cached_chance",
    "check_card",
    "render_card",
    "resolve_system",
]
