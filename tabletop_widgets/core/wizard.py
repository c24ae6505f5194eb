"""The creation wizard: the book's creation steps in order, each explained, with a running budget.

A system declares its steps (:meth:`GameSystem.creation_wizard`: :class:`WizardStep`, each with
the sheet fields it sets) and its budgets (:meth:`GameSystem.creation_budgets`: :class:`Budget`,
``"12 of 70 points spent"``). :class:`Wizard` is the plain-Python model a view drives: the
current step, its problems (what :meth:`GameSystem.validate` says about the step's fields),
"next" (refused while the step's own errors remain), "back", and "finish" on the last step
(:meth:`GameSystem.start_play`). A system that declares no steps gets one step per sheet section
that has fields a player sets.

Plain data only: no ipywidgets, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .creation import NAME_STEP
from .i18n import T, tr
from .phases import blocks_play
from .problems import Problem, RuleError

#: Sheet field kinds a player sets at creation (the default steps leave out the rest).
SETTABLE_KINDS = frozenset({"text", "longtext", "input", "choice", "list", "flag", "tags", "mapping"})


@dataclass(frozen=True)
class Budget:
    """A creation budget as it stands: ``spent`` of ``total`` (``label``: what is spent,
    ``{"en", "ru"}``, e.g. "Parameter points")."""

    label: Mapping[str, str]
    spent: int
    total: int

    @property
    def left(self) -> int:
        return self.total - self.spent

    def text(self, locale: str = "en") -> str:
        """``"Parameter points: 12 of 70 spent, 58 left"`` (or "... 3 over")."""
        name = tr(self.label, locale)
        if locale == "ru":
            tail = f"осталось {self.left}" if self.left >= 0 else f"перерасход {-self.left}"
            return f"{name}: потрачено {self.spent} из {self.total}, {tail}"
        tail = f"{self.left} left" if self.left >= 0 else f"{-self.left} over"
        return f"{name}: {self.spent} of {self.total} spent, {tail}"


@dataclass(frozen=True)
class WizardStep:
    """One creation step.

    id       stable (``"parameters"``, ``"skills"``)
    title    ``{"en", "ru"}``
    explain  a sentence or two on what this step decides and by which rule (``{"en", "ru"}``)
    fields   the sheet fields (trait names) this step sets, in order
    budgets  keys of :meth:`GameSystem.creation_budgets` to show on this step
    """

    id: str
    title: Mapping[str, str]
    explain: Mapping[str, str]
    fields: Sequence[str] = ()
    budgets: Sequence[str] = ()


def default_steps(system) -> list[WizardStep]:
    """One step per sheet section with fields a player sets (not derived, not GM-only)."""
    sheet = getattr(system, "sheet", None)
    steps = []
    for section in getattr(sheet, "sections", ()) or ():
        names = [f.name for f in section.fields if f.kind in SETTABLE_KINDS and not f.for_gm]
        if names:
            label = section.label
            steps.append(
                WizardStep(
                    section.id,
                    label,
                    T(f"Fill in {tr(label, 'en')}.", f"Заполните раздел «{tr(label, 'ru')}»."),
                    tuple(names),
                )
            )
    return steps


class Wizard:
    """The wizard over ``character`` (in creation) of ``system``: ``index`` is the current step.
    The steps are asked again on each call (a choice in one step may change a later one).

    ``start_play`` is how :meth:`finish` puts the character into play: by default
    ``system.start_play(character)``; a shared table passes its seat action (which checks the
    seat and records the event), e.g. ``lambda c: session.finish_character(character_id)``."""

    def __init__(self, system, character: Any, *, start_play: Callable[[Any], Any] | None = None):
        self.system = system
        self.character = character
        self.index = 0
        self._start_play = start_play

    # -- what is shown --------------------------------------------------------------------------
    @property
    def steps(self) -> list[WizardStep]:
        return list(self.system.creation_wizard(self.character))

    @property
    def step(self) -> WizardStep:
        steps = self.steps
        self.index = max(0, min(self.index, len(steps) - 1))
        return steps[self.index]

    @property
    def is_last(self) -> bool:
        return self.index >= len(self.steps) - 1

    def fields(self) -> list[str]:
        """The trait names the current step asks for: its own fields and, on the last step, the
        sheet fields of problems still keeping the character from play that no step sets (so a
        player can fix every one of them in the wizard)."""
        fields = list(self.step.fields)
        if not self.is_last:
            return fields
        asked = {name for step in self.steps for name in step.fields}
        sheet = getattr(self.system, "sheet", None)
        on_sheet = [f.name for f in sheet.fields()] if sheet is not None else []
        stuck = {p.field for p in self.problems() if blocks_play(p) and p.field and p.field not in asked}
        return fields + [name for name in on_sheet if name in stuck]

    def budgets(self) -> list[Budget]:
        """The current step's budgets as they stand."""
        every = self.system.creation_budgets(self.character)
        return [every[key] for key in self.step.budgets if key in every]

    def problems(self) -> list[Problem]:
        """The current step's problems: the rules' problems on its fields (and a missing name on
        the step that sets it); on the last step every problem still keeping the character from
        play."""
        problems = list(self.system.validate(self.character))
        if "name" in self.step.fields and not str(getattr(self.character, "name", "") or "").strip():
            problems.insert(0, Problem("no_name", NAME_STEP, field="name", label=T("Name", "Имя")))
        if self.is_last:
            return [p for p in problems if blocks_play(p) or p.field in self.step.fields]
        fields = set(self.step.fields)
        return [p for p in problems if p.field in fields]

    def step_errors(self) -> list[Problem]:
        """The current step's problems that keep the player on it."""
        return [p for p in self.problems() if blocks_play(p)]

    # -- moving -----------------------------------------------------------------------------------
    def next(self) -> WizardStep:
        """Go to the next step; refused (:class:`RuleError` listing them) while this step's own
        errors remain, and on the last step (finish instead)."""
        if self.is_last:
            raise RuleError(
                "last_step",
                T("This is the last step: finish the character.", "Это последний шаг: завершите персонажа."),
            )
        errors = self.step_errors()
        if errors:
            lines = {loc: "\n".join(f"- {p.full_text(loc)}" for p in errors) for loc in ("en", "ru")}
            raise RuleError(
                "step_problems",
                T(f"Before the next step, fix:\n{lines['en']}", f"Прежде чем идти дальше, исправьте:\n{lines['ru']}"),
                problems=errors,
            )
        self.index += 1
        return self.step

    def back(self) -> WizardStep:
        """Go back one step (nothing is undone)."""
        self.index = max(0, self.index - 1)
        return self.step

    def finish(self) -> Any:
        """On the last step: ``GameSystem.start_play`` (its refusal lists what is left), or the
        ``start_play`` given to the wizard (its answer is returned)."""
        if not self.is_last:
            raise RuleError("not_last_step", T("Go through every step first.", "Сначала пройдите все шаги."))
        if self._start_play is not None:
            return self._start_play(self.character)
        return self.system.start_play(self.character)


__all__ = ["SETTABLE_KINDS", "Budget", "Wizard", "WizardStep", "default_steps"]
