"""The creation wizard a new player meets first: a view of :class:`tabletop_widgets.core.wizard.Wizard`.

``CreationWizard(character, system)`` shows one creation step at a time: "Step 2 of 5", the
step's title and the sentence or two that explains it, the step's fields drawn by the sheet's
own field views (the same values, limits, choices and problems next to each field as on the
sheet; each field's element carries the sheet's ``tt-field-<trait>`` class), the running budgets,
what is still wrong on the step, and Back / Next / Finish. Next is refused while the step has
errors of its own (the reasons show); Finish on the last step is ``GameSystem.start_play`` (or
the table's seat action), and its refusal shows. When the character is finished, the callbacks
given to :meth:`CreationWizard.on_finish` get it: the page swaps the wizard for its sheet.

What a step is, what it may change and when it is done are the model's (``core.wizard``); this
widget shows and forwards, and checks ``can`` in every handler (a forged click still fires).

:class:`NewCharacter` is the "Make a new character" start of a play page: a button that opens
the wizard on a blank character, and once it is finished, hands it to the page.
"""

from __future__ import annotations

from typing import Any, Callable

import ipywidgets as widgets
import traitlets

from tabletop_widgets.core.i18n import T, check_locale, tr
from tabletop_widgets.core.phases import FINISH_ACTION
from tabletop_widgets.core.problems import Problem, RuleError, ValidationError
from tabletop_widgets.core.wizard import Wizard
from tabletop_widgets.front import stylesheet

from . import language
from .base import close_tree, locale_toggle, locale_validator, text_lookup
from .character_view import CharacterView
from .sheet_context import button_widget, esc, hbox, html_widget, refusal_text, vbox
from .sheet_fields import FieldView, make_view, problems_html

#: User-facing text of the wizard, in English and Russian.
TEXTS: dict[str, dict[str, str]] = {
    "heading": T("Make your character", "Создайте персонажа"),
    "step_of": T("Step {n} of {total}", "Шаг {n} из {total}"),
    "steps_label": T("Creation steps", "Шаги создания"),
    "back": T("◀ Back", "◀ Назад"),
    "back_tip": T("The previous step (nothing is undone)", "Предыдущий шаг (ничего не отменяется)"),
    "next": T("Next ▶", "Дальше ▶"),
    "next_tip": T("The next step, once this one has no errors", "Следующий шаг, когда на этом нет ошибок"),
    "finish": T("✓ Finish character", "✓ Завершить персонажа"),
    "finish_tip": T(
        "The character enters play: the creation rules are checked one last time",
        "Персонаж вступает в игру: правила создания проверяются в последний раз",
    ),
    "to_fix": T("To fix on this step:", "Что исправить на этом шаге:"),
    "to_check": T("Worth a look:", "Стоит проверить:"),
    "step_ok": T("✓ This step is done: go on with Next.", "✓ Этот шаг готов: нажмите «Дальше»."),
    "last_ok": T("✓ Everything is in place: finish the character.", "✓ Всё на месте: завершите персонажа."),
    "refused": T("Not yet: fix these first.", "Пока нельзя: сначала исправьте это."),
    "finished": T("✓ {name} is ready to play.", "✓ {name} готов к игре."),
    "not_allowed": T("You may not change this character.", "Вам нельзя менять этого персонажа."),
    "no_fields": T("Nothing to fill in on this step.", "На этом шаге заполнять нечего."),
    "locale_tip": T("Language", "Язык"),
    "new": T("Make a new character", "Создать нового персонажа"),
    "new_tip": T(
        "A blank character and the creation steps of this game, one at a time",
        "Чистый лист и шаги создания по правилам этой игры, по одному",
    ),
    "new_intro": T(
        "New here? Make your own character step by step: each step says what it decides, the budget "
        "shows what is left, and the finished character opens on its sheet.",
        "Впервые здесь? Создайте своего персонажа шаг за шагом: каждый шаг объясняет, что на нём "
        "решается, бюджет показывает, сколько осталось, а готовый персонаж откроется на своём листе.",
    ),
    "cancel": T("✕ Close the wizard", "✕ Закрыть пошаговое создание"),
    "cancel_tip": T("Put this new character aside", "Отложить этого нового персонажа"),
    "made": T(
        "✓ {name} is finished: the sheet below shows them.",
        "✓ {name}: персонаж готов, его лист — ниже.",
    ),
    "another": T("Make another character", "Создать ещё одного персонажа"),
}

_t = text_lookup(TEXTS)
_CSS = stylesheet("sheet", "wizard")  # tabletop_widgets/front/wizard.css


def rule_refusal(exc: RuleError) -> tuple[str, dict, list]:
    """The wizard's message for a refused Next or Finish: "fix these first" and the problems
    the rules list, or the rules' own words when they list none."""
    problems = list((exc.data or {}).get("problems") or [])
    return ("error", dict(TEXTS["refused"]) if problems else exc.message, problems)


class FinishCallbacks:
    """What the page does with a finished character: the callbacks given to :meth:`on_finish`
    (``finish_callbacks``, a list the subclass makes first)."""

    finish_callbacks: list[Callable[[Any], None]]

    def on_finish(self, callback: Callable[[Any], None], remove: bool = False) -> None:
        """Call ``callback(character)`` once a character is finished here (``remove``: no
        longer)."""
        if remove:
            self.finish_callbacks.remove(callback)
        else:
            self.finish_callbacks.append(callback)

    def announce(self, character) -> None:
        """Give the finished ``character`` to every callback."""
        for callback in list(self.finish_callbacks):
            callback(character)


class CreationWizard(CharacterView, FinishCallbacks, widgets.VBox):
    """The creation wizard over ``character`` (class ``tt-wizard``).

    Parameters
    ----------
    character : CharacterModel
        A character in creation (edited in place, as the sheet does).
    system : GameSystem, optional
        Defaults to ``get_system(character.SYSTEM)``.
    locale : {"en", "ru"}, optional
        Not given: the page's language, followed live.
    can : callable, optional
        ``can(action) -> bool`` as the sheet's (``"edit"``, ``"edit_gm"``, ``"act"`` for Finish);
        checked in every handler.
    start_play : callable, optional
        How Finish puts the character into play (default ``system.start_play``); a shared table
        passes its seat action.
    perform : callable, optional
        The sheet's ``perform(action, args)`` for rules actions run elsewhere (a table); when
        given and ``start_play`` is not, Finish runs ``perform(FINISH_ACTION, [character])``.

    Attributes
    ----------
    model
        The :class:`~tabletop_widgets.core.wizard.Wizard` this widget shows.
    views
        ``{trait name: FieldView}`` of the current step's fields.
    """

    locale = traitlets.Unicode("en", help="Language of the wizard: 'en' or 'ru'")
    finished = traitlets.Bool(False, help="Whether the character was finished here")

    _check_locale = locale_validator()

    def __init__(
        self,
        character,
        system=None,
        *,
        locale: str | None = None,
        can: Callable[[str], bool] | None = None,
        start_play: Callable[[Any], Any] | None = None,
        perform: Callable[[Any, list], Any] | None = None,
        **kwargs: Any,
    ):
        given, locale = self.view_character(character, system, locale=locale, can=can, perform=perform)
        if start_play is None and perform is not None:
            start_play = lambda c: perform(FINISH_ACTION, [c])  # noqa: E731
        self.model = Wizard(self.system, character, start_play=start_play)
        self.views: dict[str, FieldView] = {}
        self._built_for: tuple[int, tuple[str, ...]] | None = None
        self._message: tuple[str, dict, list] | None = None
        self.finish_callbacks = []
        self._closed = False
        super().__init__([*self._build_parts(locale), self._build_nav()], **kwargs)
        self.add_class("tt-wizard")
        self.add_class(f"tt-wizard-{self.system.slug}")
        self.locale = locale
        self.locale_toggle.observe(lambda ch: language.toggled(self, ch["new"]), names="value")
        language.adopt(self, given, self.locale_toggle)
        character.observe(self._on_character, names=traitlets.All)
        self.render()

    def _build_parts(self, locale: str) -> list[widgets.Widget]:
        """The heading with the EN/RU toggle, where the player is, the step's words, the
        budgets, the fields, what is left to fix and the message line."""
        self.style_block = html_widget(_CSS, classes=["tt-style"])
        self.heading = html_widget(classes=["tt-wizard-heading"])
        self.locale_toggle = locale_toggle(locale)
        head = hbox([self.heading, self.locale_toggle], classes=["tt-wizard-head"])
        self.progress = html_widget(classes=["tt-wizard-progress"])
        self.explain = html_widget(classes=["tt-wizard-explain"])
        self.budget_box = html_widget(layout=widgets.Layout(), classes=["tt-wizard-budgets"])
        self.fields = vbox(classes=["tt-wizard-fields"])
        self.no_fields = html_widget()  # shown on a step with nothing to fill in
        self.problem_box = html_widget(classes=["tt-wizard-problems"])
        self.message = html_widget(layout=widgets.Layout(display="none"), classes=["tt-wizard-message"])
        return [
            self.style_block,
            head,
            self.progress,
            self.explain,
            self.budget_box,
            self.fields,
            self.problem_box,
            self.message,
        ]

    def _build_nav(self) -> widgets.HBox:
        """Back, Next and Finish (each checks the seat in its handler)."""
        self.back_button = button_widget(layout=widgets.Layout(width="auto"), classes=["tt-wizard-back"])
        self.next_button = button_widget(
            button_style="primary", layout=widgets.Layout(width="auto"), classes=["tt-wizard-next"]
        )
        self.finish_button = button_widget(
            button_style="success", layout=widgets.Layout(width="auto"), classes=["tt-wizard-finish"]
        )
        self.back_button.on_click(lambda _b: self.back())
        self.next_button.on_click(lambda _b: self.next())
        self.finish_button.on_click(lambda _b: self.finish())
        return hbox([self.back_button, self.next_button, self.finish_button], classes=["tt-wizard-nav"])

    # -- the buttons (each checks the seat first: a forged click still fires) ------------------------
    def _may_edit(self) -> bool:
        return self.ctx.can("edit")

    def back(self) -> bool:
        """The previous step (nothing of the character changes)."""
        if self.finished:
            return False
        self._message = None
        self.model.back()
        self.render()
        return True

    def next(self) -> bool:
        """The next step; refused, with the reasons, while the step has errors of its own."""
        if self.finished:
            return False
        try:
            self.model.next()
        except RuleError as exc:
            self._message = rule_refusal(exc)
        else:
            self._message = None
        self.render()
        return self._message is None

    def finish(self) -> bool:
        """Finish the character (the last step): it enters play, or the refusal shows. Returns
        whether it entered play."""
        if self.finished:
            return False
        if not self.ctx.can("act"):
            self._message = ("error", dict(TEXTS["not_allowed"]), [])
            self.render()
            return False
        try:
            self.model.finish()
        except RuleError as exc:
            self._message = rule_refusal(exc)
        except (ValidationError, ValueError, TypeError, KeyError, PermissionError) as exc:
            self._message = ("error", refusal_text(exc), [])
        else:
            if getattr(self.character, "phase", "play") == "play":
                self.finished = True
                name = str(getattr(self.character, "name", "") or "")
                self._message = ("ok", {k: _t("finished", k, name=name) for k in ("en", "ru")}, [])
                self.render()
                self.announce(self.character)
                return True
            self._message = None
        self.render()
        return self.finished

    # -- following the character -------------------------------------------------------------
    def _on_character(self, change) -> None:
        if self._closed:
            return
        self.ctx.forget_checks()
        for view in list(self.views.values()):
            if change["name"] in view.names:
                view.refresh()
        if self._message is not None and self._message[0] == "error":
            self._message = None  # a refusal was about the character as it was; the step says what is left
        self.render()

    @traitlets.observe("locale")
    def _on_locale(self, change) -> None:
        if not self.follow_locale(change["new"]):
            return
        for view in self.views.values():
            view.relabel()
        self.render()

    def refresh(self) -> None:
        """Show the character as it is now (a table calls this when its events changed it)."""
        self.render()

    # -- drawing -------------------------------------------------------------------------------
    def _build_fields(self, fields: tuple[str, ...]) -> None:
        key = (self.model.index, fields)
        if self._built_for is not None and self._built_for[0] == key[0] and set(fields) <= set(self._built_for[1]):
            return  # a field fixed on this step stays where the player is typing
        self._drop_views()
        views = []
        for name in fields:
            try:
                field = self.system.sheet.field(name)
            except KeyError:
                continue  # a step naming no sheet field has nothing to draw for it
            view = make_view(self.ctx, field)
            view.widget.add_class("tt-wizard-field")
            self.views[name] = view
            views.append(view.widget)
        self.fields.children = views
        self._built_for = key

    def _drop_views(self) -> None:
        for view in self.views.values():
            binding = getattr(view, "binding", None)
            if binding is not None:
                binding.unbind()
            close_tree(view.widget)
        self.views = {}
        self.fields.children = []

    def render(self) -> None:
        if self._closed:
            return
        loc = self.locale
        steps = self.model.steps
        step = self.model.step
        n, total = self.model.index + 1, len(steps)
        self._build_fields(tuple(self.model.fields()))
        self.heading.value = (
            f'<h2>{esc(_t("heading", loc))}</h2><span class="tt-system">{esc(tr(self.system.title, loc))}</span>'
        )
        dots = []
        for i, s in enumerate(steps):
            state = " tt-current" if i == self.model.index else (" tt-done" if i < self.model.index else "")
            current = ' aria-current="step"' if i == self.model.index else ""
            dots.append(f'<li class="tt-wizard-dot{state}"{current}>{i + 1}. {esc(tr(s.title, loc))}</li>')
        self.progress.value = (
            f'<div class="tt-wizard-where" data-step="{esc(step.id)}" data-index="{n}" data-total="{total}">'
            f"<b>{esc(_t('step_of', loc, n=n, total=total))}</b>"
            f'<ol class="tt-wizard-steps" aria-label="{esc(_t("steps_label", loc))}">{"".join(dots)}</ol></div>'
        )
        self.explain.value = f"<h3>{esc(tr(step.title, loc))}</h3><p>{esc(tr(step.explain, loc))}</p>"
        self._render_budgets()
        problems = self.model.problems()
        for name, view in self.views.items():
            view.set_problems([p for p in problems if p.field == name])
        if not self.views:
            self.no_fields.value = f'<p class="tt-hint-text">{esc(_t("no_fields", loc))}</p>'
            self.fields.children = [self.no_fields]
        self._render_problems(problems)
        self._render_message()
        last = self.model.is_last
        self.back_button.description = _t("back", loc)
        self.back_button.tooltip = _t("back_tip", loc)
        self.next_button.description = _t("next", loc)
        self.next_button.tooltip = _t("next_tip", loc)
        self.finish_button.description = _t("finish", loc)
        self.finish_button.tooltip = _t("finish_tip", loc)
        self.back_button.disabled = self.model.index == 0 or self.finished
        self.next_button.layout.display = "none" if last else None
        self.finish_button.layout.display = None if last else "none"
        self.finish_button.disabled = self.finished or not self.ctx.can("act")
        self.locale_toggle.tooltip = _t("locale_tip", loc)

    def _render_budgets(self) -> None:
        loc = self.locale
        rows = []
        for b in self.model.budgets():
            share = 0 if b.total <= 0 else max(0, min(100, 100 * b.spent // b.total))
            cls = "tt-over" if b.left < 0 else ("tt-full" if b.left == 0 else "tt-open")
            rows.append(
                f'<div class="tt-wizard-budget {cls}" role="status">'
                f'<span class="tt-wizard-budget-text">{esc(b.text(loc))}</span>'
                f'<span class="tt-wizard-bar" aria-hidden="true"><span style="width:{share}%"></span></span></div>'
            )
        self.budget_box.value = "".join(rows)
        self.budget_box.layout.display = None if rows else "none"

    def _render_problems(self, problems: list[Problem]) -> None:
        loc = self.locale
        errors = [p for p in problems if p.severity == "error"]
        others = [p for p in problems if p.severity != "error"]
        if not problems:
            key = "last_ok" if self.model.is_last else "step_ok"
            self.problem_box.value = f'<p class="tt-wizard-ok" role="status">{esc(_t(key, loc))}</p>'
            return
        parts = []
        if errors:
            parts.append(f"<b>{esc(_t('to_fix', loc))}</b>{problems_html(errors, loc, labelled=True)}")
        if others:
            parts.append(f"<b>{esc(_t('to_check', loc))}</b>{problems_html(others, loc, labelled=True)}")
        self.problem_box.value = f'<div class="tt-wizard-todo" role="status">{"".join(parts)}</div>'

    def _render_message(self) -> None:
        if self._message is None:
            self.message.layout.display = "none"
            self.message.value = ""
            return
        kind, text, problems = self._message
        loc = self.locale
        listed = problems_html(problems, loc, labelled=True) if problems else ""
        cls, role = ("tt-ok", "status") if kind == "ok" else ("tt-error", "alert")
        self.message.value = f'<div class="{cls}" role="{role}">{esc(tr(text, loc))}{listed}</div>'
        self.message.layout.display = None

    def close(self) -> None:
        """Stop following the character and close every widget of the wizard."""
        if self._closed:
            super().close()
            return
        self._closed = True
        self.stop_following(self._on_character)
        self._drop_views()
        self.no_fields.close()
        for child in list(self.children):
            close_tree(child)
        super().close()


class NewCharacter(FinishCallbacks, widgets.VBox):
    """The "Make a new character" start (class ``tt-new-character``): a button that opens the creation
    wizard on a blank character of ``system``; once finished, the callbacks given to
    :meth:`on_finish` get the character (a play page shows it on its sheet), and the button
    offers another one."""

    locale = traitlets.Unicode("en", help="Language: 'en' or 'ru'")
    _check_locale = locale_validator()

    def __init__(self, system, *, locale: str | None = None, **kwargs: Any):
        given, locale = locale, language.start_locale(locale)
        check_locale(locale)
        self.system = system
        self.wizard: CreationWizard | None = None
        self.characters: list[Any] = []
        self.finish_callbacks = []
        self.style_block = html_widget(_CSS, classes=["tt-style"])
        self.intro = html_widget(classes=["tt-new-intro"])
        self.start_button = button_widget(
            button_style="primary", layout=widgets.Layout(width="auto"), classes=["tt-new-start"]
        )
        self.cancel_button = button_widget(
            layout=widgets.Layout(width="auto", display="none"), classes=["tt-new-cancel"]
        )
        bar = hbox([self.start_button, self.cancel_button], classes=["tt-new-bar"])
        self.slot = vbox(classes=["tt-new-slot"])
        super().__init__([self.style_block, self.intro, bar, self.slot], **kwargs)
        self.add_class("tt-new-character")
        self.locale = locale
        self.start_button.on_click(lambda _b: self.start())
        self.cancel_button.on_click(lambda _b: self.cancel())
        language.adopt(self, given)
        self._render()

    def start(self) -> CreationWizard:
        """Open the wizard on a blank character (a wizard already open is put aside)."""
        self._drop_wizard()
        character = self.system.Character()
        wizard = CreationWizard(character, self.system, locale=self.locale)
        wizard.locale_toggle.layout.display = "none"  # the page's switch (or this one's locale) rules
        wizard.on_finish(self._finished)
        self.wizard = wizard
        self.slot.children = [wizard]
        self._done: str | None = None
        self._render()
        return wizard

    def cancel(self) -> None:
        """Close the wizard (the unfinished character is let go)."""
        self._drop_wizard()
        self._render()

    def _drop_wizard(self) -> None:
        if self.wizard is not None:
            self.wizard.close()
            self.wizard = None
        self.slot.children = []

    def _finished(self, character) -> None:
        self.characters.append(character)
        self._done = str(getattr(character, "name", "") or "")
        self._drop_wizard()
        self._render()
        self.announce(character)

    @traitlets.observe("locale")
    def _on_locale(self, change) -> None:
        if getattr(self, "wizard", None) is not None:
            self.wizard.locale = change["new"]
        if hasattr(self, "intro"):
            self._render()

    def _render(self) -> None:
        loc = self.locale
        done = getattr(self, "_done", None)
        if done is not None and self.wizard is None:
            text = f'<p class="tt-new-done" role="status">{esc(_t("made", loc, name=done))}</p>'
        else:
            text = f"<p>{esc(_t('new_intro', loc))}</p>"
        self.intro.value = text
        open_ = self.wizard is not None
        self.start_button.description = _t("another" if self.characters else "new", loc)
        self.start_button.tooltip = _t("new_tip", loc)
        self.start_button.layout.display = "none" if open_ else None
        self.cancel_button.description = _t("cancel", loc)
        self.cancel_button.tooltip = _t("cancel_tip", loc)
        self.cancel_button.layout.display = None if open_ else "none"


__all__ = ["CreationWizard", "NewCharacter", "TEXTS"]
