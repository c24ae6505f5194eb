"""Property tests (hypothesis, modest example counts)."""

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop_systems.life_and_death import SYSTEM, Character
from tabletop_systems.life_and_death.combat import damage_distribution
from tabletop_systems.life_and_death.progression import change_reputation
from tabletop_widgets.dice import DiceError
from tabletop_widgets.dice.words import WordContext

params = st.integers(1, 5)
chars = st.builds(
    Character,
    might=params,
    dexterity=params,
    alertness=params,
    complexity=params,
    power=params,
    luck=params,
    skills=st.dictionaries(st.sampled_from(["athletics", "stealth", "detection"]), st.integers(0, 1), max_size=3),
)
check_ids = st.sampled_from(
    [
        "might",
        "dexterity",
        "alertness",
        "complexity",
        "power",
        "luck",
        "initiative",
        "will",
        "might+athletics",
        "dexterity+stealth",
        "alertness+detection",
        "dexterity+craft:x",
    ]
)


@settings(max_examples=60, deadline=None)
@given(chars, check_ids, st.integers(1, 6), st.integers(0, 2), st.integers(0, 2**32 - 1))
def test_roll_consistent_with_distribution(c, cid, diff, epic, seed):
    c.reputation, c.epic_dice = 3, 2
    d = SYSTEM.check_distribution(c, cid, difficulty=diff, epic=epic)
    assert sum(d.values(), Fraction(0)) == 1
    assert d.p_pass == sum((p for k, p in d.items() if k >= diff), Fraction(0))
    r = SYSTEM.roll_check(c, cid, difficulty=diff, epic=epic, rng=random.Random(seed))
    assert r.total in d and r.success == (r.total >= diff)
    assert len(r.details["faces"]) == max(0, r.details["pool"])
    assert not (r.details["fumble"] and r.total > 0)


@settings(max_examples=40, deadline=None)
@given(chars, check_ids)
def test_chance_monotone_in_difficulty(c, cid):
    ps = [SYSTEM.chance(c, cid, difficulty=d) for d in range(1, 8)]
    assert all(a >= b for a, b in zip(ps, ps[1:]))


@settings(max_examples=40, deadline=None)
@given(st.integers(-5, 5).filter(bool), st.integers(-6, 6))
def test_reputation_never_zero(rep, delta):
    assert change_reputation(rep, delta) != 0


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 4), st.integers(0, 3), st.integers(0, 4), st.integers(0, 4))
def test_damage_distribution_sums_to_one(na, nd, w, arm):
    d = damage_distribution(na, nd, w, arm, options=SYSTEM.rules)
    assert sum(d.values(), Fraction(0)) == 1 and min(d) >= 0


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ld0123456789 +-sevcdmgarourzonelimbx", max_size=25))
def test_word_parse_never_crashes(text):
    text = "ld " + text
    w = SYSTEM.dice_words()[0]
    try:
        e = w.parse(text, 0, len(text), context=WordContext())
    except DiceError as err:
        assert err.position is None or 0 <= err.position <= len(text)
        return
    e.roll(random.Random(0))


junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.text(max_size=4),
    st.floats(allow_nan=False, width=16),
    st.lists(st.integers(0, 3), max_size=2),
)
item = st.dictionaries(
    st.sampled_from(
        [
            "name",
            "category",
            "rarity",
            "cost",
            "weight_kg",
            "damage",
            "protection",
            "min_might",
            "qty",
            "brightness",
            "spell_level",
            "container",
            "effects",
            "friends",
            "equipped",
            "intent_radius_m",
        ]
    ),
    st.one_of(junk, st.sampled_from(["weapon", "armour", "potion", "artifact", "rare", "vial"])),
    max_size=6,
)
feature = st.dictionaries(
    st.sampled_from(["id", "level", "origin", "note", "kind", "param_mods"]),
    st.one_of(
        junk,
        st.sampled_from(["claws", "speed", "racial", "bought", "mutation"]),
        st.dictionaries(st.sampled_from(["might", "luck", "x"]), junk, max_size=2),
    ),
    max_size=5,
)
form = st.dictionaries(
    st.sampled_from(["creature", "tier", "might", "start_might", "humanoid", "requires_affinity", "guardian"]),
    junk,
    max_size=4,
)
values = st.fixed_dictionaries(
    {},
    optional={
        "might": junk,
        "luck": junk,
        "age": st.one_of(junk, st.sampled_from(["child", "adult"])),
        "skills": st.dictionaries(st.sampled_from(["athletics", "stealth", "Bad", "craft:x"]), junk, max_size=3),
        "features": st.lists(feature, max_size=3),
        "inventory": st.lists(item, max_size=3),
        "forms": st.lists(form, max_size=2),
        "money": st.dictionaries(st.sampled_from(["fire", "agate", "gold"]), junk, max_size=2),
        "hp": junk,
        "ep": junk,
        "reputation": junk,
        "epic_dice": junk,
        "helmet": st.one_of(junk, st.just("open")),
    },
)


@settings(max_examples=150, deadline=None)
@given(values)
def test_any_input_is_rejected_or_works(vals):
    from tabletop_widgets.core import ValidationError

    try:
        c = Character(**vals)
    except ValidationError as e:
        assert e.problems and all(p.message["en"] and p.message["ru"] for p in e.problems)
        return
    SYSTEM.validate(c)
    SYSTEM.checks(c)
    assert Character.from_dict(c.to_dict()).to_dict() == c.to_dict()


pets = st.lists(st.dictionaries(st.sampled_from(["creature", "behaviour", "note"]), junk, max_size=3), max_size=2)
wounds = st.lists(st.dictionaries(st.sampled_from(["zone", "kind", "note"]), junk, max_size=3), max_size=2)


@settings(max_examples=60, deadline=None)
@given(pets, wounds, st.one_of(junk, st.sampled_from(["esker", "fire", "H"])))
def test_story_lists_rejected_or_work(p, w, text):
    from tabletop_widgets.core import ValidationError

    try:
        c = Character(
            pets=p,
            wounds=w,
            faith=text if isinstance(text, str) else "",
            affinity=text if isinstance(text, str) else "",
        )
    except ValidationError:
        return
    SYSTEM.validate(c)
