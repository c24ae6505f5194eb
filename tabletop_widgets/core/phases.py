"""A character's phase: being created, or in play.

Every character carries ``phase`` (:data:`PHASES`): ``"creation"`` while it is being made (the
creation rules apply: budgets, starting values, required picks) and ``"play"`` once it is
finished (only what always holds: ranges, the system's invariants). ``GameSystem.validate``
reports by phase; ``GameSystem.start_play`` is the one step from creation to play, refused while
creation problems remain (:func:`blocks_play`, :func:`refusal`). A saved character without a
phase loads in creation (the default).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from traitlets import Unicode

from .i18n import T, tr
from .problems import Problem, RuleError, ValidationError, shown_value
from .sheet import SheetAction

#: The phases, in the order a character goes through them.
PHASES = ("creation", "play")
#: The phase of a character that says none (an old saved character).
DEFAULT_PHASE = "creation"
#: The phase's name, as a sheet labels it.
PHASE_LABEL = T("Phase", "Этап")
#: Each phase as a player reads it.
PHASE_WORDS: dict[str, dict[str, str]] = {
    "creation": T("Being created", "Создаётся"),
    "play": T("In play", "В игре"),
}


#: The sheet's "Finish character" action: ``GameSystem.start_play`` (any system; a shared table
#: records it as its own seat action)
FINISH_ACTION = SheetAction(T("Finish character", "Завершить персонажа"), "start_play")


def phase_words(phase: str, locale: str = "en") -> str:
    """``phase`` as a player reads it (``"In play"`` / «В игре»)."""
    return tr(PHASE_WORDS.get(phase, PHASE_WORDS[DEFAULT_PHASE]), locale)


def bad_phase(value: Any) -> Problem:
    """The problem of a phase that is not one of :data:`PHASES`, quoting what was given."""
    shown = shown_value(value)
    not_en = f" (not {shown})" if shown else ""
    not_ru = f" (а не {shown})" if shown else ""
    return Problem(
        "bad_phase",
        T(
            f'A character is either being created ("creation") or in play ("play"){not_en}.',
            f"Персонаж либо создаётся («creation»), либо уже в игре («play»){not_ru}.",
        ),
        field="phase",
        label=PHASE_LABEL,
        data={"value": value if isinstance(value, (str, int, float, bool, type(None))) else None},
    )


class PhaseTrait(Unicode):
    """The ``phase`` trait: one of :data:`PHASES`; anything else is refused with a
    :class:`~.problems.ValidationError` that says what a phase may be, in both languages."""

    def __init__(self, **kwargs: Any):
        super().__init__(DEFAULT_PHASE, help="creation or play", **kwargs)

    def validate(self, obj: Any, value: Any) -> str:
        if not isinstance(value, str) or value not in PHASES:
            raise ValidationError([bad_phase(value)])
        return value


def blocks_play(problem: Problem) -> bool:
    """Whether ``problem`` keeps a character in creation: every error, and the warnings a
    system marks so (``data["blocks_finalize"]``: Seasons' unspent points, unless the GM allows)."""
    return problem.severity == "error" or bool((problem.data or {}).get("blocks_finalize"))


def refusal(problems: Iterable[Problem]) -> RuleError:
    """The :class:`RuleError` of a refused ``start_play``: every problem on its own line, with its
    field's label; ``data["problems"]`` holds them."""
    problems = list(problems)
    lines = {loc: "\n".join(f"- {p.full_text(loc)}" for p in problems) for loc in ("en", "ru")}
    return RuleError(
        "creation_problems",
        T(
            f"The character cannot start play yet; fix these first:\n{lines['en']}",
            f"Персонаж ещё не может вступить в игру; сначала исправьте:\n{lines['ru']}",
        ),
        problems=problems,
    )


def already_in_play() -> RuleError:
    return RuleError(
        "already_in_play",
        T("This character is already in play.", "Этот персонаж уже в игре."),
    )


def phase_of(data: Mapping[str, Any], renamed: Mapping[str, str] | None = None) -> str:
    """The phase of stored character values ``data`` (old names in ``renamed`` understood; none:
    :data:`DEFAULT_PHASE`)."""
    value = data.get("phase")
    if value is None:
        for old, new in (renamed or {}).items():
            if new == "phase" and old in data:
                value = data[old]
                break
    return value if isinstance(value, str) and value in PHASES else DEFAULT_PHASE


__all__ = [
    "DEFAULT_PHASE",
    "FINISH_ACTION",
    "PHASES",
    "PHASE_LABEL",
    "PHASE_WORDS",
    "PhaseTrait",
    "already_in_play",
    "bad_phase",
    "blocks_play",
    "phase_of",
    "phase_words",
    "refusal",
]


def old_name(trait: str = "phase") -> property:
    """A property that reads and writes ``trait`` under an old name a system used before (L&D's
    and Threads' ``stage`` is the ``phase`` now); the model's ``RENAMED`` maps the old name when
    a saved character is loaded."""
    return property(
        lambda self: getattr(self, trait),
        lambda self, value: setattr(self, trait, value),
        doc=f"The character's ``{trait}`` under its old name.",
    )
