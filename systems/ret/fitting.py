"""Fitting abilities: the skills and talents a character may roll where the book names a parameter
"or a fitting ability" («или подходящей способности»): an attack (L794, L800-806), a defence
(L1043, L1054, L1063, L1094-1096), noticing a hidden attacker (L1127), a Sanity test (L590).

The book leaves "fitting" to the table; the reading here, one rule for every such roll:

* a skill or talent (not an ultimate, not a superpower: a power is its own attack or defence),
* based on one of the parameters the roll names, or on one of the parameters the book's weapon
  tables give the example abilities of the weapon's row (§8.7-§8.8: Swordmaster on Physique or
  Strength with a sword, L1274; Martial arts on Body Control or Physique bare-handed, L1270),
* whose category, when the sheet gives one, is of the roll's kind (an attack takes a combat
  ability that attacks, a defence one that defends; a social, analytic or support ability does
  not fight); an ability without a category fits by its parameter alone.

A defence (and noticing a hidden attacker) also takes an ability whose category says it is of
that kind, based on any parameter of the named parameter's branch (an Evasion marked "Combat:
defence" on Body Control dodges; a Keen eye marked "Detective / analytic" on Attention notices;
L397-400 put defence abilities on the second tier, the GM may choose otherwise).

Plain rules: no dice."""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from tabletop_widgets.core import T

from .params import in_branch

#: the categories (``data/ability_categories.json``) an ability may have to fit each kind of roll
ROLE_CATEGORIES = {
    "attack": ("combat_attack", "combat_both"),
    "defence": ("combat_defence", "combat_both"),
    "detection": ("analytic", "combat_defence", "combat_both"),
    "sanity": ("combat_defence", "combat_both", "support"),
}
#: the rolls whose abilities, marked with one of the roll's categories, fit anywhere in the named
#: parameters' branches
BRANCH_ROLES = ("defence", "detection")


def choice_id(a: Mapping[str, Any]) -> str:
    """The ability as a roll choice: ``"skill:Evasion"``, ``"talent:Iron wall"``."""
    return f"{a['kind']}:{a['name']}"


def choice_label(a: Mapping[str, Any]) -> dict[str, str]:
    """The ability's name with its kind, as a choice reads: ``Evasion (skill)``."""
    kind = {"skill": T("skill", "навык"), "talent": T("talent", "талант")}[a["kind"]]
    return T(f"{a['name']} ({kind['en']})", f"{a['name']} ({kind['ru']})")


def _category_fits(a: Mapping[str, Any], role: str) -> bool:
    cat = a.get("category")
    return not cat or cat in ROLE_CATEGORIES[role]


def _rollable(a: Mapping[str, Any]) -> bool:
    return a.get("kind") in ("skill", "talent") and not a.get("is_superpower") and bool(a.get("name"))


def fitting_abilities(c, params: Iterable[str], role: str) -> list[Mapping[str, Any]]:
    """The character's abilities that fit a ``role`` roll (``attack``, ``defence``,
    ``detection``, ``sanity``) made with one of ``params``, in sheet order."""
    params = tuple(params)
    out = []
    for a in c.abilities:
        if not _rollable(a) or not _category_fits(a, role):
            continue
        base = a.get("base_param")
        on_param = base in params
        in_defence_branch = (
            role in BRANCH_ROLES
            and a.get("category") in ROLE_CATEGORIES[role]
            and any(in_branch(str(base), p) for p in params)
        )
        if on_param or in_defence_branch:
            out.append(a)
    return out


def fitting_choices(c, params: Iterable[str], role: str) -> list[tuple[str, dict[str, str]]]:
    """``(choice id, label)`` of :func:`fitting_abilities`."""
    return [(choice_id(a), choice_label(a)) for a in fitting_abilities(c, params, role)]


def fits(c, ability_choice: str, params: Iterable[str], role: str) -> bool:
    """Whether ``ability_choice`` (``"skill:Name"``) names a fitting ability of ``c``."""
    return ability_choice in {cid for cid, _ in fitting_choices(c, params, role)}
