"""Core contracts: the GameSystem protocol, character model base, sheet layout, i18n, registry."""

from .attacks import AttackCondition, AttackOdds, AttackOutcome, AttackSpec
from .combat import Combat, Combatant, clone_character
from .i18n import LOCALES, T, count, plural_ru, tr
from .model import CharacterModel
from .phases import PHASES
from .problems import Problem, RuleError, ValidationError
from .registry import available_systems, get_system, register_system, unregister_system
from .sheet import Field, Section, Sheet, SheetAction, SheetError
from .system import (
    CheckResult,
    CheckSpec,
    ConditionSpec,
    DamageOutcome,
    Effect,
    GameSystem,
    InitiativeOrder,
    InitiativeRoll,
    OptionSpec,
)

__all__ = [
    "AttackCondition",
    "AttackOdds",
    "AttackOutcome",
    "AttackSpec",
    "Combat",
    "Combatant",
    "clone_character",
    "LOCALES",
    "T",
    "count",
    "plural_ru",
    "tr",
    "CharacterModel",
    "PHASES",
    "Problem",
    "RuleError",
    "ValidationError",
    "available_systems",
    "get_system",
    "register_system",
    "unregister_system",
    "Field",
    "Section",
    "Sheet",
    "SheetAction",
    "SheetError",
    "CheckResult",
    "CheckSpec",
    "ConditionSpec",
    "DamageOutcome",
    "Effect",
    "GameSystem",
    "InitiativeOrder",
    "InitiativeRoll",
    "OptionSpec",
]
