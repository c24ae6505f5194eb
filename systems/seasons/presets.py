"""The named checks of «Времена Года» (spec §5.11, ``data/checks.json``) and the generic
``"<attribute>+<skill>"`` check (spec §5.13): what a check id means."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Mapping

from tabletop_widgets.core import RuleError, T
from tabletop_widgets.core.i18n import tr

from .data import ATTRIBUTES, SKILLS, TABLES, label, labels


@dataclass(frozen=True)
class Preset:
    """One named check of spec §5.11 (row ``n``), or a generic attribute+skill pair (n = 0)."""

    id: str
    label: Mapping[str, str]
    attribute: str | None = None
    skill: str | None = None
    opposition: str = "difficulty"
    duration: str = "normal"
    gear: str | None = None
    alt_attributes: tuple[str, ...] = ()
    alt_opposition: str | None = None
    armour: bool = False
    armour_piercing: bool = False
    special: str | None = None
    attack: str | None = None
    may_contest: bool = False
    line: int | None = None
    n: int = 0


@cache
def presets() -> Mapping[str, Preset]:
    """The named checks by id, in the table's order (read-only)."""
    out = {}
    for r in TABLES.rows("checks"):
        out[r["id"]] = Preset(
            id=r["id"],
            label=T(r["en"], r["ru"]),
            attribute=r.get("attribute"),
            skill=r.get("skill"),
            opposition=r.get("opposition", "difficulty"),
            duration=r.get("duration", "normal"),
            gear=r.get("gear"),
            alt_attributes=tuple(r.get("alt_attributes", ())),
            alt_opposition=r.get("alt_opposition"),
            armour=bool(r.get("armour")),
            armour_piercing=bool(r.get("armour_piercing")),
            special=r.get("special"),
            attack=r.get("attack"),
            may_contest=bool(r.get("may_contest")),
            line=r.get("line"),
            n=r["n"],
        )
    return MappingProxyType(out)


def generic_id(attribute: str, skill: str) -> str:
    return f"{attribute}+{skill}"


def check_id_of(name: str) -> str:
    """A check id from what a player types: the id itself, or the Russian (or English) names of
    the attribute and the skill (``Сообразительность+Расследование``, ``сообразительность+расследование``; a space
    in a name may be typed as ``_``), or a named check's Russian title."""
    if name in presets():
        return name
    words = {}
    for key, lab in labels().items():
        for text in lab.values():
            words.setdefault(text.lower().replace(" ", "_"), key)
    parts = name.split("+")
    ids = [p if p in words.values() else words.get(p.lower().replace(" ", "_"), p) for p in parts]
    if len(ids) == 2:
        return "+".join(ids)
    titles = {tr(p.label, loc).lower().replace(" ", "_"): p.id for p in presets().values() for loc in ("ru", "en")}
    return titles.get(ids[0].lower().replace(" ", "_"), ids[0])


def resolve_preset(check_id: str) -> Preset:
    """The preset for a check id; ``"<attribute>+<skill>"`` ids are built on the fly (spec §5.13)."""
    if not isinstance(check_id, str):
        raise ValueError(f"check id must be a string, not {check_id!r}")
    p = presets().get(check_id)
    if p is not None:
        return p
    attr, sep, skill = check_id.partition("+")
    if sep and attr in ATTRIBUTES and skill in SKILLS:
        a, s = label(attr), label(skill)
        return Preset(
            id=check_id, label=T(f"{a['en']} + {s['en']}", f"{a['ru']} + {s['ru']}"), attribute=attr, skill=skill
        )
    raise RuleError(
        "unknown_check",
        T(
            f"seasons: no check named {check_id!r} (use '<attribute>+<skill>' or a preset id)",
            f"нет проверки «{check_id}»: напишите «атрибут+навык», например «Сообразительность+Расследование», "
            f"или название проверки",
        ),
        check_id=check_id,
    )


__all__ = ["Preset", "check_id_of", "generic_id", "presets", "resolve_preset"]
