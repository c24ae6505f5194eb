"""Attacks on a seat's table page: the tracker's Attack part wired to the table, and the
defender's questions (a view: the rules and every check are in :mod:`tabletop_widgets.table.attacks`).

* The GM's tracker attacks with anyone: the table's fair dice roll it (``TableCombat.attack``),
  or, when a player's character defends with a choice of their own (a dodge, a parry), that
  seat is asked first and the attack rolls when it answers.
* A player's tracker shows the Attack part on their own turn for their own character. Their
  kernel holds no NPC sheet, so the attacks offered and their odds come from the GM's page
  (``attack.ask`` / ``attack.offer`` through the log; a moment's wait, said so in the panel),
  and **Attack** sends the attack to the GM's page, which checks it again and rolls it.
* Each page shows the questions its seat is asked (``tt-attack-question``): the defender's
  choices and an **Answer** button; the GM's page shows every open one and may answer for an
  absent player. A line under the tracker (``tt-attack-status``) says what became of this
  seat's attack or answer.
"""

from __future__ import annotations

import html
import logging
from typing import Any, Mapping

import ipywidgets as widgets

from tabletop_widgets.core.i18n import T, tr
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import OptionSpec
from tabletop_widgets.table.attacks import (
    asked,
    book,
    odds_from_json,
    offer_for,
    option_from_json,
    questions,
    spec_from_json,
)

from .base import close_tree, text_lookup
from .sheet_context import html_widget, vbox

log = logging.getLogger(__name__)
#: how many rounds one serve() runs while events keep arriving during it (each round is safe
#: to repeat: the desk re-checks every step under the table's lock); the next event serves again
_SERVE_ROUNDS = 5

TEXTS: dict[str, dict[str, str]] = {
    "asking_attacks": {
        "en": "Asking the GM's page which attacks you have on this target…",
        "ru": "Спрашиваем у страницы ведущего, какие атаки у вас есть против этой цели…",
    },
    "asking_odds": {
        "en": "asking the GM's page for the odds…",
        "ru": "спрашиваем шансы у страницы ведущего…",
    },
    "sent": {
        "en": "Your attack is sent: the GM's page rolls it with the table's dice.",
        "ru": "Атака отправлена: страница ведущего бросит её кубиками стола.",
    },
    "waiting_defender": {
        "en": "{target} chooses how to defend; the attack rolls when they answer.",
        "ru": "{target} выбирает защиту; атака будет брошена после ответа.",
    },
    "refused": {"en": "Your attack was refused: {why}", "ru": "Атака отклонена: {why}"},
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
    "answered": {"en": "Your answer is sent.", "ru": "Ответ отправлен."},
    "questions_title": {"en": "Defend yourself", "ru": "Защита"},
    "not_yours": {
        "en": "You attack with your own character only, on its turn.",
        "ru": "Атаковать можно только своим персонажем и в его ход.",
    },
    "no_target": {"en": "There is no such target in the fight.", "ru": "Такой цели в бою нет."},
    "not_offered": {
        "en": "That attack is not one offered to you on this target.",
        "ru": "Такой атаки против этой цели вам не предлагали.",
    },
    "not_your_option": {
        "en": "The option {option!r} is not yours to choose.",
        "ru": "Параметр {option!r} выбираете не вы.",
    },
}

_t = text_lookup(TEXTS)


def _both(key: str, **fmt: Any) -> dict[str, str]:
    return {loc: _t(key, loc, **fmt) for loc in ("en", "ru")}


class TableAttacks:
    """The attack wiring of one :class:`~tabletop_widgets.widgets.table_view.TableView`:
    :meth:`install` sets the tracker's attack seam for the table; ``box`` (the status line and
    the questions) goes under the tracker; :meth:`on_events` follows the table."""

    def __init__(self, view: Any):
        self.view = view
        self.session = view.session
        self.is_gm = self.session.role == "gm"
        self.status = html_widget(classes=("tt-attack-status",), layout=widgets.Layout(display="none"))
        self.questions_box = vbox(classes=("tt-attack-questions",))
        self.box = vbox([self.status, self.questions_box], classes=("tt-table-attacks",))
        self.message: dict[str, str] | None = None
        self.message_error = False
        self._shown_questions: tuple = ()
        self._seen_results = {r.get("seq") for r in book(self.session.state)["results"]}
        self._turns_seen: set = set()
        self._serving = False
        self._serve_again = False

    @property
    def tracker(self):
        return getattr(self.view, "tracker", None)

    @property
    def locale(self) -> str:
        return self.view.locale

    # -- the tracker's seam ----------------------------------------------------------------------
    def install(self, tracker) -> None:
        """Set the tracker's attack methods for this table (again on a rebuilt GM tracker)."""
        tracker.attack_option_specs = self.option_specs
        tracker.perform_attack = self.perform
        if not self.is_gm:
            tracker.attacks_on = self.attacks_on
            tracker.attack_odds = self.odds
            tracker.check_attack = self.check
            tracker.observe(lambda _change: self.mark_turn(), names="selected")
            self.your_turn()  # a page opened during the player's turn
            self.mark_turn()

    def catch_up(self) -> None:
        """A GM's page that opens answers what the players asked while no GM's page followed
        the table (or before this one did): their asks and attacks wait for a GM's kernel."""
        if self.is_gm:
            self.serve()

    def may_attack(self) -> bool:
        """A player's tracker shows Attack on their own turn, for their own character."""
        t, s = self.tracker, self.session
        if t is None or s.character_id is None or not s.can("attack"):
            return False
        view = (s.state.combat or {}).get("state") or {}
        return t.selected == s.character_id and view.get("current") == s.character_id

    def mark_turn(self) -> None:
        """A player's tracker shows its panel (only the Attack part) while they may attack:
        the class ``tt-your-attack`` on the tracker says so to the page's style."""
        t = self.tracker
        if t is None or self.is_gm:
            return
        if self.may_attack():
            t.add_class("tt-your-attack")
        else:
            t.remove_class("tt-your-attack")

    def option_specs(self, spec, attacker_id: str, target_id: str) -> list:
        """The options the seat chooses: never the defender's when a player's seat defends
        (the GM chooses an NPC's defence in the panel), and a player never the defender's."""
        if self.is_gm and self.view.sync.attacks.owner_seat(target_id) is None:
            return list(spec.options)
        return [o for o in spec.options if o.name not in spec.defender_options]

    def _offer(self, attacker: str, target: str, attack: str | None, options: Mapping[str, Any]):
        """The GM page's answer for this, or None after asking for it (once)."""
        offer = offer_for(self.session.state, attacker, target, attack, options)
        if offer is None and not asked(self.session.state, attacker, target, attack, dict(options)):
            self.session.ask_attack(attacker, target, attack, dict(options))
        return offer

    def attacks_on(self, attacker_id: str, target_id: str) -> list:
        try:
            offer = self._offer(attacker_id, target_id, None, {})
        except Exception as exc:  # noqa: BLE001 - refused (too many asks at once...): said, no attacks
            self.say(_message(exc), error=True)
            return []
        if offer is None:
            self.say(_both("asking_attacks"))
            return []
        return [spec_from_json(s) for s in offer.get("attacks") or ()]

    def odds(self, attacker_id: str, target_id: str, attack_id: str, options: dict):
        offer = self._offer(attacker_id, target_id, attack_id, options)
        if offer is None:
            raise RuleError("odds_pending", _both("asking_odds"))
        if offer.get("error"):
            raise RuleError("no_odds", dict(offer["error"]))
        return odds_from_json(offer["odds"])

    def check(self, attacker_id, target_id, attack_id, options) -> tuple:
        """A player's request, checked as if the browser were hostile (the GM's page checks it
        again against the sheets): their character, a target they see, an attack offered to
        them, only options offered."""
        if attacker_id != self.session.character_id or not self.may_attack():
            raise RuleError("not_yours", _both("not_yours"))
        if not isinstance(target_id, str) or target_id not in self.tracker.attack_targets(attacker_id):
            raise RuleError("unknown_target", _both("no_target"))
        if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
            raise RuleError("bad_options", _both("not_offered"))
        offer = offer_for(self.session.state, attacker_id, target_id, None, {})
        specs = {s["id"]: spec_from_json(s) for s in (offer or {}).get("attacks") or ()}
        if attack_id not in specs:
            raise RuleError("not_offered", _both("not_offered"))
        offered = {o.name for o in specs[attack_id].options}
        for name in options:
            if name not in offered:
                raise RuleError("not_your_option", _both("not_your_option", option=name))
        return attacker_id, target_id, attack_id, dict(options)

    def perform(self, attacker_id: str, target_id: str, attack_id: str, options: dict) -> dict | None:
        """**Attack**: a player's goes to the GM's page; the GM's rolls now, or asks the
        defender's seat first."""
        t = self.tracker
        if not t.can("attack"):
            self.say(_both("not_yours"), error=True)
            return None
        try:
            if self.is_gm:
                a, tg, aid, opts = t.check_attack(attacker_id, target_id, attack_id, options)
                event = self.view.sync.attacks.attack(a, tg, aid, opts)
                if event is None:
                    self.say(_both("waiting_defender", target=t.combat.name(tg)))
                else:
                    self.say({loc: t.combat.describe(event, loc) for loc in ("en", "ru")})
                return event
            a, tg, aid, opts = self.check(attacker_id, target_id, attack_id, options)
            self.session.declare_attack(a, tg, aid, opts)
        except Exception as exc:  # noqa: BLE001 - every refusal is shown, nothing half-done
            self.say(_message(exc), error=True)
            return None
        self.say(_both("sent"))
        return None

    # -- following the table -------------------------------------------------------------------
    def on_events(self, events) -> None:
        kinds = {e.kind for e in events}
        if self.is_gm and kinds & {"attack.ask", "attack.declared", "attack.answer"}:
            self.serve()
        if "attack.offer" in kinds and self.tracker is not None and "attack" in self.tracker.built_parts():
            self.tracker.attack_panel.changed()
        if not self.is_gm and "combat.state" in kinds:
            self.your_turn()
            self.mark_turn()
        self.show_results()
        self.render_questions()

    def serve(self) -> None:
        """The GM's page answers asks and moves attacks on (once at a time: its own writes
        come back here). A write catches up with the log first, so events another kernel
        wrote meanwhile (a player's new ask) arrive while this runs: they are served in one
        more round (the desk took its list of open asks before they came)."""
        if self._serving:
            self._serve_again = True
            return
        self._serving = True
        try:
            for _ in range(_SERVE_ROUNDS):
                self._serve_again = False
                self.view.sync.attacks.serve()
                if not self._serve_again:
                    break
        except Exception as exc:  # noqa: BLE001 - a failed write is shown, the page goes on
            log.exception("serving attacks failed")
            self.say(_message(exc), error=True)
        finally:
            self._serving = False

    def your_turn(self) -> None:
        """When a player's turn comes, their character is selected (its panel shows the Attack
        part) and the GM's page is asked for its attacks on every target it can see."""
        s = self.session
        view = (s.state.combat or {}).get("state") or {}
        me = s.character_id
        if me is None or view.get("current") != me or self.tracker is None:
            return
        key = (view.get("round"), me)
        if key in self._turns_seen:
            return
        self._turns_seen.add(key)
        if me in self.tracker.combat:
            self.tracker.selected = me
        # ask the GM's page for the attacks on every target now: they are there when the
        # Attack part opens (a player sees the targets the public tracker shows)
        for target, d in (view.get("combatants") or {}).items():
            if target == me or d.get("hidden") or not s.can("attack"):
                continue
            if offer_for(s.state, me, target, None, {}) is None and not asked(s.state, me, target, None, {}):
                try:
                    s.ask_attack(me, target)
                except Exception:  # noqa: BLE001 - the panel asks again when it opens
                    log.exception("asking for attacks failed")

    def show_results(self) -> None:
        for r in book(self.session.state)["results"]:
            if r.get("seq") in self._seen_results:
                continue
            self._seen_results.add(r.get("seq"))
            if r.get("status") == "refused" and r.get("message"):
                self.say(
                    {loc: _t("refused", loc, why=tr(r["message"], loc)) for loc in ("en", "ru")},
                    error=True,
                )
            elif r.get("text"):
                self.say(dict(r["text"]))

    # -- the questions -------------------------------------------------------------------------
    def render_questions(self, force: bool = False) -> None:
        qs = questions(self.session)
        key = (self.locale, tuple(q["request"] for q in qs))
        if key == self._shown_questions and not force:
            return
        self._shown_questions = key
        for old in self.questions_box.children:
            close_tree(old)
        self.questions_box.children = [self._question_widget(q) for q in qs]

    def _question_widget(self, q: Mapping[str, Any]) -> widgets.Widget:
        loc = self.locale
        head = widgets.HTML(
            '<div class="tt-attack-asks">'
            + html.escape(
                _t(
                    "question",
                    loc,
                    attacker=tr(q.get("attacker_name") or {}, loc),
                    target=q.get("target_name", ""),
                    attack=tr(q.get("label") or {}, loc),
                )
            )
            + "</div>"
        )
        controls = {o.name: _defence_control(o, loc) for o in map(option_from_json, q.get("options") or ())}
        seat = q.get("seat")
        if self.is_gm and seat not in (None, "gm"):
            who = (self.session.state.seats.get(seat) or {}).get("name") or seat
            text = _t("answer_for", loc, seat=who)
        else:
            text = _t("answer", loc)
        button = widgets.Button(description=text, tooltip=_t("answer_tip", loc), button_style="primary")
        button.add_class("tt-attack-answer")
        button.on_click(lambda _b, r=q["request"], c=controls: self.answer(r, {k: w.value for k, w in c.items()}))
        box = widgets.VBox([head, widgets.HBox(list(controls.values())), button])
        box.add_class("tt-attack-question")
        return box

    def answer(self, request: str, options: Mapping[str, Any]) -> None:
        """The **Answer** button (checked by the table: the seat asked, or the GM)."""
        try:
            if self.is_gm:
                self.view.sync.attacks.answer(request, dict(options))
            else:
                self.session.answer_attack(request, dict(options))
                self.say(_both("answered"))
        except Exception as exc:  # noqa: BLE001 - every refusal is shown
            self.say(_message(exc), error=True)
        self.render_questions()

    # -- the status line -------------------------------------------------------------------------
    def say(self, message: Mapping[str, str] | None, *, error: bool = False) -> None:
        self.message = dict(message) if message else None
        self.message_error = error
        self.render_status()

    def render_status(self) -> None:
        if not self.message:
            self.status.value = ""
            self.status.layout.display = "none"
            return
        cls = "tt-msg tt-error" if self.message_error else "tt-msg"
        role = "alert" if self.message_error else "status"
        text = tr(self.message, self.locale)
        self.status.value = f'<div class="{cls}" role="{role}" aria-live="polite">{html.escape(text)}</div>'
        self.status.layout.display = ""

    def relabel(self) -> None:
        """The screen's language changed."""
        self.render_status()
        self.render_questions(force=True)


def _defence_control(o: OptionSpec, loc: str) -> widgets.Widget:
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


def _message(exc: BaseException) -> dict[str, str]:
    msg = getattr(exc, "message", None)
    if isinstance(msg, Mapping) and msg.get("en"):
        return {"en": str(msg["en"]), "ru": str(msg.get("ru") or msg["en"])}
    return T(str(exc), str(exc))


__all__ = ["TEXTS", "TableAttacks"]
