"""Advancement in play (L744-752) and the creation wizard (L105-186) of «Времена Года».

The book has no experience points (L746): the Storyteller grants a new tier of mastery between
stories or after a trial (L746-747), and each new tier gives +5 attribute points, +10 skill
points and +6 specialization points (L752), spent as at creation: one point a dot (L129, L135,
L139-141). So the resources are those three unspent pools (``attribute_points``,
``skill_points``, ``specialization_points``, on the sheet); the Storyteller fills them with the
next tier (the advance ``tier:<next>``, which needs the Storyteller's leave) or with an award of
loose points; the player spends them: ``raise:<attribute>``, ``skill:<skill>``,
``specialization:new`` (a new specialization in a skill rated 1 or more) and
``specialization:<skill>:<name>`` (one dot more). The cap is the GM's ``trait_cap`` (5, or 10 in
an epic game, L752); ``spec_max_equals_skill`` caps a specialization at its skill (§11 #18).

The wizard is the book's eight steps in order (L108-186) with the three running budgets.
"""

from __future__ import annotations

from typing import Any

from tabletop_widgets.core import OptionSpec, RuleError, T
from tabletop_widgets.core.advancement import AdvancePlan, AdvanceSpec, Resource
from tabletop_widgets.core.options import GmOptions
from tabletop_widgets.core.wizard import Budget, WizardStep

from .creation import tier_step_changes
from .data import ATTRIBUTES, SKILLS, TABLES, TIERS, label

ATTRIBUTE_POINTS = Resource(
    "attribute_points", T("Attribute points", "Пункты атрибутов"), T("attribute pts", "п. атрибутов")
)
SKILL_POINTS = Resource("skill_points", T("Skill points", "Пункты навыков"), T("skill pts", "п. навыков"))
SPECIALIZATION_POINTS = Resource(
    "specialization_points",
    T("Specialization points", "Пункты специализаций"),
    T("specialization pts", "п. специализаций"),
)
RESOURCES = (ATTRIBUTE_POINTS, SKILL_POINTS, SPECIALIZATION_POINTS)

#: The option of a tier advance only the Storyteller sets (L746-747, L752).
LEAVE = "storyteller_grants"
#: The longest specialization name an advance takes.
NAME_LIMIT = 60

_GROUPS = {
    "tier": T("Tier of mastery", "Уровень опыта"),
    "attributes": T("Attributes", "Атрибуты"),
    "skills": T("Skills", "Навыки"),
    "specializations": T("Specializations", "Специализации"),
}


def tier_label(tier: str) -> dict[str, str]:
    row = next(r for r in TABLES.rows("tiers") if r["id"] == tier)
    return T(row["en"], row["ru"])


def _points(n: int, resource: Resource, locale: str) -> str:
    return resource.price_text(n, locale)


def _short_of(resource: Resource, cost: int, have: int) -> dict[str, str]:
    return T(
        f"Needs {cost} {resource.short['en']}; the character has {have}.",
        f"Нужно {cost} {resource.short['ru']}; у персонажа {have}.",
    )


def _cap_of(character, skill: str | None, *, options: GmOptions) -> int:
    """The highest rating allowed: the GM's cap (L752), for a specialization also its skill when
    the GM says so (§11 #18)."""
    cap = int(options.trait_cap)
    if skill is not None and options.spec_max_equals_skill:
        cap = min(cap, getattr(character, skill))
    return cap


def _at_cap(lab: dict[str, str], cap: int, *, options: GmOptions) -> dict[str, str]:
    epic_en = " (the Storyteller may raise the cap to 10 in an epic game)" if options.trait_cap < 10 else ""
    epic_ru = " (в эпической игре Рассказчик может поднять предел до 10)" if options.trait_cap < 10 else ""
    return T(
        f"{lab['en']} is already at the cap, {cap}{epic_en}.",
        f"{lab['ru']}: уже предел, {cap}{epic_ru}.",
    )


# -- what a character can buy ---------------------------------------------------------------------
def advance_list(character, *, options: GmOptions) -> list[AdvanceSpec]:
    """Every advance the book prices, each at its price; what cannot be bought now is listed
    ``blocked`` with the reason."""
    out = [_tier_spec(character)]
    for name in ATTRIBUTES:
        out.append(_raise_spec(character, name, f"raise:{name}", ATTRIBUTE_POINTS, "attributes", options=options))
    for name in SKILLS:
        out.append(_raise_spec(character, name, f"skill:{name}", SKILL_POINTS, "skills", options=options))
    out.append(_new_specialization_spec(character, options=options))
    for sp in character.specializations:
        out.append(_specialization_spec(character, sp, options=options))
    return out


def _tier_spec(character) -> AdvanceSpec:
    k = TIERS.index(character.tier)
    if k == len(TIERS) - 1:
        now = tier_label(character.tier)
        return AdvanceSpec(
            "tier:next",
            T(f"Tier: {now['en']} is the highest", f"Уровень: {now['ru']} — высший"),
            "level",
            group=_GROUPS["tier"],
            blocked=T("Hero is the highest tier.", "Герой — высший уровень опыта."),
        )
    now, new = tier_label(character.tier), tier_label(TIERS[k + 1])
    return AdvanceSpec(
        f"tier:{TIERS[k + 1]}",
        T(f"Tier: {now['en']} → {new['en']}", f"Уровень: {now['ru']} → {new['ru']}"),
        "level",
        {},
        options=(
            OptionSpec(
                LEAVE,
                T("The Storyteller grants it", "Рассказчик даёт его"),
                kind="bool",
                default=False,
                gm_only=True,
            ),
        ),
        gm_options=(LEAVE,),
        help=T(
            "The Storyteller grants a new tier between stories or after a trial; it gives +5 attribute, "
            "+10 skill and +6 specialization points to spend.",
            "Новый уровень опыта даёт Рассказчик — между историями или после испытания; он приносит "
            "+5 пунктов атрибутов, +10 навыков и +6 специализаций.",
        ),
        group=_GROUPS["tier"],
    )


def _raise_spec(character, name, advance_id, resource, group, *, options) -> AdvanceSpec:
    now = getattr(character, name)
    lab = label(name)
    cap = _cap_of(character, None, options=options)
    have = getattr(character, resource.trait)
    blocked = None
    if now >= cap:
        blocked = _at_cap(lab, cap, options=options)
    elif have < 1:
        blocked = _short_of(resource, 1, have)
    return AdvanceSpec(
        advance_id,
        T(f"{lab['en']} {now} → {now + 1}", f"{lab['ru']} {now} → {now + 1}"),
        "raise",
        {resource.trait: 1},
        help=T(
            f"One point a dot ({resource.label['en'].lower()}), as at creation.",
            f"Один пункт за точку ({resource.label['ru'].lower()}), как при создании.",
        ),
        blocked=blocked,
        group=_GROUPS[group],
    )


def _trained_skills(character) -> list[str]:
    return [s for s in SKILLS if getattr(character, s) >= 1]


def _new_specialization_spec(character, *, options) -> AdvanceSpec:
    trained = _trained_skills(character)
    have = character.specialization_points
    blocked = None
    if not trained:
        blocked = T(
            "A specialization needs a skill rated 1 or more: raise a skill first.",
            "Специализация берётся в навыке от 1: сначала поднимите навык.",
        )
    elif have < 1:
        blocked = _short_of(SPECIALIZATION_POINTS, 1, have)
    cap = int(options.trait_cap)
    return AdvanceSpec(
        "specialization:new",
        T("New specialization", "Новая специализация"),
        "learn",
        {SPECIALIZATION_POINTS.trait: 1},
        options=(
            OptionSpec(
                "skill",
                T("Skill", "Навык"),
                kind="choice",
                default=trained[0] if trained else "",
                choices=tuple((s, label(s)) for s in trained) or (("", T("none", "нет")),),
            ),
            OptionSpec("name", T("Name", "Название"), kind="text", default=""),
            OptionSpec("rating", T("Rating", "Значение"), kind="int", default=1, min=1, max=cap),
        ),
        help=T(
            "A narrow branch of a skill (chemistry in Science): its rating in dice when it fits; "
            "one specialization point a dot.",
            "Узкая отрасль навыка (химия в Науке): её значение в дайсах, когда подходит; "
            "один пункт специализации за точку.",
        ),
        blocked=blocked,
        group=_GROUPS["specializations"],
    )


def _specialization_spec(character, sp, *, options) -> AdvanceSpec:
    skill, name, now = sp["skill"], sp["name"], sp["rating"]
    lab = label(skill)
    cap = _cap_of(character, skill, options=options)
    have = character.specialization_points
    blocked = None
    if now >= cap:
        blocked = _at_cap(T(f"{lab['en']}: {name}", f"{lab['ru']}: {name}"), cap, options=options)
    elif have < 1:
        blocked = _short_of(SPECIALIZATION_POINTS, 1, have)
    return AdvanceSpec(
        f"specialization:{skill}:{name}",
        T(f"{lab['en']}: {name} {now} → {now + 1}", f"{lab['ru']}: {name} {now} → {now + 1}"),
        "raise",
        {SPECIALIZATION_POINTS.trait: 1},
        help=T("One specialization point a dot.", "Один пункт специализации за точку."),
        blocked=blocked,
        group=_GROUPS["specializations"],
    )


# -- what one advance would do --------------------------------------------------------------------
def plan(character, advance_id: str, *, options: GmOptions, **opts: Any) -> AdvancePlan:
    """What ``advance_id`` would do (:class:`AdvancePlan`), or a :class:`RuleError` for what the
    book forbids. Changes nothing."""
    kind, _, rest = str(advance_id).partition(":")
    known = {"tier": {LEAVE}, "specialization:new": {"skill", "name", "rating"}}
    unknown = sorted(set(opts) - known.get(kind if kind == "tier" else str(advance_id), set()))
    if unknown:
        raise RuleError(
            "unknown_option",
            T(f"This advance takes no option {unknown[0]!r}.", f"У этого развития нет параметра {unknown[0]!r}."),
            option=str(unknown[0]),
        )
    if kind == "tier":
        return _plan_tier(character, advance_id, **opts)
    if kind == "raise" and rest in ATTRIBUTES:
        return _plan_raise(character, advance_id, rest, ATTRIBUTE_POINTS, options=options)
    if kind == "skill" and rest in SKILLS:
        return _plan_raise(character, advance_id, rest, SKILL_POINTS, options=options)
    if advance_id == "specialization:new":
        return _plan_new_specialization(character, options=options, **opts)
    if kind == "specialization":
        skill, _, name = rest.partition(":")
        return _plan_specialization(character, advance_id, skill, name, options=options)
    raise RuleError(
        "unknown_advance",
        T(
            f"{advance_id!r} is not something this character can buy now.",
            f"«{advance_id}» этот персонаж сейчас купить не может.",
        ),
        advance=str(advance_id),
    )


def _plan_tier(character, advance_id: str, **opts: Any) -> AdvancePlan:
    k = TIERS.index(character.tier)
    if k == len(TIERS) - 1:
        raise RuleError("max_tier", T("Hero is the highest tier.", "Герой — высший уровень."))
    if advance_id != f"tier:{TIERS[k + 1]}":
        raise RuleError(
            "tier_order",
            T("Tiers are gained one at a time, in order.", "Уровни опыта получают по одному, по порядку."),
        )
    if not opts.get(LEAVE):
        raise RuleError(
            "storyteller_grants_tiers",
            T(
                "A new tier is the Storyteller's to grant (between stories or after a trial): ask them.",
                "Новый уровень опыта даёт Рассказчик (между историями или после испытания): попросите его.",
            ),
        )
    changes = tier_step_changes(character)
    now, new = tier_label(character.tier), tier_label(changes["tier"])
    return AdvancePlan(
        advance_id,
        {},
        changes,
        T(
            f"Tier {now['en']} → {new['en']}: +5 attribute, +10 skill and +6 specialization points",
            f"Уровень {now['ru']} → {new['ru']}: +5 пунктов атрибутов, +10 навыков и +6 специализаций",
        ),
    )


def _plan_raise(character, advance_id: str, name: str, resource: Resource, *, options) -> AdvancePlan:
    now = getattr(character, name)
    lab = label(name)
    cap = _cap_of(character, None, options=options)
    if now >= cap:
        raise RuleError("over_cap", _at_cap(lab, cap, options=options), trait=name)
    return AdvancePlan(
        advance_id,
        {resource.trait: 1},
        {name: now + 1},
        T(
            f"{lab['en']} {now} → {now + 1} for {_points(1, resource, 'en')}",
            f"{lab['ru']} {now} → {now + 1} за {_points(1, resource, 'ru')}",
        ),
    )


def _plan_new_specialization(character, *, options, skill: str = "", name: str = "", rating: int = 1) -> AdvancePlan:
    if skill not in SKILLS:
        raise RuleError("unknown_skill", T("Choose one of the skills.", "Выберите навык из списка."))
    if not isinstance(name, str) or isinstance(rating, bool) or not isinstance(rating, int):
        raise RuleError(
            "bad_option",
            T(
                "A specialization has a name and a whole-number rating.",
                "У специализации есть название и целое значение.",
            ),
        )
    lab = label(skill)
    name = (name or "").strip()
    if not name:
        raise RuleError(
            "specialization_name",
            T("A specialization needs a name (chemistry, swords...).", "У специализации должно быть название."),
        )
    if len(name) > NAME_LIMIT:
        raise RuleError(
            "specialization_name",
            T(f"A specialization's name is at most {NAME_LIMIT} characters.", f"Название — не длиннее {NAME_LIMIT}."),
        )
    if getattr(character, skill) < 1:  # L141
        raise RuleError(
            "specialization_without_skill",
            T(
                f"You cannot take the specialization '{name}' in {lab['en']} because {lab['en']} is 0.",
                f"Нельзя взять специализацию «{name}» в навыке {lab['ru']}: навык равен 0.",
            ),
        )
    if any(
        sp["skill"] == skill and sp["name"].strip().casefold() == name.casefold() for sp in character.specializations
    ):
        raise RuleError(
            "specialization_duplicate",
            T(
                f"{lab['en']} already has the specialization '{name}': raise it instead.",
                f"У навыка {lab['ru']} уже есть специализация «{name}»: повысьте её.",
            ),
        )
    cap = _cap_of(character, skill, options=options)
    if not 1 <= rating <= cap:  # L139, §11 #18
        raise RuleError(
            "specialization_range",
            T(f"A specialization is rated 1–{cap}.", f"Специализация оценивается от 1 до {cap}."),
        )
    item = {"skill": skill, "name": name, "rating": rating}
    return AdvancePlan(
        "specialization:new",
        {SPECIALIZATION_POINTS.trait: rating},
        {"specializations": [*map(dict, character.specializations), item]},
        T(
            f"New specialization {lab['en']}: {name} {rating} for {_points(rating, SPECIALIZATION_POINTS, 'en')}",
            f"Новая специализация {lab['ru']}: {name} {rating} за {_points(rating, SPECIALIZATION_POINTS, 'ru')}",
        ),
    )


def _plan_specialization(character, advance_id: str, skill: str, name: str, *, options) -> AdvancePlan:
    items = [dict(sp) for sp in character.specializations]
    found = next((sp for sp in items if sp["skill"] == skill and sp["name"] == name), None)
    if found is None:
        raise RuleError(
            "no_specialization",
            T(f"No specialization '{name}' on the sheet.", f"На листе нет специализации «{name}»."),
        )
    lab = label(skill)
    cap = _cap_of(character, skill, options=options)
    if found["rating"] >= cap:
        raise RuleError("over_cap", _at_cap(T(f"{lab['en']}: {name}", f"{lab['ru']}: {name}"), cap, options=options))
    now = found["rating"]
    found["rating"] = now + 1
    return AdvancePlan(
        advance_id,
        {SPECIALIZATION_POINTS.trait: 1},
        {"specializations": items},
        T(
            f"{lab['en']}: {name} {now} → {now + 1} for {_points(1, SPECIALIZATION_POINTS, 'en')}",
            f"{lab['ru']}: {name} {now} → {now + 1} за {_points(1, SPECIALIZATION_POINTS, 'ru')}",
        ),
    )


# -- the creation wizard (L105-186) ---------------------------------------------------------------
#: The book's eight creation steps, in its order (L108-186).
STEPS: tuple[WizardStep, ...] = (
    WizardStep(
        "archetype_goal",
        T("Archetype and Goal", "Архетип и Цель"),
        T(
            "Who is your character? Name them, pick an Archetype (a one-word role: Doctor, Detective, "
            "Trickster) and the Goal they pursue now. Playing them earns Drama at the end of a chapter.",
            "Кто ваш персонаж? Дайте имя, выберите Архетип (роль одним словом: Врач, Детектив, Трикстер) "
            "и текущую Цель. Их отыгрыш приносит Драму в конце главы.",
        ),
        ("name", "archetype", "goal"),
    ),
    WizardStep(
        "problem",
        T("Problem", "Проблема"),
        T(
            "Every character has a Problem that gets in the way (lame, curious, hunted, broke): -3 dice "
            "on the checks it hinders, and Drama when it bites. Children and teenagers take Inexperienced.",
            "У каждого персонажа есть мешающая ему Проблема (хромота, любопытство, преследование, "
            "безденежье): -3 дайса, где она мешает, и Драма, когда она срабатывает. Дети и подростки "
            "берут Проблему «Неопытный».",
        ),
        ("problems",),
    ),
    WizardStep(
        "advantage",
        T("Advantage", "Преимущество"),
        T(
            "The opposite of a Problem: a strength (quick, charming, rich, a patron). +3 dice on the checks it fits.",
            "Противоположность Проблемы: сильная сторона (быстрота, обаяние, богатство, покровитель). "
            "+3 дайса на подходящие проверки.",
        ),
        ("advantages",),
    ),
    WizardStep(
        "attributes",
        T("Attributes", "Атрибуты"),
        T(
            "All nine attributes start at 1; share the attribute points among them, none above 5 "
            "(2 is the human average). A higher tier (step 8) brings more points: come back here then.",
            "Все девять атрибутов начинаются с 1; распределите между ними пункты атрибутов, не выше 5 "
            "(2 — средний человек). Более высокий уровень (шаг 8) даёт больше пунктов: тогда вернитесь сюда.",
        ),
        (*ATTRIBUTES, "attribute_points_spent"),
        ("attributes",),
    ),
    WizardStep(
        "skills",
        T("Skills", "Навыки"),
        T(
            "All eighteen skills start at 0 (untrained); share the skill points among them, none above 5.",
            "Все восемнадцать навыков начинаются с 0 (не обучен); распределите пункты навыков, не выше 5.",
        ),
        (*SKILLS, "skill_points_spent"),
        ("skills",),
    ),
    WizardStep(
        "specializations",
        T("Specializations", "Специализации"),
        T(
            "Narrow branches of skills you have (chemistry in Science, swords in Melee), rated 1-5: "
            "their rating is added in dice when they fit. Share the specialization points.",
            "Узкие отрасли ваших навыков (химия в Науке, меч в Ближнем бою), от 1 до 5: их значение "
            "прибавляется в дайсах, когда подходит. Распределите пункты специализаций.",
        ),
        ("specializations", "specialization_points_spent"),
        ("specializations",),
    ),
    WizardStep(
        "extras",
        T("The rest", "Дополнения"),
        T(
            "Size is 5 for an adult (4 a teenager, 3 a child); the rest follows from the attributes: "
            "Health = Size × 2, Speed, Initiative and the three defences. Drama starts at Presence + "
            "Manipulation + Composure when play begins.",
            "Размер взрослого 5 (подростка 4, ребёнка 3); остальное следует из атрибутов: Здоровье = "
            "Размер × 2, Скорость, Инициатива и три защиты. Драма в начале игры равна Внушительность + "
            "Манипулирование + Самообладание.",
        ),
        (
            "size",
            "health_max",
            "speed",
            "initiative",
            "physical_defence",
            "social_defence",
            "mental_defence",
            "drama_start",
        ),
    ),
    WizardStep(
        "experience",
        T("Experience", "Опыт"),
        T(
            "Novice is the usual start. With the Storyteller's leave a character can be Experienced, "
            "Expert or Hero: +5/+10/+6 attribute, skill and specialization points per tier, spent in "
            "steps 4-6 (go back to spend them).",
            "Обычно начинают Новичком. С согласия Рассказчика персонаж может быть Опытным, Экспертом или "
            "Героем: +5/+10/+6 пунктов атрибутов, навыков и специализаций за уровень — распределите их "
            "на шагах 4-6 (вернитесь к ним).",
        ),
        ("tier", "storyteller_approved"),
        ("attributes", "skills", "specializations"),
    ),
)


def wizard_steps(character) -> list[WizardStep]:
    """The book's eight steps, in its order (L108-186); they do not change with the character."""
    return list(STEPS)


def budgets(character) -> dict[str, Budget]:
    """The three creation budgets of the character's tier as they stand (L129, L135, L141, L182-184)."""
    c = character
    return {
        "attributes": Budget(ATTRIBUTE_POINTS.label, c.attribute_points_spent, c.attribute_points_budget),
        "skills": Budget(SKILL_POINTS.label, c.skill_points_spent, c.skill_points_budget),
        "specializations": Budget(
            SPECIALIZATION_POINTS.label, c.specialization_points_spent, c.specialization_points_budget
        ),
    }


def play_changes(character, *, options: GmOptions) -> dict[str, Any]:
    """What starting play changes: Drama starts at Presence + Manipulation + Composure (L147,
    L740) for a player's character; creation points the GM let stay unspent (§11 #19) wait in the
    unspent pools."""
    c = character
    out: dict[str, Any] = {}
    if c.is_player_character:
        out["drama"] = c.drama_start
    if options.allow_unspent:
        for trait, spent, budget in (
            ("attribute_points", c.attribute_points_spent, c.attribute_points_budget),
            ("skill_points", c.skill_points_spent, c.skill_points_budget),
            ("specialization_points", c.specialization_points_spent, c.specialization_points_budget),
        ):
            if budget > spent:
                out[trait] = getattr(c, trait) + budget - spent
    return out


__all__ = [
    "ATTRIBUTE_POINTS",
    "LEAVE",
    "RESOURCES",
    "SKILL_POINTS",
    "SPECIALIZATION_POINTS",
    "advance_list",
    "budgets",
    "plan",
    "play_changes",
    "wizard_steps",
]
