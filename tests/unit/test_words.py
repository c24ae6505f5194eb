"""The system-word registry: a fake system word plugs into roll() and renders."""

import re
from fractions import Fraction

import pytest
from helpers import registered

from tabletop_widgets.dice import (
    DiceError,
    DiceWord,
    Distribution,
    Die,
    check_from,
    register_word,
    roll,
    unregister_word,
    word_result,
)


class CoinFlips:
    """Fake word ``coins N [>= K]``: N coins, heads count 1."""

    def __init__(self, text, n, target, target_pos):
        self.text, self.n, self.target = text, n, target

    def roll(self, rng):
        dice = [Die("coin", rng.randrange(2)) for _ in range(self.n)]
        heads = sum(d.value for d in dice)
        check = check_from(heads, ">=", self.target) if self.target is not None else None
        return word_result(
            self.text,
            "coins",
            heads,
            dice,
            {"en": f"coins {self.n}: {heads} heads", "ru": f"монеты {self.n}: {heads} орлов"},
            check=check,
        )

    def distribution(self):
        from math import comb

        pmf = {k: Fraction(comb(self.n, k), 2**self.n) for k in range(self.n + 1)}
        p = None if self.target is None else sum(v for k, v in pmf.items() if k >= self.target)
        return Distribution(pmf, p_pass=p, expression=self.text)


def parse_coins(text, start, end):
    m = re.compile(r"coins\s+(\d+)(?:\s*>=\s*(\d+))?\s*$").match(text, start, end)
    if not m:
        raise DiceError("expected 'coins N' or 'coins N >= K'", start + 5, text)
    return CoinFlips(text[start:end], int(m.group(1)), int(m.group(2)) if m.group(2) else None, m.start(2))


@pytest.fixture
def coins():
    register_word(DiceWord("coins", re.compile(r"coins\b"), parse_coins, system="test"))
    yield
    unregister_word("coins")


def test_word_rolls_through_roll(coins):
    r = roll("coins 10 >= 5", seed=3)
    assert 0 <= r.total <= 10 and r.check is not None and len(r.dice) == 10
    assert "heads" in str(r) and "орлов" in r.text("ru")
    assert "tt-die" in r._repr_html_()


def test_word_repetition_and_comment(coins):
    r = roll("3#coins 4 # flips", seed=1)
    assert len(r.results) == 3 and r.results[0].comment == "flips"


def test_word_distribution(coins):
    from tabletop_widgets.dice import chance, distribution

    assert distribution("coins 2")[1] == Fraction(1, 2)
    assert chance("coins 3", ">=", 2) == Fraction(1, 2)


def test_word_error_position(coins):
    with pytest.raises(DiceError) as e:
        roll("coins x")
    assert e.value.position == 5


def test_unknown_word_without_registration():
    with pytest.raises(DiceError, match="unknown word"):
        roll("coins 3")


def test_registering_a_word_forgets_cached_parses():
    with pytest.raises(DiceError):
        roll("coins 2")
    register_word(DiceWord("coins", re.compile(r"coins\b"), parse_coins, system="test"))
    try:
        assert 0 <= roll("coins 2", seed=1).total <= 2
    finally:
        unregister_word("coins")
    with pytest.raises(DiceError, match="unknown word"):
        roll("coins 2")


def test_word_receives_variables_when_it_asks():
    seen = {}

    def parse_v(text, start, end, variables=None):
        seen["v"] = variables
        return parse_coins(text, start, end)

    register_word(DiceWord("coins", re.compile(r"coins\b"), parse_v, system="test"))
    try:
        roll("coins 1", seed=1, variables={"x": 1})
        assert seen["v"] == {"x": 1}
    finally:
        unregister_word("coins")


# -- loading systems only when an expression needs them (issue 21) -----------------------------
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def _fresh(code: str) -> dict:
    """Run ``code`` in a fresh interpreter; it prints one JSON line, returned here."""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_plain_notation_imports_no_system_in_a_fresh_process():
    got = _fresh(
        "import json, sys\n"
        "from tabletop_widgets.dice import DiceError, chance, distribution, roll\n"
        "for e in ['4d6kh3', '1d20+5 adv', '2d6+3 >= 8', '{4d6,3d8}kh1', '10d10>=6f1', 'd%', '3dF',\n"
        "          '6#4d6kh3 # stats', 'max(1d6, 1d8) [fire]', '1d20 vs 15']:\n"
        "    roll(e, seed=1); str(roll(e))\n"
        "    distribution(e)\n"
        "chance('2d6+1', '>=', 8)\n"
        "errors = 0\n"
        "for bad in ['1d20 +', '2d6 +* 3', 'foo 3', '{1d6', '']:\n"
        "    try:\n"
        "        roll(bad)\n"
        "    except DiceError:\n"
        "        errors += 1\n"
        "print(json.dumps({'errors': errors,\n"
        "                  'systems': sorted(m for m in sys.modules if m.startswith('tabletop_systems'))}))\n"
    )
    assert got == {"errors": 5, "systems": []}


def test_a_word_prefix_loads_only_its_system():
    got = _fresh(
        "import json, sys\n"
        "from tabletop_widgets.dice import roll\n"
        "r = roll('L5+3 >= 8', seed=2)\n"
        "print(json.dumps({'passed': r.check is not None,\n"
        "                  'systems': sorted({m.split('.')[1] for m in sys.modules\n"
        "                                     if m.startswith('tabletop_systems.')})}))\n"
    )
    assert got == {"passed": True, "systems": ["ret"]}


def test_declared_prefixes_cover_every_built_in_word():
    """Every example of every installed system's words starts with a prefix that system
    declares, except a character's named checks (found through the bound character)."""
    from tabletop_widgets import available_systems, get_system
    from tabletop_widgets.dice.words import declared_prefixes

    prefixes = declared_prefixes()
    missing = []
    for slug in available_systems():
        for w in get_system(slug).dice_words():
            if w.name == "ret_check":
                continue
            for ex in w.examples:
                head = ex.split("#", 1)[-1].strip() if "#" in ex.split()[0] else ex
                if not w.pattern.match(head):
                    continue  # an example of plain notation (Threads' d20+8 vs d20+6)
                if not any(head.casefold().startswith(p) and s == slug for p, s in prefixes):
                    missing.append(f"{slug}:{w.name}: {ex}")
    assert not missing, missing


def test_a_bound_character_brings_its_systems_words():
    got = _fresh(
        "import json\n"
        "from tabletop_systems.ret import Character\n"
        "from tabletop_widgets.dice import roll\n"
        "from tabletop_widgets.dice.words import CHARACTER_KEY\n"
        "r = roll('agility', seed=1, variables={CHARACTER_KEY: Character()})\n"
        "print(json.dumps({'total': isinstance(r.total, int)}))\n"
    )
    assert got == {"total": True}


def test_a_system_registered_after_the_first_lookup_gets_its_words():
    from tabletop_widgets.core import GameSystem

    roll("1d6", seed=1)  # the first lookup has happened
    with pytest.raises(DiceError, match="unknown word"):
        roll("coins 2")

    class Coins(GameSystem):
        slug = "coin_game"
        title = {"en": "Coins", "ru": "Монеты"}

        def dice_words(self):
            return [DiceWord("coins", re.compile(r"coins\b"), parse_coins, system="coin_game")]

    with registered(Coins()):
        assert 0 <= roll("coins 2", seed=1).total <= 2
    with pytest.raises(DiceError, match="unknown word"):
        roll("coins 2")


def test_a_word_never_changes_plain_notation():
    """Generic notation is read first: a word whose pattern also matches plain dice is not
    consulted for them."""
    register_word(DiceWord("greedy", re.compile(r"\d+d\d+"), parse_coins, system="test"))
    try:
        assert roll("2d6", seed=1).total in range(2, 13)
    finally:
        unregister_word("greedy")
