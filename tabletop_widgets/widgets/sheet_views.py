"""The field views of the CharacterSheet for one value: the base :class:`FieldView` (binding,
problems, the GM's marks), numbers/texts/choices/flags (:class:`ScalarView`), derived values
(:class:`DerivedView`) and resources with their +/- buttons and pips (:class:`ResourceView`)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import ipywidgets as widgets
import traitlets

from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.problems import Problem, ValidationError
from tabletop_widgets.core.system import term_of

from ._bind import apply_edit, bind
from .sheet_context import (
    TEXTS,
    SheetContext,
    bounds_text,
    button_widget,
    choice_options,
    esc,
    hbox,
    html_widget,
    is_int_trait,
    optional_trait,
    own_layout,
    parse_int,
    pretty,
    problems_html,
    t,
    vbox,
)


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

    def allowed(self) -> bool:
        return self.ctx.can("edit_gm" if self.gm_field or self.locked_by_play else "edit")

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
        if self.locked_by_play:
            tip = t("creation_tip", self.loc, gm=term_of(self.ctx.system, "gm", self.loc))
            out += f' <span class="tt-badge tt-badge-creation" title="{esc(tip)}">{esc(t("creation_badge", self.loc))}</span>'
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
    if kind == "text" and not is_int_trait(trait):
        return (
            widgets.Text(continuous_update=False, layout=widgets.Layout(width="auto", flex="1 1 auto")),
            (lambda v: v or ""),
            None,
        )
    # numbers
    optional = optional_trait(trait) or current is None
    if isinstance(trait, traitlets.Float):
        return widgets.FloatText(layout=widgets.Layout(width="80px")), None, None
    if optional:
        ctl = widgets.Text(continuous_update=False, placeholder="—", layout=widgets.Layout(width="80px"))
        return ctl, (lambda v: "" if v is None else str(v)), (lambda s: parse_int(s, optional=True, locale=loc()))
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
