"""DiceTray: the named checks of a character with their exact odds, a notation box, animated dice.

Generic over ``GameSystem``: the checks, their options, the odds, the roll and the resource
effects all come from the system (``checks``, ``chance``, ``roll_check``, ``apply_effects``);
nothing here knows a rule. Without a character the tray is a notation-only tray. The option
controls and the check cards are made in :mod:`.tray_controls` (shared options in the "Situation"
bar), the words and the HTML in :mod:`.tray_text`. Check groups start folded (with their counts)
and make their cards when first opened; so does "More options". The checks half (controls,
cards, odds) is the base class :class:`~.tray_checks.TrayChecks`; this module adds the header,
the rolls and the result.
"""

from __future__ import annotations

import html
import random
from typing import Any, Callable, Mapping

import ipywidgets as widgets
import traitlets as t

from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.play import LocalPlay, Play
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import GameSystem, term_of
from tabletop_widgets.front import stylesheet

from . import language
from .base import locale_toggle, locale_validator
from .dice_anim import DiceAnim
from .log import RollLog
from .sheet_context import button_widget, fixed_layout, hbox, html_widget, shared_layout
from .tray_checks import TrayChecks
from .tray_controls import (
    OptionControl,
    label_style,
    resolve_system,
)
from .tray_text import (
    TEXTS,
    after_text,
    after_title_html,
    announcement,
    effects_text,
    change_text,
    check_result_html,
    error_message,
    error_text,
    facedown_result_html,
    notation_result_html,
    percent_text,
    trait_label,
)
from .tray_text import text as _t

_CSS = stylesheet("tray")  # tabletop_widgets/front/tray.css
#: a blind roll's die as the tray draws it: face down, no value
FACE_DOWN_DIE = {"faces": "", "sides": 0, "value": "?", "classes": ["facedown"]}


class DiceTray(TrayChecks):
    """A dice tray for a character (class ``tt-dice-tray``).

    Parameters
    ----------
    character : CharacterModel, optional
        The bound character; its checks become controls and its resources take the effects.
        ``None``: a notation-only tray.
    system : GameSystem or str, optional
        The rules (default: the system the character belongs to).
    locale : {"en", "ru"}, optional
        Not given: the page's language, followed live (:mod:`~tabletop_widgets.widgets.language`).
    log : RollLog, optional
        Every roll is appended to it (and it follows the tray's language).
    rng, seed
        The tray's own ``random.Random`` (inject one in tests).
    who : str, optional
        The roller's name in results and in the log (default: the character's ``name``).
    can : callable, optional
        ``can(action) -> bool`` checked in every handler: ``"roll_check"``, ``"roll_notation"``,
        ``"set_option"``, ``"gm_options"`` (showing GM-only options), ``"after_roll"`` (what
        the rules still let a player do to a rolled check, e.g. Life&Death's epic dice spent
        after the roll). Default: what ``play`` allows.
    play : Play, optional
        What the tray's rolls go through (:mod:`tabletop_widgets.core.play`): by default the
        notebook's own (:class:`~tabletop_widgets.core.play.LocalPlay`, with the tray's dice); a
        shared table's seat gives its ``TablePlay`` (the table's fair dice, the outcome recorded).
    character_id : str, optional
        The character's id where ``play`` keeps several (a table's).
    animate : bool
        Tumble the dice (readers who prefer reduced motion always get still dice).
    """

    locale = t.Unicode("en", help="Language of the tray: 'en' or 'ru'")

    def __init__(
        self,
        character: Any = None,
        *,
        system: GameSystem | str | None = None,
        locale: str | None = None,
        log: RollLog | None = None,
        rng: random.Random | None = None,
        seed: int | None = None,
        who: str | None = None,
        can: Callable[[str], bool] | None = None,
        animate: bool = True,
        play: Play | None = None,
        character_id: str | None = None,
        **kwargs: Any,
    ):
        given, locale = locale, language.start_locale(locale)  # None: the page's language
        self.character = character
        self.character_id = character_id
        self.system = resolve_system(system, character) if play is None else play.system
        self.rng = rng if rng is not None else random.Random(seed)
        self.play = play if play is not None else LocalPlay(self.system, rng=self.rng)
        self.roll_log = log
        self.can = can or (lambda action: self.play.can(action, self.character_id))
        self._who = who
        self.last_result: Any = None  # CheckResult or RollResult
        self.last_kind: str | None = None  # "check" or "notation"
        self.last_error: BaseException | None = None
        self.last_changes: dict[str, tuple[Any, Any]] = {}
        self.last_effects_error: BaseException | None = None
        self.announcement = ""
        self._suspend = 0
        self.after_options: list = []  # what the latest check still offers (system.after_roll_options)

        # the parts that never hide or resize share one frozen layout and one style per kind
        # (sheet_context.shared_layout); those that hide have their own
        self.style_block = html_widget(_CSS, classes=("tt-style",))
        self.title = html_widget(classes=("tt-tray-title",))
        self.locale_toggle = locale_toggle(locale, button_width="46px")
        header = hbox([self.title, self.locale_toggle], classes=("tt-tray-header",))

        self.situation = widgets.VBox(_dom_classes=("tt-tray-situation",))
        self.options_error = html_widget(layout=widgets.Layout(display="none"), classes=("tt-options-error",))
        self.checks_box = widgets.VBox(_dom_classes=("tt-tray-checks",))
        self.accordion: widgets.Accordion | None = None
        self.situation_title: widgets.HTML | None = None
        self.more_options: widgets.Accordion | None = None
        self.checks_title: widgets.HTML | None = None
        self._built = False  # labels are drawn once every part exists (any locale at start)

        # each made with its words (_render_labels): no update after it is made
        self.notation = widgets.Text(
            layout=fixed_layout(flex="1 1 auto", width="auto"),
            style=label_style(widgets.Text),
            _dom_classes=("tt-tray-notation",),
            description=term_of(self.system, "dice", locale) if self.system is not None else _t("notation", locale),
            placeholder=_t("placeholder", locale),
            tooltip=_t("notation_tip", locale),
        )
        self.roll_button = button_widget(
            button_style="primary",
            classes=("tt-tray-roll",),
            description=_t("roll", locale),
            tooltip=_t("roll_tip", locale),
        )
        roll_row = hbox([self.notation, self.roll_button], classes=("tt-tray-roll-row",))

        self._make_result(locale, animate)

        self.roll_button.on_click(lambda _b: self._on_roll_click())
        self.notation.on_msg(self._on_notation_msg)
        self.locale_toggle.observe(self._on_toggle, names="value")

        super().__init__(
            [self.style_block, header, self.situation, self.checks_box, roll_row, self.error, self.result], **kwargs
        )
        self.add_class("tt-dice-tray")
        self.locale = locale
        if character is not None:
            self.load_checks()
            character.observe(self._on_character, names=t.All)
        else:
            self.situation.layout.display = "none"
            self.checks_box.layout.display = "none"
        self._built = True
        language.adopt(self, given, self.locale_toggle)
        self._render_labels()
        self._render_result()
        self._render_error()
        self._offer_after(None)

    def _make_result(self, locale: str, animate: bool) -> None:
        """The error line and the result (the dice, the breakdown, what may still be done to
        it); both hidden until there is something to show."""
        self.error = html_widget(
            layout=widgets.Layout(display="none"), classes=("tt-tray-error",), tooltip=_t("error_tip", locale)
        )
        self.dice = DiceAnim(animate=animate, layout=shared_layout(), _dom_classes=("tt-tray-dice",))
        self.result_view = html_widget(classes=("tt-result-body",), tooltip=_t("result_tip", locale))
        # under the result: what may still be done to it
        self.after_box = widgets.VBox(layout=widgets.Layout(display="none"), _dom_classes=("tt-after-roll",))
        self.after_title = html_widget(classes=("tt-after-title",))
        self.after_controls: dict[str, widgets.Widget] = {}
        self.after_button = button_widget(
            button_style="warning",
            classes=("tt-after-button",),
            description=_t("after_button", locale),
            tooltip=_t("after_tip", locale),
        )
        self.after_button.on_click(lambda _b: self._on_after_click())
        self.result = widgets.VBox(
            [self.dice, self.result_view, self.after_box],
            layout=widgets.Layout(display="none"),
            _dom_classes=("tt-tray-result",),
        )

    # ========================================================================================
    # public API
    # ========================================================================================
    @property
    def who(self) -> str:
        if self._who is not None:
            return self._who
        return str(getattr(self.character, "name", "") or "") if self.character is not None else ""

    def roll_check(self, check_id: str, **overrides: Any):
        """Roll ``check_id`` with the current options (``overrides`` win); apply its resource
        effects through the system; show, announce and log it. Returns the CheckResult, or
        ``None`` when it could not be rolled (the reason is shown)."""
        if not self.can("roll_check"):
            self._show_error(PermissionError(_t("not_allowed", "en")))
            return None
        try:
            self.check_spec(check_id)
            options = {**self.options_for(check_id), **overrides}
            result, changes, effects_error = self.perform_check(check_id, options)
        except (ValueError, KeyError, PermissionError) as exc:
            self._show_error(exc)
            return None
        self.last_effects_error = effects_error
        self.last_error = None
        self.last_result = result
        self.last_kind = "check"
        self.last_changes = changes
        self.last_check_id = check_id
        if changes:
            self.refresh_checks()
        self.mark_last_rolled(check_id)
        self._render_error()
        self._render_result()
        self._animate(result.roll)
        if self.roll_log is not None:
            self.roll_log.add_check(result, who=self.who, effects=self._effects_text)
        self._offer_after(result)
        return result

    def after_roll(self, **overrides: Any):
        """Do to the latest check what the rules still allow (``system.after_roll_options``:
        Life&Death's epic dice spent after the roll) with the offered controls' values
        (``overrides`` win): the new result's effects applied (through
        :meth:`perform_after_roll`), shown and logged with what was spent. Returns the new
        CheckResult, or ``None`` when refused (the reason is shown, nothing changes)."""
        if not self.can("after_roll"):
            self._show_error(PermissionError(_t("not_allowed", "en")))
            return None
        if self.last_kind != "check" or self.last_result is None or not self.after_options:
            self._show_error(RuleError("no_after_roll", TEXTS["nothing_after"]))
            return None
        options = {**{name: w.value for name, w in self.after_controls.items()}, **overrides}
        try:
            result, changes, effects_error = self.perform_after_roll(self.last_result, options)
        except (ValueError, KeyError, PermissionError, LookupError) as exc:
            self._show_error(exc)
            return None
        offered = list(self.after_options)
        self.last_effects_error = effects_error
        self.last_error = None
        self.last_result = result
        self.last_changes = changes
        if changes:
            self.refresh_checks()
        self._render_error()
        self._render_result()
        if self.roll_log is not None:
            self.roll_log.add_check(
                result,
                who=self.who,
                effects=lambda loc: "; ".join(
                    x for x in (after_text(offered, options, loc), self._effects_text(loc)) if x
                ),
            )
        self._offer_after(result)
        return result

    def roll(self, expression: str | None = None):
        """Roll ``expression`` (default: the notation box), with the character's integer traits
        as ``@variables``. Bad notation shows the error with a caret. Returns the RollResult or
        ``None``."""
        if not self.can("roll_notation"):
            self._show_error(PermissionError(_t("not_allowed", "en")))
            return None
        text = self.notation.value if expression is None else expression
        try:
            result = self.perform_roll(text)
        except (ValueError, PermissionError) as exc:
            self._show_error(exc)
            return None
        self.show_notation_result(result)
        if self.roll_log is not None:
            self.roll_log.add_roll(result, who=self.who)
        return result

    # -- what the tray asks its play (:mod:`tabletop_widgets.core.play`); a refusal is a
    # ValueError, KeyError or PermissionError, which the tray shows --------------------------------
    def perform_check(self, check_id: str, options: Mapping[str, Any]):
        """Roll ``check_id`` with ``options`` for the tray's character and apply its effects
        (``play.check``). Returns ``(result, {trait: (old, new)}, effects_error or None)``."""
        self._suspend += 1
        try:
            return self.play.check(self.character, self.character_id, check_id, options, locale=self.locale)
        finally:
            self._suspend -= 1

    def perform_after_roll(self, previous, options: Mapping[str, Any]):
        """``previous`` (the latest check) read again as the rules allow after the roll with
        ``options`` and the new result's effects applied, all or nothing (``play.after_roll``).
        Returns ``(result, {trait: (old, new)}, None)``; raises the refusal with nothing changed."""
        self._suspend += 1
        try:
            return self.play.after_roll(self.character, self.character_id, previous, options, locale=self.locale)
        finally:
            self._suspend -= 1

    def perform_roll(self, text: str):
        """Roll the notation ``text`` (with the character's ``@variables``); returns the result."""
        return self.play.roll(text, variables=self.variables(), locale=self.locale)

    def show_notation_result(self, result) -> None:
        """Show a notation roll's result (rolled here, or by a shared table for this tray)."""
        self._offer_after(None)
        self.last_error = None
        self.last_result = result
        self.last_kind = "notation"
        self.last_changes = {}
        self.last_effects_error = None
        self.mark_last_rolled(None)
        self._render_error()
        self._render_result()
        self._animate(result)

    def variables(self):
        """The character's integer traits, for ``@name`` in the notation, with the character
        itself for system words that roll its named checks (a ``WordContext``)."""
        from tabletop_widgets.dice.words import WordContext

        if self.character is None:
            return WordContext()
        # by id and by the sheet's names (@strength, @Сила, @{Мелкая моторика})
        return WordContext(self.system.variables(self.character), self.character)

    def close(self) -> None:
        if self.character is not None:
            try:
                self.character.unobserve(self._on_character, names=t.All)
            except ValueError:
                pass
        super().close()

    # ========================================================================================
    # handlers (small: each checks the role, then calls the API)
    # ========================================================================================
    def _on_roll_click(self) -> None:
        self.roll()

    def _on_notation_msg(self, _widget, content, _buffers) -> None:
        if isinstance(content, dict) and content.get("event") == "submit":
            self.roll()

    def _on_toggle(self, change) -> None:
        language.toggled(self, change["new"])

    def _on_after_click(self) -> None:
        self.after_roll()

    def _on_character(self, change) -> None:
        if self._suspend:
            return
        self.refresh_checks()

    # ========================================================================================
    # locale
    # ========================================================================================
    _check_locale = locale_validator()

    @t.observe("locale")
    def _on_locale(self, change) -> None:
        if not getattr(self, "_built", False):
            return
        if self.locale_toggle.value != change["new"]:
            self.locale_toggle.value = change["new"]
        if self.roll_log is not None and self.roll_log.locale != change["new"]:
            self.roll_log.locale = change["new"]
        self._render_labels()
        self._render_result()
        self._render_error()
        self._render_after()

    # ========================================================================================
    # rendering
    # ========================================================================================
    def _render_labels(self) -> None:
        loc = self.locale
        self.render_title()
        self.locale_toggle.tooltip = _t("locale_tip", loc)
        self.locale_toggle.tooltips = ["English", "Русский"]
        self.notation.description = (
            term_of(self.system, "dice", loc) if self.system is not None else _t("notation", loc)
        )
        self.notation.placeholder = _t("placeholder", loc)
        self.notation.tooltip = _t("notation_tip", loc)
        self.roll_button.description = _t("roll", loc)
        self.roll_button.tooltip = _t("roll_tip", loc)
        self.error.tooltip = _t("error_tip", loc)
        # (no tooltip on Boxes: the 8.x front end fails to draw a Box that has one)
        self.result_view.tooltip = _t("result_tip", loc)
        if self.character is not None:
            self.render_check_labels()

    def _show_error(self, exc: BaseException) -> None:
        self.last_error = exc
        self._render_error()

    def _render_error(self) -> None:
        exc = self.last_error
        self.error.layout.display = "none" if exc is None else None
        self.error.value = (
            "" if exc is None else f'<pre role="alert">{html.escape(error_message(exc, self.locale))}</pre>'
        )

    def _effects_text(self, locale: str) -> str:
        why = self.last_effects_error
        lines = [self._change_text(trait, old, new, locale) for trait, (old, new) in self.last_changes.items()]
        return effects_text(lines, None if why is None else error_text(why, locale), locale)

    def _change_text(self, trait: str, old: Any, new: Any, locale: str) -> str:
        return change_text(trait_label(self.system, self.last_result, trait, locale), old, new)

    def _render_result(self) -> None:
        loc = self.locale
        r = self.last_result
        self.result.layout.display = "none" if r is None else None
        if r is None:
            self.result_view.value = ""
            return
        if self.last_kind == "check":
            lines = [self._change_text(trait, o, n, loc) for trait, (o, n) in self.last_changes.items()]
            why = None
            if self.last_effects_error is not None:
                why = _t("effects_failed", loc, error=error_text(self.last_effects_error, loc))
            self.result_view.value = check_result_html(r, self.who, lines, why, loc)
        elif getattr(r, "blind", False):
            self.result_view.value = facedown_result_html(r, self.who, loc)
        else:
            self.result_view.value = notation_result_html(r, self.who, loc)
        self.announcement = announcement(r, self.last_kind, self.who, self._effects_text(loc), loc)
        self.dice.announcement = self.announcement

    def _offer_after(self, result: Any) -> None:
        """Offer under the result what the rules still let the player do to ``result`` (a
        check), once: a refused or finished offer is gone; the new result's own offer decides."""
        specs: list = []
        if result is not None and self.character is not None and self.can("after_roll"):
            try:
                specs = list(self.system.after_roll_options(self.character, result) or [])
            except (ValueError, KeyError, AttributeError):
                specs = []
        self.after_options = specs
        for w in self.after_controls.values():
            w.close()
        self.after_controls = {o.name: after_widget(o) for o in specs}
        self.after_box.children = [self.after_title, *self.after_controls.values(), self.after_button] if specs else []
        self.after_box.layout.display = None if specs else "none"
        self._render_after()

    def _render_after(self) -> None:
        loc = self.locale
        self.after_button.description = _t("after_button", loc)
        self.after_button.tooltip = _t("after_tip", loc)
        self.after_title.value = after_title_html(self.after_options, loc)
        for o in self.after_options:
            w = self.after_controls.get(o.name)
            if w is not None:
                w.description = tr(o.label, loc)
                w.tooltip = tr(o.help, loc) if o.help else None

    def _animate(self, roll: Any) -> None:
        if getattr(roll, "blind", False):  # a blind roll: one die, face down (no value to draw)
            label = _t("facedown_label", self.locale)
            self.dice.show([FACE_DOWN_DIE], announcement=self.announcement, label=label)
            return
        dice = list(getattr(roll, "dice", []) or []) if roll is not None else []
        faces = ", ".join(str(getattr(d, "value", "")) for d in dice) or _t("no_dice", self.locale)
        self.dice.show(dice, announcement=self.announcement, label=_t("dice_label", self.locale, faces=faces))


def after_widget(spec: Any):
    """A control for one after-roll option (a whole number, yes/no, a choice or text); the
    tray reads its value and the system checks it, as if the browser were hostile."""
    shared = {"layout": shared_layout(), "_dom_classes": ("tt-after-option",)}
    if spec.kind == "bool":
        return widgets.Checkbox(value=bool(spec.default), indent=False, style=label_style(widgets.Checkbox), **shared)
    if spec.kind == "choice":
        options = [(tr(label), v) for v, label in spec.choices]
        return widgets.Dropdown(options=options, value=spec.default, style=label_style(widgets.Dropdown), **shared)
    if spec.kind == "text":
        return widgets.Text(value=str(spec.default or ""), style=label_style(widgets.Text), **shared)
    lo = spec.min if spec.min is not None else -(10**6)
    hi = spec.max if spec.max is not None else 10**6
    shared["layout"] = fixed_layout(width="12em")
    value = min(max(int(spec.default or 0), lo), hi)
    return widgets.BoundedIntText(value=value, min=lo, max=hi, style=label_style(widgets.BoundedIntText), **shared)


def show_tray(
    character: Any = None,
    system: GameSystem | str | None = None,
    locale: str | None = None,
    log: RollLog | None = None,
    **kwargs: Any,
) -> DiceTray:
    """A dice tray for ``character`` (or a notation-only tray), ready to display; every roll
    goes to ``log`` when one is given. Extra keywords go to :class:`DiceTray`."""
    return DiceTray(character, system=system, locale=locale, log=log, **kwargs)


__all__ = ["DiceTray", "OptionControl", "show_tray", "percent_text", "error_text"]
