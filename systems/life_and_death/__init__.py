"""Life&Death's Game (Diavir, by Alanetta): rules system for tabletop-widgets.

Spec: ``shared/rules/life_and_death.md``. d10 success pools (6+ succeeds, 10 is a crit, 1s with no
success are a critical failure), six parameters with skills, four health pools, energetics.
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from tabletop_widgets.core import (
    CheckResult,
    CheckSpec,
    ConditionSpec,
    DamageOutcome,
    Effect,
    GameSystem,
    InitiativeOrder,
    OptionSpec,
    Problem,
    RuleError,
    T,
)

from . import checks as _checks
from . import combat, data, inventory, magic, progression
from .model import PARAMS, Character
from .options import DEFAULT_RULES
from .rules import validate as _validate
from .rules import validate_party
from .sheet import SHEET
from .words import LD_WORD, parse_ld


class LifeAndDeathSystem(GameSystem):
    slug = "life_and_death"
    title = {"en": "Life & Death's Game", "ru": "Life&Death’s Game"}
    Character = Character
    sheet = SHEET
    default_rules = DEFAULT_RULES

    def __init__(self, **rules: Any):
        super().__init__(**rules)
        # Rules that change derived values or hard limits travel with the Character class.
        if self.rules != dict(DEFAULT_RULES):
            self.Character = type(
                "Character", (Character,), {"RULES": dict(self.rules), "__module__": Character.__module__}
            )

    # -- data ---------------------------------------------------------------------------------------
    def data(self, table: str) -> list[dict[str, Any]]:
        return data.rows(table)

    def data_tables(self) -> list[str]:
        return data.table_names()

    def add_data(self, table: str, row: Mapping[str, Any]) -> dict[str, Any]:
        """GM API: add (or replace by id) a row of a data table (races, skills, features, weapons...)."""
        return data.add_row(table, dict(row))

    def load_data_file(self, path) -> list[str]:
        return data.load_file(path)

    # -- checks ---------------------------------------------------------------------------------------
    def checks(self, character) -> list[CheckSpec]:
        return _checks.list_checks(character, self.rules)

    def roll_check(self, character, check_id: str, *, rng: random.Random | None = None, **options: Any) -> CheckResult:
        return _checks.roll(character, check_id, self.rules, rng=rng, **options)

    def check_distribution(self, character, check_id: str, **options: Any):
        return _checks.distribution(character, check_id, self.rules, **options)

    def pool_for(self, character, check_id: str, **options: Any) -> _checks.PoolSpec:
        """The dice and success penalty a check id means for this character (§5.11)."""
        return _checks.resolve(character, check_id, self.rules, **options)

    def apply_effects(self, character, effects: Sequence[Effect]) -> dict[str, tuple[Any, Any]]:
        """Clamp by the rules: epic dice 0..|reputation|, EP/SP/IP 0..max, HP <= max."""
        changes: dict[str, tuple[Any, Any]] = {}
        for e in effects:
            old = getattr(character, e.trait)
            new = old + e.delta
            if e.trait == "epic_dice":
                if new < 0:
                    raise RuleError("not_enough_epic_dice", T("Not enough epic dice.", "Недостаточно эпик-дайсов."))
                new = min(new, abs(character.reputation))
            elif e.trait in ("ep", "sp", "ip"):
                new = max(0, min(new, getattr(character, e.trait + "_max")))
            elif e.trait == "hp":
                new = min(new, character.hp_max)
            setattr(character, e.trait, new)
            first = changes.get(e.trait, (old, None))[0]
            changes[e.trait] = (first, getattr(character, e.trait))
        return changes

    # -- validation and operations -------------------------------------------------------------------
    def validate(self, character) -> list[Problem]:
        return _validate(character, self.rules)

    def validate_party(self, characters: Mapping[str, Any]) -> list[Problem]:
        return validate_party(characters)

    def finish_creation(self, character) -> None:
        """Leave the creation stage (budgets stop being checked); refused while errors remain."""
        errs = [p for p in self.validate(character) if p.severity == "error"]
        if errs:
            raise RuleError(
                "creation_errors",
                T(
                    "Fix the errors first: " + "; ".join(p.text("en") for p in errs),
                    "Сначала исправьте ошибки: " + "; ".join(p.text("ru") for p in errs),
                ),
            )
        character.stage = "play"

    def apply_race_and_age(self, character, race_params, age, **kw):
        return progression.apply_race_and_age(character, race_params, age, rules=self.rules, **kw)

    def spend_param_point(self, character, param: str) -> None:
        progression.spend_param_point(character, param, self.rules)

    def set_skill(self, character, key: str, level: int) -> None:
        """Set a skill level, refused above its cap (L103, L284) or without the required feature."""
        from .model import SKILL_KEY_RE

        if not SKILL_KEY_RE.match(key) or not isinstance(level, int) or level < 0:
            raise RuleError(
                "bad_skill", T(f"Bad skill {key!r} / level {level!r}.", f"Неверный навык {key!r} / уровень {level!r}.")
            )
        cap = progression.skill_cap(character, key)
        if cap is not None and level > cap:
            raise RuleError(
                "E_SKILL_CAP",
                T(
                    f"{key} ({level}) cannot exceed its parameter ({cap}).",
                    f"{key} ({level}) не может быть выше параметра ({cap}).",
                ),
            )
        d = data.row("skills", key.split(":")[0]) or {}
        if level and d.get("requires_feature") and not character.has_feature(d["requires_feature"]):
            raise RuleError(
                "E_TRANSFORMATION_NO_SHAPESHIFTER",
                T(
                    "Transformation requires the Shapeshifter feature.",
                    "Трансформация доступна только с особенностью «оборотень».",
                ),
            )
        skills = dict(character.skills)
        skills[key] = level
        character.skills = skills

    def change_reputation(self, character, delta: int):
        return progression.apply_reputation_change(character, delta, self.rules)

    def award_epic_die(self, character) -> int:
        return progression.award_epic_die(character, self.rules)

    def end_of_session(self, character, awards, **kw):
        return progression.end_of_session(character, awards, rules=self.rules, **kw)

    def session_started(self, character, *, options: Mapping[str, Any] | None = None) -> DamageOutcome | None:
        """A campaign's game session starts: the surprises the GM owes the character (level-up
        "Surprise", L365, L371) are a note for the GM; the character itself does not change."""
        owed = int(character.surprises_pending or 0)
        if owed <= 0:
            return None
        name = character.name or "?"
        return DamageOutcome(
            notes=[
                T(
                    f"{name}: {owed} surprise(s) owed this session (a random bonus the "
                    f"{self.term('gm', 'en')} arranges, L371)",
                    f"{name}: сюрпризов за этой сессией — {owed} (случайную награду устраивает "
                    f"{self.term('gm', 'ru')}, L371)",
                )
            ],
            details={"surprises_pending": owed},
        )

    def improve(self, character, choice: str, target: str | None = None, **kw):
        """Take a level-up improvement: ``feature`` (target = feature id), ``parameter`` (target =
        parameter) or ``surprise`` (L361-L371)."""
        if choice == "parameter":
            return progression.improve_parameter(character, target, self.rules)
        if choice == "feature":
            return progression.improve_feature(character, target, **kw)
        if choice == "surprise":
            return progression.improve_surprise(character)
        raise RuleError(
            "bad_choice", T("Choose feature, parameter or surprise.", "Выберите особенность, параметр или сюрприз.")
        )

    # -- dice words -------------------------------------------------------------------------------------
    def dice_words(self) -> list:
        return [LD_WORD]

    def parse_roll(self, text: str, character=None):
        """Parse an ``ld`` expression, with sheet keys resolved against ``character``."""
        return parse_ld(text, character=character, rules=self.rules)

    # -- combat -------------------------------------------------------------------------------------------
    def health(self, character) -> tuple[int, int]:
        return character.hp, character.hp_max

    def is_defeated(self, character) -> bool:
        return combat.health_state(character, self.rules) in ("dead", "incapacitated")

    def conditions(self) -> list[ConditionSpec]:
        return list(combat.CONDITIONS)

    def roll_initiative(self, combatants, *, rng=None, **options) -> InitiativeOrder:
        return combat.roll_initiative(combatants, rng=rng, rules=self.rules, **options)

    def damage_options(self, character) -> list[OptionSpec]:
        return [
            OptionSpec(
                "damage_type",
                T("Damage type", "Тип урона"),
                "choice",
                "physical",
                choices=tuple((r["id"], T(r["en"], r["ru"])) for r in data.rows("damage_types")),
            ),
            OptionSpec(
                "zone",
                T("Hit zone", "Зона попадания"),
                "choice",
                "torso",
                choices=tuple((r["id"], T(r["en"], r["ru"])) for r in data.rows("zones")),
            ),
            OptionSpec("transforming", T("Target transforming (×2)", "Цель в трансформации (×2)"), "bool", False),
            OptionSpec("spell", T("Spell (thresholds ×2)", "Заклинание (пороги ×2)"), "bool", False),
            OptionSpec("undead", T("Undead", "Нежить"), "bool", False),
            OptionSpec("heads", T("Heads", "Голов"), "int", 1, 1, 9),
        ]

    def apply_damage(self, character, amount: int, **options: Any) -> DamageOutcome:
        return combat.apply_damage(character, amount, rules=self.rules, **options)

    def apply_healing(self, character, amount: int, **options: Any) -> DamageOutcome:
        return combat.apply_healing(character, amount, rules=self.rules, **options)

    def healing_options(self, character) -> list[OptionSpec]:
        return combat.healing_options(character, self.rules)

    def on_turn(self, character, when: str, *, rng=None, conditions=()) -> DamageOutcome | None:
        return combat.on_turn(character, when, rng=rng, conditions=conditions, rules=self.rules)

    def condition_changed(self, character, condition_id: str, active: bool, **data: Any) -> DamageOutcome | None:
        return combat.condition_changed(character, condition_id, active, data, rules=self.rules)

    def initiative_options(self) -> list[OptionSpec]:
        """Options ``roll_initiative`` accepts: ``epic={combatant_id: n}`` (L351)."""
        return combat.initiative_options()

    def add_wound(self, character, kind: str, zone: str | None = None, note: str = "") -> dict:
        """Record a Wounds entry (A-36: recorded only; a lethal kind means dead)."""
        return combat.add_wound(character, kind, zone, note)

    def remove_wound(self, character, index: int) -> dict:
        return combat.remove_wound(character, index)

    def resolve_attack(self, att, dfn, weapon_damage: int, armour: int = 0, **kw):
        return combat.resolve_attack(att, dfn, weapon_damage, armour, rules=self.rules, **kw)

    def attack(self, attacker, attack_check: str, defender=None, defence_check=None, **kw):
        """Roll one physical attack between two characters (see ``combat.attack``)."""
        return combat.attack(attacker, attack_check, defender, defence_check, rules=self.rules, **kw)

    def damage_distribution(self, att_pool: int, def_pool, weapon_damage: int, armour: int = 0, **kw):
        return combat.damage_distribution(att_pool, def_pool, weapon_damage, armour, rules=self.rules, **kw)

    def cast(self, caster, skill_key: str, design: magic.SpellDesign, **kw) -> magic.CastResult:
        return magic.cast(caster, skill_key, design, rules=self.rules, **kw)


SYSTEM = LifeAndDeathSystem()

__all__ = [
    "Character",
    "SYSTEM",
    "LifeAndDeathSystem",
    "DEFAULT_RULES",
    "PARAMS",
    "combat",
    "magic",
    "inventory",
    "progression",
    "data",
]
