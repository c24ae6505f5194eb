"""The Life&Death's Game character (spec §3): traits named by the spec glossary code ids."""

from __future__ import annotations

import re
from typing import Any, ClassVar, Mapping

from traitlets import Bool, Dict, Float, Int, List, Unicode

from tabletop_widgets.core import CharacterModel, Problem, T
from tabletop_widgets.core.data import DataTables
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core.phases import old_name

from . import data
from .options import DEFAULTS

# the book's tables (data/*.json) name these; the rules read them as constants
PARAMS = data.ids("parameters")
SKILL_PARAMS = tuple(p for p, yes in data.column("parameters", "has_skills").items() if yes)  # L86
PHYSICAL_PARAMS = tuple(p for p, yes in data.column("parameters", "physical").items() if yes)  # L55, L369
PARAM_LABELS = {r["id"]: T(r["en"], r["ru"]) for r in data.TABLES.rows("parameters")}
POOLS = ("hp", "ep", "sp", "ip")
SKILL_KEY_RE = re.compile(r"^[a-z][a-z0-9_]*(?::[a-z0-9_]+)?$")
AGES = data.ids("ages")
HELMETS = data.ids("helmets")
ITEM_CATEGORIES = ("weapon", "armour", "simple", "money", "potion", "amulet", "artifact", "pet")
RARITY_MULT = data.column("rarities", "multiplier")  # L150
#: a weapon's kind (L155, L237): "" or "melee" a hand weapon; the others attack at range
WEAPON_KINDS = ("", "melee", "bow", "crossbow", "firearm", "thrown")
FEATURE_ORIGINS = ("racial", "bought", "negative", "levelup", "surprise")
COINS = data.ids("coins")
STATUSES = ("", "incapacitated", "dead")  # §6.12 (GM / tracker states)
#: The creation layers a parameter is made of (spec §3.0): while creating, changing one moves it.
LAYER_TRAITS = ("race_params", "age", "param_points", "features")
WOUND_ZONES = ("", "torso", "limb", "tail", "neck", "head_face", "head_skull")  # L258-L268; "" = unspecified


def round_to_half(x: float) -> float:
    """Nearest multiple of 0.5, halves up (L158 "rounded to 0.5 kg"; spec §3.10)."""
    import math

    return math.floor(x * 2 + 0.5) / 2


def skill_id_of(key: str) -> str:
    return key.split(":", 1)[0]


def skill_def(tables: DataTables, skill_id: str) -> Mapping[str, Any] | None:
    return data.row(tables, "skills", skill_id)


def feature_def(tables: DataTables, feature_id: str) -> Mapping[str, Any] | None:
    return data.row(tables, "features", feature_id)


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def int_map(m: Any, keys) -> bool:
    return isinstance(m, Mapping) and all((keys is None or k in keys) and is_int(v) for k, v in m.items())


class Character(CharacterModel):
    """A Life&Death's Game character.

    The six parameters hold their *final* values (spec §3.0: what the sheet shows and every
    formula uses). The creation layers that explain them are kept alongside: ``race_params``
    (racial values), ``age``, ``param_points`` (free age points), ``param_advances`` (level-ups
    and a higher-level start) and the feature modifiers of ``features``; ``validate()`` checks
    that the layers add up.
    """

    SYSTEM: ClassVar[str] = "life_and_death"
    SCHEMA: ClassVar[int] = 1
    #: ``stage`` is the core's ``phase`` now (``creation`` / ``play``)
    RENAMED: ClassVar[Mapping[str, str]] = {"stage": "phase"}
    stage = old_name("phase")
    RULES: ClassVar[GmOptions] = GmOptions(DEFAULTS)
    TABLES: ClassVar[DataTables] = data.TABLES

    # -- story ---------------------------------------------------------------------------------
    name = Unicode("", help="Given name + optional nickname").tag(persist=True)  # L132
    race = Unicode("", help="Race id from the races table").tag(persist=True)  # L43
    race_params = Dict(help="Racial starting parameters; empty = free-form").tag(persist=True)  # L45
    age = Unicode("", help="Age category: child/adolescent/young/adult").tag(persist=True)  # L49-L78
    mode = Unicode("campaign", help="quick or campaign (L7)").tag(persist=True)
    faith = Unicode("", help="Patron deity id").tag(persist=True)  # L133-L142
    affinity = Unicode("", help="Source id with Source affinity").tag(persist=True)  # L107
    direction = Unicode("", help="Energetics direction H or C").tag(persist=True)  # L90
    belief = Unicode("", help="Belief / mentality (L9)").tag(persist=True)
    notes = Unicode("").tag(persist=True)

    # -- parameters (final values, §3.1) ---------------------------------------------------------
    might = Int(1, help="Might (final)").tag(persist=True)
    dexterity = Int(1, help="Dexterity (final)").tag(persist=True)
    alertness = Int(1, help="Alertness (final)").tag(persist=True)
    complexity = Int(1, help="Complexity (final)").tag(persist=True)
    power = Int(1, help="Power / Brightness (final)").tag(persist=True)
    luck = Int(1, help="Luck (final)").tag(persist=True)
    param_points = Dict(help="Free age points per parameter").tag(persist=True)  # L55
    param_advances = Dict(help="Level-up / high-start increases per parameter").tag(persist=True)  # L369, L377

    # -- skills and features ------------------------------------------------------------------
    skills = Dict(help="skill key (id or id:specialization) -> level").tag(persist=True)  # L80-L84
    skill_xp = Dict(help="skill key -> XP counter 0-5").tag(persist=True)  # L357
    custom_skills = Dict(help="ad-hoc skill id -> its parameter, for skills not in the data").tag(persist=True)
    features = List(help="[{id, level, origin, note}]").tag(persist=True)  # L92-L109

    # -- progression ------------------------------------------------------------------------------
    xp = Int(0, help="Cumulative character XP").tag(persist=True)  # L359
    pending_improvements = Int(0, help="Level-up choices not yet taken").tag(persist=True)  # L361
    surprises_pending = Int(0, help="Surprises the GM owes for the next session").tag(persist=True)  # L371
    reputation = Int(1, help="Never 0 unless Inconspicuous").tag(persist=True)  # L343
    epic_dice = Int(0, help="0..|reputation|").tag(persist=True)  # L349

    # -- health (current values; None = full) -------------------------------------------------------
    base_hp = Int(
        None,
        allow_none=True,
        help="Race base HP (race table, absent from the seed); None = the race row's, else the rules' default_base_hp",
    ).tag(persist=True)
    hp = Int(None, allow_none=True, help="Current HP").tag(persist=True)
    ep = Int(None, allow_none=True, help="Current EP (pattern health)").tag(persist=True)
    sp = Int(None, allow_none=True, help="Current SP (soul health)").tag(persist=True)
    ip = Int(None, allow_none=True, help="Current IP (idea health)").tag(persist=True)
    wounds = List(help="[{zone, kind, note}] lasting injuries (no mechanical effect)").tag(
        persist=True
    )  # A-36, L260-L268
    status = Unicode("", help="State set by the GM / tracker on top of HP: '', 'incapacitated' or 'dead' (§6.12)").tag(
        persist=True
    )
    transforming = Bool(
        False, help="Mid-transformation: all damage taken is doubled until the character's next action"
    ).tag(persist=True)  # L119

    # -- inventory ----------------------------------------------------------------------------------
    inventory = List(help="[{name, category, rarity, cost, weight_kg, equipped, damage, protection, min_might}]").tag(
        persist=True
    )
    helmet = Unicode("none", help="none / open / closed").tag(persist=True)  # L158-L160
    money = Dict(help="{fire, agate, emerald, azure} coins").tag(persist=True)  # L164
    forms = List(help="Shapeshifter forms [{creature, tier, might, dexterity, alertness, start_*}]").tag(persist=True)
    pets = List(help="[{creature, behaviour, note}]").tag(persist=True)  # L178-L182
    familiar = Dict(help="Familiar summary {creature, note}").tag(persist=True)  # L184-L188

    # -- derived (§3.2-§3.4) ---------------------------------------------------------------------------
    initiative = Int(0, help="Dexterity + Alertness").tag(derived=True)  # L24, L125
    initiative_pool = Int(0, help="Initiative + 2 Speed - 1 closed helmet").tag(derived=True)  # L220, L159
    will = Int(0, help="Power + Complexity").tag(derived=True)  # L25, L128
    magic_defence = Int(0, help="= Complexity").tag(derived=True)  # L126
    carry_capacity_kg = Int(0, help="(Might + Athletics) x 5 kg").tag(derived=True)  # L127
    hp_max = Int(0).tag(derived=True)
    ep_max = Int(0, help="Complexity + Power").tag(derived=True)  # L128
    sp_max = Int(0, help="Complexity + Luck").tag(derived=True)  # L129
    ip_max = Int(0, help="Power + Luck").tag(derived=True)  # L130
    base_damage = Int(0, help="By age: 0/0/1/1").tag(derived=True)  # L57
    hand_damage = Int(0, help="Base damage + Claws level").tag(derived=True)  # L131
    level = Int(1, help="1 + xp // 20").tag(derived=True)  # L359
    xp_to_next = Int(20).tag(derived=True)
    inv_points = Int(10, help="10 (+10 Well-Stocked)").tag(derived=True)  # L146
    inv_points_spent = Float(0.0).tag(derived=True)
    carried_weight_kg = Float(0.0).tag(derived=True)
    armour_level = Int(0, help="Worn armour + natural armour").tag(derived=True)
    natural_armour = Int(0, help="Natural armour protection").tag(derived=True)  # L108
    max_forms = Int(0, help="1 + 2 x Transformation with Shapeshifter").tag(derived=True)  # L84, L109
    mutant = Bool(False, help="Has a bought mutation").tag(derived=True)  # L97
    is_shapeshifter = Bool(False, help="Has the Shapeshifter feature: the forms sheet applies").tag(
        derived=True
    )  # L109-L111
    uses_reputation = Bool(True, help="Campaign game: reputation and epic dice apply").tag(derived=True)  # L47, L347
    hp_base = Int(10, help="Base HP in use: entered, else the race's, else the rules' default").tag(
        derived=True
    )
    wound_count = Int(0, help="Number of recorded wounds").tag(derived=True)
    parameter_layers = Dict(help="param -> {racial, age_mod, points, advances, base, feature_mod, final} (§3.0)").tag(
        derived=True
    )
    skill_budget = Dict(help="param -> {used, budget} skill points at creation").tag(derived=True)  # L82
    feature_points = Dict(help="{age, negative, available, cost}").tag(derived=True)  # L94-L104

    # ---------------------------------------------------------------------------------------------
    def __init__(self, **values: Any):
        self._prev_max: dict[str, int] = {}
        self._params_given = False
        super().__init__(**values)
        self.observe(self._follow_layers, names=list(LAYER_TRAITS))
        if not any(p in values for p in PARAMS):
            self._follow_layers(None)

    def update(self, **values: Any) -> None:
        """All-or-nothing update; current pools given explicitly are kept as given (a bulk change
        of a max in the same update must not shift them, e.g. ``load_dict``), and so are
        parameters given explicitly (their layers do not move them then)."""
        self._params_given = any(p in values for p in PARAMS)
        try:
            super().update(**values)
        finally:
            self._params_given = False
        for pool in POOLS:
            if pool in values:
                setattr(self, pool, values[pool])

    def layered_value(self, p: str) -> int:
        """What parameter ``p`` comes to from its layers (spec §3.0): racial + age + points +
        advances + features, a feature's push past 5 held at 5 under the default reading, kept
        within the allowed range."""
        lay = self.param_layers(p)
        base, mod = lay["racial"] + lay["age_mod"] + lay["points"] + lay["advances"], lay["feature_mod"]
        final = base + mod
        if mod > 0 and final > 5 and 1 <= base <= 5 and self.RULES.feature_param_overflow == "clamp":
            final = max(5, base)
        return max(1, min(final, self.param_cap()))

    def _follow_layers(self, change) -> None:
        """While a character with racial values is being created, its parameters follow their
        layers: entering the race's values, the age, the age points or a feature sets them (a
        sheet or the wizard never has to add them up). In play only advances move them."""
        if self.phase != "creation" or self._params_given or not self.race_params:
            return
        if set(self.race_params) != set(PARAMS) or not all(
            is_int(v) and 1 <= v <= 5 for v in self.race_params.values()
        ):
            return  # half-entered racial values: validate() says what is missing
        values = {p: self.layered_value(p) for p in PARAMS}
        if any(getattr(self, p) != v for p, v in values.items()):
            with self.hold_trait_notifications():
                for p, v in values.items():
                    setattr(self, p, v)

    # -- queries ------------------------------------------------------------------------------------
    def param(self, p: str) -> int:
        return getattr(self, p)

    def skill_level(self, key: str) -> int:
        v = self.skills.get(key, 0)
        return v if is_int(v) else 0

    def feature_level(self, feature_id: str) -> int:
        """Total level of a feature (all instances); 0 if absent."""
        return sum(int(f.get("level", 0)) for f in self.features if f.get("id") == feature_id)

    def has_feature(self, feature_id: str) -> bool:
        return any(f.get("id") == feature_id for f in self.features)

    def feature_note(self, feature_id: str) -> str:
        for f in self.features:
            if f.get("id") == feature_id and f.get("note"):
                return str(f["note"])
        return ""

    def skill_param(self, key: str) -> str | None:
        """The parameter a skill hangs off under this character's own GM options."""
        return self.skill_param_under(key, options=self.RULES)

    def skill_param_under(self, key: str, *, options: Mapping[str, Any]) -> str | None:
        """The parameter a skill hangs off: skill data, then the sheet's custom_skills, then
        the GM options' reading of an unstated one."""
        sid = skill_id_of(key)
        d = skill_def(self.TABLES, sid)
        if d and d.get("param"):
            return d["param"]
        p = self.custom_skills.get(sid) or self.custom_skills.get(key)
        if p in SKILL_PARAMS:
            return p
        # A-56 [DEFAULT]: a built-in skill whose parameter the seed does not state (Survival,
        # Transformation) takes the rules' reading (OPTION unstated_skill_params; {} = none).
        if d is not None:
            p = (options.unstated_skill_params or {}).get(sid)
            return p if p in SKILL_PARAMS else None
        return None

    def effective_base_hp(self) -> int:
        """Base HP in use (A-02): as entered; else the race row's ``base_hp``; else the rules'
        ``default_base_hp`` (house default 10; None = no default -> 0 and a validation error)."""
        if self.base_hp is not None:
            return self.base_hp
        r = data.row(self.TABLES, "races", self.race) if self.race else None
        if r and isinstance(r.get("base_hp"), int):
            return int(r["base_hp"])
        d = self.RULES.default_base_hp
        return int(d) if d is not None else 0

    def base_hp_missing(self) -> bool:
        """No base HP anywhere and the rules give no default (OPTION default_base_hp=None)."""
        if self.base_hp is not None:
            return False
        r = data.row(self.TABLES, "races", self.race) if self.race else None
        return not (r and isinstance(r.get("base_hp"), int)) and self.RULES.default_base_hp is None

    def feature_mod(self, p: str) -> int:
        """Sum of the features' modifiers to parameter ``p`` (L102-L103). A feature instance may
        carry its own ``param_mods`` (ad-hoc features); otherwise the feature data's, per level."""
        total = 0
        for f in self.features:
            mods = f.get("param_mods")
            if mods is None:
                d = feature_def(self.TABLES, str(f.get("id", ""))) or {}
                mods = d.get("param_mods") or {}
                total += int(mods.get(p, 0)) * int(f.get("level", 0))
            else:
                total += int(mods.get(p, 0))  # instance mods are totals
        return total

    def age_mod(self, p: str) -> int:
        """Age swap of L62-L76 (needs racial values). [DEFAULT A-04] the condition gates both halves."""
        a = data.row(self.TABLES, "ages", self.age) if self.age else None
        if not a or not self.race_params:
            return 0
        minus_ok = int(self.race_params.get(a["minus"], 1)) > 1
        scope = self.RULES.age_swap_scope
        if p == a["minus"]:
            return -1 if minus_ok else 0
        if p == a["plus"]:
            if not (minus_ok or scope == "minus_only"):
                return 0
            if int(self.race_params.get(p, 1)) + 1 > 5 and self.RULES.age_swap_overflow != "error":
                return 0  # [DEFAULT A-04] clamp the overflow to 5 (validate warns)
            return 1
        return 0

    def param_layers(self, p: str) -> dict[str, int]:
        """The layers of spec §3.0 as far as they are recorded. Free-form characters (no
        ``race_params``) take the racial layer as whatever makes the final value add up."""
        points = int(self.param_points.get(p, 0))
        adv = int(self.param_advances.get(p, 0))
        fmod = self.feature_mod(p)
        final = self.param(p)
        if self.race_params:
            racial = int(self.race_params.get(p, 1))
            age = self.age_mod(p)
        else:
            age = 0
            racial = final - fmod - points - adv
        base = racial + age + points + adv
        return {
            "racial": racial,
            "age_mod": age,
            "points": points,
            "advances": adv,
            "base": base,
            "feature_mod": fmod,
            "final": final,
            "computed_final": base + fmod,
        }

    def base_param(self, p: str) -> int:
        """``param.base`` = final - feature modifiers (used for skill budgets, L103)."""
        return self.param(p) - self.feature_mod(p)

    def worn(self, category: str) -> dict | None:
        for it in self.inventory:
            if it.get("category") == category and it.get("equipped"):
                return it
        return None

    # -- derivation ------------------------------------------------------------------------------------
    def _derive(self) -> None:
        options = self.RULES
        dex, alert, cx, pw, lk, mi = (
            self.dexterity,
            self.alertness,
            self.complexity,
            self.power,
            self.luck,
            self.might,
        )
        self.initiative = dex + alert  # L24, L125
        pool = self.initiative + (2 if self.has_feature("speed") else 0)  # L220
        if self.helmet == "closed":
            pool -= 1  # L159 [DEFAULT: a die]
        self.initiative_pool = max(0, pool)
        self.will = pw + cx  # L25
        self.magic_defence = cx  # L126
        self.carry_capacity_kg = (mi + self.skill_level("athletics")) * 5  # L127
        self.ep_max = cx + pw  # L128
        self.sp_max = cx + lk  # L129
        self.ip_max = pw + lk  # L130
        # HP: race base HP + Might above the racial value.
        base_hp = self.effective_base_hp()
        self.hp_base = base_hp
        if options.hp_formula == "manual":
            hp_max = base_hp
        else:
            might_used = mi if options.hp_include_feature_might else mi - self.feature_mod("might")
            if self.race_params and "might" in self.race_params:
                ref = int(self.race_params["might"])
            else:
                ref = (
                    mi
                    - self.feature_mod("might")
                    - int(self.param_points.get("might", 0))
                    - int(self.param_advances.get("might", 0))
                )
            hp_max = base_hp + might_used - ref
        self.hp_max = hp_max
        a = data.row(self.TABLES, "ages", self.age) if self.age else None
        self.base_damage = int(a["base_damage"]) if a else 0  # L57
        self.hand_damage = self.base_damage + self.feature_level("claws")  # L131
        self.level = 1 + max(0, self.xp) // 20  # L359
        self.xp_to_next = 20 - max(0, self.xp) % 20
        self.inv_points = 10 + (10 if self.has_feature("well_stocked") else 0)  # L146
        from .inventory import carried_weight, inventory_cost, natural_armour_protection

        self.inv_points_spent = float(inventory_cost(self))
        self.carried_weight_kg = float(carried_weight(self))
        nat = natural_armour_protection(self.feature_level("natural_armour"), self.age)
        self.natural_armour = nat
        worn = self.worn("armour")
        body = int(worn.get("protection", 0)) if worn else 0
        if options.natural_armour_stacking == "max":
            self.armour_level = max(body, nat)
        else:
            self.armour_level = body + nat
        self.max_forms = (1 + 2 * self.skill_level("transformation")) if self.has_feature("shapeshifter") else 0
        self.mutant = any(self._is_bought_mutation(f) for f in self.features)
        self.is_shapeshifter = self.has_feature("shapeshifter")
        self.uses_reputation = self.mode != "quick" and options.mode != "quick"
        self.wound_count = len(self.wounds)
        self.parameter_layers = {p: self.param_layers(p) for p in PARAMS}
        used = {p: 0 for p in SKILL_PARAMS}
        for key in self.skills:
            sp = self.skill_param(key)
            if sp:
                used[sp] += self.skill_level(key)
        self.skill_budget = {p: {"used": used[p], "budget": self.base_param(p)} for p in SKILL_PARAMS}
        from .feature_rules import feature_budget

        self.feature_points = feature_budget(self)
        self._follow_pools()

    def _is_bought_mutation(self, f: Mapping) -> bool:
        d = feature_def(self.TABLES, str(f.get("id", ""))) or {}
        kind = f.get("kind") or d.get("kind")
        if kind != "mutation":
            return False
        if f.get("origin") == "racial":
            return False
        # Raising a racial feature is not a mutation unless the option says so.
        racial = any(g.get("id") == f.get("id") and g.get("origin") == "racial" for g in self.features)
        return not racial or bool(self.RULES.racial_upgrade_is_mutation)

    def _follow_pools(self) -> None:
        """Current pools: full on a new character; raising a max raises current by the same delta
        (§3.4, OPTION raise_current_with_max); always clamped to the max."""
        for pool in POOLS:
            mx = getattr(self, pool + "_max")
            cur = getattr(self, pool)
            prev = self._prev_max.get(pool)
            if cur is None or (prev is not None and cur == prev):
                cur = mx  # undamaged pools follow their max (§3.4)
            elif prev is not None and mx > prev and self.RULES.raise_current_with_max:
                cur += mx - prev
            cur = min(cur, mx)
            if pool != "hp":
                cur = max(0, cur)
            setattr(self, pool, cur)
            self._prev_max[pool] = mx

    # -- what a player may enter ------------------------------------------------------------------
    @classmethod
    def input_range(cls, name: str, values: Mapping[str, Any]) -> tuple[int | None, int | None]:
        """Parameters stop at 5 unless the GM allows more (§11); a pool of EP/SP/IP at its
        maximum (HP may exceed it only through the rules' own changes)."""
        lo, hi = super().input_range(name, values)
        if name in PARAMS:
            return 1, cls.param_cap()
        return lo, hi

    @classmethod
    def param_cap(cls) -> int:
        return 10 if (cls.RULES.allow_params_above_5 or cls.RULES.feature_param_overflow == "allow") else 5

    # -- hard limits on raw values ------------------------------------------------------------------
    @classmethod
    def check_values(cls, values: Mapping[str, Any]) -> list[Problem]:
        from .value_checks import value_problems  # it reads this module's tables: imported late

        return value_problems(cls, values)
