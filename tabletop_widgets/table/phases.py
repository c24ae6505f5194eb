"""A character's phase at a shared table (issue #17): finishing a character is a seat action of
its own, checked in Python whatever the browser sends.

* :func:`finish_changes`: what finishing a stored character changes (``GameSystem.start_play``
  on the character as the table holds it), or the system's refusal (a ``RuleError`` listing the
  creation problems). ``TableSession.finish_character`` records it as a ``character.update``
  with ``reason="finish"``: the GM may finish any character, a player their own.
* :func:`check_phase_edit`: on every other character write (a sheet edit, the sheet's JSON Load,
  ``update_character``, ``set_character``), a player changes neither the phase (only finishing
  does, by the rules) nor, once the character is in play, a field only creation sets
  (``Field.creation_only``: RET's parameters, a race); the GM still may.
* :func:`check_players_make`: a player's write to (or finishing of) a character in creation is
  refused while the GM has not let players make their characters (the table option
  ``players_build``, a ``table.option`` event; allowed by default).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..core.i18n import T
from ..core.system import term_of
from .rules import PlayDenied, field_labels


def creation_only_fields(system) -> frozenset[str]:
    """Trait names the system's sheet marks as set at creation (``Field.creation_only``)."""
    sheet = getattr(system, "sheet", None)
    if sheet is None:
        return frozenset()
    return frozenset(f.name for f in sheet.fields() if f.creation_only)


def check_phase_edit(
    system, role: str, before: Mapping[str, Any], after: Mapping[str, Any], *, replace: bool = False
) -> None:
    """Refuse (:class:`~.rules.PlayDenied`) a non-GM seat's write that changes the character's
    phase, or, while the character is in play, a creation-only field. ``after`` is the whole
    sheet with ``replace`` (a field it leaves out is reset, which is a change too), else the
    changed values only."""
    if role == "gm" or not before:
        return
    model = system.Character
    merged = dict(after) if replace else {**before, **after}
    was, now = model.phase_of(before), model.phase_of(merged)
    if was != now:
        raise PlayDenied(
            "phase_edit",
            "character.edit",
            role,
            T(
                "The phase changes only when the character is finished (the Finish character button), "
                f"or by the {term_of(system, 'gm', 'en')}.",
                "Этап меняется только при завершении персонажа (кнопка «Завершить персонажа»); "
                f"иначе его меняет только {term_of(system, 'gm', 'ru')}.",
            ),
        )
    if was != "play":
        return
    before_values, after_values = model.renamed(before), model.renamed(merged)
    changed = sorted(n for n in creation_only_fields(system) if before_values.get(n) != after_values.get(n))
    if changed:
        en, ru = field_labels(system, changed)
        raise PlayDenied(
            "creation_field",
            "character.edit",
            role,
            T(
                f"The character is in play: {', '.join(en)} was set at creation, and now only the rules "
                f"or the {term_of(system, 'gm', 'en')} change it.",
                f"Персонаж уже в игре: {', '.join(ru)} задаётся при создании, теперь это меняют только "
                f"правила или {term_of(system, 'gm', 'ru')}.",
            ),
            fields=changed,
        )


def check_players_make(system, role: str, before: Mapping[str, Any], allowed: bool) -> None:
    """Refuse (:class:`~.rules.PlayDenied`, naming the GM) a non-GM seat's change to a character
    in creation while the GM has not let players make their characters (``allowed``: the
    table option ``players_build``)."""
    if role == "gm" or allowed or not before:
        return
    if system.Character.phase_of(before) != "creation":
        return
    raise PlayDenied(
        "players_make",
        "character.edit",
        role,
        T(
            f"The {term_of(system, 'gm', 'en')} prepares the characters at this table: only the "
            f"{term_of(system, 'gm', 'en')} changes a character in creation (the "
            f"{term_of(system, 'gm', 'en')} can let players make their own).",
            f"Персонажей за этим столом готовит {term_of(system, 'gm', 'ru')}: персонажа в создании "
            f"меняет только {term_of(system, 'gm', 'ru')} (он может разрешить игрокам создавать "
            "своих персонажей самим).",
        ),
    )


def finish_changes(system, data: Mapping[str, Any]) -> dict[str, Any]:
    """The values finishing the stored character ``data`` changes (``{"phase": "play", ...}``),
    by the system's ``start_play`` on a copy; its ``RuleError`` (the creation problems, or
    "already in play") when it refuses."""
    character = system.Character.from_dict(data)
    changes = system.start_play(character)
    return {name: new for name, (_old, new) in changes.items()}


__all__ = ["check_phase_edit", "check_players_make", "creation_only_fields", "finish_changes"]
