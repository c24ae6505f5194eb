"""The characteristics, secondary values, skills and kinds of creature of spec §3 (names and usual
characteristics from ``data/characteristics.json`` and ``data/skills.json``), the modifier formula and the
creation limits (§4)."""

from __future__ import annotations

from tabletop_widgets.core.i18n import T

from .data import rows, rows_by

_CHARS = rows_by("characteristics", "code")
CHARACTERISTICS = tuple(code for code, r in _CHARS.items() if r["kind"] == "primary")
CHAR_LABELS = {c: T(_CHARS[c]["en"], _CHARS[c]["ru"]) for c in CHARACTERISTICS}
#: the secondary values a check may use; ``hp`` checks the Health Units maximum (the table's ``hp_max``)
SECONDARIES = ("hp", "speed", "will", "reaction")
SECONDARY_LABELS = {
    s: T(_CHARS[row]["en"], _CHARS[row]["ru"]) for s, row in zip(SECONDARIES, ("hp_max", "speed", "will", "reaction"))
}

# §3.6: code -> (en, ru, usual characteristics)
_SKILL_ROWS = rows("skills")
BASIC_SKILLS = {r["code"]: (r["en"], r["ru"], tuple(r["characteristics"])) for r in _SKILL_ROWS if r["kind"] == "basic"}
EXPERT_SKILLS = {
    r["code"]: (r["en"], r["ru"], tuple(r["characteristics"])) for r in _SKILL_ROWS if r["kind"] == "expert"
}
SKILLS = {**BASIC_SKILLS, **EXPERT_SKILLS}


def skill_label(code: str) -> dict[str, str]:
    en, ru, _ = SKILLS[code]
    return T(en, ru)


ENTITY_TYPES = ("hero", "persona", "extra")
ENTITY_LABELS = {"hero": T("Hero", "Герой"), "persona": T("Persona", "Персона"), "extra": T("Extra", "Статист")}

CHAR_POINTS = 70  # L271
CREATION_MAX = 18  # L274
HERO_MAX = 20  # L274, L276
CREATION_XP = 10  # L268
REFUSED_ATTRIBUTE_XP = 5  # L263
TRICK_COST = 5  # L157


def mod(score: int) -> int:
    """Characteristic modifier, floor((score - 10) / 2) (L295; floor per L154, X1)."""
    return (score - 10) // 2


def signed(n: int) -> str:
    """A number with its sign, as a breakdown shows a bonus: ``+3``, ``-1``, ``+0``."""
    return f"+{n}" if n >= 0 else str(n)
