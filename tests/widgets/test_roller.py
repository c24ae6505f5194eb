"""The dice roller without a browser: widgets get a DummyComm outside a kernel, so clicks,
text and messages from a "front end" are simulated in plain pytest."""

from __future__ import annotations

import html
import random
import re
from dataclasses import dataclass
from fractions import Fraction

import pytest

from tabletop_widgets.dice import DiceError, chance, roll
from tabletop_widgets.dice.render import pct
from tabletop_widgets.widgets import RollerPage, dice_page
from tabletop_widgets.widgets import roller as roller_mod
from helpers import frontend_update as _frontend_update


def _engine_ready() -> bool:
    """The real engine rolls and renders (False while its modules are still being written)."""
    from tabletop_widgets.dice import roll

    try:
        result = roll("1d6", seed=1)
        result.text("en")
        result.html("en")
    except ImportError:
        return False
    return True


ENGINE_PRESENT = _engine_ready()


# -- a stand-in for the dice engine while it is being written ------------------------------


@dataclass
class _FakeResult:
    expression: str
    rolls: list
    bonus: int
    locale: str = "en"

    @property
    def total(self) -> int:
        return sum(self.rolls) + self.bonus

    def text(self, locale=None):
        eq = "=" if (locale or self.locale) == "en" else "="
        return f"{self.expression} {self.rolls} {eq} {self.total}"

    def html(self, locale=None):
        word = "total" if (locale or self.locale) == "en" else "итого"
        return f"<span class='fake'>{self.expression} {self.rolls}</span> {word} <b>{self.total}</b>"


_FAKE = re.compile(r"\s*(\d*)d(\d+)(?:kh\d+)?\s*(?:\+\s*(\d+))?\s*")


def _fake_roll(expr, *, seed=None, rng=None, variables=None, locale="en"):
    rng = rng if rng is not None else random.Random(seed)
    m = _FAKE.fullmatch(expr)
    if not m:
        good = 0
        while good < len(expr) and (expr[good].isdigit() or expr[good] in "d+ kh"):
            good += 1
        raise DiceError("expected a dice term", good, expr, message_ru="ожидался бросок")
    n, faces = int(m.group(1) or 1), int(m.group(2))
    return _FakeResult(expr, [rng.randint(1, faces) for _ in range(n)], int(m.group(3) or 0), locale)


@pytest.fixture
def roller(monkeypatch):
    """A seeded roller; rolls through the real engine once it exists, else through the fake."""
    if not ENGINE_PRESENT:
        monkeypatch.setattr(roller_mod, "roll", _fake_roll)
    return dice_page(seed=7)


def _submit(text_widget):
    """What the browser sends when Enter is pressed in a Text box."""
    text_widget._handle_msg({"content": {"data": {"method": "custom", "content": {"event": "submit"}}}, "buffers": []})


# -- tests ---------------------------------------------------------------------------------


def test_dice_page_returns_a_roller_page_with_stable_classes(roller):
    assert isinstance(roller, RollerPage)
    assert "tt-roller" in roller._dom_classes
    for widget, cls in [
        (roller.notation, "tt-notation"),
        (roller.roll_button, "tt-roll-button"),
        (roller.result, "tt-roll-result"),
        (roller.error, "tt-roll-error"),
        (roller.history, "tt-roll-history"),
        (roller.locale_toggle, "tt-locale"),
    ]:
        assert cls in widget._dom_classes
        assert widget.tooltip, f"{cls} needs an accessible tooltip"
    assert roller.roll_button.description == "Roll"
    assert "4d6kh3" in roller.notation.placeholder
    assert roller.notation.description  # a visible label for the box


def test_click_rolls_and_shows_the_breakdown(roller):
    roller.notation.value = "4d6kh3"
    roller.roll_button.click()
    res = roller.last_result
    assert res is not None and 3 <= res.total <= 18
    assert res.html("en") in roller.result.value
    assert roller.error.value == ""
    assert len(roller.results) == 1
    assert "4d6kh3" in roller.history.value and f"= {res.total}" in roller.history.value


@pytest.mark.skipif(not ENGINE_PRESENT, reason="needs the real dice engine")
def test_history_strikes_dropped_dice_and_folds_repetitions(roller):
    roller.roll("4d6kh3")
    first = roller.history.value
    assert "~~" not in first and first.count("<s>") == 1
    roller.roll("6#4d6kh3")
    rep = roller.results[0]
    line = re.search(r"<li>(.*?)</li>", roller.history.value).group(1)
    assert line == f"6#4d6kh3: {', '.join(str(t) for t in rep.totals)} (total {rep.total})"
    roller.set_locale("ru")
    assert f"(итого {rep.total})" in roller.history.value


def test_enter_in_the_box_rolls(roller):
    _frontend_update(roller.notation, value="2d6+3")
    _submit(roller.notation)
    assert roller.last_result is not None
    assert 5 <= roller.last_result.total <= 15
    assert len(roller.results) == 1


def test_bad_input_shows_caret_and_changes_nothing_else(roller):
    roller.notation.value = "4d6kh3"
    roller.roll_button.click()
    before = (roller.result.value, roller.history.value, roller.results, roller.last_result)

    roller.notation.value = "4d6kh3 +* 2"
    roller.roll_button.click()
    assert roller.last_error is not None
    err = roller.error.value
    assert 'role="alert"' in err and "tt-roll-error-msg" in err
    # the bad character is marked (the caret is drawn under it), the rest of the line around it
    assert '4d6kh3 +<span class="tt-caret" title="here">*</span> 2</code>' in err
    assert (roller.result.value, roller.history.value, roller.results, roller.last_result) == before

    # a good roll afterwards clears the error
    roller.notation.value = "1d20"
    roller.roll_button.click()
    assert roller.error.value == "" and roller.last_error is None
    assert len(roller.results) == 2


def test_error_text_is_escaped(roller):
    roller.notation.value = "<b>1d6"
    roller.roll_button.click()
    assert "<b>" not in roller.error.value
    assert "&lt;</span>b&gt;1d6" in roller.error.value


def test_history_is_newest_first_and_capped(roller):
    for i in range(1, 56):
        roller.notation.value = f"1d{i + 1}"
        roller.roll_button.click()
    assert len(roller.results) == 50
    assert roller.results[0].expression == "1d56"
    assert roller.results[-1].expression == "1d7"
    assert roller.history.value.count("<li>") == 50
    assert roller.history.value.index("1d56") < roller.history.value.index("1d55 ")
    assert roller.roll_count == 55


def test_same_seed_same_dice_and_injected_rng(monkeypatch):
    if not ENGINE_PRESENT:
        monkeypatch.setattr(roller_mod, "roll", _fake_roll)
    a, b = dice_page(seed=7), dice_page(seed=7)
    totals = []
    for p in (a, b):
        p.notation.value = "10d6"
        p.roll_button.click()
        p.roll_button.click()
        totals.append([r.total for r in p.results])
    assert totals[0] == totals[1]

    rng = random.Random(123)
    c = RollerPage(rng=rng)
    assert c.rng is rng
    c.roll("10d6")
    assert c.last_result.total == roller_mod.roll("10d6", rng=random.Random(123)).total


def test_the_module_level_random_is_not_used(roller):
    random.seed(99)
    state = random.getstate()
    roller.notation.value = "8d6"
    roller.roll_button.click()
    assert random.getstate() == state


def test_locale_toggle_switches_every_label_and_rerenders(roller):
    roller.notation.value = "4d6kh3"
    roller.roll_button.click()
    roller.notation.value = "4d6kh3 +* 2"
    roller.roll_button.click()
    en_error = roller.error.value

    _frontend_update(roller.locale_toggle, index=1)  # the browser sends the index
    assert roller.locale == "ru"
    assert roller.roll_button.description == "Бросить"
    assert "История" in roller.history.value
    assert roller.last_result.html("ru") in roller.result.value
    assert roller.error.value != en_error or roller.last_error.text("ru") == roller.last_error.text("en")

    roller.set_locale("en")
    assert roller.roll_button.description == "Roll"
    assert roller.error.value == en_error


def test_empty_history_message_and_unknown_locale(roller):
    assert "No rolls yet" in roller.history.value
    with pytest.raises(ValueError):
        RollerPage(locale="de")


# -- the page takes what %roll takes (issue "The first evening", item 7) ---------------------


def test_prob_shows_the_exact_odds_instead_of_unknown_word_prob(roller):
    """``--prob 2d6+1 >= 8`` failed with "unknown word 'prob'": the page read the whole line as
    dice. Now it reads the flags as ``%roll`` does and shows the exact odds, rolling nothing."""
    out = roller.roll("--prob 2d6+1 >= 8")
    assert roller.last_error is None, roller.last_error
    assert out is roller.last_distribution and out.p_pass == Fraction(7, 12)
    assert roller.results == [] and roller.last_result is None
    assert "58.33%" in roller.result.value and "tt-dist" in roller.result.value
    assert "the exact odds: nothing is rolled" in roller.result.value
    assert "--prob 2d6+1 &gt;= 8: chance to pass 58.33%" in roller.history.value


def test_the_echo_shows_what_was_typed_and_what_it_means(roller):
    """``1d20+5 adv vs 15`` was echoed as ``2d20kh1`` only: now the typed line comes first, then
    what it means (advantage, the check), then the dice."""
    roller.roll("1d20+5 adv vs 15")
    shown = roller.result.value
    assert '<code class="tt-roll-typed">1d20+5 adv vs 15</code>' in shown
    assert "adv: two d20, the higher counts (2d20kh1)" in shown
    assert "a check: it passes when the total is ≥ 15" in shown
    assert shown.index("tt-roll-typed") < shown.index("tt-roll-means") < shown.index('class="tt-roll"')
    assert re.search(r"<li>1d20\+5 adv vs 15 → 2d20kh1 ", roller.history.value)
    assert "<code>%roll 1d20+5 adv vs 15</code>" in shown  # the same line in a notebook
    roller.set_locale("ru")
    assert "adv: два d20, в зачёт больший (2d20kh1)" in roller.result.value
    assert "проверка: пройдена, когда итог ≥ 15" in roller.result.value


def test_every_roll_shows_its_exact_odds(roller):
    roller.roll("2d6+3 >= 8")
    assert roller.last_distribution.p_pass == chance("2d6+3", ">=", 8)
    assert f"chance to pass {pct(chance('2d6+3', '>=', 8))}" in roller.result.value
    result = roller.roll("3d6")
    expected = pct(chance("3d6", ">=", result.total))
    assert f"average 10.5 · from 3 to 18 · {result.total} or more: {expected}" in roller.result.value
    roller.set_locale("ru")
    assert f"в среднем 10.5 · от 3 до 18 · {result.total} или больше: {expected}" in roller.result.value


def test_a_roll_too_large_for_exact_odds_still_rolls_and_says_why(roller):
    result = roller.roll("1000d6")
    assert result is not None and roller.last_error is None
    assert "tt-roll-no-odds" in roller.result.value and "too large for exact odds" in roller.result.value


def test_repeat_seed_and_locale_flags_work_as_in_the_magic(roller):
    rep = roller.roll("-n 6 4d6kh3")
    assert len(rep.results) == 6 and "rolled 6 times" in roller.result.value
    assert "each roll · average" in roller.result.value
    line = re.search(r"<li>(.*?)</li>", roller.history.value).group(1)
    assert line == f"-n 6 4d6kh3: {', '.join(str(t) for t in rep.totals)} (total {rep.total})"
    a, b = roller.roll("--seed 7 3d6"), roller.roll("--seed 7 3d6")
    assert [d.value for d in a.dice] == [d.value for d in b.dice] == [d.value for d in roll("3d6", seed=7).dice]
    ru = roller.roll("--locale ru 5d10>=6")
    assert ru.text("ru") in roller.result.value or "успех" in roller.result.value


@pytest.mark.parametrize(
    "line, at, en, ru",
    [
        ("--nope 3d6", 0, "unknown flag --nope", "неизвестный флаг --nope"),
        ("-n 0 4d6kh3", 3, "-n must be 1..100, got 0", "-n — от 1 до 100, а не 0"),
        ("-n 6 4d6kh3 +* 2", 13, "unexpected '*'", "неожиданный"),
        ("--prob 2d6 >= ", 13, "expected a target after the comparison", "после сравнения ожидалась цель"),
        ("--seed 4", 8, "nothing to roll", "нечего бросать"),
    ],
)
def test_a_bad_line_marks_the_spot_in_what_was_typed(roller, line, at, en, ru):
    """The caret points into the whole line, flags included (a dice error's position is into
    the dice text: the page adds where that text starts); the message is in both languages."""
    before = roller.history.value
    assert roller.roll(line) is None
    err = roller.error.value
    assert html.escape(en) in err
    mark = re.search(r'<code class="tt-roll-error-line">(.*?)<span class="tt-caret"', err).group(1)
    assert len(html.unescape(mark)) == at, (mark, at)
    assert roller.history.value == before
    roller.set_locale("ru")
    assert html.escape(ru) in roller.error.value
    roller.set_locale("en")


def test_the_examples_roll_what_they_show(roller):
    for button in roller.example_buttons:
        button.click()
        assert roller.notation.value == button.description
        assert roller.last_error is None, (button.description, roller.last_error)
        assert button.tooltip == f"Roll {button.description}"
    assert roller.roll_count == len(roller.example_buttons)
    assert "tt-roll-examples" in roller.examples._dom_classes


@pytest.mark.parametrize(
    "line", ["--prob 2d6+1 >= 8", "-n 6 4d6kh3", "--seed 7 --locale ru 3d6", "-- -1d4+10", "1d20 -1d4"]
)
def test_the_page_and_the_magic_read_a_line_alike(line):
    from tabletop_widgets.dice.command import read_command
    from tabletop_widgets.magics import split_flags

    opts, rest = split_flags(line)
    command = read_command(line)
    assert (opts["n"], opts["seed"], opts["prob"], rest) == (
        command.repeat,
        command.seed,
        command.prob,
        command.expression,
    )
