"""The combat part of the :class:`~tabletop_widgets.core.system.GameSystem` contract: the data a
system's combat rules hand the tracker (conditions catalogue, initiative, damage outcomes), the
one way to record what a rule changed (:func:`record_changes`), and the hooks the combat state
machine calls (:class:`CombatRules`: health and defeat, initiative, damage and healing, turn and
condition hooks, attacks, the start of a session). Plain data and pure functions, no widgets."""

from __future__ import annotations

import copy
import random
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

from .option_specs import OptionSpec

if TYPE_CHECKING:
    from .system import Effect


@dataclass(frozen=True)
class ConditionSpec:
    """An entry of the system's conditions catalogue.

    duration   default duration in ``unit`` (None: until removed)
    unit       ``"rounds"``, ``"turns"`` (of the bearer), ``"scene"``, ``"until_removed"``
    ticks_at   ``"start"`` or ``"end"`` of the bearer's turn: when a round/turn duration counts down
    stacks     whether several instances add up (Seasons: -3 each)
    effect     bilingual short description of the mechanical effect
    """

    id: str
    label: Mapping[str, str]
    effect: Mapping[str, str]
    duration: int | None = None
    unit: str = "until_removed"
    ticks_at: str = "end"
    stacks: bool = False
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class InitiativeRoll:
    """One combatant's initiative as rolled: ``key`` sorts descending (a tuple: the system's
    tie-break chain, e.g. ``(successes, dexterity, d10 roll-off)``); ``text`` shows it.

    skip_rounds  rounds this combatant sits out from the start (RET: a critical fail on the
                 initiative roll loses the first round)
    effects      resource changes the roll causes (Luck spent, Sanity...), applied by the tracker
                 through ``GameSystem.apply_effects``
    """

    combatant_id: str
    key: tuple
    text: Mapping[str, str]
    roll: Any = None
    skip_rounds: int = 0
    effects: Sequence["Effect"] = ()


@dataclass(frozen=True)
class InitiativeOrder:
    """The result of ``GameSystem.roll_initiative``: ids in turn order, the rolls, and the
    tie-breaks that decided neighbours with equal primary scores (bilingual notes)."""

    order: Sequence[str]
    rolls: Mapping[str, InitiativeRoll]
    tiebreaks: Sequence[Mapping[str, str]] = ()


@dataclass
class DamageOutcome:
    """What applying damage or healing did: trait changes ``{trait: (old, new)}``, notes for the
    log, and the state the target is now in."""

    changes: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    notes: list[Mapping[str, str]] = field(default_factory=list)
    defeated: bool = False
    state: Mapping[str, str] | None = None  # e.g. {"en": "unconscious", "ru": "без сознания"}
    details: dict[str, Any] = field(default_factory=dict)


@contextmanager
def record_changes(character, traits: Iterable[str], outcome: DamageOutcome | None = None) -> Iterator[DamageOutcome]:
    """Record what a block does to ``character``'s ``traits``: the one way systems fill
    :attr:`DamageOutcome.changes`.

    Snapshots the named traits (deep copies, so a list changed in place counts), yields a
    :class:`DamageOutcome` (``outcome`` when given) and, when the block ends without an error, sets
    ``changes[trait] = (old, new)`` for every named trait whose value changed::

        with record_changes(character, ("health", "wounds")) as out:
            character.health -= 3
            out.notes.append(T("Ouch", "Ай"))
        out.changes  # {"health": (10, 7)}
    """
    names = tuple(traits)
    before = {name: copy.deepcopy(getattr(character, name)) for name in names}
    out = outcome if outcome is not None else DamageOutcome()
    yield out
    for name in names:
        now = getattr(character, name)
        if now != before[name]:
            out.changes[name] = (before[name], now)


class CombatRules:
    """The combat hooks of a :class:`~tabletop_widgets.core.system.GameSystem` (its base class):
    a system overrides ``health``, ``roll_initiative``, ``apply_damage`` and what else its book
    says; the defaults do nothing or what most books do."""

    # -- combat -----------------------------------------------------------------------------------
    def health(self, character) -> tuple[int, int]:
        """(current, max) of the resource the tracker shows as the combatant's health."""
        raise NotImplementedError

    def is_defeated(self, character) -> bool:
        current, _ = self.health(character)
        return current <= 0

    def conditions(self) -> list[ConditionSpec]:
        return []

    def roll_initiative(
        self, combatants: Mapping[str, Any], *, rng: random.Random | None = None, **options: Any
    ) -> InitiativeOrder:
        """Roll initiative for ``{combatant_id: character}`` by the system's rules, breaking
        ties by its own chain (reported in ``tiebreaks``); deterministic given the rng."""
        raise NotImplementedError

    def damage_options(self, character) -> list[OptionSpec]:
        """Options the tracker offers when applying damage (hit zone, damage kind, piercing...)."""
        return []

    def apply_damage(self, character, amount: int, **options: Any) -> DamageOutcome:
        raise NotImplementedError

    def apply_healing(self, character, amount: int, **options: Any) -> DamageOutcome:
        raise NotImplementedError

    def healing_options(self, character) -> list[OptionSpec]:
        """Options the tracker offers when healing (which resource, first aid, a healing pool...)."""
        return []

    def on_turn(
        self, character, when: str, *, rng: random.Random | None = None, conditions: Sequence[Mapping[str, Any]] = ()
    ) -> DamageOutcome | None:
        """Ongoing effects at the ``"start"`` or ``"end"`` of this character's turn (bleeding,
        regeneration, a state that deals damage each turn). ``conditions`` are the combatant's
        active conditions as the tracker holds them (``{"id", "duration", "data"}``). Return
        what happened (the tracker records it as an event; replay never calls this again), or
        None when nothing does."""
        return None

    # -- attacks (see ``core/attacks.py``) ------------------------------------------------------
    def attacks(self, attacker, target) -> list:
        """The attacks (``core.attacks.AttackSpec``) ``attacker`` can make on ``target`` now: each
        weapon x attack kind the rules allow, with its options. Every system offers at least one
        between two freshly made characters (unarmed, or its basic attack)."""
        return []

    def attacks_per_turn(self, character, round: int = 1) -> int | None:
        """How many attacks ``character`` may make in one of its turns in ``round`` (None: no
        limit). One by default: one attack a turn (Р.Э.Т.'s turn has a move, an attack and an
        action; a Season's round one normal action; a Thread's turn one Manoeuvre). A table
        checks it where a player's attack is resolved."""
        return 1

    def attack_spec(self, attacker, target, attack_id: str, options: Mapping[str, Any] | None = None):
        """``(AttackSpec, options with defaults)`` for ``attack_id``, refusing (``RuleError``) an
        attack not offered now and options it does not declare or whose values it does not allow
        (what a forged widget message could send), and an attack listed as ``unavailable`` (an
        empty gun) with its reason."""
        from .attacks import checked_options, find_attack
        from .problems import RuleError

        spec = find_attack(self.attacks(attacker, target), attack_id)
        if spec.unavailable:
            raise RuleError("attack_unavailable", dict(spec.unavailable), attack=spec.id)
        return spec, checked_options(spec, options or {})

    def attack_odds(self, attacker, target, attack_id: str, **options: Any):
        """The exact odds (``core.attacks.AttackOdds``) of ``attack_id`` with ``options``:
        ``p_hit`` and the distribution of the damage ``target`` takes (0 on a miss)."""
        raise NotImplementedError

    def resolve_attack(self, attacker, target, attack_id: str, *, rng: random.Random, **options: Any):
        """Roll ``attack_id`` once with ``rng`` (``core.attacks.AttackOutcome``); changes neither
        character (:meth:`apply_attack` does)."""
        raise NotImplementedError

    def apply_attack(self, attacker, target, outcome) -> tuple[DamageOutcome, DamageOutcome]:
        """Apply ``outcome`` by the rules: the attacker's and the target's effects (all or none,
        :meth:`apply_effects`), then the damage through :meth:`apply_damage` with the outcome's
        ``damage_options``. Returns (attacker's, target's) outcome notes and state. Systems
        override it when an attack changes more than effects and damage say."""
        mine = DamageOutcome(changes=self.apply_effects(attacker, outcome.attacker_effects))
        theirs = DamageOutcome(changes=self.apply_effects(target, outcome.target_effects))
        if outcome.damage > 0:
            hurt = self.apply_damage(target, int(outcome.damage), **dict(outcome.damage_options))
            theirs.changes.update(hurt.changes)
            theirs.notes.extend(hurt.notes)
            theirs.state = hurt.state
            theirs.defeated = hurt.defeated
        return mine, theirs

    def session_started(self, character, *, choices: Mapping[str, Any] | None = None) -> DamageOutcome | None:
        """The start of a game session of a campaign (the table's ``start_session``): what the
        rules do to ``character`` then (a resource refilled, counters reset; changes applied to
        ``character``), and notes for the GM (something owed this session). Return what
        happened (the table records it as events; replay never calls this again), or None when
        the rules do nothing. ``choices``: what the GM chose for this session, if anything (the
        system's GM options are ``self.rules``)."""
        return None

    def condition_changed(self, character, condition_id: str, active: bool, **data: Any) -> DamageOutcome | None:
        """The tracker added (``active``) or removed a condition from the system's catalogue:
        reflect it on the character when the rules say so (e.g. RET "unconscious" makes the
        character defeated). Return the trait changes, or None when the character is unchanged."""
        return None
