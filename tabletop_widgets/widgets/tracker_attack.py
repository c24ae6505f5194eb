"""The tracker's Attack panel: the selected combatant attacks another by the system's rules.

Pick the target (the other combatants this audience sees), the attack (``system.attacks``) and
its options (the dice tray's option controls, :mod:`.tray_controls`); BEFORE anything is rolled
the panel shows the exact chance to hit, a small chart of the damage the target takes (one bar
per amount) and the chance to take the target out of the fight, all from
``CombatTracker.attack_odds``, redrawn as the target, the attack or an option changes. The
**Attack** button asks the tracker (``CombatTracker.attack_selected``), which checks the request
as if the browser were hostile (:func:`check_attack`) and hands it to
``CombatTracker.perform_attack``: the Combat rolls, applies and logs it.

The panel is a view: the odds and the outcome are the system's, who may attack whom is the
tracker's ``can("attack")``, what this audience sees is the combat's audience projection.
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Any, Mapping

import ipywidgets as widgets

from tabletop_widgets.core.attacks import AttackOdds, AttackSpec, find_attack
from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.problems import RuleError

from .base import close_tree, text_lookup
from .tray_controls import OptionControl, label_control, option_key, option_rows, option_widget
from .tray_text import error_text, percent_text

#: The most bars the damage chart draws; rarer, larger amounts share the last bar ("9+").
MAX_BARS = 14

#: Every user-facing string of the Attack panel, in English and Russian.
TEXTS: dict[str, dict[str, str]] = {
    "section": {"en": "Attack", "ru": "Атака"},
    "target": {"en": "Target", "ru": "Цель"},
    "target_tip": {
        "en": "Whom to attack (the other combatants you can see)",
        "ru": "Кого атаковать (другие участники, которых вы видите)",
    },
    "attack": {"en": "Attack", "ru": "Атака"},
    "attack_tip": {
        "en": "How to attack: the weapons and kinds of attack the rules allow now",
        "ru": "Чем и как атаковать: оружие и виды атак, которые сейчас позволяют правила",
    },
    "go": {"en": "Attack", "ru": "Атаковать"},
    "go_tip": {
        "en": "Roll the attack, apply it by the rules and write it in the log",
        "ru": "Бросить атаку, применить по правилам и записать в журнал",
    },
    "to_hit": {"en": "Chance to hit", "ru": "Шанс попасть"},
    "mean": {"en": "Average damage", "ru": "Средний урон"},
    "defeat": {"en": "Target out of the fight", "ru": "Цель выбывает из боя"},
    "defeat_tip": {
        "en": "The chance that {name} is out of the fight after this attack",
        "ru": "Шанс, что после этой атаки {name} выбывает из боя",
    },
    "chart": {"en": "Damage the target takes", "ru": "Урон, который получит цель"},
    "chart_zero": {
        "en": "0: a miss, or nothing gets through",
        "ru": "0 — промах или урон не прошёл",
    },
    "bar_tip": {"en": "{value} damage: {percent} ({fraction})", "ru": "Урон {value}: {percent} ({fraction})"},
    "tail": {"en": "{value} or more", "ru": "{value} и больше"},
    "cut_off": {
        "en": "Not drawn: {percent} of very long rolls",
        "ru": "Не показано: {percent} очень длинных бросков",
    },
    "no_targets": {
        "en": "No one else in the fight to attack.",
        "ru": "В бою больше некого атаковать.",
    },
    "no_attacks": {
        "en": "By these rules {name} has no attack on this target now.",
        "ru": "По этим правилам у персонажа {name} сейчас нет атаки на эту цель.",
    },
    "out": {
        "en": "{name} is out of the fight and cannot attack.",
        "ru": "{name} выбывает из боя и не может атаковать.",
    },
    "no_odds": {"en": "No odds: {why}", "ru": "Шансы не посчитать: {why}"},
    "rules_no_odds": {
        "en": "these rules do not give the odds of this attack.",
        "ru": "эти правила не дают шансов для этой атаки.",
    },
    "unknown_attacker": {
        "en": "Select a combatant you can see to attack with.",
        "ru": "Выберите участника, которого вы видите, — он и будет атаковать.",
    },
    "unknown_target": {
        "en": "There is no such target among the combatants you can see.",
        "ru": "Такой цели нет среди участников, которых вы видите.",
    },
    "bad_options": {
        "en": "An attack's options are names with values.",
        "ru": "Параметры атаки — это названия со значениями.",
    },
    "not_your_option": {
        "en": "{attack}: {option} is not yours to choose here.",
        "ru": "«{attack}»: параметр «{option}» здесь выбираете не вы.",
    },
}

_t = text_lookup(TEXTS)


def _both(key: str, **fmt: Any) -> dict[str, str]:
    return {
        loc: _t(key, loc, **{k: (tr(v, loc) if isinstance(v, Mapping) else v) for k, v in fmt.items()})
        for loc in ("en", "ru")
    }


# ----------------------------------------------------------------------------------------------
# The check of an attack request (what a forged widget message or a table message could send)
# ----------------------------------------------------------------------------------------------
def check_attack(
    tracker: Any, attacker_id: Any, target_id: Any, attack_id: Any, options: Any
) -> tuple[str, str, str, dict[str, Any]]:
    """``(attacker_id, target_id, attack_id, options)`` when ``tracker``'s audience may ask for
    this attack: both combatants are ones it sees, the attack is one the system offers now, and
    every option is one the panel offers (``tracker.attack_option_specs``: at a table a
    defender's choice is not the attacker's). Otherwise a ``RuleError`` a player can read. The
    option VALUES are checked by the system (``GameSystem.attack_spec``) when the attack is made."""
    combat = tracker.combat
    seen = {c.id for c in combat.combatants(audience=tracker.audience)}
    if not isinstance(attacker_id, str) or attacker_id not in seen:
        raise RuleError("unknown_attacker", _both("unknown_attacker"))
    if not isinstance(target_id, str) or target_id not in seen:
        raise RuleError("unknown_target", _both("unknown_target"))
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise RuleError("bad_options", _both("bad_options"))
    attacker, target = combat.character(attacker_id), combat.character(target_id)
    spec = find_attack(
        tracker.system.attacks(attacker, target),
        attack_id,
        attacker=combat.name(attacker_id),
        target=combat.name(target_id),
    )
    offered = {o.name: o for o in tracker.attack_option_specs(spec, attacker_id, target_id)}
    for name in options:
        if name not in offered:
            label = spec.option(name).label if name in {o.name for o in spec.options} else {"en": name, "ru": name}
            raise RuleError("not_your_option", _both("not_your_option", attack=spec.label, option=label), option=name)
    return attacker_id, target_id, spec.id, dict(options)


# ----------------------------------------------------------------------------------------------
# What the panel draws (plain HTML from the odds)
# ----------------------------------------------------------------------------------------------
def fraction_text(p: Fraction) -> str:
    """An exact chance as a fraction (``5/12``; ``0`` and ``1`` as themselves)."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def _short_percent(p: Fraction) -> str:
    """A bar's label: whole percents (``<1%`` for a small chance that is not nothing)."""
    v = float(p) * 100
    if 0 < v < 0.5:
        return "<1%"
    if 99.5 <= v < 100:
        return ">99%"
    return f"{v:.0f}%"


def chart_bars(damage: Any, max_bars: int = MAX_BARS) -> list[tuple[str, int, int | None, Fraction]]:
    """The damage chart's bars: ``(label, low, high, chance)`` in order, one per amount the
    target can take; when there are more than ``max_bars`` amounts, the largest share the last
    bar (``high`` None: "that much or more")."""
    items = [(int(k), Fraction(p)) for k, p in damage.items() if p]
    if len(items) <= max_bars:
        return [(str(k), k, k, p) for k, p in items]
    head, tail = items[: max_bars - 1], items[max_bars - 1 :]
    rest = sum((p for _, p in tail), Fraction(0))
    low = tail[0][0]
    return [(str(k), k, k, p) for k, p in head] + [(f"{low}+", low, None, rest)]


def chart_html(damage: Any, locale: str) -> str:
    """The damage chart: a bar per amount, its height the amount's chance against the likeliest,
    its percent above it, the amount under it; the exact fraction in each bar's tooltip."""
    bars = chart_bars(damage)
    if not bars:
        return ""
    top = max(p for *_rest, p in bars)
    cols = []
    spoken = []
    for label, low, high, p in bars:
        value = label if high is not None else _t("tail", locale, value=low)
        tip = _t("bar_tip", locale, value=value, percent=percent_text(p), fraction=fraction_text(p))
        height = 0 if not top else max(3.0, float(p / top) * 100)
        zero = " tt-dmg-zero" if high == 0 else ""
        cols.append(
            f'<div class="tt-dmg-col{zero}" title="{html.escape(tip, quote=True)}" '
            f'data-damage="{html.escape(label)}" data-fraction="{fraction_text(p)}">'
            f'<span class="tt-dmg-p">{_short_percent(p)}</span>'
            f'<span class="tt-dmg-track"><span class="tt-dmg-bar" style="height:{height:.1f}%"></span></span>'
            f'<span class="tt-dmg-v">{html.escape(label)}</span></div>'
        )
        spoken.append(f"{value}: {percent_text(p)}")
    caption = html.escape(_t("chart", locale))
    zero_note = f' <span class="tt-dmg-note">· {html.escape(_t("chart_zero", locale))}</span>' if 0 in damage else ""
    cut = getattr(damage, "truncated_mass", 0)
    cut_note = (
        f'<div class="tt-dmg-note">{html.escape(_t("cut_off", locale, percent=percent_text(Fraction(cut))))}</div>'
        if cut
        else ""
    )
    aria = html.escape(f"{_t('chart', locale)}: " + "; ".join(spoken), quote=True)
    return (
        f'<div class="tt-dmg"><div class="tt-dmg-caption">{caption}{zero_note}</div>'
        f'<div class="tt-dmg-chart" role="img" aria-label="{aria}">{"".join(cols)}</div>{cut_note}</div>'
    )


def _level(p: Fraction) -> str:
    return "tt-hi" if p >= Fraction(2, 3) else ("tt-mid" if p >= Fraction(1, 3) else "tt-lo")


def odds_html(odds: AttackOdds, target_name: str, locale: str) -> str:
    """The figures before the roll: the chance to hit, the average damage and (when the system
    can say) the chance to take the target out, each with its exact fraction in the tooltip."""
    p_hit = Fraction(odds.p_hit)
    stats = [
        (
            "tt-odds-hit",
            _t("to_hit", locale),
            percent_text(p_hit),
            f"{_t('to_hit', locale)}: {fraction_text(p_hit)}",
            _level(p_hit),
        )
    ]
    damage = odds.damage
    if len(damage):
        mean = damage.mean if hasattr(damage, "mean") else sum(k * p for k, p in damage.items())
        stats.append(("tt-odds-mean", _t("mean", locale), f"{float(mean):.1f}", f"{_t('mean', locale)}: {mean}", ""))
    if odds.p_defeat is not None:
        p_out = Fraction(odds.p_defeat)
        stats.append(
            (
                "tt-odds-defeat",
                _t("defeat", locale),
                percent_text(p_out),
                _t("defeat_tip", locale, name=target_name) + f": {fraction_text(p_out)}",
                "",
            )
        )
    cells = []
    for cls, label, value, tip, level in stats:
        cells.append(
            f'<div class="tt-odds-stat {cls} {level}" title="{html.escape(tip, quote=True)}">'
            f'<span class="tt-odds-label">{html.escape(label)}</span>'
            f'<span class="tt-odds-value">{html.escape(value)}</span></div>'
        )
    notes = "".join(f"<li>{html.escape(tr(n, locale))}</li>" for n in odds.notes or ())
    notes_html = f'<ul class="tt-odds-notes">{notes}</ul>' if notes else ""
    return f'<div class="tt-odds" aria-live="polite">{"".join(cells)}</div>{notes_html}'


# ----------------------------------------------------------------------------------------------
# The panel
# ----------------------------------------------------------------------------------------------
class AttackPanel:
    """The Attack part of a :class:`~tabletop_widgets.widgets.tracker.CombatTracker`'s panel for
    the selected combatant (made when first opened). ``box`` is what the tracker shows;
    ``target``, ``choice``, ``options_box``, ``odds``, ``chart`` and ``go`` are its controls
    (CSS classes ``tt-attack-target``, ``tt-attack-choice``, ``tt-attack-options``,
    ``tt-attack-odds``, ``tt-attack-chart``, ``tt-attack-go``)."""

    def __init__(self, tracker: Any):
        self.tracker = tracker
        initial = {"description_width": "initial"}
        self.target = widgets.Dropdown(
            style=initial, layout=widgets.Layout(width="auto", min_width="200px"), _dom_classes=("tt-attack-target",)
        )
        self.choice = widgets.Dropdown(
            style=initial, layout=widgets.Layout(width="auto", min_width="240px"), _dom_classes=("tt-attack-choice",)
        )
        picks = widgets.HBox([self.target, self.choice], _dom_classes=("tt-attack-picks",))
        self.options_box = widgets.VBox(_dom_classes=("tt-attack-options",))
        self.note = widgets.HTML(_dom_classes=("tt-attack-note",))
        self.odds = widgets.HTML(_dom_classes=("tt-attack-odds",))
        self.chart = widgets.HTML(_dom_classes=("tt-attack-chart",))
        self.go = widgets.Button(button_style="danger", _dom_classes=("tt-attack-go",))
        self.go.on_click(lambda _b: tracker.attack_selected())
        figures = widgets.HBox([self.odds, self.chart], _dom_classes=("tt-attack-figures",))
        self.figures = figures
        self.box = widgets.VBox(
            [picks, self.options_box, self.note, figures, self.go], _dom_classes=("tt-attack-panel",)
        )
        self.controls: dict[str, OptionControl] = {}
        self.values: dict[tuple, Any] = {}  # each option's value, kept across attacks and targets
        self.controls_for: tuple | None = None
        self.syncing = False  # the panel's own changes to its dropdowns are not a player's
        self.odds_cache: dict[tuple, Any] = {}
        self.version = 0  # bumped when a character changes outside the combat's events
        self.target.observe(self.on_pick, names="value")
        self.choice.observe(self.on_pick, names="value")

    # -- what the player picked -----------------------------------------------------------------
    def on_pick(self, _change: Any) -> None:
        if not self.syncing:
            self.render()

    def on_control(self, ctrl: OptionControl, change: Mapping[str, Any]) -> None:
        try:
            ctrl.accept(ctrl.coerce(change["new"]))
        except (TypeError, ValueError):
            ctrl.refuse()
        self.values[ctrl.key] = ctrl.value
        self.render_odds()

    def request(self) -> tuple[Any, Any, Any, dict[str, Any]]:
        """What the controls ask for now: ``(attacker, target, attack id, options)``; an option
        whose text is not a value raises its bilingual error."""
        for ctrl in self.controls.values():
            if ctrl.error is not None:
                message = getattr(ctrl.error, "bilingual", None) or {"en": str(ctrl.error), "ru": str(ctrl.error)}
                raise RuleError("bad_option", message, option=ctrl.name)
        options = {name: ctrl.value for name, ctrl in self.controls.items()}
        return self.tracker.selected, self.target.value, self.choice.value, options

    def changed(self) -> None:
        """A character changed outside the combat's events (a sheet edit): the odds are redrawn."""
        self.version += 1
        self.odds_cache.clear()
        self.render()

    # -- drawing ------------------------------------------------------------------------------------
    def render(self) -> None:
        t = self.tracker
        loc = t.locale
        with self.target.hold_sync(), self.choice.hold_sync(), self.go.hold_sync():
            self.target.description = _t("target", loc)
            self.target.tooltip = _t("target_tip", loc)
            self.choice.description = _t("attack", loc)
            self.choice.tooltip = _t("attack_tip", loc)
            self.go.description = _t("go", loc)
            self.go.tooltip = _t("go_tip", loc)
            attacker = t.selected
            targets = t.attack_targets(attacker) if attacker else []
            self._set_options(self.target, [(t.combat.name(c), c) for c in targets], self._first_target(targets))
            spec = None
            if targets:
                specs = t.attacks_on(attacker, self.target.value)
                self._set_options(self.choice, [(tr(s.label, loc), s.id) for s in specs], None)
                spec = next((s for s in specs if s.id == self.choice.value), None)
            else:
                self._set_options(self.choice, [], None)
        self._render_controls(spec)
        if not targets:
            return self._show(note=_t("no_targets", loc))
        if spec is None:
            return self._show(note=_t("no_attacks", loc, name=t.combat.name(attacker)))
        out = t.combat.is_defeated(attacker)
        self._show(note=_t("out", loc, name=t.combat.name(attacker)) if out else "", figures=True)
        self.go.disabled = out
        self.render_odds()

    def _first_target(self, targets: list[str]) -> str | None:
        """The target a fresh pick starts at: the first one still in the fight."""
        combat = self.tracker.combat
        return next((c for c in targets if not combat.is_defeated(c)), targets[0] if targets else None)

    def _set_options(self, dropdown: widgets.Dropdown, options: list[tuple[str, Any]], start: Any) -> None:
        """Give ``dropdown`` these options, keeping its value when still offered."""
        values = [v for _, v in options]
        keep = dropdown.value
        self.syncing = True
        try:
            if list(dropdown.options) != options:
                dropdown.options = options
            if not values:
                return
            value = keep if keep in values else (start if start in values else values[0])
            if dropdown.value != value:
                dropdown.value = value
        finally:
            self.syncing = False

    def _show(self, *, note: str = "", figures: bool = False) -> None:
        self.note.value = f'<div class="tt-attack-says">{html.escape(note)}</div>' if note else ""
        self.note.layout.display = "" if note else "none"
        self.figures.layout.display = "" if figures else "none"
        self.go.layout.display = "" if figures else "none"
        self.options_box.layout.display = "" if figures and self.controls else "none"

    def _render_controls(self, spec: AttackSpec | None) -> None:
        """One control per option the panel offers for ``spec`` (the tray's controls), made anew
        when the options or the language change; each keeps the value chosen before."""
        t = self.tracker
        loc = t.locale
        specs = []
        if spec is not None:
            specs = [
                o
                for o in t.attack_option_specs(spec, t.selected, self.target.value)
                if not (o.kind == "choice" and len(o.choices) <= 1)  # a single choice is no choice
            ]
        sig = (loc, spec.id if spec else None, tuple(option_key(o) + (o.min, o.max, o.default) for o in specs))
        if sig == self.controls_for:
            return
        for old in self.options_box.children:
            close_tree(old)
        self.controls = {}
        for o in specs:
            key = option_key(o)
            ctrl = OptionControl(key, o, [spec.id], shared=False)
            ctrl.value = self.values.get(key, o.default)
            w = option_widget(ctrl, loc)
            ctrl.widget = w
            label_control(ctrl, loc, [], 1)
            w.add_class("tt-attack-option")
            w.observe(lambda change, c=ctrl: self.on_control(c, change), names="value")
            self.controls[o.name] = ctrl
        self.options_box.children = option_rows(list(self.controls.values()))
        self.controls_for = sig

    def render_odds(self) -> None:
        """The odds of what the controls ask for now (or why there are none)."""
        t = self.tracker
        loc = t.locale
        attacker, target, attack_id = t.selected, self.target.value, self.choice.value
        if not (attacker and target and attack_id):
            return
        errors = [c.error for c in self.controls.values() if c.error is not None]
        if errors:
            self.odds.value = self._no_odds(errors[0], loc)
            self.chart.value = ""
            return
        options = {name: c.value for name, c in self.controls.items()}
        key = (attacker, target, attack_id, tuple(sorted((k, repr(v)) for k, v in options.items())))
        key += (len(t.combat.events), self.version)
        hit = self.odds_cache.get(key)
        if hit is None:
            try:
                hit = (t.attack_odds(attacker, target, attack_id, options), None)
            except NotImplementedError:
                hit = (None, RuleError("no_odds", _both("rules_no_odds")))
            except (RuleError, ValueError, KeyError, TypeError, ArithmeticError) as exc:
                hit = (None, exc)
            self.odds_cache.clear()  # the odds of what is shown now only
            self.odds_cache[key] = hit
        odds, err = hit
        if odds is None:
            self.odds.value = self._no_odds(err, loc)
            self.chart.value = ""
            return
        self.odds.value = odds_html(odds, t.combat.name(target), loc)
        self.chart.value = chart_html(odds.damage, loc)

    @staticmethod
    def _no_odds(err: BaseException, loc: str) -> str:
        bilingual = getattr(err, "bilingual", None)
        why = tr(bilingual, loc) if bilingual else error_text(err, loc)
        return f'<div class="tt-odds tt-odds-none" role="status">{html.escape(_t("no_odds", loc, why=why))}</div>'


__all__ = ["AttackPanel", "MAX_BARS", "TEXTS", "chart_bars", "chart_html", "check_attack", "odds_html"]
