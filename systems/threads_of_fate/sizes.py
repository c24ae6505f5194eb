"""Size classes (spec §3.5): the cells the fragment gives (``data/sizes.json``), the campaign size table
the GM completes (X6: the book's table is missing), and the rules that read a size."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.problems import RuleError

from .data import rows, rows_by

_ROWS = rows_by("sizes", "code")
SIZES = tuple(_ROWS)
SIZE_LABELS = {s: T(r["en"], r["ru"]) for s, r in _ROWS.items()}
# §3.5: only the cells recoverable from the fragment. None = "needs a GM value". signed SBP: + for large.
SIZE_SBP: dict[str, int | None] = {s: r["sbp"] for s, r in _ROWS.items()}
SIZE_HP_MULT: dict[str, int | None] = {s: r["hp_multiplier"] for s, r in _ROWS.items()}
SIZE_MEDIUM_COUNT: dict[str, int | None] = {s: r["medium_count"] for s, r in _ROWS.items()}  # L310

SIZE_TABLE_KEYS = ("hp_multiplier", "sbp")


def size_values(size: str, *, options) -> tuple[int | None, int | None]:
    """(hp_multiplier, sbp) of a size class: the campaign table (GM-entered once per size, X6) over the
    cells the fragment gives (§3.5)."""
    row = (options.size_table or {}).get(size) or {}
    hm = row.get("hp_multiplier")
    sb = row.get("sbp")
    return (hm if hm is not None else SIZE_HP_MULT.get(size), sb if sb is not None else SIZE_SBP.get(size))


def _missing(hm, sbp) -> list[str]:
    return [k for k, v in (("hp_multiplier", hm), ("sbp", sbp)) if v is None]


def size_table(*, options) -> list[dict[str, Any]]:
    """Every size class with its HP multiplier and size bonus/penalty: the GM's campaign values over the
    cells the fragment gives; ``gm_entered`` marks the GM's cells, ``missing`` what is still unknown."""
    table = options.size_table or {}
    out = []
    for r in rows("sizes"):
        gm = table.get(r["code"]) or {}
        hm, sbp = size_values(r["code"], options=options)
        out.append(
            {
                **r,
                "hp_multiplier": hm,
                "sbp": sbp,
                "base_defense": None if sbp is None else 10 - sbp,
                "gm_entered": sorted(k for k in SIZE_TABLE_KEYS if gm.get(k) is not None),
                "missing": _missing(hm, sbp),
            }
        )
    return out


def merged_size_table(current: Mapping[str, Any] | None, table: Mapping[str, Mapping[str, int]]) -> dict:
    """The GM's new values merged over a campaign size table (checked by the system's options)."""
    merged = {k: dict(v) for k, v in (current or {}).items()}
    if not isinstance(table, Mapping):
        raise ValueError("threads_of_fate: size_table must be a mapping / size_table: нужен словарь")
    for size, row in table.items():
        merged[size] = {**merged.get(size, {}), **(dict(row) if isinstance(row, Mapping) else {"?": row})}
    return merged


def size_choice_notes(character, size: str, *, options) -> tuple[list[str], list[dict]]:
    """(missing values, notes) once ``character`` has picked ``size``: what the campaign table still lacks
    and whether a hero needs the GM's approval (L303)."""
    missing = _missing(*size_values(size, options=options))
    notes = []
    if missing:
        lab = SIZE_LABELS[size]
        notes.append(
            T(
                f"the campaign size table has no {', '.join(missing)} for {lab['en']}: the GM enters it",
                f"в таблице размеров кампании нет {', '.join(missing)} для размера «{lab['ru']}»: вводит мастер",
            )
        )
    if character.entity_type == "hero" and size != "medium" and not character.gm_approved_size:
        notes.append(T("a hero of this size needs the GM's approval", "герою такого размера нужно согласие мастера"))
    return missing, notes


def check_size(size: str) -> None:
    if size not in SIZES:
        raise RuleError(
            "bad_size",
            T(f"size must be one of {', '.join(SIZES)}", f"размер должен быть одним из: {', '.join(SIZES)}"),
        )


def group_stealth_penalty(helped_sizes: list[str], sbp_of=None) -> int:
    """-1 per helped creature, minus the positive SBP of larger ones (L403)."""
    sbp_of = sbp_of or SIZE_SBP
    p = 0
    for size in helped_sizes:
        s = sbp_of.get(size)
        if s is None:
            raise RuleError(
                "needs_gm_value", T(f"size {size} needs a GM-entered SBP", f"для размера {size} нужен БШР от мастера")
            )
        p -= 1 + max(0, s)
    return p


def grapple_modifier(grappler_size: str, target_size: str, sbp_of=None) -> int:
    """[INFERRED] from L307: SBP(grappler) - SBP(target)."""
    sbp_of = sbp_of or SIZE_SBP
    a, b = sbp_of.get(grappler_size), sbp_of.get(target_size)
    if a is None or b is None:
        raise RuleError(
            "needs_gm_value", T("this size needs a GM-entered SBP", "для этого размера нужен БШР от мастера")
        )
    return a - b
