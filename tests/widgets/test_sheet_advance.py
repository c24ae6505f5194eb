"""The sheet's Advancement part (``widgets/sheet_advance.py``, issue #17): a folded card, built
when first opened, for a character in play whose system names advancement resources; what the
character has and can buy (grouped, priced, blocked with the reason); the chosen advance's
options, plan and Buy; the outcome or the refusal in the sheet's language; the GM's Award; the
seam to a shared table. Played with Lantern (``tests/fixtures``), registered at run time."""

from __future__ import annotations

import ipywidgets as widgets
import pytest

from helpers import frontend_click, frontend_update
from tabletop_widgets.core import GameSystem
from tabletop_widgets.core.i18n import LOCALES
from tabletop_widgets.table import SeatSpec
from tabletop_widgets.widgets.sheet import CharacterSheet
from tabletop_widgets.widgets.sheet_advance import TEXTS


@pytest.fixture
def lantern(tutored_lantern_system):
    return tutored_lantern_system


def played(system, phase="play", **kw):
    c = system.Character(name="Ada", **{"nerve": 3, "wits": 3, "xp": 20, **kw})
    c.phase = phase
    return c


def tree(widget) -> list[widgets.Widget]:
    out = [widget]
    for child in getattr(widget, "children", ()) or ():
        out += tree(child)
    return out


def rows(panel) -> dict[str, tuple[str, str]]:
    return {aid: (r["button"].description, r["price"].value) for aid, r in panel.rows.items()}


def test_every_word_is_in_both_languages():
    for key, entry in TEXTS.items():
        assert all(entry.get(loc) for loc in LOCALES), key


def test_the_part_is_folded_and_not_built_until_opened(lantern):
    sheet = CharacterSheet(played(lantern), lantern, locale="en")
    part = sheet.advancement
    assert part.widget in sheet.body.children and part.widget.layout.display is None
    assert not part.built and part.widget.children == (part.title, part.toggle)  # the head only
    assert "tt-folded" in part.widget._dom_classes and part.toggle.description == "Show"
    frontend_click(part.toggle)
    assert part.built and part.opened and len(part.widget.children) > 2  # its parts, in the card
    assert "tt-folded" not in part.widget._dom_classes
    assert "Experience: <b>20 XP</b>" in part.resources.value
    frontend_click(part.toggle)
    assert not part.opened and "tt-folded" in part.widget._dom_classes


def test_a_character_in_creation_has_no_advancement_until_finished(lantern):
    c = played(lantern, phase="creation", nerve=3, wits=3, xp=0)
    sheet = CharacterSheet(c, lantern, locale="en")
    assert sheet.advancement.widget.layout.display == "none"
    assert sheet.finish_character()
    assert sheet.advancement.widget.layout.display is None


def test_a_system_without_advancement_shows_no_part(lantern):
    from fixtures.fifth_system.system import LanternSystem

    class Plain(LanternSystem):  # the GameSystem default: nothing is spent, nothing to buy
        advancement_resources = GameSystem.advancement_resources

    plain = Plain()
    sheet = CharacterSheet(played(plain), plain, locale="en")
    assert sheet.advancement.widget.layout.display == "none"
    sheet.advancement.open()
    assert sheet.advancement.specs == []
    assert not sheet.advancement.buy() and "may not do this" in sheet.advancement.status.value


def test_what_it_can_buy_grouped_with_prices_and_why_not(lantern):
    sheet = CharacterSheet(played(lantern, xp=8, nerve=5, wits=1), lantern, locale="en")
    part = sheet.advancement
    part.open()
    heads = [h.value for h, _label in part.group_heads]
    assert heads == ["<b>Raise a trait</b>", "<b>Training</b>"]
    shown = rows(part)
    assert shown["raise:nerve"][0] == "Nerve 5 → 6" and "at its top (5)" in shown["raise:nerve"][1]
    assert shown["raise:wits"][0] == "Wits 1 → 2" and ">4 XP<" in shown["raise:wits"][1]
    assert "tt-advance-blocked" in part.rows["raise:nerve"]["box"]._dom_classes
    sheet.locale = "ru"
    assert "уже на максимуме" in part.rows["raise:nerve"]["price"].value
    assert part.group_heads[0][0].value == "<b>Повысить черту</b>"


def test_the_plan_shows_before_buying_and_the_lists_follow(lantern):
    c = played(lantern)
    sheet = CharacterSheet(c, lantern, locale="en")
    part = sheet.advancement
    part.open()
    assert part.buy_button.layout.display == "none" and "Choose an advance" in part.plan.value
    frontend_click(part.rows["raise:nerve"]["button"])
    assert "Nerve 3 → 4 for 8 XP" in part.plan.value and part.buy_button.description == "Buy · 8 XP"
    assert (c.nerve, c.xp) == (3, 20), "the plan changes nothing"
    frontend_click(part.buy_button)
    assert (c.nerve, c.xp) == (4, 12)
    assert "Bought: Nerve 3 → 4 for 8 XP" in part.status.value
    assert rows(part)["raise:nerve"][0] == "Nerve 4 → 5"
    assert "<b>12 XP</b>" in part.resources.value
    assert part.selected is None and part.buy_button.layout.display == "none"
    sheet.locale = "ru"
    assert "Куплено: Нервы 3 → 4 за 8 опыта" in part.status.value


def test_the_lists_are_worked_out_once_per_batch_of_changes(lantern, monkeypatch):
    c = played(lantern)
    sheet = CharacterSheet(c, lantern, locale="en")
    part = sheet.advancement
    calls = []
    original = type(lantern).advancements
    monkeypatch.setattr(type(lantern), "advancements", lambda self, ch: calls.append(1) or original(self, ch))
    part.open()
    assert len(calls) == 1
    notified = []
    c.observe(lambda ch: notified.append(ch["name"]), names=["nerve", "health_max", "xp"])
    c.nerve = 4  # an edit, and the maximum derived from it: two notifications, one batch
    assert notified == ["health_max", "nerve"] and len(calls) == 2
    assert rows(part)["raise:nerve"][0] == "Nerve 4 → 5", "the lists follow"
    c.update(nerve=5, xp=30)  # several values at once: one batch
    assert len(calls) == 3 and "<b>30 XP</b>" in part.resources.value
    c.load_dict(c.to_dict())  # nothing changed: nothing to work out again
    assert len(calls) == 3
    c.wits = 4
    assert len(calls) == 4 and rows(part)["raise:wits"][0] == "Wits 4 → 5"
    part.close_part()
    c.wits = 5  # folded: nothing worked out until it is opened again
    assert len(calls) == 4
    part.open()
    assert len(calls) == 5 and rows(part)["raise:wits"][0] == "Wits 5 → 6"


def test_a_refusal_shows_in_the_sheets_language_and_changes_nothing(lantern):
    c = played(lantern, xp=9)
    sheet = CharacterSheet(c, lantern, locale="ru")
    part = sheet.advancement
    part.open()
    part.choose("raise:nerve")
    c.xp = 3  # spent elsewhere meanwhile; a stale page still clicks Buy (a disabled button fires)
    part.selected = "raise:nerve"
    assert part.buy_button.disabled
    assert not part.buy()
    assert "Отказано" in part.status.value and "Нужно 8 опыта" in part.status.value
    assert (c.nerve, c.xp) == (3, 3)


def test_an_advance_with_options_shows_their_controls(lantern):
    c = played(lantern)
    sheet = CharacterSheet(c, lantern, locale="en")
    part = sheet.advancement
    part.open()
    part.choose("train")
    assert set(part.controls) == {"trait", "mentor"}, "a GM's (everything allowed) sheet sets the mentor"
    trait = part.controls["trait"].widget
    assert isinstance(trait, widgets.Dropdown) and "tt-option-trait" in trait._dom_classes
    assert "Wits 3 → 4 for 8 XP" in part.plan.value
    frontend_update(trait, index=0)  # Nerve
    assert "Nerve 3 → 4 for 8 XP" in part.plan.value
    frontend_update(part.controls["mentor"].widget, value=True)
    assert "for 4 XP" in part.plan.value and "A mentor halves the price." in part.plan.value
    assert "(set by the GM)" in part.controls["mentor"].widget.description
    frontend_click(part.buy_button)
    assert (c.nerve, c.xp) == (4, 16)


def test_a_players_sheet_has_no_gm_option_and_no_award(lantern):
    can = lambda action: action in ("edit", "act", "save", "load")  # noqa: E731
    sheet = CharacterSheet(played(lantern), lantern, locale="en", can=can)
    part = sheet.advancement
    part.open()
    part.choose("train")
    assert set(part.controls) == {"trait"}
    assert part.award_box is None
    assert not any("tt-advance-award" in getattr(w, "_dom_classes", ()) for w in tree(part.widget))
    assert not part.give()  # a forged Award: refused, in words
    assert "may not do this" in part.status.value


def test_a_viewer_who_may_not_act_cannot_buy(lantern):
    c = played(lantern)
    sheet = CharacterSheet(c, lantern, locale="en", can=lambda action: action == "save")
    part = sheet.advancement
    part.open()
    part.choose("raise:wits")
    assert part.buy_button.disabled
    assert not part.buy()  # the disabled button still fires
    assert c.wits == 3 and "may not do this" in part.status.value


def test_the_gm_awards(lantern):
    c = played(lantern)
    sheet = CharacterSheet(c, lantern, locale="en")
    part = sheet.advancement
    part.open()
    assert part.award_resource.options == (("Experience", "xp"),)
    frontend_update(part.award_amount, value=6)
    frontend_click(part.award_button)
    assert c.xp == 26 and "Awarded: Ada gets 6 XP." in part.status.value
    assert "<b>26 XP</b>" in part.resources.value


def test_the_seam_runs_buying_and_awarding_elsewhere(lantern):
    calls = []

    def advance(advance_id, **options):
        calls.append(("advance", advance_id, options))
        raise PermissionError("the table said no")

    def award(resource, amount):
        calls.append(("award", resource, amount))
        return lantern.award(c, resource, amount)

    c = played(lantern)
    sheet = CharacterSheet(c, lantern, locale="en", advance=advance, award=award)
    part = sheet.advancement
    part.open()
    part.choose("train")
    frontend_update(part.controls["trait"].widget, index=0)
    part.buy()
    part.give()
    assert calls == [("advance", "train", {"trait": "nerve", "mentor": False}), ("award", "xp", 1)]
    assert c.nerve == 3 and c.xp == 21


# -- at a shared table ----------------------------------------------------------------------------
@pytest.fixture
def table(lantern, seat_views):
    return seat_views(
        "lantern",
        [SeatSpec("gm", "gm", "Gail"), SeatSpec("ann", "player", "Ann", "ada"), SeatSpec("ben", "player", "Ben", "bo")],
        {"ada": played(lantern).to_dict(), "bo": played(lantern).to_dict()},
    )


def test_at_a_table_buying_is_the_seats_action_and_is_recorded(table):
    ann = table("ann")
    sheet = ann.sheet("ada")
    part = sheet.advancement
    part.open()
    assert part.award_box is None, "a player's page has no Award"
    part.choose("train")
    assert set(part.controls) == {"trait"}, "a player never sets the GM's option"
    before = len(ann.session.events())
    frontend_click(part.buy_button)
    assert "Bought: Wits 3 → 4 for 8 XP (trained)" in part.status.value
    (event,) = ann.session.events()[before:]  # the advance alone: the sheet does not record it again
    assert event.kind == "character.update" and event.payload["reason"]["kind"] == "advance"
    assert (ann.models["ada"].wits, ann.models["ada"].xp) == (4, 12), "the sheet follows the event"
    gm = table("gm")
    assert gm.session.state.characters["ada"]["wits"] == 4


def test_at_a_table_the_gm_awards_and_a_player_cannot_type_experience(table):
    gm = table("gm")
    part = gm.sheet("ada").advancement
    part.open()
    frontend_update(part.award_amount, value=10)
    frontend_click(part.award_button)
    assert "Awarded: Ada gets 10 XP." in part.status.value
    ann = table("ann")
    assert ann.models["ada"].xp == 30
    xp = ann.sheet("ada").views["xp"]
    assert xp.control.disabled, "a player's sheet shows experience read-only"
    before = len(ann.session.events())
    assert not xp.commit(999)  # a forged edit of experience in play: refused on the sheet, put back
    assert ann.session.state.characters["ada"]["xp"] == 30 and ann.models["ada"].xp == 30
    assert len(ann.session.events()) == before


def test_experience_in_play_is_read_only_on_a_players_sheet(lantern):
    c = played(lantern)
    player = CharacterSheet(c, lantern, locale="en", can=lambda action: action != "edit_gm")
    xp = player.views["xp"]
    assert xp.control.disabled and "tt-badge-awards" in xp.label.value
    assert ">awards<" in xp.label.value and "awards and by advances (the Advancement part)" in xp.label.value
    assert not xp.commit(99) and c.xp == 20 and "you may not change this" in xp.problem.value
    player.locale = "ru"
    assert "награды" in xp.label.value and "раздел «Развитие»" in xp.label.value
    gm = CharacterSheet(c, lantern, locale="en")
    assert not gm.views["xp"].control.disabled and gm.views["xp"].commit(25) and c.xp == 25
    builder = CharacterSheet(played(lantern, phase="creation"), lantern, can=lambda action: action != "edit_gm")
    assert not builder.views["xp"].control.disabled and "tt-badge-awards" not in builder.views["xp"].label.value
