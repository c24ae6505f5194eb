"""DiceTray: the named checks of a character with their exact odds, a notation box, animated dice.

Generic over ``GameSystem``: the checks, their options, the odds, the roll and the resource
effects all come from the system (``checks``, ``chance``, ``roll_check``, ``apply_effects``);
nothing here knows a rule. Without a character the tray is a notation-only tray. The option
controls and the check cards are made in :mod:`.tray_controls` (shared options in the "Situation"
bar), the words and the HTML in :mod:`.tray_text`. Check groups start folded (with their counts)
and make their cards when first opened; so does "More options".
"""

from __future__ import annotations

import html
import random
from fractions import Fraction
from typing import Any, Callable, Mapping

import ipywidgets as widgets
import traitlets as t

from tabletop_widgets.core.i18n import tr
from tabletop_widgets.core.problems import RuleError
from tabletop_widgets.core.system import CheckSpec, GameSystem, term_of
from tabletop_widgets.dice import roll as dice_roll
from tabletop_widgets.front import stylesheet

from . import language
from .base import close_tree, locale_validator
from .dice_anim import DiceAnim
from .log import RollLog
from .tray_controls import (
    OptionControl,
    checks_shape,
    cached_chance,
    check_card,
    grid_layout,
    group_checks,
    label_control,
    option_rows,
    option_widget,
    plan_controls,
    relabel_dropdown,
    render_card,
    resolve_system,
    show_value,
    situation_controls,
)
from .tray_text import (
    TEXTS,
    after_text,
    after_title_html,
    announcement,
    effects_text,
    options_error_html,
    title_html,
    change_text,
    check_result_html,
    error_message,
    error_text,
    notation_result_html,
    percent_text,
    trait_label,
)
from .tray_text import text as _t

_CSS = stylesheet("tray")  # tabletop_widgets/front/tray.css


class DiceTray(widgets.VBox):
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
        after the roll). Default: allow all.
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
        **kwargs: Any,
    ):
        given, locale = locale, language.start_locale(locale)  # None: the page's language
        self.character = character
        self.system = resolve_system(system, character)
        self.rng = rng if rng is not None else random.Random(seed)
        self.roll_log = log
        self.can = can or (lambda action: True)
        self._who = who
        self.last_result: Any = None  # CheckResult or RollResult
        self.last_kind: str | None = None  # "check" or "notation"
        self.last_error: BaseException | None = None
        self.last_changes: dict[str, tuple[Any, Any]] = {}
        self.last_effects_error: BaseException | None = None
        self.announcement = ""
        self._chance_cache: dict[tuple, tuple[Fraction | None, Any]] = {}
        self._checks: list[CheckSpec] = []
        self._controls: dict[tuple, OptionControl] = {}
        self._control_of: dict[tuple[str, str], OptionControl] = {}
        self._cards: dict[str, dict[str, Any]] = {}
        self._group_of: dict[str, int] = {}
        self._groups: list[tuple[Mapping[str, str], list[CheckSpec]]] = []
        self._built_groups: set[int] = set()
        self._rare_controls: list[OptionControl] = []
        self._syncing = False
        self._suspend = 0
        self._last_check_id: str | None = None
        self.after_options: list = []  # what the latest check still offers (system.after_roll_options)

        self.style_block = widgets.HTML(_CSS)
        self.style_block.add_class("tt-style")
        self.title = widgets.HTML()
        self.title.add_class("tt-tray-title")
        self.locale_toggle = widgets.ToggleButtons(
            options=[("EN", "en"), ("RU", "ru")], value=locale, style={"button_width": "46px"}
        )
        self.locale_toggle.add_class("tt-locale")
        header = widgets.HBox([self.title, self.locale_toggle])
        header.add_class("tt-tray-header")

        self.situation = widgets.VBox()
        self.situation.add_class("tt-tray-situation")
        self.options_error = widgets.HTML()
        self.options_error.add_class("tt-options-error")
        self.checks_box = widgets.VBox()
        self.checks_box.add_class("tt-tray-checks")
        self.accordion: widgets.Accordion | None = None
        self.situation_title: widgets.HTML | None = None
        self.more_options: widgets.Accordion | None = None
        self.checks_title: widgets.HTML | None = None
        self._built = False  # labels are drawn once every part exists (any locale at start)

        self.notation = widgets.Text(
            layout=widgets.Layout(flex="1 1 auto", width="auto"), style={"description_width": "initial"}
        )
        self.notation.add_class("tt-tray-notation")
        self.roll_button = widgets.Button(button_style="primary")
        self.roll_button.add_class("tt-tray-roll")
        roll_row = widgets.HBox([self.notation, self.roll_button])
        roll_row.add_class("tt-tray-roll-row")

        self.error = widgets.HTML()
        self.error.add_class("tt-tray-error")
        self.dice = DiceAnim(animate=animate)
        self.dice.add_class("tt-tray-dice")
        self.result_view = widgets.HTML()
        self.result_view.add_class("tt-result-body")
        self.after_box = widgets.VBox()  # under the result: what may still be done to it
        self.after_box.add_class("tt-after-roll")
        self.after_title = widgets.HTML()
        self.after_title.add_class("tt-after-title")
        self.after_controls: dict[str, widgets.Widget] = {}
        self.after_button = widgets.Button(button_style="warning")
        self.after_button.add_class("tt-after-button")
        self.after_button.on_click(lambda _b: self._on_after_click())
        self.result = widgets.VBox([self.dice, self.result_view, self.after_box])
        self.result.add_class("tt-tray-result")

        self.roll_button.on_click(lambda _b: self._on_roll_click())
        self.notation.on_msg(self._on_notation_msg)
        self.locale_toggle.observe(self._on_toggle, names="value")

        super().__init__(
            [self.style_block, header, self.situation, self.checks_box, roll_row, self.error, self.result], **kwargs
        )
        self.add_class("tt-dice-tray")
        self.locale = locale
        if character is not None:
            self._load_checks()
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

    # ========================================================================================
    # public API
    # ========================================================================================
    @property
    def who(self) -> str:
        if self._who is not None:
            return self._who
        return str(getattr(self.character, "name", "") or "") if self.character is not None else ""

    @property
    def checks(self) -> list[CheckSpec]:
        """The checks the tray offers (``system.checks(character)``), in the system's order."""
        return list(self._checks)

    def option_controls(self, check_id: str | None = None) -> list[OptionControl]:
        """Every option control (or those feeding ``check_id``)."""
        if check_id is None:
            return list(self._controls.values())
        return [c for (cid, _), c in self._control_of.items() if cid == check_id]

    def options_for(self, check_id: str) -> dict[str, Any]:
        """The options ``check_id`` is rolled (and its chance computed) with right now."""
        spec = self._spec(check_id)
        out = {}
        for o in spec.options:
            ctrl = self._control_of.get((check_id, o.name))
            out[o.name] = ctrl.value if ctrl is not None else o.default
        return out

    def set_option(self, name: str, value: Any, check_id: str | None = None) -> None:
        """Set option ``name`` (on every control of that name, or the one feeding ``check_id``)
        as the player would; a bad value shows the error and changes nothing."""
        if check_id is not None:
            ctrls = [self._control_of[(check_id, name)]] if (check_id, name) in self._control_of else []
        else:
            ctrls = [c for c in self._controls.values() if c.name == name]
        if not ctrls:
            raise KeyError(f"no control for option {name!r}")
        for ctrl in ctrls:
            self._set_control(ctrl, value)

    def chance(self, check_id: str) -> Fraction | None:
        """The exact chance of success shown for ``check_id`` (``None`` when there is none)."""
        return self._chance(check_id)[0]

    def chance_text(self, check_id: str) -> str:
        p = self.chance(check_id)
        return _t("none", self.locale) if p is None else percent_text(p)

    def card(self, check_id: str) -> widgets.Widget:
        """The control of ``check_id`` (building its group if it was not drawn yet)."""
        self._spec(check_id)
        self._ensure_group(self._group_of[check_id])
        return self._cards[check_id]["box"]

    def check_button(self, check_id: str) -> widgets.Button:
        self.card(check_id)
        return self._cards[check_id]["button"]

    def open_group(self, index: int) -> None:
        """Open the check group ``index`` (as a click on its header does), building its cards."""
        if self.accordion is None or not 0 <= index < len(self._groups):
            raise IndexError(f"no check group {index}")
        self.accordion.selected_index = index
        self._ensure_group(index)

    def open_more_options(self) -> None:
        """Open the folded "More options" (as a click on its header does), building its controls."""
        if self.more_options is None:
            raise LookupError("this tray has no folded options")
        self.more_options.selected_index = 0
        self._ensure_more_options()

    def roll_check(self, check_id: str, **overrides: Any):
        """Roll ``check_id`` with the current options (``overrides`` win); apply its resource
        effects through the system; show, announce and log it. Returns the CheckResult, or
        ``None`` when it could not be rolled (the reason is shown)."""
        if not self.can("roll_check"):
            self._show_error(PermissionError(_t("not_allowed", "en")))
            return None
        try:
            self._spec(check_id)
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
        self._last_check_id = check_id
        if changes:
            self._character_changed()
        self._mark_last(check_id)
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
            self._character_changed()
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

    # -- the hooks a tray rolling elsewhere overrides (a shared table's tray rolls through its
    # session); they raise ValueError, KeyError or PermissionError, which the tray shows --------
    def perform_check(self, check_id: str, options: Mapping[str, Any]):
        """Roll ``check_id`` with ``options`` for the tray's character and apply its effects.
        Returns ``(result, {trait: (old, new)}, effects_error or None)``."""
        result = self.system.roll_check(self.character, check_id, rng=self.rng, **options)
        changes: dict[str, tuple[Any, Any]] = {}
        effects_error = None
        if result.effects:
            self._suspend += 1
            try:
                changes = dict(self.system.apply_effects(self.character, result.effects) or {})
            except ValueError as exc:
                effects_error = exc
            finally:
                self._suspend -= 1
        return result, changes, effects_error

    def perform_after_roll(self, previous, options: Mapping[str, Any]):
        """``previous`` (the latest check) read again by ``system.after_roll`` with ``options``
        and the new result's effects applied, all or nothing. Returns ``(result, {trait: (old,
        new)}, None)``; raises the rules' refusal (a ValueError) with nothing changed."""
        result = self.system.after_roll(self.character, previous, **dict(options))
        changes: dict[str, tuple[Any, Any]] = {}
        if result.effects:
            self._suspend += 1
            try:
                changes = dict(self.system.apply_effects(self.character, result.effects) or {})
            finally:
                self._suspend -= 1
        return result, changes, None

    def perform_roll(self, text: str):
        """Roll the notation ``text`` (with the character's ``@variables``); returns the result."""
        return dice_roll(text, rng=self.rng, variables=self.variables(), locale=self.locale)

    def show_notation_result(self, result) -> None:
        """Show a notation roll's result (rolled here, or by a shared table for this tray)."""
        self._offer_after(None)
        self.last_error = None
        self.last_result = result
        self.last_kind = "notation"
        self.last_changes = {}
        self.last_effects_error = None
        self._mark_last(None)
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

    def _on_check_click(self, check_id: str) -> None:
        self.roll_check(check_id)

    def _on_toggle(self, change) -> None:
        language.toggled(self, change["new"])

    def _on_control(self, ctrl: OptionControl, change) -> None:
        if self._syncing:
            return
        self._set_control(ctrl, change["new"], from_widget=True)

    def _on_accordion(self, change) -> None:
        if change["new"] is not None:
            self._ensure_group(change["new"])

    def _on_more_options(self, change) -> None:
        if change["new"] is not None:
            self._ensure_more_options()

    def _on_after_click(self) -> None:
        self.after_roll()

    def _on_character(self, change) -> None:
        if self._suspend:
            return
        self._character_changed()

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
    # checks and options
    # ========================================================================================
    def _spec(self, check_id: str) -> CheckSpec:
        for c in self._checks:
            if c.id == check_id:
                return c
        raise KeyError(_t("unknown_check", "en", id=check_id))

    def _load_checks(self) -> None:
        """(Re)build the option controls and the check groups from ``system.checks``."""
        old_values = {k: c.value for k, c in self._controls.items()}
        # the previous controls (if any) go away for good: close their front-end models
        for child in list(self.situation.children) + list(self.checks_box.children):
            if child is not self.options_error:
                close_tree(child)
        self._checks = list(self.system.checks(self.character))
        self._chance_cache.clear()
        self._controls = plan_controls(
            self._checks,
            show_gm=bool(self.can("gm_options")),
            old_values=old_values,
            start_value=getattr(self.system, "start_value", None),
        )
        self._control_of = {(cid, c.spec.name): c for c in self._controls.values() for cid in c.checks}
        self._groups = group_checks(self._checks)
        self._group_of = {c.id: i for i, (_, cs) in enumerate(self._groups) for c in cs}
        self._cards = {}
        self._built_groups = set()
        self._build_situation()
        self._build_checks()

    def _build_situation(self) -> None:
        main, rare = situation_controls(list(self._controls.values()), self._checks)
        for ctrl in main:
            ctrl.widget = self._make_control(ctrl)
        self.situation_title = widgets.HTML()
        self.situation_title.add_class("tt-section-title")
        children = [self.situation_title, *option_rows(main)]
        self.more_options = None
        self._rare_controls = rare
        if rare:
            # folded: its controls are made when it is first opened (their values live in the
            # OptionControls meanwhile, so the chances follow them either way)
            self.more_options = widgets.Accordion([widgets.VBox()], selected_index=None)
            self.more_options.add_class("tt-more-options")
            self.more_options.observe(self._on_more_options, names="selected_index")
            children.append(self.more_options)
        children.append(self.options_error)
        self.situation.children = children
        self.situation.layout.display = None if main or rare else "none"

    def _build_checks(self) -> None:
        self.checks_title = widgets.HTML()
        self.checks_title.add_class("tt-tray-checks-title")
        placeholders = [widgets.VBox() for _ in self._groups]
        self.accordion = widgets.Accordion(placeholders)
        self.accordion.add_class("tt-check-groups")
        self.accordion.observe(self._on_accordion, names="selected_index")
        self.checks_box.children = [self.checks_title, self.accordion]
        self.checks_box.layout.display = None if self._groups else "none"
        if len(self._groups) == 1:  # one group: nothing to choose, it is open (more start folded)
            self.accordion.selected_index = 0
            self._ensure_group(0)

    def _ensure_more_options(self) -> None:
        box = self.more_options.children[0] if self.more_options is not None else None
        if box is None or box.children:
            return
        for ctrl in self._rare_controls:
            ctrl.widget = self._make_control(ctrl)
        box.children = option_rows(self._rare_controls)

    def _ensure_group(self, index: int) -> None:
        if index in self._built_groups or self.accordion is None:
            return
        self._built_groups.add(index)
        _, checks = self._groups[index]
        cards = [self._make_card(c) for c in checks]
        grid = widgets.GridBox(cards, layout=grid_layout(250, "8px 12px"))
        grid.add_class("tt-check-grid")
        self.accordion.children[index].children = [grid]

    def _make_card(self, spec: CheckSpec) -> widgets.Widget:
        own = [self._make_control(c) for c in self.option_controls(spec.id) if not c.shared]
        card = self._cards[spec.id] = check_card(spec, own, lambda cid=spec.id: self._on_check_click(cid))
        if spec.id == self._last_check_id:
            card["box"].add_class("tt-last-rolled")
        self._render_card(spec)
        return card["box"]

    def _make_control(self, ctrl: OptionControl) -> widgets.Widget:
        w = option_widget(ctrl, self.locale)
        w.observe(lambda change, c=ctrl: self._on_control(c, change), names="value")
        ctrl.widget = w
        with w.hold_sync():  # its words go with its first update, one message
            self._label_control(ctrl)
        return w

    def _set_control(self, ctrl: OptionControl, raw: Any, from_widget: bool = False) -> None:
        if not self.can("set_option"):
            self._sync_widget(ctrl)  # a forged change is put back
            return
        try:
            value = ctrl.coerce(raw)
        except (TypeError, ValueError):
            ctrl.refuse()
            self._render_options_error()
            return
        ctrl.accept(value)
        if not from_widget or not isinstance(ctrl.widget, widgets.Text):
            self._sync_widget(ctrl)
        self._render_options_error()
        self._render_chances(ctrl.checks)

    def _sync_widget(self, ctrl: OptionControl, relabel: bool = False) -> None:
        self._syncing = True  # the widget's own change is not a player's
        try:
            (relabel_dropdown if relabel else show_value)(ctrl, self.locale)
        finally:
            self._syncing = False

    def _character_changed(self) -> None:
        """The character changed (a sheet edit, effects applied): refresh checks and odds."""
        self._chance_cache.clear()
        new = list(self.system.checks(self.character))
        if new != self._checks and checks_shape(new) == checks_shape(self._checks):
            self._adopt_checks(new)  # the same controls and cards: only words, defaults, odds
        elif new != self._checks:
            keep_group = self.accordion.selected_index if self.accordion is not None else 0
            more_open = self.more_options is not None and self.more_options.selected_index == 0
            self._load_checks()
            if self.accordion is not None and keep_group is not None and keep_group < len(self._groups):
                self.accordion.selected_index = keep_group
            if more_open and self.more_options is not None:
                self.open_more_options()
            self._render_labels()
        else:
            self._render_chances(None)
            self._render_title()

    def _adopt_checks(self, new: list[CheckSpec]) -> None:
        """Take checks of the same shape (see ``checks_shape``) without making a widget anew: a
        control keeps its widget and value and takes the new spec (its help, its default)."""
        self._checks = new
        self._groups = group_checks(new)
        specs = plan_controls(new, show_gm=bool(self.can("gm_options")), old_values={}, start_value=None)
        for key, ctrl in self._controls.items():
            ctrl.spec = specs[key].spec
            if ctrl.widget is not None:
                self._label_control(ctrl)
        self._render_group_labels()
        self._render_chances(None)
        self._render_title()

    def _chance(self, check_id: str) -> tuple[Fraction | None, Any]:
        return cached_chance(self._chance_cache, self.system, self.character, check_id, self.options_for(check_id))

    # ========================================================================================
    # rendering
    # ========================================================================================
    def _render_title(self) -> None:
        # the tray belongs to the character (a table seat rolls as "Pavel" for "Aria")
        self.title.value, self.title.tooltip = title_html(self.system, self.character, self.who, self.locale)

    def _render_labels(self) -> None:
        loc = self.locale
        self._render_title()
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
        if self.character is None:
            return
        self.situation_title.value = (
            f'<h3 title="{html.escape(_t("situation_tip", loc))}">{html.escape(_t("situation", loc))}</h3>'
        )
        if self.more_options is not None:
            self.more_options.set_title(0, _t("more_options", loc))
        self.checks_title.value = f"<h3>{html.escape(_t('checks', loc))}</h3>"
        for ctrl in self._controls.values():
            if ctrl.widget is not None:
                self._label_control(ctrl)
                if isinstance(ctrl.widget, widgets.Dropdown):
                    self._sync_widget(ctrl, relabel=True)
        self._render_group_labels()
        self._render_options_error()
        for c in self._checks:
            if c.id in self._cards:
                self._render_card(c)

    def _render_group_labels(self) -> None:
        if self.accordion is None:
            return
        # every title at once: one message (set_title sends the whole list each time)
        self.accordion.titles = tuple(f"{tr(label, self.locale)} ({len(checks)})" for label, checks in self._groups)

    def _label_control(self, ctrl: OptionControl) -> None:
        labels = [tr(self._spec(cid).label, self.locale) for cid in ctrl.checks[:4]]
        label_control(ctrl, self.locale, labels, len(self._checks))

    def _render_options_error(self) -> None:
        errs = [c.error for c in self._controls.values() if c.error is not None]
        self.options_error.value = options_error_html(errs, self.locale)
        self.options_error.layout.display = None if errs else "none"

    def _render_chances(self, check_ids) -> None:
        ids = check_ids if check_ids is not None else [c.id for c in self._checks]
        for cid in ids:
            if cid in self._cards:
                self._render_card(self._spec(cid))

    def _render_card(self, spec: CheckSpec) -> None:
        p, err = self._chance(spec.id)
        card = self._cards[spec.id]
        with card["button"].hold_sync(), card["box"].hold_sync():
            render_card(card, spec, p, err, self.locale)

    def _mark_last(self, check_id: str | None) -> None:
        for cid, card in self._cards.items():
            if cid == check_id:
                card["box"].add_class("tt-last-rolled")
            else:
                card["box"].remove_class("tt-last-rolled")

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
        dice = list(getattr(roll, "dice", []) or []) if roll is not None else []
        faces = ", ".join(str(getattr(d, "value", "")) for d in dice) or _t("no_dice", self.locale)
        self.dice.show(dice, announcement=self.announcement, label=_t("dice_label", self.locale, faces=faces))


def after_widget(spec: Any):
    """A control for one after-roll option (a whole number, yes/no, a choice or text); the
    tray reads its value and the system checks it, as if the browser were hostile."""
    style = {"description_width": "initial"}
    if spec.kind == "bool":
        w = widgets.Checkbox(value=bool(spec.default), indent=False)
    elif spec.kind == "choice":
        w = widgets.Dropdown(options=[(tr(label), v) for v, label in spec.choices], value=spec.default, style=style)
    elif spec.kind == "text":
        w = widgets.Text(value=str(spec.default or ""), style=style)
    else:
        lo = spec.min if spec.min is not None else -(10**6)
        hi = spec.max if spec.max is not None else 10**6
        w = widgets.BoundedIntText(value=min(max(int(spec.default or 0), lo), hi), min=lo, max=hi, style=style)
        w.layout.width = "12em"
    w.add_class("tt-after-option")
    return w


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
