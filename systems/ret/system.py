"""The R.E.T. rules as a :class:`GameSystem`: thin methods that pass the GM options to the rules
modules."""

from __future__ import annotations

import random
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Mapping, Sequence


from tabletop_widgets.core.system_template import TemplateSystem
from tabletop_widgets.core import (
    CheckResult,
    ConditionSpec,
    DamageOutcome,
    Effect,
    InitiativeOrder,
    OptionSpec,
    Problem,
    T,
)

from tabletop_widgets.core.attacks import checked_options

from . import TITLE
from . import advance_menu as _advance_menu
from . import advancement as _advancement
from . import attack_outcomes as _attack_outcomes
from . import weapon_attacks as _weapon_attacks
from . import checks as _checks
from . import creation as _creation
from . import combat as _combat
from . import data as _data
from . import validation as _validation
from . import weapons as _weapons
from .checks import apply_divider, contest
from .level import LevelRoll, level_roll
from .check_word import make_check_word
from .prob_word import make_prob_word
from .words import make_word


class RetSystem(
    TemplateSystem,
    package=__package__,
    slug="ret",
    title=TITLE,
):
    """The R.E.T. rules as a GameSystem (spec ``rules/ret.md``)."""

    #: a tray starts at Medium (8), the middle of the book's difficulty ladder (L505-515); the
    #: option's default stays None ("no difficulty": totals compared with an opponent's roll)
    usual_options = {"difficulty": 8}
    #: the book's word for a die: «куб» (L486, «куб провала» L525), never «кубик»
    terms = {"dice": T("Dice", "Кубы"), "dice_tray": T("Dice tray", "Лоток для кубов")}

    # -- checks ---------------------------------------------------------------------------------
    def checks(self, character) -> list:
        return _checks.catalogue(character, options=self.rules)

    def roll_check(self, character, check_id: str, *, rng: random.Random | None = None, **options: Any) -> CheckResult:
        return _checks.roll(character, check_id, options, options=self.rules, rng=rng)

    def check_distribution(self, character, check_id: str, **options: Any):
        return _checks.distribution(character, check_id, options, options=self.rules)

    def outcome_distribution(self, character, check_id: str, **options: Any) -> dict[str, Fraction]:
        """P of each of the five outcomes (passed with success ... critically failed)."""
        return _checks.outcome_distribution(character, check_id, options, options=self.rules)

    def contest(self, attacker: LevelRoll | None, defender: LevelRoll | None) -> str:
        """``"attacker"`` or ``"defender"`` (ties to the defender, L502)."""
        return contest(attacker, defender, options=self.rules)

    def contest_chance(self, attacker: Mapping[str, Any], defender: Mapping[str, Any] | None) -> Fraction:
        return _checks.contest_chance(attacker, defender, options=self.rules)

    def level_roll(self, level: int, *, rng: random.Random | None = None, **kw) -> LevelRoll:
        return level_roll(level, rng=rng, options=self.rules, **kw)

    def divide(self, total: int | None, divider: Any, *, fail: bool = False, on_fail: str | None = None) -> int:
        """The divider (spec §5.7): ``max(0, total) // D + base``."""
        return apply_divider(
            total, _checks.resolve_divider(divider), fail=fail, on_fail=on_fail or self.rules.divider_on_fail
        )

    def effect_value(self, character, trait: str, old: Any, delta: int) -> Any:
        """Luck never below 0 (L355) and may exceed max; Health/Sanity gains capped at max
        (L327, L343), losses may go negative."""
        return _combat.effect_value(character, trait, old, delta)

    def apply_effects(self, character, effects: Sequence[Effect]) -> dict[str, tuple[Any, Any]]:
        """All or none (the core's check-first application), then new harm below 0 ends a
        resource's stabilisation (A19)."""
        unstabilised = _combat.unstabilised_by(character, effects)
        changes = super().apply_effects(character, effects)
        for trait in unstabilised:
            setattr(character, f"stabilised_{trait}", False)
        return changes

    def apply_result(self, character, result: CheckResult) -> dict[str, tuple[Any, Any]]:
        """Apply a check's effects and state changes (stabilised flags, conditions gained or
        removed, ultimates marked used)."""
        changes = self.apply_effects(character, result.effects)
        changes.update(_checks.apply_check_state(character, result))
        return changes

    # -- creation and advancement -----------------------------------------------------------------
    def validate(self, character) -> list[Problem]:
        return _validation.validate(character, options=self.rules)

    def validate_party(self, characters: Mapping[str, Any]) -> list[Problem]:
        """Every member's problems, each naming its member (``data["member"]``)."""
        return _validation.validate_party(characters, options=self.rules)

    def cost(self, level_from: int, level_to: int, scheme: str | None = None) -> int:
        return _advancement.cost(level_from, level_to, scheme or self.rules.costing, options=self.rules)

    def raise_parameter(self, character, param: str, **kw) -> dict:
        return _advancement.raise_parameter(character, param, options=self.rules, **kw)

    def raise_ability(self, character, name: str, **kw) -> dict:
        return _advancement.raise_ability(character, name, options=self.rules, **kw)

    def convert_ability(self, character, name: str, new_name: str, **kw) -> dict:
        return _advancement.convert_ability(character, name, new_name, options=self.rules, **kw)

    def convert_flaw(self, character, name: str, new_name: str, base_param: str, **kw) -> dict:
        return _advancement.convert_flaw(character, name, new_name, base_param, options=self.rules, **kw)

    def gain_ability(self, character, name: str, kind: str, base_param: str, **kw) -> dict:
        return _advancement.gain_ability(character, name, kind, base_param, **kw)

    def play_changes(self, character) -> Mapping[str, Any]:
        """Entering play: the creation points left unspent become development points only when the
        GM keeps them (``keep_unspent_creation_dp``; the book gives DP after sessions, L278)."""
        if not self.rules.keep_unspent_creation_dp:
            return {}
        budgets = _creation.budgets(character, options=self.rules)
        left_p, left_a = (max(0, budgets[k].left) for k in ("param_dp", "ability_dp"))
        if self.rules.costing == "simplified":
            return {"dp_params": left_p, "dp_abilities": left_a}
        return {"dp": left_p + left_a}

    def creation_wizard(self, character) -> list:
        """The book's creation steps (L450-470): idea, backstory, skills and a talent, kit,
        development points, indicators."""
        return _creation.steps(character, options=self.rules)

    def creation_budgets(self, character) -> Mapping[str, Any]:
        return _creation.budgets(character, options=self.rules)

    def advancement_resources(self) -> Sequence[Any]:
        """Development points: one common pool ``dp`` under the recommended costing (L300), or
        the GM's two pools ``dp_params`` and ``dp_abilities`` under the simplified one (L315)."""
        return _advance_menu.resources(options=self.rules)

    def advancements(self, character) -> list:
        """Every purchase the book prices with development points (spec §7.1), priced."""
        return _advance_menu.advance_list(character, options=self.rules)

    def plan_advance(self, character, advance_id: str, **options: Any):
        """What the purchase would do (offered now, its options checked and defaulted)."""
        spec, opts = self.advance_spec(character, advance_id, options)
        return _advance_menu.plan_advance(character, spec.id, opts, options=self.rules)

    def advance_waits_for_session_end(self) -> Mapping[str, str] | None:
        """Development points are spent before or after a game, not during one (L280; the book says
        "usually": the GM option ``dp_spend_only_between_games``, on by default)."""
        if not self.rules.dp_spend_only_between_games:
            return None
        return T(
            "Development points are spent before or after a game session, not during play: "
            "buy this when the session is over.",
            "Очки развития тратятся до или после игры, а не во время неё: купите это, когда сессия закончится.",
        )

    def award_changes(self, character, resource: str, amount: int) -> Mapping[str, Any] | None:
        return _advance_menu.award_changes(character, resource, amount)

    def start_game_session(self, character) -> dict:
        return _advancement.start_game_session(character)

    def session_started(self, character, *, choices: Mapping[str, Any] | None = None) -> DamageOutcome | None:
        """A campaign's game session starts: Luck refills up to its maximum, never reduced
        (L356-357); ultimates are available again (L1217); tokens not kept between sessions are
        gone (L1479)."""
        before = {"luck": character.luck, "abilities": character.abilities, "tokens": character.tokens}
        self.start_game_session(character)
        changes = {k: (v, getattr(character, k)) for k, v in before.items() if getattr(character, k) != v}
        if not changes:
            return None
        notes = []
        if "luck" in changes:
            old, new = changes["luck"]
            notes.append(T(f"Luck refilled: {old} → {new}", f"Удача восполнена: {old} → {new}"))
        if "abilities" in changes:
            notes.append(T("Ultimate abilities are available again", "Ультимативные способности снова доступны"))
        if "tokens" in changes:
            gone = ", ".join(str(t.get("name")) for t in changes["tokens"][0] if not t.get("persistent"))
            notes.append(
                T(
                    f"Tokens not kept between sessions are gone: {gone}",
                    f"Токены, не сохраняемые между играми, сгорают: {gone}",
                )
            )
        return DamageOutcome(changes=changes, notes=notes)

    # -- dice words ---------------------------------------------------------------------------------
    def dice_words(self) -> list:
        """``L`` (level rolls), ``ret_check`` (the bound character's named checks: ``agility``,
        ``skill "Lockpicking" luck 1``) and ``prob`` (exact odds: ``prob L5+3 >= 8``)."""
        return [make_word(options=self.rules), make_check_word(options=self.rules), make_prob_word()]

    # -- combat -----------------------------------------------------------------------------------
    def health(self, character) -> tuple[int, int]:
        return character.health, character.health_max

    def is_defeated(self, character) -> bool:
        """Dead, in coma, unconscious or doomed; a mook at 0 Health (L1739). Negative Health
        alone is not defeat: survival rolls decide (L574)."""
        return _combat.is_defeated(character)

    def conditions(self) -> list[ConditionSpec]:
        return _data.condition_specs()

    def roll_initiative(
        self, combatants: Mapping[str, Any], *, rng: random.Random | None = None, **options: Any
    ) -> InitiativeOrder:
        """Options: ``luck`` {id: declared Luck}, ``pcs`` (ids of player characters; default: every
        non-NPC), ``sides`` {id: "allies"/"opponents"} with ``group_mode=True`` for block order."""
        return _combat.roll_initiative(
            combatants,
            rng=rng,
            options=self.rules,
            luck=options.get("luck"),
            pcs=options.get("pcs"),
            sides=options.get("sides"),
            group_mode=bool(options.get("group_mode")),
        )

    def damage_options(self, character) -> list[OptionSpec]:
        return _combat.damage_options(character)

    def apply_damage(self, character, amount: int, **options: Any) -> DamageOutcome:
        """Damage entered by hand (above 0) is the hit of an attack (at least 1 Health, L1381)
        unless ``attack=False`` (ongoing harm: burning, L1492)."""
        loc = options.pop("location", "body")
        attack = options.pop("attack", None)
        return _combat.apply_damage(
            character,
            amount,
            options=self.rules,
            location=loc,
            head=options.pop("head", loc == "head"),
            attack=amount > 0 if attack is None else bool(attack),
            **options,
        )

    def apply_healing(self, character, amount: int, **options: Any) -> DamageOutcome:
        return _combat.apply_healing(character, amount, options=self.rules, **options)

    def healing_options(self, character) -> list[OptionSpec]:
        """Which resource (Health / Sanity), stabilise, and a healing item of the character
        (medkit, potion, adrenaline: its roll total is the amount, 0 lets it roll itself)."""
        return _combat.healing_options(character)

    def tick_conditions(self, character, at: str = "start") -> DamageOutcome:
        return _combat.tick_conditions(character, options=self.rules, at=at)

    def on_turn(
        self, character, when: str, *, rng: random.Random | None = None, conditions: Sequence[Mapping[str, Any]] = ()
    ) -> DamageOutcome | None:
        """Burning / poison / bleeding damage and regeneration at the start of the bearer's turn
        (spec §6.13); durations are the tracker's."""
        return _combat.on_turn(character, when, options=self.rules, conditions=conditions)

    def condition_changed(self, character, condition_id: str, active: bool, **data: Any) -> DamageOutcome | None:
        """Mirror a catalogue condition on the character: penalties reach the rolls, coma /
        unconscious / doom make it defeated, ``dead`` is final death."""
        return _combat.condition_changed(character, condition_id, active, options=self.rules, **data)

    # -- attacks (core/attacks.py contract; rules in weapon_attacks.py and attack_outcomes.py) -----
    def attacks(self, attacker, target) -> list:
        """Bare hands and every weapon on the sheet, each plain and as a called shot, and every
        superpower; none while the attacker's states forbid attacking."""
        return _weapon_attacks.attack_specs(attacker, target, options=self.rules)

    def attack_spec(self, attacker, target, attack_id: str, options: Mapping[str, Any] = MappingProxyType({})):
        """The core's checks, after the rules' own refusals (out of ammunition, no attacks in
        panic or doom) so the player reads why."""
        return self._attack_setup(attacker, target, attack_id, options)[:2]

    def _attack_setup(self, attacker, target, attack_id: str, options: Mapping[str, Any]):
        refused = _weapon_attacks.refusal(attacker, target, attack_id)
        if refused is not None:
            raise refused
        found = _weapon_attacks.spec_for(attacker, target, attack_id, options=self.rules)
        if found is None:  # the contract's own "unknown attack" message, listing what is offered
            super().attack_spec(attacker, target, attack_id, options)
            raise AssertionError(f"attack {attack_id!r} is listed but not found")  # pragma: no cover
        spec, arm, called = found
        opts = checked_options(spec, options)
        return spec, opts, _attack_outcomes.setup(attacker, target, arm, called, attack_id, opts, options=self.rules)

    def attack_odds(self, attacker, target, attack_id: str, **options: Any):
        s = self._attack_setup(attacker, target, attack_id, options)[2]
        return _attack_outcomes.odds(self, attacker, target, s, options=self.rules)

    def resolve_attack(self, attacker, target, attack_id: str, *, rng: random.Random, **options: Any):
        s = self._attack_setup(attacker, target, attack_id, options)[2]
        return _attack_outcomes.resolve(self, attacker, target, s, rng=rng, options=self.rules)

    def apply_attack(self, attacker, target, outcome) -> tuple[DamageOutcome, DamageOutcome]:
        """Effects on both sides, the aim bonus used, a round spent, then the hit's raw damage
        through the damage pipeline (armour worn, head ×2 and Sanity, at least 1 Health)."""
        return _attack_outcomes.apply(self, attacker, target, outcome)

    # -- tracker-side rules as pure functions ---------------------------------------------------
    def turn_state(self, character, *, tense: bool = False) -> _combat.TurnState:
        """A fresh turn's economy (Speed steps, attack, action, social gesture; L742)."""
        return _combat.TurnState.start(character, options=self.rules, tense=tense)

    def extra_turn(self, character, state: _combat.TurnState, round_no: int) -> dict:
        """Buy the next extra turn (3 Sanity, then defence refusal; spec §6.4)."""
        return _combat.extra_turn(character, state, round_no, options=self.rules)

    def end_extra_turn(self, state: _combat.TurnState, self_control_passed: bool | None) -> bool:
        return _combat.end_extra_turn(state, self_control_passed)

    def turn_limits(self, character) -> dict:
        """What the character's states allow this turn (coma, unconscious, doom, panic, rage,
        defence refusal...): move / attack / action / social / extra turns / defence."""
        return _combat.turn_limits(character)

    def after_act(self, character, act: str, **kw) -> DamageOutcome:
        """What a move / attack / action / noise cancels: cover, hidden, aim, movement block."""
        return _combat.after_act(character, act, **kw)

    def combat_over(
        self, combatants: Mapping[str, Any], sides: Mapping[str, str], *, unwilling: Sequence[str] = ()
    ) -> str | None:
        return _combat.combat_over(combatants, sides, unwilling=unwilling)

    def loot_queue(self, combatants: Mapping[str, Any], *, mode: str = "initiative", **kw) -> dict:
        return _combat.loot_queue(combatants, mode=mode, options=self.rules, **kw)

    def split_loot(self, money: int, ids: Sequence[str]) -> dict[str, int]:
        return _combat.split_loot(money, ids)

    def loot_dispute(self, rolls: Mapping[str, LevelRoll | None]) -> tuple[str | None, list[str]]:
        return _combat.loot_dispute(rolls)

    def reload(self, character, weapon: str | int | None = None) -> dict:
        """Reload one weapon: its magazine full (L1287; in a fight it takes the turn's action).
        Without ``weapon`` the first that is not full, an empty one first. The sheet's Reload."""
        return _weapons.reload(character, weapon)

    def use_item(self, character, name: str, *, rng: random.Random | None = None, **kw) -> DamageOutcome:
        """Use an item (a charge, its effect); without a ``total`` it rolls itself with ``rng``."""
        return _combat.use_item(character, name, options=self.rules, rng=rng, **kw)


SYSTEM = RetSystem()
