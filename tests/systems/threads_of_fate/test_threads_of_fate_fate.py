"""Threads of Fate, Moves and Caprices (spec §7.1) and the §9 vectors about them."""

import pytest

from tabletop_systems.threads_of_fate import SYSTEM, Character, fate
from tabletop_widgets.core.problems import RuleError


def hero(**kw):
    return Character(**kw)


def test_S03_start_of_meeting():
    h = hero(threads=4)
    SYSTEM.start_meeting(h)
    assert h.threads == 2
    SYSTEM.gain_threads(h, 10)
    assert h.threads == 5


def test_end_meeting_breaks_threads_except_milestone_mode():
    h = hero(threads=3)
    SYSTEM.end_meeting(h)
    assert h.threads == 0
    m = SYSTEM.with_rules(refresh_mode="milestone")
    h2 = hero(threads=3)
    m.end_meeting(h2)
    m.start_meeting(h2)
    assert h2.threads == 3


def test_S04_milestone_refresh():
    a, b, p = hero(threads=1), hero(threads=4), Character(entity_type="persona", threads=0)
    m = SYSTEM.with_rules(refresh_mode="milestone")
    for c in (a, b, p):
        m.milestone_refresh(c)
    assert (a.threads, b.threads, p.threads) == (2, 4, 2)


def test_S05_start_3():
    h = hero(threads=2, xp_free=10, stage="play")
    SYSTEM.buy_threads(h, 3)
    assert (h.threads, h.xp_free) == (5, 7)
    h.threads = 2
    with pytest.raises(RuleError) as e:
        SYSTEM.buy_threads(h, 1)
    assert e.value.code == "buy_limit" and "max 3" in str(e.value)
    assert (h.threads, h.xp_free) == (2, 7)
    with pytest.raises(RuleError):
        SYSTEM.buy_threads(hero(xp_free=5), 1, moment="between_scenes")


def test_S06_between_scenes_5():
    s = SYSTEM.with_rules(xp_threads_mode="between_scenes_5")
    h = hero(threads=1, xp_free=10)
    s.buy_threads(h, 4, moment="between_scenes")
    assert (h.threads, h.xp_free) == (5, 6)
    with pytest.raises(RuleError):
        s.buy_threads(h, 1, moment="between_scenes")  # cap 5 held
    with pytest.raises(RuleError):
        s.buy_threads(hero(xp_free=5), 1, moment="meeting_start")


def test_buy_threads_needs_xp():
    with pytest.raises(RuleError) as e:
        SYSTEM.buy_threads(hero(xp_free=0), 1)
    assert e.value.code == "not_enough_xp"


def test_xp_as_threads_mode():
    s = SYSTEM.with_rules(xp_threads_mode="xp_as_threads")
    h = hero(threads=1, xp_free=3)
    s.make_move(h, "M5")  # 2 Threads: 1 Thread + 1 XP
    assert (h.threads, h.xp_free) == (0, 2)
    with pytest.raises(RuleError):
        s.buy_threads(h, 1)


def test_S07_refuse_caprice():
    h = hero(threads=3)
    out = SYSTEM.invoke_caprice(h, "C1", by="gm", refuse=True)
    assert out["status"] == "refused" and h.threads == 2


def test_S11_bought_success_forbidden_when_only_on_20():
    h = hero(threads=5)
    with pytest.raises(RuleError) as e:
        SYSTEM.make_move(h, "M5", only_on_20=True)
    assert e.value.code == "only_on_20" and h.threads == 5
    out = SYSTEM.make_move(h, "M6", only_on_20=True)
    assert out["die"] == 20 and h.threads == 1


def test_M5_failure_variant_allowed_when_only_on_20():
    h = hero(threads=2)
    assert SYSTEM.make_move(h, "M5", variant="failure", only_on_20=True)["forced"] == "minimal_failure"


def test_S12_retroactive_declaration():
    h = hero(threads=2)
    assert SYSTEM.make_move(h, "M8")["cost"] == 1 and h.threads == 1
    h2 = hero(threads=3)
    SYSTEM.make_move(h2, "M8", threads=3)  # GM raised the price
    assert h2.threads == 0


@pytest.mark.parametrize(
    "n,band,name",
    [
        pytest.param(1, "B", "What a day!", id="S13-1"),
        pytest.param(2, "C", "Looks like I have a problem!", id="S13-2"),
        pytest.param(3, "D", "Catastrophe!", id="S13-3"),
    ],
)
def test_S13_hand_of_fate(n, band, name):
    h = hero(threads=5)
    out = SYSTEM.make_move(h, "M14", threads=n)
    assert out["band"] == band and h.threads == 5 - n
    assert fate.HAND_OF_FATE_BANDS[n] == band
    assert SYSTEM.hand_of_fate([(hero(threads=n), n)])["row"]["en"] == name


def test_D41_pooled_hand_of_fate():
    a, b = hero(threads=2), hero(threads=1)
    out = SYSTEM.hand_of_fate([(a, 2), (b, 1)])
    assert out["band"] == "D" and out["row"]["en"] == "Catastrophe!" and (a.threads, b.threads) == (0, 0)


def test_hand_of_fate_all_or_nothing():
    a, b = hero(threads=2), hero(threads=0)
    with pytest.raises(RuleError):
        SYSTEM.hand_of_fate([(a, 2), (b, 1)])
    assert a.threads == 2


def test_S14_catastrophe_caprice_gains_thread():
    h = hero(threads=2)
    out = SYSTEM.invoke_caprice(h, "C3")
    assert out["status"] == "entered_play" and h.threads == 3


def test_D28_ledger():
    h = hero()
    SYSTEM.start_meeting(h)
    seq = [h.threads]
    SYSTEM.invoke_caprice(h, "C1")
    seq.append(h.threads)
    SYSTEM.make_move(h, "M3")
    seq.append(h.threads)
    SYSTEM.make_move(h, "M5")
    seq.append(h.threads)
    assert seq == [2, 3, 2, 0]


def test_D29_zero_threads_cannot_refuse():
    h = hero(threads=0)
    out = SYSTEM.invoke_caprice(h, "C2", by="gm", refuse=True)
    assert out["status"] == "entered_play" and h.threads == 1


def test_D30_cap():
    h = hero(threads=5)
    out = SYSTEM.invoke_caprice(h, "C1")
    assert out["status"] == "entered_play" and h.threads == 5 and out["threads"]["lost"] == 1


def test_D31_not_enough_threads():
    h = hero(threads=1)
    with pytest.raises(RuleError) as e:
        SYSTEM.make_move(h, "M5")
    assert e.value.code == "not_enough_threads" and "needs 2" in str(e.value) and h.threads == 1


def test_D32_gm_caprice_once_per_scene():
    h = hero(threads=1)
    SYSTEM.invoke_caprice(h, "C1", by="gm")
    with pytest.raises(RuleError) as e:
        SYSTEM.invoke_caprice(h, "C2", by="gm")
    assert e.value.code == "gm_caprice_once" and h.threads == 2
    SYSTEM.invoke_caprice(h, "C2", by="player")  # A45: players are not limited
    SYSTEM.end_scene(h)
    SYSTEM.invoke_caprice(h, "C1", by="gm")
    assert h.threads == 4


def test_M13_other_player_pays():
    target, other = hero(threads=1), hero(threads=1)
    SYSTEM.invoke_caprice(target, "C4", by="other_player", by_hero=other)
    assert (target.threads, other.threads) == (2, 0)
    with pytest.raises(RuleError):
        SYSTEM.invoke_caprice(target, "C4", by="other_player", by_hero=other)


def test_C4_needs_gm_approval():
    h = hero(threads=1)
    assert SYSTEM.invoke_caprice(h, "C4", approved=False)["status"] == "not_in_play" and h.threads == 1


def test_M12_persona_gains():
    h, p = hero(threads=1), Character(entity_type="persona", threads=0)
    SYSTEM.make_move(h, "M12", persona=p)
    assert (h.threads, p.threads) == (0, 1)


def test_extras_have_no_threads():
    e = Character(entity_type="extra")
    assert e.threads == 0
    with pytest.raises(RuleError):
        SYSTEM.make_move(e, "M3")
    with pytest.raises(RuleError):
        SYSTEM.gain_threads(e)


def test_move_targets_A43():
    h = hero(threads=3)
    SYSTEM.make_move(h, "M3", target="extra_or_persona")
    with pytest.raises(RuleError):
        SYSTEM.make_move(h, "M10", target="extra_or_persona")
    with pytest.raises(RuleError):
        SYSTEM.make_move(h, "M3", target="other_hero")
    SYSTEM.make_move(h, "M7", target="other_hero")
    assert h.threads == 1


def test_fixed_cost_moves_refuse_other_prices():
    with pytest.raises(RuleError):
        SYSTEM.make_move(hero(threads=5), "M3", threads=2)


def test_common_trouble():
    a, p, e = hero(threads=1), Character(entity_type="persona", threads=5), Character(entity_type="extra")
    SYSTEM.common_trouble([a, p, e])
    assert (a.threads, p.threads, e.threads) == (2, 5, 0)


@pytest.mark.parametrize(
    "case,cost",
    [
        pytest.param("buy_success", (1, 1), id="S32-success"),
        pytest.param("buy_critical", (2, 3), id="S32-critical"),
        pytest.param("impossible", (5, 5), id="S32-impossible"),
    ],
)
def test_S32_unique_move_cost(case, cost):
    assert fate.unique_move_cost(case) == cost


def test_apply_effects_clamps():
    h = hero(threads=5, hp=10, constitution=10)
    SYSTEM.apply_effects(h, [fate_effect("threads", 1), fate_effect("hp", 50)])
    assert h.threads == 5 and h.hp == 30
    with pytest.raises(RuleError):
        SYSTEM.apply_effects(hero(threads=0), [fate_effect("threads", -1)])


def fate_effect(trait, delta):
    from tabletop_widgets.core.system import Effect

    return Effect(trait, delta)


def test_xp_as_threads_effects():
    s = SYSTEM.with_rules(xp_threads_mode="xp_as_threads")
    h = hero(threads=0, xp_free=2)
    changes = s.apply_effects(h, [fate_effect("threads", -1)])
    assert h.threads == 0 and h.xp_free == 1 and changes["xp_free"] == (2, 1)


def test_apply_effects_is_all_or_none():
    """A refused effect (a Thread the hero does not have) leaves the effects before it unapplied: the
    XP gained, the HP healed and the Thread spent all stay as they were."""
    h = hero(threads=1, xp_free=3, hp=5, constitution=10)
    before = h.to_dict()
    effects = [fate_effect("xp_free", 2), fate_effect("hp", 4), fate_effect("threads", -1), fate_effect("threads", -1)]
    with pytest.raises(RuleError) as e:
        SYSTEM.apply_effects(h, effects)
    assert e.value.code == "not_enough_threads"
    assert h.to_dict() == before and (h.xp_free, h.hp, h.threads) == (3, 5, 1)
    with pytest.raises(RuleError) as e:
        SYSTEM.apply_effects(h, [fate_effect("threads", 1), fate_effect("xp_free", -4)])
    assert e.value.code == "not_enough_xp" and (h.threads, h.xp_free) == (1, 3)
    assert SYSTEM.apply_effects(h, effects[:3]) == {"xp_free": (3, 5), "hp": (5, 9), "threads": (1, 0)}


def test_xp_as_threads_pays_a_shortfall_across_effects_or_nothing():
    s = SYSTEM.with_rules(xp_threads_mode="xp_as_threads")
    h = hero(threads=1, xp_free=2)
    assert s.apply_effects(h, [fate_effect("threads", -2), fate_effect("threads", -1)]) == {
        "threads": (1, 0),
        "xp_free": (2, 0),
    }
    h = hero(threads=1, xp_free=1, hp=5, constitution=10)
    with pytest.raises(RuleError):
        s.apply_effects(h, [fate_effect("hp", 3), fate_effect("threads", -2), fate_effect("threads", -2)])
    assert (h.hp, h.threads, h.xp_free) == (5, 1, 1)


def test_new_day_resets_medicine():
    h = hero(medicine_today=True)
    SYSTEM.new_day(h)
    assert not h.medicine_today
