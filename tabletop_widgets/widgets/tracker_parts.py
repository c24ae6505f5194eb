"""The parts of the combat tracker's panel that are made on demand (see ``LAZY_PARTS`` in
:mod:`.tracker`): the damage and healing options, the conditions, the name and place in the
order, and the row for adding combatants. Each part owns its widgets, under the names the
tracker exposes them by (``tracker.condition_picker`` is ``ConditionsPart.condition_picker``),
and draws itself in the tracker's locale; its buttons call the tracker's actions, which check
``can(action)`` first. Nothing here computes a rule."""

from __future__ import annotations

import contextlib
import html
from typing import Any, Callable

import ipywidgets as widgets

from tabletop_widgets.core.i18n import count, tr
from tabletop_widgets.core.system import term_of

from .base import text_lookup
from .sheet_context import fixed_layout, hbox, shared_layout, shared_style, vbox
from .tray_controls import label_style
from .tracker_text import TEXTS

_t = text_lookup(TEXTS)


def button(
    cls: str | tuple[str, ...],
    action: Callable[[], Any],
    style: str = "",
    *,
    layout: widgets.Layout | None = None,
    **traits: Any,
) -> widgets.Button:
    """A button with the CSS class(es) ``cls`` that calls ``action()`` when clicked, made with
    ``traits`` (its words: no update after it is made). It shares the frozen layout and the one
    ButtonStyle unless given its own ``layout`` (a button that hides itself needs one)."""
    classes = (cls,) if isinstance(cls, str) else tuple(cls)
    b = widgets.Button(
        button_style=style,
        layout=layout if layout is not None else shared_layout(),
        style=shared_style(widgets.ButtonStyle),
        _dom_classes=classes,
        **traits,
    )
    b.on_click(lambda _b: action())
    return b


def toggle_button(classes: tuple[str, ...], *, layout: widgets.Layout | None = None, **traits: Any):
    """A ToggleButton with ``classes`` and ``traits``, sharing the frozen layout (unless given its
    own) and the one ToggleButtonStyle."""
    return widgets.ToggleButton(
        layout=layout if layout is not None else shared_layout(),
        style=shared_style(widgets.widget_bool.ToggleButtonStyle),
        _dom_classes=classes,
        **traits,
    )


def html_view(*classes: str, layout: widgets.Layout | None = None, **traits: Any) -> widgets.HTML:
    """An HTML widget with ``classes`` and ``traits`` (its ``value``...), sharing the frozen
    layout (unless given its own: one that hides itself needs one) and the one HTMLStyle."""
    return widgets.HTML(
        layout=layout if layout is not None else shared_layout(),
        style=shared_style(widgets.widget_string.HTMLStyle),
        _dom_classes=classes,
        **traits,
    )


def assign(widget: widgets.Widget, traits: dict[str, Any]) -> None:
    """Set ``traits`` on ``widget``: only the values that change go to the browser."""
    for name, value in traits.items():
        setattr(widget, name, value)


@contextlib.contextmanager
def batched(*parts: widgets.Widget):
    """Each widget's trait changes inside go to the browser as one message per widget."""
    with contextlib.ExitStack() as stack:
        for w in parts:
            stack.enter_context(w.hold_sync())
        yield


def option_controls(specs, old: dict, cls: str, loc: str) -> dict:
    """One control per OptionSpec, labelled in ``loc`` (keeping the values ``old`` already chose)."""
    made: dict[str, widgets.Widget] = {}
    for s in specs:
        label = tr(s.label, loc)
        tip = tr(s.help, loc) if s.help else label
        value = old.get(s.name, s.default)
        classes = (cls, f"tt-option-{s.name}")  # made with the widget: no later message
        if s.kind == "choice":
            choices = [(tr(lab, loc), v) for v, lab in s.choices]
            values = [v for _, v in choices]
            w = widgets.Dropdown(
                options=choices,
                value=value if value in values else s.default,
                description=label,
                style=label_style(widgets.Dropdown),
                layout=fixed_layout(width="auto", min_width="220px"),
                tooltip=tip,
                _dom_classes=classes,
            )
        elif s.kind == "bool":
            w = widgets.Checkbox(
                value=bool(value),
                description=label,
                indent=False,
                layout=fixed_layout(width="auto"),
                style=shared_style(widgets.widget_bool.CheckboxStyle),
                tooltip=tip,
                _dom_classes=classes,
            )
        elif s.kind == "int":
            lo = s.min if s.min is not None else -9999
            hi = s.max if s.max is not None else 9999
            w = widgets.BoundedIntText(
                value=max(lo, min(hi, int(value or 0))),
                min=lo,
                max=hi,
                description=label,
                style=label_style(widgets.BoundedIntText),
                layout=fixed_layout(width="150px"),
                tooltip=tip,
                _dom_classes=classes,
            )
        else:
            w = widgets.Text(
                value=str(value or ""),
                description=label,
                style=label_style(widgets.Text),
                layout=shared_layout(),
                tooltip=tip,
                _dom_classes=classes,
            )
        made[s.name] = w
    return made


def without_initiative(combat) -> list[str]:
    """The ids of ``combat``'s combatants that have no initiative yet."""
    return [c.id for c in combat.combatants() if c.initiative is None]


#: the toolbar's buttons, in their order
TOOLBAR_BUTTONS = ("prev_button", "next_button", "delay_button", "initiative_button", "undo_button", "end_button")


class Toolbar:
    """The turn buttons: back, next (start), delay, initiative, undo, end; each made with its
    words and state (:meth:`state`), so a new toolbar sends no update."""

    def __init__(self, tracker: Any):
        self.tracker = tracker
        s = self.state()
        self.prev_button = button("tt-prev", lambda: tracker.previous_turn(), **s["prev_button"])
        self.next_button = button("tt-next", lambda: tracker.next_turn(), "primary", **s["next_button"])
        self.delay_button = button("tt-delay", lambda: tracker.delay(), **s["delay_button"])
        self.initiative_button = button(
            "tt-initiative", lambda: tracker.roll_initiative(), "info", **s["initiative_button"]
        )
        self.undo_button = button("tt-undo", lambda: tracker.undo(), **s["undo_button"])
        self.end_button = button("tt-end", lambda: tracker.end(), **s["end_button"])
        self.box = hbox([getattr(self, name) for name in TOOLBAR_BUTTONS], classes=("tt-tracker-toolbar",))

    def state(self) -> dict[str, dict[str, Any]]:
        """Each button's description, tooltip and ``disabled`` now, by its name."""
        loc = self.tracker.locale
        combat = self.tracker.combat
        s = {
            f"{key}_button": {"description": _t(key, loc), "tooltip": _t(f"{key}_tip", loc)}
            for key in ("prev", "delay", "initiative", "undo", "end")
        }
        missing = without_initiative(combat)
        if missing and len(missing) < len(combat.ids):
            s["initiative_button"]["tooltip"] = _t("initiative_late_tip", loc)
        s["next_button"] = {
            "description": _t("next" if combat.started else "start", loc),
            "tooltip": _t("next_tip", loc),
        }
        for name in ("prev_button", "delay_button", "end_button"):
            s[name]["disabled"] = not combat.started
        s["undo_button"]["disabled"] = not combat.can_undo
        s["next_button"]["disabled"] = not combat.ids
        s["initiative_button"]["disabled"] = not combat.ids
        return s

    def render(self) -> None:
        for name, traits in self.state().items():
            assign(getattr(self, name), traits)


#: The folded parts of the selected combatant's panel, in their order (each made when first opened).
DETAILS = ("options", "conditions", "edit")


class HarmPart:
    """The panel's body, made when a combatant is first selected: the amount with Damage and
    Heal, the folded Attack part and the folded DETAILS (each made when first opened)."""

    def __init__(self, tracker: Any, body: widgets.Box):
        self.tracker = tracker
        loc = tracker.locale
        self.amount = widgets.BoundedIntText(
            value=1,
            min=0,
            max=9999,
            layout=fixed_layout(width="150px"),
            style=label_style(widgets.BoundedIntText),
            description=_t("amount", loc),
            tooltip=_t("amount_tip", loc),
            _dom_classes=("tt-amount",),
        )
        self.damage_button = button(
            "tt-damage",
            lambda: tracker.damage_selected(),
            "danger",
            description=_t("damage", loc),
            tooltip=_t("damage_tip", loc),
        )
        self.heal_button = button(
            "tt-heal",
            lambda: tracker.heal_selected(),
            "success",
            description=_t("heal", loc),
            tooltip=_t("heal_tip", loc),
        )
        harm_row = hbox([self.amount, self.damage_button, self.heal_button], classes=("tt-panel-row",))
        # its own layout: it hides from a seat that may not attack
        self.attack_fold = widgets.Accordion([vbox()], selected_index=None, _dom_classes=("tt-attack-fold",))
        self.details = widgets.Accordion(
            [vbox() for _ in DETAILS],
            selected_index=None,
            titles=tuple(_t(f"{part}_section", loc) for part in DETAILS),
            layout=shared_layout(),
            _dom_classes=("tt-panel-details",),
        )
        body.children = [harm_row, self.attack_fold, self.details]

    def render(self) -> None:
        loc = self.tracker.locale
        titles = tuple(_t(f"{part}_section", loc) for part in DETAILS)
        if tuple(self.details.titles) != titles:
            self.details.titles = titles  # all at once: one message
        self.amount.description = _t("amount", loc)
        self.amount.tooltip = _t("amount_tip", loc)
        self.damage_button.description = _t("damage", loc)
        self.damage_button.tooltip = _t("damage_tip", loc)
        self.heal_button.description = _t("heal", loc)
        self.heal_button.tooltip = _t("heal_tip", loc)


def _signature(specs, loc: str) -> tuple:
    """What the controls of ``specs`` are made from: they are rebuilt only when it changes."""
    return (loc, tuple((s.name, s.kind, s.default, s.min, s.max, tuple(v for v, _ in s.choices)) for s in specs))


class OptionsPart:
    """Controls for ``system.damage_options`` and ``system.healing_options`` (each rebuilt when
    its options or the locale change); ``option_widgets``/``heal_option_widgets`` map an
    option's name to its control."""

    def __init__(self, tracker: Any, pane: widgets.Box):
        self.tracker = tracker
        # the boxes that hide have their own layouts; the rest share the frozen one
        self.options_box = widgets.HBox(_dom_classes=("tt-damage-options",))
        self.heal_options_box = hbox(classes=("tt-heal-options",))
        self.damage_caption = html_view("tt-option-caption")
        self.heal_caption = html_view("tt-option-caption")
        self.damage_options_row = widgets.HBox(
            [self.damage_caption, self.options_box], _dom_classes=("tt-option-group", "tt-damage-option-group")
        )
        self.heal_options_row = widgets.HBox(
            [self.heal_caption, self.heal_options_box], _dom_classes=("tt-option-group", "tt-heal-option-group")
        )
        self.no_options_note = html_view("tt-no-options", layout=widgets.Layout())
        self.option_widgets: dict[str, widgets.Widget] = {}
        self.heal_option_widgets: dict[str, widgets.Widget] = {}
        self._options_for: tuple | None = None
        self._heal_options_for: tuple | None = None
        pane.children = [self.damage_options_row, self.heal_options_row, self.no_options_note]

    def values(self) -> dict:
        """The damage options as chosen."""
        return {name: w.value for name, w in self.option_widgets.items()}

    def heal_values(self) -> dict:
        """The healing options as chosen."""
        return {name: w.value for name, w in self.heal_option_widgets.items()}

    def render(self, character) -> None:
        t = self.tracker
        loc = t.locale
        self.damage_caption.value = html.escape(_t("damage_options", loc))
        self.heal_caption.value = html.escape(_t("heal_options", loc))
        specs = list(t.system.damage_options(character))
        sig = _signature(specs, loc)
        if sig != self._options_for:
            self.option_widgets = option_controls(specs, self.values(), "tt-damage-option", loc)
            self.options_box.children = list(self.option_widgets.values())
            self._options_for = sig
        self.options_box.layout.display = "" if specs else "none"
        self.damage_options_row.layout.display = "" if specs else "none"
        specs = list(t.system.healing_options(character))
        sig = _signature(specs, loc)
        if sig != self._heal_options_for:
            self.heal_option_widgets = option_controls(specs, self.heal_values(), "tt-heal-option", loc)
            self.heal_options_box.children = list(self.heal_option_widgets.values())
            self._heal_options_for = sig
        self.heal_options_row.layout.display = "" if specs else "none"
        none = not self.option_widgets and not self.heal_option_widgets
        self.no_options_note.value = f"<i>{html.escape(_t('no_options', loc))}</i>" if none else ""
        self.no_options_note.layout.display = "" if none else "none"


class ConditionsPart:
    """A condition from the system's catalogue to add (with a duration), and the selected
    combatant's conditions as buttons that remove them."""

    def __init__(self, tracker: Any, pane: widgets.Box):
        self.tracker = tracker
        self.condition_picker = widgets.Dropdown(
            layout=fixed_layout(width="260px"),
            style=label_style(widgets.Dropdown),
            _dom_classes=("tt-condition-picker",),
        )
        self.condition_duration = widgets.BoundedIntText(
            value=0,
            min=0,
            max=999,
            layout=fixed_layout(width="110px"),
            style=label_style(widgets.BoundedIntText),
            _dom_classes=("tt-condition-duration",),
        )
        self.add_condition_button = button("tt-add-condition", lambda: tracker.add_condition_selected())
        self.conditions_box = hbox(classes=("tt-panel-conditions",))
        cond_row = hbox(
            [self.condition_picker, self.condition_duration, self.add_condition_button, self.conditions_box],
            classes=("tt-panel-row",),
        )
        self._chips_for: tuple | None = None
        pane.children = [cond_row]

    def render(self, cid: str, c) -> None:
        t = self.tracker
        loc = t.locale
        opts = [(tr(s.label, loc), s.id) for s in t.system.conditions()]
        if list(self.condition_picker.options) != opts:
            keep = self.condition_picker.value
            self.condition_picker.options = opts
            values = [v for _, v in opts]
            if values:
                self.condition_picker.value = keep if keep in values else values[0]
        self.condition_picker.description = _t("conditions", loc)
        self.condition_picker.tooltip = _t("condition_tip", loc)
        self.condition_picker.disabled = not opts
        self.condition_duration.description = term_of(t.system, "turns", loc)
        self.condition_duration.tooltip = _t("duration_tip", loc)
        self.add_condition_button.description = _t("add_condition", loc)
        self.add_condition_button.tooltip = _t("add_condition_tip", loc)
        self.add_condition_button.disabled = not opts
        chip_sig = (cid, loc, tuple((i["uid"], i["remaining"]) for i in c.conditions))
        if chip_sig != self._chips_for:  # new buttons only when they change
            chips = []
            for inst in c.conditions:
                left = f" · {count(inst['remaining'], 'turn', loc)}" if inst["remaining"] is not None else ""
                b = button(
                    "tt-condition-remove",
                    lambda uid=inst["uid"], who=cid: t.remove_condition(who, uid),
                    layout=fixed_layout(width="auto"),
                    description=f"✕ {t.condition_label(inst['id'])}{left}",
                    tooltip=f"{_t('remove_condition_tip', loc)}: {t.condition_effect(inst['id'])}",
                )
                chips.append(b)
            for old in self.conditions_box.children:
                old.close()
            self.conditions_box.children = chips
            self._chips_for = chip_sig


class EditPart:
    """The selected combatant's name and place in the order: rename, up, down, remove."""

    def __init__(self, tracker: Any, pane: widgets.Box):
        self.tracker = tracker
        self.rename_text = widgets.Text(
            layout=fixed_layout(width="180px"),
            style=shared_style(widgets.widget_string.TextStyle),
            _dom_classes=("tt-rename",),
        )
        self.rename_button = button(
            "tt-rename-button", lambda: tracker.rename(tracker.selected, self.rename_text.value)
        )
        narrow = fixed_layout(width="40px")
        self.up_button = button("tt-move-up", lambda: tracker.move_by(tracker.selected, -1), layout=narrow)
        self.down_button = button("tt-move-down", lambda: tracker.move_by(tracker.selected, +1), layout=narrow)
        self.remove_button = button("tt-remove", lambda: tracker.remove(tracker.selected), "warning")
        edit_row = hbox(
            [self.rename_text, self.rename_button, self.up_button, self.down_button, self.remove_button],
            classes=("tt-panel-row",),
        )
        self._rename_for: str | None = None
        pane.children = [edit_row]

    def render(self, cid: str, c) -> None:
        loc = self.tracker.locale
        if self.rename_text.value == "" or self._rename_for != cid:
            self.rename_text.value = c.name
            self._rename_for = cid
        self.rename_text.tooltip = _t("rename_tip", loc)
        self.rename_button.description = _t("rename", loc)
        self.rename_button.tooltip = _t("rename_tip", loc)
        for key, b in (("up", self.up_button), ("down", self.down_button), ("remove", self.remove_button)):
            b.description = _t(key, loc)
            b.tooltip = _t(f"{key}_tip", loc)


class AddPart:
    """The row for adding a combatant: a name (Enter adds), a fresh character or a copy of a
    combatant, hidden from players or not."""

    def __init__(self, tracker: Any, box: widgets.Box):
        self.tracker = tracker
        w = self.words()  # each made with its words and choices: no update after it is made
        self.new_name = widgets.Text(
            layout=fixed_layout(width="230px"),
            style=label_style(widgets.Text),
            _dom_classes=("tt-new-name",),
            **w["new_name"],
        )
        self.new_name.on_msg(self._on_new_name_msg)
        self.new_template = widgets.Dropdown(
            layout=fixed_layout(width="260px"),
            style=label_style(widgets.Dropdown),
            _dom_classes=("tt-new-template",),
            options=self.template_options(),
            value="",
            **w["new_template"],
        )
        self.new_hidden = widgets.Checkbox(
            value=False,
            indent=False,
            layout=fixed_layout(width="auto"),  # «скрыть от игроков» whole, not cut at 90 px
            style=shared_style(widgets.widget_bool.CheckboxStyle),
            _dom_classes=("tt-new-hidden",),
            **w["new_hidden"],
        )
        self.add_button = button("tt-add", lambda: tracker.add_from_form(), **w["add_button"])
        box.children = [self.new_name, self.new_template, self.new_hidden, self.add_button]

    def words(self) -> dict[str, dict[str, str]]:
        """Each control's words in the tracker's language, by its name."""
        loc = self.tracker.locale
        return {
            "new_name": {
                "description": _t("new_name", loc),
                "tooltip": _t("new_name_tip", loc),
                "placeholder": _t("new_name_tip", loc),
            },
            "new_template": {"description": _t("template", loc), "tooltip": _t("template_tip", loc)},
            "new_hidden": {"description": _t("add_hidden", loc), "tooltip": _t("hidden_tip", loc)},
            "add_button": {"description": _t("add", loc), "tooltip": _t("add_tip", loc)},
        }

    def template_options(self) -> list[tuple[str, str]]:
        """What a new combatant may be based on: a fresh character or a copy of a combatant."""
        loc = self.tracker.locale
        combat = self.tracker.combat
        return [(_t("blank", loc), "")] + [(f"{_t('copy_of', loc)} {combat.name(i)}", i) for i in combat.ids]

    def _on_new_name_msg(self, _widget, content, _buffers):
        if isinstance(content, dict) and content.get("event") == "submit":
            self.tracker.add_from_form()

    def render(self) -> None:
        opts = self.template_options()
        if list(self.new_template.options) != opts:
            keep = self.new_template.value
            self.new_template.options = opts
            self.new_template.value = keep if keep in [v for _, v in opts] else ""
        for name, traits in self.words().items():
            assign(getattr(self, name), traits)


#: the classes of the parts, by their name in ``LAZY_PARTS``
PARTS = {"harm": HarmPart, "options": OptionsPart, "conditions": ConditionsPart, "edit": EditPart, "add": AddPart}
