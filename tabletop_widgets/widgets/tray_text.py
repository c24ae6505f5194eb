"""The dice tray's words (English and Russian) and the HTML of its parts: a check's chance pill
and the latest result. Pure functions of their arguments: :mod:`.tray` draws what they return."""

from __future__ import annotations

import html
import re
from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core.i18n import T, tr
from tabletop_widgets.core.system import term_of

from .base import text_lookup

TEXTS: dict[str, dict[str, str]] = {
    "title": T("Dice tray", "Лоток для кубиков"),
    "notation": T("Dice", "Кубики"),
    "notation_tip": T(
        "Any dice notation %roll takes, e.g. 2d6+3 >= 8; the character's numbers are "
        "@variables (e.g. 1d20 + @strength). Enter rolls.",
        "Любая запись, которую понимает %roll, например 2d6+3 >= 8; числа персонажа — "
        "@переменные, по названию или коду (например 1d20 + @Сила). Enter — бросить.",
    ),
    "placeholder": T("e.g. 2d6+3 >= 8, 4d6kh3", "например 2d6+3 >= 8, 4d6kh3"),
    "roll": T("Roll", "Бросить"),
    "roll_tip": T("Roll the notation (or press Enter in the box)", "Бросить запись (или Enter в поле)"),
    "situation": T("Situation", "Обстановка"),
    "situation_tip": T(
        "Options of the checks; every chance below follows them", "Условия проверок; все шансы ниже считаются с ними"
    ),
    "more_options": T("More options", "Ещё условия"),
    "checks": T("Checks", "Проверки"),
    "chance_tip": T("Exact chance of success: {fraction} ({percent})", "Точный шанс успеха: {fraction} ({percent})"),
    "no_chance": T("No chance to show", "Шанс не определён"),
    "check_tip": T("Roll {label}", "Бросить: {label}"),
    "applies_to": T("Used by: {checks}", "Для проверок: {checks}"),
    "more": T("{n} more", "ещё {n}"),
    "result_tip": T("The latest roll", "Последний бросок"),
    "error_tip": T("What went wrong", "Что пошло не так"),
    "dice_label": T("Dice rolled: {faces}", "Выпало: {faces}"),
    "no_dice": T("no dice", "без кубиков"),
    "facedown_verdict": T("blind", "вслепую"),
    "facedown_label": T("one die, face down: a blind roll", "кубик лицом вниз: бросок вслепую"),
    "effects_failed": T("Effects not applied: {error}", "Последствия не применены: {error}"),
    "not_an_integer": T("{label}: a whole number, or empty for none", "{label}: целое число или пусто"),
    "not_allowed": T("Not allowed.", "Нет прав на это действие."),
    "unknown_check": T("No check named {id!r}", "Нет проверки {id!r}"),
    "none": T("—", "—"),
    "locale_tip": T("Language", "Язык"),
    "notation_only": T("Notation only: no character bound", "Только запись: персонаж не выбран"),
    "after_title": T("After the roll", "После броска"),
    "after_button": T("Spend after the roll", "Потратить после броска"),
    "after_tip": T(
        "Change this result as the rules allow after the roll (the dice stay as they fell)",
        "Изменить этот результат, как правила позволяют после броска (кубики остаются как выпали)",
    ),
    "after_spent": T("after the roll: {what}", "после броска: {what}"),
    "nothing_after": T(
        "Nothing more can be done to the latest roll.", "С последним броском больше ничего сделать нельзя."
    ),
}


#: The tray's text ``key`` in ``locale`` (English when a locale lacks it), formatted.
text = text_lookup(TEXTS)


def percent_text(p: Fraction) -> str:
    """How a chance is shown: ``66.7%``; ``0%``/``100%`` only when exact; ``<0.1%``/``>99.9%``
    near the ends (the exact fraction is always in the tooltip)."""
    if p <= 0:
        return "0%"
    if p >= 1:
        return "100%"
    v = float(p) * 100
    if v < 0.1:
        return "<0.1%"
    if v >= 99.95:
        return ">99.9%"
    return f"{v:.1f}%"


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def css_id(text: str) -> str:
    """``text`` as a piece of a CSS class name (``tt-check-<id>``)."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", str(text)).strip("-") or "x"


def error_text(exc: BaseException, locale: str) -> str:
    """An error as a player reads it, in ``locale`` (a caret under bad notation)."""
    if hasattr(exc, "caret") and getattr(exc, "position", None) is not None:
        return exc.caret(locale)
    if hasattr(exc, "messages"):
        return exc.messages(locale)
    if hasattr(exc, "text"):
        try:
            return exc.text(locale)
        except TypeError:
            pass
    message = getattr(exc, "message", None)
    if isinstance(message, Mapping) and message.get("en"):
        return tr(message, locale)
    return str(exc)


def chance_pill(p: Fraction | None, err: BaseException | None, loc: str) -> tuple[str, str, bool]:
    """A check's chance as the card shows it: ``(pill HTML, the line for the button's tooltip,
    whether the check is unavailable)``; ``err`` is why there is no chance, when there is none."""
    if p is None:
        reason = error_text(err, loc) if err is not None else text("no_chance", loc)
        pill = (
            f'<span class="tt-pill tt-na" title="{html.escape(reason)}" data-fraction="">'
            f'<span class="tt-chance-text">{html.escape(text("none", loc))}</span></span>'
        )
        code = getattr(err, "code", None)
        return pill, reason, err is not None and code not in (None, "no_pass_fail")
    level = "tt-hi" if p >= Fraction(2, 3) else ("tt-mid" if p >= Fraction(1, 3) else "tt-lo")
    title = text("chance_tip", loc, fraction=fraction_text(p), percent=f"{float(p) * 100:.4g}%")
    pill = (
        f'<span class="tt-pill {level}" title="{html.escape(title)}" '
        f'data-fraction="{p.numerator}/{p.denominator}" aria-label="{html.escape(title)}">'
        f'<span class="tt-bar" style="width:{float(p) * 100:.1f}%"></span>'
        f'<span class="tt-chance-text">{percent_text(p)}</span></span>'
    )
    return pill, title, False


def change_text(label: str, old: Any, new: Any) -> str:
    """One resource change: ``Luck −2 (3 → 1)`` (or ``label: old → new`` for a non-number)."""
    try:
        delta = int(new) - int(old)
        sign = "+" if delta > 0 else ("−" if delta < 0 else "±")
        return f"{label} {sign}{abs(delta)} ({old} → {new})"
    except (TypeError, ValueError):
        return f"{label}: {old} → {new}"


def error_message(exc: BaseException, loc: str) -> str:
    """What the tray's error line says for ``exc`` (a bare refusal: "Not allowed.")."""
    if isinstance(exc, PermissionError) and not hasattr(exc, "text"):
        return text("not_allowed", loc)
    return error_text(exc, loc)


def trait_label(system: Any, result: Any, trait: str, loc: str) -> str:
    """A changed trait's name: the sheet's label, else the reason its effect gives, else the id."""
    try:
        return tr(system.sheet.field(trait).label, loc)
    except (KeyError, AttributeError, LookupError, ValueError):
        pass
    for e in getattr(result, "effects", ()) or ():
        if e.trait == trait and e.reason:
            return tr(e.reason, loc)
    return trait


def announcement(result: Any, kind: str | None, who: str, effects: str, loc: str) -> str:
    """What the live region says of the latest roll (``kind``: "check" or "notation")."""
    who = f"{who}: " if who else ""
    if kind == "check":
        outcome = tr(result.outcome, loc) or (str(result.total) if result.total is not None else "")
        end = "" if outcome[-1:] in ".!?…" else "."  # no «проблема!.»
        said = f"{who}{tr(result.label, loc)}: {outcome}{end}"
        return f"{said} {effects}".strip()
    return f"{who}{result.text(loc)}"


def title_html(system: Any, character: Any, who: str, loc: str) -> tuple[str, str]:
    """The tray's header and its tooltip: the system's word for a dice tray, then whose tray it
    is (the character, else the roller), the system, and "notation only" without a character."""
    sub = []
    owner = str(getattr(character, "name", "") or "") if character is not None else ""
    if owner or who:
        sub.append(owner or who)
    if system is not None:
        sub.append(tr(system.title, loc))
    if character is None:
        sub.append(text("notation_only", loc))
    sub_html = f'<span class="tt-sub">{html.escape(" · ".join(sub))}</span>' if sub else ""
    title = term_of(system, "dice_tray", loc) if system is not None else text("title", loc)
    return f"<h2>{html.escape(title)}{sub_html}</h2>", title


def options_error_html(errors: list[BaseException], loc: str) -> str:
    """The options' errors, one alert each, in ``loc``."""
    said = [getattr(e, "bilingual", {}).get(loc) or str(e) for e in errors]
    return "".join(f'<div role="alert">{html.escape(e)}</div>' for e in said)


def effects_text(changes: list[str], error: str | None, loc: str) -> str:
    """A check's effects in one line: the changes, then why the rest was not applied."""
    return "; ".join(changes + ([text("effects_failed", loc, error=error)] if error is not None else []))


def breakdown_html(roll: Any, loc: str) -> str:
    """A roll's breakdown inside the result (the tray's stylesheet styles it; the dice announce)."""
    return roll.html(loc, css=False, live=False)


_VERDICT = {True: ("tt-pass", "✓ "), False: ("tt-fail", "✗ "), None: ("tt-none", "")}


def check_result_html(result: Any, who: str, changes: list[str], effects_error: str | None, loc: str) -> str:
    """A rolled check as the tray shows it: who, what, the verdict, the dice, the effects."""
    cls, mark = _VERDICT[result.success]
    outcome = tr(result.outcome, loc) or (str(result.total) if result.total is not None else "")
    head = (
        f'<div class="tt-result-head">{_who(who)}<span class="tt-what">{html.escape(tr(result.label, loc))}'
        f'</span><span class="tt-verdict {cls}">{mark}{html.escape(outcome)}</span></div>'
    )
    roll = result.roll
    body = breakdown_html(roll, loc) if roll is not None and hasattr(roll, "html") else ""
    effects = "".join(f'<span class="tt-effect">{html.escape(x)}</span>' for x in changes)
    if effects_error is not None:
        effects += f'<span class="tt-effect tt-effect-error">{html.escape(effects_error)}</span>'
    effects_html = f'<div class="tt-effects">{effects}</div>' if effects else ""
    return _result(cls, head, body, effects_html)


def after_title_html(specs: list, loc: str) -> str:
    """The heading of the after-roll offer, with the rules' help of each option."""
    helps = " ".join(tr(o.help, loc) for o in specs if getattr(o, "help", None))
    help_html = f'<span class="tt-after-help">{html.escape(helps)}</span>' if helps else ""
    return f"<div><b>{html.escape(text('after_title', loc))}</b> {help_html}</div>"


def after_text(specs: list, options: Mapping[str, Any], loc: str) -> str:
    """What was done after the roll, for the log: ``after the roll: Epic dice 1``."""
    parts = []
    for o in specs:
        if o.name in options:
            value = options[o.name]
            if o.kind == "choice":
                value = next((tr(label, loc) for v, label in o.choices if v == value), value)
            parts.append(f"{tr(o.label, loc)} {value}")
    return text("after_spent", loc, what=", ".join(parts)) if parts else ""


def notation_result_html(result: Any, who: str, loc: str) -> str:
    """A notation roll as the tray shows it: who, the expression, the total, the dice."""
    cls, mark = _VERDICT[result.passed]
    head = (
        f'<div class="tt-result-head">{_who(who)}<span class="tt-what">'
        f'{html.escape(result.expression)}</span><span class="tt-verdict {cls}">'
        f"{mark}{result.total}</span></div>"
    )
    return _result(cls, head, breakdown_html(result, loc), "")


def facedown_result_html(result: Any, who: str, loc: str) -> str:
    """A blind roll as its roller's tray shows it: who, the expression, a face-down die."""
    head = (
        f'<div class="tt-result-head">{_who(who)}<span class="tt-what">'
        f'{html.escape(result.expression)}</span><span class="tt-verdict tt-facedown-verdict">'
        f"{html.escape(text('facedown_verdict', loc))}</span></div>"
    )
    return _result("tt-blind", head, result.html(loc), "")


def _who(who: str) -> str:
    return f'<span class="tt-who">{html.escape(who)}</span>' if who else ""


def _result(cls: str, head: str, body: str, effects_html: str) -> str:
    return (
        f'<div class="tt-result {cls.replace("tt-", "tt-result-")}">{head}'
        f'<div class="tt-breakdown">{body}</div>{effects_html}</div>'
    )


__all__ = [
    "TEXTS",
    "text",
    "percent_text",
    "fraction_text",
    "css_id",
    "error_text",
    "chance_pill",
    "effects_text",
    "title_html",
    "options_error_html",
    "error_message",
    "trait_label",
    "announcement",
    "change_text",
    "check_result_html",
    "notation_result_html",
    "after_title_html",
    "after_text",
]
