"""Seasons constants: trait catalogues, tier budgets and the GM-configurable readings (spec §11.1)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from tabletop_widgets.core import T

DATA_DIR = Path(__file__).with_name("data")

#: The nine attributes in sheet order (spec §2.4; L127, L460): rows Mental / Social / Physical.
ATTRIBUTES = (
    "intelligence",
    "wits",
    "resolve",
    "presence",
    "manipulation",
    "composure",
    "strength",
    "dexterity",
    "stamina",
)
ATTRIBUTE_GROUPS = {"mental": ATTRIBUTES[0:3], "social": ATTRIBUTES[3:6], "physical": ATTRIBUTES[6:9]}

#: The 18 skills in the canonical order of L133 / L482 (spec §2.5).
SKILLS = (
    "athletics",
    "melee",
    "ranged",
    "larceny",
    "drive",
    "survival",
    "science",
    "occult",
    "medicine",
    "investigation",
    "crafts",
    "expression",
    "leadership",
    "intimidation",
    "persuasion",
    "animal_ken",
    "socialize",
    "empathy",
)

TIERS = ("novice", "experienced", "expert", "hero")

DEFENCES = {
    "physical_defence": "stamina",
    "social_defence": "composure",
    "mental_defence": "resolve",
}  # L45, L174-176, L667

CONDITION_KINDS = ("physical", "mental", "social")
#: Resist / shake off a condition (L688): kind -> (attribute, skill).
CONDITION_CHECK = {
    "physical": ("stamina", "athletics"),
    "mental": ("resolve", "occult"),
    "social": ("composure", "empathy"),
}

STANDARD_MODIFIER = 3  # Advantage, Problem, Condition, Drama: exactly 3 dice (L123, L316, L687, L741)
AIM_BONUS = 2  # L766
HELP_CAP = 5  # L767
SUCCESS_THRESHOLD = 6  # L39
DEFAULT_DIFFICULTY = 3  # L33

#: GM-configurable readings of ambiguous rules (spec §11.1) with their defaults.
DEFAULT_RULES: dict[str, Any] = {
    "trait_cap": 5,  # 10 for epic games (L752)
    "success_threshold": SUCCESS_THRESHOLD,  # L39 (fixed by the book; exposed for house rules)
    "rule_of_10": True,  # L55
    "drama_limit": "per_character",  # or "per_check" (L742, §11 #3)
    "drama_after_roll": False,  # L741 (§11 #4)
    "drama_reset": "always",  # or "only_if_lower" (L740, §11 #5)
    "pain_penalises_own_suppression": True,  # L708 (§11 #6)
    "first_aid_in_rounds": False,  # L575 vs L723 (§11 #8)
    "treatment_stacks_with_rest": True,  # L723, L725 (§11 #10)
    "ap_reduces_pd": False,  # L826 (§11 #11)
    "reroll_ties_each_round": False,  # L729-730 (§11 #22)
    "instants_with_normal": True,  # L66 vs L83/L86 (§11 #21)
    "max_advantages_per_check": 1,  # L123 (§11 #17)
    "spec_max_equals_skill": False,  # L139-141 (§11 #18)
    "allow_unspent": False,  # L129, L135, L141 (§11 #19)
    "inspire_bonus": 3,  # L615 (§11 #23)
    "frighten_penalty": 3,  # L624 (§11 #23)
    "repair_restores": "all",  # or "successes" (L792, §11 #28)
    "zero_health_outcome": "storyteller_choice",  # L722 (§11 #26)
    "untrained_penalty": 0,  # §11 #38
    "warn_mundane_over_5": True,  # L769, L774, L777 (§11 #34)
    "ambush_mode": "sneaker_rolls",  # L83 vs L525 (§11 #41)
    "auto_pain": True,  # L708 (§11 #43)
    # The active Problem / Advantage markers and the relevant conditions apply to checks by
    # themselves (the lead's reading of spec §10.1 "the active ones pre-fill the dice tray");
    # False: §11 #43 literally, they count only when ticked in the tray. The queue is always used.
    "auto_sheet_modifiers": False,  # §11 #43: only Pain applies by itself; the rest when ticked
}

#: Allowed values of the string/int options (checked by the system constructor).
RULE_CHOICES: dict[str, tuple] = {
    "trait_cap": (5, 10),
    "drama_limit": ("per_character", "per_check"),
    "drama_reset": ("always", "only_if_lower"),
    "repair_restores": ("all", "successes"),
    "zero_health_outcome": ("storyteller_choice", "death", "incapacitated", "captured"),
    "ambush_mode": ("sneaker_rolls", "observer_rolls"),
}


def tier_step(tier: str) -> int:
    return TIERS.index(tier)


def budgets(tier: str) -> tuple[int, int, int]:
    """(attribute, skill, specialization) points of a tier: 15/25/10 + 5/10/6 per step (L182-184, L749-752)."""
    t = tier_step(tier)
    return 15 + 5 * t, 25 + 10 * t, 10 + 6 * t


@lru_cache(maxsize=None)
def load_table(name: str) -> tuple:
    path = DATA_DIR / f"{name}.json"
    if not path.is_file():
        raise KeyError(name)
    return tuple(json.loads(path.read_text(encoding="utf-8")))


def table_names() -> list[str]:
    return sorted(p.stem for p in DATA_DIR.glob("*.json"))


@lru_cache(maxsize=None)
def labels() -> dict[str, dict[str, str]]:
    """Bilingual labels of every attribute and skill by code id."""
    out = {r["id"]: T(r["en"], r["ru"]) for r in load_table("attributes")}
    out.update({r["id"]: T(r["en"], r["ru"]) for r in load_table("skills")})
    return out


def label(name: str) -> dict[str, str]:
    return labels().get(name, T(name, name))
