"""A section's SheetActions on the generic sheet: who may press them is checked in the handler
(a forged click from a seat without the right changes nothing)."""

from __future__ import annotations

import traitlets

from tabletop_widgets.core import CharacterModel, Field, GameSystem, Section, Sheet, SheetAction, T
from tabletop_widgets.widgets.sheet import CharacterSheet
from helpers import frontend_click as click


class Keeper(CharacterModel):
    SYSTEM = "keeper"
    coins = traitlets.Int(0).tag(persist=True)


def grant(character):
    character.coins += 5


class KeeperSystem(GameSystem):
    slug = "keeper"
    title = T("Keeper", "Хранитель")
    Character = Keeper
    sheet = Sheet(
        (
            Section(
                "purse",
                T("Purse", "Кошелёк"),
                (Field("coins", T("Coins", "Монеты"), "input", min=0, max=999),),
                actions=(
                    SheetAction(T("Spend", "Потратить"), "spend"),
                    SheetAction(T("Grant", "Выдать"), grant, who="gm"),
                ),
            ),
        )
    )

    def validate(self, character):
        return []

    def spend(self, character):
        character.coins -= 1


def test_a_gm_action_is_refused_to_a_player_and_runs_for_the_gm():
    hero = Keeper(coins=3)
    player = CharacterSheet(hero, system=KeeperSystem(), can=lambda action: action != "edit_gm")
    spend, gift = player.actions["purse"]
    click(gift.button)
    assert hero.coins == 3 and "you may not change this" in gift.message.value
    click(spend.button)
    assert hero.coins == 2
    gm = CharacterSheet(hero, system=KeeperSystem())
    click(gm.actions["purse"][1].button)
    assert hero.coins == 7 and "✓ Grant" in gm.actions["purse"][1].message.value
    player.close()
    gm.close()
