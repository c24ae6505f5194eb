"""Two-way model <-> widget binding that writes the model's validated value back to the widget.

``traitlets.link`` does not do this (notes-jupyter §1.1, §9.4): when a model's validator clamps or
rejects a value, a linked widget keeps showing what the user typed and the two diverge silently.
:func:`bind` commits a widget edit through :func:`apply_edit` (all or nothing, with the model's own
hard limits), then shows the model's value in the widget whatever happened, and reports a rejected
edit as a :class:`~tabletop_widgets.core.problems.ValidationError` to an ``on_error`` callback.
"""

from __future__ import annotations

import copy
from typing import Any, Callable

from traitlets import TraitError

from tabletop_widgets.core.i18n import T, tr
from tabletop_widgets.core.problems import Problem, ValidationError


def _key(problem: Problem) -> tuple:
    return (problem.code, problem.field, tr(problem.message, "en"))


def apply_edit(model: Any, name: str, value: Any) -> Any:
    """Set ``model.<name> = value`` all or nothing; return the value the model kept.

    A :class:`~tabletop_widgets.core.model.CharacterModel` is checked first with its own hard
    limits (``check_dict``): the edit is refused when it would add an error that the current
    values do not already have (so one bad value elsewhere does not block every other edit).
    A ``TraitError`` from the trait itself is turned into a ``ValidationError`` too. On refusal
    nothing changes. The kept value may differ from ``value`` when the model clamps it.
    """
    check = getattr(type(model), "check_dict", None)
    persisted = getattr(model, "persisted_traits", None)
    if check is not None and persisted is not None and name in persisted():
        current = {n: getattr(model, n) for n in persisted()}
        before = {_key(p) for p in check(current, require_header=False) if p.severity == "error"}
        old = current.get(name)
        current[name] = value
        new = [p for p in check(current, require_header=False) if p.severity == "error" and _key(p) not in before]
        check_input = getattr(type(model), "check_input", None)
        if check_input is not None:  # what a player may enter by hand (the range they are shown)
            new = [p for p in check_input(current, name, old) if p.severity == "error"] or new
        if new:
            # the edited field's own problems first: a refused value can make the model's
            # cross-field checks misfire (they run on the defaults of values that failed)
            raise ValidationError([p for p in new if p.field == name] or new)
    try:
        setattr(model, name, copy.deepcopy(value))
    except ValidationError:
        raise
    except TraitError as exc:  # the trait's own message is for developers: say what the field takes
        raise ValidationError(
            [
                Problem(
                    "bad_value",
                    T("This value is not accepted here.", "Это значение здесь не принимается."),
                    field=name,
                )
            ]
        ) from exc
    return getattr(model, name)


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


class Binding:
    """A live two-way binding; :meth:`unbind` stops it. See :func:`bind`."""

    def __init__(
        self,
        model,
        name: str,
        widget,
        attr: str = "value",
        *,
        to_widget: Callable[[Any], Any] | None = None,
        to_model: Callable[[Any], Any] | None = None,
        commit: Callable[[Any, str, Any], Any] | None = None,
        on_error: Callable[[ValidationError], None] | None = None,
        on_ok: Callable[[], None] | None = None,
        allowed: Callable[[], bool] | None = None,
    ):
        self.model, self.name, self.widget, self.attr = model, name, widget, attr
        self.to_widget = to_widget or (lambda v: v)
        self.to_model = to_model or (lambda v: v)
        self.commit = commit or apply_edit
        self.on_error = on_error or (lambda exc: None)
        self.on_ok = on_ok or (lambda: None)
        self.allowed = allowed or (lambda: True)
        self._busy = False
        self.push()
        widget.observe(self._from_widget, names=attr)
        model.observe(self._from_model, names=name)

    def push(self) -> None:
        """Show the model's current value in the widget."""
        shown = self.to_widget(getattr(self.model, self.name))
        if not _same(getattr(self.widget, self.attr), shown):
            self._busy = True
            try:
                setattr(self.widget, self.attr, shown)
            finally:
                self._busy = False

    def quiet(self):
        """A context manager: changes made to the widget inside it are not edits (e.g. new
        dropdown options on a language switch)."""
        binding = self

        class _Quiet:
            def __enter__(self):
                binding._busy = True

            def __exit__(self, *exc):
                binding._busy = False
                binding.push()
                return False

        return _Quiet()

    def _from_model(self, change) -> None:
        if not self._busy:
            self.push()

    def _from_widget(self, change) -> None:
        if self._busy:
            return
        try:
            if not self.allowed():
                raise ValidationError(
                    [Problem("not_allowed", T("you may not change this", "вам нельзя это менять"), field=self.name)]
                )
            try:
                value = self.to_model(change["new"])
            except ValueError as exc:
                if isinstance(exc, ValidationError):
                    raise
                raise ValidationError([Problem("bad_input", T(str(exc), str(exc)), field=self.name)]) from exc
            self._busy = True
            try:
                self.commit(self.model, self.name, value)
            finally:
                self._busy = False
        except ValidationError as exc:
            self.push()  # the widget goes back to what the model holds
            self.on_error(exc)
            return
        self.push()  # the model may have clamped or normalised the value
        self.on_ok()

    def unbind(self) -> None:
        for owner, handler, name in (
            (self.widget, self._from_widget, self.attr),
            (self.model, self._from_model, self.name),
        ):
            try:
                owner.unobserve(handler, names=name)
            except ValueError:  # already unbound
                pass


def bind(model, name: str, widget, attr: str = "value", **kwargs: Any) -> Binding:
    """Bind ``model.<name>`` and ``widget.<attr>`` both ways, writing the model's validated value
    back to the widget after every edit.

    ``to_widget`` / ``to_model`` convert between the two representations (``to_model`` may raise
    ``ValueError`` for unparsable input); ``commit(model, name, value)`` defaults to
    :func:`apply_edit`; ``on_error(ValidationError)`` / ``on_ok()`` report the outcome of an edit;
    ``allowed()`` is asked before every edit (a forged front-end message must not bypass roles).
    """
    return Binding(model, name, widget, attr, **kwargs)


__all__ = ["apply_edit", "bind", "Binding"]
