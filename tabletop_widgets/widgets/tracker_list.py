"""The combat tracker's list: one :class:`CombatantRow` a combatant, in turn order (see
:class:`~tabletop_widgets.widgets.tracker.CombatTracker`). A row is updated in place, never
rebuilt; its buttons ask the tracker, which checks ``can(action)`` first."""

from __future__ import annotations

import html
import re
from typing import Any

import ipywidgets as widgets

from tabletop_widgets.core.i18n import count, tr
from tabletop_widgets.core.system import term_of

from .base import text_lookup
from .sheet_context import shared_layout, vbox
from .tracker_parts import assign, batched, button, html_view, toggle_button
from .tracker_text import TEXTS

_t = text_lookup(TEXTS)


def hp_class(cur: int, mx: int, defeated: bool) -> str:
    """The CSS class of a health bar: out, ok (above half), hurt (above a quarter) or low."""
    if defeated:
        return "tt-hp-out"
    if mx <= 0 or cur * 2 > mx:
        return "tt-hp-ok"
    if cur * 4 > mx:
        return "tt-hp-hurt"
    return "tt-hp-low"


class CombatantRow:
    """The widgets of one combatant's line (updated in place, never rebuilt). Each is made with
    what it shows (:meth:`state`): a new row costs the page its models and no update after them;
    an update sends only what changed. The pieces that never hide share one frozen layout and one
    style per kind (:func:`.tracker_parts.shared_layout`)."""

    def __init__(self, tracker: Any, cid: str, place: int = 1):
        self.cid = cid
        s = self.state(tracker, place)
        self.marker = html_view("tt-turn-marker", **s["marker"])
        self.select = button("tt-select", lambda: tracker.select(cid), **s["select"])
        self.init = html_view("tt-init", **s["init"])
        self.hp = html_view("tt-hp", **s["hp"])
        self.tags = html_view("tt-row-conditions", **s["tags"])
        self.act_now = button(
            "tt-act-now",
            lambda: tracker.act_now(cid),
            layout=widgets.Layout(display=s["act_now_display"]),
            **s["act_now"],
        )
        self.defeated = toggle_button(("tt-row-toggle", "tt-defeated-toggle"), **s["defeated"])
        self.hidden = toggle_button(
            ("tt-row-toggle", "tt-hidden-toggle"), layout=widgets.Layout(display=s["hidden_display"]), **s["hidden"]
        )
        self.box = widgets.HBox(
            [self.marker, self.select, self.init, self.hp, self.tags, self.act_now, self.defeated, self.hidden],
            layout=shared_layout(),
            _dom_classes=self._classes(["tt-combatant", f"tt-id-{re.sub(r'[^A-Za-z0-9_-]', '_', cid)}"], s["flags"]),
        )
        self._updating = False
        self.defeated.observe(
            lambda ch: None if self._updating else tracker.set_defeated(cid, ch["new"]), names="value"
        )
        self.hidden.observe(lambda ch: None if self._updating else tracker.set_hidden(cid, ch["new"]), names="value")

    @staticmethod
    def _classes(classes: list[str], flags: tuple) -> list[str]:
        names = dict(flags)
        return [k for k in classes if k not in names] + [k for k, on in flags if on]

    def update(self, tracker: Any, place: int) -> None:
        s = self.state(tracker, place)
        parts = (self.marker, self.select, self.init, self.hp, self.tags, self.act_now, self.defeated, self.hidden)
        with batched(self.box, *parts, self.act_now.layout, self.hidden.layout):
            classes = self._classes(list(self.box._dom_classes), s["flags"])
            if list(self.box._dom_classes) != classes:
                self.box._dom_classes = classes  # one message: no flicker of two highlighted rows
            for name in ("marker", "select", "init", "hp", "tags", "act_now"):
                assign(getattr(self, name), s[name])
            self.act_now.layout.display = s["act_now_display"]
            self._updating = True
            try:
                assign(self.defeated, s["defeated"])
                assign(self.hidden, s["hidden"])
            finally:
                self._updating = False
            self.hidden.layout.display = s["hidden_display"]

    def state(self, tracker: Any, place: int) -> dict[str, Any]:
        """What the row shows now: each widget's traits by its name, the displays of the two
        that hide, and the row's flags (``(class, on)``)."""
        loc = tracker.locale
        combat = tracker.combat
        c = combat.combatant(self.cid)
        current = combat.current == self.cid
        s: dict[str, Any] = {
            "flags": (
                ("tt-current", current),
                ("tt-is-defeated", c.defeated),
                ("tt-is-hidden", c.hidden),
                ("tt-is-delayed", c.delayed),
                ("tt-is-selected", tracker.selected == self.cid),
            )
        }
        s["marker"] = {
            "value": "▶" if current else f'<span class="tt-place">{place}</span>',
            "tooltip": term_of(tracker.system, "turn", loc) if current else f"{_t('place', loc)} {place}",
        }
        # a seat that cannot act on combatants (a player) is not told to select one for that
        s["select"] = {
            "description": c.name,
            "tooltip": f"{c.name}: {_t('select_tip', loc)}" if tracker.can("damage") else c.name,
        }
        if c.initiative:
            text = tracker.names_in(tr(c.initiative.get("text"), loc))
            roll = c.initiative.get("roll") or {}
            detail = tr({k: v for k, v in roll.items() if k in ("en", "ru")}, loc) if roll else ""
            title = html.escape(f"{text} — {detail}" if detail and detail != text else text, quote=True)
            init = f'<span class="tt-init-box" title="{title}">{html.escape(text)}</span>'
        else:
            init = f'<span class="tt-init-box">{_t("init_none", loc)}</span>'
        s["init"] = {"value": init}
        cur, mx = c.health
        frac = 0 if mx <= 0 else max(0.0, min(1.0, cur / mx))
        label = html.escape(f"{cur} / {mx}")
        s["hp"] = {
            "value": (
                f'<div class="tt-hp-bar" role="meter" aria-label="{_t("health", loc)}" '
                f'aria-valuenow="{cur}" aria-valuemin="0" aria-valuemax="{mx}" title="{_t("health", loc)} {label}">'
                f'<div class="tt-hp-fill {hp_class(cur, mx, c.defeated)}" style="width:{frac * 100:.0f}%"></div>'
                f'<div class="tt-hp-text">{label}</div></div>'
            )
        }
        chips = []
        if c.delayed:
            chips.append(f'<span class="tt-chip tt-tag-delayed">{_t("delayed", loc)}</span>')
        if c.skip_until and combat.round <= c.skip_until:
            tip = html.escape(_t("sits_out_tip", loc).format(last=c.skip_until), quote=True)
            chips.append(
                f'<span class="tt-chip tt-tag-skip" title="{tip}">'
                f"{html.escape(_t('sits_out', loc).format(n=c.skip_until + 1))}</span>"
            )
        for inst in c.conditions:
            label = html.escape(tracker.condition_label(inst["id"]))
            left = f" · {count(inst['remaining'], 'turn', loc)}" if inst["remaining"] is not None else ""
            effect = html.escape(tracker.condition_effect(inst["id"]), quote=True)
            chips.append(f'<span class="tt-chip tt-condition" title="{label}{left}: {effect}">{label}{left}</span>')
        s["tags"] = {"value": "".join(chips)}
        s["act_now"] = {"description": _t("act_now", loc), "tooltip": _t("act_now_tip", loc)}
        s["act_now_display"] = "" if c.delayed and combat.started else "none"
        s["defeated"] = {"value": c.defeated, "description": _t("defeated", loc), "tooltip": _t("defeated_tip", loc)}
        s["hidden"] = {"value": c.hidden, "description": _t("hidden", loc), "tooltip": _t("hidden_tip", loc)}
        s["hidden_display"] = "" if tracker.audience == "gm" else "none"
        return s


class CombatantList:
    """The list of combatants this audience sees, in turn order (``rows`` by combatant id), with
    the tie-break notes above it and a note while it is empty."""

    def __init__(self, tracker: Any):
        self.tracker = tracker
        self.rows: dict[str, CombatantRow] = {}
        self.tiebreak_view = html_view("tt-tiebreaks", layout=widgets.Layout(display="none"))
        self.list_box = vbox(classes=("tt-combatants",))
        self.empty_note = html_view("tt-empty", layout=widgets.Layout())

    def render_rows(self) -> None:
        t = self.tracker
        combat = t.combat
        for cid in list(self.rows):
            if cid not in combat:
                del self.rows[cid]
        shown = [c.id for c in combat.combatants(audience=t.audience)]
        boxes = []
        places = {cid: place for place, cid in enumerate(shown, 1)}
        new = set()
        for cid in shown:
            if cid not in self.rows:
                self.rows[cid] = CombatantRow(t, cid, places[cid])  # made as it is: no update
                new.add(cid)
            boxes.append(self.rows[cid].box)
        # the row losing the highlight first, so that the page never shows two current rows
        for cid in sorted(shown, key=lambda i: i == combat.current):
            if cid not in new:
                self.rows[cid].update(t, places[cid])
        if [id(b) for b in self.list_box.children] != [id(b) for b in boxes]:
            self.list_box.children = boxes
        empty = "empty" if t.can("add") else "empty_watch"  # written for the seat that reads it
        text = _t(empty, t.locale).replace("{gm}", term_of(t.system, "gm", t.locale))
        self.empty_note.value = "" if shown else f"<i>{html.escape(text)}</i>"
        self.empty_note.layout.display = "none" if shown else ""

    def render_tiebreaks(self) -> None:
        t = self.tracker
        tiebreaks = t.visible_tiebreaks()
        self.tiebreak_view.layout.display = "" if tiebreaks else "none"
        if tiebreaks:
            items = "".join(f"<li>{html.escape(t.tiebreak_text(note))}</li>" for note in tiebreaks)
            self.tiebreak_view.value = f"<b>{_t('tiebreaks', t.locale)}:</b><ul>{items}</ul>"
        else:
            self.tiebreak_view.value = ""
