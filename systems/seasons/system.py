"""``SeasonsSystem``: the GameSystem of «Времена Года» (Seasons), wiring the rules modules."""

from __future__ import annotations

import copy
import random
from typing import Any, Iterable, Mapping, Sequence

from tabletop_widgets.core import (
    CheckResult,
    CheckSpec,
    DamageOutcome,
    Effect,
    GameSystem,
    OptionSpec,
    Problem,
    RuleError,
    T,
)

from . import checks, combat, creation, drama, pending, validation
from .modifiers import relevant_conditions
from .pool_plan import build_pool
from .presets import resolve_preset
from .model import Character
from .data import TABLES
from .options import DEFAULTS, check_choices
from .sheet import SHEET
from .words import POOL_WORD, ROLLOFF_WORD


class SeasonsSystem(GameSystem):
    slug = "seasons"
    title = T("Seasons", "Времена Года")
    Character = Character
    sheet = SHEET
    default_rules = DEFAULTS
    #: the book's words: «Рассказчик» (L18), «дайсы» (L15)
    terms = {
        "gm": T("Storyteller", "Рассказчик"),
        "gm_title": T("Storyteller", "Рассказчик"),
        "gm_gen": T("Storyteller", "Рассказчика"),
        "dice": T("Dice", "Дайсы"),
        "dice_tray": T("Dice tray", "Лоток для дайсов"),
    }

    def __init__(self, **rules: Any):
        super().__init__(**rules)
        check_choices(options=self.rules)

    # -- data ----------------------------------------------------------------------------------
    def data(self, table: str) -> list[dict[str, Any]]:
        try:
            return copy.deepcopy([dict(r) for r in TABLES.rows(table)])
        except KeyError:
            raise KeyError(f"seasons: no data table {table!r}; known: {self.data_tables()}") from None

    def data_tables(self) -> list[str]:
        return TABLES.names()

    # -- checks (spec §5) ------------------------------------------------------------------------
    def checks(self, character) -> list[CheckSpec]:
        """The 80 named checks of §5.11, then every attribute+skill pair (spec §5.13)."""
        return checks.check_specs(character, options=self.rules)

    def check(self, character, check_id: str) -> CheckSpec:
        return checks.preset_spec(resolve_preset(check_id), character, options=self.rules)

    def pool_plan(self, character, check_id: str, **opts: Any):
        """The pool arithmetic of a check (terms, opposition, contest side) without rolling."""
        return build_pool(resolve_preset(check_id), character, opts, options=self.rules)

    def roll_check(self, character, check_id: str, *, rng: random.Random | None = None, **opts: Any) -> CheckResult:
        """Roll a check (``checks.roll_check``): the sheet's defaults apply and the relevant queued
        bonuses/penalties are consumed (``details["pending_consumed"]``; ``restore_pending`` undoes)."""
        return checks.roll_check(character, check_id, options=self.rules, rng=rng, **opts)

    def restore_pending(self, character, consumed: Sequence[Mapping[str, Any]]) -> None:
        """Put back what a roll consumed (``result.details["pending_consumed"]``), e.g. on undo."""
        pending.restore_pending(character, consumed)

    def check_distribution(self, character, check_id: str, **opts: Any):
        return checks.check_distribution(character, check_id, options=self.rules, **opts)

    def apply_effects(self, character, effects: Sequence[Effect]) -> dict[str, tuple[Any, Any]]:
        """Drama never below 0; damage between 0 and Health (spec §3.7, §11 #27)."""
        changes: dict[str, tuple[Any, Any]] = {}
        for e in effects:
            old = getattr(character, e.trait)
            new = old + e.delta
            if e.trait in ("drama", "damage"):
                new = max(0, new)
            if e.trait == "damage":
                new = min(character.health_max, new)
            character.update(**{e.trait: new})
            first = changes.get(e.trait, (old, None))[0]
            changes[e.trait] = (first, getattr(character, e.trait))
        return changes

    # -- creation and advancement (spec §4, §7.5) -------------------------------------------------
    def validate(self, character, *, at_creation: bool = False) -> list[Problem]:
        return validation.validate(character, options=self.rules, at_creation=at_creation)

    def validate_party(self, characters: Iterable[Any]) -> list[Problem]:
        return validation.validate_party(characters, options=self.rules)

    def can_finalize(self, character) -> bool:
        return validation.can_finalize(self.validate(character, at_creation=True), options=self.rules)

    def raise_trait(self, character, name: str, by: int = 1) -> None:
        creation.raise_trait(character, name, by, options=self.rules)

    def lower_trait(self, character, name: str, by: int = 1) -> None:
        creation.lower_trait(character, name, by)

    def add_specialization(self, character, skill: str, name: str, rating: int = 1) -> None:
        creation.add_specialization(character, skill, name, rating, options=self.rules)

    def raise_specialization(self, character, skill: str, name: str, by: int = 1) -> None:
        creation.raise_specialization(character, skill, name, by, options=self.rules)

    def advance_tier(self, character) -> dict[str, int]:
        return creation.advance_tier(character)

    # -- Drama (spec §7.1) --------------------------------------------------------------------
    def drama_ledger(self) -> drama.DramaLedger:
        return drama.DramaLedger(self.rules)

    def chapter_award(self, character, **awards: int) -> dict[str, tuple[Any, Any]]:
        return self.apply_effects(character, [drama.chapter_award(character, **awards)])

    def new_story(self, character) -> dict[str, tuple[Any, Any]]:
        """Start of a new story: Drama back to its starting value (L740)."""
        return drama.new_story(character, options=self.rules)

    # -- dice words ---------------------------------------------------------------------------
    def dice_words(self) -> list:
        return [POOL_WORD, ROLLOFF_WORD]

    # -- combat (spec §6) ---------------------------------------------------------------------
    def health(self, character) -> tuple[int, int]:
        return combat.health(character)

    def is_defeated(self, character) -> bool:
        return combat.is_defeated(character)

    def health_state(self, character) -> dict[str, str]:
        return combat.health_state(character)

    def roll_initiative(self, combatants, *, rng=None, previous=None, **options: Any):
        """Initiative (L727-731). ``previous`` (an InitiativeOrder): a new round or a late joiner —
        the previous order is kept and newcomers are inserted by initiative (spec §6.2), unless
        ``reroll_ties_each_round`` (§11 #22), which rolls everything again."""
        if options:
            raise ValueError(f"unknown initiative option(s) {sorted(options)}; known: ['previous']")
        if previous is not None:
            return combat.initiative_for_round(previous, combatants, self.rules, rng)
        return combat.roll_initiative(combatants, rng)

    def initiative_for_round(self, previous, combatants, *, rng=None):
        return combat.initiative_for_round(previous, combatants, self.rules, rng)

    def insert_combatant(self, order, combatants, new_id: str):
        return combat.insert_combatant(order, combatants, new_id)

    def round_actions(self) -> combat.RoundActions:
        return combat.RoundActions(self.rules)

    def damage_options(self, character) -> list[OptionSpec]:
        rule_state = combat.ZERO_HEALTH_STATE[self.rules["zero_health_outcome"]]
        return [
            OptionSpec(
                "quick_fight_mook",
                T("Rank-and-file (quick fight)", "Рядовой (проходной бой)"),
                kind="bool",
                default=False,
                help=T(
                    "mooks have no health track: any damage takes them out",  # L100
                    "у рядовых нет здоровья: любой урон выводит из боя",
                ),
            ),  # L100
            OptionSpec(
                "outcome",
                T("At 0 health", "При 0 здоровья"),
                kind="choice",
                default="",
                choices=(
                    (
                        "",
                        T(
                            f"by the rules: {combat.OUT_STATE_LABELS[rule_state]['en']}",
                            f"по правилам: {combat.OUT_STATE_LABELS[rule_state]['ru']}",
                        ),
                    ),
                    *((k, combat.OUT_STATE_LABELS[k]) for k in combat.ZERO_HEALTH_STATES),
                ),
                help=T(
                    "what going out means this time: genre-dependent (§11 #26)",  # L722
                    "что значит выбывание на этот раз: зависит от жанра (§11 #26)",
                ),
            ),
        ]  # L722

    def apply_damage(
        self, character, amount: int, *, quick_fight_mook: bool = False, outcome: str = "", **options: Any
    ) -> DamageOutcome:
        if options:
            raise ValueError(f"unknown damage option(s) {sorted(options)}")
        if quick_fight_mook and amount > 0:  # L100: one success takes a mook out
            amount = character.health_max - character.damage
        return combat.apply_damage(character, amount, self.rules, outcome)

    HEALING_SOURCES = {
        "other": T("other / Storyteller", "другое / Рассказчик"),
        "rest": T("night's rest (+1 a night)", "ночь отдыха (+1 за ночь)"),  # L723
        "first_aid": T("first aid (+1 once per scene)", "первая помощь (+1 раз за сцену)"),  # L723-724
        "treatment": T("treatment (+1 per success, once a day)", "лечение (+1 за успех, раз в день)"),  # L725
    }

    def healing_options(self, character) -> list[OptionSpec]:
        """What the tracker asks when healing: the source (first aid and treatment mark their
        once-per-scene / once-per-day flags, spec §7.2). To roll them, use ``first_aid`` / ``treatment``."""
        return [
            OptionSpec(
                "source",
                T("Healing source", "Источник лечения"),
                kind="choice",
                default="other",
                choices=tuple(self.HEALING_SOURCES.items()),
                help=T(
                    "first aid only in the scene of the damage, once; treatment once a day",
                    "первая помощь — только в сцене урона, один раз; лечение — раз в день",
                ),
            )
        ]

    def apply_healing(self, character, amount: int, *, source: str = "other", **options: Any) -> DamageOutcome:
        if options:
            raise ValueError(f"unknown healing option(s) {sorted(options)}")
        if source not in self.HEALING_SOURCES:
            raise RuleError(
                "bad_healing_source",
                T(
                    f"healing source must be one of {sorted(self.HEALING_SOURCES)}, not {source!r}",
                    f"источник лечения: одно из {sorted(self.HEALING_SOURCES)}, а не {source!r}",
                ),
            )
        if source == "first_aid" and amount:
            if not character.damaged_this_scene:
                raise RuleError(
                    "no_fresh_damage",
                    T(
                        "first aid only in the scene the damage was taken",
                        "первая помощь — только в сцене получения урона",
                    ),
                )
            if character.first_aid_used_this_scene:
                raise RuleError(
                    "first_aid_used",
                    T("first aid already attempted this scene", "первая помощь в этой сцене уже оказывалась"),
                )
            if amount > 1:
                raise RuleError("first_aid_one", T("first aid heals 1 level", "первая помощь лечит 1 уровень"))  # L724
        if source == "treatment" and amount and character.treated_today:
            raise RuleError("treated_today", T("treatment already rolled today", "лечение сегодня уже было"))
        outcome = combat.apply_healing(character, amount, self.rules, source)
        flags = {"first_aid": "first_aid_used_this_scene", "treatment": "treated_today"}
        if source in flags and amount:
            old = getattr(character, flags[source])
            character.update(**{flags[source]: True})
            if not old:
                outcome.changes[flags[source]] = (old, True)
        return outcome

    # -- leaving the fight, per-turn effects, tracker conditions (spec §6.5, §6.9, §7.3, §10.3) ----
    def leave_fight(self, character, how: str) -> DamageOutcome:
        """``how``: "fled" / "surrendered" (L90, L93), a 0-health outcome, or "" to come back."""
        return combat.set_out_state(character, how, self.rules)

    def conditions(self):
        """The -3 conditions of §7.3 (data/conditions.json), then the tracker's own: fled,
        surrendered (out of the fight) and exposed (a threat each turn)."""
        return [*combat.condition_catalogue(), *combat.TRACKER_CONDITIONS]

    def condition_changed(self, character, condition_id: str, active: bool, **data: Any) -> DamageOutcome | None:
        return combat.condition_changed(character, condition_id, active, self.rules, **data)

    def on_turn(
        self, character, when: str, *, rng: random.Random | None = None, conditions: Sequence[Mapping[str, Any]] = ()
    ) -> DamageOutcome | None:
        return combat.on_turn(self, character, when, rng, conditions)

    def attack(
        self,
        attacker,
        target,
        kind: str = "melee",
        *,
        weapon: str | Mapping | None = None,
        rng: random.Random | None = None,
        targets_pd: Sequence[int] | None = None,
        **options: Any,
    ) -> CheckResult:
        """One attack (L90-93, L504-515): attribute + skill + weapon - target PD - armour (- AP).
        The result's ``details["damage"]`` is the damage to apply (successes); nothing is applied."""
        check_id = {
            "unarmed": "unarmed_attack",
            "melee": "armed_attack",
            "thrown": "thrown_attack",
            "shooting": "shooting",
        }.get(kind)
        if check_id is None:
            raise ValueError(f"attack kind must be unarmed, melee, thrown or shooting, not {kind!r}")
        opts = dict(options)
        if isinstance(weapon, Mapping):
            if kind != "unarmed":
                opts["tool_bonus"] = opts.get("tool_bonus", 0) + int(weapon.get("attack_bonus", 0))
                opts["armour_piercing"] = max(opts.get("armour_piercing", 0), int(weapon.get("armour_piercing", 0)))
        elif weapon:
            opts["weapon"] = weapon
        defence = target.physical_defence
        if self.rules["ap_reduces_pd"]:
            ap = opts.get("armour_piercing", 0)
            if isinstance(weapon, str):
                w = next((w for w in attacker.weapons if w["name"] == weapon), {})
                ap = max(ap, w.get("armour_piercing", 0))
            defence = max(0, defence - ap)  # GM option §11 #11: AP also lowers PD
        opts.setdefault("difficulty", defence)
        opts.setdefault("armour", target.armour_penalty)
        return self.roll_check(attacker, check_id, rng=rng, **opts)

    def quick_fight(self, successes: int, primary_id: str, mooks: Mapping[str, Any]) -> list[str]:
        """Mooks taken out by one attack (L100): ``mooks`` maps ids to characters (or PDs)."""
        pds = {i: (m if isinstance(m, int) else m.physical_defence) for i, m in mooks.items()}
        return combat.quick_fight_takedowns(successes, primary_id, pds[primary_id], pds)

    def threat(self, victim, dice: int, *, rng: random.Random | None = None, **options: Any) -> CheckResult:
        """A threat rolls ``dice`` (6-10, more if supernatural) minus the victim's PD (L673);
        ``details["damage"]`` is what to apply."""
        return self.roll_check(victim, "threat", rng=rng, dice=dice, **options)

    # -- recovery operations (spec §6.8, §7.2) ----------------------------------------------------
    def suppress_pain(self, character, *, rng: random.Random | None = None, **options: Any) -> CheckResult:
        """Instant STA + Athletics - damage (L708). One attempt per damage event: refused while not in
        Pain, already suppressed, or after a failure this scene until new damage (§11 #7)."""
        if not character.in_pain:
            raise RuleError("no_pain", T("not in Pain", "боли нет"))
        if character.pain_suppressed:
            raise RuleError("pain_already_suppressed", T("Pain is already suppressed", "боль уже подавлена"))
        if character.pain_failed_this_scene:
            raise RuleError(
                "pain_failed",
                T(
                    "suppression failed: the -3 stays until the scene ends or new damage",
                    "подавление не удалось: -3 до конца сцены или нового урона",
                ),
            )
        options.setdefault("difficulty", character.damage)
        result = self.roll_check(character, "suppress_pain", rng=rng, **options)
        if result.success:
            character.update(pain_suppressed=True)
        else:
            character.update(pain_failed_this_scene=True)
        return result

    def first_aid(self, healer, patient, *, rng: random.Random | None = None, **options: Any) -> CheckResult:
        """WIT + Medicine - damaged levels (L723-724): one attempt per patient per scene in which
        they took damage; success heals 1 level."""
        if not patient.damaged_this_scene or patient.damage == 0:
            raise RuleError(
                "no_fresh_damage",
                T("first aid only in the scene the damage was taken", "первая помощь — только в сцене получения урона"),
            )
        if patient.first_aid_used_this_scene:
            raise RuleError(
                "first_aid_used",
                T("first aid already attempted this scene", "первая помощь в этой сцене уже оказывалась"),
            )
        options.setdefault("difficulty", patient.damage)
        result = self.roll_check(healer, "first_aid", rng=rng, **options)
        patient.update(first_aid_used_this_scene=True)
        if result.success:
            result.details["healing"] = combat.apply_healing(patient, 1, self.rules, "first_aid")
        return result

    def treatment(self, doctor, patient, *, rng: random.Random | None = None, **options: Any) -> CheckResult:
        """A day of care: INT + Medicine - damaged levels; success heals one level per success (L725).
        Once per day, success or not."""
        if patient.treated_today:
            raise RuleError("treated_today", T("treatment already rolled today", "лечение сегодня уже было"))
        if patient.damage == 0:
            raise RuleError("no_damage", T("nothing to treat", "нечего лечить"))
        options.setdefault("difficulty", patient.damage)
        result = self.roll_check(doctor, "treatment", rng=rng, **options)
        patient.update(treated_today=True)
        if result.success:
            result.details["healing"] = combat.apply_healing(patient, result.total, self.rules, "treatment")
        return result

    def night_rest(self, character) -> DamageOutcome:
        """One health level per night of rest (L723)."""
        return combat.apply_healing(character, 1 if character.damage else 0, self.rules, "rest")

    def end_scene(self, character) -> None:
        """Scene end: Pain suppression or failure expires; the first-aid window closes (L708, L723-724)."""
        character.update(
            pain_suppressed=False,
            pain_failed_this_scene=False,
            damaged_this_scene=False,
            first_aid_used_this_scene=False,
        )

    def new_day(self, character, *, treated_yesterday: bool = False) -> DamageOutcome:
        """A new day: treatment is possible again. The night's +1 comes with it, also after a day of
        treatment unless ``treatment_stacks_with_rest`` is off (§11 #10)."""
        rest = 1 if character.damage else 0
        if treated_yesterday and not self.rules["treatment_stacks_with_rest"]:
            rest = 0
        character.update(treated_today=False)
        return combat.apply_healing(character, rest, self.rules, "rest")

    # -- carried modifiers (spec §7.10) -----------------------------------------------------------
    def add_pending(self, character, source: str, dice: int, applies_to: str = "") -> None:
        """Queue a bonus (dice > 0) or penalty (dice < 0) for a later relevant check (L766-771, L615, L624)."""
        if not isinstance(dice, int) or isinstance(dice, bool) or dice == 0:
            raise ValueError("dice must be a non-zero whole number")
        if dice > 0:
            character.update(
                pending_bonus_dice=[
                    *character.pending_bonus_dice,
                    {"source": source, "dice": dice, "applies_to": applies_to},
                ]
            )
        else:
            character.update(
                pending_penalties=[
                    *character.pending_penalties,
                    {"source": source, "dice": -dice, "applies_to": applies_to},
                ]
            )

    def take_pending(self, character, applies_to: str = "") -> int:
        """Consume the queued modifiers that fit ``applies_to`` (those with no target fit any check);
        returns their net dice, to pass as ``bonus``/``penalty`` of the check."""

        def fits(item):
            return not item.get("applies_to") or item.get("applies_to") == applies_to

        bonus = [b for b in character.pending_bonus_dice if fits(b)]
        pen = [p for p in character.pending_penalties if fits(p)]
        character.update(
            pending_bonus_dice=[b for b in character.pending_bonus_dice if not fits(b)],
            pending_penalties=[p for p in character.pending_penalties if not fits(p)],
        )
        return sum(b["dice"] for b in bonus) - sum(p["dice"] for p in pen)

    def inspire(self, allies, applies_to: str = "") -> None:
        """A successful Inspire (L615): each ally's first relevant check gets the bonus (§11 #23:
        ``inspire_bonus``, default +3)."""
        for ally in allies:
            self.add_pending(ally, "inspired", int(self.rules["inspire_bonus"]), applies_to)

    def frighten(self, targets, applies_to: str = "") -> None:
        """A successful Frighten (L624): each target's first relevant check gets the penalty (§11 #23)."""
        for t in targets:
            self.add_pending(t, "frightened", -int(self.rules["frighten_penalty"]), applies_to)

    def ambush_plan(
        self, ambushers: Mapping[str, Any], observers: Mapping[str, Any], difficulty: int = 3
    ) -> dict[str, Any]:
        """Who rolls when beings lie in ambush (§11 #41). ``sneaker_rolls`` (default): each ambusher
        rolls DEX + Larceny minus the highest MD among the observers (L47, L51, L525);
        ``observer_rolls``: each observer rolls the instant RES + Investigation - difficulty (L83)."""
        if self.rules["ambush_mode"] == "sneaker_rolls":
            md = max(o.mental_defence for o in observers.values())
            return {"check_id": "sneak", "rollers": list(ambushers), "difficulty": md}
        return {"check_id": "notice_clue", "rollers": list(observers), "difficulty": difficulty}

    # -- conditions (spec §7.3) --------------------------------------------------------------------
    def resist_condition(
        self,
        character,
        condition_id: str,
        *,
        difficulty: int = 3,
        rng: random.Random | None = None,
        category: str = "",
        **options: Any,
    ) -> CheckResult:
        """Resist a condition as it strikes (L687-690): success -> no effect; failure -> it is added."""
        entry = combat.condition_entry(condition_id, removal_difficulty=difficulty, category=category)
        result = self.roll_check(
            character, f"resist_{entry['kind']}_condition", rng=rng, difficulty=difficulty, **options
        )
        if not result.success:
            character.update(conditions=[*character.conditions, entry])
            result.details["condition_added"] = entry
        return result

    def shake_off_condition(
        self, character, index: int, *, rng: random.Random | None = None, **options: Any
    ) -> CheckResult:
        """Retry after the condition's interval (L690): success removes it."""
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(character.conditions):
            raise RuleError("no_condition", T(f"no condition number {index!r}", f"нет Состояния номер {index!r}"))
        cond = character.conditions[index]
        options.setdefault("difficulty", cond.get("removal_difficulty", 3))
        check_id = f"resist_{cond['kind']}_condition"
        preset = resolve_preset(check_id)
        # The condition being shaken off does not hinder its own removal; the others still do.
        options.setdefault(
            "conditions",
            len(relevant_conditions(preset, character, options.get("attribute", preset.attribute), skip=index)),
        )
        result = self.roll_check(character, f"resist_{cond['kind']}_condition", rng=rng, **options)
        if result.success:
            character.update(conditions=[c for k, c in enumerate(character.conditions) if k != index])
            result.details["condition_removed"] = cond
        return result

    def condition_penalty(self, character, category: str | None = None) -> int:
        return combat.condition_penalty(character, category)


__all__ = ["SeasonsSystem"]
