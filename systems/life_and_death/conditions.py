"""The tracker's conditions catalogue (spec §6): wounds and states that last until removed, and
the round-by-round effects a GM sets (ongoing damage, regeneration, a spell's duration)."""

from __future__ import annotations

from typing import Any, Mapping

from tabletop_widgets.core import ConditionSpec, T


def until_removed(cid: str, label: tuple[str, str], effect: tuple[str, str], *, stacks: bool = False) -> ConditionSpec:
    """A condition the GM or a rule removes (a wound entry, a state)."""
    return ConditionSpec(cid, T(*label), T(*effect), unit="until_removed", stacks=stacks)


def per_round(
    cid: str, label: tuple[str, str], effect: tuple[str, str], *, duration: int | None, data: Mapping[str, Any] = {}
) -> ConditionSpec:
    """A condition counted in rounds at the end of its bearer's turn; ``duration=None``: the GM
    ends it. Those without a fixed duration stack (two spells, two bleeding wounds)."""
    return ConditionSpec(
        cid, T(*label), T(*effect), duration=duration, unit="rounds", ticks_at="end", stacks=duration is None, data=data
    )


WOUND_ENTRY = ("Wound entry.", "Травма.")

CONDITIONS = [
    ConditionSpec(
        "transforming",
        T("Transforming", "Трансформация"),
        T(  # L119
            "All damage taken is doubled until the character's next action.",
            "Весь получаемый урон удваивается до следующего действия персонажа.",
        ),
        duration=1,
        unit="turns",
        ticks_at="start",
    ),
    until_removed(
        "incapacitated",
        ("Incapacitated", "Недееспособность"),
        (
            "HP 0 or less: cannot act; the GM rules on death [DEFAULT].",
            "HP 0 или меньше: не действует; о смерти решает Мастер [по умолчанию].",
        ),
    ),
    until_removed("dead", ("Dead", "Смерть"), ("Decapitated or skull pierced.", "Голова отрублена или череп пробит.")),
    # L264, L268
    until_removed(
        "limb_broken",
        ("Limb broken", "Конечность сломана"),
        ("Wound entry; no mechanical effect in the text (GM).", "Травма; механики в тексте нет (Мастер)."),
        stacks=True,
    ),
    until_removed("limb_severed", ("Limb severed", "Конечность отрублена"), WOUND_ENTRY, stacks=True),  # L260
    until_removed("tail_severed", ("Tail severed", "Хвост отрублен"), WOUND_ENTRY),  # L262
    until_removed("face_lost", ("Lost ear/eye/nose", "Потеря уха/глаза/носа"), WOUND_ENTRY, stacks=True),  # L266
    until_removed(  # L268
        "skull_pierced_wound",
        ("Skull pierced (survived)", "Череп пробит (выжил)"),
        ("Undead or many-headed: wound entry.", "Нежить или многоглавый: травма."),
    ),
    until_removed(  # L264
        "head_severed",
        ("Head severed (undead)", "Голова отрублена (нежить)"),
        ("Undead survives decapitation: wound entry.", "Нежить переживает: травма."),
    ),
    per_round(  # L241
        "delayed_action",
        ("Holding an action", "Отложенное действие"),
        (
            "May act at any later moment of the round; lost at its end.",
            "Может действовать в любой момент раунда; пропадает в конце раунда.",
        ),
        duration=1,
    ),
    until_removed(  # L214
        "not_participating",
        ("Not participating", "Не участвует"),
        ("Takes no actions until joining the combat.", "Не действует, пока не вступит в бой."),
    ),
    per_round(  # L252
        "failed_coordination",
        ("Failed coordination", "Провал слаженности"),
        ("Does not attack in round 1.", "Не атакует в первом раунде."),
        duration=1,
    ),
    per_round(
        "ongoing_damage",
        ("Ongoing damage", "Продолжающийся урон"),
        (
            "GM-set per-turn damage of a spell or style: how much, its type, and when it comes.",
            "Урон каждый ход от заклинания или стиля: сколько, какого типа и когда, задаёт Мастер.",
        ),
        duration=None,
        data={"amount": 1, "damage_type": "physical", "when": "start"},
    ),
    per_round(  # L318
        "regeneration",
        ("Regeneration", "Регенерация"),
        (
            "GM-set per-turn healing, e.g. an accelerated-regeneration spell: how much, which health, and when it comes.",
            "Лечение каждый ход, например заклинание ускоренной регенерации: сколько, какое здоровье и когда, задаёт Мастер.",
        ),
        duration=None,
        data={"amount": 1, "pool": "hp", "when": "start"},
    ),
    per_round(  # L307
        "spell_active",
        ("Spell active", "Действует заклинание"),
        (
            "Lasts brightness rounds, or ends at once when it takes effect.",
            "Длится «яркость» раундов или кончается, как только подействует.",
        ),
        duration=None,
    ),
]

#: a condition id -> its catalogue data (what an instance's own ``data`` overrides)
CATALOGUE_DATA = {s.id: s.data for s in CONDITIONS}
