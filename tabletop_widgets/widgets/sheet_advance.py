"""The sheet's Advancement part (issue #17): what a character in play has earned and what it can
buy with it, priced before it is bought.

:class:`AdvancePanel` is a folded card at the foot of the :class:`~.sheet.CharacterSheet`, shown
for a character in play whose system names advancement resources
(``GameSystem.advancement_resources``); its widgets are built when it is first opened (the play
pages stay as fast as they were). Opened, it shows:

* the resources and what the character has (``Experience: 20 XP``);
* what the character can buy now (``GameSystem.advancements``), grouped (``AdvanceSpec.group``),
  each with its price (``core.advancement.price_text``) and, when blocked, why;
* for the advance chosen: its options (the dice tray's option controls; the options only the GM
  sets only on a GM's sheet), the plan (``GameSystem.plan_advance``: ``"Nerve 3 → 4 for 8 XP"``
  and its notes) and a **Buy** button; after buying, the outcome or the refusal in the sheet's
  language, and the lists follow the character;
* on a sheet whose viewer may set the GM's fields (``can("edit_gm")``): **Award** (a resource and
  an amount).

Buying and awarding go through two callables (the seam): ``advance(advance_id, **options)`` and
``award(resource, amount)``. Alone, they are the system's methods on the bound character; at a
shared table they are the session's seat actions (``TableSession.advance`` / ``award``), which
check and record them and return the event. The rules live there: this is a view.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Mapping

import ipywidgets as widgets

from tabletop_widgets.core.advancement import MAX_AWARD, AdvanceOutcome, AdvanceSpec, price_text
from tabletop_widgets.core.i18n import LOCALES, tr
from tabletop_widgets.core.problems import BilingualError
from tabletop_widgets.core.system import term_of
from tabletop_widgets.front import compact, css

from .base import text_lookup
from .sheet_context import (
    SheetContext,
    button_widget,
    close_tree,
    esc,
    fixed_layout,
    hbox,
    html_widget,
    refusal_text,
    set_display,
    vbox,
)
from .tray_controls import OptionControl, label_control, option_rows, option_widget, relabel_dropdown

TEXTS: dict[str, dict[str, str]] = {
    "title": {"en": "Advancement", "ru": "Развитие"},
    "show": {"en": "Show", "ru": "Показать"},
    "hide": {"en": "Hide", "ru": "Скрыть"},
    "show_tip": {"en": "Show what this character can buy", "ru": "Показать, что может купить персонаж"},
    "hide_tip": {"en": "Hide the advancement part", "ru": "Скрыть раздел развития"},
    "has": {"en": "The character has", "ru": "У персонажа"},
    "nothing": {"en": "Nothing to buy right now.", "ru": "Сейчас купить нечего."},
    "other": {"en": "Advances", "ru": "Развитие"},
    "choose": {
        "en": "Choose an advance above to see what it does.",
        "ru": "Выберите развитие выше, чтобы увидеть, что оно даст.",
    },
    "choose_tip": {"en": "See what {label} does and what it costs", "ru": "Что даст «{label}» и сколько стоит"},
    "buy": {"en": "Buy", "ru": "Купить"},
    "buy_tip": {"en": "Buy this advance for {price}", "ru": "Купить это развитие за {price}"},
    "blocked": {"en": "Not now", "ru": "Пока нельзя"},
    "bought": {"en": "Bought: {text}", "ru": "Куплено: {text}"},
    "awarded": {"en": "Awarded: {text}", "ru": "Выдано: {text}"},
    "refused": {"en": "Refused: {text}", "ru": "Отказано: {text}"},
    "not_allowed": {"en": "You may not do this from this seat.", "ru": "С этого места так делать нельзя."},
    "award_title": {"en": "Award ({gm})", "ru": "Награда ({gm})"},
    "resource": {"en": "Resource", "ru": "Ресурс"},
    "amount": {"en": "Amount", "ru": "Сколько"},
    "award": {"en": "Award", "ru": "Выдать"},
    "award_tip": {"en": "Give the character this much", "ru": "Выдать персонажу столько"},
    "gm_set": {"en": "set by the {gm}", "ru": "задаёт {gm}"},
}

_t = text_lookup(TEXTS)
_CSS = "<style>" + compact(css("advance")) + "</style>"


def has_advancement(system) -> bool:
    """Whether ``system`` names something advancement spends (the part is offered at all)."""
    try:
        return bool(system.advancement_resources())
    except Exception:  # a system without the contract
        return False


def outcome_text(result: Any) -> Mapping[str, str] | None:
    """The ``{"en", "ru"}`` line of what ``advance`` / ``award`` returned: an
    :class:`AdvanceOutcome`, or a table's event (its recorded outcome)."""
    if isinstance(result, AdvanceOutcome):
        return dict(result.text)
    payload = getattr(result, "payload", None)
    if isinstance(payload, Mapping):
        reason = payload.get("reason")
        if isinstance(reason, Mapping) and isinstance(reason.get("text"), Mapping):
            return dict(reason["text"])
    return None


class AdvancePanel:
    """The Advancement part of a sheet. ``widget`` is its card (always there, hidden while the
    part is not offered); ``open()`` builds and shows it. See the module's docs."""

    def __init__(
        self,
        ctx: SheetContext,
        *,
        advance: Callable[..., Any] | None = None,
        award: Callable[..., Any] | None = None,
    ):
        self.ctx = ctx
        self.system = ctx.system
        self.character = ctx.character
        self.advance_fn = advance or (
            lambda advance_id, **options: self.system.advance(self.character, advance_id, **options)
        )
        self.award_fn = award or (lambda resource, amount: self.system.award(self.character, resource, amount))
        self.built = False
        self.opened = False
        self.selected: str | None = None
        self.specs: list[AdvanceSpec] = []
        self.controls: dict[str, OptionControl] = {}
        self.message: tuple[str, Mapping[str, str]] | None = None
        self._shape: tuple = ()
        self._seen: dict[str, Any] | None = None  # the values the lists were worked out for
        self.rows: dict[str, dict[str, widgets.Widget]] = {}

        # the card; its head is made when it is first offered (a character in creation is
        # offered nothing: no widgets for it), its parts when first opened
        self._title: widgets.HTML | None = None
        self._toggle: widgets.Button | None = None
        self.widget = vbox(
            classes=["tt-section", "tt-wide", "tt-advance", "tt-folded"],
            layout=fixed_layout() if self.offered else fixed_layout(display="none"),
        )
        self.render_visibility()
        self.relabel()

    def _make_head(self) -> None:
        """The card's title and fold button, made with their words and classes: one message each
        (the sheet's own parts are made so too)."""
        if self._title is not None:
            return
        loc = self.ctx.locale
        self._title = html_widget(f"<h3>{esc(_t('title', loc))}</h3>", classes=["tt-section-title"])
        self._toggle = button_widget(
            layout=fixed_layout(width="auto"),
            classes=["tt-section-toggle", "tt-advance-toggle"],
            **self._toggle_words(),
        )
        self._toggle.on_click(lambda _b: self.close_part() if self.opened else self.open())
        # a card like the sheet's sections: the title, the button and (once opened) the parts
        # are its own children; folded (tt-folded), the CSS shows the head only
        self.widget.children = [self._title, self._toggle]

    @property
    def title(self) -> widgets.HTML:
        self._make_head()
        return self._title

    @property
    def toggle(self) -> widgets.Button:
        self._make_head()
        return self._toggle

    # -- when it is offered ------------------------------------------------------------------------
    @property
    def offered(self) -> bool:
        return self.ctx.in_play and has_advancement(self.system)

    def render_visibility(self) -> None:
        if self.offered:
            self._make_head()
        set_display(self.widget, None if self.offered else "none")
        if not self.offered and self.opened:
            self.close_part()

    # -- building ----------------------------------------------------------------------------------
    def _build(self) -> None:
        if self.built:
            return
        self.built = True
        self.style = html_widget(_CSS)
        self.style.add_class("tt-style")
        self.resources = html_widget()
        self.resources.add_class("tt-advance-resources")
        self.list_box = vbox()
        self.list_box.add_class("tt-advance-list")
        self.plan = html_widget()
        self.plan.add_class("tt-advance-plan")
        self.options_box = vbox()
        self.options_box.add_class("tt-advance-options")
        self.buy_button = button_widget(layout=fixed_layout(width="auto"))
        self.buy_button.add_class("tt-advance-buy")
        self.buy_button.on_click(lambda _b: self.buy())
        self.status = html_widget(layout=fixed_layout(display="none"))
        self.status.add_class("tt-advance-status")
        self.detail = vbox([self.options_box, self.plan, self.buy_button])
        self.detail.add_class("tt-advance-detail")
        parts: list[widgets.Widget] = [self.style, self.resources, self.list_box, self.detail, self.status]
        self.award_box: widgets.VBox | None = None
        if self.ctx.can("edit_gm"):
            parts.append(self._build_award())
        self.widget.children = (self.title, self.toggle, *parts)

    def _build_award(self) -> widgets.VBox:
        self.award_title = html_widget()
        self.award_title.add_class("tt-advance-award-title")
        self.award_resource = widgets.Dropdown(layout=fixed_layout(width="auto", min_width="0"))
        self.award_resource.add_class("tt-advance-award-resource")
        self.award_amount = widgets.BoundedIntText(
            value=1, min=1, max=MAX_AWARD, layout=fixed_layout(width="110px"), style={"description_width": "initial"}
        )
        self.award_amount.add_class("tt-advance-award-amount")
        self.award_button = button_widget(layout=fixed_layout(width="auto"))
        self.award_button.add_class("tt-advance-award-button")
        self.award_button.on_click(lambda _b: self.give())
        row = hbox([self.award_resource, self.award_amount, self.award_button])
        row.add_class("tt-advance-award-row")
        self.award_box = vbox([self.award_title, row])
        self.award_box.add_class("tt-advance-award")
        return self.award_box

    # -- folding -----------------------------------------------------------------------------------
    def open(self) -> None:
        """Unfold the part, building it the first time (only what this viewer sees changes)."""
        self._build()
        self.opened = True
        self.widget.remove_class("tt-folded")
        self.refresh()
        self.relabel()

    def close_part(self) -> None:
        self.opened = False
        self.widget.add_class("tt-folded")
        self._label_toggle()

    # -- following the character -------------------------------------------------------------------
    def on_character(self, name: str) -> None:
        """A trait of the character changed: the part shows or hides (the phase), and, open,
        its lists and the plan follow, worked out once per batch of changes
        (:meth:`values_changed`)."""
        if name == "phase":
            self.render_visibility()
        if self.opened and self.values_changed():
            self.refresh()

    def values_changed(self) -> bool:
        """Whether the character's stored values differ from those the lists were last worked
        out for. One change notifies once per trait it touches (an edit and the values derived
        from it, ``update`` of several values, a loaded file, a table's event), and each
        notification comes after all of them are set: the first one of a batch recomputes,
        the others find the same values."""
        return self._stored_values() != self._seen

    def _stored_values(self) -> dict[str, Any]:
        model = type(self.character)
        names = model.persisted_traits() if hasattr(model, "persisted_traits") else list(model.class_traits())
        return {n: getattr(self.character, n, None) for n in names}

    def refresh(self) -> None:
        """Read what the character has and can buy now, and draw it."""
        if not self.built:
            return
        self._seen = copy.deepcopy(self._stored_values())
        try:
            self.specs = list(self.system.advancements(self.character)) if self.offered else []
        except Exception as exc:  # a rules bug must not break the sheet; say so
            self.specs = []
            self.message = ("error", refusal_text(exc))
        shape = tuple((s.id, tr(s.group or {}, "en")) for s in self.specs)
        if shape != self._shape:
            self._shape = shape
            self._make_rows()
        if self.selected not in {s.id for s in self.specs}:
            self.selected = None
            self._make_controls(None)
        self.render()

    def spec(self, advance_id: str | None) -> AdvanceSpec | None:
        return next((s for s in self.specs if s.id == advance_id), None)

    def _make_rows(self) -> None:
        for row in self.rows.values():
            close_tree(row["box"])
        self.rows = {}
        groups: dict[str, tuple[Any, list[AdvanceSpec]]] = {}
        for s in self.specs:
            groups.setdefault(tr(s.group or {}, "en"), (s.group, []))[1].append(s)
        children: list[widgets.Widget] = []
        self.group_heads: list[tuple[widgets.HTML, Any]] = []
        for _key, (label, members) in groups.items():
            if len(groups) > 1 or label:
                head = html_widget()
                head.add_class("tt-advance-group")
                self.group_heads.append((head, label))
                children.append(head)
            for s in members:
                button = button_widget(layout=fixed_layout(width="auto", max_width="100%"))
                button.add_class("tt-advance-choose")
                button.on_click(lambda _b, aid=s.id: self.choose(aid))
                price = html_widget()
                price.add_class("tt-advance-price")
                box = hbox([button, price])
                box.add_class("tt-advance-row")
                self.rows[s.id] = {"box": box, "button": button, "price": price}
                children.append(box)
        self.list_box.children = children

    def choose(self, advance_id: str) -> None:
        """Select an advance (its button): its options, its plan and Buy show below. (Only what
        this viewer sees changes.)"""
        if self.spec(advance_id) is None:
            return  # a stale or forged id: nothing to show
        self.selected = advance_id
        self.message = None
        self._make_controls(self.spec(advance_id))
        self.render()

    def _shown_options(self, spec: AdvanceSpec) -> list:
        gm = self.ctx.can("edit_gm")
        return [o for o in spec.options if gm or not (o.gm_only or o.name in spec.gm_options)]

    def _make_controls(self, spec: AdvanceSpec | None) -> None:
        for ctrl in self.controls.values():
            if ctrl.widget is not None:
                ctrl.widget.close()
        self.controls = {}
        if spec is None:
            self.options_box.children = []
            return
        loc = self.ctx.locale
        for o in self._shown_options(spec):
            if o.kind == "choice" and len(o.choices) <= 1:
                continue
            ctrl = OptionControl((o.name,), o, [spec.id], shared=False)
            ctrl.widget = option_widget(ctrl, loc)
            ctrl.widget.observe(lambda ch, c=ctrl: self._on_option(c, ch["new"]), names="value")
            self.controls[o.name] = ctrl
        self.options_box.children = option_rows(list(self.controls.values()))
        self._label_controls()

    def _on_option(self, ctrl: OptionControl, raw: Any) -> None:
        try:
            ctrl.accept(ctrl.coerce(raw))
        except (TypeError, ValueError):
            ctrl.refuse()
        self.render()

    def options(self) -> dict[str, Any]:
        """The chosen options of the selected advance, as Buy sends them."""
        return {name: ctrl.value for name, ctrl in self.controls.items()}

    # -- actions -----------------------------------------------------------------------------------
    def buy(self) -> bool:
        """Buy the selected advance with the chosen options (the Buy button). The outcome or
        the refusal shows below; the lists follow the character."""
        spec = self.spec(self.selected)
        if not self.ctx.can("act") or not self.offered:
            self.message = ("error", {loc: _t("not_allowed", loc) for loc in LOCALES})
        elif spec is None:
            self.message = ("error", {loc: _t("choose", loc) for loc in LOCALES})
        else:
            bad = [c for c in self.controls.values() if c.error is not None]
            try:
                if bad:
                    raise bad[0].error
                result = self.advance_fn(spec.id, **self.options())
            except (BilingualError, PermissionError, ValueError, TypeError, KeyError) as exc:
                text = getattr(exc, "bilingual", None) or refusal_text(exc)
                self.message = ("error", text)
            else:
                text = outcome_text(result) or dict(spec.label)
                self.message = ("ok", text)
                self.selected = None
                self._make_controls(None)
        self.refresh()
        return self.message[0] == "ok"

    def give(self) -> bool:
        """Award the chosen amount of the chosen resource (the GM's Award button)."""
        if not self.ctx.can("edit_gm") or self.award_box is None:
            self.message = ("error", {loc: _t("not_allowed", loc) for loc in LOCALES})
        else:
            try:
                result = self.award_fn(self.award_resource.value, self.award_amount.value)
            except (BilingualError, PermissionError, ValueError, TypeError, KeyError) as exc:
                self.message = ("error", refusal_text(exc))
            else:
                self.message = ("award", outcome_text(result) or {loc: "✓" for loc in LOCALES})
        self.refresh()
        return self.message[0] == "award"

    # -- drawing -----------------------------------------------------------------------------------
    def render(self) -> None:
        if not self.built:
            return
        loc = self.ctx.locale
        self._render_resources(loc)
        for s in self.specs:
            row = self.rows.get(s.id)
            if row is None:
                continue
            button, price = row["button"], row["price"]
            label = tr(s.label, loc)
            button.description = label
            button.tooltip = _t("choose_tip", loc, label=label) + (f"\n{tr(s.help, loc)}" if s.help else "")
            cost = price_text(self.system, s.cost, loc)
            why = f' <span class="tt-advance-why">{esc(tr(s.blocked, loc))}</span>' if s.blocked else ""
            price.value = f'<span class="tt-advance-cost">{esc(cost)}</span>{why}'
            for box_cls, on in (
                ("tt-advance-blocked", bool(s.blocked)),
                ("tt-advance-selected", s.id == self.selected),
            ):
                if on:
                    row["box"].add_class(box_cls)
                else:
                    row["box"].remove_class(box_cls)
        if not self.specs:
            self.list_box.children = [self._nothing(loc)]
            self._shape = ()
        for head, label in getattr(self, "group_heads", []):
            head.value = f"<b>{esc(tr(label, loc) if label else _t('other', loc))}</b>"
        self._render_plan(loc)
        self._render_status(loc)
        if self.award_box is not None:
            self._render_award(loc)

    def _nothing(self, loc: str) -> widgets.HTML:
        if getattr(self, "_nothing_html", None) is None:
            self._nothing_html = html_widget()
            self._nothing_html.add_class("tt-advance-nothing")
        self._nothing_html.value = f"<i>{esc(_t('nothing', loc))}</i>"
        return self._nothing_html

    def _render_resources(self, loc: str) -> None:
        parts = []
        for r in self.system.advancement_resources():
            have = getattr(self.character, r.trait, 0)
            parts.append(
                f'<span class="tt-advance-resource" data-trait="{esc(r.trait)}">'
                f"{esc(tr(r.label, loc))}: <b>{esc(r.price_text(int(have or 0), loc))}</b></span>"
            )
        self.resources.value = f'<span class="tt-advance-has">{esc(_t("has", loc))}:</span> ' + " · ".join(parts)

    def _render_plan(self, loc: str) -> None:
        spec = self.spec(self.selected)
        if spec is None:
            self.plan.value = f'<span class="tt-advance-hint">{esc(_t("choose", loc))}</span>'
            set_display(self.buy_button, "none")
            return
        set_display(self.buy_button, None)
        opts = self.options()
        bad = [c for c in self.controls.values() if c.error is not None]
        lines, ok = [], not spec.blocked and not bad
        try:
            if bad:
                raise bad[0].error
            plan = self.system.plan_advance(self.character, spec.id, **{**spec.defaults(), **opts})
        except (BilingualError, ValueError, TypeError, KeyError) as exc:
            text = getattr(exc, "bilingual", None) or refusal_text(exc)
            lines.append(f'<div class="tt-advance-plan-text tt-error">✖ {esc(tr(text, loc))}</div>')
            ok = False
            price = price_text(self.system, spec.cost, loc)
        else:
            price = price_text(self.system, plan.cost, loc)
            lines.append(f'<div class="tt-advance-plan-text"><b>{esc(tr(plan.text, loc))}</b></div>')
            lines += [f'<div class="tt-advance-note">{esc(tr(n, loc))}</div>' for n in plan.notes]
        if spec.help:
            lines.append(f'<div class="tt-advance-help">{esc(tr(spec.help, loc))}</div>')
        if spec.blocked:
            lines.append(
                f'<div class="tt-advance-why"><b>{esc(_t("blocked", loc))}:</b> {esc(tr(spec.blocked, loc))}</div>'
            )
        self.plan.value = "".join(lines)
        self.buy_button.description = f"{_t('buy', loc)} · {price}"
        self.buy_button.tooltip = _t("buy_tip", loc, price=price)
        self.buy_button.disabled = not ok or not self.ctx.can("act")

    def _render_status(self, loc: str) -> None:
        if self.message is None:
            set_display(self.status, "none")
            self.status.value = ""
            return
        kind, text = self.message
        if kind == "error":
            self.status.value = (
                f'<div class="tt-field-problem" role="alert"><b class="tt-error">✖</b> '
                f"{esc(_t('refused', loc, text=tr(text, loc)))}</div>"
            )
        else:
            key = "awarded" if kind == "award" else "bought"
            self.status.value = f'<div class="tt-ok" role="status">✓ {esc(_t(key, loc, text=tr(text, loc)))}</div>'
        set_display(self.status, None)

    def _render_award(self, loc: str) -> None:
        gm = term_of(self.system, "gm", loc)
        self.award_title.value = f"<b>{esc(_t('award_title', loc, gm=gm))}</b>"
        value = self.award_resource.value
        options = [(tr(r.label, loc), r.trait) for r in self.system.advancement_resources()]
        if list(self.award_resource.options) != options:
            self.award_resource.options = options
        values = [v for _l, v in options]
        if values:
            self.award_resource.value = value if value in values else values[0]
        self.award_resource.description = _t("resource", loc)
        self.award_resource.style.description_width = "initial"
        self.award_amount.description = _t("amount", loc)
        self.award_button.description = _t("award", loc)
        self.award_button.tooltip = _t("award_tip", loc)

    # -- language ----------------------------------------------------------------------------------
    def _toggle_words(self) -> dict[str, str]:
        loc = self.ctx.locale
        key = "hide" if self.opened else "show"
        return {"description": _t(key, loc), "tooltip": _t(f"{key}_tip", loc)}

    def _label_toggle(self) -> None:
        if self._toggle is None:
            return
        words = self._toggle_words()
        with self._toggle.hold_sync():  # one message
            self._toggle.description = words["description"]
            self._toggle.tooltip = words["tooltip"]

    def _label_controls(self) -> None:
        loc = self.ctx.locale
        spec = self.spec(self.selected)
        for ctrl in self.controls.values():
            label_control(ctrl, loc, [], 1)
            if spec is not None and (ctrl.spec.gm_only or ctrl.name in spec.gm_options):
                ctrl.widget.description += f" ({_t('gm_set', loc, gm=term_of(self.system, 'gm', loc))})"
            if isinstance(ctrl.widget, widgets.Dropdown):
                relabel_dropdown(ctrl, loc)

    def relabel(self) -> None:
        """Every word in the sheet's language (``ctx.locale``)."""
        loc = self.ctx.locale
        if self._title is not None:
            self._title.value = f"<h3>{esc(_t('title', loc))}</h3>"
        self._label_toggle()
        if self.built:
            self._label_controls()
            self.render()


__all__ = ["AdvancePanel", "has_advancement", "outcome_text", "refusal_text"]
