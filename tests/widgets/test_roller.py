"""The dice roller without a browser: widgets get a DummyComm outside a kernel, so clicks,
text and messages from a "front end" are simulated in plain pytest."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import pytest

from tabletop_widgets.dice import DiceError
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
    assert err.startswith("<pre") and err.endswith("</pre>")
    assert "^" in err
    caret_line = roller.last_error.caret("en").splitlines()[1]
    assert caret_line.strip() == "^"
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
    assert "&lt;b&gt;" in roller.error.value


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
