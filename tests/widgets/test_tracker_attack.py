"""The tracker's Attack panel without a browser, played with the fifth-system example (Lantern's
strike: ``tests/fixtures/fifth_system``) and every installed system: the odds shown before the
roll are the system's, they follow the target and the options, Attack rolls, applies and logs
one event that undo takes back, and what a forged message asks for is refused in Python with
nothing changed. The part is made only when opened, and only for a seat that ``can("attack")``."""

from __future__ import annotations

import html
import random
import re
from fractions import Fraction

import pytest

from tabletop_widgets import available_systems, get_system
from tabletop_widgets.core.attacks import AttackOdds
from tabletop_widgets.core.combat.records import persisted
from tabletop_widgets.core.i18n import tr
from tabletop_widgets.dice import Distribution
from tabletop_widgets.widgets.tracker import ATTACK, TEXTS, CombatTracker, show_combat
from tabletop_widgets.widgets.tracker_attack import MAX_BARS, chart_bars
from tabletop_widgets.widgets.tracker_attack import TEXTS as ATTACK_TEXTS
from tabletop_widgets.widgets.tray_text import percent_text
from helpers import frontend_click, frontend_update


@pytest.fixture()
def lantern():
    from fixtures.fifth_system import SYSTEM

    return SYSTEM


def fighters(system):
    return {
        "ada": system.Character(name="Ada", nerve=2, wits=2),
        "bo": system.Character(name="Bo", nerve=1, wits=3),
        "cy": system.Character(name="Cy", nerve=1, wits=1, health=2),
    }


def tracker(system, *, seed=3, cls=CombatTracker, **kw) -> CombatTracker:
    t = cls(system, rng=random.Random(seed), **kw)
    for cid, ch in fighters(system).items():
        t.combat.add(cid, ch)
    return t


def opened(t: CombatTracker, cid="ada"):
    t.select(cid)
    t.open_details(ATTACK)
    return t.attack_panel


def state(t: CombatTracker):
    """Everything an attack could change: the log and every character."""
    return len(t.combat.events), {cid: persisted(t.combat.character(cid)) for cid in t.combat.ids}


def shown_fractions(panel) -> dict[str, str]:
    """The chart's bars as drawn: damage label -> exact fraction."""
    return dict(re.findall(r'data-damage="([^"]+)" data-fraction="([^"]+)"', panel.chart.value))


def fraction(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def test_the_attack_part_is_made_only_when_opened(lantern):
    t = tracker(lantern)
    t.select("ada")
    assert ATTACK not in t.built_parts()
    assert t.attack_fold.get_title(0) == ATTACK_TEXTS["section"]["en"]
    assert t.attack_fold.children[0].children == ()
    frontend_update(t.attack_fold, selected_index=0)  # a click on its header
    assert ATTACK in t.built_parts()
    panel = t.attack_panel
    assert t.attack_fold.children[0].children == (panel.box,)
    for w, cls in (
        (panel.box, "tt-attack-panel"),
        (panel.target, "tt-attack-target"),
        (panel.choice, "tt-attack-choice"),
        (panel.odds, "tt-attack-odds"),
        (panel.chart, "tt-attack-chart"),
        (panel.go, "tt-attack-go"),
    ):
        assert cls in w._dom_classes
    # made once: closing and opening again keeps the same panel
    frontend_update(t.attack_fold, selected_index=None)
    frontend_update(t.attack_fold, selected_index=0)
    assert t.attack_panel is panel


def test_the_odds_shown_are_the_systems(lantern):
    t = tracker(lantern)
    panel = opened(t)
    assert [v for _, v in panel.target.options] == ["bo", "cy"]
    assert panel.target.value == "bo" and panel.choice.value == "strike"
    assert list(panel.controls) == ["aim", "might", "dodge"]
    odds = lantern.attack_odds(t.combat.character("ada"), t.combat.character("bo"), "strike")
    assert t.attack_odds("ada", "bo", "strike", {}) == odds
    assert percent_text(odds.p_hit) in panel.odds.value
    assert f"Chance to hit: {fraction(odds.p_hit)}" in html.unescape(panel.odds.value)
    assert shown_fractions(panel) == {str(k): fraction(p) for k, p in odds.damage.items()}
    assert "Target out of the fight" in panel.odds.value  # p_defeat is known (0 for Bo)


def test_the_odds_follow_the_options_and_the_target(lantern):
    t = tracker(lantern)
    panel = opened(t)
    plain = shown_fractions(panel)
    frontend_update(panel.controls["aim"].widget, value=True)
    aimed = lantern.attack_odds(t.combat.character("ada"), t.combat.character("bo"), "strike", aim=True)
    assert f"Chance to hit: {fraction(aimed.p_hit)}" in html.unescape(panel.odds.value)
    assert shown_fractions(panel) == {str(k): fraction(p) for k, p in aimed.damage.items()} != plain
    frontend_update(panel.target, index=1)  # Cy: easier to hit, 2 Health
    assert panel.target.value == "cy"
    assert panel.controls["aim"].value is True  # the options keep their values
    on_cy = lantern.attack_odds(t.combat.character("ada"), t.combat.character("cy"), "strike", aim=True)
    text = html.unescape(panel.odds.value)
    assert f"Chance to hit: {fraction(on_cy.p_hit)}" in text
    assert on_cy.p_defeat > 0 and f"Cy is out of the fight after this attack: {fraction(on_cy.p_defeat)}" in text
    # a character changed outside the combat (a sheet edit): the odds follow
    t.combat.character("ada").nerve = 5
    stronger = lantern.attack_odds(t.combat.character("ada"), t.combat.character("cy"), "strike", aim=True)
    assert f"Chance to hit: {fraction(stronger.p_hit)}" in html.unescape(panel.odds.value)


def test_attack_rolls_applies_logs_and_undo_restores(lantern):
    t = tracker(lantern, seed=11)
    panel = opened(t)
    before = state(t)
    frontend_update(panel.controls["might"].widget, value=True)  # costs Ada 1 Health, hit or miss
    frontend_click(panel.go)
    event = t.combat.events[-1]
    assert (event["type"], event["id"], event["target"], event["attack"]) == ("attack", "ada", "bo", "strike")
    assert event["options"] == {"aim": False, "might": True, "dodge": False}
    line = t.describe(event)
    assert line.startswith("Ada hits Bo with Strike" if event["hit"] else "Ada misses Bo with Strike")
    assert t.message == line
    assert html.escape(line) in t.log_view.value
    # the dice on demand: folded under the sentence in the log, not in it
    assert "2d6 [" not in line
    assert re.search(r'<details class="tt-attack-dice"><summary>Dice</summary><div>2d6 \[', t.log_view.value)
    assert state(t) != before
    ada = persisted(t.combat.character("ada"))
    assert ada["health"] == before[1]["ada"]["health"] - 1
    # the odds are redrawn for what the characters are now
    odds = t.attack_odds("ada", "bo", "strike", {"aim": False, "might": True, "dodge": False})
    assert shown_fractions(panel) == {str(k): fraction(p) for k, p in odds.damage.items()}
    frontend_click(t.undo_button)
    assert state(t)[1] == before[1]


def test_a_hit_takes_health_by_the_rules(lantern):
    t = tracker(lantern, seed=1)
    panel = opened(t)
    frontend_update(panel.target, index=1)  # Cy (wits 1): 2d6 >= 6 hits
    frontend_update(panel.controls["aim"].widget, value=True)
    for _ in range(10):
        event = t.attack_selected()
        if event["hit"]:
            break
    assert event["hit"], "ten aimed strikes on Cy and not one hit"
    effect = next(e for e in event["effects"] if e["id"] == "cy")
    assert effect["health"][0][0] - effect["health"][1][0] == min(event["damage"], effect["health"][0][0])


def test_the_panel_speaks_russian(lantern):
    t = tracker(lantern, locale="ru")
    panel = opened(t)
    assert panel.go.description == ATTACK_TEXTS["go"]["ru"]
    assert panel.target.description == ATTACK_TEXTS["target"]["ru"]
    assert [label for label, _ in panel.choice.options] == ["Удар"]
    assert ATTACK_TEXTS["to_hit"]["ru"] in panel.odds.value
    assert ATTACK_TEXTS["chart"]["ru"] in panel.chart.value
    assert panel.controls["aim"].widget.description == "Прицельно"
    t.locale = "en"
    assert panel.go.description == "Attack" and panel.controls["aim"].widget.description == "Aimed"
    event = t.attack_selected()
    t.locale = "ru"
    assert t.describe(event).startswith("Ada → Bo, Удар: ")
    assert "<summary>Кубики</summary>" in t.log_view.value


def test_every_text_exists_in_both_languages():
    for key, entry in ATTACK_TEXTS.items():
        assert entry.get("en") and entry.get("ru"), key
        assert set(re.findall(r"\{\w+\}", entry["en"])) == set(re.findall(r"\{\w+\}", entry["ru"])), key


class Refusals:
    """What a forged message (or a table's request) could ask the tracker for."""

    unknown_attack = ("ada", "bo", "fireball", {})
    bad_value = ("ada", "bo", "strike", {"aim": "yes"})
    unknown_option = ("ada", "bo", "strike", {"teleport": True})
    not_a_mapping = ("ada", "bo", "strike", ["aim"])
    unknown_target = ("ada", "nobody", "strike", {})
    self_attack = ("ada", "ada", "strike", {})


@pytest.mark.parametrize("name", [n for n in vars(Refusals) if not n.startswith("_")])
@pytest.mark.parametrize("locale", ["en", "ru"])
def test_a_forged_attack_is_refused_in_python_with_nothing_changed(lantern, name, locale):
    t = tracker(lantern, locale=locale)
    opened(t)
    before = state(t)
    assert t.perform_attack(*getattr(Refusals, name)) is None
    assert state(t) == before
    assert t.message and "tt-error" in t.status.value
    if locale == "ru":
        assert re.search("[а-яё]", t.message), t.message


def test_a_target_hidden_from_players_is_neither_offered_nor_attackable(lantern):
    gm = tracker(lantern)
    gm.combat.set_hidden("cy", True)
    player = CombatTracker(combat=gm.combat, audience="player", can=lambda action: action == "attack")
    panel = opened(player)
    assert [v for _, v in panel.target.options] == ["bo"]
    before = state(gm)
    assert player.perform_attack("ada", "cy", "strike", {}) is None
    assert player.message == "There is no such target among the combatants you can see."
    assert "Cy" not in player.message
    # nor may a hidden combatant attack from a player's tracker
    assert player.perform_attack("cy", "bo", "strike", {}) is None
    assert state(gm) == before
    # the GM sees and may attack every combatant
    assert [v for _, v in opened(gm).target.options] == ["bo", "cy"]
    assert gm.perform_attack("ada", "cy", "strike", {})["target"] == "cy"


def test_forged_control_values_never_reach_the_attack(lantern):
    t = tracker(lantern)
    panel = opened(t)
    frontend_update(panel.choice, index=7)  # no such attack in the list
    frontend_update(panel.target, index=9)  # no such target
    frontend_update(panel.controls["aim"].widget, value="yes")  # not a yes/no
    assert (panel.choice.value, panel.target.value, panel.controls["aim"].value) == ("strike", "bo", False)
    event = t.attack_selected()
    assert event["options"] == {"aim": False, "might": False, "dodge": False}


def test_a_seat_that_may_not_attack_gets_no_attack_part(lantern):
    allowed = {"attack": False}
    t = tracker(lantern, can=lambda action: allowed.get(action, True))
    t.select("ada")
    assert t.attack_fold.layout.display == "none"
    frontend_update(t.attack_fold, selected_index=0)  # a forged click on the hidden header
    assert ATTACK not in t.built_parts()
    assert t.attack_fold.selected_index is None
    before = state(t)
    assert t.attack_selected() is None and t.perform_attack("ada", "bo", "strike", {}) is None
    assert t.message == TEXTS["not_allowed"]["en"] and state(t) == before
    # the table's answer changes (the player's turn comes): the part is offered
    allowed["attack"] = True
    t.render()
    assert t.attack_fold.layout.display == ""
    t.open_details(ATTACK)
    assert t.attack_selected()["type"] == "attack"
    # and withdrawn again: the open part folds and hides
    allowed["attack"] = False
    t.render()
    assert t.attack_fold.layout.display == "none" and t.attack_fold.selected_index is None


def test_the_seam_a_table_uses_is_the_play(lantern):
    """The tracker acts through its play (``core.play``): a table's play leaves out the options a
    defender's seat chooses, gives the odds and makes the attack; the tracker only draws them, and
    the play's check refuses a request naming an option it does not offer."""
    from tabletop_widgets.core.play import AttackNews, LocalPlay

    calls = []

    class TableLike(LocalPlay):
        def attack_option_specs(self, combat, spec, attacker_id, target_id):
            return [o for o in spec.options if o.name not in spec.defender_options]

        def attack_odds(self, combat, attacker_id, target_id, attack_id, options):
            calls.append(("odds", attacker_id, target_id, attack_id, dict(options)))
            return super().attack_odds(combat, attacker_id, target_id, attack_id, options)

        def attack(self, combat, attacker_id, target_id, attack_id, options):
            self.check_attack(combat, attacker_id, target_id, attack_id, options)
            calls.append(("perform", attacker_id, target_id, attack_id, dict(options)))
            return AttackNews({"en": "sent", "ru": "отправлено"}, pending=True)

    t = tracker(lantern, play=TableLike(lantern))
    panel = opened(t)
    assert list(panel.controls) == ["aim", "might"]  # the dodge is Bo's to choose
    assert ("odds", "ada", "bo", "strike", {"aim": False, "might": False}) in calls
    frontend_update(panel.controls["aim"].widget, value=True)
    frontend_click(panel.go)
    assert calls[-1] == ("perform", "ada", "bo", "strike", {"aim": True, "might": False})
    # a request naming the defender's option is refused before it reaches perform_attack
    before = state(t)
    with pytest.raises(Exception) as err:
        t.check_attack("ada", "bo", "strike", {"dodge": False})
    assert err.value.code == "not_your_option" and "Target dodges" in str(err.value)
    assert tr(err.value.message, "ru").startswith("«Удар»")
    assert state(t) == before


def test_an_attacker_out_of_the_fight_is_told_so(lantern):
    t = tracker(lantern)
    t.combat.set_defeated("ada", True)
    panel = opened(t)
    assert "Ada is out of the fight" in panel.note.value and panel.go.disabled
    before = state(t)
    assert t.attack_selected() is None  # a forged click on the disabled button
    assert state(t) == before and "Ada" in t.message


def test_odds_a_system_cannot_give_are_said_not_crashed(lantern):
    class Shy(type(lantern)):
        def attack_odds(self, attacker, target, attack_id, **options):
            raise NotImplementedError("no odds here")

    t = tracker(Shy())
    panel = opened(t)
    assert "No odds" in panel.odds.value and panel.chart.value == ""


def test_one_combatant_alone_has_no_one_to_attack(lantern):
    t = CombatTracker(lantern, rng=random.Random(1))
    t.combat.add("ada", lantern.Character(name="Ada"))
    panel = opened(t)
    assert ATTACK_TEXTS["no_targets"]["en"] in panel.note.value
    assert panel.go.layout.display == "none"


def test_the_chart_draws_every_amount_and_merges_a_long_tail():
    few = Distribution({0: Fraction(1, 2), 3: Fraction(1, 4), 5: Fraction(1, 4)})
    assert chart_bars(few) == [("0", 0, 0, Fraction(1, 2)), ("3", 3, 3, Fraction(1, 4)), ("5", 5, 5, Fraction(1, 4))]
    many = Distribution({k: Fraction(1, 30) for k in range(30)})
    bars = chart_bars(many)
    assert len(bars) == MAX_BARS
    assert bars[-1][0] == f"{MAX_BARS - 1}+" and bars[-1][2] is None
    assert bars[-1][3] == Fraction(30 - (MAX_BARS - 1), 30)
    assert sum(b[3] for b in bars) == 1


@pytest.mark.parametrize("slug", available_systems())
def test_every_system_opens_the_attack_part(slug):
    """Two freshly made characters: the system's attacks with their odds, or, for a system that
    offers none, a sentence saying so (never an empty panel)."""
    system = get_system(slug)
    t = show_combat(system, characters=[system.Character(name=n) for n in ("Ann", "Bob")], rng=random.Random(2))
    panel = opened(t, "ann")
    specs = system.attacks(t.combat.character("ann"), t.combat.character("bob"))
    if not specs:
        assert "no attack on this target" in panel.note.value
        assert panel.go.layout.display == "none"
        return
    assert [v for _, v in panel.choice.options] == [s.id for s in specs]
    odds = t.attack_odds("ann", "bob", panel.choice.value, {n: c.value for n, c in panel.controls.items()})
    assert isinstance(odds, AttackOdds)
    assert f"{fraction(Fraction(odds.p_hit))}" in html.unescape(panel.odds.value)
    before = state(t)
    event = t.attack_selected()
    assert event["type"] == "attack" and t.message == t.describe(event)
    t.undo()
    assert state(t)[1] == before[1]
