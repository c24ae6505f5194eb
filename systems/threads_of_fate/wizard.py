"""The creation wizard of Threads of Fate (spec §4.1): the book's steps in its order, with the budgets.

The fragment first has the player picture the hero (L249-250), then share 70 characteristic points
(L271-279), then, "after the primary and secondary characteristics are determined" (L262), pick 2
Attributes (or refuse them for XP), 2 Tricks, 0-2 Flaws, a Facet per Attribute, 0-2 Bonds, and share
10 XP among the skills (L263-268). The Facets step is there only for a hero with Attributes, and the
skills step lists the Expert skills only when the hero has access to them.
"""

from __future__ import annotations

from tabletop_widgets.core.i18n import T
from tabletop_widgets.core.wizard import Budget, WizardStep
from tabletop_widgets.core.wording import en_n, ru_n
from .traits import BASIC_SKILLS, CHARACTERISTICS, CREATION_MAX, EXPERT_SKILLS

ATTRIBUTE_PICKS = 2  # L263
TRICK_PICKS = 2  # L264


def budgets(ch, *, options) -> dict[str, Budget]:
    """The creation budgets as they stand: characteristic points (L271), skill XP (L263, L268) and
    the Attribute and Trick picks (L263-264)."""
    return {
        "points": Budget(T("Characteristic points", "Очки характеристик"), ch.char_points_spent, options.char_points),
        "xp": Budget(T("XP for skills", "ОО на Навыки"), ch.skill_xp_spent, ch.creation_xp),
        "attributes": Budget(T("Attribute picks", "Выбор Атрибутов"), len(ch.attributes), ATTRIBUTE_PICKS),
        "tricks": Budget(T("Trick picks", "Выбор Трюков"), len(ch.tricks), TRICK_PICKS),
    }


def steps(ch, *, options) -> list[WizardStep]:
    """The hero, the characteristics, Attributes, Tricks and Flaws; then :func:`_later_steps`."""
    points = options.char_points
    out = [
        WizardStep(
            "concept",
            T("Who is your hero", "Кто ваш герой"),
            T(
                "Picture your hero: where they come from, what they love and hate, friends and foes, family, "
                "what they are good and bad at, age, livelihood and, of course, the name. A paragraph is enough; "
                "the rest comes out in play. Heroes are Medium; Tiny, Small or Large only with the GM's agreement.",
                "Представьте героя: откуда он, каков характер, что любит и ненавидит, друзья и враги, семья, "
                "в чем хорош и в чем нет, возраст, чем живёт и, конечно, как его зовут. Хватит абзаца — остальное "
                "раскроется в игре. Герои — Средние; Крошечный, Маленький или Большой — только по договорённости "
                "с мастером.",
            ),  # L249-250, L303
            ("name", "concept", "size"),
        ),
        WizardStep(
            "characteristics",
            T("Characteristics", "Характеристики"),
            T(
                f"Share {points} characteristic points among the six characteristics: one point is one point "
                f"of score, each from 1 to {CREATION_MAX} for now. Choose what your hero is good at and what "
                "not; Health, Speed, Will and Reaction follow from these.",
                f"Распределите {ru_n(points, 'очко', 'очка', 'очков')} характеристик между шестью характеристиками: одно очко — одна "
                f"единица значения, каждая пока от 1 до {CREATION_MAX}. Решите, в чем герой силён, а в чем нет; "
                "Здоровье, Скорость, Воля и Реакция следуют из них.",
            ),  # L271-279, L312-325
            CHARACTERISTICS + ("char_points_spent",),
            ("points",),
        ),
        WizardStep(
            "attributes",
            T("Attributes", "Атрибуты"),
            T(
                f"Pick {ATTRIBUTE_PICKS} Attributes, the talents that set your hero apart; some open Expert "
                "skills. You may refuse one for 5 extra XP for skills, or both for 10 in all.",
                f"Выберите {ru_n(ATTRIBUTE_PICKS, 'Атрибут', 'Атрибута', 'Атрибутов')} — таланты, которыми герой выделяется; некоторые открывают "
                "Экспертные навыки. Можно отказаться от одного за 5 дополнительных ОО на Навыки или от обоих "
                "за 10 в сумме.",
            ),  # L263
            ("attributes",),
            ("attributes", "xp"),
        ),
        WizardStep(
            "tricks",
            T("Tricks", "Трюки"),
            T(
                f"Pick {TRICK_PICKS} Tricks: knacks that make your hero's life easier. In play a new Trick costs "
                "5 XP; the GM says whether a Trick opens an Expert skill.",
                f"Выберите {ru_n(TRICK_PICKS, 'Трюк', 'Трюка', 'Трюков')} — ловкие приёмы, облегчающие герою жизнь. В игре новый Трюк стоит "
                "5 ОО; открывает ли Трюк Экспертный навык, решает мастер.",
            ),  # L264, L157
            ("tricks",),
            ("tricks",),
        ),
        WizardStep(
            "flaws",
            T("Flaws", "Недостатки"),
            T(
                "Pick up to 2 Flaws, your hero's weaknesses and passions. Each time one really complicates "
                "the hero's life, the hero gains a Thread of Fate. Better not the same as another hero's.",
                "Выберите до 2 Недостатков — слабости и страсти героя. Каждый раз, когда Недостаток всерьёз "
                "осложняет герою жизнь, к нему протягивается Нить Судьбы. Лучше не повторять чужие.",
            ),  # L265, L215-217
            ("flaws",),
        ),
    ]
    return out + _later_steps(ch)


def _later_steps(ch) -> list[WizardStep]:
    """Facets (only with Attributes), Bonds, skills (the Expert ones the hero may use) and the last look."""
    out = []
    n = len(ch.attributes)
    if n:
        out.append(
            WizardStep(
                "facets",
                T("Facets", "Грани"),
                T(
                    f"Pick {en_n(n, 'Facet', 'Facets')}, one per Attribute: how your hero stands in the world, "
                    "with its good side (Heads) and its bad side (Tails).",
                    f"Выберите {ru_n(n, 'Грань', 'Грани', 'Граней')}, по одной на Атрибут: каким героя видит мир, "
                    "с хорошей стороной (Орёл) и плохой (Решка).",
                ),  # L266, L197, L207
                ("facets",),
            )
        )
    skills = tuple(BASIC_SKILLS) + tuple(s for s in EXPERT_SKILLS if ch.has_access(s))
    out += [
        WizardStep(
            "bonds",
            T("Bonds", "Узы"),
            T(
                "Pick up to 2 Bonds: what your hero believes in deep down.",
                "Выберите до 2 Уз — во что герой верит в глубине души.",
            ),  # L258, L267
            ("bonds",),
        ),
        WizardStep(
            "skills",
            T("Skills", "Навыки"),
            T(
                f"Put {ch.creation_xp} XP into skills: 1 XP is 1 point, no skill above Intelligence "
                f"({ch.skill_cap}). Expert skills only with access from an Attribute or a Trick. A skill at 0 "
                "is rolled with a Hindrance; XP you keep are the hero's to spend in play.",
                f"Вложите {ch.creation_xp} ОО в Навыки: 1 ОО — 1 единица, ни один Навык не выше Интеллекта "
                f"({ch.skill_cap}). Экспертные — только с доступом от Атрибута или Трюка. Навык с 0 "
                "проверяется с Помехой; оставшиеся ОО герой потратит в игре.",
            ),  # L268, L369-370, L379, L410-412
            skills + ("skill_xp_spent",),
            ("xp",),
        ),
        WizardStep(
            "ready",
            T("Ready to play", "К игре готов"),
            T(
                "Look over the sheet. Your hero starts every meeting with 2 Threads of Fate; weapons, armour and "
                "wealth come from the GM. Finish the hero to start playing.",
                "Проверьте лист. Каждую встречу герой начинает с 2 Нитями Судьбы; оружие, доспехи и богатство "
                "выдаёт мастер. Завершите героя, чтобы начать игру.",
            ),  # L164, L259
            (),
            ("points", "xp"),
        ),
    ]
    return out


__all__ = ["ATTRIBUTE_PICKS", "TRICK_PICKS", "budgets", "steps"]
