"""The field views of the CharacterSheet for one value: the base :class:`FieldView` (binding,
problems, the GM's marks), numbers/texts/choices/flags (:class:`ScalarView`), derived values
(:class:`DerivedView`) and resources with their +/- buttons and pips (:class:`ResourceView`)."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import ipywidgets as widgets
import traitlets
from ipywidgets.widgets import widget_bool, widget_description, widget_string

from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.problems import Problem, ValidationError
from tabletop_widgets.core.system import term_of

from ._bind import apply_edit, bind
from .sheet_context import (
    SheetContext,
    bounds_text,
    button_widget,
    choice_options,
    esc,
    fixed_layout,
    hbox,
    html_widget,
    is_int_trait,
    optional_trait,
    set_display,
    parse_int,
    pretty,
    problems_html,
    shared_style,
    t,
    vbox,
)


# ------------------------------------------------------------------------------------------
# Base view
# ------------------------------------------------------------------------------------------
class FieldView:
    """One field of the sheet: ``widget`` to place, ``names`` of traits it shows."""

    wide = False

    def __init__(self, ctx: SheetContext, field, *, classes: Sequence[str] = (), label: bool = True):
        self.ctx = ctx
        self.field = field
        self.extra_classes = list(classes)  # where the view sits (a tree's root or leaf)
        self.names: set[str] = {field.name}
        self.problems: list[Problem] = []
        self.edit_error: ValidationError | None = None
        #: whether the view shows its label (a matrix's cells do not: the matrix's heads say it)
        self.label_shown = label
        # made with its text: the first message carries it (relabel() then changes nothing)
        self._label: widgets.HTML | None = self.make_label() if label else None
        self._problem: widgets.HTML | None = None  # built when there is first a problem to show
        self.build()
        frame = self.frame_classes()
        if not set(frame) <= set(self.widget._dom_classes):  # a view that did not use frame()
            self.widget._dom_classes = (*self.widget._dom_classes, *frame)  # one message
        self.relabel()
        self.refresh()

    # -- to override --------------------------------------------------------------------------
    def make_label(self) -> widgets.HTML:
        """The field's label (``.tt-field-label``), made before :meth:`build`."""
        return html_widget(self.label_html(), classes=["tt-field-label"])

    def build(self) -> None:
        raise NotImplementedError

    def refresh(self) -> None:
        """Show the character's current values (bindings do most of this themselves)."""

    def relabel(self) -> None:
        if self._label is not None:
            self._label.value = self.label_html()
        self.render_problems()
        self.render_access()

    @property
    def label(self) -> widgets.HTML:
        """The field's label (``.tt-field-label``); a view that does not show it makes it on
        first use (it is then kept in the sheet's language, though not shown)."""
        if self._label is None:
            self._label = self.make_label()
        return self._label

    # -- shared -----------------------------------------------------------------------------
    def frame_classes(self) -> list[str]:
        """The CSS classes of the view's outer widget (``tt-field``, by name and by kind)."""
        return ["tt-field", f"tt-field-{self.field.name}", f"tt-kind-{self.field.kind}", *self.extra_classes]

    def frame(self, children: Sequence[widgets.Widget], *more: str) -> widgets.VBox:
        """The view's outer widget, made with its classes (one message, not one per class)."""
        return vbox(children, classes=[*more, *self.frame_classes()])

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
        if self.field.kind not in ("input", "resource") or not is_int_trait(self.ctx.trait(self.field.name)):
            return ""
        return bounds_text(*self.input_range())

    @property
    def gm_field(self) -> bool:
        return bool(self.field.gm_only or self.field.gm_entered)

    @property
    def locked_by_play(self) -> bool:
        """A field only creation sets, on a character in play: only the GM changes it now."""
        return bool(self.field.creation_only and self.ctx.in_play)

    @property
    def awarded_in_play(self) -> bool:
        """An advancement resource (experience) on a character in play: it changes by the GM's
        awards and by advances (the Advancement part), not by a player's edit."""
        return self.ctx.in_play and self.field.name in self.ctx.awarded_traits

    def allowed(self) -> bool:
        """Whether this viewer may edit the field now: the GM's fields, and in play what only
        creation sets and what only awards and advances change, take ``can("edit_gm")``."""
        gm_only = self.gm_field or self.locked_by_play or self.awarded_in_play
        return self.ctx.can("edit_gm" if gm_only else "edit")

    def editors(self) -> list[widgets.Widget]:
        """The widgets a viewer edits the field with: disabled while they may not
        (:meth:`render_access`). A forged message still reaches the handlers, which check."""
        return []

    def locked(self) -> dict[str, Any]:
        """``{"disabled": True}`` to make an editor with while this viewer may not edit the
        field (it goes with the widget's first message), else nothing."""
        return {} if self.allowed() else {"disabled": True}

    def render_access(self) -> None:
        """The editors disabled for a viewer who may not edit the field now (the phase or the
        language changed: the views relabel)."""
        locked = not self.allowed()
        for widget in self.editors():
            if widget.disabled != locked:
                widget.disabled = locked

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
        for shown, kind in (
            (self.locked_by_play, "creation"),
            (self.awarded_in_play and not self.locked_by_play, "awards"),
        ):
            if shown:
                tip = t(f"{kind}_tip", self.loc, gm=term_of(self.ctx.system, "gm", self.loc))
                out += f' <span class="tt-badge tt-badge-{kind}" title="{esc(tip)}">{esc(t(f"{kind}_badge", self.loc))}</span>'
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
            self._problem = html_widget(layout=fixed_layout(display="none"), classes=["tt-field-problem"])
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
        text = problems_html(shown, self.loc, alert=self.edit_error is not None, home=self.field.name) if shown else ""
        self.place_problems(text)
        # the field's marks, changed together (one message)
        marks = {"tt-has-problem": bool(shown), "tt-has-error": any(p.severity == "error" for p in shown)}
        classes = [c for c in self.widget._dom_classes if c not in marks] + [c for c, on in marks.items() if on]
        if classes != list(self.widget._dom_classes):
            self.widget._dom_classes = classes

    def place_problems(self, text: str) -> None:
        """Show the problems' HTML ``text`` under the field (empty: none)."""
        if self._problem is None and text:  # the first problem: made shown, with its text (one message)
            self._problem = html_widget(text, classes=["tt-field-problem"])
            self.widget.children = (*self.widget.children, self._problem)
        elif self._problem is not None:
            set_display(self._problem, None if text else "none")
            self._problem.value = text

    def commit(self, value: Any, name: str | None = None) -> bool:
        """Apply an edit (not through a bound widget); shows a refusal inline. True if kept."""
        try:
            if not self.allowed():
                raise self.ctx.not_allowed(self.field.name)
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
def text_to_widget(value: Any) -> str:
    """A text trait's value as a text box shows it (None: empty)."""
    return value or ""


def make_control(ctx: SheetContext, field, trait, *, current: Any = None, **extra: Any):
    """A control for one scalar value, and its (to_widget, to_model) converters. ``extra``
    (``tooltip``, ``classes``) goes with the control's first message."""
    classes = extra.pop("classes", ())
    if classes:
        extra["_dom_classes"] = tuple(classes)

    def make(cls, **kwargs):
        return cls(**{**kwargs, **extra})  # what the caller gives wins (a layout, a value)

    kind = field.kind
    if kind == "flag":
        ctl = make(
            widgets.Checkbox,
            indent=False,
            layout=fixed_layout(width="auto"),
            style=shared_style(widget_bool.CheckboxStyle),
        )
        return ctl, None, None
    if kind == "longtext":
        ctl = make(
            widgets.Textarea,
            continuous_update=False,
            rows=3,
            layout=fixed_layout(width="100%"),
            style=shared_style(widget_string.TextStyle),
        )
        return ctl, text_to_widget, None
    if kind == "choice":
        return choice_control(make, ctx, field, current)
    if kind == "text" and not is_int_trait(trait):
        return line_control(make, widgets.Text), text_to_widget, None
    return number_control(make, ctx, trait, current)


def line_control(make: Callable[..., Any], cls: type, **kwargs: Any):
    """A one-line text control (``widgets.Text`` or ``widgets.Combobox``) that sends its value
    when the player is done typing, and grows to the row's width."""
    return make(
        cls,
        continuous_update=False,
        layout=fixed_layout(width="auto", flex="1 1 auto"),
        style=shared_style(widget_string.TextStyle),
        **kwargs,
    )


def choice_control(make: Callable[..., Any], ctx: SheetContext, field, current: Any):
    """A choice: several picks (``SelectMultiple``), a pick or the player's own words
    (``Combobox``, ``Field.free_text``), or one pick (``Dropdown``); and its converters."""
    if field.multiple:
        ctl = make(
            widgets.SelectMultiple,
            options=choice_options(ctx, field),
            rows=4,
            layout=fixed_layout(width="auto"),
            style=shared_style(widget_description.DescriptionStyle),
        )
        return ctl, (lambda v: tuple(v or ())), (lambda v: list(v))
    if field.free_text:
        options = [label for label, _ in choice_options(ctx, field)]
        return line_control(make, widgets.Combobox, options=options, ensure_option=False), text_to_widget, None
    ctl = make(
        widgets.Dropdown,
        options=choice_options(ctx, field, current),
        layout=fixed_layout(width="auto", flex="1 1 auto"),
        style=shared_style(widget_description.DescriptionStyle),
    )
    return ctl, None, None


def number_control(make: Callable[..., Any], ctx: SheetContext, trait, current: Any):
    """A number: a float box, a whole number box, or, where the value may be empty, a text box
    that reads a whole number or nothing (in the sheet's language at edit time)."""
    number = dict(layout=fixed_layout(width="80px"), style=shared_style(widget_description.DescriptionStyle))
    if isinstance(trait, traitlets.Float):
        return make(widgets.FloatText, **number), None, None
    optional = optional_trait(trait) or current is None
    if not optional:
        return make(widgets.IntText, **number), None, None
    ctl = make(
        widgets.Text,
        continuous_update=False,
        placeholder="—",
        layout=number["layout"],
        style=shared_style(widget_string.TextStyle),
    )
    return ctl, (lambda v: "" if v is None else str(v)), (lambda s: parse_int(s, optional=True, locale=ctx.locale))


class ScalarView(FieldView):
    def editors(self) -> list[widgets.Widget]:
        return [self.control]

    def build(self) -> None:
        f = self.field
        trait = self.ctx.trait(f.name)
        current = getattr(self.ctx.character, f.name)
        extra: dict[str, Any] = {"classes": ["tt-control"], "tooltip": self.tip}
        extra.update(self.locked())  # read-only for this viewer: made so (one message)
        if f.dots:
            extra["layout"] = fixed_layout(width="56px")
        if (
            f.kind == "input"
            and isinstance(trait, traitlets.Int)
            and not optional_trait(trait)
            and type(current) is int
        ):
            extra["value"] = current  # the binding then finds it in place (no second message)
        self.control, to_w, to_m = make_control(self.ctx, f, trait, current=current, **extra)
        if f.choices_from:
            self.names.add(f.choices_from)  # new items in that list become options
        self.binding = self._bind(self.control, to_widget=to_w, to_model=to_m)
        # dots go at the end of the label's markup; a view without its label shows them alone
        self.dots = html_widget(self.dots_html(), classes=["tt-dots"]) if f.dots and not self.label_shown else None
        self.wide = f.kind == "longtext"
        label = [self._label] if self._label is not None else []
        parts = label + ([self.dots] if self.dots is not None else []) + [self.control]
        # the field's box is its row (label, control; the problems wrap under them): one box
        self.widget = (vbox if self.wide else hbox)(
            parts, classes=["tt-row-wide" if self.wide else "tt-row", *self.frame_classes()]
        )

    def dots_html(self) -> str:
        """The value as dots (``Field.dots``: the usual range; a number beyond it stays a number)."""
        dots = self.field.dots
        v = getattr(self.ctx.character, self.field.name)
        cap = dots if isinstance(dots, int) and not isinstance(dots, bool) else 5
        n = v if isinstance(v, int) and not isinstance(v, bool) else 0
        top = max(cap, min(n, 2 * cap))  # dots for the usual range; a number beyond is a number
        n = max(0, min(n, top))
        return f'<span class="tt-dots-inner" aria-hidden="true">{"●" * max(n, 0)}{"○" * max(top - n, 0)}</span>'

    def refresh(self) -> None:
        if self.field.choices_from and hasattr(self, "binding"):
            self.relabel()  # the options follow the character's list
        if self.field.kind == "input":
            self.control.tooltip = self.tip  # the range may follow other values (an NPC's cap)
        if self.dots is not None:
            self.dots.value = self.dots_html()
        elif self.field.dots and self._label is not None:
            self._label.value = self.label_html()

    def label_html(self) -> str:
        html = super().label_html()
        if self.field.dots and self.label_shown:  # the value as dots, at the label's right end
            html += f'<span class="tt-dots">{self.dots_html()}</span>'
        return html

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
    """A value the rules work out: ONE HTML widget whose markup holds the row (``.tt-row`` or
    ``.tt-row-wide``), the label (``.tt-field-label``), the value (``.tt-derived-value``) and its
    problems (``.tt-field-problem``): a change is one update of it. ``label`` and ``value`` are
    that widget."""

    _problems_html = ""

    def make_label(self) -> widgets.HTML | None:
        return None  # the label is part of the one widget (build)

    def build(self) -> None:
        budget = self.field.budget
        if isinstance(budget, str):
            self.names.add(budget)
        value = getattr(self.ctx.character, self.field.name, None)
        self.wide = (
            isinstance(value, (Mapping, list, tuple))
            and bool(value)
            and not (isinstance(value, Mapping) and set(value) <= {"en", "ru"})
        )
        # made with its label and value: the first message carries them (refresh() then changes nothing)
        self.widget = html_widget(self.row_html(), classes=["tt-derived", *self.frame_classes()])
        self._label = self.value = self.widget

    def row_html(self) -> str:
        """The widget's markup: the row with the label and the value, then the problems."""
        row = "tt-row-wide" if self.wide else "tt-row"
        problems = f'<div class="tt-field-problem">{self._problems_html}</div>' if self._problems_html else ""
        return (
            f'<div class="{row}"><div class="tt-field-label">{self.label_html()}</div>'
            f'<div class="tt-derived-value">{self.value_html()}</div></div>{problems}'
        )

    def refresh(self) -> None:
        self.widget.value = self.row_html()

    @property
    def problem(self) -> widgets.HTML:
        """The one widget: its markup holds the problems (``.tt-field-problem``)."""
        return self.widget

    def place_problems(self, text: str) -> None:
        self._problems_html = text
        if hasattr(self, "widget"):
            self.widget.value = self.row_html()

    def value_html(self) -> str:
        """The value as shown (with its budget and die label)."""
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
        return f'{die}<span class="tt-value" title="{esc(self.tip)}">{text}</span>'

    def relabel(self) -> None:
        self.render_problems()  # the label, the value and the problems: one update
        self.render_access()
        self.refresh()


# ------------------------------------------------------------------------------------------
# Resources: current / max with quick - and + buttons
# ------------------------------------------------------------------------------------------
class ResourceView(FieldView):
    def editors(self) -> list[widgets.Widget]:
        return [self.control, self.minus, self.plus]

    def build(self) -> None:
        f = self.field
        if f.max_trait:
            self.names.add(f.max_trait)
        trait = self.ctx.trait(f.name)
        locked = self.locked()  # read-only for this viewer: made so (one message)
        self.minus = button_widget(
            description="−", layout=fixed_layout(width="34px"), classes=["tt-res-minus"], **locked
        )
        self.plus = button_widget(description="+", layout=fixed_layout(width="34px"), classes=["tt-res-plus"], **locked)
        self.control, to_w, to_m = make_control(
            self.ctx,
            f.__class__(f.name, f.label, "input"),
            trait,
            current=getattr(self.ctx.character, f.name),
            layout=fixed_layout(width="64px"),
            classes=["tt-res-current"],
            **locked,
        )
        self.binding = self._bind(self.control, to_widget=to_w, to_model=to_m)
        self.max_html = html_widget(classes=["tt-res-max"])
        self.bar = html_widget(classes=["tt-res-bar"])
        self.minus.on_click(lambda _b: self.step(-1))
        self.plus.on_click(lambda _b: self.step(+1))
        label = [self._label] if self._label is not None else []
        # one box: the row (label, -, value, of max, +), then the bar and the problems wrap under it
        self.widget = hbox(
            [*label, self.minus, self.control, self.max_html, self.plus, self.bar],
            classes=["tt-row", "tt-res-row", "tt-resource", *self.frame_classes()],
        )

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
        ) + self._over_html(cur, mx)
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

    def _over_html(self, cur: Any, mx: Any) -> str:
        """The "+1 over" after the maximum of a resource the rules let exceed it, when it does."""
        if not self.field.over_max or not isinstance(cur, int) or not isinstance(mx, int) or cur <= mx:
            return ""
        tip = esc(t("over_max_tip", self.loc, label=self.text, n=cur - mx))
        return f' <span class="tt-res-over" title="{tip}">{esc(t("over_max", self.loc, n=cur - mx))}</span>'

    def relabel(self) -> None:
        self.control.tooltip = self.tip
        self.minus.tooltip = t("minus_tip", self.loc, label=self.text)
        self.plus.tooltip = t("plus_tip", self.loc, label=self.text)
        super().relabel()
        self.refresh()  # the bar's accessible label is in the language too
