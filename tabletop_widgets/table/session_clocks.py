"""The GM's progress clocks as seat actions: add a clock, tick it up or down, show it to the
players or hide it, remove it; and the clocks a seat may read (:meth:`ClockActions.clocks`).

A mixin of :class:`~.session.TableSession`: every method starts with the session's
``begin_action`` and writes through its ``transact`` (see :mod:`.session`). What a change writes
for whom is the kind's (:func:`.kinds.clocks.clock_copies`): the players never receive the name
or the fill of a known clock, nor anything of a secret one.

Every argument is checked here as a hostile page could send it (a player's forged call, a
number of the wrong type, a name of a megabyte, another table's id): a refusal is a bilingual
:class:`~.rules.PlayError` (:class:`~.rules.PlayDenied` for a seat that is not the GM's), and
nothing is written. A tick past the clock's bounds is refused, not clamped: a full clock says it
is full.
"""

from __future__ import annotations

import secrets
from typing import Any

from ..core.i18n import LOCALES, T
from ..core.system import term_of
from ..core.wording import ru_n
from .kinds import CLOCK_KINDS
from .kinds.clocks import MAX_SEGMENTS, MIN_SEGMENTS, VISIBILITIES, clock_copies, clock_entry
from .kinds import kind as event_kind
from .rules import PlayDenied, PlayError, check_text
from .seats import register_action, role_can
from .store import NewEvent, WriteTx

register_action("clock", ["gm"])

#: ``clock_id`` of a clock not made yet
_NEW = object()

#: the most clocks a table keeps at once
MAX_CLOCKS = 32

VISIBILITY_WORDS = {
    "open": T("open", "открытые"),
    "known": T("shown to the players as a blank circle", "показаны игрокам пустым кругом"),
    "secret": T("secret", "тайные"),
}


def _error(code: str, en: str, ru: str, **data: Any) -> PlayError:
    return PlayError(code, T(en, ru), **data)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def clock_name(name: Any) -> str:
    """A clock's name as the table keeps it (whitespace folded), or a :class:`PlayError`."""
    if not isinstance(name, str):
        raise _error("clock_name_text", "A clock's name must be text.", "Название часов должно быть текстом.")
    folded = " ".join(name.split())
    if not folded:
        raise _error("clock_name_empty", "Give the clock a name.", "Дайте часам название.")
    check_text("name", folded)
    return folded


def clock_segments(segments: Any) -> int:
    if not _whole(segments) or not MIN_SEGMENTS <= segments <= MAX_SEGMENTS:
        raise _error(
            "clock_segments",
            f"A clock has {MIN_SEGMENTS} to {MAX_SEGMENTS} segments.",
            f"У часов от {MIN_SEGMENTS} до {MAX_SEGMENTS} сегментов.",
        )
    return segments


def clock_visibility(visibility: Any) -> str:
    if not isinstance(visibility, str) or visibility not in VISIBILITIES:
        raise _error(
            "clock_visibility",
            "A clock is open, known (players see a blank circle) or secret.",
            "Часы бывают открытые, скрытые (игроки видят пустой круг) или тайные.",
        )
    return visibility


def tick_problem(clock: dict[str, Any], by: Any) -> PlayError | None:
    """Why ``clock`` (the GM's whole clock) cannot be ticked by ``by``; None when it can."""
    if not _whole(by) or by == 0:
        return _error(
            "clock_by",
            "Tick a clock by a whole number of segments, not 0.",
            "Часы сдвигаются на целое число сегментов, не на 0.",
        )
    name, filled, segments = clock.get("name", ""), clock.get("filled", 0), clock["segments"]
    fill = dict(name=name, filled=filled, segments=segments)
    if by > 0 and filled >= segments:
        return _error(
            "clock_full",
            "«{name}» is full: {filled} of {segments}.".format(**fill),
            "Часы «{name}» уже заполнены: {filled} из {segments}.".format(**fill),
            **fill,
        )
    if by < 0 and filled <= 0:
        return _error(
            "clock_empty",
            "«{name}» is empty: 0 of {segments}.".format(**fill),
            "Часы «{name}» пусты: 0 из {segments}.".format(**fill),
            **fill,
        )
    if filled + by > segments:
        return _error(
            "clock_over",
            f"Cannot tick «{name}» up by {by}: {filled} of {segments} are filled already.",
            f"Часы «{name}» нельзя сдвинуть вперёд на {by}: заполнено уже {filled} из {segments}.",
            **fill,
        )
    if filled + by < 0:
        return _error(
            "clock_under",
            f"Cannot tick «{name}» down by {-by}: only {filled} of {segments} are filled.",
            f"Часы «{name}» нельзя сдвинуть назад на {-by}: заполнено только {filled} из {segments}.",
            **fill,
        )
    return None


class ClockActions:
    """:meth:`add_clock`, :meth:`tick_clock`, :meth:`set_clock_visibility`, :meth:`remove_clock`
    (the GM's) and :meth:`clocks` (every seat's)."""

    def clocks(self) -> list[dict[str, Any]]:
        """The clocks this seat may see, in the order they were added: each ``{"id",
        "segments", "visibility"}``, with ``"name"`` and ``"filled"`` where this seat may read
        them (the GM: always; a player or an observer: an open clock's)."""
        got = self.state.extra.get("clocks") or {}
        return [dict(c) for c in got.values() if isinstance(c, dict)]

    # -- the GM's actions ------------------------------------------------------------------------
    def _begin_clock(self) -> None:
        if not role_can(self.role, "clock"):  # a player's forged call: said in both languages
            gm = {loc: term_of(self.system, "gm", loc) for loc in LOCALES}
            words = T(f"Only the {gm['en']} keeps the clocks.", f"Часы ведёт только {gm['ru']}.")
            raise PlayDenied("clock_gm_only", "clock", self.role, words)
        self.begin_action("clock")

    def _clock(self, clock_id: Any) -> dict[str, Any]:
        """The GM's whole clock ``clock_id`` as the table holds it now, or a :class:`PlayError`."""
        got = self.state.extra.get("clocks") or {}
        clock = got.get(clock_id) if isinstance(clock_id, str) else None
        if not isinstance(clock, dict):
            raise _error("clock_unknown", "There is no such clock at this table.", "За этим столом нет таких часов.")
        return dict(clock)

    def _change_clock(self, clock_id: Any, change: str, after_of, by: int | None = None) -> dict[str, Any] | None:
        """Write one change of clock ``clock_id`` (``_NEW``: a new clock): ``after_of(before)`` is
        the clock after it (None: removed), or raises why not. It runs again under the table's
        write lock, on the table as it is then (another GM page may have changed the clock)."""
        result: list[dict[str, Any] | None] = []

        def make(tx: WriteTx) -> list[NewEvent]:
            self.require("clock")
            before = None if clock_id is _NEW else self._clock(clock_id)
            after = after_of(before)
            result.append(after)
            return [
                event_kind(name).new_json(self.actor, payload, audience)
                for name, audience, payload in clock_copies(before, after, change, by)
            ]

        after_of(None if clock_id is _NEW else self._clock(clock_id))  # refused before the lock
        self.transact(make)
        return result[-1]

    def add_clock(self, name: Any, segments: Any, visibility: Any = "open") -> str:
        """GM: a new clock of ``segments`` (2 to 12), empty, ``"open"`` (everyone reads it),
        ``"known"`` (the players see a blank circle of its segments) or ``"secret"`` (the GM
        alone). Returns the clock's id (random: it tells nothing about other clocks)."""
        self._begin_clock()
        name, segments = clock_name(name), clock_segments(segments)
        visibility = clock_visibility(visibility)
        clock_id = "clock-" + secrets.token_hex(4)

        def new(_before: Any) -> dict[str, Any]:
            if len(self.state.extra.get("clocks") or {}) >= MAX_CLOCKS:
                raise _error(
                    "clock_too_many",
                    f"A table keeps at most {MAX_CLOCKS} clocks: remove one first.",
                    f"За столом не больше {ru_n(MAX_CLOCKS, 'часов', 'часов', 'часов')}: сначала уберите ненужные.",
                )
            return clock_entry(clock_id, segments, visibility, name, 0)

        self._change_clock(_NEW, "added", new)
        return clock_id

    def tick_clock(self, clock_id: Any, by: Any = 1) -> dict[str, Any]:
        """GM: fill ``by`` more segments of a clock (negative: empty them). A tick past full or
        below empty is refused (a full clock says "full"), not clamped. Returns the clock."""
        self._begin_clock()

        def ticked(before: dict[str, Any]) -> dict[str, Any]:
            problem = tick_problem(before, by)
            if problem is not None:
                raise problem
            return {**before, "filled": before.get("filled", 0) + by}

        return self._change_clock(clock_id, "ticked", ticked, by if _whole(by) else None)

    def set_clock_visibility(self, clock_id: Any, visibility: Any) -> dict[str, Any]:
        """GM: show a clock to the players (``"open"``), show them only its circle
        (``"known"``), or hide it from them (``"secret"``: their pages lose it, as if it were
        removed). Returns the clock."""
        self._begin_clock()
        visibility = clock_visibility(visibility)

        def shown(before: dict[str, Any]) -> dict[str, Any]:
            if before.get("visibility") == visibility:
                words, name = VISIBILITY_WORDS[visibility], before.get("name", "")
                raise _error("clock_same", f"«{name}» is {words['en']} already.", f"Часы «{name}» уже {words['ru']}.")
            return {**before, "visibility": visibility}

        return self._change_clock(clock_id, "visibility", shown)

    def remove_clock(self, clock_id: Any) -> None:
        """GM: take a clock off the table (every page that shows it loses it)."""
        self._begin_clock()
        self._change_clock(clock_id, "removed", lambda _before: None)


__all__ = ["CLOCK_KINDS", "ClockActions", "MAX_CLOCKS", "clock_name", "clock_segments", "tick_problem"]
