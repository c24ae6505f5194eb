"""The RET character model (spec §3): the 12 stored leaves, the derived tree and indicators,
resources, abilities, flaws, equipment — a pure traitlets model (no widgets)."""

from __future__ import annotations

import copy
from typing import Any, Mapping

from traitlets import Bool, Dict, Int, List, Unicode

from tabletop_widgets.core import CharacterModel, Problem, T

from . import shapes
from .params import PARAMS, TIER1, TIER2, TIER3, TREE, ancestors
from .shapes import (
    PC_MAX_LEVEL,
)


class OptInt(Int):
    """An Int that may be None. (``CharacterModel.check_dict`` calls ``trait.validate`` directly,
    which skips traitlets' own ``allow_none`` handling, so None is accepted here.)"""

    def validate(self, obj, value):
        if value is None:
            return None
        return super().validate(obj, value)


def _param(default: int = 3):
    return Int(default, min=0, max=8, help="tier-III parameter level (0..7 PC, 0..8 NPC)").tag(persist=True)


def _derived(help_text: str):
    return Int(0, help=help_text).tag(derived=True)


class Character(CharacterModel):
    """An RET character. Only the 12 tier-III parameters are inputs; tiers II/I and the
    indicators are derived (spec §3.1, §3.3). NPCs may override any node (spec §3.8)."""

    SYSTEM = "ret"
    SCHEMA = 1

    # -- identity (spec §4.1, §10.1) -------------------------------------------------------------
    name = Unicode("", help="character name").tag(persist=True)
    player = Unicode("").tag(persist=True)
    concept = Unicode("").tag(persist=True)
    gender = Unicode("").tag(persist=True)
    age = Unicode("").tag(persist=True)
    height = Unicode("").tag(persist=True)
    weight = Unicode("").tag(persist=True)
    appearance = Unicode("").tag(persist=True)
    avatar = Unicode("", help="image URL or path").tag(persist=True)
    theme_music = Unicode("").tag(persist=True)
    backstory = Unicode("", help="квента").tag(persist=True)
    world = Unicode("").tag(persist=True)
    notes = Unicode("").tag(persist=True)

    is_npc = Bool(False).tag(persist=True)
    npc_tier = Unicode("regular", help="mook / regular / important / boss").tag(persist=True)  # L1735-1740
    #: NPC node overrides {node: level}; descendants inherit unless overridden (spec §3.8, A47)
    overrides = Dict(help="NPC overrides of any tree node").tag(persist=True)

    # -- tier III: the 12 inputs (spec §3.1) ------------------------------------------------------
    education = _param()
    wits = _param()
    attention = _param()
    intuition = _param()
    inspiration = _param()
    charisma = _param()
    composure = _param()
    leadership = _param()
    physique = _param()
    endurance = _param()
    fine_motor = _param()
    body_control = _param()

    # -- tiers II and I (derived, floor of the average of the two children, L49-52) ----------------
    intellect = _derived("(Education + Wits) // 2")
    perception = _derived("(Attention + Intuition) // 2")
    empathy = _derived("(Inspiration + Charisma) // 2")
    will = _derived("(Composure + Leadership) // 2")
    strength = _derived("(Physique + Endurance) // 2")
    agility = _derived("(Fine Motor + Body Control) // 2")
    mind = _derived("(Intellect + Perception) // 2")
    emotions = _derived("(Empathy + Will) // 2")
    body = _derived("(Strength + Agility) // 2")

    # -- indicators (spec §3.3) -------------------------------------------------------------------
    level = _derived("(Mind + Emotions + Body) // 3")  # L371
    health_max = _derived("2 × Body")  # L323
    sanity_max = _derived("Mind + Emotions")  # L338
    luck_max = _derived("2 × Level or the GM's value")  # L362
    strike_power = _derived("Strength // 2")  # L379
    speed = _derived("= Agility")  # L387

    # -- resources (None = start at the maximum) ---------------------------------------------------
    health = OptInt(None, allow_none=True, help="current Health; may be negative").tag(persist=True)
    sanity = OptInt(None, allow_none=True, help="current Sanity; may be negative").tag(persist=True)
    luck = OptInt(None, allow_none=True, min=0, help="current Luck; >= 0, may exceed max").tag(persist=True)
    luck_max_override = OptInt(None, allow_none=True, min=0, help="GM-set Luck maximum").tag(persist=True)  # A51
    temp_armour = Int(0, min=0, help="temporary armour pool").tag(persist=True)  # L1417-1427
    temp_armour_kind = Unicode("skin", help="skin (after armour) / shield (before armour)").tag(persist=True)
    temp_armour_expiry = Unicode("").tag(persist=True)
    stabilised_health = Bool(False).tag(persist=True)
    stabilised_sanity = Bool(False).tag(persist=True)
    dead = Bool(False).tag(persist=True)
    aim_bonus = Int(0, min=0).tag(persist=True)
    cover_bonus = Int(0, min=0).tag(persist=True)
    cover_shield_only = Bool(False, help="cover bonus from a shield: parry only").tag(persist=True)  # L1002

    # -- development points (spec §7.1) -----------------------------------------------------------
    dp = Int(0, min=0, help="common pool (recommended costing)").tag(persist=True)
    dp_params = Int(0, min=0, help="parameter pool (simplified costing)").tag(persist=True)
    dp_abilities = Int(0, min=0, help="ability pool (simplified costing)").tag(persist=True)
    dp_log = List(help="spend log: {target, from, to, cost, pool}").tag(persist=True)

    # -- lists ----------------------------------------------------------------------------------
    abilities = List(help="skills, talents, ultimates (spec §3.4)").tag(persist=True)
    flaws = List(help="flaws (spec §3.5)").tag(persist=True)
    weapons = List().tag(persist=True)
    armour = List().tag(persist=True)
    items = List().tag(persist=True)
    money = Unicode("").tag(persist=True)
    conditions = List(help="active conditions {id, duration, magnitude, source, notes}").tag(persist=True)
    tokens = List(help="tokens {name, kind flat/die_level, amount, applies_to, condition}").tag(persist=True)

    # ---------------------------------------------------------------------------------------------
    def __init__(self, **values: Any):
        self._prev_max: dict[str, int] = {}
        super().__init__(**values)

    # -- derivation -----------------------------------------------------------------------------
    @staticmethod
    def compute_tree(values: Mapping[str, Any]) -> dict[str, int]:
        """Effective levels of all 21 nodes from tier-III values and NPC overrides."""
        over = {k: int(v) for k, v in (values.get("overrides") or {}).items() if k in PARAMS}
        v: dict[str, int] = {}
        for leaf in TIER3:
            if leaf in over:
                v[leaf] = over[leaf]
                continue
            inherited = next((over[a] for a in ancestors(leaf) if a in over), None)
            v[leaf] = inherited if inherited is not None else int(values.get(leaf, 3))
        for node in TIER2 + TIER1:  # tier II before tier I (L49-52)
            a, b = TREE[node]
            v[node] = over[node] if node in over else (v[a] + v[b]) // 2
        return v

    @staticmethod
    def compute_indicators(tree: Mapping[str, int], luck_max_override: int | None = None) -> dict[str, int]:
        level = (tree["mind"] + tree["emotions"] + tree["body"]) // 3  # L371
        return {
            "level": level,
            "health_max": 2 * tree["body"],  # L323
            "sanity_max": tree["mind"] + tree["emotions"],  # L338
            "luck_max": 2 * level if luck_max_override is None else luck_max_override,  # L362, A51
            "strike_power": tree["strength"] // 2,  # L379
            "speed": tree["agility"],  # L387
        }

    def _derive(self) -> None:
        values = {n: getattr(self, n) for n in TIER3}
        values["overrides"] = self.overrides
        tree = self.compute_tree(values)
        for node in TIER2 + TIER1:
            setattr(self, node, tree[node])
        for k, val in self.compute_indicators(tree, self.luck_max_override).items():
            setattr(self, k, val)
        # current resources: start at max; follow a changed max (A40); never above max (L327, L343)
        for cur, mx in (("health", "health_max"), ("sanity", "sanity_max")):
            new_max = getattr(self, mx)
            old_max = self._prev_max.get(mx)
            value = getattr(self, cur)
            if value is None:
                value = new_max
            elif old_max is not None and new_max > old_max:
                value = min(new_max, value + (new_max - old_max))
            setattr(self, cur, min(value, new_max))
            self._prev_max[mx] = new_max
        if self.luck is None:
            # NPCs have no Luck unless the GM gives them some (A38)
            self.luck = 0 if self.is_npc else self.luck_max

    # -- lookups --------------------------------------------------------------------------------
    def value(self, node: str) -> int:
        """Effective level of any of the 21 parameters (NPC overrides included)."""
        if node in TIER3:
            values = {n: getattr(self, n) for n in TIER3}
            values["overrides"] = self.overrides
            return self.compute_tree(values)[node]
        if node in PARAMS:
            return getattr(self, node)
        raise KeyError(node)

    def ability(self, name: str) -> dict | None:
        for a in self.abilities:
            if a.get("name") == name or a.get("id") == name:
                return a
        return None

    def has_condition(self, cid: str) -> bool:
        return any(c.get("id") == cid for c in self.conditions)

    def update(self, **values: Any) -> None:
        """All-or-nothing update; lowering a maximum clamps the current value (A40)."""
        if any(k in values for k in TIER3 + ["overrides", "luck_max_override"]):
            merged = {n: getattr(self, n) for n in self.persisted_traits()}
            merged.update(values)
            try:
                ind = self.compute_indicators(self.compute_tree(merged), merged.get("luck_max_override"))
            except (TypeError, ValueError):
                ind = None
            if ind is not None:
                for cur, mx in (("health", "health_max"), ("sanity", "sanity_max")):
                    if cur not in values and getattr(self, cur) is not None and getattr(self, cur) > ind[mx]:
                        values[cur] = ind[mx]
        super().update(**values)

    # -- what a player may enter -----------------------------------------------------------------
    @classmethod
    def input_range(cls, name: str, values: Mapping[str, Any]) -> tuple[int | None, int | None]:
        """A player character's parameters stop at 7 (level 8 is the GM's, L285). Health and
        Sanity are entered between their maximum and the threshold of the rules, −3 × the
        maximum (L325, L341): past it coma or death is certain. (A hit may still take them
        further: that is the rules' doing, and the sheet then lets the value come back.)"""
        lo, hi = super().input_range(name, values)
        if name in TIER3 and not values.get("is_npc"):
            return lo, PC_MAX_LEVEL
        if name in ("health", "sanity"):
            try:
                ind = cls.compute_indicators(cls.compute_tree(values), values.get("luck_max_override"))
            except (TypeError, ValueError, KeyError):
                return lo, hi
            mx = ind[f"{name}_max"]
            return -3 * mx, mx
        return lo, hi

    # -- hard limits on raw values (spec §4.3 shape errors V1, V2, V8, V9, V10, V16) -------------
    @classmethod
    def check_values(cls, values: Mapping[str, Any]) -> list[Problem]:
        problems = shapes.value_problems(cls, values)
        if not any(p.field in TIER3 or p.field == "overrides" for p in problems):
            problems += cls._above_max(values)
        return problems

    @classmethod
    def _above_max(cls, values: Mapping[str, Any]) -> list[Problem]:
        """V16: current Health / Sanity not above maximum."""
        try:
            ind = cls.compute_indicators(cls.compute_tree(values), values.get("luck_max_override"))
        except (TypeError, ValueError):
            return []
        problems = []
        for cur, mx, en, ru in (
            ("health", "health_max", "Health", "Здоровье"),
            ("sanity", "sanity_max", "Sanity", "Рассудок"),
        ):
            v = values.get(cur)
            if v is not None and v > ind[mx]:
                problems.append(
                    Problem(
                        f"{cur}_above_max",
                        T(
                            f"{en} cannot exceed its maximum ({ind[mx]}).",
                            f"{ru} не может превышать максимум ({ind[mx]}).",
                        ),
                        field=cur,
                    )
                )
        return problems


def ability_divider(a: Mapping[str, Any]) -> tuple[int, int] | None:
    """An ability's fixed divider (L642) as (D, base), from ``[4, 2]`` or ``"4+2"``."""
    div = a.get("divider")
    if div is None or (isinstance(div, str) and not div.strip()):
        return None
    if isinstance(div, str):
        d_, _, b_ = div.replace("(", "").replace(")", "").partition("+")
        return int(d_), int(b_ or 0)
    return int(div[0]), int(div[1])


def new_ability(name: str, kind: str, base_param: str | None, level: int, **extra: Any) -> dict:
    a = {
        "name": name,
        "kind": kind,
        "base_param": base_param,
        "level": level,
        "is_superpower": False,
        "sanity_cost": 0,
        "divider": None,
        "notes": "",
    }
    a.update(copy.deepcopy(extra))
    return a
