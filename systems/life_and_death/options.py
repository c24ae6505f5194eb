"""GM-configurable readings of ambiguous rules (spec §11.1 ``LnDRules``): name -> default."""

from __future__ import annotations

DEFAULT_RULES: dict = {
    "mode": "campaign",  # or "quick" (no reputation / epic dice, L47, L347)
    "hp_formula": "race_base_plus_might_delta",  # A-02; or "manual" (hp_max = base_hp as entered)
    "hp_include_feature_might": True,
    "age_swap_scope": "whole_swap",  # A-04; or "minus_only"
    "age_swap_overflow": "clamp",  # A-04; or "error"
    "feature_param_overflow": "clamp",  # §3.1; or "error" / "allow"
    "allow_params_above_5": False,  # L377
    "armour_pierce_rule": "more_crits_than_defender",  # A-03; or "any_attacker_crit" (L232)
    "damage_floor_zero": True,  # §6.7
    "natural_armour_stacking": "add",  # §6.7; or "max"
    "neck_armour": "body",  # §6.7: the neck counts body armour
    "armour_vs_spells": False,  # §6.11
    "spell_level_rule": "max1_complexity",  # A-05; or "complexity_plus_1" / "manual"
    "spell_complexity_over_skill": "illegal",  # A-47; or "clamp"
    "failed_spell_fallback": "basic_if_any_success",  # L35; or "gm"
    "ep_cost_on_failure": True,  # §7.1.1
    "wild_pattern_brightness_threshold": None,  # None = remind on every failed cast
    "joint_cast_roller": "lowest_initiative",  # §7.1.9
    "facet_transition_damage": "both",  # §7.1.10; or "once"
    "damage_type_pools": {"physical": "hp", "pattern": "ep", "spiritual": "sp", "idea": "ip"},
    "retry_penalty": "cumulative",  # A-08; or "flat"
    "pool_nonpositive": "auto_fail",  # A-09; or "forbid"
    "fumble_basis": "net",  # §5.2; or "raw"
    "other_spec_adds_level": False,  # §5.3
    "initiative_tiebreak": "pool_dex_random",  # A-06; or "reroll" / "simultaneous" / "gm"
    "initiative_on_join": "reroll_all",  # A-06; or "insert_newcomers"
    "reactions_consume_actions": True,  # §6.4
    "counterattack_mode": "separate_attack",  # §6.6; or "exchange"
    "speed_ii_extra_actions": 1,  # §6.4
    "round1_others": "block_dodge_only",  # §6.5; or "anything_but_counterattack"
    "round1_free_actions": True,  # §6.5
    "bound_pattern_iii_skips_coordination": False,
    "zero_hp_state": "incapacitated",  # A-10; or "dead" / "none"
    "raise_current_with_max": True,  # §3.4
    "enchant_multiplier_scope": "base_incl_container",  # §7.6; or "spell_only"
    "highlevel_param_points": "level",  # L377; or "level_minus_1"
    "inconspicuous_start_rep": 0,  # §4 step 9
    "racial_upgrade_is_mutation": False,
    "epic_clamp_on_rep_change": True,  # §7.4
    "saturated_xp_on_cap_raise": "apply",  # §7.5; or "discard"
    "xp_capped_counts_toward_total": True,  # §7.5
    "transform_tier_includes_humanoid": False,
    "luck_targeting": "lowest_roll",  # A-40; or "gm"
    "gm_allows_guardians": False,  # L117
    # -- readings added when closing the gaps (not in the spec's §11.1 list; see README) --------------
    # A-02 / §3.3: the seed gives no base HP and the race list is absent. A character whose base HP
    # was never entered (``base_hp=None``) and whose race row has none uses this house default;
    # None = no default: the GM must enter it (validate() reports E_BASE_HP_MISSING, hp_max counts 0).
    "default_base_hp": 10,
    # the seed states no parameter for Survival (L324) or Transformation (L84). L86 puts every
    # non-energetics skill under Might, Dexterity or Alertness; [DEFAULT] Survival -> Alertness ("not
    # get into trouble in unfamiliar surroundings", L17), Transformation -> Might (the body, L15, L55).
    # Skill data and the sheet's custom_skills win; {} = not stated: the check id names the parameter.
    "unstated_skill_params": {"survival": "alertness", "transformation": "might"},
}
