"""The tracker's Attack part, the one panel for attacks alone in a notebook and at a table.

:class:`AttackPanel`: the selected combatant attacks another by the system's rules. Pick the
target (the other combatants this seat sees), the attack and its options (the dice tray's option
controls, :mod:`.tray_controls`); BEFORE anything is rolled the panel shows the exact chance to
hit, a small chart of the damage the target takes (one bar per amount) and the chance to take the
target out of the fight, all from the tracker's play (:mod:`tabletop_widgets.core.play`), redrawn
as the target, the attack or an option changes. An attack the rules list but cannot make now (an
empty gun) is listed with why. The **Attack** button asks the tracker
(``CombatTracker.attack_selected``), which has the play check the request as if the browser were
hostile and make it.

:class:`AttackDesk`: what waits on others, under the tracker's status line: what this seat's
attack waits for ("Waiting for Boris to choose a defence") or what came of it, and the defender's
questions this seat may answer (the defender's choices, each with the attacker's chance to hit
against it, and an **Answer** button; a GM's page answers for an absent player or an NPC).

Both are views: the odds and the outcome are the system's, who may attack whom is the play's.
"""

from __future__ import annotations

import html
from fractions import Fraction
from typing import Any, Mapping

import ipywidgets as widgets

from tabletop_widgets.core.attacks import AttackOdds, AttackSpec
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
    "go_waiting": {"en": "Attack sent…", "ru": "Атака отправлена…"},
    "go_waiting_tip": {
        "en": "Your attack is on its way: the button works again once it is rolled",
        "ru": "Ваша атака в пути: кнопка снова заработает, когда её бросят",
    },
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
}

_t = text_lookup(TEXTS)


def _both(key: str, **fmt: Any) -> dict[str, str]:
    return {
        loc: _t(key, loc, **{k: (tr(v, loc) if isinstance(v, Mapping) else v) for k, v in fmt.items()})
        for loc in ("en", "ru")
    }


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
            waiting = self.waiting()
            self.go.description = _t("go_waiting" if waiting else "go", loc)
            self.go.tooltip = _t("go_waiting_tip" if waiting else "go_tip", loc)
            attacker = t.selected
            targets = t.play.attack_targets(t.combat, attacker) if attacker else []
            self._set_options(self.target, self._target_options(targets), self._first_target(targets))
            spec, waiting = None, None
            if targets:
                try:
                    specs = t.play.attacks_on(t.combat, attacker, self.target.value)
                except RuleError as exc:  # a table still working them out: it says so
                    specs, waiting = [], exc
                usable = next((x.id for x in specs if not x.unavailable), None)
                self._set_options(self.choice, [(self._attack_label(x, loc), x.id) for x in specs], usable)
                spec = next((x for x in specs if x.id == self.choice.value), None)
            else:
                self._set_options(self.choice, [], None)
        self._render_controls(spec if spec is None or not spec.unavailable else None)
        if not targets:
            return self._show(note=_t("no_targets", loc))
        if waiting is not None:
            return self._show(note=waiting.text(loc))
        if spec is None:
            return self._show(note=_t("no_attacks", loc, name=t.combat.name(attacker)))
        if spec.unavailable:  # listed, with why, never dropped: the player sees what to do
            why = tr(spec.unavailable, loc)
            self.odds.value = f'<div class="tt-odds tt-odds-unavailable">{html.escape(why)}</div>'  # no stale odds
            return self._show(note=why)
        out = t.combat.is_defeated(attacker)
        self._show(note=_t("out", loc, name=t.combat.name(attacker)) if out else "", figures=True)
        self.go.disabled = out or self.waiting()  # one attack at a time: a second press sends nothing
        self.render_odds()

    def waiting(self) -> bool:
        """Whether this seat's attack is sent and not rolled yet (the desk says what it waits
        for): the Attack button waits too."""
        news = getattr(self.tracker.attack_desk, "news", None)
        return bool(news is not None and news.pending)

    def _target_options(self, targets: list[str]) -> list[tuple[str, str]]:
        """The targets, each named as the play marks them (at a table: who plays each)."""
        t = self.tracker
        return [(t.play.target_label(t.combat, c, t.locale), c) for c in targets]

    @staticmethod
    def _attack_label(spec: AttackSpec, loc: str) -> str:
        label = tr(spec.label, loc)
        return f"{label} — {tr(spec.unavailable, loc)}" if spec.unavailable else label

    def _first_target(self, targets: list[str]) -> str | None:
        """The target a fresh pick starts at: the first one of the other side (a player's
        character starts on the GM's, the GM's on a player's) still in the fight, else the first
        one still in it."""
        t = self.tracker
        combat = t.combat
        standing = [c for c in targets if not combat.is_defeated(c)]
        mine = t.play.side(combat, t.selected) if t.selected else None
        foes = [c for c in standing if mine is not None and t.play.side(combat, c) not in (None, mine)]
        return (foes or standing or targets or [None])[0]

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
                for o in t.play.attack_option_specs(t.combat, spec, t.selected, self.target.value)
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


# ----------------------------------------------------------------------------------------------
# What waits on others: this seat's attack, and the defender's questions
# ----------------------------------------------------------------------------------------------
DESK_TEXTS: dict[str, dict[str, str]] = {
    "question": {
        "en": "{attacker} attacks {target}: {attack}. How does {target} defend?",
        "ru": "{attacker} атакует цель {target}: {attack}. Как защищается {target}?",
    },
    "answer": {"en": "Answer", "ru": "Ответить"},
    "answer_for": {"en": "Answer for {seat}", "ru": "Ответить за игрока {seat}"},
    "answer_tip": {
        "en": "Send this choice: the attack is rolled with the table's dice",
        "ru": "Отправить выбор: атака будет брошена кубиками стола",
    },
    "chance": {"en": "{choice}: hit {percent}", "ru": "{choice}: попадание {percent}"},
    "chances": {"en": "The attacker's chance to hit you", "ru": "Шанс атакующего попасть по вам"},
    "yes": {"en": "yes", "ru": "да"},
    "no": {"en": "no", "ru": "нет"},
}

_d = text_lookup(DESK_TEXTS)


class AttackDesk:
    """What waits on others, under the tracker's status line (class ``tt-table-attacks``):
    ``status`` (``tt-attack-status``) says what this seat's attack waits for or what came of it,
    ``questions_box`` (``tt-attack-questions``) holds the defender's questions this seat may
    answer (each ``tt-attack-question``: the choices, each one's chance, and **Answer**). It is
    drawn from the tracker's play (:meth:`render`), and hidden while it has nothing to say."""

    def __init__(self, tracker: Any):
        self.tracker = tracker
        self.status = widgets.HTML(layout=widgets.Layout(display="none"), _dom_classes=("tt-attack-status",))
        self.questions_box = widgets.VBox(_dom_classes=("tt-attack-questions",))
        self.box = widgets.VBox([self.status, self.questions_box], _dom_classes=("tt-table-attacks",))
        self.news = None
        self._shown_questions: tuple = ()
        self._told: set = set()
        self._waiting = False

    @property
    def play(self):
        return self.tracker.play

    def show(self, news) -> None:
        """Say ``news`` (what the play says of this seat's attack) in the status line."""
        self.news = news
        self.render_status()

    def render(self, force: bool = False) -> None:
        """Follow the play: the seat's attack as it stands, the questions open to it."""
        news = self.play.attack_news(self.tracker.combat)
        if news is not None and news.key not in self._told:
            self.news = news
            if not news.pending:
                self._told.add(news.key)
                self.play.seen(news)  # a refusal read: it goes
        elif news is None and self.news is not None and self.news.pending:
            self.news = None  # the wait is over and nothing to say of it here
        self.render_status()
        self.render_questions(force)

    def render_status(self) -> None:
        news = self.news
        waiting = bool(news is not None and news.pending)
        if waiting != self._waiting:  # the Attack button follows: waiting, or free again
            self._waiting = waiting
            if "attack" in self.tracker.built_parts():
                self.tracker.attack_panel.render()
        if news is None:
            self.status.value = ""
            self.status.layout.display = "none"
            return
        cls = "tt-msg tt-error" if news.error else ("tt-msg tt-pending" if news.pending else "tt-msg")
        role = "alert" if news.error else "status"
        text = html.escape(tr(news.text, self.tracker.locale))
        busy = '<span class="tt-spinner" aria-hidden="true"></span>' if news.pending else ""
        self.status.value = f'<div class="{cls}" role="{role}" aria-live="polite">{busy}{text}</div>'
        self.status.layout.display = ""

    def render_questions(self, force: bool = False) -> None:
        qs = self.play.questions()
        key = (self.tracker.locale, tuple(q["request"] for q in qs))
        if key == self._shown_questions and not force:
            return
        self._shown_questions = key
        for old in self.questions_box.children:
            close_tree(old)
        self.questions_box.children = [self._question_widget(q) for q in qs]

    def _question_widget(self, q: Mapping[str, Any]) -> widgets.Widget:
        from tabletop_widgets.table import option_from_json

        loc = self.tracker.locale
        head = widgets.HTML(
            '<div class="tt-attack-asks">'
            + html.escape(
                _d(
                    "question",
                    loc,
                    attacker=tr(q.get("attacker_name") or {}, loc),
                    target=q.get("target_name", ""),
                    attack=tr(q.get("label") or {}, loc),
                )
            )
            + "</div>"
        )
        options = [option_from_json(o) for o in q.get("options") or ()]
        controls = {o.name: _defence_control(o, loc) for o in options}
        chances = widgets.HTML(_chances_html(q, options, loc), _dom_classes=("tt-attack-chances",))
        seat = q.get("seat")
        if self.play.audience == "gm" and seat not in (None, "gm"):
            text = _d("answer_for", loc, seat=q.get("seat_name") or seat)
        else:
            text = _d("answer", loc)
        button = widgets.Button(description=text, tooltip=_d("answer_tip", loc), button_style="primary")
        button.add_class("tt-attack-answer")
        button.on_click(lambda _b, r=q["request"], c=controls: self.answer(r, {k: w.value for k, w in c.items()}))
        box = widgets.VBox([head, widgets.HBox(list(controls.values())), chances, button])
        box.add_class("tt-attack-question")
        return box

    def answer(self, request: str, options: Mapping[str, Any]) -> None:
        """The **Answer** button (checked by the play: the seat asked, or the GM)."""
        try:
            news = self.play.answer(request, dict(options))
        except (ValueError, KeyError, PermissionError) as exc:
            from tabletop_widgets.core.play import AttackNews

            news = AttackNews({loc: error_text(exc, loc) for loc in ("en", "ru")}, error=True)
        if news is not None:
            self.show(news)
        self.render_questions(force=True)

    def relabel(self) -> None:
        self.render_status()
        self.render_questions(force=True)


def _chances_html(q: Mapping[str, Any], options, loc: str) -> str:
    """Each defender's choice with the attacker's chance to hit against it (the table worked them
    out with both sheets), when the question carries them."""
    chances = q.get("chances") or {}
    rows = []
    for o in options:
        for value, p in chances.get(o.name) or ():
            if o.kind == "choice":
                label = next((tr(lab, loc) for v, lab in o.choices if v == value), str(value))
                choice = f"{tr(o.label, loc)}: {label}"
            elif o.kind == "bool":
                choice = f"{tr(o.label, loc)}: {_d('yes' if value else 'no', loc)}"
            else:
                choice = f"{tr(o.label, loc)} {value}"
            rows.append(f"<li>{html.escape(_d('chance', loc, choice=choice, percent=percent_text(Fraction(p))))}</li>")
    if not rows:
        return ""
    return f'<div class="tt-attack-chances-title">{html.escape(_d("chances", loc))}</div><ul>{"".join(rows)}</ul>'


def _defence_control(o, loc: str) -> widgets.Widget:
    """The control of one of the defender's options, at its default."""
    label = tr(o.label, loc)
    if o.kind == "bool":
        w = widgets.Checkbox(value=bool(o.default), description=label, indent=False)
    elif o.kind == "choice":
        w = widgets.Dropdown(options=[(tr(lab, loc), v) for v, lab in o.choices], description=label)
        values = [v for v, _ in o.choices]
        if o.default in values:
            w.value = o.default
    elif o.kind == "int":
        w = widgets.BoundedIntText(
            value=int(o.default or 0),
            min=o.min if o.min is not None else -999,
            max=o.max if o.max is not None else 999,
            description=label,
        )
    else:
        w = widgets.Text(value=str(o.default or ""), description=label)
    w.style = {"description_width": "initial"}
    w.add_class("tt-attack-defence")
    return w


__all__ = ["AttackDesk", "AttackPanel", "DESK_TEXTS", "MAX_BARS", "TEXTS", "chart_bars", "chart_html", "odds_html"]
