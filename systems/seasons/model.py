"""The Seasons character: traits named by the spec glossary's code ids (spec §3)."""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Mapping

from traitlets import Bool, Dict, Enum, Int, List, TraitError, Unicode, validate

from tabletop_widgets.core import CharacterModel, Problem, T, ValidationError
from tabletop_widgets.core.problems import entry_label, out_of_range, shown_value, wrong_kind

from .conditions import CONDITION_KINDS
from .data import ATTRIBUTES, SKILLS, TIERS, budgets, label


def _attr(name: str):
    return Int(1, help=f"{name} (1-5 for humans)").tag(persist=True)  # L127-129


def _skill(name: str):
    return Int(0, help=f"{name} (0-5 for humans)").tag(persist=True)  # L133-135


def _derived(help_text: str, default: Any = 0, kind=Int):
    return kind(default, help=help_text).tag(derived=True)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# Shapes of list items: key -> (required, test, en description, ru description)
_ItemShape = Mapping[str, tuple[bool, Callable[[Any], bool], str, str]]

_STR = (lambda v: isinstance(v, str), "Enter text.", "Введите текст.")
_INT0 = (lambda v: _is_int(v) and v >= 0, "Enter a whole number of at least 0.", "Введите целое число не меньше 0.")
_INT1 = (lambda v: _is_int(v) and v >= 1, "Enter a whole number of at least 1.", "Введите целое число не меньше 1.")
_INT = (_is_int, "Enter a whole number.", "Введите целое число.")
_BOOL = (lambda v: isinstance(v, bool), "Tick the box or leave it empty.", "Поставьте или снимите отметку.")
_NAME = (lambda v: isinstance(v, str) and v.strip() != "", "Enter a name.", "Введите название.")


def _shape(**keys) -> _ItemShape:
    return {k: (req, test, en, ru) for k, (req, (test, en, ru)) in keys.items()}


ITEM_SHAPES: dict[str, _ItemShape] = {
    "specializations": _shape(
        skill=(True, (lambda v: v in SKILLS, "Choose one of the skills.", "Выберите навык из списка.")),
        name=(True, _NAME),
        rating=(True, _INT1),
    ),
    "conditions": _shape(
        name=(True, _NAME),
        kind=(
            True,
            (
                lambda v: v in CONDITION_KINDS,
                "Choose physical, mental or social.",
                "Выберите: физическое, ментальное или социальное.",
            ),
        ),
        id=(False, _STR),
        penalty=(False, _INT0),
        applies_to=(False, _STR),
        removal_difficulty=(False, _INT0),
        retry_interval=(False, _STR),
        expires=(False, _STR),
        category=(False, _STR),
        cause=(False, _STR),  # sickness: substance (retry after an hour) or illness (a day), L711
        held_off=(False, _BOOL),  # hunger / thirst / fatigue held off for the hour (L716)
    ),
    "weapons": _shape(
        name=(True, _STR),
        attack_bonus=(False, _INT0),
        armour_piercing=(False, _INT0),
        skill=(
            False,
            (
                lambda v: v in ("melee", "ranged"),
                "Choose Melee or Ranged Combat.",
                "Выберите: Ближний бой или Стрельба.",
            ),
        ),
        attribute=(
            False,
            (lambda v: v in ("strength", "dexterity"), "Choose Strength or Dexterity.", "Выберите: Сила или Ловкость."),
        ),
    ),
    "armour": _shape(name=(True, _STR), penalty=(True, _INT0), worn=(False, _BOOL)),
    "tools": _shape(
        name=(True, _STR), bonus=(False, _INT), applies_to=(False, _STR), penalty_to_opponents=(False, _INT0)
    ),
    "objects": _shape(
        name=(True, _STR),
        size=(True, _INT1),
        structure_damage=(False, _INT0),
        durability=(False, _INT0),
        structure_max=(False, _INT0),
        attack_bonus=(False, _INT0),  # used as a weapon (L794-795, the table L797-814)
    ),
    "pending_bonus_dice": _shape(source=(True, _STR), dice=(True, _INT), applies_to=(False, _STR)),
    # by: who spent the Drama point behind a queued -3 (L773)
    "pending_penalties": _shape(source=(True, _STR), dice=(True, _INT), applies_to=(False, _STR), by=(False, _STR)),
}


#: The unspent advancement points (L752): attribute, skill and specialization points.
POINT_POOLS = ("attribute_points", "skill_points", "specialization_points")

#: ``out_state`` values: "" in play; the 0-health outcomes of L722 (§11 #26); leaving the fight (L90, L93).
OUT_STATES = ("", "out", "dead", "incapacitated", "captured", "fled", "surrendered")
#: States that take a character out of the fight even with health left (L90: flees / surrenders).
OUT_STATES_DEFEATED = ("out", "dead", "incapacitated", "captured", "fled", "surrendered")


class Character(CharacterModel):
    """A Seasons character (spec §3). Attributes accept any integer >= 1 and skills >= 0 with no
    upper bound (creatures and the epic cap exceed 5, spec §3 "Model vs validation"); the cap
    and the creation budgets are checked by ``SYSTEM.validate``."""

    SYSTEM = "seasons"
    SCHEMA = 1

    # -- identity (§3.1) ----------------------------------------------------------------------
    name = Unicode("", help="Character name").tag(persist=True)
    archetype = Unicode("", help="Archetype: one-word role").tag(persist=True)  # L108-111
    goal = Unicode("", help="The one active Goal").tag(persist=True)  # L112, L265
    problems = List(Unicode(), help="Problems: -3 when relevant").tag(persist=True)  # L114-118
    advantages = List(Unicode(), help="Advantages: +3 when relevant").tag(persist=True)  # L120-123
    # The "active" markers of spec §10.1: which Problem / Advantage is relevant now (this scene or
    # this check). The dice tray offers them on the checks they can fit, unticked (-3 / +3 where
    # they apply, L316, L390; only Pain applies by itself, §11 #43); the GM option
    # auto_sheet_modifiers ticks them beforehand. An empty string means none; a marker not in its
    # list is ignored (warning, not an error, so removing the item from the list never fails).
    active_problem = Unicode(
        "", help="The Problem relevant now: offered as -3 in the dice tray (ticked under auto_sheet_modifiers)"
    ).tag(persist=True)  # L316
    active_advantage = Unicode(
        "", help="The Advantage relevant now: offered as +3 in the dice tray (ticked under auto_sheet_modifiers)"
    ).tag(persist=True)  # L390
    tier = Enum(TIERS, default_value="novice", help="Experience tier").tag(persist=True)  # L178-185
    storyteller_approved = Bool(False, help="Storyteller approved a tier above Novice / odd Size").tag(persist=True)
    is_player_character = Bool(True, help="NPCs have no Drama").tag(persist=True)  # L739
    # Points the Storyteller granted in play and not yet spent (L752: a new tier gives +5 / +10 / +6;
    # spent one point a dot by ``SYSTEM.advance``, see ``advancement.py``).
    attribute_points = Int(0, help="Unspent attribute points for advancement").tag(persist=True)  # L752
    skill_points = Int(0, help="Unspent skill points for advancement").tag(persist=True)  # L752
    specialization_points = Int(0, help="Unspent specialization points for advancement").tag(persist=True)  # L752
    notes = Unicode("", help="Free notes").tag(persist=True)

    # -- attributes (§3.2) and skills (§3.3) ----------------------------------------------------
    intelligence = _attr("Intelligence")
    wits = _attr("Wits")
    resolve = _attr("Resolve")
    presence = _attr("Presence")
    manipulation = _attr("Manipulation")
    composure = _attr("Composure")
    strength = _attr("Strength")
    dexterity = _attr("Dexterity")
    stamina = _attr("Stamina")

    athletics = _skill("Athletics")
    melee = _skill("Melee")
    ranged = _skill("Ranged Combat")
    larceny = _skill("Larceny")
    drive = _skill("Drive")
    survival = _skill("Survival")
    science = _skill("Science")
    occult = _skill("Occult")
    medicine = _skill("Medicine")
    investigation = _skill("Investigation")
    crafts = _skill("Crafts")
    expression = _skill("Expression")
    leadership = _skill("Leadership")
    intimidation = _skill("Intimidation")
    persuasion = _skill("Persuasion")
    animal_ken = _skill("Animal Ken")
    socialize = _skill("Socialize")
    empathy = _skill("Empathy")

    specializations = List(Dict(), help="[{skill, name, rating}]").tag(persist=True)  # L137-141
    size = Int(5, help="Size: 5 adult, 4 teenager, 3 child").tag(persist=True)  # L148

    # -- resources and trackers (§3.7) ----------------------------------------------------------
    drama = Int(0, help="Drama points; start = Presence + Manipulation + Composure").tag(persist=True)  # L147
    damage = Int(0, help="Health levels filled with damage").tag(persist=True)  # L93
    conditions = List(Dict(), help="Active conditions, -3 each").tag(persist=True)  # L684-716
    pain_suppressed = Bool(False, help="Pain suppressed until new damage or scene end").tag(persist=True)  # L708
    pain_failed_this_scene = Bool(False, help="A suppression roll failed this scene").tag(persist=True)  # L708
    damaged_this_scene = Bool(False, help="Took damage this scene: first aid possible").tag(persist=True)  # L723
    first_aid_used_this_scene = Bool(False, help="First aid already attempted this scene").tag(persist=True)  # L724
    treated_today = Bool(False, help="Treatment already rolled today").tag(persist=True)  # L725
    pending_bonus_dice = List(Dict(), help="Queued bonuses: aim, previous successes...").tag(persist=True)  # L766, L771
    pending_penalties = List(Dict(), help="Queued penalties: frightened...").tag(persist=True)  # L624
    # How the character left the fight/story (spec §6.5, §10.3; L90, L93, L722): "" while in play.
    out_state = Unicode(
        "",
        help="'' in play; out / dead / incapacitated / captured (0 health) "  # L722
        "or fled / surrendered",
    ).tag(persist=True)  # L90, L93

    # -- gear (§3.8) ------------------------------------------------------------------------
    weapons = List(Dict(), help="[{name, attack_bonus, armour_piercing, skill, attribute}]").tag(persist=True)
    armour = List(Dict(), help="[{name, penalty, worn}]").tag(persist=True)  # L774
    tools = List(Dict(), help="[{name, bonus, applies_to, penalty_to_opponents}]").tag(persist=True)  # L765, L830
    objects = List(Dict(), help="[{name, size, structure_damage, durability, attack_bonus}]").tag(
        persist=True
    )  # L792-795

    # -- derived (§3.5) -----------------------------------------------------------------------
    physical_defence = _derived("PD = Stamina")  # L45, L174
    social_defence = _derived("SD = Composure")  # L45, L175
    mental_defence = _derived("MD = Resolve")  # L45, L176
    initiative = _derived("Intelligence + Wits + Resolve")  # L172, L731
    speed = _derived("Strength + Dexterity + Stamina metres per round")  # L171, L735
    drama_start = _derived("Presence + Manipulation + Composure")  # L147, L740
    health_max = _derived("2 x Size")  # L173, L722
    health_remaining = _derived("health_max - damage")
    is_out = _derived("damage >= health_max: out of the story", False, Bool)  # L722
    in_pain = _derived("2 x damage >= health_max", False, Bool)  # L708
    pain_active = _derived("Pain and not suppressed: -3 to all checks", False, Bool)  # L708
    armour_penalty = _derived("the highest worn armour penalty")  # L774
    defeated = _derived("out of the fight: 0 health, fled or surrendered", False, Bool)  # L90, L93, L722
    attribute_points_budget = _derived("15 + 5 per tier step")  # L182-184
    skill_points_budget = _derived("25 + 10 per tier step")  # L182-184
    specialization_points_budget = _derived("10 + 6 per tier step")  # L182-184
    attribute_points_spent = _derived("sum of (attribute - 1)")
    skill_points_spent = _derived("sum of skills")
    specialization_points_spent = _derived("sum of specialization ratings")

    def __init__(self, **values: Any):
        super().__init__(**values)
        if "drama" not in values:  # a new character starts with PRE + MAN + COM Drama (L147)
            self.drama = self.drama_start if self.is_player_character else 0

    def _derive(self) -> None:
        self.physical_defence = self.stamina
        self.social_defence = self.composure
        self.mental_defence = self.resolve
        self.initiative = self.intelligence + self.wits + self.resolve
        self.speed = self.strength + self.dexterity + self.stamina
        self.drama_start = self.presence + self.manipulation + self.composure
        self.health_max = 2 * self.size
        self.health_remaining = self.health_max - self.damage
        self.is_out = self.damage >= self.health_max
        self.in_pain = 2 * self.damage >= self.health_max and self.damage > 0
        self.pain_active = self.in_pain and not self.pain_suppressed
        self.defeated = self.is_out or self.out_state in OUT_STATES_DEFEATED
        # Several armours do not stack: the best one worn counts (our reading; the book has one).
        worn = [a.get("penalty", 0) for a in self.armour if a.get("worn", True)]
        self.armour_penalty = max(worn, default=0)
        a, s, p = budgets(self.tier)
        self.attribute_points_budget, self.skill_points_budget, self.specialization_points_budget = a, s, p
        self.attribute_points_spent = sum(getattr(self, n) - 1 for n in ATTRIBUTES)
        self.skill_points_spent = sum(getattr(self, n) for n in SKILLS)
        self.specialization_points_spent = sum(sp.get("rating", 0) for sp in self.specializations)

    @validate(*ATTRIBUTES, *SKILLS, "size", "drama", "damage", *POINT_POOLS, "out_state", *ITEM_SHAPES)
    def _validate_assignment(self, proposal):
        """Direct assignment obeys the same hard limits as construction (and changes nothing)."""
        name, value = proposal["trait"].name, proposal["value"]
        values = {n: getattr(self, n) for n in self.persisted_traits()}
        values[name] = value
        errors = [p for p in type(self).check_values(values) if p.field == name and p.severity == "error"]
        if errors:
            raise AssignmentError(errors)
        return value

    # -- helpers ----------------------------------------------------------------------------
    def specialization_rating(self, skill: str, name: str | None = None) -> int:
        """The highest rating among this skill's specializations (named one if given; §11 #18)."""
        ratings = [
            sp["rating"] for sp in self.specializations if sp["skill"] == skill and (name is None or sp["name"] == name)
        ]
        return max(ratings, default=0)

    @classmethod
    def input_range(cls, name: str, values: Mapping[str, Any]) -> tuple[int | None, int | None]:
        """A player character's attributes, skills stop at 10, the highest cap the Storyteller
        may set (L752; ``validate`` reports one above the game's cap); damage stops at the
        health track's end (L722)."""
        lo, hi = super().input_range(name, values)
        if name in ATTRIBUTES or name in SKILLS:
            if values.get("is_player_character", True):
                return lo, 10
        if name == "damage":
            size = values.get("size")
            if _is_int(size):
                return lo, 2 * size
        return lo, hi

    @classmethod
    def check_values(cls, values: Mapping[str, Any]) -> list[Problem]:
        problems: list[Problem] = []
        for name in ATTRIBUTES:
            v = values[name]
            if isinstance(v, bool) or v < 1:  # L129: all attributes start at 1
                problems.append(out_of_range(name, v, 1, None, label=label(name), code="attribute_floor"))
        for name in SKILLS:
            v = values[name]
            if isinstance(v, bool) or v < 0:  # L133: skills range from 0
                problems.append(out_of_range(name, v, 0, None, label=label(name), code="skill_floor"))
        for name, low in (("size", 1), ("drama", 0), ("damage", 0), *((n, 0) for n in POINT_POOLS)):
            v = values[name]
            if isinstance(v, bool) or v < low:
                problems.append(out_of_range(name, v, low, None, label=cls.field_label(name), code=f"{name}_range"))
        for list_name, shape in ITEM_SHAPES.items():
            problems.extend(_check_items(list_name, values[list_name], shape, cls.sheet_field(list_name)))
        for name, list_name, en, ru in (
            ("active_problem", "problems", "Problem", "Проблема"),
            ("active_advantage", "advantages", "Advantage", "Преимущество"),
        ):
            v = values.get(name, "")
            if not isinstance(v, str):
                problems.append(
                    dataclasses.replace(wrong_kind(name, "text", label=cls.field_label(name)), code="bad_active")
                )
            elif v and v not in values.get(list_name, ()):
                problems.append(
                    Problem(
                        "active_not_listed",
                        T(
                            f"The active {en} «{shown_value(v)}» is not in the list: checks ignore it.",
                            f"Активная {ru} «{shown_value(v)}» не в списке: проверки её не учитывают.",
                        ),
                        field=name,
                        severity="warning",
                    )
                )
        v = values.get("out_state", "")
        if v not in OUT_STATES:
            problems.append(
                Problem(
                    "bad_out_state",
                    T("Choose one of the listed values.", "Выберите значение из списка."),
                    field="out_state",
                )
            )
        return problems


class AssignmentError(ValidationError, TraitError):
    """A bad value assigned to a trait: a ValidationError that traitlets also understands."""


def _check_items(list_name: str, items: list, shape: _ItemShape, sheet_field=None) -> list[Problem]:
    out: list[Problem] = []
    list_label = sheet_field.label if sheet_field is not None else None
    item_labels = {f.name: f.label for f in (sheet_field.item_fields if sheet_field is not None else ())}
    for i, item in enumerate(items):
        if not isinstance(item, Mapping):
            out.append(
                Problem(
                    "bad_item",
                    T(
                        "This entry cannot be read: remove it or enter it again.",
                        "Эту запись не прочитать: удалите её или введите заново.",
                    ),
                    field=list_name,
                    label=entry_label(list_label, item, i + 1),
                )
            )
            continue
        for key, (required, test, en, ru) in shape.items():
            where = entry_label(list_label, item, i + 1, item_labels.get(key))
            if key not in item:
                if required:
                    out.append(Problem("missing_key", T(en, ru), field=list_name, label=where))
                continue
            if not test(item[key]):
                out.append(Problem("bad_item", T(en, ru), field=list_name, label=where))
        unknown = set(item) - set(shape)
        if unknown:
            out.append(
                Problem(
                    "unknown_key",
                    T(
                        "This entry has values this sheet does not know: enter it again.",
                        "В записи есть значения, которых лист не знает: введите её заново.",
                    ),
                    field=list_name,
                    label=entry_label(list_label, item, i + 1),
                )
            )
    return out
