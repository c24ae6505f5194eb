"""Every built-in system offers at least one attack between two freshly made characters, and for
each of those attacks the exact odds agree with 3,000 rolls (``helpers.assert_attack_odds_match_sample``);
``Combat.attack`` plays each once and undo restores both characters."""

from __future__ import annotations

import random
import re

import pytest
from helpers import assert_attack_odds_match_sample

from tabletop_widgets.core import Combat, available_systems, get_system
from tabletop_widgets.core.combat.records import persisted

SYSTEMS = sorted(available_systems())

#: a rulebook line marker (L123, L12-14): for the spec and the code, never for a player's screen
MARKER = re.compile(r"\bL\d{1,4}\b")


def player_texts(spec):
    """Every text of an attack a player reads: its label and help, each option's label, help
    and choice labels, in both languages."""
    texts = [spec.label, spec.help or {}]
    for o in spec.options:
        texts += [o.label, o.help or {}] + [label for _value, label in o.choices]
    return [t.get(loc, "") for t in texts for loc in ("en", "ru")]


def fresh_pair(system):
    return system.Character(name="Attacker"), system.Character(name="Target")


def fresh_attacks():
    for slug in SYSTEMS:
        system = get_system(slug)
        for spec in system.attacks(*fresh_pair(system)):
            yield pytest.param(slug, spec.id, id=f"{slug}-{spec.id}")


@pytest.mark.parametrize("slug", SYSTEMS)
def test_fresh_characters_can_attack(slug):
    system = get_system(slug)
    attacks = system.attacks(*fresh_pair(system))
    assert attacks, f"{slug}: two freshly made characters have no attack"
    for spec in attacks:
        assert spec.label.get("en") and spec.label.get("ru"), f"{slug}: {spec.id} needs a label in en and ru"
        for o in spec.options:
            assert o.label.get("en") and o.label.get("ru"), f"{slug}: {spec.id}.{o.name} needs a label in en and ru"
        assert set(spec.defender_options) <= {o.name for o in spec.options}, f"{slug}: {spec.id}"
        marked = [t for t in player_texts(spec) if MARKER.search(t)]
        assert not marked, f"{slug}: {spec.id} shows rulebook line markers to players: {marked}"


@pytest.mark.parametrize("slug, attack_id", list(fresh_attacks()))
def test_fresh_characters_odds_agree_with_3000_rolls(slug, attack_id):
    system = get_system(slug)
    assert_attack_odds_match_sample(system, *fresh_pair(system), attack_id, seed=11)


@pytest.mark.parametrize("slug, attack_id", list(fresh_attacks()))
def test_combat_attack_between_fresh_characters_undoes(slug, attack_id):
    system = get_system(slug)
    combat = Combat(system, rng=random.Random(5))
    a, t = fresh_pair(system)
    combat.add("a", a, name="Attacker")
    combat.add("t", t, name="Target")
    before = {cid: persisted(combat.character(cid)) for cid in combat.ids}
    event = combat.attack("a", "t", attack_id)
    assert event["type"] == "attack" and event["text"]["en"] and event["text"]["ru"]
    assert combat.describe(event, "ru") and combat.describe(event, "en")
    combat.undo()
    assert {cid: persisted(combat.character(cid)) for cid in combat.ids} == before
