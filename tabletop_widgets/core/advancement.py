"""Advancement: what a character in play can buy with what it has earned, priced before it is done.

A system names the resources it spends (:class:`Resource`: RET's development points, experience
elsewhere) and lists what a character can buy now (:class:`AdvanceSpec`: raise a parameter,
learn a skill, take a level), each with its options and its price at the default options, or
the reason it cannot be bought now (``blocked``). :meth:`GameSystem.plan_advance` says exactly
what one advance would do (:class:`AdvancePlan`: the price, every trait it changes, a line of
text) without changing the character; :meth:`GameSystem.advance` does it, all or nothing, and
returns an :class:`AdvanceOutcome` (``{trait: (old, new)}``) that a table records as an event.
:meth:`GameSystem.award` is the GM's side: experience given.

Plain data only: no ipywidgets, no I/O.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .i18n import T, tr
from .problems import Problem, RuleError
from .option_specs import OptionSpec, SpecOptions, checked_spec_options

#: Kinds of advance a sheet groups and labels (a system may use others; they show as "other").
ADVANCE_KINDS = ("raise", "learn", "level", "other")
#: The largest award one step may give (a typo guard; a GM gives more in several steps).
MAX_AWARD = 10_000


@dataclass(frozen=True)
class Resource:
    """What advancement spends: ``trait`` (a whole-number trait of the character) and its
    ``label`` ``{"en", "ru"}`` (``"Development points"``, ``"Experience"``); ``short`` is the
    label in a price (``"DP"``, ``"XP"``)."""

    trait: str
    label: Mapping[str, str]
    short: Mapping[str, str] | None = None

    def price_text(self, amount: int, locale: str = "en") -> str:
        return f"{amount} {tr(self.short or self.label, locale)}"


@dataclass(frozen=True)
class AdvanceSpec(SpecOptions):
    """One thing a character in play can buy now.

    id          stable within the character's advances (``"raise:strength"``, ``"skill:stealth"``)
    label       ``{"en", "ru"}``, what the sheet lists (``"Strength 3 → 4"``)
    kind        one of :data:`ADVANCE_KINDS` (or the system's own word)
    cost        the price at the default options: ``{resource trait: amount}``
    options     what the advance takes (which skill, the GM's leave...)
    gm_options  names of ``options`` only the GM may set (RET's ability bought with the GM's
                leave): at a table a player's advance that sets one is refused
    help        a sentence on what it does and why it costs that, or None
    blocked     why it cannot be bought now (``{"en", "ru"}``: not enough experience, a level
                needed first), or None; a blocked advance is listed so its price is seen
    group       a heading to group it under (``{"en", "ru"}``), or None
    """

    id: str
    label: Mapping[str, str]
    kind: str = "raise"
    cost: Mapping[str, int] = field(default_factory=dict)
    options: Sequence[OptionSpec] = ()
    gm_options: Sequence[str] = ()
    help: Mapping[str, str] | None = None
    blocked: Mapping[str, str] | None = None
    group: Mapping[str, str] | None = None


@dataclass(frozen=True)
class AdvancePlan:
    """What one advance with given options would do, before it is done.

    cost     ``{resource trait: amount}`` it spends
    changes  ``{trait: new value}`` of everything else it changes (a parameter, a skill list)
    text     ``{"en", "ru"}``: ``"Strength 3 → 4 for 6 DP"``
    notes    what else a player should know (``{"en", "ru"}`` each)
    """

    advance_id: str
    cost: Mapping[str, int]
    changes: Mapping[str, Any]
    text: Mapping[str, str]
    notes: Sequence[Mapping[str, str]] = ()


@dataclass(frozen=True)
class AdvanceOutcome:
    """What an advance (or an award) did: ``changes`` ``{trait: (old, new)}`` (the resources
    spent included), the ``cost`` paid, the options used and a line of text. JSON-friendly
    values only, so a table records it as it is and replays it without the rules."""

    advance_id: str
    options: Mapping[str, Any]
    cost: Mapping[str, int]
    changes: Mapping[str, tuple[Any, Any]]
    text: Mapping[str, str]

    def line(self, locale: str = "en") -> str:
        return tr(self.text, locale)


def find_advance(advances: Sequence[AdvanceSpec], advance_id: Any) -> AdvanceSpec:
    """The advance ``advance_id`` among ``advances``, or a :class:`RuleError` a player can read."""
    for spec in advances:
        if spec.id == advance_id:
            return spec
    raise RuleError(
        "unknown_advance",
        T(
            f"{advance_id!r} is not something this character can buy now.",
            f"«{advance_id}» этот персонаж сейчас купить не может.",
        ),
        advance=str(advance_id),
    )


def checked_advance_options(spec: AdvanceSpec, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` checked against ``spec`` (known names, allowed values), defaults filled in; a
    :class:`RuleError` names the first bad one."""
    return checked_spec_options(spec, options, f"У «{tr(spec.label, 'ru')}»")


def not_in_play() -> RuleError:
    return RuleError(
        "not_in_play",
        T(
            "Advancement is for a character in play: finish the character first.",
            "Развитие доступно персонажу в игре: сначала завершите создание персонажа.",
        ),
    )


def resource_of(system, trait: str) -> Resource:
    """The system's :class:`Resource` ``trait``, or a :class:`RuleError`."""
    for r in system.advancement_resources():
        if r.trait == trait:
            return r
    names = ", ".join(tr(r.label) for r in system.advancement_resources()) or "none"
    names_ru = ", ".join(tr(r.label, "ru") for r in system.advancement_resources()) or "нет"
    raise RuleError(
        "unknown_resource",
        T(
            f"{trait!r} is not something this game awards (it awards: {names}).",
            f"«{trait}» в этой игре не выдаётся (выдаётся: {names_ru}).",
        ),
        resource=str(trait),
    )


def price_text(system, cost: Mapping[str, int], locale: str = "en") -> str:
    """``cost`` as a player reads it: ``"6 DP"``, ``"10 XP and 1 Thread"``, ``"free"``."""
    parts = []
    for trait, amount in cost.items():
        try:
            parts.append(resource_of(system, trait).price_text(amount, locale))
        except RuleError:
            parts.append(f"{amount} {trait}")
    if not parts:
        return "бесплатно" if locale == "ru" else "free"
    return (" и " if locale == "ru" else " and ").join(parts)


def spend(system, character, cost: Mapping[str, int]) -> dict[str, int]:
    """The resource values after paying ``cost``: ``{trait: new value}``; a :class:`RuleError`
    (``not_enough``) that says what it costs and what the character has when it cannot pay."""
    after: dict[str, int] = {}
    for trait, amount in cost.items():
        have = int(getattr(character, trait))
        if amount > have:
            r = resource_of(system, trait)
            raise RuleError(
                "not_enough",
                T(
                    f"Not enough {tr(r.label)}: this costs {amount}, the character has {have}.",
                    f"Не хватает: {tr(r.label, 'ru')} — нужно {amount}, у персонажа {have}.",
                ),
                resource=trait,
                cost=amount,
                have=have,
            )
        after[trait] = have - amount
    return after


def _errors(problems: Sequence[Problem]) -> set[tuple[str, str | None]]:
    return {(p.code, p.field) for p in problems if p.severity == "error"}


def perform(system, character, advance_id: str, options: Mapping[str, Any]) -> AdvanceOutcome:
    """:meth:`GameSystem.advance`: in play only; the advance offered now, not blocked, its options
    checked; the system's plan paid for (:func:`spend`) and tried on a copy, refused when the copy
    breaks a rule the character kept; then set on ``character`` at once."""
    if getattr(character, "phase", "creation") != "play":
        raise not_in_play()
    spec, opts = system.advance_spec(character, advance_id, options)
    if spec.blocked:
        raise RuleError("advance_blocked", dict(spec.blocked), advance=spec.id)
    plan = system.plan_advance(character, spec.id, **opts)
    values = {**{k: copy.deepcopy(v) for k, v in plan.changes.items()}, **spend(system, character, plan.cost)}
    return _apply(system, character, spec.id, opts, dict(plan.cost), values, plan.text)


def _apply(system, character, advance_id, opts, cost, values, text) -> AdvanceOutcome:
    from .combat.records import clone_character

    before_errors = _errors(system.validate(character))
    trial = clone_character(character)
    trial.update(**values)
    new = [p for p in system.validate(trial) if p.severity == "error" and (p.code, p.field) not in before_errors]
    if new:
        lines = {loc: "; ".join(p.full_text(loc) for p in new) for loc in ("en", "ru")}
        raise RuleError(
            "advance_breaks_rules",
            T(f"Not allowed by the rules: {lines['en']}", f"Правила этого не позволяют: {lines['ru']}"),
            problems=new,
        )
    old = {name: copy.deepcopy(getattr(character, name)) for name in values}
    character.update(**values)
    changes = {name: (old[name], getattr(character, name)) for name in values if old[name] != getattr(character, name)}
    return AdvanceOutcome(advance_id, dict(opts), cost, changes, dict(text))


def perform_award(system, character, trait: str, amount: Any) -> AdvanceOutcome:
    """:meth:`GameSystem.award`: ``amount`` (a whole number from 1 to :data:`MAX_AWARD`) of the
    system's resource ``trait`` added to ``character``."""
    r = resource_of(system, trait)
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= MAX_AWARD:
        raise RuleError(
            "bad_award",
            T(
                f"An award is a whole number from 1 to {MAX_AWARD}.",
                f"Награда — целое число от 1 до {MAX_AWARD}.",
            ),
            amount=amount if isinstance(amount, (int, str)) else None,
        )
    have = int(getattr(character, trait))
    values = system.award_changes(character, trait, amount) or {trait: have + amount}
    text = T(
        f"{character.name or 'The character'} gets {r.price_text(amount, 'en')}.",
        f"{character.name or 'Персонаж'} получает {r.price_text(amount, 'ru')}.",
    )
    return _apply(system, character, f"award:{trait}", {"amount": amount}, {}, values, text)


__all__ = [
    "ADVANCE_KINDS",
    "MAX_AWARD",
    "AdvanceOutcome",
    "AdvancePlan",
    "AdvanceSpec",
    "Resource",
    "checked_advance_options",
    "find_advance",
    "not_in_play",
    "perform",
    "perform_award",
    "price_text",
    "resource_of",
    "spend",
]
