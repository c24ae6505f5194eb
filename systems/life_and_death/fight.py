"""The attacks one character can make on another now, their exact odds and one roll of one (the
``tabletop_widgets.core.attacks`` contract; spec §6.6-§6.11).

* **Weapon attacks**: the unarmed strike every character has (``unarmed``: hand damage = base
  damage + Claws, L57, L131) and one attack per weapon on the sheet (``melee:<id>``, or
  ``ranged:<id>`` for a weapon marked ranged). The attack roll is a check of the attacker's
  (default: the weapon's ``skill`` when the sheet names one, else a bare Dexterity roll, L16),
  minus the dice of the hit zone aimed at (L256-L268), against the defender's reaction, the
  defender's choice (L228): block (the pool of their own weapon's check, -1 die from the side or
  above, -2 from behind or below, L235), dodge (Dexterity + Dodge, L236) or none (0 successes).
  Damage = weapon + attacker's successes - defender's successes - armour, only when the attacker
  has more successes (L37, L272); armour is ignored on more crits (L31, L274); doubled once on a
  transforming target (L119); the zone's wound is judged on that damage against max HP (L260-L268).
* **Spell attacks**: one per energetics style the attacker knows (``spell:<skill>``): a basic
  attacking pattern of the chosen brightness (damage = brightness, L276, L305) cast with
  Complexity + skill (- the target's Complexity when it acts on the target directly, L286-L288,
  - the zone's dice, L316); a visible spell may be dodged (L236); wounds need twice the damage
  (L316); EP = brightness when cast from one's own reserve (L282).

This module says which attacks there are, with their options, and what one with chosen options
rolls (``plan``); ``attack_rolls.py`` gives its exact odds and rolls it. The rolls, the damage and
the exact laws are those of ``attacks.py``, ``checks.py`` and ``magic.py``; nothing here changes a
character (``GameSystem.apply_attack`` applies an outcome).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core import (
    AttackSpec,
    OptionSpec,
    RuleError,
    T,
)
from tabletop_widgets.core.wording import en_n, ru_n

from . import checks, data, magic
from .casting import boost_option_specs, boost_plan
from .actions import block_pool, can_dodge_spell
from .combat import health_state
from .attacks import ZONE_PENALTY
from .model import PARAM_LABELS, SKILL_KEY_RE

ATTACK_PARAMS = ("might", "dexterity", "alertness")  # the physical parameters (L15-L17)
DODGE_SKILL = "dodge"  # spec §6.6 [DEFAULT]: dodge = Dexterity + the Dodge skill
UNARMED = "unarmed"
RANGED_KINDS = ("bow", "crossbow", "firearm", "thrown")
NON_STACKING_WOUNDS = ("tail_severed", "skull_pierced_wound", "head_severed")
WOUND_CONDITION = {  # a zone effect -> the tracker's condition (combat.CONDITIONS)
    "limb_broken": "limb_broken",
    "limb_severed": "limb_severed",
    "tail_severed": "tail_severed",
    "face_lost": "face_lost",
    "skull_pierced_wound": "skull_pierced_wound",
    "head_severed": "head_severed",
    "decapitated": "dead",
    "skull_pierced": "dead",
}
DIRECTIONS = (
    ("front", T("from the front", "спереди")),
    ("side", T("from the side or above (−1 die to a block)", "сбоку или сверху (−1 кубик к блоку)")),
    ("back", T("from behind or below (−2 dice to a block)", "со спины или снизу (−2 кубика к блоку)")),
)


@dataclass(frozen=True)
class Weapon:
    """A weapon as the attack reads it (the unarmed strike is one too)."""

    id: str
    label: Mapping[str, str]
    damage: int
    ranged: bool = False
    skill: str | None = None
    min_might: int = 0
    item: int | None = None  # its index in the inventory
    capacity: int | None = None  # shots before it must be reloaded (None: never: a sword, a sling)
    ammo: int | None = None  # shots loaded now (a weapon with a capacity starts loaded: absent = full)

    @property
    def attack_id(self) -> str:
        if self.id == UNARMED:
            return UNARMED
        return f"{'ranged' if self.ranged else 'melee'}:{self.id}"


def _slug(name: str, index: int) -> str:
    s = re.sub(r"\W+", "_", name.strip().lower()).strip("_")
    return s or f"weapon_{index + 1}"


def _int(v: Any, default: int = 0) -> int:
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default


def weapons(character) -> list[Weapon]:
    """The unarmed strike, then every weapon of the inventory (ids from their names, unique)."""
    out = [Weapon(UNARMED, T("Unarmed", "Без оружия"), int(character.hand_damage))]
    seen = {UNARMED}
    for i, it in enumerate(character.inventory):
        if it.get("category") != "weapon":
            continue
        name = str(it.get("name") or "").strip()
        wid = _slug(str(it.get("id") or name), i)
        n = 2
        while wid in seen:
            wid, n = f"{_slug(str(it.get('id') or name), i)}_{n}", n + 1
        seen.add(wid)
        skill = it.get("skill")
        capacity = _int(it.get("capacity"), 0) or None
        out.append(
            Weapon(
                wid,
                T(name or f"weapon {i + 1}", name or f"оружие {i + 1}"),
                _int(it.get("damage")),
                bool(it.get("ranged")) or it.get("kind") in RANGED_KINDS,
                skill if isinstance(skill, str) and SKILL_KEY_RE.match(skill) else None,
                _int(it.get("min_might")),
                i,
                capacity,
                None if capacity is None else _int(it.get("ammo"), capacity),
            )
        )
    return out


def spend_shot(attacker, item: int | None) -> dict:
    """One shot less in the weapon at inventory index ``item`` (an attack made with it, L237);
    ``{"inventory": (old, new)}``, or nothing for a weapon that is never reloaded."""
    if item is None:
        return {}
    old = [dict(it) for it in attacker.inventory]
    new = [dict(it) for it in old]
    w = new[item]
    capacity = _int(w.get("capacity"), 0)
    if not capacity:
        return {}
    w["ammo"] = max(0, _int(w.get("ammo"), capacity) - 1)
    attacker.inventory = new
    return {"inventory": (old, new)}


def reload(character) -> dict:
    """Every weapon with a capacity refilled (L237); refused with the reason when none needs it."""
    old = [dict(it) for it in character.inventory]
    new = [dict(it) for it in old]
    done = False
    for it in new:
        capacity = _int(it.get("capacity"), 0)
        if it.get("category") == "weapon" and capacity and _int(it.get("ammo"), capacity) < capacity:
            it["ammo"] = capacity
            done = True
    if not done:
        raise RuleError(
            "nothing_to_reload",
            T(
                "Nothing to reload: every weapon is loaded (or never needs it).",
                "Перезаряжать нечего: всё оружие заряжено (или перезарядка ему не нужна).",
            ),
        )
    character.inventory = new
    return {"inventory": (old, new)}


def unavailable(attacker, weapon: Weapon) -> dict[str, str] | None:
    """Why ``weapon`` cannot attack now, or None: too heavy for the attacker's Might (L155), or
    empty, to be reloaded first (L237: reloading is an ordinary action)."""
    if weapon.min_might > attacker.might:
        return T(
            f"Needs Might {weapon.min_might} (you have {attacker.might}).",
            f"Нужна Сила {weapon.min_might} (у вас {attacker.might}).",
        )  # L155
    if weapon.capacity is not None and (weapon.ammo or 0) <= 0:
        return T(
            "Empty: reload (an ordinary action; Reload on the sheet).",
            "Не заряжено: перезарядите (обычное действие; «Перезарядить» в листе).",
        )  # L237
    return None


def weapon_check(character, weapon: Weapon, *, options: Mapping[str, Any]) -> str:
    """The check a weapon attacks (and blocks) with: its skill's when the sheet names one rolled
    with a physical parameter, else a bare Dexterity roll (L16: light weapons, quick actions)."""
    if weapon.skill:
        param = character.skill_param_under(weapon.skill, options=options)
        if param in ATTACK_PARAMS:
            return f"{param}+{weapon.skill}"
    return "dexterity"


def _check_choices(character, weapon: Weapon, *, options: Mapping[str, Any]) -> tuple:
    """The attack rolls offered: the bare physical parameters, every physical skill the
    character has, and the weapon's own skill check."""
    ids = list(ATTACK_PARAMS)
    for key in sorted(character.skills):
        param = character.skill_param_under(key, options=options)
        if character.skill_level(key) > 0 and param in ATTACK_PARAMS:
            ids.append(f"{param}+{key}")
    own = weapon_check(character, weapon, options=options)
    if own not in ids:
        ids.append(own)
    out = []
    for cid in ids:
        s = checks.resolve(character, cid, options=options)
        out.append((cid, T(f"{s.label['en']} ({s.pool})", f"{s.label['ru']} ({s.pool})")))
    return tuple(out)


def _skill_check(target, skill: str, *, options: Mapping[str, Any]) -> str:
    """``<parameter>+<skill>``: the skill's own physical parameter, else Dexterity (L16, L236)."""
    param = target.skill_param_under(skill, options=options)
    return f"{param if param in ATTACK_PARAMS else 'dexterity'}+{skill}"


def _defence_skill(name: str, *, options: Mapping[str, Any]) -> str:
    """The skill the GM option ``defence_pools`` names for a block or a dodge (A-11), or its default."""
    pools = options.defence_pools or {}
    value = pools.get(name)
    return value if isinstance(value, str) and SKILL_KEY_RE.match(value) else DEFENCE_POOLS_DEFAULT[name]


#: A-11 [DEFAULT]: a block rolls the defender's own weapon check, a dodge Dexterity + Dodge
DEFENCE_POOLS_DEFAULT = {"block": "weapon", "dodge": DODGE_SKILL}


def _block_check(target, *, options: Mapping[str, Any]) -> str:
    """A block uses the check of the defender's equipped weapon (unarmed: theirs), spec §6.6; or the
    skill the GM's ``defence_pools["block"]`` names (A-11: the book says which pool nowhere)."""
    skill = _defence_skill("block", options=options)
    if skill != "weapon":
        return _skill_check(target, skill, options=options)
    mine = weapons(target)
    equipped = [w for w in mine[1:] if target.inventory[w.item].get("equipped")]
    return weapon_check(target, (equipped or mine)[0], options=options)


def _dodge_check(target, *, options: Mapping[str, Any]) -> str:
    """Dexterity + Dodge (spec §6.6), or the skill of the GM's ``defence_pools["dodge"]`` (A-11)."""
    return _skill_check(target, _defence_skill("dodge", options=options), options=options)


def _dodge_pool(target, *, options: Mapping[str, Any]) -> checks.PoolSpec:
    """The dodge's pool, named in the book's word (уворот, L236) when the GM has no Dodge skill row."""
    s = checks.resolve(target, _dodge_check(target, options=options), options=options)
    if s.check_id.endswith(f"+{DODGE_SKILL}") and data.row(target.TABLES, "skills", DODGE_SKILL) is None:
        param = s.check_id.split("+", 1)[0]
        label = T(f"{PARAM_LABELS[param]['en']} + Dodge", f"{PARAM_LABELS[param]['ru']} + уворот")
        return checks.PoolSpec(s.check_id, s.pool, s.penalty, label, s.kind, s.notes)
    return s


def _zone_option(target, en: str, ru: str) -> OptionSpec:
    """The hit zone an attack or a spell aims at (L256-L268), torso by default; ``en``/``ru`` say
    what aiming costs it."""
    return OptionSpec(
        "zone", T("Hit zone", "Зона попадания"), "choice", "torso", choices=_zones(target), help=T(en, ru)
    )


def _zones(target) -> tuple:
    """The hit zones (L256-L268) the target has now: a tail only with the Tail feature and not
    yet severed."""
    tail_gone = any(w.get("kind") == "tail_severed" for w in target.wounds)
    out = []
    for r in target.TABLES.rows("zones"):
        if r["id"] == "tail" and (not target.has_feature("tail") or tail_gone):
            continue
        pen = int(r.get("penalty", 0))
        if pen:
            label = T(
                f"{r['en']} (−{en_n(pen, 'die', 'dice')})", f"{r['ru']} (−{ru_n(pen, 'кубик', 'кубика', 'кубиков')})"
            )
        else:
            label = T(r["en"], r["ru"])
        out.append((r["id"], label))
    return tuple(out)


def _epic_option(name: str, character, label: Mapping[str, str]) -> list[OptionSpec]:
    """Epic dice to spend (L351), only in a campaign and when there are some."""
    if not character.uses_reputation or character.epic_dice <= 0:
        return []
    return [
        OptionSpec(
            name, label, "int", 0, 0, int(character.epic_dice), help=T("+1 success each", "+1 успех каждый")
        )  # L351
    ]


def _target_facts() -> list[OptionSpec]:
    """What the sheet does not record about the target and the zones need (L264, L268)."""
    return [
        OptionSpec("undead", T("Target is undead", "Цель — нежить"), "bool", False, gm_only=True),
        OptionSpec("heads", T("Target's heads", "Голов у цели"), "int", 1, 1, 9, gm_only=True),
    ]


def _pool_en(s) -> str:
    """A defence pool as a defender reads it: «Dexterity + Dodge, 2 dice, −1 success»."""
    return f"{s.label['en']}, {en_n(s.pool, 'die', 'dice')}" + (", −1 success (untrained)" if s.penalty else "")


def _pool_ru(s) -> str:
    return f"{s.label['ru']}, {ru_n(s.pool, 'кубик', 'кубика', 'кубиков')}" + (
        ", −1 успех (нет навыка)" if s.penalty else ""
    )


def _weapon_spec(attacker, target, weapon: Weapon, *, options: Mapping[str, Any]) -> AttackSpec:
    block = checks.resolve(target, _block_check(target, options=options), options=options)
    dodge = _dodge_pool(target, options=options)
    opts = [
        OptionSpec(
            "check",
            T("Attack roll", "Бросок атаки"),
            "choice",
            weapon_check(attacker, weapon, options=options),
            choices=_check_choices(attacker, weapon, options=options),
        ),
        _zone_option(
            target,
            "Aiming at a part of the body costs dice; a hit strong enough for its share of the "
            "target's max HP breaks or cuts it off.",
            "Удар в часть тела стоит кубиков; достаточно сильный удар (доля максимума HP цели) ломает или отрубает её.",
        ),
        OptionSpec("direction", T("Attacking", "Атака"), "choice", "front", choices=DIRECTIONS),
        *_epic_option("epic", attacker, T("Epic dice to spend", "Потратить эпик-дайсов")),
        OptionSpec("dice_mod", T("Extra dice ± (GM)", "Доп. кубики ± (Мастер)"), "int", 0, -5, 5, gm_only=True),
        *_target_facts(),
        OptionSpec(
            "defence",
            T("Defence (the defender's choice)", "Защита (выбор защищающегося)"),
            "choice",
            "block",
            choices=(
                ("block", T(f"block: {_pool_en(block)}", f"блокирование: {_pool_ru(block)}")),
                ("dodge", T(f"dodge: {_pool_en(dodge)}", f"уворот: {_pool_ru(dodge)}")),
                ("none", T("none (no action left, or caught unaware)", "нет (не осталось действий или врасплох)")),
            ),
            help=T(
                "A reaction takes one of the defender's actions; ties go to the defender.",
                "Ответное действие тратит действие защищающегося; при равенстве успехов побеждает он.",
            ),
        ),
        *_epic_option("defence_epic", target, T("Defender's epic dice", "Эпик-дайсы защищающегося")),
    ]
    kind = "unarmed" if weapon.id == UNARMED else ("ranged" if weapon.ranged else "melee")
    verb = {"unarmed": ("", ""), "melee": ("", ""), "ranged": (" (ranged)", " (дальний бой)")}[kind]
    if weapon.capacity is not None:  # shots loaded of its capacity: "Crossbow (ranged) 1/1"
        verb = (f"{verb[0]} {weapon.ammo}/{weapon.capacity}", f"{verb[1]} {weapon.ammo}/{weapon.capacity}")
    return AttackSpec(
        weapon.attack_id,
        T(f"{weapon.label['en']}{verb[0]}", f"{weapon.label['ru']}{verb[1]}"),
        kind,
        tuple(opts),
        defender_options=tuple(o.name for o in opts if o.name in ("defence", "defence_epic")),
        help=T(
            "Damage = weapon + your successes − the defender's − armour; more 10s than the defender ignore armour.",
            "Урон = оружие + ваши успехи − успехи защиты − броня; больше десяток, чем у защиты, — "
            "броня не учитывается.",
        ),
        unavailable=unavailable(attacker, weapon),
    )


def _spell_skills(attacker, *, options: Mapping[str, Any]) -> list[str]:
    return [
        k
        for k in sorted(attacker.skills)
        if attacker.skill_level(k) > 0 and attacker.skill_param_under(k, options=options) == "complexity"
    ]


def _style_damage_type(attacker, key: str) -> str:
    row = data.row(attacker.TABLES, "skills", key.split(":", 1)[0]) or {}
    dt = (row.get("energetics") or {}).get("damage_type")
    return dt if isinstance(dt, str) else "physical"


def _spell_spec(attacker, target, key: str, *, options: Mapping[str, Any]) -> AttackSpec:
    label = checks.resolve(attacker, f"complexity+{key}", options=options).label
    style = T(label["en"].split(" + ", 1)[-1], label["ru"].split(" + ", 1)[-1])
    opts = [
        OptionSpec(
            "brightness",
            T("Brightness (damage)", "Яркость (урон)"),
            "int",
            max(1, attacker.power),
            1,
            max(1, attacker.power),
            help=T("At most your Power.", "Не выше вашей Яркости."),
        ),
        *boost_option_specs(),  # L314
        _zone_option(
            target,
            "The zone's dice come off the casting roll; a spell needs twice the damage to wound.",
            "Штраф зоны — к броску создания; для травмы заклинанию нужен вдвое больший урон.",
        ),
        OptionSpec(
            "direct",
            T("Acts on the target directly (−its Complexity)", "Воздействует прямо на цель (−её Сложность)"),
            "bool",
            False,
        ),  # L286-L288
        OptionSpec("own_reserve", T("From your own EP", "Из своего запаса EP"), "bool", False),  # L282
        OptionSpec(
            "damage_type",
            T("Damage type", "Тип урона"),
            "choice",
            _style_damage_type(attacker, key),
            choices=tuple((r["id"], T(r["en"], r["ru"])) for r in attacker.TABLES.rows("damage_types")),
        ),
        *_epic_option("epic", attacker, T("Epic dice to spend", "Потратить эпик-дайсов")),
        *_target_facts(),
    ]
    defender = ()
    if can_dodge_spell(target, attacker):  # L236: only a visible spell is dodged
        dodge = _dodge_pool(target, options=options)
        opts.append(
            OptionSpec(
                "defence",
                T("Defence (the defender's choice)", "Защита (выбор защищающегося)"),
                "choice",
                "dodge",
                choices=(
                    ("dodge", T(f"dodge: {_pool_en(dodge)}", f"уворот: {_pool_ru(dodge)}")),
                    ("none", T("none", "нет")),
                ),
            )
        )
        opts += _epic_option("defence_epic", target, T("Defender's epic dice", "Эпик-дайсы защищающегося"))
        defender = tuple(o.name for o in opts if o.name in ("defence", "defence_epic"))
    return AttackSpec(
        f"spell:{key}",
        T(f"Spell: {style['en']}", f"Заклинание: {style['ru']}"),
        "spell",
        tuple(opts),
        defender_options=defender,
        help=T(
            "An attacking pattern: damage = its brightness; armour does not count by default.",
            "Атакующий узор: урон равен его яркости; броня по умолчанию не учитывается.",
        ),
    )


def refusal(attacker, target, attack_id: Any, *, options: Mapping[str, Any]) -> RuleError | None:
    """Why ``attack_id`` cannot be made now although the character has it (a weapon too heavy,
    L155; an attacker out of the fight or a dead target, §6.12), or None."""
    state = health_state(attacker, options=options)
    if state in ("dead", "incapacitated"):
        name = attacker.name or "?"
        return RuleError(
            "attacker_out",
            T(
                f"{name} cannot act ({state}).",
                f"{name} не может действовать ({'смерть' if state == 'dead' else 'недееспособность'}).",
            ),
        )
    if health_state(target, options=options) == "dead":
        name = target.name or "?"
        return RuleError("target_dead", T(f"{name} is dead.", f"{name}: смерть."))
    for w in weapons(attacker):
        if w.attack_id == attack_id and w.min_might > attacker.might:
            return RuleError(
                "too_heavy",
                T(
                    f"{w.label['en']} needs Might {w.min_might}; {attacker.name or 'the attacker'} has {attacker.might}.",
                    f"{w.label['ru']}: нужна Сила {w.min_might}; {attacker.name or 'атакующий'}: Сила {attacker.might}.",
                ),
            )  # L155
    return None


def attack_list(attacker, target, *, options: Mapping[str, Any]) -> list[AttackSpec]:
    """Every attack ``attacker`` has on ``target`` (none when one of them is out): a weapon too heavy
    or empty is listed ``unavailable`` with the reason, never dropped."""
    if refusal(attacker, target, None, options=options) is not None:
        return []
    out = [_weapon_spec(attacker, target, w, options=options) for w in weapons(attacker)]
    out += [_spell_spec(attacker, target, k, options=options) for k in _spell_skills(attacker, options=options)]
    return out


def one_attack(attacker, target, attack_id: Any, *, options: Mapping[str, Any]) -> AttackSpec | None:
    """The spec of ``attack_id`` alone, as :func:`attack_list` would give it, or None when it is
    not offered (cheaper than the whole list: every roll checks its attack)."""
    if not isinstance(attack_id, str) or refusal(attacker, target, attack_id, options=options) is not None:
        return None
    if attack_id.startswith("spell:"):
        key = attack_id.split(":", 1)[1]
        if key in _spell_skills(attacker, options=options):
            return _spell_spec(attacker, target, key, options=options)
        return None
    for w in weapons(attacker):
        if w.attack_id == attack_id:
            return _weapon_spec(attacker, target, w, options=options)
    return None


# -- one attack with its options: what is rolled -----------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    """What an attack with chosen options rolls and deals (before the dice)."""

    spell: bool
    att_check: str  # check id (``cast:<skill>`` for a spell)
    att_pool: int  # dice before the zone's (weapons) / after everything (spells)
    att_penalty: int
    att_label: Mapping[str, str]
    def_check: str | None  # None: no reaction
    def_pool: int
    def_penalty: int
    def_label: Mapping[str, str]
    base_damage: int  # the weapon's, or the brightness
    armour: int
    level: int = 1  # successes a spell needs
    damage_type: str = "physical"
    boosted: bool = False  # a spell's brightness boost (L314): +1 brightness the round after
    boost_pool: int | None = None  # the boost's Complexity roll (None: an idle round, no roll)
    p_boost: Fraction = Fraction(1)  # the chance the boost works


def _defence(target, how: str, direction: str, *, options: Mapping[str, Any]):
    """(check id, dice, penalty, label) of the defender's reaction, or Nones for none."""
    if how == "none":
        return None, 0, 0, T("no defence", "без защиты")
    if how == "block":
        s = checks.resolve(target, _block_check(target, options=options), options=options)
        pool = block_pool(s.pool, direction)  # L235
        return s.check_id, pool, s.penalty, T(f"block, {s.label['en']}", f"блокирование, {s.label['ru']}")
    s = _dodge_pool(target, options=options)
    return s.check_id, s.pool, s.penalty, T(f"dodge, {s.label['en']}", f"уворот, {s.label['ru']}")


def plan(attacker, target, attack_id: str, chosen: Mapping[str, Any], *, options: Mapping[str, Any]) -> Plan:
    """The pools and damage of ``attack_id`` with ``chosen`` options (checked, defaults filled)."""
    how = chosen.get("defence", "none")
    d_check, d_pool, d_pen, d_label = _defence(target, how, chosen.get("direction", "front"), options=options)
    if attack_id.startswith("spell:"):
        key = attack_id.split(":", 1)[1]
        spell = design(chosen)
        skill = attacker.skill_level(key)
        magic.check_brightness(spell.brightness, attacker.power)
        magic.ep_after_cast(attacker.ep, spell.brightness, spell.own_reserve)  # L282: refused before rolling
        cx = magic.spell_complexity(spell, skill, options=options)
        level = magic.spell_level(cx, None, options=options)
        pool = magic.casting_pool(attacker.complexity, skill, target_cx(target, chosen), cx, spell.zone)
        boosted, boost_pool, p_boost = boost_plan(attacker, spell, chosen, options=options)  # L314
        label = T(f"casting, {en_n(pool, 'die', 'dice')}", f"создание, {ru_n(pool, 'кубик', 'кубика', 'кубиков')}")
        armour = target.armour_level if options.armour_vs_spells else 0
        return Plan(
            True,
            f"cast:{key}",
            pool,
            0,
            label,
            d_check,
            d_pool,
            d_pen,
            d_label,
            spell.brightness + (1 if boosted else 0),
            armour,
            level,
            chosen["damage_type"],
            boosted,
            boost_pool,
            p_boost,
        )
    s = checks.resolve(attacker, chosen["check"], dice_mod=int(chosen.get("dice_mod", 0)), options=options)
    if s.pool - ZONE_PENALTY[chosen["zone"]] <= 0 and options.pool_nonpositive == "forbid":
        raise RuleError(
            "empty_pool",
            T(
                "The attack roll has no dice left (the zone's dice included).",
                "В броске атаки не осталось кубиков (с учётом зоны).",
            ),
        )
    weapon = next(w for w in weapons(attacker) if w.attack_id == attack_id)
    return Plan(
        False,
        s.check_id,
        s.pool,
        s.penalty,
        s.label,
        d_check,
        d_pool,
        d_pen,
        d_label,
        weapon.damage,
        target.armour_level,
    )


def design(chosen: Mapping[str, Any]) -> magic.SpellDesign:
    return magic.SpellDesign(
        brightness=int(chosen["brightness"]), own_reserve=bool(chosen["own_reserve"]), zone=chosen["zone"]
    )


def target_cx(target, chosen: Mapping[str, Any]) -> int:
    return int(target.complexity) if chosen.get("direct") else 0  # L288


def damage_options(target, p: Plan, chosen: Mapping[str, Any]) -> dict[str, Any]:
    """What ``apply_damage`` takes with the damage so that the target takes exactly it."""
    return {
        "damage_type": p.damage_type,
        "zone": chosen["zone"],
        "spell": p.spell,
        "undead": bool(chosen.get("undead", False)),
        "heads": int(chosen.get("heads", 1)),
        "doubled": bool(target.transforming),  # L119: the attack doubled it once already
    }


def hp_pool(p: Plan, *, options: Mapping[str, Any]) -> bool:
    return options.damage_type_pools.get(p.damage_type) == "hp"
