"""R.E.T.'s advancement menu (the contract of ``core/advancement.py``, spec §7.1): what a character
in play can buy now with development points, priced at the default options, and the plan of one
purchase, both by running the operations of :mod:`.advancement` on a probe of the character (so the
menu and the rules cannot disagree)."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core import OptionSpec, RuleError, T
from tabletop_widgets.core.advancement import AdvancePlan, AdvanceSpec, Resource
from tabletop_widgets.core.options import GmOptions

from .advancement import buy_ability, convert_ability, convert_flaw, raise_ability, raise_flaw, raise_parameter
from .params import PARAMS, TIER3, label
from .shapes import PC_MAX_LEVEL

DP = Resource("dp", T("Development points", "Очки развития"), T("DP", "ОР"))
DP_PARAMS = Resource(
    "dp_params", T("Parameter development points", "Очки развития параметров"), T("parameter DP", "ОР параметров")
)
DP_ABILITIES = Resource(
    "dp_abilities",
    T("Ability development points", "Очки развития способностей"),
    T("ability DP", "ОР способностей"),
)
#: the resources advancement spends under each costing scheme: one common pool (L300), or the
#: parameters' and the abilities' pools the GM fills separately (L315, L442)
RESOURCES = {"recommended": (DP,), "simplified": (DP_PARAMS, DP_ABILITIES)}
#: the price of a new ability the GM offers before a game (L1757): 5 to 7 DP, the GM's choice
NEW_ABILITY_PRICES = (5, 6, 7)
#: the simplified costing's price of a new ability, from the abilities' pool (L1757)
NEW_ABILITY_SIMPLE_PRICE = 3
_POOLS = ("dp", "dp_params", "dp_abilities")

G_PARAMS = T("Parameters", "Параметры")
G_ABILITIES = T("Skills and talents", "Навыки и таланты")
G_NEW = T("New abilities", "Новые способности")
G_FLAWS = T("Flaws", "Недостатки")
FLAW_WORD = T("Flaw", "Недостаток")
KIND_WORDS = {
    "skill": T("Skill", "Навык"),
    "talent": T("Talent", "Талант"),
    "ultimate": T("Ultimate", "Ультимативная"),
}


def resources(*, options: GmOptions) -> tuple[Resource, ...]:
    return RESOURCES["simplified" if options.costing == "simplified" else "recommended"]


def _gm(name: str, label: dict, kind: str, default: Any, **kw: Any) -> OptionSpec:
    return OptionSpec(name, label, kind, default, gm_only=True, **kw)


GM_LEAVE = _gm(
    "gm_leave",
    T("The GM allows it", "Мастер разрешает"),
    "bool",
    False,
    help=T("Only the GM may allow this (the book leaves it to the GM).", "Разрешить это может только мастер."),
)
D6_OPTION = _gm(
    "d6",
    T("d6 for the level (0: no roll)", "d6 на уровень (0 — без броска)"),
    "int",
    0,
    min=0,
    max=6,
    help=T(
        "The GM may offer a d6 roll for the starting level; enter the face rolled.",
        "Мастер может предложить бросок d6 на стартовый уровень; введите выпавшее значение.",
    ),
)
_BASE_CHOICES = (("", T("(the GM picks)", "(выбирает мастер)")),) + tuple((p, label(p)) for p in PARAMS)


def _menu_price(c, op, *, options: GmOptions) -> tuple[dict[str, int], str | None]:
    """The price of ``op`` (an operation above, run on a :class:`_Probe`) as ``{pool: DP}``,
    or the rules' refusal text (the limit reached, level 7 needed...)."""
    try:
        plan = _trial(c, op, options=options)
    except RuleError as err:
        return {}, err.message
    return dict(plan[0]), None


class _Probe:
    """A stand-in for a character that the operations above run on: it reads the character's
    values and keeps what the operation sets (``update``) instead of setting it, with pools deep
    enough for any one purchase. Cheap (no copy of the character), so the whole menu is priced
    by the operations themselves."""

    DEEP = 100  # more than any one purchase costs (7 at most)

    def __init__(self, character):
        self._character = character
        self.set: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        if name in self.set:
            return self.set[name]
        if name in _POOLS:
            return self.DEEP
        return getattr(self._character, name)

    def update(self, **values: Any) -> None:
        self.set.update(values)

    def ability(self, name: str) -> dict | None:
        return next((a for a in self.abilities if a.get("name") == name or a.get("id") == name), None)


def _trial(c, op, *, options: GmOptions) -> tuple[dict[str, int], dict[str, Any], dict]:
    """Run ``op`` on a :class:`_Probe` of ``c``: ``(cost, changes, log entry)``: what it spends
    from which pool, every other trait it sets (the spend log included), and its log entry."""
    probe = _Probe(c)
    entry = op(probe)
    changes = {name: value for name, value in probe.set.items() if name not in _POOLS}
    return {entry["pool"]: int(entry["cost"])}, changes, entry


def _blocked_by_pool(c, cost: Mapping[str, int]) -> dict[str, str] | None:
    for pool, amount in cost.items():
        have = int(getattr(c, pool))
        if amount > have:
            r = next(r for r in (DP, DP_PARAMS, DP_ABILITIES) if r.trait == pool)
            return T(
                f"Needs {r.price_text(amount, 'en')}; the character has {have}.",
                f"Нужно {r.price_text(amount, 'ru')}; у персонажа {have}.",
            )
    return None


def _spec(c, aid, lab, kind, op, *, options, opts=(), gm=(), help=None, group=None, blocked=None) -> AdvanceSpec:
    cost, refused = _menu_price(c, op, options=options)
    return AdvanceSpec(
        aid,
        lab,
        kind,
        cost,
        tuple(opts),
        tuple(gm),
        help,
        blocked or refused or _blocked_by_pool(c, cost),
        group,
    )


def _arrow(lab: Mapping[str, str], old: Any, new: Any) -> dict[str, str]:
    if isinstance(old, int) and old >= PC_MAX_LEVEL:  # the limit: nothing to raise to (L297)
        return T(f"{lab['en']} {old} (the limit)", f"{lab['ru']} {old} (предел)")
    return T(f"{lab['en']} {old} → {new}", f"{lab['ru']} {old} → {new}")


def advance_list(c, *, options: GmOptions) -> list[AdvanceSpec]:
    """Everything the book prices with development points (§7.1): +1 to a tier-III parameter
    (L278, the tree's costs L287-315) or to a skill, talent or ultimate (L442); a level-7 skill
    turned into a talent, or a level-7 talent upgraded (7 / 3 DP, the GM's leave, L426-436); a
    new ability the GM offers (5-7 DP / 3 ability DP, L1757); a flaw strengthened or turned
    into a talent (L1658). Level 7 is the limit (L285, L297)."""
    scheme = "simplified" if options.costing == "simplified" else "recommended"
    pay = (
        T("1 DP a level", "1 ОР за уровень")
        if scheme == "simplified"
        else T("raising from level L costs L DP", "повышение с уровня L стоит L ОР")
    )
    specs: list[AdvanceSpec] = []
    for leaf in TIER3:
        now = getattr(c, leaf)
        specs.append(
            _spec(
                c,
                f"raise:{leaf}",
                _arrow(label(leaf), now, now + 1),
                "raise",
                lambda t, leaf=leaf: raise_parameter(t, leaf, options=options),
                options=options,
                help=T(
                    f"The tree above follows by itself; {pay['en']}.",
                    f"Верхние уровни дерева пересчитываются сами; {pay['ru']}.",
                ),
                group=G_PARAMS,
            )
        )
    for a in c.abilities:
        kind, name = a.get("kind"), str(a.get("name"))
        if kind not in KIND_WORDS:
            continue
        lab = T(f"{KIND_WORDS[kind]['en']} {name}", f"{KIND_WORDS[kind]['ru']} «{name}»")
        specs.append(
            _spec(
                c,
                f"{kind}:{name}",
                _arrow(lab, a.get("level"), int(a.get("level") or 0) + 1),
                "raise",
                lambda t, name=name: raise_ability(t, name, options=options),
                options=options,
                help=T(
                    f"Abilities cost what parameters do; {pay['en']}.",
                    f"Способности стоят как параметры; {pay['ru']}.",
                ),
                group=G_ABILITIES,
            )
        )
    for a in c.abilities:
        if a.get("kind") not in ("skill", "talent"):
            continue
        specs.append(_conversion_spec(c, a, options=options))
    specs.append(_new_ability_spec(c, options=options))
    for f in c.flaws:
        specs.extend(_flaw_specs(c, f, options=options))
    return specs


def _conversion_spec(c, a: Mapping[str, Any], *, options: GmOptions) -> AdvanceSpec:
    name = str(a["name"])
    skill = a["kind"] == "skill"
    lab = (
        T(f"Skill {name} → a talent", f"Навык «{name}» → талант")
        if skill
        else T(f"Talent {name} → a stronger talent", f"Талант «{name}» → более сильный талант")
    )
    return _spec(
        c,
        f"convert:{name}",
        lab,
        "other",
        lambda t: convert_ability(t, name, f"{name} +", options=options),
        options=options,
        opts=(
            OptionSpec("new_name", T("New talent's name", "Название нового таланта"), "text", ""),
            GM_LEAVE,
            D6_OPTION,
        ),
        gm=("gm_leave", "d6"),
        help=T(
            "A level-7 ability becomes a talent of level 3 (or by the GM's d6: 1-2 → 3, 3-4 → 4, 5-6 → 5), "
            "if the GM allows.",
            "Способность 7-го уровня становится талантом 3-го уровня (или по d6 мастера: 1-2 → 3, 3-4 → 4, "
            "5-6 → 5), если мастер разрешает.",
        ),
        group=G_ABILITIES,
    )


def _new_ability_spec(c, *, options: GmOptions) -> AdvanceSpec:
    simplified = options.costing == "simplified"
    opts = [
        OptionSpec("name", T("Name", "Название"), "text", ""),
        OptionSpec(
            "kind",
            T("Kind", "Вид"),
            "choice",
            "skill",
            choices=(("skill", KIND_WORDS["skill"]), ("talent", KIND_WORDS["talent"])),
        ),
        _gm("base_param", T("Base parameter", "Основа"), "choice", "", choices=_BASE_CHOICES),
    ]
    gm = ["base_param", "gm_offer", "d6", "nascent"]
    if not simplified:
        opts.append(
            _gm(
                "price",
                T("Price (DP)", "Цена (ОР)"),
                "choice",
                NEW_ABILITY_PRICES[0],
                choices=tuple((p, T(f"{p} DP", f"{p} ОР")) for p in NEW_ABILITY_PRICES),
            )
        )
        gm.insert(1, "price")
    opts += [
        _gm(
            "gm_offer",
            T("Offered by the GM", "Предложено мастером"),
            "bool",
            False,
            help=T(
                "The GM offers abilities to buy before a game.",
                "Способности для покупки предлагает мастер перед игрой.",
            ),
        ),
        D6_OPTION,
        _gm("nascent", T("Nascent talent (level 1)", "Зарождающийся талант (1-й уровень)"), "bool", False),
    ]
    price = (
        T(f"{NEW_ABILITY_SIMPLE_PRICE} ability DP", f"{NEW_ABILITY_SIMPLE_PRICE} ОР способностей")
        if simplified
        else T("5-7 DP, the GM sets the price", "5-7 ОР, цену назначает мастер")
    )
    return _spec(
        c,
        "learn:ability",
        T("A new skill or talent", "Новый навык или талант"),
        "learn",
        lambda t: buy_ability(t, "?", "skill", "education", NEW_ABILITY_PRICES[0], options=options),
        options=options,
        opts=opts,
        gm=gm,
        help=T(
            f"When the GM offers one before a game: {price['en']}. A new skill starts at level 1 "
            "(or by the GM's d6), a new talent at 3 (a nascent one at 1).",
            f"Когда мастер предлагает перед игрой: {price['ru']}. Новый навык начинается с 1-го уровня "
            "(или по d6 мастера), новый талант — с 3-го (зарождающийся — с 1-го).",
        ),
        group=G_NEW,
    )


def _flaw_specs(c, f: Mapping[str, Any], *, options: GmOptions) -> list[AdvanceSpec]:
    name = str(f.get("name"))
    level = int(f.get("level", 1))
    lab = T(f"Flaw {name}", f"Недостаток «{name}»")
    return [
        _spec(
            c,
            f"flaw:{name}",
            _arrow(lab, level, level + 1),
            "raise",
            lambda t: raise_flaw(t, name, options=options),
            options=options,
            help=T(
                "A flaw is a skill: raising it makes its checks easier.",
                "Недостаток — это навык: его повышение облегчает проверки недостатка.",
            ),
            group=G_FLAWS,
        ),
        _spec(
            c,
            f"flaw_talent:{name}",
            T(f"Flaw {name} → a talent", f"Недостаток «{name}» → талант"),
            "other",
            lambda t: convert_flaw(t, name, f"{name} +", str(f.get("base_param") or "composure"), options=options),
            options=options,
            opts=(
                OptionSpec("new_name", T("New talent's name", "Название нового таланта"), "text", ""),
                _gm(
                    "base_param",
                    T("Base parameter", "Основа"),
                    "choice",
                    str(f.get("base_param") or "composure"),
                    choices=_BASE_CHOICES[1:],
                ),
            ),
            gm=("base_param",),
            help=T(
                "A flaw turned into a useful talent of level 3; priced as a skill becoming a talent.",
                "Недостаток превращается в полезный талант 3-го уровня; цена — как у превращения навыка в талант.",
            ),
            group=G_FLAWS,
        ),
    ]


def plan_advance(c, advance_id: str, opts: Mapping[str, Any], *, options: GmOptions) -> AdvancePlan:
    """What ``advance_id`` with ``opts`` (checked, defaults filled) would do to ``c``, by the
    operations above on a copy; a :class:`RuleError` when the rules forbid it."""
    kind, _, target = str(advance_id).partition(":")
    if kind == "raise":
        op = lambda t: raise_parameter(t, target, options=options)  # noqa: E731
    elif kind in KIND_WORDS:
        op = lambda t: raise_ability(t, target, options=options)  # noqa: E731
    elif kind == "convert":
        _need_leave(opts, T("turning a level-7 ability into a talent", "превращение способности 7-го уровня в талант"))
        new_name = _new_name(opts, target)
        op = lambda t: convert_ability(t, target, new_name, d6=int(opts.get("d6") or 0) or None, options=options)  # noqa: E731
    elif kind == "learn":
        if not opts.get("gm_offer"):
            raise RuleError(
                "needs_gm_offer",
                T(
                    "New abilities are bought when the GM offers one before a game: ask the GM.",
                    "Новую способность можно купить, когда её предлагает мастер перед игрой: попросите мастера.",
                ),
            )
        op = lambda t: buy_ability(  # noqa: E731
            t,
            str(opts.get("name") or "").strip(),
            str(opts.get("kind")),
            str(opts.get("base_param") or ""),
            int(opts.get("price") or NEW_ABILITY_SIMPLE_PRICE),
            d6=int(opts.get("d6") or 0) or None,
            nascent=bool(opts.get("nascent")),
            options=options,
        )
    elif kind == "flaw":
        op = lambda t: raise_flaw(t, target, options=options)  # noqa: E731
    elif kind == "flaw_talent":
        new_name = _new_name(opts, target)
        op = lambda t: convert_flaw(t, target, new_name, str(opts.get("base_param")), options=options)  # noqa: E731
    else:  # pragma: no cover - advance_spec refuses ids not offered
        raise RuleError(
            "unknown_advance", T(f"Unknown advance {advance_id!r}.", f"Неизвестное развитие «{advance_id}».")
        )
    cost, changes, entry = _trial(c, op, options=options)
    if kind == "learn":
        source = (str(opts.get("kind")), entry["target"])
    elif kind == "convert":
        source = (str((c.ability(target) or {}).get("kind")), target)
    else:
        source = ("flaw", target)
    return AdvancePlan(advance_id, cost, changes, _plan_text(kind, entry, cost, source))


def _need_leave(opts: Mapping[str, Any], what: Mapping[str, str]) -> None:
    if not opts.get("gm_leave"):
        raise RuleError(
            "needs_gm_leave",
            T(
                f"Only the GM may allow {what['en']}: ask the GM.",
                f"{what['ru'][:1].upper()}{what['ru'][1:]} возможно только с разрешения мастера: попросите мастера.",
            ),
        )


def _new_name(opts: Mapping[str, Any], old: str) -> str:
    name = str(opts.get("new_name") or "").strip()
    if not name:
        raise RuleError("no_name", T("Name the new talent.", "Назовите новый талант."))
    if name == old:
        raise RuleError(
            "same_name",
            T("The new talent needs a name of its own.", "Новому таланту нужно своё название."),
        )
    return name


def _plan_text(kind: str, entry: Mapping[str, Any], cost: Mapping[str, int], source: tuple[str, str]) -> dict[str, str]:
    """One line a player reads: what changes, from what to what, for how much. ``source``: the
    kind and name of what a new ability comes from (``("skill", "Lockpicking")``), or of the new
    ability itself."""
    ((pool, amount),) = cost.items()
    r = next(r for r in (DP, DP_PARAMS, DP_ABILITIES) if r.trait == pool)
    price = T(f" for {r.price_text(amount, 'en')}", f" за {r.price_text(amount, 'ru')}")
    target, old, new = entry["target"], entry["from"], entry["to"]
    if kind == "raise":
        lab = label(target)
        return T(f"{lab['en']} {old} → {new}{price['en']}", f"{lab['ru']} {old} → {new}{price['ru']}")
    if kind in KIND_WORDS or kind == "flaw":
        word = KIND_WORDS.get(kind) or FLAW_WORD
        return T(
            f"{word['en']} {target} {old} → {new}{price['en']}",
            f"{word['ru']} «{target}» {old} → {new}{price['ru']}",
        )
    if kind == "learn":
        word = KIND_WORDS[source[0]]
        return T(
            f"New {word['en'].lower()} {target} at level {new}{price['en']}",
            f"{word['ru']} «{target}» {new}-го уровня{price['ru']}",
        )
    word = KIND_WORDS.get(source[0]) or FLAW_WORD
    return T(
        f"{word['en']} {source[1]} → talent {target} at level {new}{price['en']}",
        f"{word['ru']} «{source[1]}» → талант «{target}» {new}-го уровня{price['ru']}",
    )


def award_changes(c, resource: str, amount: int) -> dict[str, Any]:
    """An award of development points (the GM's, after a session or an arc, L278) added to its
    pool and written in the spend log as a negative cost, so the log accounts for every point."""
    have = int(getattr(c, resource))
    entry = {"target": "award", "from": have, "to": have + amount, "cost": -amount, "pool": resource}
    return {resource: have + amount, "dp_log": list(c.dp_log) + [entry]}
