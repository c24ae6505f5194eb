"""The Threads of Fate character model (spec §3): inputs, derived values, hard input limits."""

from __future__ import annotations

import functools
from typing import Any, ClassVar, Mapping

from traitlets import Bool, Dict, Int, List, Unicode

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.model import CharacterModel
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core.phases import old_name
from tabletop_widgets.core.problems import Problem
from .entry_limits import entry_problems
from .options import DEFAULTS, hero_caps
from .sizes import size_values
from .traits import CHARACTERISTICS, EXPERT_SKILLS, HERO_MAX, SKILLS, mod


ATTRIBUTE_CODES = ("augmented", "combat_robot", "martial_arts", "veteran")

DAMAGE_KINDS = ("poison", "contaminating")


class OptInt(Int):
    """An Int that may be None (a GM-entered value not entered yet).

    Work-around: ``CharacterModel.check_dict`` calls ``trait.validate`` directly, which skips
    traitlets' ``allow_none`` handling, so a plain ``OptInt(None, allow_none=True)`` fails to round-trip.
    """

    def validate(self, obj, value):
        if value is None and self.allow_none:
            return None
        return super().validate(obj, value)


class Character(CharacterModel):
    """A hero, persona or extra of Threads of Fate. Trait names are the spec's code ids (§3.9)."""

    SYSTEM = "threads_of_fate"
    SCHEMA = 1
    #: ``stage`` is the core's ``phase`` now (``creation``: §4 budgets apply; ``play``)
    RENAMED: ClassVar[Mapping[str, str]] = {"stage": "phase"}
    stage = old_name("phase")
    #: The GM-configurable rules (spec §11) derived values honour. ``SYSTEM.with_rules(...).Character``
    #: is a subclass bound to that system's rules (see :meth:`bound`); the rules are campaign settings,
    #: not character data, so ``to_dict`` never saves them.
    RULES: ClassVar[GmOptions] = GmOptions(DEFAULTS)

    # -- header (§4.1, §10.1) ------------------------------------------------------------------
    name = Unicode("", help="Name").tag(persist=True)
    concept = Unicode("", help="Concept paragraph").tag(persist=True)  # L249-250
    entity_type = Unicode("hero", help="hero / persona / extra").tag(persist=True)  # L62-65
    size = Unicode("medium", help="Size").tag(persist=True)  # L303
    gm_approved_size = Bool(False, help="GM approved a non-Medium hero").tag(persist=True)  # L303
    quadruped = Bool(False, help="Speed x2 on the ground").tag(persist=True)  # L318
    flying = Bool(False, help="Speed x3 while flying").tag(persist=True)  # L319
    size_hp_mult = OptInt(None, allow_none=True, help="GM-entered HP multiplier for this size (table missing, X6)").tag(
        persist=True
    )
    size_sbp = OptInt(None, allow_none=True, help="GM-entered size bonus/penalty (table missing, X6)").tag(persist=True)

    # -- primary characteristics (§3.2): base score + bonuses ------------------------------------
    strength = Int(10, help="Strength score (bought)").tag(persist=True)
    dexterity = Int(10, help="Dexterity score (bought)").tag(persist=True)
    constitution = Int(10, help="Constitution score (bought)").tag(persist=True)
    intelligence = Int(10, help="Intelligence score (bought)").tag(persist=True)
    wisdom = Int(10, help="Wisdom score (bought)").tag(persist=True)
    charm = Int(10, help="Charm score (bought)").tag(persist=True)

    # §3.2: ordinary bonuses (capped at 20 for heroes), stimulant/implant bonuses (uncapped), drain
    for _c in CHARACTERISTICS:
        locals()[_c + "_bonus"] = Int(0, help="ordinary bonus (capped at 20)").tag(persist=True)  # L274
        locals()[_c + "_implant"] = Int(0, help="stimulant/implant bonus (may exceed 20)").tag(persist=True)  # L274
        locals()[_c + "_drain"] = Int(0, help="temporary loss (poison, disease)").tag(persist=True)  # L362
    del _c

    # -- skills (§3.6): value = XP invested ------------------------------------------------------
    athletics = Int(0).tag(persist=True)
    weapons = Int(0).tag(persist=True)
    sleight = Int(0).tag(persist=True)
    perception = Int(0).tag(persist=True)
    communication = Int(0).tag(persist=True)
    unarmed = Int(0).tag(persist=True)
    stealth = Int(0).tag(persist=True)
    shooting = Int(0).tag(persist=True)
    warfare = Int(0).tag(persist=True)
    survival = Int(0).tag(persist=True)
    performance = Int(0).tag(persist=True)
    art = Int(0).tag(persist=True)
    medicine = Int(0).tag(persist=True)
    science = Int(0).tag(persist=True)
    animals = Int(0).tag(persist=True)
    repair = Int(0).tag(persist=True)
    trade = Int(0).tag(persist=True)
    driving = Int(0).tag(persist=True)
    custom_skills = List(
        Dict(), help="GM-added basic skills and split skills: {code, en, ru, kind, parent, characteristics, value}"
    ).tag(persist=True)
    expert_access = List(Unicode(), help="Expert skills accessible through Tricks or GM decision").tag(persist=True)

    # -- narrative components (§3.7) --------------------------------------------------------------
    attributes = List(Dict(), help="Attributes: {code, name, expert_access, notes}").tag(persist=True)
    tricks = List(Dict(), help="Tricks: {name, text, expert_access} (catalogue missing)").tag(persist=True)
    flaws = List(Dict(), help="Flaws: {name, text}").tag(persist=True)
    facets = List(Dict(), help="Facets: {name, heads, tails}").tag(persist=True)
    bonds = List(Dict(), help="Bonds: {name, text}").tag(persist=True)
    roles = Unicode("", help="Role (Амплуа), missing in the fragment").tag(persist=True)
    wealth = Unicode("", help="Wealth, GM-entered").tag(persist=True)  # L259
    changes = List(Dict(), help="Augmented Changes: {name, effect}").tag(persist=True)
    change_activations_used = Int(0, help="Augmented activations used this meeting").tag(persist=True)  # L499

    # -- resources (§3.8) -------------------------------------------------------------------------
    threads = Int(2, help="Threads of Fate 0-5").tag(persist=True)  # L164
    threads_bought = Int(0, help="Threads bought with XP this meeting").tag(persist=True)  # L167-168
    xp_free = Int(0, help="Unspent XP after creation").tag(persist=True)
    xp_total = Int(0, help="XP earned in play").tag(persist=True)
    bonus_xp = OptInt(None, allow_none=True, help="XP for refused Attributes (None: automatic)").tag(
        persist=True
    )  # L263
    xp_log = List(Dict(), help="XP ledger: {reason, amount}").tag(persist=True)
    hp = OptInt(None, allow_none=True, help="Current Health Units").tag(persist=True)
    conditions = List(Unicode(), help="Condition tags (§6.8)").tag(persist=True)
    gm_caprice_used = Bool(False, help="GM used a Caprice on this hero this scene").tag(persist=True)  # L209
    medicine_today = Bool(False, help="Healed by Medicine today").tag(persist=True)  # L439
    medicine_given_today = Bool(False, help="Has healed someone with Medicine today (A28 'per medic' reading)").tag(
        persist=True
    )
    treatment = Dict(
        help="Medicine in progress in combat: {patient, turns_left, hp_lost, medic_will, "  # L441
        "interrupted, skill, characteristic}; empty when none"
    ).tag(persist=True)
    dangerous_wound_threshold = OptInt(None, allow_none=True, help="GM-entered (rule missing)").tag(persist=True)
    speed_drain = Int(0).tag(persist=True)
    will_drain = Int(0).tag(persist=True)
    reaction_drain = Int(0).tag(persist=True)

    # -- equipment (§3.4, §7.7: values GM-entered) --------------------------------------------------
    weapons_list = List(Dict(), help="Weapons: {name, kind, dmb, light, cumbersome, reload, built_in, equipped}").tag(
        persist=True
    )
    armour_name = Unicode("").tag(persist=True)
    armour_bonus = Int(0, help="ADB, GM-entered").tag(persist=True)  # L344
    armour_max_dex = OptInt(None, allow_none=True, help="Armour's DEX-modifier cap").tag(persist=True)  # L346
    shield_name = Unicode("").tag(persist=True)
    shield_bonus = Int(0, help="SDB, GM-entered").tag(persist=True)  # L345
    shield_max_dex = OptInt(None, allow_none=True, help="Shield's DEX-modifier cap").tag(persist=True)  # L346
    durability_gm = Int(0, help="Durability from material/creature, GM-entered").tag(persist=True)  # L347
    immunities = List(Unicode(), help="Damage kinds this creature is immune to").tag(persist=True)
    resistances = List(Unicode(), help="Damage kinds this creature resists (halved)").tag(persist=True)
    equipment = Unicode("").tag(persist=True)
    notes = Unicode("").tag(persist=True)

    # -- derived -----------------------------------------------------------------------------------
    strength_mod = Int(0).tag(derived=True)
    dexterity_mod = Int(0).tag(derived=True)
    constitution_mod = Int(0).tag(derived=True)
    intelligence_mod = Int(0).tag(derived=True)
    wisdom_mod = Int(0).tag(derived=True)
    charm_mod = Int(0).tag(derived=True)
    hp_max = OptInt(None, allow_none=True, help="CON x size multiplier").tag(derived=True)  # L313
    speed = OptInt(None, allow_none=True, help="max(1,(DEX+CON)//4) + SBP, x2 quadruped, x3 flying").tag(
        derived=True
    )  # L316-319
    speed_stealthy = OptInt(None, allow_none=True, help="Speed while moving stealthily: Speed // 2").tag(
        derived=True
    )  # L403
    will = Int(1, help="max(1,(INT+WIS)//4)").tag(derived=True)  # L321
    reaction = Int(1, help="max(1,(DEX+WIS)//4)").tag(derived=True)  # L323
    effective = Dict(help="Effective characteristic scores after bonuses and drain").tag(derived=True)
    dexterity_mod_effective = Int(0, help="DEX modifier after armour/shield caps").tag(derived=True)  # L346
    base_defense = OptInt(None, allow_none=True, help="10 - SBP").tag(derived=True)  # L341
    defense = OptInt(None, allow_none=True, help="BDEF + mDEX + ADB + SDB").tag(derived=True)  # L340
    durability = Int(0, help="Durability (robot L511)").tag(derived=True)  # L347
    valor_unarmed = Int(0, help="Unarmed + mSTR + mDEX + DMB").tag(derived=True)  # L336
    valor = Int(0, help="Valor with the first melee weapon (DMB 0 if none is entered)").tag(derived=True)
    marksmanship = Int(0, help="Shooting + mDEX + DMB of the first ranged weapon").tag(derived=True)  # L338
    attacks = List(Dict(), help="One row per weapon: rating and the 0-XP Hindrance").tag(derived=True)
    char_points_spent = Int(60, help="Sum of bought scores").tag(derived=True)  # L271
    skill_cap = Int(10, help="No skill above Intelligence").tag(derived=True)  # L370
    skill_xp_spent = Int(0).tag(derived=True)
    creation_xp = Int(10, help="10 XP + 5 per refused Attribute").tag(derived=True)  # L263, L268
    creation_xp_left = Int(10).tag(derived=True)
    access = List(Unicode(), help="Expert skills this character may use").tag(derived=True)
    attribute_codes = List(Unicode()).tag(derived=True)
    augmented_pool = Int(0, help="max(1, 1 + mCON) activations per meeting").tag(derived=True)  # L499
    augmented_max_changes = Int(0, help="max(1, mCON) Changes").tag(derived=True)  # L498
    robot_max_weapons = Int(0, help="max(0, 1 + mCON) built-in weapons").tag(derived=True)  # L512, A25
    martial_arts_active = Bool(False).tag(derived=True)
    gm_missing = List(Dict(), help="Values the fragment lacks and the GM must enter").tag(derived=True)

    #: The last check rolled for this character (by ``SYSTEM.roll_check`` or a ``%roll`` word): the check
    #: Move M3 (``%roll reroll``) re-rolls. It is this object's play state, kept with the character it
    #: belongs to (never in a module-wide table): another character, or a copy made by ``from_dict``,
    #: starts without one, and ``to_dict`` never saves it.
    last_check: Any = None

    def __init__(self, **values: Any):
        if values.get("entity_type") == "extra" and "threads" not in values:
            values = {**values, "threads": 0}  # extras never hold Threads (L64)
        super().__init__(**values)

    # ---------------------------------------------------------------------------------------------
    @property
    def rules(self) -> GmOptions:
        """The rules this character's derived values follow (the bound system's, else the defaults)."""
        return self.RULES

    @classmethod
    def bound(cls, options: GmOptions) -> type:
        """A subclass of this Character whose derived values follow ``options``: one class per class and
        options (equal options give the same class, so two systems under the same GM options share it)."""
        return _bound_class(cls, options=options)

    def remember_check(self, result) -> None:
        """Record ``result`` (a ``CheckResult``) as this character's last check (see :attr:`last_check`)."""
        self.last_check = result

    def has_attribute(self, code: str) -> bool:
        return code in self.attribute_codes

    def has_access(self, skill: str) -> bool:
        return skill in self.access

    def skill_value(self, code: str) -> int:
        if code in SKILLS:
            return getattr(self, code)
        for s in self.custom_skills:
            if s.get("code") == code:
                return int(s.get("value", 0))
        raise KeyError(code)

    def sbp(self) -> int | None:
        """Signed size bonus/penalty (§3.5): + for large; GM-entered where the table is missing."""
        if self.size_sbp is not None:
            return self.size_sbp
        return size_values(self.size, options=self.rules)[1]  # the campaign size table (X6), else the book's cells

    def hp_multiplier(self) -> int | None:
        if self.size_hp_mult is not None:
            return self.size_hp_mult
        return size_values(self.size, options=self.rules)[0]

    def effective_score(self, char: str) -> int:
        return self.effective.get(char, getattr(self, char))

    def _derive(self) -> None:
        hero = hero_caps(self.entity_type, options=self.rules)  # A46: a persona built as a hero too
        eff = {}
        for c in CHARACTERISTICS:
            # §3.2: effective = max(0, min(20 if hero, base + bonus) + implant - drain)  (L274, L362)
            capped = getattr(self, c) + getattr(self, c + "_bonus")
            if hero:
                capped = min(HERO_MAX, capped)
            eff[c] = max(0, capped + getattr(self, c + "_implant") - getattr(self, c + "_drain"))
        self.effective = eff
        for c in CHARACTERISTICS:
            setattr(self, c + "_mod", mod(eff[c]))
        codes = []
        access: list[str] = []
        for a in self.attributes:
            code = a.get("code") or ""
            if code:
                codes.append(code)
            access += [s for s in a.get("expert_access", []) if s in EXPERT_SKILLS]
        if "veteran" in codes and not any("warfare" in a.get("expert_access", []) for a in self.attributes):
            access.append("warfare")  # L534: Veteran always gives Warfare
        for t in self.tricks:
            access += [s for s in t.get("expert_access", []) if s in EXPERT_SKILLS]
        access += [s for s in self.expert_access if s in EXPERT_SKILLS]
        self.attribute_codes = codes
        self.access = sorted(set(access))
        missing = self._derive_secondaries(eff)
        self._derive_combat(eff)
        self._derive_creation(missing)

    def _derive_secondaries(self, eff: dict[str, int]) -> list[dict[str, Any]]:
        """Health Units, Speed, Will and Reaction (§3.3); returns the GM values still missing."""
        missing: list[dict[str, Any]] = []
        sbp = self.sbp()
        mult = self.hp_multiplier()
        con, dex, intl, wis = eff["constitution"], eff["dexterity"], eff["intelligence"], eff["wisdom"]
        # §3.3: HP = CON x size multiplier (L313-314)
        new_max = con * mult if mult is not None else None
        if mult is None:
            missing.append(
                {
                    "field": "size_hp_mult",
                    **T(
                        f"HP multiplier for size {self.size} (size table missing)",
                        f"множитель ЕЗ для размера {self.size} (таблицы размеров нет)",
                    ),
                }
            )
        if sbp is None:
            missing.append(
                {
                    "field": "size_sbp",
                    **T(f"size bonus/penalty for size {self.size}", f"бонус/штраф размера для размера {self.size}"),
                }
            )
        old_max = self.hp_max
        self.hp_max = new_max
        # §3.9 software rule: an undamaged character's hp follows hp_max; otherwise it is clamped.
        if new_max is not None:
            if self.hp is None or (old_max is not None and self.hp == old_max):
                self.hp = new_max
            elif self.hp > new_max:
                self.hp = new_max
        # Speed pipeline (L316-319, L325, A7)
        if sbp is None:
            self.speed = None
        else:
            # A7: the floor after SBP is a GM option (default 1; 0 lets a Tiny creature stand still)
            s = max(self.rules.speed_min_after_sbp, max(1, (dex + con) // 4) + sbp)
            if self.flying:
                s *= 3
            elif self.quadruped:
                s *= 2
            self.speed = max(0, s - self.speed_drain)
        self.speed_stealthy = None if self.speed is None else self.speed // 2  # L403: halve, round down (L154)
        self.will = max(0, max(1, (intl + wis) // 4) - self.will_drain)  # L321, L325, A8
        self.reaction = max(0, max(1, (dex + wis) // 4) - self.reaction_drain)  # L323, L325, A8
        return missing

    def _derive_combat(self, eff: dict[str, int]) -> None:
        """The Attributes' pools (§8.6), Defense, Durability and the attack ratings (§3.4)."""
        codes = self.attribute_codes
        sbp, mult = self.sbp(), self.hp_multiplier()
        con, dex, wis = eff["constitution"], eff["dexterity"], eff["wisdom"]
        mcon = mod(con)
        self.augmented_pool = max(1, 1 + mcon) if "augmented" in codes else 0
        self.augmented_max_changes = max(1, mcon) if "augmented" in codes else 0
        # L512, A25: 1 + mCON, at least the GM option robot_min_weapons (0)
        self.robot_max_weapons = max(self.rules.robot_min_weapons, 1 + mcon) if "combat_robot" in codes else 0
        robot = "combat_robot" in codes

        # Combat (§3.4)
        mdex = mod(dex)
        caps = [c for c in (self.armour_max_dex, self.shield_max_dex) if c is not None]
        mdex_eff = min([mdex] + caps)
        self.dexterity_mod_effective = mdex_eff
        equipped = [w for w in self.weapons_list if w.get("equipped", True)]
        martial = "martial_arts" in codes and not caps and not any(w.get("cumbersome") for w in equipped)  # L527, L530
        self.martial_arts_active = martial
        if sbp is None:
            self.base_defense = None
            self.defense = None
        else:
            self.base_defense = 10 - sbp  # L341
            adb = self.armour_bonus + (3 if robot else 0)  # L511
            self.defense = self.base_defense + mdex_eff + adb + self.shield_bonus + (mod(wis) if martial else 0)
        if robot and self.rules.robot_dur_base == "sbp":
            self.durability = max(0, (sbp or 0) + mcon) + self.durability_gm  # A26 "sbp" reading
        elif robot:
            base = mult if mult is not None else 0  # A26: size multiplier
            self.durability = max(0, base + mcon) + self.durability_gm
        else:
            self.durability = self.durability_gm
        self._derive_attacks(mod(eff["strength"]), mdex_eff, martial, robot, sbp)

    def _derive_attacks(self, mstr: int, mdex_eff: int, martial: bool, robot: bool, sbp: int | None) -> None:
        """Valor, Marksmanship and one attack row per weapon (L336-338, L512, L527)."""
        unarmed_dmb = 1 if martial else 0  # L527
        # L537: a Veteran gets +1 to every Valor and Marksmanship check; the sheet shows it in the value
        veteran = 1 if "veteran" in self.attribute_codes else 0
        self.valor_unarmed = self.unarmed + mstr + mdex_eff + unarmed_dmb + veteran
        rows = [
            {
                "name": "unarmed",
                "kind": "unarmed",
                "skill": "unarmed",
                "rating": self.valor_unarmed,
                "hindrance": self.unarmed == 0,
                "dmb": unarmed_dmb,
            }
        ]
        valor = marks = None
        for w in self.weapons_list:
            kind = w.get("kind", "melee")
            dmb = int(w.get("dmb", 0))
            if w.get("built_in") and robot and sbp is not None:
                dmb += sbp  # L512
            if kind in ("melee", "unarmed"):
                skill = "weapons" if kind == "melee" else "unarmed"
                rating = getattr(self, skill) + mstr + mdex_eff + dmb + veteran  # L336, L537
                if valor is None and kind == "melee":
                    valor = rating
            else:
                skill = "shooting"
                if kind in ("bow", "thrown"):
                    dmb += mstr  # L338, A48
                rating = self.shooting + mdex_eff + dmb + veteran  # L338, L537
                if marks is None:
                    marks = rating
            rows.append(
                {
                    "name": w.get("name", ""),
                    "kind": kind,
                    "skill": skill,
                    "rating": rating,
                    "hindrance": getattr(self, skill) == 0,
                    "dmb": dmb,
                }
            )
        self.attacks = rows
        # no melee weapon entered yet: armed Valor with DMB 0 (the weapon's DMB is GM-entered)
        self.valor = valor if valor is not None else self.weapons + mstr + mdex_eff + veteran
        self.marksmanship = marks if marks is not None else self.shooting + mdex_eff + veteran

    def _derive_creation(self, missing: list[dict[str, Any]]) -> None:
        """Creation book-keeping (§4) and the list of values the GM still has to enter."""
        intl = self.effective["intelligence"]
        self.char_points_spent = sum(getattr(self, c) for c in CHARACTERISTICS)
        self.skill_cap = intl
        spent = sum(getattr(self, s) for s in SKILLS) + sum(int(s.get("value", 0)) for s in self.custom_skills)
        self.skill_xp_spent = spent
        auto_bonus = 5 * max(0, 2 - len(self.attributes))
        self.creation_xp = 10 + (self.bonus_xp if self.bonus_xp is not None else auto_bonus)
        self.creation_xp_left = self.creation_xp - spent
        if not self.armour_name and not self.weapons_list:
            missing.append(
                {
                    "field": "weapons_list",
                    **T(
                        "weapons, armour and shields: values are GM-entered (tables missing)",
                        "оружие, доспехи, щиты: значения вводит мастер (таблиц нет)",
                    ),
                }
            )
        if self.dangerous_wound_threshold is None:
            missing.append(
                {
                    "field": "dangerous_wound_threshold",
                    **T("Dangerous wound threshold (rule missing)", "порог Опасной раны (правила нет)"),
                }
            )
        self.gm_missing = missing

    # -- hard limits on raw values ---------------------------------------------------------------
    @classmethod
    def input_range(cls, name: str, values: Mapping[str, Any]) -> tuple[int | None, int | None]:
        """A hero's characteristic is entered between 1 and 20 (L271-276)."""
        lo, hi = super().input_range(name, values)
        if name in CHARACTERISTICS and hero_caps(values.get("entity_type", "hero"), options=cls.RULES):
            return 1, HERO_MAX
        if name in SKILLS and values.get("entity_type", "hero") == "hero":
            return 0, HERO_MAX  # a hero's skill never exceeds Intelligence, at most 20 (V14)
        return lo, hi

    @classmethod
    def check_values(cls, values: Mapping[str, Any]) -> list[Problem]:
        return entry_problems(cls, values)


@functools.lru_cache(maxsize=None)
def _bound_class(cls: type, *, options: GmOptions) -> type:
    """The subclass of ``cls`` bound to ``options`` (a pure function of its arguments, memoised)."""
    return type(
        cls.__name__, (cls,), {"RULES": options, "__module__": cls.__module__, "__qualname__": cls.__qualname__}
    )
