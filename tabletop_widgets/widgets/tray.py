"""DiceTray: the named checks of a character with their exact odds, a notation box, animated dice.

Generic over ``GameSystem``: the checks, their options, the odds, the roll and the resource
effects all come from the system (``checks``, ``chance``, ``roll_check``, ``apply_effects``);
nothing here knows a rule. Without a character the tray is a notation-only tray.

Options: each check declares ``OptionSpec``s. An option the same (name, kind, label, choices)
in two or more checks gets ONE shared control in the "Situation" bar (set the difficulty once,
see every chance move); an option only one check takes is drawn inside that check's card.
A choice with a single value needs no control; ``gm_only`` options show only when
``can("gm_options")`` allows.
"""

from __future__ import annotations

import html
import random
import re
from collections import Counter
from fractions import Fraction
from typing import Any, Callable, Mapping

import ipywidgets as widgets
import traitlets as t

from tabletop_widgets.core.i18n import LOCALES, T, tr
from tabletop_widgets.core.system import CheckSpec, GameSystem, OptionSpec, term_of
from tabletop_widgets.core.wording import join_en, join_ru
from tabletop_widgets.dice import roll as dice_roll
from tabletop_widgets.front import stylesheet

from . import language
from .dice_anim import DiceAnim
from .log import RollLog

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
    "effects_failed": T("Effects not applied: {error}", "Последствия не применены: {error}"),
    "not_an_integer": T("{label}: a whole number, or empty for none", "{label}: целое число или пусто"),
    "not_allowed": T("Not allowed.", "Нет прав на это действие."),
    "unknown_check": T("No check named {id!r}", "Нет проверки {id!r}"),
    "none": T("—", "—"),
    "locale_tip": T("Language", "Язык"),
    "notation_only": T("Notation only: no character bound", "Только запись: персонаж не выбран"),
}

_CSS = stylesheet("tray")  # tabletop_widgets/front/tray.css


def _t(key: str, locale: str, **fmt: Any) -> str:
    text = TEXTS[key].get(locale) or TEXTS[key]["en"]
    return text.format(**fmt) if fmt else text


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


def _css_id(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", str(text)).strip("-") or "x"


def _option_key(o: OptionSpec) -> tuple:
    choices = tuple(repr(v) for v, _ in o.choices) if o.kind == "choice" else ()
    return (o.name, o.kind, tr(o.label, "en"), choices)


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


_error_text = error_text


class OptionControl:
    """One option control: the spec it shows, the checks it feeds, its widget and value."""

    def __init__(self, key: tuple, spec: OptionSpec, checks: list[str], shared: bool):
        self.key = key
        self.spec = spec
        self.name = spec.name
        self.checks = checks
        self.shared = shared
        self.value: Any = spec.default
        self.error: BaseException | None = None
        self.widget: widgets.Widget | None = None
        self.nullable_int = spec.kind == "int" and spec.default is None and not spec.choices

    def coerce(self, raw: Any) -> Any:
        """The option value for ``raw`` (a widget value); ValueError when it is not one."""
        if self.nullable_int:
            text = str(raw if raw is not None else "").strip()
            if text in ("", "—", "-"):
                return None
            return int(text)  # ValueError on junk
        return raw


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
        ``"set_option"``, ``"gm_options"`` (showing GM-only options). Default: allow all.
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
        self.system = _resolve_system(system, character)
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
        self.result = widgets.VBox([self.dice, self.result_view])
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

    def perform_roll(self, text: str):
        """Roll the notation ``text`` (with the character's ``@variables``); returns the result."""
        return dice_roll(text, rng=self.rng, variables=self.variables(), locale=self.locale)

    def show_notation_result(self, result) -> None:
        """Show a notation roll's result (rolled here, or by a shared table for this tray)."""
        self.last_error = None
        self.last_result = result
        self.last_kind = "notation"
        self.last_changes = {}
        self.last_effects_error = None
        self._mark_last(None)
        self._render_error()
        self._render_result()
        self._animate(result)

    def variables(self) -> dict:
        """The character's integer traits, for ``@name`` in the notation (and the character
        itself under ``CHARACTER_KEY``)."""
        if self.character is None:
            return {}
        # by id and by the sheet's names (@strength, @Сила, @{Мелкая моторика})
        out = dict(self.system.variables(self.character))
        from tabletop_widgets.dice.words import CHARACTER_KEY

        out[CHARACTER_KEY] = self.character  # for system words that roll named checks
        return out

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

    def _on_character(self, change) -> None:
        if self._suspend:
            return
        self._character_changed()

    # ========================================================================================
    # locale
    # ========================================================================================
    @t.validate("locale")
    def _check_locale(self, proposal):
        if proposal["value"] not in LOCALES:
            raise t.TraitError(f"unknown locale {proposal['value']!r}: expected 'en' or 'ru'")
        return proposal["value"]

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
                _close_tree(child)
        self._checks = list(self.system.checks(self.character))
        self._chance_cache.clear()
        show_gm = bool(self.can("gm_options"))
        users: dict[tuple, list[str]] = {}
        specs: dict[tuple, list[OptionSpec]] = {}
        for c in self._checks:
            for o in c.options:
                if o.gm_only and not show_gm:
                    continue
                if o.kind == "choice" and len(o.choices) <= 1:
                    continue  # a single choice is no choice
                k = _option_key(o)
                users.setdefault(k, []).append(c.id)
                specs.setdefault(k, []).append(o)
        self._controls = {}
        self._control_of = {}
        for k, ids in users.items():
            # the most common spec of the group stands for it (defaults may differ: None vs 0)
            top = Counter(repr(s) for s in specs[k]).most_common(1)[0][0]
            spec = next(s for s in specs[k] if repr(s) == top)
            ctrl = OptionControl(k, spec, ids, shared=len(ids) >= 2)
            if k in old_values:
                ctrl.value = old_values[k]
            elif hasattr(self.system, "start_value"):  # the system's usual value (RET: Medium)
                ctrl.value = self.system.start_value(spec)
            self._controls[k] = ctrl
            for cid in ids:
                self._control_of[(cid, spec.name)] = ctrl
        # groups in first-seen order
        groups: dict[str, tuple[Mapping[str, str], list[CheckSpec]]] = {}
        for c in self._checks:
            gkey = tr(c.group, "en")
            groups.setdefault(gkey, (c.group, []))[1].append(c)
        self._groups = list(groups.values())
        self._group_of = {c.id: i for i, (_, cs) in enumerate(self._groups) for c in cs}
        self._cards = {}
        self._built_groups = set()
        self._build_situation()
        self._build_checks()

    def _build_situation(self) -> None:
        shared = [c for c in self._controls.values() if c.shared]
        n = max(1, len(self._checks))
        # in the order the system declares them (difficulty first, as a rule); the options
        # few checks use fold away under "More options"
        order: dict[str, int] = {}
        for c in self._checks:
            for i, o in enumerate(c.options):
                order[o.name] = min(order.get(o.name, i), i)
        shared.sort(key=lambda c: order.get(c.name, 99))
        main = [c for c in shared if len(c.checks) * 4 >= n]
        rare = [c for c in shared if len(c.checks) * 4 < n]
        for ctrl in main:
            ctrl.widget = self._make_control(ctrl)
        self.situation_title = widgets.HTML()
        self.situation_title.add_class("tt-section-title")
        children = [self.situation_title, *_option_rows(main)]
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
        self.situation.layout.display = None if shared else "none"

    def _build_checks(self) -> None:
        self.checks_title = widgets.HTML()
        self.checks_title.add_class("tt-tray-checks-title")
        placeholders = [widgets.VBox() for _ in self._groups]
        self.accordion = widgets.Accordion(placeholders)
        self.accordion.add_class("tt-check-groups")
        self.accordion.observe(self._on_accordion, names="selected_index")
        self.checks_box.children = [self.checks_title, self.accordion]
        self.checks_box.layout.display = None if self._groups else "none"
        if len(self._groups) == 1:  # one group: nothing to choose, it is open
            self.accordion.selected_index = 0
            self._ensure_group(0)
        # more groups start folded, each showing its count: a group's cards (and their
        # chances) are made when it is first opened

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

    def _ensure_more_options(self) -> None:
        box = self.more_options.children[0] if self.more_options is not None else None
        if box is None or box.children:
            return
        for ctrl in self._rare_controls:
            ctrl.widget = self._make_control(ctrl)
        box.children = _option_rows(self._rare_controls)

    def _ensure_group(self, index: int) -> None:
        if index in self._built_groups or self.accordion is None:
            return
        self._built_groups.add(index)
        _, checks = self._groups[index]
        cards = [self._make_card(c) for c in checks]
        grid = widgets.GridBox(cards, layout=_grid_layout(250, "8px 12px"))
        grid.add_class("tt-check-grid")
        self.accordion.children[index].children = [grid]
        self._render_group_labels(index)

    def _make_card(self, spec: CheckSpec) -> widgets.Widget:
        button = widgets.Button(layout=widgets.Layout(width="auto"))
        button.add_class("tt-check-button")
        button.on_click(lambda _b, cid=spec.id: self._on_check_click(cid))
        pill = widgets.HTML()
        pill.add_class("tt-chance")
        row = widgets.HBox([button, pill])
        row.add_class("tt-check-row")
        own = [ctrl for ctrl in self.option_controls(spec.id) if not ctrl.shared]
        for ctrl in own:
            ctrl.widget = self._make_control(ctrl)
        children = [row]
        if own:
            opts = widgets.HBox([c.widget for c in own])
            opts.add_class("tt-check-options")
            children.append(opts)
        box = widgets.VBox(children)
        box.add_class("tt-check")
        box.add_class(f"tt-check-{_css_id(spec.id)}")
        self._cards[spec.id] = {"box": box, "button": button, "pill": pill}
        if spec.id == self._last_check_id:
            box.add_class("tt-last-rolled")
        self._render_card(spec)
        return box

    def _make_control(self, ctrl: OptionControl) -> widgets.Widget:
        o = ctrl.spec
        style = {"description_width": "initial"}
        if o.kind == "bool":
            w = widgets.Checkbox(value=bool(ctrl.value), indent=False)
        elif o.kind == "choice":
            w = widgets.Dropdown(options=[(tr(lbl, self.locale), v) for v, lbl in o.choices], style=style)
            values = [v for v, _ in o.choices]
            w.value = ctrl.value if ctrl.value in values else values[0]
            ctrl.value = w.value
        elif o.kind == "int" and o.choices:
            w = widgets.Dropdown(options=self._int_choice_options(ctrl), style=style)
            w.value = ctrl.value
        elif ctrl.nullable_int or o.kind == "text":
            w = widgets.Text(value="" if ctrl.value is None else str(ctrl.value), style=style, continuous_update=False)
        else:  # int
            lo = o.min if o.min is not None else -(10**6)
            hi = o.max if o.max is not None else 10**6
            w = widgets.BoundedIntText(value=int(ctrl.value or 0), min=lo, max=hi, style=style)
            ctrl.value = w.value
        w.add_class("tt-option")
        w.add_class(f"tt-option-{_css_id(o.name)}")
        w.observe(lambda change, c=ctrl: self._on_control(c, change), names="value")
        ctrl.widget = w
        self._label_control(ctrl)
        return w

    def _int_choice_options(self, ctrl: OptionControl) -> list[tuple[str, Any]]:
        o = ctrl.spec
        opts: list[tuple[str, Any]] = []
        if o.default is None:
            opts.append((_t("none", self.locale), None))
        opts += [(tr(lbl, self.locale), v) for v, lbl in o.choices]
        if ctrl.value not in [v for _, v in opts]:
            opts.append((str(ctrl.value), ctrl.value))
        return opts

    def _set_control(self, ctrl: OptionControl, raw: Any, from_widget: bool = False) -> None:
        if not self.can("set_option"):
            self._sync_widget(ctrl)  # a forged change is put back
            return
        try:
            value = ctrl.coerce(raw)
        except (TypeError, ValueError):
            ctrl.error = ValueError(_t("not_an_integer", "en", label=tr(ctrl.spec.label, "en")))
            ctrl.error.bilingual = {loc: _t("not_an_integer", loc, label=tr(ctrl.spec.label, loc)) for loc in LOCALES}
            if ctrl.widget is not None:
                ctrl.widget.add_class("tt-option-invalid")
            self._render_options_error()
            return
        if ctrl.widget is not None and isinstance(ctrl.widget, widgets.BoundedIntText):
            value = max(ctrl.widget.min, min(ctrl.widget.max, int(value)))
        ctrl.error = None
        if ctrl.widget is not None:
            ctrl.widget.remove_class("tt-option-invalid")
        ctrl.value = value
        if not from_widget or not isinstance(ctrl.widget, widgets.Text):
            self._sync_widget(ctrl)
        self._render_options_error()
        self._render_chances(ctrl.checks)

    def _sync_widget(self, ctrl: OptionControl) -> None:
        w = ctrl.widget
        if w is None:
            return
        self._syncing = True
        try:
            if isinstance(w, widgets.Text):
                w.value = "" if ctrl.value is None else str(ctrl.value)
            elif isinstance(w, widgets.Dropdown) and ctrl.spec.kind == "int":
                w.options = self._int_choice_options(ctrl)
                w.value = ctrl.value
            else:
                w.value = ctrl.value
        finally:
            self._syncing = False

    def _character_changed(self) -> None:
        """The character changed (a sheet edit, effects applied): refresh checks and odds."""
        self._chance_cache.clear()
        new = list(self.system.checks(self.character))
        if new != self._checks:
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

    # ========================================================================================
    # odds
    # ========================================================================================
    def _chance(self, check_id: str) -> tuple[Fraction | None, Any]:
        options = self.options_for(check_id)
        key = (check_id, tuple(sorted((k, repr(v)) for k, v in options.items())))
        hit = self._chance_cache.get(key)
        if hit is None:
            try:
                hit = (Fraction(self.system.chance(self.character, check_id, **options)), None)
            except (ValueError, KeyError, TypeError, ArithmeticError) as exc:
                hit = (None, exc)
            self._chance_cache[key] = hit
        return hit

    # ========================================================================================
    # rendering
    # ========================================================================================
    def _render_title(self) -> None:
        loc = self.locale
        sub = []
        # the tray belongs to the character (a table seat rolls as "Pavel" for "Aria")
        owner = str(getattr(self.character, "name", "") or "") if self.character is not None else ""
        if owner or self.who:
            sub.append(owner or self.who)
        if self.system is not None:
            sub.append(tr(self.system.title, loc))
        if self.character is None:
            sub.append(_t("notation_only", loc))
        sub_html = f'<span class="tt-sub">{html.escape(" · ".join(sub))}</span>' if sub else ""
        title = term_of(self.system, "dice_tray", loc) if self.system is not None else _t("title", loc)
        self.title.value = f"<h2>{html.escape(title)}{sub_html}</h2>"
        self.title.tooltip = title

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
                    self._relabel_dropdown(ctrl)
        for i in range(len(self._groups)):
            self._render_group_labels(i)
        self._render_options_error()
        for c in self._checks:
            if c.id in self._cards:
                self._render_card(c)

    def _render_group_labels(self, index: int) -> None:
        if self.accordion is None:
            return
        label, checks = self._groups[index]
        self.accordion.set_title(index, f"{tr(label, self.locale)} ({len(checks)})")

    def _label_control(self, ctrl: OptionControl) -> None:
        loc = self.locale
        o = ctrl.spec
        ctrl.widget.description = tr(o.label, loc)
        tip = tr(o.help, loc) if o.help else tr(o.label, loc)
        if ctrl.shared and len(ctrl.checks) < len(self._checks):
            names = [tr(self._spec(cid).label, loc) for cid in ctrl.checks[:4]]
            if len(ctrl.checks) > 4:
                names.append(_t("more", loc, n=len(ctrl.checks) - 4))
            # «Бег, Спорт и ещё 235»: no comma before the last «и»
            joined = join_ru(names) if loc == "ru" else join_en(names)
            tip += "\n" + _t("applies_to", loc, checks=joined)
        ctrl.widget.tooltip = tip
        if isinstance(ctrl.widget, widgets.Text):
            ctrl.widget.placeholder = _t("none", loc) if ctrl.nullable_int else ""

    def _relabel_dropdown(self, ctrl: OptionControl) -> None:
        self._syncing = True
        try:
            w = ctrl.widget
            value = w.value
            if ctrl.spec.kind == "int":
                w.options = self._int_choice_options(ctrl)
            else:
                w.options = [(tr(lbl, self.locale), v) for v, lbl in ctrl.spec.choices]
            w.value = value
        finally:
            self._syncing = False

    def _render_options_error(self) -> None:
        errs = [
            getattr(c.error, "bilingual", {}).get(self.locale) or str(c.error)
            for c in self._controls.values()
            if c.error is not None
        ]
        self.options_error.value = "".join(f'<div role="alert">{html.escape(e)}</div>' for e in errs)
        self.options_error.layout.display = None if errs else "none"

    def _render_chances(self, check_ids) -> None:
        ids = check_ids if check_ids is not None else [c.id for c in self._checks]
        for cid in ids:
            if cid in self._cards:
                self._render_card(self._spec(cid))

    def _render_card(self, spec: CheckSpec) -> None:
        loc = self.locale
        card = self._cards[spec.id]
        label = tr(spec.label, loc)
        button: widgets.Button = card["button"]
        button.description = label
        p, err = self._chance(spec.id)
        tip = _t("check_tip", loc, label=label)
        if spec.notation:
            tip += f" ({spec.notation_text(loc)})"
        if spec.help:
            tip += "\n" + tr(spec.help, loc)
        if p is None:
            reason = _error_text(err, loc) if err is not None else _t("no_chance", loc)
            pill = (
                f'<span class="tt-pill tt-na" title="{html.escape(reason)}" data-fraction="">'
                f'<span class="tt-chance-text">{html.escape(_t("none", loc))}</span></span>'
            )
            code = getattr(err, "code", None)
            unavailable = err is not None and code not in (None, "no_pass_fail")
            tip += "\n" + reason
        else:
            pct = percent_text(p)
            level = "tt-hi" if p >= Fraction(2, 3) else ("tt-mid" if p >= Fraction(1, 3) else "tt-lo")
            title = _t("chance_tip", loc, fraction=_fraction_text(p), percent=f"{float(p) * 100:.4g}%")
            pill = (
                f'<span class="tt-pill {level}" title="{html.escape(title)}" '
                f'data-fraction="{p.numerator}/{p.denominator}" aria-label="{html.escape(title)}">'
                f'<span class="tt-bar" style="width:{float(p) * 100:.1f}%"></span>'
                f'<span class="tt-chance-text">{pct}</span></span>'
            )
            unavailable = False
            tip += "\n" + title
        card["pill"].value = pill
        button.tooltip = tip
        box = card["box"]
        if unavailable:
            box.add_class("tt-check-unavailable")
        else:
            box.remove_class("tt-check-unavailable")

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
        if exc is None:
            self.error.value = ""
            return
        if isinstance(exc, PermissionError) and not hasattr(exc, "text"):
            text = _t("not_allowed", self.locale)
        else:
            text = _error_text(exc, self.locale)
        self.error.value = f'<pre role="alert">{html.escape(text)}</pre>'

    def _effects_text(self, locale: str) -> str:
        parts = [self._change_text(trait, old, new, locale) for trait, (old, new) in self.last_changes.items()]
        if self.last_effects_error is not None:
            parts.append(_t("effects_failed", locale, error=_error_text(self.last_effects_error, locale)))
        return "; ".join(parts)

    def _change_text(self, trait: str, old: Any, new: Any, locale: str) -> str:
        label = self._trait_label(trait, locale)
        try:
            delta = int(new) - int(old)
            sign = "+" if delta > 0 else ("−" if delta < 0 else "±")
            return f"{label} {sign}{abs(delta)} ({old} → {new})"
        except (TypeError, ValueError):
            return f"{label}: {old} → {new}"

    def _trait_label(self, trait: str, locale: str) -> str:
        try:
            return tr(self.system.sheet.field(trait).label, locale)
        except (KeyError, AttributeError, LookupError, ValueError):
            pass
        result = self.last_result
        for e in getattr(result, "effects", ()) or ():
            if e.trait == trait and e.reason:
                return tr(e.reason, locale)
        return trait

    def _announce_text(self, locale: str) -> str:
        r = self.last_result
        who = f"{self.who}: " if self.who else ""
        if self.last_kind == "check":
            outcome = tr(r.outcome, locale) or (str(r.total) if r.total is not None else "")
            end = "" if outcome[-1:] in ".!?…" else "."  # no «проблема!.»
            text = f"{who}{tr(r.label, locale)}: {outcome}{end}"
            effects = self._effects_text(locale)
            return f"{text} {effects}".strip()
        return f"{who}{r.text(locale)}"

    def _render_result(self) -> None:
        loc = self.locale
        r = self.last_result
        self.result.layout.display = "none" if r is None else None
        if r is None:
            self.result_view.value = ""
            return
        who = f'<span class="tt-who">{html.escape(self.who)}</span>' if self.who else ""
        if self.last_kind == "check":
            cls = {True: "tt-pass", False: "tt-fail", None: "tt-none"}[r.success]
            mark = {True: "✓ ", False: "✗ ", None: ""}[r.success]
            outcome = tr(r.outcome, loc) or (str(r.total) if r.total is not None else "")
            head = (
                f'<div class="tt-result-head">{who}<span class="tt-what">{html.escape(tr(r.label, loc))}'
                f'</span><span class="tt-verdict {cls}">{mark}{html.escape(outcome)}</span></div>'
            )
            roll = r.roll
            body = _breakdown(roll, loc) if roll is not None and hasattr(roll, "html") else ""
            lines = [self._change_text(tr_, o, n, loc) for tr_, (o, n) in self.last_changes.items()]
            effects = "".join(f'<span class="tt-effect">{html.escape(x)}</span>' for x in lines)
            if self.last_effects_error is not None:
                why = _t("effects_failed", loc, error=_error_text(self.last_effects_error, loc))
                effects += f'<span class="tt-effect tt-effect-error">{html.escape(why)}</span>'
            effects_html = f'<div class="tt-effects">{effects}</div>' if effects else ""
            result_cls = cls
        else:
            passed = r.passed
            result_cls = {True: "tt-pass", False: "tt-fail", None: "tt-none"}[passed]
            mark = {True: "✓ ", False: "✗ ", None: ""}[passed]
            head = (
                f'<div class="tt-result-head">{who}<span class="tt-what">'
                f'{html.escape(r.expression)}</span><span class="tt-verdict {result_cls}">'
                f"{mark}{r.total}</span></div>"
            )
            body = _breakdown(r, loc)
            effects_html = ""
        self.result_view.value = (
            f'<div class="tt-result {result_cls.replace("tt-", "tt-result-")}">{head}'
            f'<div class="tt-breakdown">{body}</div>{effects_html}</div>'
        )
        self.announcement = self._announce_text(loc)
        self.dice.announcement = self.announcement

    def _animate(self, roll: Any) -> None:
        dice = list(getattr(roll, "dice", []) or []) if roll is not None else []
        faces = ", ".join(str(getattr(d, "value", "")) for d in dice) or _t("no_dice", self.locale)
        self.dice.show(dice, announcement=self.announcement, label=_t("dice_label", self.locale, faces=faces))


def _breakdown(roll: Any, loc: str) -> str:
    """A roll's breakdown inside the result (the tray's stylesheet styles it; the dice announce)."""
    return roll.html(loc, css=False, live=False)


def _close_tree(widget: widgets.Widget) -> None:
    for child in getattr(widget, "children", ()) or ():
        _close_tree(child)
    widget.close()


def _option_rows(ctrls: list[OptionControl]) -> list[widgets.Widget]:
    """Numbers and choices in an aligned grid; the yes/no flags in a row of their own."""
    fields = [c.widget for c in ctrls if c.spec.kind != "bool"]
    flags = [c.widget for c in ctrls if c.spec.kind == "bool"]
    rows: list[widgets.Widget] = []
    if fields:
        grid = widgets.GridBox(fields, layout=_grid_layout(200, "6px 14px", "flex-end"))
        grid.add_class("tt-option-grid")
        rows.append(grid)
    if flags:
        row = widgets.HBox(flags)
        row.add_class("tt-option-flags")
        rows.append(row)
    return rows


def _grid_layout(min_px: int, gap: str, align: str = "flex-start") -> widgets.Layout:
    return widgets.Layout(
        grid_template_columns=f"repeat(auto-fill, minmax({min_px}px, 1fr))",
        grid_gap=gap,
        width="100%",
        align_items=align,
    )


def _fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _resolve_system(system: GameSystem | str | None, character: Any) -> GameSystem | None:
    from tabletop_widgets.core.registry import get_system

    if isinstance(system, str):
        return get_system(system)
    if system is not None:
        return system
    if character is None:
        return None
    slug = getattr(character, "SYSTEM", "") or getattr(type(character), "SYSTEM", "")
    if not slug:
        raise ValueError("DiceTray: pass system= for a character that does not name its system")
    return get_system(slug)


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


__all__ = ["DiceTray", "OptionControl", "show_tray", "percent_text"]
