"""Advancement at a shared table (issues #17 and #18): a player spends what their character
earned, the GM awards it, during a session or between two; checked in Python whatever the
browser sends, and recorded as outcomes.

* :func:`advance_update` / :func:`award_update`: what ``TableSession.advance`` and
  ``TableSession.award`` write, computed on the character as the table holds it (a copy: the
  system's ``advance`` / ``award`` on it), or the refusal. The event is a ``character.update``
  whose ``changes`` are the values after it and whose ``reason`` says what it was (see
  :func:`reason_of`): the advance's id, options, cost and line of text, or the award's resource
  and amount. Replaying it needs no rules: the values are in the event.
* Seat checks: a player advances only their own character (the role check), never sets one of
  the advance's ``gm_options`` (:func:`check_gm_options`); only the GM awards.
* :func:`check_character_write`: on every other character write (a sheet edit, the JSON Load,
  ``update_character``, ``set_character``), a player changes no advancement resource of a
  character in play (only awards and advances do), and no seat writes an update that claims to
  be an advance or an award (only the two methods write those reasons).
* :func:`outcome_of`: the :class:`~tabletop_widgets.core.advancement.AdvanceOutcome` an event
  recorded (what a sheet shows after buying); :func:`advancement_line`: the line a transcript
  shows.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..core.advancement import AdvanceOutcome, not_in_play
from ..core.i18n import T, tr
from ..core.system import term_of
from .events import jsonable, validate
from .rules import PlayDenied, PlayError
from .seats import register_action

#: The reasons (``reason["kind"]``) of the ``character.update`` events this module writes.
ADVANCE, AWARD = "advance", "award"
REASON_KINDS = frozenset({ADVANCE, AWARD})

#: Awarding is the GM's (the role check); advancing is a character edit (a player: their own).
register_action("character.award", ["gm"])


def reason_of(payload: Mapping[str, Any]) -> dict[str, Any] | None:
    """The advancement ``reason`` of a ``character.update`` payload (``{"kind": "advance",
    "advance_id", "options", "cost", "text"}`` or ``{"kind": "award", "resource", "amount",
    "text"}``), or None for any other update."""
    reason = payload.get("reason")
    if isinstance(reason, Mapping) and reason.get("kind") in REASON_KINDS:
        return dict(reason)
    return None


def _no_character(character_id: Any) -> PlayError:
    return PlayError(
        "no_character",
        T(
            f"There is no character {character_id!r} at this table that this seat can see.",
            f"За этим столом нет персонажа «{character_id}», которого видно с этого места.",
        ),
        character_id=str(character_id),
    )


def _model(system, data: Mapping[str, Any] | None, character_id: Any):
    if data is None:
        raise _no_character(character_id)
    return system.Character.from_dict(data)


def check_gm_options(system, role: str, spec, options: Mapping[str, Any]) -> None:
    """A player's advance that sets one of the advance's ``gm_options`` (a price only the GM's
    leave gives), or an option whose ``OptionSpec.gm_only`` says so: refused, saying the GM
    does it."""
    if role == "gm":
        return
    gm_only = [*spec.gm_options, *(o.name for o in spec.options if o.gm_only and o.name not in spec.gm_options)]
    set_by_player = [name for name in gm_only if name in options]
    if not set_by_player:
        return
    labels_en, labels_ru = [], []
    for name in set_by_player:
        try:
            label = spec.option(name).label
        except KeyError:
            label = {"en": name, "ru": name}
        labels_en.append(tr(label, "en"))
        labels_ru.append(tr(label, "ru"))
    gm_en, gm_ru = term_of(system, "gm", "en"), term_of(system, "gm", "ru")
    raise PlayDenied(
        "gm_option",
        "character.edit",
        role,
        T(
            f"{', '.join(labels_en)}: only the {gm_en} sets this; ask the {gm_en} to make this advance.",
            f"{', '.join(labels_ru)}: это задаёт только {gm_ru}; попросите, чтобы это развитие сделал {gm_ru}.",
        ),
        options=set_by_player,
    )


def _update(character_id: str, outcome: AdvanceOutcome, reason: Mapping[str, Any]) -> dict[str, Any]:
    changes = {name: new for name, (_old, new) in outcome.changes.items()}
    return validate(
        "character.update",
        {"character_id": character_id, "changes": jsonable(changes), "reason": jsonable(dict(reason))},
    )


def _options(options: Any) -> dict[str, Any]:
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        raise PlayError(
            "bad_options",
            T("The advance's options must be named values.", "Параметры развития должны быть именованными значениями."),
        )
    return dict(options)


def advance_update(
    system, role: str, character_id: str, data: Mapping[str, Any] | None, advance_id: Any, options: Any
) -> dict[str, Any]:
    """The ``character.update`` payload of buying ``advance_id`` with ``options`` for the stored
    character ``data`` (the system's ``advance`` on a copy; ``data`` is not changed), or the
    refusal: a ``RuleError`` of the rules (not in play, unknown advance, bad option, not enough),
    a :class:`PlayDenied` for a player's GM option."""
    opts = _options(options)
    character = _model(system, data, character_id)
    if getattr(character, "phase", "creation") != "play":
        raise not_in_play()
    if isinstance(advance_id, str):  # an id of the wrong kind: the rules' own "unknown" refusal
        spec, _checked = system.advance_spec(character, advance_id, opts)
        check_gm_options(system, role, spec, opts)
    outcome = system.advance(character, advance_id, **opts)
    reason = {
        "kind": ADVANCE,
        "advance_id": outcome.advance_id,
        "options": dict(outcome.options),
        "cost": dict(outcome.cost),
        "text": dict(outcome.text),
    }
    return _update(character_id, outcome, reason)


def not_in_play_award() -> PlayError:
    return PlayError(
        "award_not_in_play",
        T(
            "Awards are for a character in play: finish the character first "
            "(while it is being created, its sheet is edited directly).",
            "Награды — для персонажа в игре: сначала завершите создание персонажа "
            "(пока он создаётся, лист правят напрямую).",
        ),
    )


def check_award_role(system, role: str) -> None:
    """Only the GM awards: anyone else is refused (:class:`PlayDenied`) in words a player reads."""
    if role != "gm":
        gm_en, gm_ru = term_of(system, "gm", "en"), term_of(system, "gm", "ru")
        raise PlayDenied(
            "award_gm_only",
            "character.award",
            role,
            T(f"Only the {gm_en} gives awards.", f"Награды выдаёт только {gm_ru}."),
        )


def award_update(system, role: str, character_id: str, data: Mapping[str, Any] | None, resource: Any, amount: Any):
    """The ``character.update`` payload of the GM awarding ``amount`` of ``resource`` to the
    stored character ``data`` (the system's ``award`` on a copy), or the refusal (only the GM
    awards; a character in play; a resource the game awards; a whole number from 1 to
    ``MAX_AWARD``)."""
    check_award_role(system, role)
    character = _model(system, data, character_id)
    if getattr(character, "phase", "creation") != "play":
        raise not_in_play_award()
    if not isinstance(resource, str):
        resource = repr(resource)  # the rules' own "not something this game awards"
    outcome = system.award(character, resource, amount)
    reason = {"kind": AWARD, "resource": resource, "amount": amount, "text": dict(outcome.text)}
    return _update(character_id, outcome, reason)


def resource_traits(system) -> frozenset[str]:
    """The trait names of the system's advancement resources."""
    try:
        return frozenset(r.trait for r in system.advancement_resources())
    except Exception:  # a system without the contract
        return frozenset()


def check_character_write(
    system, role: str, before: Mapping[str, Any], data: Mapping[str, Any], *, replace: bool = False
) -> None:
    """Refuse (:class:`PlayDenied`) a character write that is not an advance or an award but
    claims to be one (any seat), or a non-GM seat's write that changes an advancement resource
    of a character in play. ``data`` is the event payload (``changes`` or, with ``replace``,
    the whole sheet in ``data``)."""
    if reason_of(data) is not None:
        raise PlayDenied(
            "advancement_reason",
            "character.edit",
            role,
            T(
                "Advances and awards are recorded only by the Advancement part of the sheet.",
                "Развитие и награды записывает только раздел листа «Развитие».",
            ),
        )
    if role == "gm" or not before:
        return
    model = system.Character
    if model.phase_of(before) != "play":
        return
    after = dict(data["data"]) if replace else {**before, **data["changes"]}
    before_values, after_values = model.renamed(before), model.renamed(after)
    changed = sorted(n for n in resource_traits(system) if before_values.get(n) != after_values.get(n))
    if not changed:
        return
    labels = {r.trait: r.label for r in system.advancement_resources()}
    en = ", ".join(tr(labels[n], "en") for n in changed)
    ru = ", ".join(tr(labels[n], "ru") for n in changed)
    gm_en, gm_ru = term_of(system, "gm", "en"), term_of(system, "gm", "ru")
    raise PlayDenied(
        "resource_edit",
        "character.edit",
        role,
        T(
            f"{en} changes only by the {gm_en}'s awards and by advances (the Advancement part of the sheet).",
            f"{ru}: меняется только наградами ({gm_ru}) и развитием (раздел листа «Развитие»).",
        ),
        fields=changed,
    )


def outcome_of(event) -> AdvanceOutcome:
    """The :class:`AdvanceOutcome` an advance or award event recorded (``changes`` as
    ``{trait: (None, new)}``: the event keeps the values after it)."""
    payload = event.payload
    reason = reason_of(payload)
    if reason is None:
        raise ValueError(f"event {getattr(event, 'seq', '?')} is not an advance or an award")
    changes = {name: (None, new) for name, new in (payload.get("changes") or {}).items()}
    if reason["kind"] == ADVANCE:
        return AdvanceOutcome(
            str(reason.get("advance_id")),
            reason.get("options") or {},
            reason.get("cost") or {},
            changes,
            reason["text"],
        )
    return AdvanceOutcome(
        f"award:{reason.get('resource')}", {"amount": reason.get("amount")}, {}, changes, reason["text"]
    )


def advancement_line(payload: Mapping[str, Any], locale: str = "en") -> str | None:
    """The line a transcript shows for an advance or award event (None for any other
    update): ``"Nerve 3 → 4 for 8 XP"``, ``"Ada gets 12 XP."``."""
    reason = reason_of(payload)
    if reason is None:
        return None
    text = reason.get("text")
    return tr(text, locale) if isinstance(text, Mapping) and text else str(reason.get("advance_id") or "")


__all__ = [
    "ADVANCE",
    "AWARD",
    "advance_update",
    "advancement_line",
    "award_update",
    "check_award_role",
    "check_character_write",
    "check_gm_options",
    "outcome_of",
    "reason_of",
    "resource_traits",
]
