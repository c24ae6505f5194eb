"""Attacks: what one combatant can do to another, with exact odds before the roll.

A system says which attacks an attacker can make on a target now (:class:`AttackSpec`, each with
its options), what the odds are (:class:`AttackOdds`: the exact chance to hit and the exact
distribution of the damage the target actually takes, after armour, zones and durability; 0 on a
miss) and what one roll of it did (:class:`AttackOutcome`: the dice, the damage, the effects on
both sides and a line of text). Resolving changes neither character; applying the outcome goes
through the system's own damage rules (``GameSystem.apply_attack``), and ``Combat.attack`` does
both and records one undoable event.

Plain data only: no ipywidgets, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

from .combat.records import clone_character
from .i18n import T, tr
from .problems import RuleError
from .option_specs import OptionSpec, SpecOptions, checked_spec_options
from .system import Effect

#: Kinds of attack the tracker groups and labels (a system may use others; they show as "attack").
ATTACK_KINDS = ("melee", "ranged", "called", "spell", "unarmed", "other")

#: The bool option of an attack made from hiding (RET L1127): a tracker turns it on by default
#: when the attacker is a combatant it keeps hidden from the players (:func:`from_hiding`).
FROM_HIDING = "from_hiding"


@dataclass(frozen=True)
class AttackSpec(SpecOptions):
    """One attack an attacker can make on a target now: a weapon x an attack kind the rules allow.

    id               stable within the attacker's attacks (``"melee:sabre"``, ``"spell:bolt"``)
    label            ``{"en", "ru"}``, what the tracker lists
    kind             one of :data:`ATTACK_KINDS` (or the system's own word)
    options          what the attack takes (defence chosen, cover, range, Luck, Advantages...)
    defender_options names of the ``options`` that are the defender's to choose (RET dodge/parry,
                     L&D defence check): at a table they are asked of the target's seat
    help             a sentence on what the attack does, or None
    unavailable      ``{"en", "ru"}``: why the attack cannot be made now (an empty gun: "empty:
                     reload"), or None. Listed so the player sees it and why; making it is
                     refused with that reason (:meth:`GameSystem.attack_spec`)
    """

    id: str
    label: Mapping[str, str]
    kind: str = "melee"
    options: Sequence[OptionSpec] = ()
    defender_options: Sequence[str] = ()
    help: Mapping[str, str] | None = None
    unavailable: Mapping[str, str] | None = None


@dataclass(frozen=True)
class AttackOdds:
    """The exact odds of an attack with given options, before anything is rolled.

    p_hit     the chance the attack hits (does what it is for, even when armour stops the damage)
    damage    a ``tabletop_widgets.dice.Distribution`` of the damage the target takes (0 on a miss)
    p_defeat  the chance the target is out of the fight afterwards (None when the system cannot say)
    notes     what the odds assume, ``{"en", "ru"}`` each
    """

    attack_id: str
    p_hit: Fraction
    damage: Any
    p_defeat: Fraction | None = None
    notes: Sequence[Mapping[str, str]] = ()


@dataclass(frozen=True)
class AttackCondition:
    """A condition from the system's catalogue that an attack puts on one side (``"target"`` or
    ``"attacker"``): a grab, a stun, bleeding. ``duration`` None: the catalogue's."""

    condition: str
    on: str = "target"
    duration: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class AttackOutcome:
    """What one roll of an attack did (neither character changed yet).

    hit               whether it hit
    damage            the damage the target takes (after armour, zones, durability); 0 on a miss
    label             the attack's label
    text              ``{"en", "ru"}``: one line for the log (rolls, hit or miss, damage, effects)
    dice              what was rolled, as shown (``CheckResult``s, ``RollResult``s or text), in order
    attacker_effects  resource changes on the attacker (Sanity cost, Luck spent)
    target_effects    resource changes on the target (Luck spent on a defence, armour worn)
    damage_options    passed to the system's ``apply_damage`` with ``damage`` (zone, kind...)
    conditions        :class:`AttackCondition`s the attack puts on either side
    notes             further lines for the log, ``{"en", "ru"}`` each
    details           anything else system-specific (the margin, the zone rolled...)
    """

    attack_id: str
    hit: bool
    damage: int
    label: Mapping[str, str] = field(default_factory=dict)
    text: Mapping[str, str] = field(default_factory=dict)
    dice: list[Any] = field(default_factory=list)
    attacker_effects: list[Effect] = field(default_factory=list)
    target_effects: list[Effect] = field(default_factory=list)
    damage_options: Mapping[str, Any] = field(default_factory=dict)
    conditions: list[AttackCondition] = field(default_factory=list)
    notes: list[Mapping[str, str]] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    def dice_text(self, locale: str = "en") -> list[str]:
        """The dice rolled, as lines a reader of ``locale`` reads."""
        out = []
        for d in self.dice:
            if isinstance(d, Mapping):
                out.append(tr(d, locale))
            elif hasattr(d, "text"):
                try:
                    out.append(d.text(locale))
                except TypeError:
                    out.append(str(d))
            else:
                out.append(str(d))
        return out


def find_attack(attacks: Sequence[AttackSpec], attack_id: Any, *, attacker: str = "", target: str = "") -> AttackSpec:
    """The attack ``attack_id`` among ``attacks``, or a :class:`RuleError` a player can read."""
    for spec in attacks:
        if spec.id == attack_id:
            return spec
    on = f" on {target}" if target else ""
    on_ru = f" по цели «{target}»" if target else ""
    offered = ", ".join(tr(a.label) for a in attacks) or "none"
    offered_ru = ", ".join(tr(a.label, "ru") for a in attacks) or "нет"
    en = f"{attacker} cannot make the" if attacker else "There is no"
    raise RuleError(
        "unknown_attack",
        T(
            f"{en} attack {attack_id!r}{on} now (the attacks offered: {offered}).",
            f"Атака {attack_id!r}{on_ru} сейчас невозможна (доступные атаки: {offered_ru}).",
        ),
        attack=str(attack_id),
    )


def checked_options(spec: AttackSpec, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` checked against ``spec`` (known names, whole numbers within bounds, one of
    the choices), with the defaults filled in; a :class:`RuleError` names the first bad one."""
    return checked_spec_options(spec, options, f"У атаки «{tr(spec.label, 'ru')}»")


def defeat_chance(system, target, damage, **damage_options: Any) -> Fraction:
    """The exact chance that ``target`` is out of the fight after taking damage distributed as
    ``damage`` through ``system.apply_damage`` (each amount applied to a copy); amounts the
    system refuses count as not defeating."""
    total = Fraction(0)
    for amount, p in damage.items():
        twin = clone_character(target)
        if amount > 0:
            try:
                system.apply_damage(twin, int(amount), **damage_options)
            except RuleError:
                continue
        if system.is_defeated(twin):
            total += p
    return total


def from_hiding(spec: "AttackSpec") -> "AttackSpec":
    """``spec`` as a combatant kept hidden makes it: its :data:`FROM_HIDING` option (when it has
    one) on by default. The attacker may still turn it off."""
    if not any(o.name == FROM_HIDING and o.kind == "bool" for o in spec.options):
        return spec
    options = tuple(replace(o, default=True) if o.name == FROM_HIDING else o for o in spec.options)
    return replace(spec, options=options)
