"""Damage, healing and attacks as events: the system's rules run live on scratch copies of the
characters (``apply_damage``/``apply_healing``, ``resolve_attack``/``apply_attack``) and what they
changed is recorded in the event, so undo and replay never call a rule again. Reads the combat
through its public methods only."""

from __future__ import annotations

import random
from typing import Any, Mapping

from .conditions import new_condition
from .effects import condition_effect, effect_record
from .records import clone_character, diff, jsonable, persisted
from .state import combat_error


def checked_options(system, kind: str, character: Any, options: Mapping[str, Any]) -> None:
    """Refuse options the system's ``damage_options``/``healing_options`` do not offer."""
    specs = system.damage_options(character) if kind == "damage" else system.healing_options(character)
    allowed = {o.name for o in specs}
    if set(options) - allowed:
        bad = ", ".join(sorted(set(options) - allowed))
        if kind == "damage":
            raise combat_error(
                "bad_option", f"Unknown damage option(s): {bad}.", f"Неизвестные параметры урона: {bad}."
            )
        raise combat_error("bad_option", f"Unknown healing option(s): {bad}.", f"Неизвестные параметры лечения: {bad}.")


def harm_event(combat, kind: str, cid: str, amount: Any, options: Mapping[str, Any]) -> dict:
    """A ``"damage"`` or ``"heal"`` event of ``amount`` on ``cid`` (checked; not yet applied)."""
    combat.require(cid)
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise combat_error("bad_amount", "The amount is a whole number of 0 or more.", "Количество — целое число от 0.")
    system = combat.system
    ch = combat.character(cid)
    checked_options(system, kind, ch, options)
    twin = clone_character(ch)
    before = persisted(twin)
    health_before = list(system.health(twin))
    rule = system.apply_damage if kind == "damage" else system.apply_healing
    outcome = rule(twin, amount, **dict(options))
    changes = diff(before, persisted(twin))
    return {
        "type": kind,
        "id": cid,
        "amount": amount,
        "options": jsonable(options),
        "changes": changes,
        "health": [health_before, list(system.health(twin))],
        "notes": jsonable(list(getattr(outcome, "notes", []))),
        "state": jsonable(getattr(outcome, "state", None)),
        "defeated": bool(system.is_defeated(twin)),
    }


def check_attacker(combat, attacker_id: str, target_id: str) -> None:
    """Both are combatants, two of them, and the attacker is still in the fight."""
    combat.require(attacker_id)
    combat.require(target_id)
    if attacker_id == target_id:
        raise combat_error("self_attack", "A combatant cannot attack themselves.", "Нельзя атаковать самого себя.")
    if combat.is_defeated(attacker_id):
        name = combat.name(attacker_id)
        raise combat_error(
            "attacker_out", f"{name} is out of the fight.", f"{name} выбывает из боя и не может атаковать."
        )


def attack_effects(system, twins: dict[str, Any], outcome: Any) -> list[dict]:
    """``system.apply_attack`` on the scratch copies of attacker and target (``twins``, in that
    order): what it did to each as ``effects`` entries."""
    before = {cid: persisted(twin) for cid, twin in twins.items()}
    health = {cid: list(system.health(twin)) for cid, twin in twins.items()}
    was = {cid: bool(system.is_defeated(twin)) for cid, twin in twins.items()}
    results = system.apply_attack(*twins.values(), outcome)
    effects = []
    for (cid, twin), result in zip(twins.items(), results):
        entry = effect_record(system, cid, "attack", twin, before[cid], health[cid], was[cid], result)
        if entry:
            effects.append(entry)
    return effects


def attack_conditions(combat, twins: dict[str, Any], outcome: Any, effects: list) -> list[dict]:
    """The condition instances an attack's ``outcome`` puts on attacker or target (new uids from
    the combat's next one), their ``condition_changed`` outcomes appended to ``effects``."""
    attacker_id, target_id = twins
    conditions = []
    uid = combat.next_uid
    for cond in outcome.conditions:
        cid = target_id if cond.on == "target" else attacker_id
        inst = new_condition(combat, cid, cond.condition, cond.duration, None, cond.data)
        inst["uid"] = uid
        uid += 1
        conditions.append(inst)
        entry = condition_effect(combat, twins, cid, cond.condition, True, inst.get("data") or {}, uid=inst["uid"])
        if entry:
            effects.append(entry)
    return conditions


def attack_event(
    combat, rng: random.Random, attacker_id: str, target_id: str, attack_id: str, options: Mapping[str, Any]
) -> dict:
    """The ``"attack"`` event of ``attacker_id`` making ``attack_id`` on ``target_id`` with the
    dice from ``rng`` (checked; not yet applied)."""
    check_attacker(combat, attacker_id, target_id)
    system = combat.system
    attacker, target = clone_character(combat.character(attacker_id)), clone_character(combat.character(target_id))
    spec, opts = system.attack_spec(attacker, target, attack_id, options)
    outcome = system.resolve_attack(attacker, target, attack_id, rng=rng, **opts)
    twins = {attacker_id: attacker, target_id: target}
    effects = attack_effects(system, twins, outcome)
    conditions = attack_conditions(combat, twins, outcome, effects)
    event = {
        "type": "attack",
        "id": attacker_id,
        "target": target_id,
        "attack": spec.id,
        "label": jsonable(spec.label),
        "kind": spec.kind,
        "options": jsonable(opts),
        "hit": bool(outcome.hit),
        "damage": int(outcome.damage),
        "text": jsonable(dict(outcome.text)),
        "dice": {loc: outcome.dice_text(loc) for loc in ("en", "ru")},
        "notes": jsonable(list(outcome.notes)),
    }
    if effects:
        event["effects"] = effects
    if conditions:
        event["conditions"] = conditions
    return event
