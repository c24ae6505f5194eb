"""Exact probabilities stated in the four rules specs (``/work/shared/rules/*.md``) that plain
notation can express. Each test id names the spec and line. System-only mechanics (Seasons'
rule of 10, RET's ladder fail on a natural 1, ...) belong to the system words and their own tests;
where a RET ladder value only depends on independent dice events, the event is written with
one counting term per die (``1d6>=6 + 1d8>=8 + ... >= k``: all of them happen).
"""

from __future__ import annotations

from fractions import Fraction as Fr

import pytest

from tabletop_widgets.dice import distribution


def p(text: str) -> Fr:
    d = distribution(text)
    assert d.p_pass is not None and d.truncated_mass == 0
    return d.p_pass


# ------------------------------------------------------------------------------------------------
# Seasons §5.4 (pool of d10, success on 6+) and §9.2
# ------------------------------------------------------------------------------------------------
SEASONS_TABLE = {  # seasons.md L549-L558: pool N -> P(>=1) .. P(>=5), E[successes]
    1: ("1/2", "0", "0", "0", "0", "1/2"),
    2: ("3/4", "1/4", "0", "0", "0", "1"),
    3: ("7/8", "1/2", "1/8", "0", "0", "3/2"),
    4: ("15/16", "11/16", "5/16", "1/16", "0", "2"),
    5: ("31/32", "13/16", "1/2", "3/16", "1/32", "5/2"),
    6: ("63/64", "57/64", "21/32", "11/32", "7/64", "3"),
    7: ("127/128", "15/16", "99/128", "1/2", "29/128", "7/2"),
    8: ("255/256", "247/256", "219/256", "163/256", "93/256", "4"),
    9: ("511/512", "251/256", "233/256", "191/256", "1/2", "9/2"),
    10: ("1023/1024", "1013/1024", "121/128", "53/64", "319/512", "5"),
}


@pytest.mark.parametrize(
    "n", sorted(SEASONS_TABLE), ids=[f"seasons.md:L{548 + n}:pool{n}" for n in sorted(SEASONS_TABLE)]
)
def test_seasons_pool_table(n):
    row = SEASONS_TABLE[n]
    for k in range(1, 6):
        assert p(f"{n}d10>=6 >= {k}") == Fr(row[k - 1]), (n, k)
    assert distribution(f"{n}d10>=6").mean == Fr(row[5])


def test_seasons_L1606_D03_single_die():
    assert p("1d10>=6 >= 1") == Fr(1, 2)


def test_seasons_L1610_D07_rule_of_ten_off():
    d = distribution("14d10>=6")
    assert d.min == 0 and d.max == 14 and d[0] == Fr(1, 16384)


def test_seasons_L1611_D08_pool_4():
    d = distribution("4d10>=6")
    assert [d[k] for k in range(5)] == [Fr(1, 16), Fr(4, 16), Fr(6, 16), Fr(4, 16), Fr(1, 16)]
    assert d.chance(">=", 1) == Fr(15, 16) and d.mean == 2


def test_seasons_L1612_D09_pool_6():
    assert p("6d10>=6 >= 3") == Fr(21, 32)


def test_seasons_L1613_D10_contest_equal():
    assert p("4d10>=6 > 4d10>=6") == Fr(93, 256)
    assert p("4d10>=6 = 4d10>=6") == Fr(70, 256)
    assert p("4d10>=6 < 4d10>=6") == Fr(93, 256)


def test_seasons_L1614_D11_contest_unequal():
    assert p("6d10>=6 > 4d10>=6") == Fr(319, 512)
    assert p("6d10>=6 = 4d10>=6") == Fr(105, 512)
    assert p("6d10>=6 < 4d10>=6") == Fr(88, 512)


def test_seasons_L1615_D12_contest_impossible_side():
    assert p("0d10>=6 < 3d10>=6") == Fr(7, 8)
    assert p("0d10>=6 = 3d10>=6") == Fr(1, 8)


# ------------------------------------------------------------------------------------------------
# RET §5.14 (probability reference)
# ------------------------------------------------------------------------------------------------
RET = [  # (line, plain notation, probability); the ladder only raises totals that already pass
    (1056, "1d6 >= 4", "1/2"),
    (1057, "1d6 >= 3", "2/3"),
    (1058, "1d6-3 >= 2", "1/3"),
    (1059, "1d6-2 >= 4", "1/6"),
    (1060, "1d6-1 >= 4", "1/3"),
    (1061, "1d8 >= 8", "1/8"),
    (1062, "1d10 >= 8", "3/10"),
    (1063, "1d12 >= 12", "1/12"),
    (1064, "1d20 >= 20", "1/20"),
    (1065, "1d6+3 >= 8", "1/3"),
    # Level 7 >= 54: a natural 20, then d100 >= 34
    (1066, "1d20>=20 + 1d100>=34 >= 2", "67/2000"),
    # Level 6 + Luck 4 >= 32: a natural 12, then d20 >= 16
    (1067, "1d12>=12 + 1d20>=16 >= 2", "1/48"),
    # Level 3 >= 50: 6, 8, 10, 12, then d20 >= 14
    (1068, "1d6>=6 + 1d8>=8 + 1d10>=10 + 1d12>=12 + 1d20>=14 >= 5", "7/115200"),
    # Level 3, exactly 0..5 successes (no fail): faces 2-5 / 6 then a non-max 8 / ...
    (1069, "1d6k>1p>5 >= 2", "2/3"),  # faces 2..5: keep >1, drop >5 (keeps and drops select from the whole pool)
    (1069, "1d6>=6 + 1d8<=7 >= 2", "7/48"),
    (1069, "1d6>=6 + 1d8>=8 + 1d10<=9 >= 3", "3/160"),
    (1069, "1d6>=6 + 1d8>=8 + 1d10>=10 + 1d12<=11 >= 4", "11/5760"),
    (1069, "1d6>=6 + 1d8>=8 + 1d10>=10 + 1d12>=12 + 1d20<=19 >= 5", "19/115200"),
    (1069, "1d6>=6 + 1d8>=8 + 1d10>=10 + 1d12>=12 + 1d20>=20 >= 5", "1/115200"),
    # the whole ladder d6 -> d8 -> d10 -> d12 -> d20 -> d100 (L544)
    (672, "1d6=6 + 1d8=8 + 1d10=10 + 1d12=12 + 1d20=20 = 5", "1/115200"),
]


@pytest.mark.parametrize("line,text,prob", RET, ids=[f"ret.md:L{r[0]}:{r[1]}" for r in RET])
def test_ret_probability_reference(line, text, prob):
    assert p(text) == Fr(prob)


# ------------------------------------------------------------------------------------------------
# Life & Death §5.9 and §9.2
# ------------------------------------------------------------------------------------------------
LND_59A = {  # life_and_death.md L1017-L1026: P(exactly k successes) of n d10 (6+)
    1: "1/2 1/2",
    2: "1/4 1/2 1/4",
    3: "1/8 3/8 3/8 1/8",
    4: "1/16 1/4 3/8 1/4 1/16",
    5: "1/32 5/32 5/16 5/16 5/32 1/32",
    6: "1/64 3/32 15/64 5/16 15/64 3/32 1/64",
    7: "1/128 7/128 21/128 35/128 35/128 21/128 7/128 1/128",
    8: "1/256 1/32 7/64 7/32 35/128 7/32 7/64 1/32 1/256",
    9: "1/512 9/512 9/128 21/128 63/256 63/256 21/128 9/128 9/512 1/512",
    10: "1/1024 5/512 45/1024 15/128 105/512 63/256 105/512 15/128 45/1024 5/512 1/1024",
}


@pytest.mark.parametrize("n", sorted(LND_59A), ids=[f"life_and_death.md:L{1016 + n}:n{n}" for n in sorted(LND_59A)])
def test_lnd_table_59a(n):
    d = distribution(f"{n}d10>=6")
    assert [d[k] for k in range(n + 1)] == [Fr(x) for x in LND_59A[n].split()]


LND_59C = {
    1: "1/10",
    2: "9/100",
    3: "61/1000",
    4: "369/10000",
    5: "2101/100000",
    6: "11529/1000000",
    7: "61741/10000000",
    8: "325089/100000000",
    9: "1690981/1000000000",
    10: "8717049/10000000000",
}


@pytest.mark.parametrize("n", sorted(LND_59C), ids=[f"life_and_death.md:L{1046 + n}:n{n}" for n in sorted(LND_59C)])
def test_lnd_table_59c_fumble_and_crit(n):
    # a fumble: no success and at least one 1. Faces 1 -> 1, 2-5 -> 0, 6-10 -> 2: the highest
    # of them is 1 exactly when no die succeeds and some die shows 1
    assert p(f"{n}d{{1,0,0,0,0,2,2,2,2,2}}kh1 = 1") == Fr(LND_59C[n])
    assert p(f"{n}d10=10 >= 1") == 1 - Fr(9, 10) ** n


LND_59D = {
    2: ("1/4", "0", "0", "0", "0"),
    3: ("1/2", "1/8", "0", "0", "0"),
    4: ("11/16", "5/16", "1/16", "0", "0"),
    5: ("13/16", "1/2", "3/16", "1/32", "0"),
    1: ("0", "0", "0", "0", "0"),
}


@pytest.mark.parametrize("n", sorted(LND_59D), ids=[f"life_and_death.md:L{1061 + n}:n{n}" for n in sorted(LND_59D)])
def test_lnd_table_59d_untrained(n):
    for diff in range(1, 6):
        assert p(f"{n}d10>=6-1 >= {diff}") == Fr(LND_59D[n][diff - 1]), diff


def test_lnd_L2113_D13():
    assert p("3d{1,0,0,0,0,2,2,2,2,2}kh1 = 1") == Fr(61, 1000)
    assert p("3d10>=6 >= 1") == Fr(7, 8)


def test_lnd_L2114_D14():
    assert p("4d10>=6 >= 2") == Fr(11, 16)


def test_lnd_L2115_D15_untrained():
    assert p("2d10>=6-1 >= 1") == Fr(1, 4)


def test_lnd_L2116_D16_opposed():
    assert p("3d10>=6 > 2d10>=6") == Fr(1, 2)
    assert p("2d10>=6 > 2d10>=6") == Fr(5, 16)
    assert p("5d10>=6 > 5d10>=6") == Fr(193, 512)
    assert p("1d10>=6 > 1d10>=6") == Fr(1, 4)


def test_lnd_L2117_D17_crits():
    assert p("3d10=10 > 2d10=10") == Fr(2807, 12500)


def test_lnd_L2118_D18():
    assert p("4d10>=6 >= 2") == Fr(11, 16)
    assert p("4d10>=6-1 >= 2") == Fr(5, 16)
    assert p("5d10>=6 >= 2") == Fr(13, 16)


# ------------------------------------------------------------------------------------------------
# Threads of Fate §5.4, §5.8, §9
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text,mean,p20",
    [
        ("1d20", "21/2", "1/20"),
        ("2d20kh1", "13.825", "39/400"),
        ("3d20kh1", "15.4875", "1141/8000"),
        ("2d20kl1", "7.175", "1/400"),
        ("3d20kl1", "5.5125", "1/8000"),
    ],
    ids=lambda x: f"threads_of_fate.md:L664-665:{x}" if "d20" in str(x) else str(x),
)
def test_threads_kept_die(text, mean, p20):
    d = distribution(text)
    assert d.mean == Fr(mean)
    assert d[20] == Fr(p20)
    k = int(text[0])
    for x in range(1, 21):  # threads_of_fate.md §5.4 closed forms
        if "kl" in text:
            assert d[x] == Fr((21 - x) ** k - (20 - x) ** k, 20**k)
        else:
            assert d[x] == Fr(x**k - (x - 1) ** k, 20**k)


def test_threads_adv_dis_words():
    assert distribution("1d20 adv").mean == Fr("13.825")
    assert distribution("1d20 dis").mean == Fr("7.175")


def test_threads_L729_L1613_D44_contest():
    assert p("1d20 > 1d20") == Fr(19, 40)
    assert p("1d20 = 1d20") == Fr(1, 20)


def test_threads_L1555_S25_and_L1817():
    assert p("1d20+8 >= 16") == Fr(13, 20)
    assert p("1d20+8 >= 16 adv") == Fr(351, 400)
    assert p("3d20kl1+8 >= 16") == Fr(2197, 8000)
