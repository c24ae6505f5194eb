"""``SeasonsSystem``: the GameSystem of «Времена Года» (Seasons). Its methods are thin: the rules
live in the modules named after them (checks, combat, health, recovery, conditions, ...)."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from tabletop_widgets.core.system_template import TemplateSystem
from tabletop_widgets.core import (
    AttackOdds,
    AttackOutcome,
    AttackSpec,
    CheckResult,
    CheckSpec,
    DamageOutcome,
    OptionSpec,
    Problem,
    T,
)

from . import TITLE
from . import (
    advancement,
    attacks,
    checks,
    combat,
    conditions,
    creation,
    drama,
    health,
    initiative,
    pending,
    recovery,
    validation,
)
from .options import check_choices
from .pool_plan import build_pool
from .presets import resolve_preset
from .words import POOL_WORD, ROLLOFF_WORD


class SeasonsSystem(TemplateSystem, package=__package__, slug="seasons", title=TITLE):
    #: the book's words: «Рассказчик» (L18), «дайсы» (L15)
    terms = {
        "gm": T("Storyteller", "Рассказчик"),
        "gm_title": T("Storyteller", "Рассказчик"),
        "gm_gen": T("Storyteller", "Рассказчика"),
        "dice": T("Dice", "Дайсы"),
        "dice_tray": T("Dice tray", "Лоток для дайсов"),
    }
    HEALING_SOURCES = recovery.HEALING_SOURCES

    def __init__(self, **rules: Any):
        super().__init__(**rules)
        check_choices(options=self.rules)

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

    def effect_value(self, character, trait: str, old: Any, delta: int) -> Any:
        """Drama never below 0; damage between 0 and Health (spec §3.7, §11 #27)."""
        new = max(0, old + delta) if trait in ("drama", "damage") else old + delta
        return min(character.health_max, new) if trait == "damage" else new

    # -- creation and advancement (spec §4, §7.5) -------------------------------------------------
    def validate(self, character, *, at_creation: bool | None = None) -> list[Problem]:
        """By the character's phase (``at_creation`` overrides it): see ``validation.validate``."""
        return validation.validate(character, options=self.rules, at_creation=at_creation)

    def validate_party(self, characters: Mapping[str, Any]) -> list[Problem]:
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

    def play_changes(self, character) -> dict[str, Any]:
        """Drama starts at Presence + Manipulation + Composure (L147); unspent points the GM
        allowed wait in the advancement pools (``advancement.play_changes``)."""
        return advancement.play_changes(character, options=self.rules)

    # -- advancement (L744-752) and the creation wizard (L105-186): ``advancement.py`` -----------
    def advancement_resources(self) -> Sequence[Any]:
        """The unspent attribute, skill and specialization points a new tier gives (L752)."""
        return advancement.RESOURCES

    def advancements(self, character) -> list:
        return advancement.advance_list(character, options=self.rules)

    def plan_advance(self, character, advance_id: str, **options: Any):
        return advancement.plan(character, advance_id, options=self.rules, **options)

    def creation_wizard(self, character) -> list:
        return advancement.wizard_steps(character)

    def creation_budgets(self, character) -> Mapping[str, Any]:
        return advancement.budgets(character)

    # -- Drama (spec §7.1) --------------------------------------------------------------------
    def drama_ledger(self) -> drama.DramaLedger:
        return drama.DramaLedger(self.rules)

    def spend_drama_against(self, spender, opponent, applies_to: str = "") -> dict[str, dict]:
        """Any player character spends a Drama point during an opponent's action: -3 on it
        (L773), queued on the opponent's next fitting check (``drama.spend_drama_against``)."""
        return drama.spend_drama_against(spender, opponent, applies_to, options=self.rules)

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
        return health.health(character)

    def is_defeated(self, character) -> bool:
        return health.is_defeated(character)

    def health_state(self, character) -> dict[str, str]:
        return health.health_state(character)

    def roll_initiative(self, combatants, *, rng=None, previous=None, **options: Any):
        """Initiative (L727-731). ``previous`` (an InitiativeOrder): a new round or a late joiner —
        the previous order is kept and newcomers are inserted by initiative (spec §6.2), unless
        ``reroll_ties_each_round`` (§11 #22), which rolls everything again."""
        if options:
            raise ValueError(f"unknown initiative option(s) {sorted(options)}; known: ['previous']")
        if previous is not None:
            return initiative.initiative_for_round(previous, combatants, rng, options=self.rules)
        return initiative.roll_initiative(combatants, rng)

    def initiative_for_round(self, previous, combatants, *, rng=None):
        return initiative.initiative_for_round(previous, combatants, rng, options=self.rules)

    def insert_combatant(self, order, combatants, new_id: str):
        return initiative.insert_combatant(order, combatants, new_id)

    def round_actions(self) -> combat.RoundActions:
        return combat.RoundActions(self.rules)

    def damage_options(self, character) -> list[OptionSpec]:
        return combat.damage_options(options=self.rules)

    def apply_damage(
        self, character, amount: int, *, quick_fight_mook: bool = False, outcome: str = "", **options: Any
    ) -> DamageOutcome:
        if options:
            raise ValueError(f"unknown damage option(s) {sorted(options)}")
        return combat.take_damage(
            character, amount, quick_fight_mook=quick_fight_mook, outcome=outcome, options=self.rules
        )

    def healing_options(self, character) -> list[OptionSpec]:
        return recovery.healing_options()

    def apply_healing(self, character, amount: int, *, source: str = "other", **options: Any) -> DamageOutcome:
        if options:
            raise ValueError(f"unknown healing option(s) {sorted(options)}")
        return recovery.heal(character, amount, source, options=self.rules)

    # -- leaving the fight, per-turn effects, tracker conditions (spec §6.5, §6.9, §7.3, §10.3) ----
    def leave_fight(self, character, how: str) -> DamageOutcome:
        """``how``: "fled" / "surrendered" (L90, L93), a 0-health outcome, or "" to come back."""
        return health.set_out_state(character, how, options=self.rules)

    def conditions(self):
        """The -3 conditions of §7.3 (data/conditions.json), then the tracker's own: fled,
        surrendered (out of the fight) and exposed (a threat each turn)."""
        return [*conditions.condition_catalogue(), *conditions.TRACKER_CONDITIONS]

    def condition_changed(self, character, condition_id: str, active: bool, **data: Any) -> DamageOutcome | None:
        return conditions.condition_changed(character, condition_id, active, options=self.rules, **data)

    def on_turn(
        self, character, when: str, *, rng: random.Random | None = None, conditions: Sequence[Mapping[str, Any]] = ()
    ) -> DamageOutcome | None:
        return combat.on_turn(character, when, rng, conditions, options=self.rules)

    def attack(
        self,
        attacker,
        target,
        kind: str = "melee",
        *,
        weapon: str | Mapping | None = None,
        rng: random.Random | None = None,
        targets_pd: Sequence[int] | None = None,
        **opts: Any,
    ) -> CheckResult:
        """One attack (L90-93, L504-515): attribute + skill + weapon - target PD - armour (- AP);
        ``targets_pd``: the Physical Defences of further targets, the highest one subtracted (L51).
        The result's ``details["damage"]`` is the damage to apply (successes); nothing is applied."""
        return combat.attack(
            attacker, target, kind, options=self.rules, weapon=weapon, rng=rng, targets_pd=targets_pd, **opts
        )

    # -- the attack contract (issue #16): attacks, exact odds, one roll, applying it ---------------
    def attacks(self, attacker, target) -> list[AttackSpec]:
        """Unarmed (L504) and one attack per sheet weapon, with its own skill and attribute."""
        return attacks.attack_list(attacker, target, options=self.rules)

    def attack_odds(self, attacker, target, attack_id: str, **options: Any) -> AttackOdds:
        attacks.check_can_attack(attacker)
        spec, chosen = self.attack_spec(attacker, target, attack_id, options)
        return attacks.attack_odds(self, attacker, target, spec, chosen, options=self.rules)

    def resolve_attack(self, attacker, target, attack_id: str, *, rng: random.Random, **options: Any) -> AttackOutcome:
        attacks.check_can_attack(attacker)
        spec, chosen = self.attack_spec(attacker, target, attack_id, options)
        return attacks.resolve_attack(attacker, target, spec, chosen, rng=rng, options=self.rules)

    def apply_attack(self, attacker, target, outcome: AttackOutcome) -> tuple[DamageOutcome, DamageOutcome]:
        """Effects (Drama) and damage as the base does, and the queued bonuses the roll used are
        taken off the attacker's sheet (spec §7.10)."""
        mine, theirs = super().apply_attack(attacker, target, outcome)
        mine.changes.update(attacks.consume_used(attacker, outcome))
        return mine, theirs

    def quick_fight(self, successes: int, primary_id: str, mooks: Mapping[str, Any]) -> list[str]:
        """Mooks taken out by one attack (L100): ``mooks`` maps ids to characters (or PDs)."""
        return combat.quick_fight(successes, primary_id, mooks)

    def threat(self, victim, dice: int, *, rng: random.Random | None = None, **opts: Any) -> CheckResult:
        """A threat rolls ``dice`` (6-10, more if supernatural) minus the victim's PD (L673)."""
        return combat.threat(victim, dice, options=self.rules, rng=rng, **opts)

    # -- recovery operations (spec §6.8, §7.2) ----------------------------------------------------
    def suppress_pain(self, character, *, rng: random.Random | None = None, **opts: Any) -> CheckResult:
        return recovery.suppress_pain(character, options=self.rules, rng=rng, **opts)

    def first_aid(self, healer, patient, *, rng: random.Random | None = None, **opts: Any) -> CheckResult:
        return recovery.first_aid(healer, patient, options=self.rules, rng=rng, **opts)

    def treatment(self, doctor, patient, *, rng: random.Random | None = None, **opts: Any) -> CheckResult:
        return recovery.treatment(doctor, patient, options=self.rules, rng=rng, **opts)

    def night_rest(self, character) -> DamageOutcome:
        return recovery.night_rest(character, options=self.rules)

    def end_scene(self, character) -> None:
        recovery.end_scene(character)

    def new_day(self, character, *, treated_yesterday: bool = False) -> DamageOutcome:
        return recovery.new_day(character, treated_yesterday=treated_yesterday, options=self.rules)

    # -- carried modifiers (spec §7.10) -----------------------------------------------------------
    def add_pending(self, character, source: str, dice: int, applies_to: str = "") -> None:
        pending.add_pending(character, source, dice, applies_to)

    def take_pending(self, character, applies_to: str = "") -> int:
        return pending.take_pending(character, applies_to)

    def inspire(self, allies, applies_to: str = "") -> None:
        pending.inspire(allies, applies_to, options=self.rules)

    def frighten(self, targets, applies_to: str = "") -> None:
        pending.frighten(targets, applies_to, options=self.rules)

    def ambush_plan(
        self, ambushers: Mapping[str, Any], observers: Mapping[str, Any], difficulty: int = 3
    ) -> dict[str, Any]:
        return combat.ambush_plan(ambushers, observers, difficulty, options=self.rules)

    # -- conditions (spec §7.3) --------------------------------------------------------------------
    def resist_condition(
        self,
        character,
        condition_id: str,
        *,
        difficulty: int = 3,
        rng=None,
        category: str = "",
        cause: str = "",
        **opts: Any,
    ) -> CheckResult:
        """Resist a condition as it strikes (L687-690); ``cause``: a sickness's (L711)."""
        return combat.resist_condition(
            character,
            condition_id,
            options=self.rules,
            difficulty=difficulty,
            rng=rng,
            category=category,
            cause=cause,
            **opts,
        )

    def shake_off_condition(self, character, index: int, *, rng: random.Random | None = None, **opts: Any):
        return combat.shake_off_condition(character, index, options=self.rules, rng=rng, **opts)

    def condition_penalty(self, character, category: str | None = None) -> int:
        return conditions.condition_penalty(character, category)

    def hour_passes(self, character) -> dict[str, tuple[Any, Any]]:
        """An hour passes: hunger, thirst and fatigue a success held off come back (L716)."""
        return conditions.hour_passes(character)


SYSTEM = SeasonsSystem()

__all__ = ["SYSTEM", "SeasonsSystem"]
