"""The RET parameter tree (spec §2.1, §3.1): 3 pillars -> 6 aspects -> 12 leaves, with labels."""

from __future__ import annotations

from tabletop_widgets.core import T

TIER3 = [
    "education",
    "wits",
    "attention",
    "intuition",
    "inspiration",
    "charisma",
    "composure",
    "leadership",
    "physique",
    "endurance",
    "fine_motor",
    "body_control",
]
TIER2 = ["intellect", "perception", "empathy", "will", "strength", "agility"]
TIER1 = ["mind", "emotions", "body"]
PARAMS = TIER1 + TIER2 + TIER3
#: parent -> (child_a, child_b); every parent is the floor-average of its children (L49-52)
TREE = {
    "intellect": ("education", "wits"),
    "perception": ("attention", "intuition"),
    "empathy": ("inspiration", "charisma"),
    "will": ("composure", "leadership"),
    "strength": ("physique", "endurance"),
    "agility": ("fine_motor", "body_control"),
    "mind": ("intellect", "perception"),
    "emotions": ("empathy", "will"),
    "body": ("strength", "agility"),
}
PARENT = {child: parent for parent, kids in TREE.items() for child in kids}
#: tree order (for sheets and data): each pillar, then its aspects and their leaves
TREE_ORDER = [
    "mind",
    "intellect",
    "education",
    "wits",
    "perception",
    "attention",
    "intuition",
    "emotions",
    "empathy",
    "inspiration",
    "charisma",
    "will",
    "composure",
    "leadership",
    "body",
    "strength",
    "physique",
    "endurance",
    "agility",
    "fine_motor",
    "body_control",
]


def tier(node: str) -> int:
    return 1 if node in TIER1 else 2 if node in TIER2 else 3


def ancestors(node: str) -> list[str]:
    out = []
    while node in PARENT:
        node = PARENT[node]
        out.append(node)
    return out


def branch(node: str) -> list[str]:
    """The node and all its descendants (spec §2.1 "branch")."""
    out = [node]
    for kid in TREE.get(node, ()):
        out.extend(branch(kid))
    return out


def in_branch(param: str, root: str) -> bool:
    return param == root or root in ancestors(param)


LABELS = {
    "mind": T("Mind", "Разум"),
    "emotions": T("Emotions", "Эмоции"),
    "body": T("Body", "Тело"),
    "intellect": T("Intellect", "Интеллект"),
    "perception": T("Perception", "Восприятие"),
    "empathy": T("Empathy", "Эмпатия"),
    "will": T("Will", "Воля"),
    "strength": T("Strength", "Сила"),
    "agility": T("Agility", "Ловкость"),
    "education": T("Education", "Образование"),
    "wits": T("Wits", "Сообразительность"),
    "attention": T("Attention", "Внимание"),
    "intuition": T("Intuition", "Интуиция"),
    "inspiration": T("Inspiration", "Вдохновение"),
    "charisma": T("Charisma", "Харизма"),
    "composure": T("Composure", "Самообладание"),
    "leadership": T("Leadership", "Лидерство"),
    "physique": T("Physique", "Телосложение"),
    "endurance": T("Endurance", "Выносливость"),
    "fine_motor": T("Fine Motor", "Мелкая моторика"),
    "body_control": T("Body Control", "Контроль тела"),
}

INDICATOR_LABELS = {
    "level": T("Level", "Уровень"),
    "health_max": T("Health (max)", "Здоровье (макс.)"),
    "sanity_max": T("Sanity (max)", "Рассудок (макс.)"),
    "luck_max": T("Luck (max)", "Удача (макс.)"),
    "strike_power": T("Strike Power", "Сила Удара"),
    "speed": T("Speed", "Скорость"),
    "health": T("Health", "Здоровье"),
    "sanity": T("Sanity", "Рассудок"),
    "luck": T("Luck", "Удача"),
}


def label(node: str) -> dict:
    return LABELS.get(node) or INDICATOR_LABELS.get(node) or T(node, node)
