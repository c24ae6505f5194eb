"""The attacks an R.E.T. character can make on a target now (spec §6.6-§6.7, §6.10, §8.7-§8.8):
each weapon on the sheet (and the bare hands every character has) as a plain attack and as a
called shot at a body part, and each superpower (an ultimate of a superpower talent too); with
their options (the roll: the weapon's parameter or a fitting ability, Luck, the GM's modifier,
the defender's defence and Luck, the body part) and the level rolls they make.

Plain rules: no dice are thrown here (``attack_outcomes`` rolls and computes the odds)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from tabletop_widgets.core import AttackSpec, OptionSpec, RuleError, T
from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.options import GmOptions

from . import data
from .attack_rolls import LevelPlan
from .attacks import BODY_PARTS
from .catalogue import luck_option
from .defences import defence_choices
from .fitting import choice_id, fitting_choices
from .modifiers import auto_modifiers
from .params import PARAMS, label as param_label
from .plan import ability_roll, plan
from .powers import DEFAULT_DELIVERY, delivery, is_power, power_cost
from .turns import turn_limits
from .weapons import EMPTY, KIND_PARAM, UNARMED, empty, weapon_stats

__all__ = ["LevelPlan", "UNARMED", "KIND_PARAM", "weapon_stats"]  # re-exported for the attack modules

#: the contract's kind of attack (``core.attacks.ATTACK_KINDS``) by the kind of arm
SPEC_KINDS = {"melee": "melee", "ranged": "ranged", "thrown": "ranged", "power": "spell"}
#: the GM's modifier on an attack roll: a flat bonus or penalty within these bounds
MODIFIER_LIMIT = 20
#: an immobilising attack's id prefix (grab, arm lock, binding, L843-854)
IMMOBILISE = "immobilise"
#: what an immobilising attack rolls with bare hands (L847: a grab by force) or with ropes,
#: handcuffs and the like (L849)
HOLD_ROLLS = ("physique", "fine_motor")
#: who holds the target after an immobilising attack, and what breaking free costs (L851-852,
#: L1626-1627): the attacker in person (the attack, a new contest) or an object (an action, against
#: the binding roll)
HOLD_WORDS = {
    "person": T(
        "Held by the attacker (breaking free costs the attack: a new contest)",
        "Удерживает сам атакующий (вырваться — атака: новое соревнование)",
    ),
    "object": T(
        "Bound by an object: rope, handcuffs (breaking free costs an action, against this roll)",
        "Связан предметом: верёвка, наручники (освободиться — действие, против этого броска)",
    ),
}

BODY_PART_WORDS = {
    "head": T("Head: ×2 Health and Sanity damage", "В голову: двойной урон Здоровью и урон Рассудку"),
    "legs": T("Legs: may knock the target down", "По ногам: может сбить с ног"),
    "arms": T("Arms: may disarm the target", "По рукам: может выбить оружие"),
    "weapon": T("Weapon: no damage, may break it", "По оружию: без урона, может повредить оружие"),
    "special": T("Special point (strap, switch...)", "По особой точке (лямка, кнопка...)"),
}
KIND_WORDS = {
    "melee": T("melee", "ближний бой"),
    "ranged": T("ranged", "дистанционная"),
    "thrown": T("thrown", "метание"),
    "power": T("superpower", "сверхспособность"),
}


@dataclass(frozen=True)
class Arm:
    """One way to attack: a weapon (``index`` into the sheet's weapons; None for bare hands) or
    a superpower (``ability``: a superpower skill or talent, or an ultimate of a superpower
    talent; ``delivery``: how it reaches the target, ``powers.DELIVERIES``). ``weapon`` is the
    sheet's weapon with its category's values filled in (kind, damage, attack parameter)."""

    key: str
    kind: str
    label: Mapping[str, str]
    weapon: Mapping[str, Any] | None = None
    index: int | None = None
    ability: Mapping[str, Any] | None = None
    delivery: str = DEFAULT_DELIVERY

    @property
    def param(self) -> str:
        """The parameter the attack rolls by default: the weapon's own (L1269-1275, L1322-1331)."""
        if self.ability is not None:
            return str(self.ability.get("base_param") or "physique")
        return str(self.weapon["attack_param"])


def _slug(text: str) -> str:
    return re.sub(r"[^\w]+", "-", str(text).strip().lower()).strip("-")


def arms_of(c) -> list[Arm]:
    """Bare hands, every weapon on the sheet, every superpower skill or talent (in sheet order;
    keys are unique and stable: the weapon's name as a slug, ``-2`` on a repeat)."""
    bare = data.row("weapons", UNARMED)
    arms = [Arm(UNARMED, "melee", T(bare["en"], bare["ru"]), weapon_stats({"category": UNARMED}))]
    seen = {UNARMED}

    def unique(base: str) -> str:
        key, n = base, 2
        while key in seen:
            key, n = f"{base}-{n}", n + 1
        seen.add(key)
        return key

    for i, w in enumerate(c.weapons):
        stats = weapon_stats(w)
        if stats["kind"] not in KIND_PARAM:
            continue
        name = str(w.get("name") or "").strip() or f"weapon {i + 1}"
        key = unique(_slug(w.get("id") or name) or f"weapon-{i + 1}")
        arms.append(Arm(key, stats["kind"], T(name, name), stats, index=i))
    for a in c.abilities:
        if a.get("kind") in ("skill", "talent", "ultimate") and a.get("name") and is_power(c, a):
            name = str(a["name"])
            key = unique(_slug(name) or "power")
            lab = T(f"Superpower: {name}", f"Сверхспособность: {name}")
            arms.append(Arm(key, "power", lab, ability=a, delivery=delivery(c, a)))
    return arms


def out_of_ammo(arm: Arm) -> bool:
    """A ranged weapon whose ammunition is counted on the sheet and spent (L1284, ``weapons``)."""
    return arm.weapon is not None and arm.kind == "ranged" and empty(arm.weapon)


def unavailable(arm: Arm) -> dict[str, str] | None:
    """Why ``arm`` is listed but cannot attack now, for the player: an empty gun ("empty:
    reload", L1287), an ultimate already used this game session (L1217); or None."""
    if out_of_ammo(arm):
        return dict(EMPTY)
    if (arm.ability or {}).get("kind") == "ultimate" and arm.ability.get("used"):
        return T("used this game session", "уже применена в этой игровой сессии")
    return None


def roll_choices(c, arm: Arm) -> list[tuple[str, Mapping[str, str]]]:
    """What the attack may roll: the weapon's parameter, the alternatives the book names for it
    (Body Control for light blades, Agility for large bows, L804, L1286), and the attacker's
    fitting abilities (L794: «если не применяются подходящие способности»; ``fitting``): on one
    of those parameters or on one the book's table gives the example ability of the weapon's row
    (Swordmaster on Strength with a sword, Martial arts on Body Control bare-handed, L1270-1275).
    A superpower rolls itself."""
    if arm.ability is not None:
        a = arm.ability
        return [(choice_id(a), T(str(a["name"]), str(a["name"])))]
    params = [arm.param] + [p for p in arm.weapon.get("alt_params") or () if p in PARAMS and p != arm.param]
    fitting = params + [p for p in arm.weapon.get("ability_params") or () if p in PARAMS and p not in params]
    return [(p, param_label(p)) for p in params] + fitting_choices(c, fitting, "attack")


def _defences(attacker, arm: Arm, target, *, options: GmOptions, allowed: str | None = None) -> list:
    """The target's defence choices against ``arm`` (``defences.defence_choices``; a dispel costs
    what the attacker pays for the power)."""
    cost = power_cost(attacker, arm.ability) if arm.ability is not None else 0
    return defence_choices(arm, target, options=options, attack_cost=cost, allowed=allowed)


def attack_cost(attacker, arm: Arm) -> int:
    """The Sanity a use of ``arm`` costs: a superpower's, at least 1 (L1158, ``powers``)."""
    return power_cost(attacker, arm.ability) if arm.ability is not None else 0


def attack_specs(attacker, target, *, options: GmOptions) -> list[AttackSpec]:
    """Every attack ``attacker`` can make on ``target`` now (none while its states forbid
    attacking: panic, doom, unconscious, coma, L1532-1550)."""
    if not turn_limits(attacker)["attack"] or attacker.dead:
        return []
    specs = []
    allowed = turn_limits(target)["defence"]
    for arm in arms_of(attacker):
        defences = _defences(attacker, arm, target, options=options, allowed=allowed)
        specs.append(_spec(attacker, target, arm, called=False, defences=defences, options=options))
        if arm.kind != "power":
            specs.append(_spec(attacker, target, arm, called=True, defences=defences, options=options))
        if holds(arm):
            specs.append(_hold_spec(attacker, target, arm, defences=defences, options=options))
    return specs


def holds(arm: Arm) -> bool:
    """Whether ``arm`` makes immobilising attacks: bare hands (with ropes or handcuffs too) and
    superpowers (L847-849, L853)."""
    return arm.key == UNARMED or arm.kind == "power"


def _hold_spec(attacker, target, arm: Arm, *, defences: list[str], options: GmOptions) -> AttackSpec:
    """An immobilising attack (L843-854): no harm to Health or Sanity, the target Restrained."""
    specs = _attacker_options(attacker, arm, rolls=_hold_rolls(attacker, arm))
    specs.append(
        OptionSpec(
            "hold",
            T("Held by", "Удержание"),
            "choice",
            "person",
            choices=tuple(HOLD_WORDS.items()),
            help=T(
                "Who keeps the target held: you in person, or a rope, handcuffs or the like.",
                "Кто удерживает цель: вы сами или верёвка, наручники и т.п.",
            ),
        )
    )
    specs += _extra_turn_option(attacker, options=options) + hiding_options(attacker)
    specs += _defender_options(target, defences)
    power = arm.kind == "power"
    return AttackSpec(
        f"{IMMOBILISE}:{arm.key}",
        T(f"{arm.label['en']}: immobilise", f"{arm.label['ru']}: обездвиживание")
        if power
        else T("Immobilise (grab, bind)", "Обездвиживание (захват, связывание)"),
        kind="other",
        options=tuple(specs),
        defender_options=DEFENDER_OPTIONS,
        unavailable=unavailable(arm),
        help=T(
            "A grab, an arm lock, binding: no damage; on a hit the target is Restrained (the GM says what it "
            "can no longer do)."
            + (" Costs the power's Sanity." if power else " Physique by hand, Fine Motor with ropes or handcuffs."),
            "Захват, залом руки, связывание: без урона; при попадании цель удерживается (что ей недоступно, "
            "решает мастер)."
            + (
                " Тратит Рассудок силы."
                if power
                else " Руками — Телосложение, верёвкой или наручниками — Мелкая моторика."
            ),
        ),
    )


def _hold_rolls(attacker, arm: Arm) -> list[tuple[str, Mapping[str, str]]]:
    """Physique (a grab) or Fine Motor (ropes, handcuffs), and the attacker's skills and talents
    on them (L847, L849, L854); a superpower rolls itself."""
    if arm.ability is not None:
        return roll_choices(attacker, arm)
    return [(p, param_label(p)) for p in HOLD_ROLLS] + fitting_choices(attacker, HOLD_ROLLS, "attack")


def spec_for(attacker, target, attack_id_: str, *, options: GmOptions) -> tuple[AttackSpec, Arm, bool] | None:
    """The one attack ``attack_id_`` if the rules offer it now (what :func:`attack_specs` would
    list for it, without building the others), with its arm and whether it is a called shot."""
    found = find_arm(attacker, attack_id_)
    if found is None or refusal(attacker, target, attack_id_, found=found) is not None:
        return None
    arm, called = found
    defences = _defences(attacker, arm, target, options=options)
    if attack_id_.startswith(f"{IMMOBILISE}:"):
        return _hold_spec(attacker, target, arm, defences=defences, options=options), arm, False
    spec = _spec(attacker, target, arm, called=called, defences=defences, options=options)
    return spec, arm, called


def attack_id(arm: Arm, *, called: bool) -> str:
    return f"{'called' if called else arm.kind}:{arm.key}"


def _spec(attacker, target, arm: Arm, *, called: bool, defences: list[str], options: GmOptions) -> AttackSpec:
    specs = _attacker_options(attacker, arm) + _two_weapons_option(attacker, arm)
    specs += _extra_turn_option(attacker, options=options)
    if called:
        specs.append(
            OptionSpec(
                "body_part",
                T("Body part", "Часть тела"),
                "choice",
                "head",
                choices=tuple((p, BODY_PART_WORDS[p]) for p in BODY_PARTS),
                help=T(
                    "Costs this turn's action; the attack rolls one die level lower.",
                    "Тратит действие этого хода; атака на 1 уровень куба ниже.",
                ),
            )
        )
    specs += hiding_options(attacker) + _defender_options(target, defences)
    return AttackSpec(
        attack_id(arm, called=called),
        _label(arm, called),
        kind="called" if called else ("unarmed" if arm.key == UNARMED else SPEC_KINDS[arm.kind]),
        options=tuple(specs),
        defender_options=DEFENDER_OPTIONS,
        help=_help(arm, called),
        unavailable=unavailable(arm),
    )


def _attacker_options(attacker, arm: Arm, rolls: list | None = None) -> list[OptionSpec]:
    rolls = rolls or roll_choices(attacker, arm)
    return [
        OptionSpec(
            "roll",
            T("Attack roll", "Бросок атаки"),
            "choice",
            rolls[0][0],
            choices=tuple(rolls),
            help=T(
                "The parameter or ability the attack rolls (the weapon's own first).",
                "Параметр или способность, которыми бросается атака (первым — параметр оружия).",
            ),
        ),
        luck_option(
            "luck",
            T("Luck declared", "Заявленная Удача"),
            attacker,
            T("Added to the attack roll; burnt on a fail.", "Прибавляется к броску атаки; сгорает при провале."),
        ),
        OptionSpec(
            "modifier",
            T("GM's modifier", "Модификатор мастера"),
            "int",
            0,
            min=-MODIFIER_LIMIT,
            max=MODIFIER_LIMIT,
            gm_only=True,
            help=T(
                "A bonus or penalty the GM puts on the attack roll (sights, darkness...).",
                "Бонус или штраф мастера к броску атаки (прицел, темнота...).",
            ),
        ),
    ]


def second_weapon(attacker, arm: Arm) -> Mapping[str, Any] | None:
    """Another one-handed melee weapon for the other hand, when ``arm`` is a one-handed melee
    weapon (L1239: «второе одноручное оружие во вторую руку»), or None."""
    if arm.kind != "melee" or arm.index is None or not arm.weapon.get("one_handed"):
        return None
    for i, w in enumerate(attacker.weapons):
        stats = weapon_stats(w)
        if i != arm.index and stats["kind"] == "melee" and stats.get("one_handed"):
            return stats
    return None


def _two_weapons_option(attacker, arm: Arm) -> list[OptionSpec]:
    if second_weapon(attacker, arm) is None:
        return []
    return [
        OptionSpec(
            "two_weapons",
            T("Both weapons", "С двух рук"),
            "bool",
            False,
            help=T(
                "A one-handed weapon in each hand: one die level lower, double damage to this target. The GM may"
                " forbid it, or ask for a fighting technique or Sanity.",
                "Одноручное оружие в каждой руке: на 1 уровень куба ниже, удвоенный урон по этой цели. Мастер может"
                " запретить или потребовать технику боя или Рассудок.",
            ),
        )
    ]


#: the turn an attack is made in (L755-771): the main one, or an extra turn it pays for
EXTRA_TURN_WORDS = {
    0: T("Main turn", "Основной ход"),
    1: T("1st extra turn: −3 Sanity", "1-й доп. ход: −3 Рассудка"),
    2: T("2nd extra turn: refuse defence", "2-й доп. ход: отказ от защиты"),
}


def _extra_turn_option(attacker, *, options: GmOptions) -> list[OptionSpec]:
    """Which turn the attack is made in, when the rules allow extra turns (not forbidden by the
    GM, L712; not in rage, panic, doom, L1552-1561): an attack in a bought extra turn pays for it
    through the attack (3 Sanity, or refusing defence until the next turn)."""
    if options.extra_turns == "forbidden" or not turn_limits(attacker)["extra_turns"]:
        return []
    return [
        OptionSpec(
            "extra_turn",
            T("Turn", "Ход"),
            "choice",
            0,
            choices=tuple(EXTRA_TURN_WORDS.items()),
            help=T(
                "Up to two extra turns after the main one: the 1st costs 3 Sanity, the 2nd refusing every defence"
                " until your next turn. The GM checks the round rules.",
                "До двух дополнительных ходов после основного: 1-й стоит 3 Рассудка, 2-й — отказ от защиты до"
                " вашего следующего хода. Ограничения по раундам проверяет мастер.",
            ),
        )
    ]


#: the options the target chooses (asked of the target's seat at a shared table)
DEFENDER_OPTIONS = ("defence", "defence_luck", "detection")
#: the parameter a target notices a hidden attacker with (L1127)
DETECTION_PARAM = "perception"


def hide_roll_of(attacker) -> int:
    """The roll the attacker hid with (L1127: Body Control or an ability), as its Hidden
    condition records it (``roll``, or the sheet's ``magnitude``); 0 when none is written."""
    inst = next((x for x in attacker.conditions if x.get("id") == "hidden"), None) or {}
    for key in ("roll", "magnitude"):
        v = inst.get(key)
        if isinstance(v, int) and not isinstance(v, bool) and v > 0:
            return v
    return 0


def hiding_options(attacker) -> list[OptionSpec]:
    """An attack from hiding (L1127, L1652): on by default while the attacker is Hidden (a
    tracker passes it for a combatant it keeps hidden), with the roll it hid with."""
    return [
        OptionSpec(
            "from_hiding",
            T("From hiding", "Из скрытности"),
            "bool",
            bool(attacker.has_condition("hidden")),
            help=T(
                "The target must notice you first (Perception against your hiding roll); if it does not, its"
                " defence counts as failed. The attack reveals you.",
                "Цель сначала должна заметить вас (Восприятие против вашего броска скрытности); если не заметит,"
                " её защита считается проваленной. Атака раскрывает вас.",
            ),
        ),
        OptionSpec(
            "hide_roll",
            T("Hiding roll", "Бросок скрытности"),
            "int",
            hide_roll_of(attacker),
            min=0,
            max=200,
            help=T(
                "The total of the Body Control (or ability) roll you hid with; 0: only a failed Perception roll"
                " misses you.",
                "Итог броска Контроля тела (или способности), которым вы скрылись; 0: вас не заметит только"
                " проваленный бросок Восприятия.",
            ),
        ),
    ]


def _defender_options(target, defences: list) -> list[OptionSpec]:
    detect = [(DETECTION_PARAM, param_label(DETECTION_PARAM))] + fitting_choices(
        target, (DETECTION_PARAM,), "detection"
    )
    return [
        OptionSpec(
            "defence",
            T("Target's defence", "Защита цели"),
            "choice",
            defences[0][0],
            choices=tuple(defences),
            help=T(
                "The target's choice: the parameter or a fitting ability; a power defence or a dispel costs"
                " the Sanity shown even if it fails. A tie goes to the defender. A won parry restores 1 Sanity"
                " (Battle Rage).",
                "Выбор цели: параметр или подходящая способность; защита сверхспособностью или рассеивание"
                " стоят указанного Рассудка даже при неудаче. При равенстве побеждает защита. Успешное"
                " парирование восстанавливает 1 Рассудка (Боевой Раж).",
            ),
        ),
        luck_option(
            "defence_luck",
            T("Target's Luck", "Удача цели"),
            target,
            T("Luck the target adds to its defence roll.", "Удача, которую цель добавляет к броску защиты."),
        ),
        OptionSpec(
            "detection",
            T("Target notices with", "Цель замечает"),
            "choice",
            DETECTION_PARAM,
            choices=tuple(detect),
            help=T(
                "Against an attack from hiding: Perception or a fitting ability.",
                "Против атаки из скрытности: Восприятие или подходящая способность.",
            ),
        ),
    ]


def _label(arm: Arm, called: bool) -> dict[str, str]:
    if called:
        return T(f"{arm.label['en']}: called shot", f"{arm.label['ru']}: атака в часть тела")
    if arm.kind == "power" or arm.key == UNARMED:
        return dict(arm.label)
    word = KIND_WORDS[arm.kind]
    return T(f"{arm.label['en']} ({word['en']})", f"{arm.label['ru']} ({word['ru']})")


def _help(arm: Arm, called: bool) -> dict[str, str]:
    if arm.kind == "power":
        return T(
            "Rolls the superpower against the target's defence; costs its Sanity even on a fail. Damage = its base"
            " effect + the roll through its divider, less the armour.",
            "Бросок сверхспособности против защиты цели; Рассудок тратится и при провале. Урон = базовый эффект +"
            " бросок через делитель, минус Защита Брони.",
        )
    adds = arm.kind == "melee" or (arm.kind == "thrown" and arm.weapon.get("adds_strike_power", True))
    dmg = int(arm.weapon.get("damage", 0))
    en = f"Damage = {'Strike Power + ' if adds else ''}{dmg} (Weapon Damage) − the armour's Defence, at least 1."
    ru = f"Урон = {'Сила Удара + ' if adds else ''}{dmg} (Урон Оружия) − Защита Брони, не меньше 1."
    if called:
        en, ru = f"Spends the action; one die level lower. {en}", f"Тратит действие; на 1 уровень куба ниже. {ru}"
    return T(en, ru)


def find_arm(attacker, attack_id_: str) -> tuple[Arm, bool] | None:
    """The arm and whether it is a called shot, for an attack id (offered or not)."""
    for arm in arms_of(attacker):
        for called in (False, True):
            if attack_id(arm, called=called) == attack_id_ and not (called and arm.kind == "power"):
                return arm, called
        if attack_id_ == f"{IMMOBILISE}:{arm.key}" and holds(arm):
            return arm, False
    return None


def refusal(attacker, target, attack_id_: str, *, found: tuple[Arm, bool] | None = None) -> RuleError | None:
    """Why the rules forbid ``attack_id_`` now, for a player, or None (an id the system does not
    know at all is left to the contract's own "unknown attack" message)."""
    limits = turn_limits(attacker)
    if attacker.dead or not limits["attack"]:
        why = "; ".join(tr(r, "en") for r in limits["reasons"]) or "dead"
        why_ru = "; ".join(tr(r, "ru") for r in limits["reasons"]) or "смерть"
        return RuleError(
            "cannot_attack",
            T(f"No attacks are possible now ({why}).", f"Атаковать сейчас нельзя ({why_ru})."),
        )
    found = found or find_arm(attacker, attack_id_)
    why = unavailable(found[0]) if found else None
    if why is not None:  # the reason the attack list shows (``AttackSpec.unavailable``)
        name = found[0].label
        return RuleError(
            "no_ammo" if out_of_ammo(found[0]) else "attack_unavailable",
            T(f"{name['en']}: {why['en']}.", f"{name['ru']}: {why['ru']}."),
            attack=attack_id_,
        )
    return None


def attack_plan(c, arm: Arm, roll: str, *, luck: int, modifier: int, shift: int) -> LevelPlan:
    """The attack's level roll: a parameter (the sheet's attack-scoped conditions and armour
    penalties apply, L1599, L1383), a skill (its parameter's die + its level), a talent (its
    level's die + its parameter) or an ultimate (its talent's die + both, L1215); the aim bonus
    (L936) and the GM's modifier added."""
    kind, _, name = roll.partition(":")
    if name:
        a = c.ability(name)
        if a is None or a.get("kind") != kind:
            raise RuleError("unknown_check", T(f"No ability {name!r}.", f"Нет способности «{name}»."))
        base, level, flat, head = ability_roll(c, a)
        s, f, named = auto_modifiers(c, base, "attack")
        flat, named = flat + f, head + named
        lab = T(str(a["name"]), str(a["name"]))
    else:
        s, f, named = auto_modifiers(c, roll, "attack")
        level, flat, lab = c.value(roll), f, param_label(roll)
    if c.aim_bonus:
        flat += int(c.aim_bonus)
        named = named + [("aim", int(c.aim_bonus))]
    if modifier:
        flat += modifier
        named = named + [("bonus", modifier)]
    return LevelPlan(lab, level, flat, luck, s + shift, named)


def resistance_plan(target, param: str, *, options: GmOptions) -> LevelPlan:
    """The target's roll against a called shot's rider (Body Control for the legs, Fine Motor
    for the arms, L827, L833)."""
    return LevelPlan.of(plan(target, param, {}, options=options))
