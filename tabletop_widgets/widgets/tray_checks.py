"""The checks half of a dice tray: its option controls, its check cards and their odds.

:class:`TrayChecks` is the base of :class:`~tabletop_widgets.widgets.tray.DiceTray`: it holds
the checks the system offers for the character (``system.checks``), the option controls that
feed them (shared ones in the "Situation" bar, rare ones folded under "More options"), the
check groups (folded, their cards made when first opened) and each card's exact chance. The
controls and cards themselves are made in :mod:`.tray_controls`, their words in
:mod:`.tray_text`. The tray adds the rolls, the result and the header; it calls
:meth:`TrayChecks.load_checks`, :meth:`TrayChecks.refresh_checks` and the rest through public
names, and a card's click rolls with its ``roll_check``.

What a subclass provides: the traits and attributes ``locale``, ``system``, ``character``,
``can``, ``who``, ``title``, ``situation``, ``checks_box``, ``options_error``, ``accordion``,
``more_options``, ``situation_title``, ``checks_title`` and the method ``roll_check``.
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Any, Mapping

import ipywidgets as widgets

from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.system import CheckSpec

from .base import close_tree
from .sheet_context import html_widget, shared_layout, vbox
from .tray_controls import (
    OptionControl,
    cached_chance,
    check_card,
    checks_shape,
    grid_layout,
    group_checks,
    control_labels,
    option_rows,
    option_widget,
    plan_controls,
    relabel_dropdown,
    render_card,
    show_value,
    situation_controls,
)
from .tray_text import options_error_html, percent_text, title_html
from .tray_text import text as _t


class TrayChecks(widgets.VBox):
    """A tray's checks, options and odds (the base of ``DiceTray``; see the module)."""

    def __init__(self, children=(), **kwargs: Any):
        self._chance_cache: dict[tuple, tuple[Fraction | None, Any]] = {}
        self._checks: list[CheckSpec] = []
        self._controls: dict[tuple, OptionControl] = {}
        self._control_of: dict[tuple[str, str], OptionControl] = {}
        self._cards: dict[str, dict[str, Any]] = {}
        self._group_of: dict[str, int] = {}
        self._groups: list[tuple[Mapping[str, str], list[CheckSpec]]] = []
        self._built_groups: set[int] = set()
        self._rare_controls: list[OptionControl] = []
        self._syncing = False
        self.last_check_id: str | None = None  # the check rolled last (its card is marked)
        super().__init__(children, **kwargs)

    @property
    def checks(self) -> list[CheckSpec]:
        """The checks the tray offers (``system.checks(character)``), in the system's order."""
        return list(self._checks)

    def option_controls(self, check_id: str | None = None) -> list[OptionControl]:
        """Every option control (or those feeding ``check_id``)."""
        if check_id is None:
            return list(self._controls.values())
        return [c for (cid, _), c in self._control_of.items() if cid == check_id]

    def options_for(self, check_id: str) -> dict[str, Any]:
        """The options ``check_id`` is rolled (and its chance computed) with right now."""
        spec = self.check_spec(check_id)
        out = {}
        for o in spec.options:
            ctrl = self._control_of.get((check_id, o.name))
            out[o.name] = ctrl.value if ctrl is not None else o.default
        return out

    def set_option(self, name: str, value: Any, check_id: str | None = None) -> None:
        """Set option ``name`` (on every control of that name, or the one feeding ``check_id``)
        as the player would; a bad value shows the error and changes nothing."""
        if check_id is not None:
            ctrls = [self._control_of[(check_id, name)]] if (check_id, name) in self._control_of else []
        else:
            ctrls = [c for c in self._controls.values() if c.name == name]
        if not ctrls:
            raise KeyError(f"no control for option {name!r}")
        for ctrl in ctrls:
            self._set_control(ctrl, value)

    def chance(self, check_id: str) -> Fraction | None:
        """The exact chance of success shown for ``check_id`` (``None`` when there is none)."""
        return self._chance(check_id)[0]

    def chance_text(self, check_id: str) -> str:
        p = self.chance(check_id)
        return _t("none", self.locale) if p is None else percent_text(p)

    def card(self, check_id: str) -> widgets.Widget:
        """The control of ``check_id`` (building its group if it was not drawn yet)."""
        self.check_spec(check_id)
        self._ensure_group(self._group_of[check_id])
        return self._cards[check_id]["box"]

    def check_button(self, check_id: str) -> widgets.Button:
        self.card(check_id)
        return self._cards[check_id]["button"]

    def open_group(self, index: int) -> None:
        """Open the check group ``index`` (as a click on its header does), building its cards."""
        if self.accordion is None or not 0 <= index < len(self._groups):
            raise IndexError(f"no check group {index}")
        self.accordion.selected_index = index
        self._ensure_group(index)

    def open_more_options(self) -> None:
        """Open the folded "More options" (as a click on its header does), building its controls."""
        if self.more_options is None:
            raise LookupError("this tray has no folded options")
        self.more_options.selected_index = 0
        self._ensure_more_options()

    def _on_control(self, ctrl: OptionControl, change) -> None:
        if self._syncing:
            return
        self._set_control(ctrl, change["new"], from_widget=True)

    def _on_accordion(self, change) -> None:
        if change["new"] is not None:
            self._ensure_group(change["new"])

    def _on_more_options(self, change) -> None:
        if change["new"] is not None:
            self._ensure_more_options()

    def check_spec(self, check_id: str) -> CheckSpec:
        for c in self._checks:
            if c.id == check_id:
                return c
        raise KeyError(_t("unknown_check", "en", id=check_id))

    def load_checks(self) -> None:
        """(Re)build the option controls and the check groups from ``system.checks``."""
        old_values = {k: c.value for k, c in self._controls.items()}
        # the previous controls (if any) go away for good: close their front-end models
        for child in list(self.situation.children) + list(self.checks_box.children):
            if child is not self.options_error:
                close_tree(child)
        self._checks = list(self.system.checks(self.character))
        self._chance_cache.clear()
        self._controls = plan_controls(
            self._checks,
            show_gm=bool(self.can("gm_options")),
            old_values=old_values,
            start_value=getattr(self.system, "start_value", None),
        )
        self._control_of = {(cid, c.spec.name): c for c in self._controls.values() for cid in c.checks}
        self._groups = group_checks(self._checks)
        self._group_of = {c.id: i for i, (_, cs) in enumerate(self._groups) for c in cs}
        self._cards = {}
        self._built_groups = set()
        self._build_situation()
        self._build_checks()

    def _build_situation(self) -> None:
        main, rare = situation_controls(list(self._controls.values()), self._checks)
        for ctrl in main:
            ctrl.widget = self._make_control(ctrl)
        self.situation_title = html_widget(classes=("tt-section-title",))
        children = [self.situation_title, *option_rows(main)]
        self.more_options = None
        self._rare_controls = rare
        if rare:
            # folded: its controls are made when it is first opened (their values live in the
            # OptionControls meanwhile, so the chances follow them either way)
            self.more_options = widgets.Accordion(
                [vbox()], selected_index=None, layout=shared_layout(), _dom_classes=("tt-more-options",)
            )
            self.more_options.observe(self._on_more_options, names="selected_index")
            children.append(self.more_options)
        children.append(self.options_error)
        self.situation.children = children
        self.situation.layout.display = None if main or rare else "none"

    def _build_checks(self) -> None:
        self.checks_title = html_widget(classes=("tt-tray-checks-title",))
        placeholders = [vbox() for _ in self._groups]
        self.accordion = widgets.Accordion(placeholders, layout=shared_layout(), _dom_classes=("tt-check-groups",))
        self.accordion.observe(self._on_accordion, names="selected_index")
        self.checks_box.children = [self.checks_title, self.accordion]
        self.checks_box.layout.display = None if self._groups else "none"
        if len(self._groups) == 1:  # one group: nothing to choose, it is open (more start folded)
            self.accordion.selected_index = 0
            self._ensure_group(0)

    def _ensure_more_options(self) -> None:
        box = self.more_options.children[0] if self.more_options is not None else None
        if box is None or box.children:
            return
        for ctrl in self._rare_controls:
            ctrl.widget = self._make_control(ctrl)
        box.children = option_rows(self._rare_controls)

    def _ensure_group(self, index: int) -> None:
        if index in self._built_groups or self.accordion is None:
            return
        self._built_groups.add(index)
        _, checks = self._groups[index]
        cards = [self._make_card(c) for c in checks]
        grid = widgets.GridBox(cards, layout=grid_layout(250, "8px 12px"), _dom_classes=("tt-check-grid",))
        self.accordion.children[index].children = [grid]

    def _make_card(self, spec: CheckSpec) -> widgets.Widget:
        own = [self._make_control(c) for c in self.option_controls(spec.id) if not c.shared]
        card = self._cards[spec.id] = check_card(spec, own, lambda cid=spec.id: self.roll_check(cid))
        if spec.id == self.last_check_id:
            card["box"].add_class("tt-last-rolled")
        self._render_card(spec)
        return card["box"]

    def _make_control(self, ctrl: OptionControl) -> widgets.Widget:
        w = option_widget(ctrl, self.locale, self._control_labels(ctrl))  # made with its words
        w.observe(lambda change, c=ctrl: self._on_control(c, change), names="value")
        ctrl.widget = w
        return w

    def _set_control(self, ctrl: OptionControl, raw: Any, from_widget: bool = False) -> None:
        if not self.can("set_option"):
            self._sync_widget(ctrl)  # a forged change is put back
            return
        try:
            value = ctrl.coerce(raw)
        except (TypeError, ValueError):
            ctrl.refuse()
            self._render_options_error()
            return
        ctrl.accept(value)
        if not from_widget or not isinstance(ctrl.widget, widgets.Text):
            self._sync_widget(ctrl)
        self._render_options_error()
        self._render_chances(ctrl.checks)

    def _sync_widget(self, ctrl: OptionControl, relabel: bool = False) -> None:
        self._syncing = True  # the widget's own change is not a player's
        try:
            (relabel_dropdown if relabel else show_value)(ctrl, self.locale)
        finally:
            self._syncing = False

    def refresh_checks(self) -> None:
        """The character changed (a sheet edit, effects applied): refresh checks and odds."""
        self._chance_cache.clear()
        new = list(self.system.checks(self.character))
        if new != self._checks and checks_shape(new) == checks_shape(self._checks):
            self._adopt_checks(new)  # the same controls and cards: only words, defaults, odds
        elif new != self._checks:
            keep_group = self.accordion.selected_index if self.accordion is not None else 0
            more_open = self.more_options is not None and self.more_options.selected_index == 0
            self.load_checks()
            if self.accordion is not None and keep_group is not None and keep_group < len(self._groups):
                self.accordion.selected_index = keep_group
            if more_open and self.more_options is not None:
                self.open_more_options()
            self.render_title()
            self.render_check_labels()
        else:
            self._render_chances(None)
            self.render_title()

    def _adopt_checks(self, new: list[CheckSpec]) -> None:
        """Take checks of the same shape (see ``checks_shape``) without making a widget anew: a
        control keeps its widget and value and takes the new spec (its help, its default)."""
        self._checks = new
        self._groups = group_checks(new)
        specs = plan_controls(new, show_gm=bool(self.can("gm_options")), old_values={}, start_value=None)
        for key, ctrl in self._controls.items():
            ctrl.spec = specs[key].spec
            if ctrl.widget is not None:
                self._label_control(ctrl)
        self._render_group_labels()
        self._render_chances(None)
        self.render_title()

    def _chance(self, check_id: str) -> tuple[Fraction | None, Any]:
        return cached_chance(self._chance_cache, self.system, self.character, check_id, self.options_for(check_id))

    def render_title(self) -> None:
        # the tray belongs to the character (a table seat rolls as "Pavel" for "Aria")
        self.title.value, self.title.tooltip = title_html(self.system, self.character, self.who, self.locale)

    def _render_group_labels(self) -> None:
        if self.accordion is None:
            return
        # every title at once: one message (set_title sends the whole list each time)
        self.accordion.titles = tuple(f"{tr(label, self.locale)} ({len(checks)})" for label, checks in self._groups)

    def _control_labels(self, ctrl: OptionControl) -> dict[str, Any]:
        labels = [tr(self.check_spec(cid).label, self.locale) for cid in ctrl.checks[:4]]
        return control_labels(ctrl, self.locale, labels, len(self._checks))

    def _label_control(self, ctrl: OptionControl) -> None:
        with ctrl.widget.hold_sync():  # one message
            for name, value in self._control_labels(ctrl).items():
                if name != "placeholder" or isinstance(ctrl.widget, widgets.Text):
                    setattr(ctrl.widget, name, value)

    def _render_options_error(self) -> None:
        errs = [c.error for c in self._controls.values() if c.error is not None]
        self.options_error.value = options_error_html(errs, self.locale)
        self.options_error.layout.display = None if errs else "none"

    def _render_chances(self, check_ids) -> None:
        ids = check_ids if check_ids is not None else [c.id for c in self._checks]
        for cid in ids:
            if cid in self._cards:
                self._render_card(self.check_spec(cid))

    def _render_card(self, spec: CheckSpec) -> None:
        p, err = self._chance(spec.id)
        card = self._cards[spec.id]
        with card["button"].hold_sync(), card["box"].hold_sync():
            render_card(card, spec, p, err, self.locale)

    def mark_last_rolled(self, check_id: str | None) -> None:
        for cid, card in self._cards.items():
            if cid == check_id:
                card["box"].add_class("tt-last-rolled")
            else:
                card["box"].remove_class("tt-last-rolled")

    def render_check_labels(self) -> None:
        """The words of the checks half in the tray's language: titles, controls, groups, cards."""
        loc = self.locale
        self.situation_title.value = (
            f'<h3 title="{html.escape(_t("situation_tip", loc))}">{html.escape(_t("situation", loc))}</h3>'
        )
        if self.more_options is not None:
            self.more_options.set_title(0, _t("more_options", loc))
        self.checks_title.value = f"<h3>{html.escape(_t('checks', loc))}</h3>"
        for ctrl in self._controls.values():
            if ctrl.widget is not None:
                self._label_control(ctrl)
                if isinstance(ctrl.widget, widgets.Dropdown):
                    self._sync_widget(ctrl, relabel=True)
        self._render_group_labels()
        self._render_options_error()
        for c in self._checks:
            if c.id in self._cards:
                self._render_card(c)
