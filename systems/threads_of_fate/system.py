"""The Threads of Fate ``GameSystem``: thin methods over the rules modules of this package."""

from __future__ import annotations

import random
from typing import Any, Iterable, Mapping, Sequence

from tabletop_widgets.core.system_template import TemplateSystem
from tabletop_widgets.core.attacks import AttackOdds, AttackOutcome, AttackSpec, checked_options
from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import Problem, RuleError
from tabletop_widgets.core.system import (
    CheckResult,
    CheckSpec,
    ConditionSpec,
    DamageOutcome,
    Effect,
    InitiativeOrder,
    OptionSpec,
)

from . import TITLE
from . import (
    advancement,
    attacks,
    checks,
    combat,
    contests,
    data,
    fate,
    forms,
    plan,
    sizes,
    trouble,
    validation,
    wizard,
)
from .model import Character
from .words import t20_word, trouble_word
from .checks import check_options
from .fate import set_traits
from .options import DEFAULTS, option_problems


class ThreadsOfFateSystem(
    TemplateSystem,
    package=__package__,
    slug="threads_of_fate",
    title=TITLE,
):
    #: «Очередь» is a combatant's turn (L441); «Ход» is a Move of Fate
    terms = {"turn": T("Turn", "Очередь"), "turns": T("Turns", "Очередей")}

    def __init__(self, **rules: Any):
        super().__init__(**rules)
        problems = option_problems(self.rules)
        if problems:
            raise ValueError("threads_of_fate: bad rules option(s): " + "; ".join(problems))
        # The Character bound to these rules: its derived values (Speed floor A7, the campaign size
        # table X6, robot Durability A26) follow the GM's options. Default rules keep the plain class.
        self.Character = Character if self.rules == DEFAULTS else Character.bound(self.rules)

    def bind_character(self, character):
        """The same character (a fresh copy from ``to_dict``) bound to this system's rules."""
        return self.Character.from_dict(character.to_dict())

    # -- campaign size table (X6: the book's table is missing) ------------------------------------------
    def size_table(self) -> list[dict[str, Any]]:
        """Every size class with its HP multiplier and size bonus/penalty: the GM's campaign values over
        the cells the fragment gives; ``gm_entered`` marks the GM's cells, ``missing`` what is still unknown."""
        return sizes.size_table(options=self.rules)

    def with_size_table(self, table: Mapping[str, Mapping[str, int]]) -> "ThreadsOfFateSystem":
        """A copy of this system whose campaign size table has the GM's values (merged over any already
        entered): ``{"small": {"hp_multiplier": 2}, "huge": {"hp_multiplier": 6, "sbp": 2}}``.
        Bad values raise ``ValueError`` and change nothing."""
        return self.with_rules(size_table=sizes.merged_size_table(self.rules.size_table, table))

    def choose_size(self, character, size: str, *, keep_overrides: bool = False) -> dict:
        """A character picks a size class; its HP multiplier and size bonus come from the campaign table
        (the per-character GM overrides are cleared unless ``keep_overrides``). Refuses (``RuleError``,
        nothing changed) an unknown size; a hero needs GM approval for a size other than Medium (L303)."""
        sizes.check_size(size)
        values: dict[str, Any] = {"size": size}
        if not keep_overrides:
            values.update(size_hp_mult=None, size_sbp=None)
        changes = set_traits(character, **values)
        missing, notes = sizes.size_choice_notes(character, size, options=self.rules)
        return {"changes": changes, "missing": missing, "notes": notes}

    def stealthy_speed(self, character) -> int | None:
        """Speed while moving stealthily: halved, rounded down (L403, L154); None until size values exist."""
        return character.speed_stealthy

    def stealth_move(
        self, character, group: Sequence[str] = (), *, rng: random.Random | None = None, **options
    ) -> dict:
        """Move stealthily (L403): Speed halves; the Stealth check (DEX by default) takes -1 per helped
        creature and the positive size bonus of larger ones. ``group`` lists the helped creatures' sizes.
        Hiding is impossible while watched (L403): that is the GM's call, not modelled."""
        sbp_of = {s: sizes.size_values(s, options=self.rules)[1] for s in sizes.SIZES}
        penalty = sizes.group_stealth_penalty(list(group), sbp_of) if group else 0
        characteristic = options.pop("characteristic", "dexterity")
        opts = {**options, "bonus": options.get("bonus", 0) + penalty}
        res = self.roll_check(character, f"{characteristic}+stealth", rng=rng, **opts)
        return {"check": res, "speed": self.stealthy_speed(character), "group_penalty": penalty}

    # -- data ---------------------------------------------------------------------------------------
    def data(self, table: str) -> list[dict[str, Any]]:
        if table == "difficulty_ladder" and self.rules.difficulty_ladder:
            return [dict(r) for r in self.rules.difficulty_ladder]
        if table == "sizes":
            return self.size_table()
        if table == "trouble_bands":
            return data.trouble_band_rows()
        return super().data(table)

    # -- checks -------------------------------------------------------------------------------------
    def checks(self, character) -> list[CheckSpec]:
        return checks.list_checks(character, options=self.rules)

    def check(self, character, check_id: str) -> CheckSpec:
        for c in self.checks(character):
            if c.id == check_id:
                return c
        p = plan.plan_check(character, check_id, options=self.rules)  # any characteristic + any skill (A53)
        return CheckSpec(check_id, p.label, check_options(p.kind == "skill"))

    def roll_check(self, character, check_id: str, *, rng: random.Random | None = None, **options) -> CheckResult:
        res = checks.roll_check(character, check_id, rng=rng, options=self.rules, **options)
        if not res.details.get("static"):
            character.remember_check(res)  # %roll reroll re-rolls the last check (M3)
        return res

    def after_roll_options(self, character, result: CheckResult) -> list[OptionSpec]:
        """A17 with ``critical_move_timing="any_time"``: after a rolled check a hero or persona may
        still break 4 Threads for a critical success or failure (L191-192); by default (the book's
        timing read as the 2-Thread Move's, L189) nothing is offered after the roll."""
        return fate.critical_after_roll_options(character, result, options=self.rules)

    def after_roll(self, character, result: CheckResult, **options) -> CheckResult:
        """``result`` made a critical success (the die counts as 20) or failure (1) for 4 Threads (the
        Threads as an Effect, not applied); nothing is rolled again."""
        chosen = self.checked_after_roll_options(character, result, options)
        bought = {"success": "critical_success", "failure": "critical_failure"}[chosen["critical"]]
        again = {k: v for k, v in dict(result.options).items() if k != "bought"}
        return checks.roll_check(character, result.check_id, options=self.rules, bought=bought, **again)

    def check_distribution(self, character, check_id: str, **options):
        if check_id == "trouble":
            return trouble.trouble_distribution(options=self.rules, **options)
        return checks.check_distribution(character, check_id, options=self.rules, **options)

    def reroll(self, character, previous: CheckResult, *, rng: random.Random | None = None) -> CheckResult:
        res = checks.reroll(character, previous, rng=rng, options=self.rules)
        character.remember_check(res)
        return res

    def roll_trouble(self, character=None, *, rng: random.Random | None = None, **options) -> CheckResult:
        return trouble.roll_trouble(rng=rng, options=self.rules, character=character, **options)

    def static_value(self, character, check_id: str, **options) -> int:
        return checks.check_distribution(character, check_id, options=self.rules, static=True, **options).min

    def success_with_trouble(self, result: CheckResult, **kw) -> dict:
        return contests.success_with_trouble(result, **kw)

    def contest(
        self,
        a,
        a_check: str,
        b,
        b_check: str,
        *,
        rng: random.Random | None = None,
        a_options: Mapping | None = None,
        b_options: Mapping | None = None,
    ) -> dict:
        """A Contest (L149-151): both roll; strictly higher total wins; a tie changes nothing."""
        rng = rng if rng is not None else random.Random()
        ra = self.roll_check(a, a_check, rng=rng, difficulty=0, **(a_options or {}))
        rb = self.roll_check(b, b_check, rng=rng, difficulty=0, **(b_options or {}))
        winner, margin = contests.contest_verdict(ra.total, rb.total)
        return {"a": ra, "b": rb, "winner": winner, "margin": margin}

    def contest_odds(self, a, a_check: str, b, b_check: str, a_options=None, b_options=None) -> dict:
        pa = plan.plan_check(a, a_check, options=self.rules)
        pb = plan.plan_check(b, b_check, options=self.rules)
        oa = plan.parse_options(dict(a_options or {}))
        ob = plan.parse_options(dict(b_options or {}))
        return contests.contest_odds(
            pa.bonus + oa.bonus,
            pb.bonus + ob.bonus,
            plan.net_of(pa, oa, options=self.rules),
            plan.net_of(pb, ob, options=self.rules),
        )

    def mutual_aid(
        self, main_difficulty: int, helpers: Sequence[tuple[Any, str, Mapping]], *, rng: random.Random | None = None
    ) -> dict:
        """Helpers roll vs DC - 5 (L142): each success is an Advantage, each failure a Hindrance
        for the main check. Pass ``advantages``/``hindrances`` on to the main check: they cancel with
        its own and the net is capped at 2 there (L108-109); ``net`` is the net of the aid alone."""
        rng = rng if rng is not None else random.Random()
        dc = contests.helper_difficulty(main_difficulty)
        results = [
            self.roll_check(ch, cid, rng=rng, **{**dict(opts or {}), "difficulty": dc}) for ch, cid, opts in helpers
        ]
        adv, hin = contests.aid_counts([r.success for r in results])
        net = checks.net_dice(adv, hin, self.rules.adv_order)
        return {"difficulty": dc, "results": results, "advantages": adv, "hindrances": hin, "net": net}

    def apply_effects(self, character, effects: Sequence[Effect]) -> dict:
        """All or none (the core checks every effect first): in ``xp_as_threads`` mode unspent XP pays a
        Threads shortfall (L169), so such an effect is split into Threads and XP before the check."""
        return super().apply_effects(character, fate.threads_paid_with_xp(character, effects, options=self.rules))

    def effect_value(self, character, trait: str, old: Any, delta: int) -> Any:
        """Threads stay within 0-5 (excess lost, A22); HP at most hp_max; XP never below 0."""
        return fate.effect_value(character, trait, old, delta)

    # -- creation and advancement -------------------------------------------------------------------
    def validate(self, character, party: Iterable = ()) -> list[Problem]:
        return validation.validate(character, party, options=self.rules)

    def validate_party(self, characters: Mapping[str, Any]) -> list[Problem]:
        """Every character's problems with the party ``{id: character}`` in view; each problem's
        ``data["character"]`` is the character's id."""
        return validation.validate_party(characters, options=self.rules)

    def raise_skill(self, character, skill: str, by: int = 1) -> dict:
        return fate.raise_skill(character, skill, by)

    def spend_characteristic_point(self, character, characteristic: str, by: int = 1) -> dict:
        return fate.spend_characteristic_point(character, characteristic, by, options=self.rules)

    def buy_trick(self, character, name: str, text: str = "", expert_access: Sequence[str] = ()) -> dict:
        return fate.buy_trick(character, name, text, expert_access)

    def finalise(self, character) -> dict:
        """Leave the creation stage: :meth:`start_play`."""
        return self.start_play(character)

    def play_changes(self, character) -> dict:
        """The creation XP left becomes free XP when the hero enters play."""
        return fate.play_changes(character)

    def creation_wizard(self, character) -> list:
        """The book's creation steps in order (concept, characteristics, Attributes, Tricks, Flaws,
        Facets, Bonds, skills); the Facets step only for a hero with Attributes."""
        return wizard.steps(character, options=self.rules)

    def creation_budgets(self, character) -> dict:
        return wizard.budgets(character, options=self.rules)

    # -- advancement (XP in play) ---------------------------------------------------------------------
    def advancement_resources(self) -> tuple:
        return advancement.resources()

    def advancements(self, character) -> list:
        """Skill points (1 XP), a Trick (5 XP) and Threads (1 XP each, by the campaign's rule)."""
        return advancement.advance_list(character, options=self.rules)

    def plan_advance(self, character, advance_id: str, **options: Any):
        spec, opts = self.advance_spec(character, advance_id, options)
        return advancement.plan(self, character, spec, opts)

    def award_changes(self, character, resource: str, amount: int) -> dict:
        """An XP award adds to the unspent XP and to the XP earned."""
        return advancement.award_changes(character, resource, amount)

    # -- Threads, Moves, Caprices (§7.1) -----------------------------------------------------------------
    def start_meeting(self, character) -> dict:
        return fate.start_meeting(character, options=self.rules)

    def end_meeting(self, character) -> dict:
        return fate.end_meeting(character, options=self.rules)

    def session_started(self, character, *, choices: Mapping[str, Any] | None = None) -> DamageOutcome | None:
        """A campaign's game session is a game meeting: heroes and personas start it with 2
        Threads (L164; kept in milestone mode), per-meeting counters reset."""
        changes = self.start_meeting(character)
        if not changes:
            return None
        notes = []
        if "threads" in changes:
            old, new = changes["threads"]
            notes.append(
                T(f"Threads of Fate for this meeting: {old} → {new}", f"Нити судьбы на эту встречу: {old} → {new}")
            )
        return DamageOutcome(changes=dict(changes), notes=notes)

    def new_day(self, character) -> dict:
        return fate.new_day(character)

    def end_scene(self, character) -> dict:
        return fate.end_scene(character)

    def milestone_refresh(self, character) -> dict:
        return fate.milestone_refresh(character)

    def gain_threads(self, character, n: int = 1) -> dict:
        return fate.gain_threads(character, n, options=self.rules)

    def spend_threads(self, character, n: int) -> dict:
        return fate.spend_threads(character, n, options=self.rules)

    def buy_threads(self, character, n: int = 1, *, moment: str = "meeting_start") -> dict:
        return fate.buy_threads(character, n, moment=moment, options=self.rules)

    def make_move(self, character, move_id: str, **kw) -> dict:
        return fate.make_move(character, move_id, options=self.rules, **kw)

    def invoke_caprice(self, character, caprice_id: str = "C1", **kw) -> dict:
        return fate.invoke_caprice(character, caprice_id, options=self.rules, **kw)

    def new_scene(self, name: str = "") -> "fate.Scene":
        """A scene object holding the GM's once-per-hero Caprice limit (L209); pass it to ``invoke_caprice``."""
        return fate.Scene(name)

    def hand_of_fate(self, contributions) -> dict:
        return fate.hand_of_fate(contributions, options=self.rules)

    def common_trouble(self, characters) -> dict:
        return fate.common_trouble(characters, options=self.rules)

    # -- dice words -----------------------------------------------------------------------------------
    def dice_words(self) -> list:
        return [t20_word(options=self.rules), trouble_word(options=self.rules)] + forms.form_words(options=self.rules)

    # -- combat ---------------------------------------------------------------------------------------
    def health(self, character) -> tuple[int, int]:
        return combat.health(character)

    def is_defeated(self, character) -> bool:
        return combat.is_defeated(character)

    def conditions(self) -> list[ConditionSpec]:
        return combat.conditions()

    def roll_initiative(self, combatants, *, rng: random.Random | None = None, **options) -> InitiativeOrder:
        return combat.roll_initiative(combatants, rng=rng, options=self.rules, **options)

    def attack(
        self, attacker, target, check_id: str = "valor", *, rng: random.Random | None = None, **options
    ) -> CheckResult:
        return combat.resolve_attack(attacker, target, check_id, rng=rng, options=self.rules, **options)

    # -- attacks (the contract of ``tabletop_widgets.core.attacks``; rules in ``attacks``) ------------
    def attacks(self, attacker, target) -> list[AttackSpec]:
        """The unarmed strike and one attack per equipped weapon, with their options."""
        return attacks.attack_list(attacker, target, options=self.rules)

    def attack_spec(self, attacker, target, attack_id: str, options: Mapping[str, Any] | tuple = ()):
        """As ``GameSystem.attack_spec`` (``options``: the attack's chosen options, named as there, so
        a keyword call works; empty by default), building only the attack asked for (the odds and the
        rolls ask often); an attack not offered is refused with the list of those that are."""
        weapon = attacks.find_weapon(attacker, attack_id)
        if weapon is None:
            return super().attack_spec(attacker, target, attack_id, dict(options or {}))
        spec = attacks.attack_spec(attacker, target, weapon, options=self.rules)
        if spec.unavailable:  # listed to say why, never made (a weapon put away)
            raise RuleError("attack_unavailable", dict(spec.unavailable), attack=spec.id)
        return spec, checked_options(spec, dict(options or {}))

    def _attack_plan(self, attacker, target, attack_id: str, asked: Mapping[str, Any]):
        spec, chosen = self.attack_spec(attacker, target, attack_id, asked)
        weapon = attacks.find_weapon(attacker, spec.id)
        return spec, attacks.plan_attack(attacker, target, weapon, chosen, options=self.rules)

    def attack_odds(self, attacker, target, attack_id: str, **options) -> AttackOdds:
        _spec, plan = self._attack_plan(attacker, target, attack_id, options)
        return attacks.odds(self, attacker, target, plan, options=self.rules)

    def resolve_attack(self, attacker, target, attack_id: str, *, rng: random.Random, **options) -> AttackOutcome:
        spec, plan = self._attack_plan(attacker, target, attack_id, options)
        return attacks.resolve(attacker, target, spec, plan, rng=rng, options=self.rules)

    def contest_attack(
        self, attacker, target, check_id: str = "valor", *, rng: random.Random | None = None, **options
    ) -> dict:
        return combat.contest_attack(attacker, target, check_id, rng=rng, options=self.rules, **options)

    def defense_check(self, character, difficulty: int, *, rng: random.Random | None = None, **options) -> CheckResult:
        return combat.defense_check(character, difficulty, rng=rng, options=self.rules, **options)

    def medicine(self, medic, patient, *, mode: str = "heal", rng: random.Random | None = None, **options) -> dict:
        return combat.medicine(medic, patient, mode=mode, rng=rng, options=self.rules, **options)

    def turn_slots(self) -> list[dict]:
        return combat.turn_slots()

    def gm_entered(self) -> list[dict]:
        """What the fragment lacks and how the software degrades: the GM enters these values (§7.7)."""
        return self.data("missing")

    def damage_options(self, character) -> list[OptionSpec]:
        return combat.damage_options()

    def apply_damage(self, character, amount: int, **options) -> DamageOutcome:
        return combat.apply_damage(character, amount, options=self.rules, **options)

    def apply_healing(self, character, amount: int, **options) -> DamageOutcome:
        return combat.apply_healing(character, amount, options=self.rules, **options)

    def healing_options(self, character) -> list[OptionSpec]:
        return combat.healing_options(character)

    def on_turn(self, character, when: str, *, rng: random.Random | None = None, conditions=()) -> DamageOutcome | None:
        return combat.on_turn(character, when, rng=rng, conditions=conditions, options=self.rules)

    def condition_changed(self, character, condition_id: str, active: bool, **data) -> DamageOutcome | None:
        return combat.condition_changed(character, condition_id, active, **data)

    # -- Medicine in progress (L441), saved with the medic ----------------------------------------------
    def begin_treatment(
        self, medic, patient: str = "", *, skill: str = "medicine", characteristic: str = "intelligence"
    ) -> dict:
        return combat.begin_treatment(medic, patient, skill=skill, characteristic=characteristic, options=self.rules)

    def treatment_turn(self, medic) -> dict:
        return combat.treatment_turn(medic, options=self.rules)

    def end_treatment(self, medic) -> dict:
        return combat.end_treatment(medic)

    def treatment_status(self, medic) -> dict | None:
        return dict(medic.treatment) or None


SYSTEM = ThreadsOfFateSystem()
