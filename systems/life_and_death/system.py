"""The ``GameSystem`` of Life&Death's Game: thin hooks that delegate to the rules modules."""

from __future__ import annotations

import random
from types import MappingProxyType
from typing import Any, Mapping

from tabletop_widgets.core.system_template import TemplateSystem
from tabletop_widgets.core.attacks import checked_options
from tabletop_widgets.core import (
    AttackOdds,
    AttackOutcome,
    AttackSpec,
    CheckResult,
    CheckSpec,
    ConditionSpec,
    DamageOutcome,
    InitiativeOrder,
    OptionSpec,
    Problem,
    RuleError,
    T,
)

from . import TITLE
from . import checks as _checks
from . import advancement, attack_rolls, combat, creation, data, epic_dice, fight, magic, progression, starting
from .model import Character
from .options import DEFAULTS
from .validation import validate, validate_party
from .words import LD_WORD, parse_ld


#: an attack's options when none are given (read-only)
NO_CHOICES: Mapping[str, Any] = MappingProxyType({})


class LifeAndDeathSystem(
    TemplateSystem,
    package=__package__,
    slug="life_and_death",
    title=TITLE,
):
    def __init__(self, **options: Any):
        super().__init__(**options)
        starting.check_start_level(self.rules.start_level)
        # the GM's house rows make this system's own tables (the shared ones never change)
        self.tables = data.with_house_rows(data.TABLES, self.rules.house_rows)
        # Options that change derived values or hard limits, and the house rows, travel with the
        # Character class.
        if self.rules != DEFAULTS:
            self.Character = type(
                "Character",
                (Character,),
                {"RULES": self.rules, "TABLES": self.tables, "__module__": Character.__module__},
            )

    # -- data ---------------------------------------------------------------------------------------
    def with_data(self, table: str, *rows: Mapping[str, Any]) -> "LifeAndDeathSystem":
        """GM API: this system with house rows added to a data table (races, skills, features,
        weapons...); a row with the id of an existing one replaces it. Bad rows raise ValueError."""
        return self.with_house_rows({table: rows})

    def with_data_file(self, path) -> "LifeAndDeathSystem":
        """GM API: this system with the house rows of a JSON file ``{"table": name, "rows":
        [...]}`` (or ``{name: [rows], ...}``)."""
        return self.with_house_rows(data.read_file(path))

    def with_house_rows(self, rows: Mapping[str, Any]) -> "LifeAndDeathSystem":
        """GM API: this system with more house rows, ``{table: [rows]}``."""
        return self.with_rules(house_rows=data.more_house_rows(self.rules.house_rows, rows))

    # -- checks ---------------------------------------------------------------------------------------
    def checks(self, character) -> list[CheckSpec]:
        return _checks.list_checks(character, options=self.rules)

    def roll_check(self, character, check_id: str, *, rng: random.Random | None = None, **options: Any) -> CheckResult:
        return _checks.roll(character, check_id, options=self.rules, rng=rng, **options)

    def spend_epic_after(self, character, previous: CheckResult, epic: int) -> CheckResult:
        """Epic dice spent after the roll (L351): ``previous`` read again with ``epic`` more
        successes; its ``effects`` spend them (the dice tray offers it from
        ``previous.details["epic_after"]``: ``{"max", "label", "help"}`` or None)."""
        return epic_dice.spend_after(character, previous, epic, options=self.rules)

    def after_roll_options(self, character, result: CheckResult) -> list[OptionSpec]:
        """Epic dice after the roll (L351): "epic" from 1 to what the roll offers
        (``details["epic_after"]``) and the character still has; none in a quick game."""
        return epic_dice.after_roll_options(character, result, options=self.rules)

    def after_roll(self, character, result: CheckResult, **options: Any) -> CheckResult:
        """``result`` with ``epic`` more epic dice spent after the roll (:meth:`spend_epic_after`),
        the options checked first (unknown names, values out of range: a ``RuleError``)."""
        checked = self.checked_after_roll_options(character, result, options)
        return self.spend_epic_after(character, result, checked["epic"])

    def check_distribution(self, character, check_id: str, **options: Any):
        return _checks.distribution(character, check_id, options=self.rules, **options)

    def pool_for(self, character, check_id: str, **options: Any) -> _checks.PoolSpec:
        """The dice and success penalty a check id means for this character (§5.11)."""
        return _checks.resolve(character, check_id, options=self.rules, **options)

    def effect_value(self, character, trait: str, old: Any, delta: int) -> Any:
        """Clamp by the rules: epic dice 0..|reputation| (refused below 0), EP/SP/IP 0..max,
        HP <= max (the base class checks every effect before applying any)."""
        return combat.effect_value(character, trait, old + delta)

    # -- validation and operations -------------------------------------------------------------------
    def validate(self, character) -> list[Problem]:
        return validate(character, options=self.rules)

    def validate_party(self, characters: Mapping[str, Any]) -> list[Problem]:
        return validate_party(characters, options=self.rules)

    def finish_creation(self, character) -> None:
        """Leave the creation stage (budgets stop being checked): :meth:`start_play`."""
        self.start_play(character)

    def apply_race_and_age(self, character, race_params, age, **kw):
        return progression.apply_race_and_age(character, race_params, age, options=self.rules, **kw)

    def spend_param_point(self, character, param: str) -> None:
        progression.spend_param_point(character, param, options=self.rules)

    def set_skill(self, character, key: str, level: int) -> None:
        """Set a skill level, refused above its cap (L103, L284) or without the required feature."""
        progression.set_skill(character, key, level)

    def change_reputation(self, character, delta: int):
        return progression.apply_reputation_change(character, delta, options=self.rules)

    def award_epic_die(self, character) -> int:
        return progression.award_epic_die(character, options=self.rules)

    def end_of_session(self, character, awards, **kw):
        return progression.end_of_session(character, awards, options=self.rules, **kw)

    def session_started(self, character, *, choices: Mapping[str, Any] | None = None) -> DamageOutcome | None:
        """A campaign's game session starts: the surprises the GM owes the character (level-up
        "Surprise", L365, L371) are a note for the GM; the character itself does not change."""
        owed = int(character.surprises_pending or 0)
        if owed <= 0:
            return None
        name = character.name or "?"
        gm_en, gm_ru = self.term("gm", "en"), self.term("gm", "ru")
        return DamageOutcome(
            notes=[
                T(
                    f"{name} is owed {owed} surprise{'' if owed == 1 else 's'} this session: "
                    f"a random reward the {gm_en} arranges",
                    f"{name}: сюрпризы к этой сессии — {owed} (случайную награду устраивает {gm_ru})",
                )
            ],
            details={"surprises_pending": owed},
        )

    def improve(self, character, choice: str, target: str | None = None, **kw):
        """Take a level-up improvement: ``feature`` (target = feature id), ``parameter`` (target =
        parameter) or ``surprise`` (L361-L371)."""
        return progression.improve(character, choice, target, options=self.rules, **kw)

    # -- advancement and the creation wizard (``advancement.py``, ``creation.py``) ------------------------
    def advancement_resources(self):
        """Experience and epic dice (the GM awards them) and level-up improvements (advances
        spend them)."""
        return advancement.RESOURCES

    def advancements(self, character) -> list:
        return advancement.advance_list(character, options=self.rules)

    def plan_advance(self, character, advance_id: str, **options: Any):
        _spec, chosen = self.advance_spec(character, advance_id, options)  # offered? options valid?
        return advancement.plan(character, advance_id, chosen, options=self.rules)

    def award_changes(self, character, resource: str, amount: int):
        return advancement.award_changes(character, resource, amount, options=self.rules)

    def creation_wizard(self, character) -> list:
        return creation.steps(character, options=self.rules)

    def creation_budgets(self, character):
        return creation.budgets(character)

    # -- dice words -------------------------------------------------------------------------------------
    def dice_words(self) -> list:
        return [LD_WORD]

    def parse_roll(self, text: str, character=None):
        """Parse an ``ld`` expression, with sheet keys resolved against ``character``."""
        return parse_ld(text, character=character, options=self.rules)

    # -- combat -------------------------------------------------------------------------------------------
    def health(self, character) -> tuple[int, int]:
        return character.hp, character.hp_max

    def is_defeated(self, character) -> bool:
        return combat.health_state(character, options=self.rules) in ("dead", "incapacitated")

    def conditions(self) -> list[ConditionSpec]:
        return list(combat.CONDITIONS)

    def roll_initiative(self, combatants, *, rng=None, **options) -> InitiativeOrder:
        return combat.roll_initiative(combatants, rng=rng, options=self.rules, **options)

    def damage_options(self, character) -> list[OptionSpec]:
        return combat.damage_options(character)

    def apply_damage(self, character, amount: int, **options: Any) -> DamageOutcome:
        return combat.apply_damage(character, amount, options=self.rules, **options)

    def apply_healing(self, character, amount: int, **options: Any) -> DamageOutcome:
        return combat.apply_healing(character, amount, options=self.rules, **options)

    def healing_options(self, character) -> list[OptionSpec]:
        return combat.healing_options(character, options=self.rules)

    def on_turn(self, character, when: str, *, rng=None, conditions=()) -> DamageOutcome | None:
        return combat.on_turn(character, when, rng=rng, conditions=conditions, options=self.rules)

    def condition_changed(self, character, condition_id: str, active: bool, **data: Any) -> DamageOutcome | None:
        return combat.condition_changed(character, condition_id, active, data, options=self.rules)

    def initiative_options(self) -> list[OptionSpec]:
        """Options ``roll_initiative`` accepts: ``epic={combatant_id: n}`` (L351)."""
        return combat.initiative_options()

    def add_wound(self, character, kind: str, zone: str | None = None, note: str = "") -> dict:
        """Record a Wounds entry (A-36: recorded only; a lethal kind means dead)."""
        return combat.add_wound(character, kind, zone, note)

    def remove_wound(self, character, index: int) -> dict:
        return combat.remove_wound(character, index)

    # -- attacks (the ``core.attacks`` contract; rules in ``fight.py``) -------------------------------
    def attacks(self, attacker, target) -> list[AttackSpec]:
        return fight.attack_list(attacker, target, options=self.rules)

    def attack_spec(self, attacker, target, attack_id: str, options: Mapping[str, Any] = NO_CHOICES):
        """As the base class, but an attack the character has and may not make now (a weapon
        too heavy, an attacker out of the fight) is refused with the reason."""
        refused = fight.refusal(attacker, target, attack_id, options=self.rules)
        if refused is not None:
            raise refused
        spec = fight.one_attack(attacker, target, attack_id, options=self.rules)
        if spec is None:  # not offered: the base class says so and lists the attacks that are
            return super().attack_spec(attacker, target, attack_id, options)
        if spec.unavailable:  # listed to say why (an empty crossbow), never made
            raise RuleError("attack_unavailable", dict(spec.unavailable), attack=spec.id)
        return spec, checked_options(spec, options or {})

    def attack_odds(self, attacker, target, attack_id: str, **options: Any) -> AttackOdds:
        _spec, chosen = self.attack_spec(attacker, target, attack_id, options)
        return attack_rolls.odds(self, attacker, target, attack_id, chosen, options=self.rules)

    def resolve_attack(self, attacker, target, attack_id: str, *, rng: random.Random, **options: Any) -> AttackOutcome:
        spec, chosen = self.attack_spec(attacker, target, attack_id, options)
        return attack_rolls.resolve(attacker, target, spec, chosen, rng=rng, options=self.rules)

    def apply_attack(self, attacker, target, outcome: AttackOutcome) -> tuple[DamageOutcome, DamageOutcome]:
        """As the base class, and a weapon that must be reloaded spends the shot (L237)."""
        mine, theirs = super().apply_attack(attacker, target, outcome)
        mine.changes.update(fight.spend_shot(attacker, outcome.details.get("shot_from")))
        return mine, theirs

    def attacks_per_turn(self, character, round: int = 1) -> int | None:
        """One ordinary action in round 1, two from round 2, and Speed II's extra action (L226,
        L250; an attack is an ordinary action): what a table holds a player's attacks to."""
        from .actions import start_turn

        turn = start_turn(character, round, options=self.rules)
        return turn.ordinary_left + turn.extra_left

    def reload(self, character) -> dict:
        """Reload (L237 "перезарядка – смена патронов/колчана со стрелами/перезарядка арбалета", an
        ordinary action in a fight): every weapon with shots to load is full again. Refused when none
        needs it; returns ``{trait: (old, new)}``."""
        return fight.reload(character)

    def resolve_hit(self, att, dfn, weapon_damage: int, armour: int = 0, **kw):
        """One attack from rolled pools (``attacks.resolve_attack``): the damage before it is applied."""
        return combat.resolve_attack(att, dfn, weapon_damage, armour, options=self.rules, **kw)

    def attack(self, attacker, attack_check: str, defender=None, defence_check=None, **kw):
        """Roll one physical attack between two characters (see ``combat.attack``)."""
        return combat.attack(attacker, attack_check, defender, defence_check, options=self.rules, **kw)

    def damage_distribution(self, att_pool: int, def_pool, weapon_damage: int, armour: int = 0, **kw):
        return combat.damage_distribution(att_pool, def_pool, weapon_damage, armour, options=self.rules, **kw)

    def cast(self, caster, skill_key: str, design: magic.SpellDesign, **kw) -> magic.CastResult:
        return magic.cast(caster, skill_key, design, options=self.rules, **kw)


SYSTEM = LifeAndDeathSystem()
