"""What a character still lacks before play: the creation steps, in the order of its sheet.

A new seat's character starts blank, and a blank character fails its own system's creation
rules. :func:`creation_steps` turns what the system says (``GameSystem.validate``) into steps a
player can follow, one line each, in the order the sheet shows the fields (the name first);
:func:`is_unfinished` says whether any step is left. A guided wizard can later replace how the
steps are shown; what is missing stays decided here, by the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .i18n import T, tr

#: The step for a character without a name (not every system counts it as a rule).
NAME_STEP = T("Give your character a name.", "Дайте персонажу имя.")
#: What a step without a sheet field is about.
WHOLE_CHARACTER = T("Character", "Персонаж")


@dataclass(frozen=True)
class CreationStep:
    """One thing still missing: ``field`` (a trait name, or None for the whole character),
    ``label`` (the field as the sheet names it), ``message`` (what to do), both bilingual;
    ``severity`` is the rules' (``"error"``: the rules are broken; ``"warning"``: left to do)."""

    field: str | None
    label: Mapping[str, str]
    message: Mapping[str, str]
    severity: str = "error"
    code: str = ""

    def text(self, locale: str = "en") -> str:
        """The step as one line: ``Skills: You have 0 skills ...``."""
        return f"{tr(self.label, locale)}: {tr(self.message, locale)}"


def _field_order(system) -> dict[str, tuple[int, Mapping[str, str]]]:
    sheet = getattr(system, "sheet", None)
    fields = sheet.fields() if sheet is not None else []
    return {f.name: (i, f.label) for i, f in enumerate(fields)}


def creation_steps(system, character: Any) -> list[CreationStep]:
    """The steps ``character`` still needs, in the sheet's order (the name first, then the
    fields as the sheet lays them out, then whole-character rules), one per problem the
    system's ``validate`` reports. A character in play (``phase``) has none left."""
    if getattr(character, "phase", "creation") == "play":
        return []
    order = _field_order(system)
    steps: list[tuple[tuple[int, int], CreationStep]] = []
    if "name" in getattr(character, "traits", dict)() and not str(getattr(character, "name", "") or "").strip():
        label = order.get("name", (0, T("Name", "Имя")))[1]
        steps.append(((-1, 0), CreationStep("name", label, NAME_STEP, "error", "no_name")))
    for n, problem in enumerate(system.validate(character)):
        place, label = order.get(problem.field or "", (len(order), WHOLE_CHARACTER))
        steps.append(
            (
                (place, n),
                CreationStep(problem.field, label, dict(problem.message), problem.severity, problem.code),
            )
        )
    return [step for _key, step in sorted(steps, key=lambda item: item[0])]


def is_unfinished(system, character: Any) -> bool:
    """Whether ``character`` still has creation steps left."""
    return bool(creation_steps(system, character))


__all__ = ["CreationStep", "NAME_STEP", "creation_steps", "is_unfinished"]
