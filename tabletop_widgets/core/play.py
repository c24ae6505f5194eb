"""The play interface: what every widget acts through (no widgets here).

The dice tray, the combat tracker with its Attack part, and the character sheet never apply a
rule, roll a die or write a record themselves: they ask a :class:`Play`. There are two:

* :class:`LocalPlay` (this module): a notebook alone. The rules run here, on the widget's own
  character and combat, with the widget's dice.
* ``tabletop_widgets.table.TablePlay``: a seat at a shared table. Everything goes through the
  seat's session: the table's fair dice, the role and option checks, the records in the log; an
  attack a player makes is a request the table's resolver answers on the server.

Each action checks what it is asked as if the browser were hostile (a forged widget message can
carry any value, and a disabled button still fires): the check lives here and in the table, never
in a widget. A refusal is a ``RuleError`` (or the table's ``PlayError`` / ``PermissionError``)
with a message a player can read.

The actions, by widget:

* the tray: :meth:`Play.can`, :meth:`Play.roll`, :meth:`Play.check`, :meth:`Play.after_roll`,
  :meth:`Play.may_after_roll`;
* the sheet: :meth:`Play.can`, :meth:`Play.sheet_action`, :meth:`Play.advance`,
  :meth:`Play.award` (edits to the character itself are the character's own traits: a table
  follows the model and records them, or puts them back);
* the tracker: :meth:`Play.act` (every tracker action), :meth:`Play.attack_targets`,
  :meth:`Play.attacks_on`, :meth:`Play.attack_option_specs`, :meth:`Play.attack_odds`,
  :meth:`Play.check_attack`, :meth:`Play.attack`, and for what waits on others
  :meth:`Play.attack_news`, :meth:`Play.questions`, :meth:`Play.answer`, :meth:`Play.watch`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .attacks import find_attack, from_hiding
from .i18n import T, tr
from .problems import RuleError

#: the tracker's actions (``Play.act``'s names): the Combat's method each one is
COMBAT_ACTIONS: dict[str, str] = {
    "next": "next_turn",
    "prev": "previous_turn",
    "delay": "delay",
    "act_now": "act_now",
    "end": "end",
    "initiative": "roll_initiative",
    "undo": "undo",
    "add": "add",
    "remove": "remove",
    "rename": "rename",
    "move": "move",
    "damage": "damage",
    "heal": "heal",
    "condition": "add_condition",
    "uncondition": "remove_condition",
    "defeated": "set_defeated",
    "hidden": "set_hidden",
}


def _both(en: str, ru: str, **fmt: Any) -> dict[str, str]:
    return {"en": en.format(**fmt), "ru": ru.format(**fmt)}


@dataclass
class AttackNews:
    """What became of (or waits for) this seat's attack, for the Attack part to say: ``text``
    (``{"en", "ru"}``), whether it is an ``error`` (a refusal), whether it is still ``pending``
    (sent, waiting for a defence), and the Combat's ``event`` once rolled here."""

    text: Mapping[str, str]
    error: bool = False
    pending: bool = False
    event: dict | None = None
    key: Any = None


def check_attack_request(
    combat: Any,
    audience: str,
    offered_options: Callable[..., Sequence],
    attacker_id: Any,
    target_id: Any,
    attack_id: Any,
    options: Any,
) -> tuple[str, str, str, dict[str, Any]]:
    """``(attacker_id, target_id, attack_id, options)`` when a seat of ``audience`` may ask for
    this attack in ``combat``: both combatants are ones it sees, the attack is one the system
    offers now, and every option is one offered to it (``offered_options(spec, attacker, target)``:
    at a table a defender's choice is not the attacker's). Otherwise a ``RuleError`` a player can
    read. The option VALUES are checked by the system (``GameSystem.attack_spec``) when the attack
    is made."""
    seen = {c.id for c in combat.combatants(audience=audience)}
    if not isinstance(attacker_id, str) or attacker_id not in seen:
        raise RuleError(
            "unknown_attacker",
            _both(
                "Select a combatant you can see to attack with.",
                "Выберите участника, которого вы видите, — он и будет атаковать.",
            ),
        )
    if not isinstance(target_id, str) or target_id not in seen:
        raise RuleError(
            "unknown_target",
            _both(
                "There is no such target among the combatants you can see.",
                "Такой цели нет среди участников, которых вы видите.",
            ),
        )
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise RuleError(
            "bad_options",
            _both("An attack's options are names with values.", "Параметры атаки — это названия со значениями."),
        )
    attacker, target = combat.character(attacker_id), combat.character(target_id)
    spec = find_attack(
        combat.system.attacks(attacker, target),
        attack_id,
        attacker=combat.name(attacker_id),
        target=combat.name(target_id),
    )
    offered = {o.name for o in offered_options(spec, attacker_id, target_id)}
    for name in options:
        if name not in offered:
            label = spec.option(name).label if name in {o.name for o in spec.options} else {"en": name, "ru": name}
            raise RuleError(
                "not_your_option",
                {
                    loc: (
                        f"{tr(spec.label, loc)}: {tr(label, loc)} is not yours to choose here."
                        if loc == "en"
                        else f"«{tr(spec.label, loc)}»: параметр «{tr(label, loc)}» здесь выбираете не вы."
                    )
                    for loc in ("en", "ru")
                },
                option=name,
            )
    return attacker_id, target_id, spec.id, dict(options)


class Play:
    """The play interface (see the module); the methods a widget calls. This base refuses what
    it does not do, with a message a player can read."""

    #: the rules
    system: Any
    #: who reads the fight: ``"gm"`` (everything) or ``"player"`` (no hidden combatant)
    audience: str = "gm"

    # -- permissions ---------------------------------------------------------------------------
    def can(self, action: str, character_id: str | None = None) -> bool:
        """Whether this seat may do ``action`` now (a tray's ``roll_check``, ``roll_notation``,
        ``gm_options``, ``set_option``, ``after_roll``; a sheet's ``edit``, ``edit_gm``, ``save``,
        ``load``, ``act``; a tracker's actions, :data:`COMBAT_ACTIONS`, and ``attack``). Every
        action asks again when it runs."""
        return False

    # -- dice ------------------------------------------------------------------------------------
    def roll(self, text: str, *, variables: Any = None, hidden: bool = False, locale: str = "en"):
        """Roll dice notation; the result (``.total``, ``.text(locale)``...)."""
        raise _refused()

    def check(self, character, character_id, check_id: str, options: Mapping[str, Any], *, hidden=False, locale="en"):
        """Roll a named check and apply its effects: ``(result, {trait: (old, new)}, effects
        error or None)``."""
        raise _refused()

    def after_roll(self, character, character_id, previous, options: Mapping[str, Any], *, locale: str = "en"):
        """Change the latest check as the rules allow after the roll: ``(result, changes, None)``."""
        raise _refused()

    def may_after_roll(self, character_id) -> bool:
        """Whether the latest check of ``character_id`` may still be changed after the roll."""
        return False

    # -- the sheet ---------------------------------------------------------------------------
    def sheet_action(self, character_id, character, action, args: list) -> Any:
        """Run one of a sheet's rules actions (``action``: a ``SheetAction``)."""
        raise _refused()

    def advance(self, character_id, character, advance_id: str, **options: Any) -> Any:
        raise _refused()

    def award(self, character_id, character, resource: str, amount: int) -> Any:
        raise _refused()

    # -- the fight ---------------------------------------------------------------------------
    def act(self, combat, action: str, *args: Any, **kwargs: Any) -> dict | None:
        """A tracker action (a key of :data:`COMBAT_ACTIONS`) on ``combat``: the Combat's event."""
        raise _refused()

    def attack_targets(self, combat, attacker_id: str | None) -> list[str]:
        """The combatants ``attacker_id`` may be shown as targets: the others this seat sees."""
        return [c.id for c in combat.combatants(audience=self.audience) if c.id != attacker_id]

    def side(self, combat, cid: str) -> str | None:
        """Whose combatant ``cid`` is: ``"party"`` (a player's character), ``"other"`` (the GM's),
        or None where nobody says (a notebook alone): what the Attack part's first target and its
        marks follow."""
        return None

    def target_label(self, combat, cid: str, locale: str) -> str:
        """A target as the Attack part lists it: its name (a table adds who plays it)."""
        return combat.name(cid)

    def attacks_on(self, combat, attacker_id: str, target_id: str) -> list:
        """The attacks (``AttackSpec``) the system offers ``attacker_id`` on ``target_id`` now; a
        combatant the tracker keeps hidden attacks from hiding by default."""
        specs = list(self.system.attacks(combat.character(attacker_id), combat.character(target_id)))
        if attacker_id in combat and combat.combatant(attacker_id).hidden:
            specs = [from_hiding(s) for s in specs]
        return specs

    def attack_option_specs(self, combat, spec, attacker_id: str, target_id: str) -> list:
        """The options (``OptionSpec``) of ``spec`` this seat chooses (an option left out takes its
        default, and a request naming it is refused)."""
        return list(spec.options)

    def attack_odds(self, combat, attacker_id: str, target_id: str, attack_id: str, options: Mapping[str, Any]):
        """The exact odds (``AttackOdds``) before the roll."""
        return self.system.attack_odds(
            combat.character(attacker_id), combat.character(target_id), attack_id, **dict(options)
        )

    def check_attack(self, combat, attacker_id, target_id, attack_id, options) -> tuple:
        """``(attacker_id, target_id, attack_id, options)`` when this seat may ask for the attack,
        else a ``RuleError`` (:func:`check_attack_request`)."""
        offered = lambda spec, a, t: self.attack_option_specs(combat, spec, a, t)  # noqa: E731
        return check_attack_request(combat, self.audience, offered, attacker_id, target_id, attack_id, options)

    def attack(
        self, combat, attacker_id: str, target_id: str, attack_id: str, options: Mapping[str, Any]
    ) -> AttackNews:
        """Make the attack (after :meth:`check_attack`): rolled now, or sent and waiting."""
        raise _refused()

    def attack_news(self, combat=None) -> AttackNews | None:
        """What this seat's latest attack is waiting for, or what became of it (None: nothing)."""
        return None

    def seen(self, news: AttackNews) -> None:
        """The page has shown ``news`` (a refusal read: it may go)."""

    def questions(self) -> list[dict[str, Any]]:
        """The defender's questions this seat may answer now (each with its ``"request"``,
        ``"attacker_name"``, ``"target_name"``, ``"label"``, ``"options"``, ``"seat"``)."""
        return []

    def answer(self, request: str, options: Mapping[str, Any]) -> AttackNews | None:
        """Answer a defender's question."""
        raise _refused()

    def watch(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback()`` when what waits on others changed (an answer came, a question was
        asked); returns a function that stops it."""
        return lambda: None


def _refused() -> RuleError:
    return RuleError("not_allowed", T("This is not yours to do here.", "Здесь это делаете не вы."))


@dataclass
class LocalPlay(Play):
    """A notebook alone: the rules run here, on the widget's character and combat, with ``rng``
    (the widget's dice). ``permit(action)`` says what the notebook's user may do (default:
    everything)."""

    system: Any
    rng: random.Random = field(default_factory=random.Random)
    permit: Callable[[str], bool] | None = None
    audience: str = "gm"

    def can(self, action: str, character_id: str | None = None) -> bool:
        return True if self.permit is None else bool(self.permit(action))

    # -- dice ------------------------------------------------------------------------------------
    def roll(self, text: str, *, variables: Any = None, hidden: bool = False, locale: str = "en"):
        from ..dice import roll as dice_roll

        return dice_roll(text, rng=self.rng, variables=variables, locale=locale)

    def check(self, character, character_id, check_id: str, options: Mapping[str, Any], *, hidden=False, locale="en"):
        result = self.system.roll_check(character, check_id, rng=self.rng, **dict(options))
        changes: dict[str, tuple[Any, Any]] = {}
        effects_error = None
        if result.effects:
            try:
                changes = dict(self.system.apply_effects(character, result.effects) or {})
            except ValueError as exc:
                effects_error = exc
        return result, changes, effects_error

    def after_roll(self, character, character_id, previous, options: Mapping[str, Any], *, locale: str = "en"):
        result = self.system.after_roll(character, previous, **dict(options))
        changes: dict[str, tuple[Any, Any]] = {}
        if result.effects:
            changes = dict(self.system.apply_effects(character, result.effects) or {})
        return result, changes, None

    def may_after_roll(self, character_id) -> bool:
        return self.can("after_roll")

    # -- the sheet ---------------------------------------------------------------------------
    def sheet_action(self, character_id, character, action, args: list) -> Any:
        return action.bound(self.system)(*args)

    def advance(self, character_id, character, advance_id: str, **options: Any) -> Any:
        return self.system.advance(character, advance_id, **options)

    def award(self, character_id, character, resource: str, amount: int) -> Any:
        return self.system.award(character, resource, amount)

    # -- the fight ---------------------------------------------------------------------------
    def act(self, combat, action: str, *args: Any, **kwargs: Any) -> dict | None:
        method = COMBAT_ACTIONS.get(action)
        if method is None:
            raise ValueError(f"no tracker action {action!r} (known: {', '.join(COMBAT_ACTIONS)})")
        return getattr(combat, method)(*args, **kwargs)

    def attack(
        self, combat, attacker_id: str, target_id: str, attack_id: str, options: Mapping[str, Any]
    ) -> AttackNews:
        a, t, aid, opts = self.check_attack(combat, attacker_id, target_id, attack_id, options)
        event = combat.attack(a, t, aid, **opts)
        return AttackNews({loc: combat.describe(event, loc) for loc in ("en", "ru")}, event=event)


__all__ = ["COMBAT_ACTIONS", "AttackNews", "LocalPlay", "Play", "check_attack_request"]
