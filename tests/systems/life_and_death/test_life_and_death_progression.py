"""Inventory economy, reputation, epic dice, XP (spec §7.3-§7.6, vectors D-100..D-119, S-04, S-05, S-14)."""

import pytest

from tabletop_systems.life_and_death import SYSTEM, Character
from tabletop_systems.life_and_death import inventory as inv
from tabletop_systems.life_and_death.progression import change_reputation, make_familiar, make_pet
from tabletop_widgets.core import RuleError


def test_S04_S05_purse():
    purse = dict(azure=1, emerald=13, fire=10)
    assert inv.coin_weight(**purse) == 0.5
    assert inv.money_value(**purse) == 240


@pytest.mark.parametrize(
    "rarity,cost", [("common", 3), ("rare", 6), ("unique", 9)], ids=["D-100-iron", "D-100-rare", "D-100-unique"]
)
def test_D100_weapon_cost(rarity, cost):
    assert inv.weapon_cost(3, rarity) == cost


def test_D101_armour_cost():
    assert inv.armour_cost(2, "rare") == 4


def test_D102_D103_potion():
    assert inv.enchanted_cost(2, 2, "vial", "common", ["physical_trigger"]) == 6
    assert inv.enchanted_cost(2, 2, "vial", "rare", ["physical_trigger"]) == 11
    assert inv.enchanted_cost(2, 2, "vial", "rare", ["physical_trigger"], scope="spell_only") == 10


def test_D104_artifact():
    assert (
        inv.enchanted_cost(
            1, 1, "object", "common", ["mental_trigger", "personal_use"], intent_radius_m=5, category="artifact"
        )
        == 11
    )


def test_D105_friend_or_foe():
    assert inv.enchanted_cost(1, 1, "ring", friends=3, category="amulet") == 6


def test_mental_trigger_artifacts_only():
    with pytest.raises(RuleError):
        inv.enchanted_cost(1, 1, "vial", effects=["mental_trigger"], category="potion")
    c = Character(inventory=[{"name": "p", "category": "potion", "effects": ["mental_trigger"], "cost": 3}])
    assert "E_MENTAL_TRIGGER" in {p.code for p in SYSTEM.validate(c)}


@pytest.mark.parametrize("armour,w", [(12, 1.0), (15, 1.5), (7.5, 1.0), (2, 0.0)])
def test_D106_helmet_weight(armour, w):
    assert inv.helmet_weight(armour) == w


@pytest.mark.parametrize("n,w", [(19, 0), (20, 0.5), (40, 1.0), (59, 1.0)])
def test_D107_coin_weight(n, w):
    assert inv.coin_weight(fire=n) == w


def test_D108_light_items():
    assert inv.item_weight(0.4) == 0
    c = Character(
        inventory=[
            {"name": "ring", "category": "simple", "weight_kg": 0.4},
            {"name": "rope", "category": "simple", "weight_kg": 2},
        ]
    )
    assert c.carried_weight_kg == 2


def test_D109_budget_with_well_stocked():
    items = [{"name": f"i{i}", "category": "simple", "cost": 1} for i in range(21)]
    c = Character(features=[{"id": "well_stocked", "level": 1, "origin": "bought"}], inventory=items)
    assert c.inv_points == 20 and c.inv_points_spent == 21
    assert "E_INVENTORY_BUDGET" in {p.code for p in SYSTEM.validate(c)}
    c.inventory = items[:20]
    assert "E_INVENTORY_BUDGET" not in {p.code for p in SYSTEM.validate(c)}


def test_D110_money_purchase():
    opts = inv.money_for_points(10)
    assert {"emerald": 1} in opts and {"fire": 10} in opts and {"agate": 100} in opts
    for o in opts:
        assert inv.money_value(**o) == 10


def test_inventory_costs_weights_and_might():
    c = Character(
        might=2,
        helmet="open",
        inventory=[
            {
                "name": "axe",
                "category": "weapon",
                "damage": 3,
                "rarity": "rare",
                "min_might": 3,
                "weight_kg": 2,
                "equipped": True,
            },
            {"name": "mail", "category": "armour", "protection": 2, "weight_kg": 15, "equipped": True},
            {"name": "potion", "category": "potion", "brightness": 1, "spell_level": 1, "weight_kg": 1},
        ],
        money={"agate": 5},
    )
    assert c.inv_points_spent == 6 + 2 + 3 + 0.5
    assert c.carried_weight_kg == 2 + 15 + 1.5
    codes = {p.code for p in SYSTEM.validate(c)}
    assert {"E_MIN_MIGHT", "W_OVERWEIGHT", "E_INVENTORY_BUDGET"} <= codes
    assert c.armour_level == 2


@pytest.mark.parametrize(
    "rep,delta,new",
    [(-1, 1, 1), (1, -1, -1), (-2, 3, 2), (3, -1, 2), (2, -3, -2)],
    ids=["S-14", "D-111-a", "D-111-b", "D-111-c", "D-111-d"],
)
def test_reputation_skips_zero(rep, delta, new):
    assert change_reputation(rep, delta) == new


def test_D112_inconspicuous():
    assert change_reputation(1, -1, inconspicuous=True) == 0
    c = Character(reputation=1, features=[{"id": "inconspicuous", "level": 1, "origin": "bought"}])
    SYSTEM.change_reputation(c, -1)
    assert c.reputation == 0


def test_D113_D114_epic_dice():
    c = Character(reputation=-3, epic_dice=3)
    SYSTEM.change_reputation(c, 1)
    assert (c.reputation, c.epic_dice) == (-2, 2)
    d = Character(reputation=1, epic_dice=1)
    assert SYSTEM.award_epic_die(d) == 1
    with pytest.raises(RuleError):
        SYSTEM.award_epic_die(Character(mode="quick"))
    e = Character(reputation=2, epic_dice=1)
    assert SYSTEM.apply_effects(
        e, [__import__("tabletop_widgets.core", fromlist=["Effect"]).Effect("epic_dice", 5)]
    ) == {"epic_dice": (1, 2)}


def test_D115_skill_xp():
    c = Character(might=3, skills={"athletics": 1}, skill_xp={"athletics": 4})
    SYSTEM.end_of_session(c, {"athletics": 1})
    assert c.skills["athletics"] == 2 and c.skill_xp["athletics"] == 0


def test_D116_D117_saturation():
    c = Character(might=3, skills={"athletics": 3}, skill_xp={"athletics": 4})
    SYSTEM.end_of_session(c, {"athletics": 1})
    assert (c.skills["athletics"], c.skill_xp["athletics"]) == (3, 5)
    SYSTEM.end_of_session(c, {"athletics": 1})
    assert (c.skills["athletics"], c.skill_xp["athletics"]) == (3, 5)
    c.pending_improvements = 1
    SYSTEM.improve(c, "parameter", "might")
    assert (c.might, c.skills["athletics"], c.skill_xp["athletics"]) == (4, 4, 0)


def test_D117_discard_option():
    system = SYSTEM.with_rules(saturated_xp_on_cap_raise="discard")
    c = system.Character(might=3, skills={"athletics": 3}, skill_xp={"athletics": 5}, pending_improvements=1)
    system.improve(c, "parameter", "might")
    assert (c.skills["athletics"], c.skill_xp["athletics"]) == (3, 0)


def test_D118_levels():
    assert Character(xp=19).level == 1 and Character(xp=20).level == 2
    c = Character(xp=38, might=5, dexterity=5, alertness=5)
    SYSTEM.end_of_session(c, {"athletics": 1, "stealth": 1, "detection": 1})
    assert c.xp == 41 and c.level == 3 and c.pending_improvements == 1


def test_D119_carelessness():
    c = Character(
        might=3, dexterity=3, alertness=3, features=[{"id": "carelessness", "level": 1, "origin": "negative"}]
    )
    r = SYSTEM.end_of_session(c, {"athletics": 1, "stealth": 1, "detection": 1}, careless_pick="stealth")
    assert r["awards"]["stealth"] == 0 and r["session_xp"] == 2 and c.xp == 2


def test_xp_limits():
    c = Character(might=3)
    with pytest.raises(RuleError):
        SYSTEM.end_of_session(c, {"athletics": 2})
    SYSTEM.end_of_session(c, {"athletics": 2}, gm_exceptions=True)
    assert c.skill_xp["athletics"] == 2
    with pytest.raises(RuleError):
        SYSTEM.end_of_session(c, {"mystery": 1})


def test_level_up_feature_and_surprise():
    c = Character(
        pending_improvements=3,
        features=[{"id": "speed", "level": 1, "origin": "bought"}, {"id": "pathos", "level": 1, "origin": "negative"}],
    )
    SYSTEM.improve(c, "feature", "speed")
    assert c.feature_level("speed") == 2
    SYSTEM.improve(c, "feature", "pathos")
    assert not c.has_feature("pathos")
    SYSTEM.improve(c, "surprise")
    assert c.surprises_pending == 1 and c.pending_improvements == 0
    with pytest.raises(RuleError):
        SYSTEM.improve(c, "surprise")
    d = Character(pending_improvements=1)
    with pytest.raises(RuleError):
        SYSTEM.improve(d, "feature", "tail")  # a new feature at level-up must be positive
    assert d.pending_improvements == 1
    SYSTEM.improve(d, "feature", "hoarder", note="backpack")
    assert d.features[-1] == {"id": "hoarder", "level": 1, "origin": "levelup", "note": "backpack"}


def test_pets_and_familiars():
    wolf = {"id": "wolf", "en": "Wolf", "ru": "волк", "tier": 2, "might": 3, "dexterity": 3, "alertness": 4}
    pet = make_pet(wolf, "aggressive")
    assert (pet["luck"], pet["complexity"], pet["power"], pet["weight_kg"]) == (2, 0, 0, 0)
    with pytest.raises(RuleError):
        make_pet(wolf, "grumpy")
    master = Character(name="Ари", features=[{"id": "bound_pattern", "level": 2, "origin": "bought", "note": "Волк"}])
    fam = Character(**make_familiar(wolf, master))
    assert (fam.power, fam.complexity, fam.luck, fam.feature_level("bound_pattern")) == (1, 1, 2, 2)
    with pytest.raises(RuleError):
        make_familiar(wolf, Character())
