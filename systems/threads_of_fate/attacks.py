"""Threads of Fate's attacks (the attack contract of ``tabletop_widgets.core.attacks``).

What the fragment says about an attack (spec §6.5): d20 + Valor (melee, armed or unarmed) or
Marksmanship (ranged and thrown) against the target's Defense; every point over the Defense is 1
Damage (L350-352), minus the target's Durability (L347); a 20 on the die always costs at least 1 HP
(L114). The rating comes from the weapon on the sheet (its Damage bonus, L334-338), a combat skill
with 0 XP adds a Hindrance (L380), Advantages and Hindrances cancel and at most 2 count (L108-109).
The GM may call for a Contest: the defender rolls d20 in place of Base Defense (L150-151). A hero
or persona may buy a success before the roll with Threads (Lucky!, L189-191); a Martial artist
may use Secrets of mastery against the HP loss (L528-531).

The rolls and the Damage are the combat module's (``combat.resolve_attack``, ``combat.contest_attack``,
``combat.damage_taken``) and the Martial artist's move is ``attributes.secrets_of_mastery``: this module
lists the attacks, computes their exact odds from the same rules and words the outcome.

Hit zones, manoeuvres, range and cover are not in the fragment (L353, L359): the GM's bonus or
penalty and the Advantages and Hindrances stand for them.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core.attacks import AttackCondition, AttackOdds, AttackOutcome, AttackSpec, defeat_chance
from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.system import OptionSpec
from tabletop_widgets.dice.distribution import Distribution

from . import attributes, checks, combat
from .plan import combat_characteristics, drained_characteristic, net_of, parse_options, plan_check
from .traits import signed

#: the basic attack every character has, a fresh one too (L336, L399-400)
UNARMED = "unarmed"

#: a weapon's kind on the sheet -> (attack kind, the check it rolls)
WEAPON_CHECKS = {
    "melee": ("melee", "valor"),
    "unarmed": ("unarmed", "valor_unarmed"),
    "ranged": ("ranged", "marksmanship"),
    "bow": ("ranged", "marksmanship"),
    "thrown": ("ranged", "marksmanship"),
}

KIND_WORDS = {
    "melee": T("Melee", "Ближний бой"),
    "unarmed": T("Unarmed", "Рукопашный бой"),
    "ranged": T("Ranged", "Дистанционный бой"),
}

CHECK_WORDS = {
    "valor": T("Valor", "Доблесть"),
    "valor_unarmed": T("Valor", "Доблесть"),
    "marksmanship": T("Marksmanship", "Меткость"),
}

DAMAGE_KIND_LABELS = {
    "": T("ordinary", "обычные"),
    "poison": T("Poison", "Ядовитые"),
    "contaminating": T("Contaminating", "Загрязняющие"),
}

#: Lucky! Moves an attacker may declare before the roll (L189-191): the result bought, its Threads
BOUGHT_CHOICES = (
    ("", T("no", "нет")),
    ("success", T("minimal success (2 Threads)", "минимальный успех (2 Нити)")),
    (
        "critical_success",
        T("critical success: the die counts as 20 (4 Threads)", "критический успех: кубик = 20 (4 Нити)"),
    ),
)

#: a Martial artist's Secrets of mastery against this attack's HP loss (L528-531)
MASTERY_CHOICES = (
    ("", T("no", "нет")),
    ("thread", T("yes, for 1 Thread: the HP loss is ignored", "да, за 1 Нить: потеря ЕЗ игнорируется")),
    (
        "roll",
        T(
            "yes, without Threads: Valor vs 10 + the HP lost",
            "да, без Нитей: проверка Доблести против 10 + потерянные ЕЗ",
        ),
    ),
)


@dataclass(frozen=True)
class Weapon:
    """One way the attacker attacks: the basic unarmed strike or a weapon on the sheet.

    offset   the weapon's rating minus the rating the check reads (``valor`` is the first melee
             weapon's, ``marksmanship`` the first ranged one's): the check's bonus for this weapon
    """

    id: str
    name: str
    kind: str
    check_id: str
    rating: int
    offset: int
    at_hand: bool = True  # In use on the sheet, or built in (L512: built-in weapons take no hands)

    @property
    def characteristics(self) -> tuple[str, ...]:
        """The characteristics the check adds (L336, L338); one of them at 0 fails it (L363)."""
        return combat_characteristics(self.check_id)


# ------------------------------------------------------------------------------------------------
# Which attacks
# ------------------------------------------------------------------------------------------------
def _key(name: str, index: int, taken: set[str]) -> str:
    """A readable id part for a weapon: its name in lower case with ``_`` for spaces (Russian stays
    Russian), its place in the list when it has no name, ``~2`` for a repeated name."""
    key = re.sub(r"[^\w-]+", "_", name.strip().lower()).strip("_") or str(index)
    out, n = key, 2
    while out in taken:
        out, n = f"{key}~{n}", n + 1
    taken.add(out)
    return out


def _check_rating(attacker, check_id: str) -> int:
    return {"valor": attacker.valor, "valor_unarmed": attacker.valor_unarmed, "marksmanship": attacker.marksmanship}[
        check_id
    ]


def weapons_of(attacker) -> list[Weapon]:
    """The unarmed strike, then every weapon of the sheet (``weapons_list``), each with the rating the
    model derives for it (``Character.attacks``: skill + modifiers + its Damage bonus); one not at
    hand (Equipped unticked, and not built in) is listed too, to say why it cannot attack."""
    rows = list(attacker.attacks)
    out = [Weapon(UNARMED, "", "unarmed", "valor_unarmed", attacker.valor_unarmed, 0)]
    taken: set[str] = set()
    for i, (w, row) in enumerate(zip(attacker.weapons_list, rows[1:]), start=1):
        at_hand = bool(w.get("equipped", True)) or bool(w.get("built_in"))
        kind, check_id = WEAPON_CHECKS.get(w.get("kind", "melee"), ("melee", "valor"))
        wid = f"{kind}:{_key(str(w.get('name') or ''), i, taken)}"
        rating = int(row["rating"])
        offset = rating - _check_rating(attacker, check_id)
        out.append(Weapon(wid, str(w.get("name") or wid), kind, check_id, rating, offset, at_hand))
    return out


#: why a weapon put away cannot attack
NOT_AT_HAND = T(
    "Put away: tick In use on the sheet to attack with it.",
    "Убрано: отметьте «Используется» в листе, чтобы атаковать этим оружием.",
)


def find_weapon(attacker, attack_id: Any) -> Weapon | None:
    """The weapon of the attack ``attack_id`` if the attacker has it now, else None."""
    for w in weapons_of(attacker):
        if w.id == attack_id:
            return w
    return None


def _label(w: Weapon) -> dict:
    check = CHECK_WORDS[w.check_id]
    if w.id == UNARMED:
        return T(f"Unarmed strike ({check['en']})", f"Безоружный удар ({check['ru']})")
    kind = KIND_WORDS[w.kind]
    return T(f"{kind['en']}: {w.name} ({check['en']})", f"{kind['ru']}: {w.name} ({check['ru']})")


def _help(attacker, target, w: Weapon, *, options) -> dict:
    check = CHECK_WORDS[w.check_id]
    plan = plan_check(attacker, w.check_id, options=options)
    bonus = plan.bonus + w.offset
    defense = "?" if target.defense is None else target.defense
    dur = combat.durability_of(target, options=options)
    zero = (
        T(
            " With 0 XP in the skill the roll has a Hindrance.",
            " При 0 ОО в навыке бросок идёт с Помехой.",
        )
        if plan.auto_hindrance
        else T("", "")
    )
    if plan.drained:
        why = checks.drained_words(plan.drained_by)
        zero = T(f" {why['en']}: no hit, even on a 20.", f" {why['ru']}: попадания нет, даже на 20.")  # L363
    return T(
        f"d20 {signed(bonus)} ({check['en']}) against the target's Defense {defense}: each point over it "
        f"is 1 Damage, minus Durability {dur}; a 20 on the die always costs at least 1 HP."
        f"{zero['en']}",
        f"К20 {signed(bonus)} ({check['ru']}) против Защиты цели {defense}: каждая единица сверх неё — "
        f"1 Повреждение, минус Прочность {dur}; 20 на кубике всегда отнимает не меньше 1 ЕЗ."
        f"{zero['ru']}",
    )


def _roll_options() -> list[OptionSpec]:
    """What changes the attack roll: Advantages, Hindrances, the GM's bonus or penalty."""
    return [
        OptionSpec(
            "advantages",
            T("Advantages", "Преимущества"),
            "int",
            0,
            0,
            6,
            help=T(
                "One extra d20 each, the highest kept; they cancel Hindrances one for one and at most 2 count"
                ". Mutual aid: one per helper who succeeded.",
                "По дополнительному К20 за каждое, берётся больший; сокращаются с Помехами один к одному, "
                "действуют не больше 2. Взаимопомощь: по одному за каждого преуспевшего помощника.",
            ),
        ),
        OptionSpec(
            "hindrances",
            T("Hindrances", "Помехи"),
            "int",
            0,
            0,
            6,
            help=T(
                "One extra d20 each, the lowest kept; 0 XP in the combat skill adds one by itself.",
                "По дополнительному К20 за каждую, берётся меньший; 0 ОО в боевом навыке добавляет одну сам.",
            ),
        ),
        OptionSpec(
            "bonus",
            T("GM's bonus / penalty", "Бонус / штраф мастера"),
            "int",
            0,
            -30,
            30,
            help=T(
                "Added to the roll: cover, range, the situation (the book's manoeuvres are not in the fragment).",
                "Прибавляется к броску: укрытие, дистанция, обстановка (Маневры во фрагмент не вошли).",
            ),
            gm_only=True,
        ),
    ]


def _options(attacker, target) -> tuple[list[OptionSpec], tuple[str, ...]]:
    """Every option of an attack on ``target`` and the names of the defender's."""
    opts = _roll_options() + [
        OptionSpec(
            "damage_kind",
            T("Damage kind", "Вид Повреждений"),
            "choice",
            "",
            choices=tuple(DAMAGE_KIND_LABELS.items()),
            help=T(
                "Poison and Contaminating Damage meet immunity and resistance (a Combat robot).",
                "Ядовитые и Загрязняющие Повреждения встречают Иммунитет и Сопротивление (Боевой робот).",
            ),
        ),
        OptionSpec(
            "contest",
            T("Contest", "Состязание"),
            "bool",
            False,
            help=T(
                "The GM's call: the defender rolls d20 in place of Base Defense; a tie changes nothing.",
                "Решает мастер: защитник бросает К20 вместо Базовой защиты; при равенстве ничего не меняется.",
            ),
            gm_only=True,
        ),
    ]
    if attacker.entity_type != "extra":  # extras do not use Threads (L64)
        opts.append(
            OptionSpec(
                "bought",
                T("Lucky! (Threads before the roll)", "Повезло! (Нити до броска)"),
                "choice",
                "",
                choices=BOUGHT_CHOICES,
                help=T(
                    "Break Threads before the die is rolled: a minimal success (2; not when only a 20 succeeds) "
                    "or a critical success (4).",
                    "Оборвите Нити до броска: минимальный успех (2; нельзя, если преуспеть можно только на 20) "
                    "или Критический успех (4).",
                ),
            )
        )
    defender: tuple[str, ...] = ()
    if target.has_attribute("martial_arts") and target.martial_arts_active:
        opts.append(
            OptionSpec(
                "mastery",
                T("Defender: Secrets of mastery", "Защитник: Секреты мастерства"),
                "choice",
                "",
                choices=MASTERY_CHOICES,
                help=T(
                    "The Martial artist's Move, a Quick action, if the attack would cost HP: for 1 Thread the loss "
                    "is ignored; without Threads a Valor check against 10 + the HP lost, and on a failure the "
                    "Damage is taken and the defender falls.",
                    "Ход мастера Боевых искусств, Быстрое действие, если атака отнимает ЕЗ: за 1 Нить потеря "
                    "игнорируется; без Нитей проверка Доблести против 10 + потерянные ЕЗ, при провале защитник "
                    "получает Повреждения и падает.",
                ),
            )
        )
        defender = ("mastery",)
    return opts, defender


def attack_spec(attacker, target, weapon: Weapon, *, options) -> AttackSpec:
    """The attack with ``weapon`` on ``target``, with its options."""
    opts, defender = _options(attacker, target)
    return AttackSpec(
        weapon.id,
        _label(weapon),
        kind=weapon.kind,
        options=tuple(opts),
        defender_options=defender,
        help=_help(attacker, target, weapon, options=options),
        unavailable=None if weapon.at_hand else dict(NOT_AT_HAND),
    )


def attack_list(attacker, target, *, options) -> list[AttackSpec]:
    """Every attack ``attacker`` can make on ``target``: the unarmed strike (every character has it,
    L336) and one per weapon on the sheet (melee: Valor; ranged, bows and thrown: Marksmanship); a
    weapon put away is listed ``unavailable`` with the reason, never dropped."""
    return [attack_spec(attacker, target, w, options=options) for w in weapons_of(attacker)]


# ------------------------------------------------------------------------------------------------
# The plan of one attack with its options
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    weapon: Weapon
    check_options: Mapping[str, Any]  # for ``roll_check`` / ``resolve_attack``: Advantages, bonus, bought
    damage_kind: str | None
    contest: bool
    bought: str | None
    mastery: str
    drained_by: str | None = None  # a characteristic of the rating at 0: the attack fails by itself (L363)


def plan_attack(attacker, target, weapon: Weapon, chosen: Mapping[str, Any], *, options) -> Plan:
    """The attack with ``chosen`` options (checked against its ``OptionSpec``s already), refused with a
    ``RuleError`` when the rules forbid it now: the target's Defense not known yet, too few Threads
    for Lucky! (or a bought success when only a 20 succeeds, or when a characteristic at 0 fails the
    attack, L363), a Secrets of mastery the defender cannot pay. Nothing is rolled or changed."""
    bought = chosen.get("bought") or None
    check_options = {
        "advantages": chosen.get("advantages", 0),
        "hindrances": chosen.get("hindrances", 0),
        "bonus": chosen.get("bonus", 0) + weapon.offset,
    }
    if bought:
        check_options["bought"] = bought
    contest = bool(chosen.get("contest", False))
    combat.need_defense(target)
    drained = drained_characteristic(attacker, weapon.characteristics)  # L363
    if bought:
        # refuses as the roll would: extras, too few Threads, a bought success only a 20 reaches (L189-191)
        difficulty = 0 if contest else target.defense
        checks.check_distribution(attacker, weapon.check_id, options=options, difficulty=difficulty, **check_options)
    mastery = chosen.get("mastery") or ""
    if mastery == "thread":
        attributes.secrets_of_mastery(target, 0, options=options, with_threads=True)  # refuses without a Thread
    kind = chosen.get("damage_kind") or None
    return Plan(weapon, check_options, kind, contest, bought, mastery, drained)


# ------------------------------------------------------------------------------------------------
# Exact odds: the same rules as the roll, summed over every die
# ------------------------------------------------------------------------------------------------
def _attack_rolls(attacker, plan: Plan, *, options) -> list[tuple[Fraction, int | None, int | None]]:
    """(probability, kept die, total) of the attack roll (§5.4): the kept d20 of 1 + |net| dice, or
    the bought result (a minimal success has no die; a critical success's die is 20, L189-191)."""
    cp = plan_check(attacker, plan.weapon.check_id, options=options)
    o = parse_options(dict(plan.check_options))
    bonus = cp.bonus + o.bonus
    if plan.bought == "success":
        return [(Fraction(1), None, None)]
    if plan.bought == "critical_success":
        return [(Fraction(1), 20, 20 + bonus)]
    return [(p, x, x + bonus) for x, p in checks.kept_die_pmf(net_of(cp, o, options=options)).items()]


def _landings(target, plan: Plan, kept: int | None, total: int | None, *, options):
    """(probability, hit, raw Damage) of one attack roll against the Defense, or against each d20
    the defender may roll in a Contest (L150-151)."""
    if plan.bought == "success":  # the minimal success's Damage before Durability (A13)
        return [(Fraction(1), True, options.min_success_damage)]
    if plan.drained_by:
        return [(Fraction(1), False, 0)]  # L363: the check fails by itself, whatever the die
    if not plan.contest:
        hit = combat.attack_lands(kept, total, target.defense, options=options)
        return [(Fraction(1), hit, combat.minimal_hit(max(0, total - target.defense), options=options))]
    d_bonus = combat.contest_defense_bonus(target, options=options)
    out = []
    for d, q in checks.kept_die_pmf(0).items():
        hit = combat.contest_lands(kept, total, d + d_bonus, options=options)
        out.append((q, hit, combat.minimal_hit(max(0, total - d - d_bonus), options=options)))
    return out


def _after_mastery(target, plan: Plan, dmg: int, *, options) -> list[tuple[Fraction, int]]:
    """(probability, HP lost) once the defender's Secrets of mastery answered ``dmg`` (L529-531)."""
    if dmg <= 0 or not plan.mastery:
        return [(Fraction(1), dmg)]
    if plan.mastery == "thread":
        return [(Fraction(1), 0)]
    dc = attributes.secrets_no_thread_difficulty(dmg)
    p = checks.check_distribution(target, "valor_unarmed", options=options, difficulty=dc).p_pass
    return [(p, 0), (1 - p, dmg)]


def odds(system, attacker, target, plan: Plan, *, options) -> AttackOdds:
    """The exact odds of the attack: the chance it hits and the distribution of the HP the target
    loses (after Durability, immunity, resistance and the defender's Secrets of mastery)."""
    pmf: dict[int, Fraction] = {}
    p_hit = Fraction(0)
    for p, kept, total in _attack_rolls(attacker, plan, options=options):
        for q, hit, raw in _landings(target, plan, kept, total, options=options):
            if hit:
                p_hit += p * q
            dmg = combat.damage_taken(target, raw, kept, plan.damage_kind, options=options) if hit else 0
            for r, lost in _after_mastery(target, plan, dmg, options=options):
                pmf[lost] = pmf.get(lost, Fraction(0)) + p * q * r
    damage = Distribution(pmf, p_pass=p_hit, expression=plan.weapon.id, outcome="total")
    notes = [
        T(
            f"Defense {target.defense}, Durability {combat.durability_of(target, options=options)}; "
            "the GM decides what 0 HP or less means (the fragment has no rule).",
            f"Защита {target.defense}, Прочность {combat.durability_of(target, options=options)}; "
            "что значит 0 ЕЗ и меньше, решает мастер (правила во фрагменте нет).",
        )
    ]
    p_defeat = defeat_chance(system, target, damage, durability=False)
    return AttackOdds(plan.weapon.id, p_hit, damage, p_defeat, notes)


# ------------------------------------------------------------------------------------------------
# One roll
# ------------------------------------------------------------------------------------------------
NET_WORDS = {
    2: T(" (2 Advantages)", " (2 Преимущества)"),
    1: T(" (Advantage)", " (Преимущество)"),
    0: T("", ""),
    -1: T(" (Hindrance)", " (Помеха)"),
    -2: T(" (2 Hindrances)", " (2 Помехи)"),
}


def _roll_words(res) -> dict:
    """The attack roll as a player reads it: ``d20 [7, 15] (Hindrance) → 7 +5 = 12``, or the bought result."""
    if res.details.get("bought"):
        return dict(res.degree_label)
    d = res.details
    dice = ", ".join(map(str, d["dice"]))
    net = NET_WORDS[d["net"]]
    sum_up = f"{d['kept']} {signed(d['bonus'])} = {res.total}" if d["bonus"] else f"{d['kept']}"
    return T(f"d20 [{dice}]{net['en']} → {sum_up}", f"К20 [{dice}]{net['ru']} → {sum_up}")


def _against_words(target, plan: Plan, contest: dict | None) -> dict:
    if contest is None:
        return T(f"vs Defense {target.defense}", f"против Защиты {target.defense}")
    if contest["defense_total"] is None:
        return T("vs Defense (Contest)", "против Защиты (Состязание)")
    d = contest["defense_dice"][0]
    b = contest["defense_bonus"]
    return T(
        f"vs Defense d20 [{d}] {signed(b)} = {contest['defense_total']} (Contest)",
        f"против Защиты К20 [{d}] {signed(b)} = {contest['defense_total']} (Состязание)",
    )


def _verdict_words(target, plan: Plan, res, hit: bool, dmg: int, contest: dict | None, *, options) -> dict:
    if not hit:
        if plan.drained_by:
            why = checks.drained_words(plan.drained_by)
            return T(f"miss ({why['en']})", f"промах ({why['ru']})")  # L363
        if contest is not None and contest["winner"] == "tie":
            return T("a tie: nothing changes", "равенство: ничего не меняется")  # L151
        return T("miss", "промах")
    if plan.damage_kind and combat.target_immune(target, plan.damage_kind):
        kind = DAMAGE_KIND_LABELS[plan.damage_kind]
        return T(f"hit, immune to {kind['en']} Damage", f"попадание, Иммунитет: {kind['ru']} Повреждения")
    parts_en, parts_ru = [], []
    dur = combat.durability_of(target, options=options)
    if dur:
        parts_en.append(f"Durability {dur}")
        parts_ru.append(f"Прочность {dur}")
    if plan.damage_kind and combat.target_resists(target, plan.damage_kind):
        parts_en.append("resisted")
        parts_ru.append("Сопротивление")
    against = target.defense if contest is None else contest["defense_total"]
    if res.details.get("kept") == 20 and against is not None and res.total - against - dur < 1:
        parts_en.append("a 20 on the die: at least 1")  # only when the rule gave the Damage (L114)
        parts_ru.append("20 на кубике: не меньше 1")
    tail_en = f" ({', '.join(parts_en)})" if parts_en else ""
    tail_ru = f" ({', '.join(parts_ru)})" if parts_ru else ""
    if dmg == 0:
        return T(
            f"hit, no Damage: shield, armour or scratches{tail_en}",  # L359
            f"попадание без Повреждений: щит, доспех или царапины{tail_ru}",
        )
    return T(f"hit: {dmg} Damage{tail_en}", f"попадание: Повреждения {dmg}{tail_ru}")


def _mastery(target, plan: Plan, dmg: int, rng, *, options) -> tuple[int, dict, list, list, list]:
    """The defender's Secrets of mastery against ``dmg`` HP (``attributes.secrets_of_mastery``):
    (HP lost, words, target effects, dice, conditions)."""
    if dmg <= 0 or not plan.mastery:
        return dmg, T("", ""), [], [], []
    m = attributes.secrets_of_mastery(target, dmg, options=options, with_threads=plan.mastery == "thread", rng=rng)
    if plan.mastery == "thread":
        words = T(
            "; Secrets of mastery (1 Thread): the HP loss is ignored",
            "; Секреты мастерства (1 Нить): потеря ЕЗ игнорируется",
        )
        return 0, words, list(m["effects"]), [], []
    check = m["check"]
    dc = attributes.secrets_no_thread_difficulty(dmg)
    if m["ignored"]:
        words = T(
            f"; Secrets of mastery: Valor {check.total} vs {dc}, the HP loss is ignored",
            f"; Секреты мастерства: Доблесть {check.total} против {dc}, потеря ЕЗ игнорируется",
        )
        return 0, words, [], [check], []
    words = T(
        f"; Secrets of mastery: Valor {check.total} vs {dc} failed, the Damage is taken and the defender falls",
        f"; Секреты мастерства: провал проверки Доблести ({check.total} против {dc}), Повреждения получены, "
        "защитник падает",
    )
    fall = [] if "prone" in target.conditions else [AttackCondition("prone")]  # L531
    return m["hp_lost"], words, [], [check], fall


def resolve(attacker, target, spec: AttackSpec, plan: Plan, *, rng: random.Random, options) -> AttackOutcome:
    """Roll the attack once with ``rng`` (``combat.resolve_attack`` or ``combat.contest_attack``, then
    the defender's Secrets of mastery); neither character changes."""
    w = plan.weapon
    contest = None
    if plan.contest:
        contest = combat.contest_attack(
            attacker, target, w.check_id, options=options, rng=rng, damage_kind=plan.damage_kind, **plan.check_options
        )
        res, hit, dmg = contest["attack"], contest["hit"], contest["damage"]
    else:
        res = combat.resolve_attack(
            attacker, target, w.check_id, options=options, rng=rng, damage_kind=plan.damage_kind, **plan.check_options
        )
        hit, dmg = res.details["hit"], res.details["damage"]
    dice: list[Any] = [res]
    if contest is not None and contest["defense_total"] is not None:
        dice.append(_against_words(target, plan, contest))
    verdict = _verdict_words(target, plan, res, hit, dmg, contest, options=options)
    lost, mastery_words, target_effects, mastery_dice, conditions = _mastery(target, plan, dmg, rng, options=options)
    dice += mastery_dice
    roll, against = _roll_words(res), _against_words(target, plan, contest)
    text = {loc: f"{roll[loc]} {against[loc]}: {verdict[loc]}{mastery_words[loc]}" for loc in ("en", "ru")}
    details = {"check": w.check_id, "kept": res.details.get("kept"), "total": res.total, "damage_rolled": dmg}
    if contest is not None:
        details.update(defense_total=contest["defense_total"], winner=contest["winner"])
    return AttackOutcome(
        w.id,
        bool(hit),
        int(lost),
        label=dict(spec.label),
        text=text,
        dice=dice,
        attacker_effects=list(res.effects),
        target_effects=target_effects,
        damage_options={"durability": False},  # the Damage already had Durability and resistance taken off
        conditions=conditions,
        details=details,
    )
