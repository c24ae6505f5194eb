"""Property tests (Hypothesis, modest example counts): odds stay exact probabilities and behave."""

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from tabletop_systems.threads_of_fate import SYSTEM, Character, checks

scores = st.integers(1, 20)
skills = st.integers(0, 10)


@settings(max_examples=60, deadline=None)
@given(dex=scores, stealth=skills, dc=st.integers(-5, 35), adv=st.integers(0, 4), hin=st.integers(0, 4))
def test_chance_is_a_probability_and_monotone(dex, stealth, dc, adv, hin):
    c = Character(dexterity=dex, stealth=stealth)
    p = SYSTEM.chance(c, "dexterity+stealth", difficulty=dc, advantages=adv, hindrances=hin)
    harder = SYSTEM.chance(c, "dexterity+stealth", difficulty=dc + 1, advantages=adv, hindrances=hin)
    more_adv = SYSTEM.chance(c, "dexterity+stealth", difficulty=dc, advantages=adv + 1, hindrances=hin)
    assert 0 <= harder <= p <= 1
    assert more_adv >= p
    assert p > 0  # with the defaults a rolled check is never impossible (natural 20)


@settings(max_examples=40, deadline=None)
@given(
    values=st.fixed_dictionaries(
        {
            "strength": scores,
            "dexterity": scores,
            "constitution": scores,
            "intelligence": scores,
            "wisdom": scores,
            "charm": scores,
            "stealth": skills,
            "threads": st.integers(0, 5),
            "size": st.sampled_from(["tiny", "small", "medium", "large"]),
            "name": st.text(max_size=12),
        }
    )
)
def test_round_trip_and_derived_formulas(values):
    c = Character(**values)
    assert Character.from_dict(c.to_dict()).to_dict() == c.to_dict()
    assert c.will == max(1, (c.intelligence + c.wisdom) // 4)
    assert c.reaction == max(1, (c.dexterity + c.wisdom) // 4)
    assert c.dexterity_mod == (c.dexterity - 10) // 2
    assert c.speed >= 1


@settings(max_examples=40, deadline=None)
@given(a=st.integers(-5, 10), b=st.integers(-5, 10), an=st.integers(-2, 2), bn=st.integers(-2, 2))
def test_contest_odds_sum_to_one_and_are_symmetric(a, b, an, bn):
    o = checks.contest_odds(a, b, an, bn)
    r = checks.contest_odds(b, a, bn, an)
    assert sum(o.values()) == 1 and o["a"] == r["b"] and o["tie"] == r["tie"]


def test_split_expert_skill_uses_parent_access():
    c = Character(
        intelligence=14,
        expert_access=["science"],
        custom_skills=[
            {
                "code": "agronomy",
                "en": "Agronomy",
                "ru": "Агрономия",
                "kind": "expert",
                "parent": "science",
                "characteristics": ["intelligence", "wisdom"],
                "value": 2,
            }
        ],
    )
    assert SYSTEM.chance(c, "intelligence+agronomy", difficulty=14) == Fraction(11, 20)
    assert "intelligence+agronomy" in {s.id for s in SYSTEM.checks(c)}
    gm_basic = Character(custom_skills=[{"code": "swimming", "kind": "basic", "value": 0}])
    assert SYSTEM.chance(gm_basic, "strength+swimming", difficulty=11) == checks.p_success(
        0, 11, -1, options=SYSTEM.rules
    )
