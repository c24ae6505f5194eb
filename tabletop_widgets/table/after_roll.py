"""What a player may still do to their latest check at a shared table (issue #17, L351:
Life&Death's epic dice spent after the roll), checked in Python whatever the browser sends.

``TableSession.after_roll(index, **options)`` calls :func:`after_roll_events` inside the write:

* the check must be this seat's own, the latest check of its character, rolled in the game
  session still open, and not amended before (once per roll; the new result's own offer is for
  the tray, not for a second amendment);
* the check is computed again from the roll as the table recorded it (the sheet it was rolled
  with, its options, the fair-dice stream of its index) and must equal the recorded outcome;
* the system's ``after_roll`` reads that result again with ``options`` (checked against its
  ``after_roll_options``: unknown names and values out of range are refused) on the character
  as the table holds it now; its effects are applied all or nothing.

It writes a ``check.after`` event (the new outcome, seen by every seat that saw the check, with
the character as it was worked out on) and a ``character.update`` (the effects: the epic dice
spent), in one transaction. No die is drawn; ``verify_table`` works the change out again from the
check's own stream and that character, and checks that the update spent what it cost.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from ..core.i18n import LOCALES, T
from ..core.problems import RuleError
from .events import jsonable
from .kinds import CHARACTER_UPDATE, CHECK, CHECK_AFTER, is_kind
from .kinds.dice import check_json
from .rolling import DrawWatch
from .rules import PlayError
from .state import TableState
from .store import NewEvent


def refused(code: str, en: str, ru: str) -> PlayError:
    return PlayError(code, T(en, ru))


def latest_check(state: TableState, character_id: str) -> Mapping[str, Any] | None:
    """The log entry of ``character_id``'s latest check this view saw (None: none)."""
    for entry in reversed(state.log):
        if is_kind(entry, CHECK) and entry.get("character_id") == character_id:
            return entry
    return None


def amended(state: TableState, index: int) -> bool:
    return any(is_kind(e, CHECK_AFTER) and e.get("index") == index for e in state.log)


def find_check(state: TableState, seat: str, index: Any) -> Mapping[str, Any]:
    """The log entry of the check ``index`` this seat may amend, or the refusal."""
    if isinstance(index, bool) or not isinstance(index, int):
        raise refused("bad_roll", "Which roll? Its number is needed.", "Какой бросок? Нужен его номер.")
    entry = next((e for e in reversed(state.log) if is_kind(e, CHECK) and e.get("index") == index), None)
    if entry is None:
        raise refused("no_such_check", f"There is no check number {index}.", f"Проверки № {index} нет.")
    if entry.get("actor") != seat:
        raise refused(
            "not_your_roll",
            "Only the player who rolled a check may change it after the roll.",
            "Изменить проверку после броска может только тот, кто её бросал.",
        )
    if latest_check(state, str(entry.get("character_id"))) is not entry:
        raise refused(
            "not_latest_roll",
            "Only the latest check of a character may be changed after the roll.",
            "После броска можно изменить только последнюю проверку персонажа.",
        )
    first = int(state.session_list()[-1].get("first_roll") or 0)
    if not state.session_open or index < first:
        raise refused(
            "old_roll",
            "That check was rolled in a game session that is over.",
            "Эта проверка брошена в уже закончившейся игровой сессии.",
        )
    if amended(state, index):
        raise refused(
            "already_amended",
            "This check was already changed after the roll.",
            "Эту проверку уже изменили после броска.",
        )
    return entry


def may_amend(session, index: int) -> bool:
    """Whether this seat may change check ``index`` after the roll now (what the tray asks
    before it offers; :func:`after_roll_events` checks it again when it is done)."""
    try:
        entry = find_check(session.state, session.seat, index)
    except PlayError:
        return False
    return session.can("check", str(entry.get("character_id")))


def after_roll_events(session, tx, index: Any, options: Mapping[str, Any], locale: str = "en") -> list[NewEvent]:
    """The events of an after-roll change to check ``index`` (see the module's text), or the
    refusal (:class:`PlayError` or the rules' :class:`RuleError`); nothing is written then."""
    state, system = session.state, session.system
    entry = find_check(state, session.seat, index)
    cid = str(entry["character_id"])
    recorded = next((e for e in tx.events_after(int(entry["seq"]) - 1) if e.seq == entry["seq"]), None)
    if recorded is None or not is_kind(recorded, CHECK):
        raise refused("no_such_check", f"There is no check number {index}.", f"Проверки № {index} нет.")
    p = recorded.payload
    data = state.characters.get(cid)
    if data is None:
        raise refused("no_character", "That character is not at this table.", "Этого персонажа нет за столом.")
    opts = jsonable(dict(options))
    try:
        again, result = CHECK_AFTER.worked_out(system, p, data, opts, DrawWatch(tx.secret_seed(), index))
    except NotImplementedError:
        raise RuleError(
            "no_after_roll", T("Nothing more can be done to this roll.", "С этим броском больше ничего сделать нельзя.")
        ) from None
    if json.loads(json.dumps(check_json(again), sort_keys=True)) != p["result"]:
        raise refused(
            "check_not_replayed",
            "This check cannot be read again as it was rolled, so it cannot be changed.",
            "Эту проверку не удаётся прочитать заново так, как она выпала, поэтому изменить её нельзя.",
        )
    model = system.Character.from_dict(data)
    changes = system.apply_effects(model, result.effects) if result.effects else {}
    out = [
        CHECK_AFTER.new(
            session.actor,
            recorded.audience,
            index=index,
            system=system.slug,
            check_id=p["check_id"],
            character_id=cid,
            options=opts,
            hidden=bool(p.get("hidden")),
            result=check_json(result),
            text=result.text(locale),
            texts={loc: result.breakdown(loc) for loc in LOCALES},
            character=jsonable(data),
        )
    ]
    if changes:
        out.append(
            CHARACTER_UPDATE.new(
                session.actor,
                recorded.audience,
                character_id=cid,
                changes=jsonable({k: v[1] for k, v in changes.items()}),
                reason={"check": p["check_id"], "index": index, "after_roll": True},
            )
        )
    return out


__all__ = ["after_roll_events", "find_check", "latest_check", "may_amend"]
