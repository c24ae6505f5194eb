"""What a seat may send: the checks every seat action goes through before anything is written.

The session (:class:`~tabletop_widgets.table.session.TableSession`) calls these on every action,
whatever the browser says (a forged widget message can carry any value):

* :func:`check_options`: a check's options against the check's own ``OptionSpec`` list (known
  names, ``min``/``max``, ``choices``, ``gm_only``). The specs come from
  ``system.checks(character)`` for the character as the table holds it, so a bound that depends
  on the character (RET's declared Luck is at most the Luck held) is checked too.
* :func:`gm_only_fields` / :func:`check_gm_fields`: the fields the system's sheet marks as the
  GM's (``Field.gm_only`` or ``Field.gm_entered``) may not be changed by players, through
  any path (a sheet edit, the sheet's JSON Load, ``update_character``, ``set_character``).
* :func:`check_text` and :data:`TEXT_LIMITS`: length limits by field (names, labels, notes,
  chat, character text).
* :class:`RateLimit`: a token bucket per seat with an injected clock (a burst is fine, a script
  is not).

Every refusal is a :class:`PlayError` (bad input) or a :class:`PlayDenied` (not this seat's to
do): a ``code`` and a message in English and Russian written for a player (``text(locale)``).
"""

from __future__ import annotations

import time
from typing import Any, Callable, Mapping

from ..core.i18n import DEFAULT_LOCALE, T, tr
from ..core.problems import BilingualError
from ..core.system import option_problem as core_option_problem
from ..core.system import term_of
from .events import EventError
from .seats import PermissionDenied


class PlayError(BilingualError, EventError):
    """A seat action refused before anything was written. ``message`` is ``{"en", "ru"}``."""


class PlayDenied(PermissionDenied):
    """A seat action its role may not take (a GM-only option or field from a player's seat),
    with a bilingual ``message`` like :class:`PlayError`."""

    def __init__(self, code: str, action: str, role: str, message: Mapping[str, str], **data: Any):
        super().__init__(action, role, tr(message, "en"))
        self.code = code
        self.message = dict(message)
        self.data = data

    def text(self, locale: str = DEFAULT_LOCALE) -> str:
        return tr(self.message, locale)


# --------------------------------------------------------------------------------------------
# text limits
# --------------------------------------------------------------------------------------------
#: field -> (max characters, English label, Russian label)
TEXT_LIMITS: dict[str, tuple[int, str, str]] = {
    "name": (80, "A name", "Имя"),
    "label": (120, "A roll label", "Подпись броска"),
    "expression": (500, "A dice expression", "Выражение бросков"),
    "message": (1000, "A chat message", "Сообщение в чате"),
    "note": (8000, "A note", "Заметка"),
    "title": (120, "A title", "Заголовок"),
    "character_text": (8000, "A text on the character sheet", "Текст на листе персонажа"),
    "option": (200, "A check option", "Параметр проверки"),
}


def check_text(field: str, value: Any) -> None:
    """Raise :class:`PlayError` when ``value`` (a str, or None) is longer than ``field`` allows."""
    if value is None:
        return
    limit, en, ru = TEXT_LIMITS[field]
    if not isinstance(value, str):
        raise PlayError("not_text", T(f"{en} must be text.", f"{ru}: нужен текст."), field=field)
    if len(value) > limit:
        raise PlayError(
            "too_long",
            T(
                f"{en} is too long: {len(value):,} characters, at most {limit:,}.",
                f"{ru} слишком длинный: {len(value):,} символов, можно не больше {limit:,}.",
            ),
            field=field,
            limit=limit,
        )


def check_character_texts(data: Mapping[str, Any]) -> None:
    """Every string in character values (names, notes, backstory, list items) within limits."""

    def walk(value: Any, key: str) -> None:
        if isinstance(value, str):
            check_text("name" if key == "name" else "character_text", value)
        elif isinstance(value, Mapping):
            for k, v in value.items():
                if isinstance(k, str):
                    check_text("name", k)
                walk(v, str(k))
        elif isinstance(value, (list, tuple)):
            for v in value:
                walk(v, key)

    for k, v in data.items():
        walk(v, str(k))


# --------------------------------------------------------------------------------------------
# check options
# --------------------------------------------------------------------------------------------
def option_problem(spec, value: Any) -> dict[str, str] | None:
    """Why ``value`` is not allowed for option ``spec`` (an ``OptionSpec``), or None (the core's
    rule, with the table's length limit for text)."""
    return core_option_problem(spec, value, text_limit=TEXT_LIMITS["option"][0])


def check_options(check_spec, options: Mapping[str, Any], *, role: str, system: Any = None) -> None:
    """Refuse options ``check_spec`` (a ``CheckSpec``) does not declare, GM-only options from a
    non-GM seat, and values outside what each option declares. ``system``: the table's, whose
    word for the GM the refusal uses (RET «мастер», Seasons «Рассказчик»)."""
    known = {o.name: o for o in check_spec.options}
    label_en, label_ru = tr(check_spec.label, "en"), tr(check_spec.label, "ru")
    for name, value in options.items():
        spec = known.get(name)
        if spec is None:
            check_text("option", str(name))
            raise PlayError(
                "unknown_option",
                T(f"{label_en} has no option {name!r}.", f"У проверки «{label_ru}» нет параметра {name!r}."),
                option=name,
            )
        if spec.gm_only and role != "gm":
            raise PlayDenied(
                "gm_option",
                f"option {name}",
                role,
                T(
                    f"{tr(spec.label, 'en')}: only the {term_of(system, 'gm', 'en')} sets this option.",
                    f"{tr(spec.label, 'ru')}: этот параметр задаёт только {term_of(system, 'gm', 'ru')}.",
                ),
                option=name,
            )
        problem = option_problem(spec, value)
        if problem is not None:
            raise PlayError("bad_option", problem, option=name)


# --------------------------------------------------------------------------------------------
# GM-only fields of the sheet
# --------------------------------------------------------------------------------------------
def gm_only_fields(system) -> frozenset[str]:
    """Trait names the system's sheet marks as the GM's (``gm_only`` / ``gm_entered``)."""
    sheet = getattr(system, "sheet", None)
    if sheet is None:
        return frozenset()
    return frozenset(f.name for f in sheet.fields() if f.gm_only or f.gm_entered)


def field_labels(system, names) -> tuple[list[str], list[str]]:
    """The sheet's labels of trait ``names`` in English and in Russian (a name without a field
    stands for itself)."""
    en, ru = [], []
    for name in names:
        try:
            label = system.sheet.field(name).label
        except (KeyError, AttributeError):
            label = {"en": name, "ru": name}
        en.append(tr(label, "en"))
        ru.append(tr(label, "ru"))
    return en, ru


def check_gm_fields(
    system, role: str, before: Mapping[str, Any], after: Mapping[str, Any], *, replace: bool = False
) -> None:
    """A non-GM seat may not change a GM-only field: values in ``after`` that differ from
    ``before``. ``replace``: ``after`` is the whole sheet, so a field it leaves out would be
    reset, which is a change too; otherwise a field ``after`` leaves out stays as it is."""
    if role == "gm":
        return
    changed = sorted(
        k for k in gm_only_fields(system) if (k in after or (replace and k in before)) and after.get(k) != before.get(k)
    )
    if changed:
        labels_en, labels_ru = field_labels(system, changed)
        raise PlayDenied(
            "gm_field",
            "character.edit",
            role,
            T(
                f"Only the {term_of(system, 'gm', 'en')} may change: {', '.join(labels_en)}.",
                f"Это меняет только {term_of(system, 'gm', 'ru')}: {', '.join(labels_ru)}.",
            ),
            fields=changed,
        )


# --------------------------------------------------------------------------------------------
# rate limit
# --------------------------------------------------------------------------------------------
class RateLimit:
    """A token bucket: ``burst`` actions at once, then ``per_second`` on average.
    ``clock`` (default ``time.monotonic``) is injected so tests are deterministic."""

    def __init__(self, burst: int, per_second: float, clock: Callable[[], float] | None = None):
        if burst < 1 or per_second <= 0:
            raise ValueError("need burst >= 1 and per_second > 0")
        self.burst, self.per_second = burst, per_second
        self.clock = clock or time.monotonic
        self.tokens = float(burst)
        self.last = self.clock()

    def take(self) -> None:
        """Use one action, or raise :class:`PlayError` (``rate_limited``) with the wait."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.last) * self.per_second)
        self.last = now
        if self.tokens < 1:
            raise rate_limited(self.tokens, self.per_second)
        self.tokens -= 1


def rate_limited(tokens: float, per_second: float) -> PlayError:
    """The refusal of an action past a bucket holding ``tokens``, with the wait."""
    wait = max(1, int((1 - tokens) / per_second + 0.999))
    return PlayError(
        "rate_limited",
        T(
            f"Too many actions at once: wait {wait} s and try again.",
            f"Слишком много действий подряд: подождите {wait} с и повторите.",
        ),
        wait=wait,
    )


def take_seat_rate(tx, seat: str, role: str, now: float) -> None:
    """Inside a write: use one action of ``seat``'s own bucket, kept in the store's seat row
    (``rate_tokens``, ``rate_at``), or raise :class:`PlayError` (``rate_limited``) and write
    nothing. Every page of a seat, in any kernel or server, draws on the one bucket (a page's own
    :class:`RateLimit` only refuses early)."""
    burst, per_second = RATE_LIMITS.get(role, RATE_LIMITS["observer"])
    tokens, at = tx.rate(seat)
    if tokens is None or at is None:
        tokens = float(burst)
    else:
        tokens = min(float(burst), float(tokens) + max(0.0, now - float(at)) * per_second)
    if tokens < 1:
        raise rate_limited(tokens, per_second)
    tx.set_rate(seat, tokens - 1, now)


#: role -> (burst, per second)
RATE_LIMITS: dict[str, tuple[int, float]] = {"gm": (120, 20.0), "player": (20, 2.0), "observer": (5, 0.5)}


def rate_limit_for(role: str, clock: Callable[[], float] | None = None) -> RateLimit:
    burst, per_second = RATE_LIMITS.get(role, RATE_LIMITS["observer"])
    return RateLimit(burst, per_second, clock)
