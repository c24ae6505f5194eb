"""Options a check, an attack, an advance or an after-roll choice takes (:class:`OptionSpec`), and
checking the values a player sent for them: every value is checked as if a forged widget message
had sent it, and a refusal names the option in English and Russian."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .i18n import T, tr
from .problems import RuleError


@dataclass(frozen=True)
class OptionSpec:
    """One option a check takes (shown by the dice tray as a control).

    kind: ``"int"`` (spin box between ``min`` and ``max``), ``"choice"`` (``choices`` is a
    sequence of ``(value, label)``), ``"bool"``, ``"text"``.
    """

    name: str
    label: Mapping[str, str]
    kind: str = "int"
    default: Any = 0
    min: int | None = None
    max: int | None = None
    choices: Sequence[tuple[Any, Mapping[str, str]]] = ()
    help: Mapping[str, str] | None = None
    gm_only: bool = False


class SpecOptions:
    """What a spec with ``options`` (a sequence of :class:`OptionSpec`) offers: one option by
    name, and every option at its default."""

    def option(self, name: str) -> OptionSpec:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def defaults(self) -> dict[str, Any]:
        """Every option at its default."""
        return {o.name: o.default for o in self.options}


def is_whole_number(value: Any) -> bool:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def _int_problem(spec: OptionSpec, value: Any, en: str, ru: str, text_limit: int | None) -> dict | None:
    if value is None and spec.default is None:
        return None
    if not is_whole_number(value):
        return T(f"{en}: a whole number is needed.", f"{ru}: нужно целое число.")
    if spec.min is not None and value < spec.min:
        return T(
            f"{en}: {value} is below the lowest allowed value, {spec.min}.",
            f"{ru}: {value} меньше наименьшего допустимого значения {spec.min}.",
        )
    if spec.max is not None and value > spec.max:
        return T(
            f"{en}: {value} is above the highest allowed value, {spec.max}.",
            f"{ru}: {value} больше наибольшего допустимого значения {spec.max}.",
        )
    return None


def _bool_problem(spec: OptionSpec, value: Any, en: str, ru: str, text_limit: int | None) -> dict | None:
    if not isinstance(value, bool):
        return T(f"{en}: yes or no is needed.", f"{ru}: нужно «да» или «нет».")
    return None


def _choice_problem(spec: OptionSpec, value: Any, en: str, ru: str, text_limit: int | None) -> dict | None:
    allowed = [v for v, _label in spec.choices]
    if value not in allowed or (isinstance(value, bool) != any(isinstance(v, bool) and v == value for v in allowed)):
        return T(f"{en}: that is not one of the choices offered.", f"{ru}: такого варианта нет среди предложенных.")
    return None


def _text_problem(spec: OptionSpec, value: Any, en: str, ru: str, text_limit: int | None) -> dict | None:
    if not isinstance(value, str):
        return T(f"{en}: text is needed.", f"{ru}: нужен текст.")
    if text_limit is not None and len(value) > text_limit:
        return T(
            f"{en}: the text is too long (at most {text_limit} characters).",
            f"{ru}: текст слишком длинный (не больше {text_limit} символов).",
        )
    return None


#: How each kind of option checks a value: ``(spec, value, label en, label ru, text limit)``.
_PROBLEMS: dict[str, Callable[..., dict | None]] = {
    "int": _int_problem,
    "bool": _bool_problem,
    "choice": _choice_problem,
    "text": _text_problem,
}


def option_problem(spec: OptionSpec, value: Any, *, text_limit: int | None = None) -> dict[str, str] | None:
    """Why ``value`` is not allowed for option ``spec``, or None: a whole number within
    ``min``/``max``, yes or no, one of the ``choices``, or text of at most ``text_limit``
    characters. The message names the option, in English and Russian, for a player."""
    check = _PROBLEMS.get(spec.kind)
    if check is None:
        return None  # a kind this module does not know: the system validates it
    return check(spec, value, tr(spec.label, "en"), tr(spec.label, "ru"), text_limit)


def checked_spec_options(spec: Any, options: Mapping[str, Any], owner_ru: str) -> dict[str, Any]:
    """``options`` checked against what ``spec`` (an attack, an advance: ``label``, ``options``,
    ``defaults()``) declares: known names, allowed values; the defaults filled in. A
    :class:`RuleError` names the first bad one; ``owner_ru`` starts its Russian text ("У атаки
    «Удар»")."""
    known = {o.name: o for o in spec.options}
    for name, value in options.items():
        o = known.get(name)
        if o is None:
            raise RuleError(
                "unknown_option",
                T(f"{tr(spec.label)} has no option {name!r}.", f"{owner_ru} нет параметра {name!r}."),
                option=str(name),
            )
        problem = option_problem(o, value, text_limit=200)
        if problem is not None:
            raise RuleError("bad_option", problem, option=name)
    return {**spec.defaults(), **dict(options)}


@dataclass(frozen=True)
class AfterRollSpec(SpecOptions):
    """What may still be done to a rolled check (``GameSystem.after_roll_options``), in the
    shape :func:`checked_spec_options` reads: the roll's label and its options."""

    label: Mapping[str, str]
    options: Sequence[OptionSpec]
