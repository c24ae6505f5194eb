"""The GameSystem contract: what a rules system gives the generic widgets, magics and table.

Systems subclass :class:`GameSystem` in ``systems/<slug>/system.py`` and expose an instance as
``SYSTEM`` (named by the entry point; ``systems/README.md`` is the template). Everything here is plain data and pure functions:
no ipywidgets, no I/O. Bilingual text is ``{"en": ..., "ru": ...}``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Sequence

from .data import DataTables, thaw
from .i18n import DEFAULT_LOCALE, T, tr
from .option_specs import AfterRollSpec, OptionSpec, SpecOptions, checked_spec_options, option_problem  # noqa: F401
from .options import GmOptions
from .problems import RuleError
from .sheet import Sheet
from .system_combat import CombatRules
from .system_combat import ConditionSpec, DamageOutcome, InitiativeOrder, InitiativeRoll, record_changes  # noqa: F401
from .system_progress import CreationAndAdvancement

# the names imported above that this module does not use are re-exported: they stay importable from here


# --------------------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CheckSpec(SpecOptions):
    """A named check the tray offers for a character (e.g. RET ``attention``,
    Seasons ``wits+investigation``)."""

    id: str
    label: Mapping[str, str]
    options: Sequence[OptionSpec] = ()
    group: Mapping[str, str] = field(default_factory=lambda: T("Checks", "Проверки"))
    notation: str = ""  # the roll in the system's notation, e.g. "L5+3" (for display and %roll)
    help: Mapping[str, str] | None = None
    #: the same roll as a reader of each language sees it (still valid notation, e.g. Seasons
    #: ``pool 3[Сообразительность]+2[Расследование] diff 3``); ``None``: ``notation`` for everyone
    shown_notation: Mapping[str, str] | None = None

    def notation_text(self, locale: str = DEFAULT_LOCALE) -> str:
        """The notation for a reader of ``locale``."""
        return (self.shown_notation or {}).get(locale) or self.notation


@dataclass(frozen=True)
class Effect:
    """A change to a character's resource that a roll or action causes, as data.

    ``trait`` is the Character trait to change; ``delta`` is added (negative to spend).
    The widgets apply effects through ``GameSystem.apply_effects`` (which clamps by the rules),
    never by writing traits themselves.
    """

    trait: str
    delta: int
    reason: Mapping[str, str] = field(default_factory=dict)


@dataclass
class CheckResult:
    """The outcome of ``roll_check``.

    success  True/False for pass/fail checks; None when the check has no pass/fail (a choice roll)
    total    the final number compared (or the success count for pools)
    margin   total - difficulty when there is one
    degree   the system's degree of success/failure (int or a code), with ``degree_label``
    critical ``"success"``, ``"failure"`` or None
    roll     the dice as a ``tabletop_widgets.dice.RollResult`` (breakdown, per-die flags)
    outcome  the bilingual one-line verdict shown to players
    effects  resource changes as data (Luck spent, Sanity restored...), not yet applied
    details  anything else system-specific (e.g. fail degree die, ladder steps)
    """

    check_id: str
    label: Mapping[str, str]
    success: bool | None
    total: int | None
    roll: Any = None
    margin: int | None = None
    degree: Any = None
    degree_label: Mapping[str, str] | None = None
    critical: str | None = None
    outcome: Mapping[str, str] = field(default_factory=dict)
    effects: list[Effect] = field(default_factory=list)
    options: Mapping[str, Any] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    def breakdown(self, locale: str = DEFAULT_LOCALE) -> str:
        """The dice of the check; their pass/fail is left to the outcome when there is one (so
        a line never says «провал → провал»)."""
        roll = self.roll
        if not hasattr(roll, "text"):
            return str(roll) if roll is not None else ""
        if tr(self.outcome, locale):
            try:
                return roll.text(locale, verdict=False)
            except TypeError:  # a roll kept as text (a stored record)
                pass
        return roll.text(locale)

    def text(self, locale: str = DEFAULT_LOCALE) -> str:
        head = tr(self.label, locale)
        breakdown = self.breakdown(locale)
        verdict = tr(self.outcome, locale)
        if verdict and breakdown.rstrip().lower().endswith(verdict.lower()):
            verdict = ""  # the dice already end with it («… — крит. провал»)
        parts = [p for p in (head + ":", breakdown, "→ " + verdict if verdict else "") if p]
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        import html

        roll_html = self.roll._repr_html_() if hasattr(self.roll, "_repr_html_") else html.escape(str(self.roll or ""))
        cls = {True: "tt-pass", False: "tt-fail", None: ""}[self.success]
        return (
            f'<div class="tt-check {cls}"><b>{html.escape(tr(self.label))}</b> {roll_html} '
            f'<span class="tt-outcome">{html.escape(tr(self.outcome))}</span></div>'
        )


# --------------------------------------------------------------------------------------------
# The system
# --------------------------------------------------------------------------------------------
#: Words every book names in its own way, as the generic widgets say them unless a system
#: gives its own (``GameSystem.terms``): the person running the game, one combatant's turn.
DEFAULT_TERMS: dict[str, dict[str, str]] = {
    "gm": T("GM", "мастер"),
    "gm_title": T("Game master", "Мастер"),
    "gm_gen": T("GM", "мастера"),  # genitive: «Заметки мастера», «спросите мастера»
    "turn": T("Turn", "Ход"),
    "turns": T("Turns", "Ходов"),
    "dice": T("Dice", "Кубики"),
    "dice_tray": T("Dice tray", "Лоток для кубиков"),
}


def term_of(system: Any, key: str, locale: str = DEFAULT_LOCALE) -> str:
    """``system.term(key, locale)``, or the generic word for a system object without terms."""
    fn = getattr(system, "term", None)
    if callable(fn):
        return fn(key, locale)
    return tr(DEFAULT_TERMS[key], locale)


class GameSystem(CreationAndAdvancement, CombatRules):
    """Base class of a rules system. Subclasses set the class attributes and override methods.

    Required: ``slug``, ``title``, ``Character``, ``sheet``, ``checks``, ``roll_check``,
    ``check_distribution``, ``validate``, and the combat hooks ``health``, ``roll_initiative``,
    ``apply_damage``, ``conditions``.
    """

    slug: str = ""
    title: Mapping[str, str] = {}
    Character: type = object
    sheet: Sheet = Sheet(())
    #: GM-configurable readings of ambiguous rules (spec §11): name -> default (the system's
    #: ``options.DEFAULTS``); an instance's :attr:`rules` is a :class:`GmOptions` over them
    default_rules: Mapping[str, Any] = {}
    #: The system's data tables (``data.TABLES``); :meth:`data` and :meth:`data_tables` read them
    tables: DataTables | None = None
    #: The book's own words for :data:`DEFAULT_TERMS` keys (e.g. Seasons' «Рассказчик»)
    terms: Mapping[str, Mapping[str, str]] = {}
    #: Check options' usual values, where a spec's ``default`` (what an omitted option means,
    #: e.g. ``difficulty=None``: no difficulty) is not what a table starts from (RET: Medium, 8)
    usual_options: Mapping[str, Any] = {}

    def __init__(self, **rules: Any):
        unknown = set(rules) - set(self.default_rules)
        if unknown:
            raise ValueError(
                f"{self.slug}: unknown rules option(s) {sorted(unknown)}; known: {sorted(self.default_rules)}"
            )
        #: the GM options in force (frozen): ``self.rules.name`` or ``self.rules["name"]``
        self.rules: GmOptions = GmOptions(self.default_rules, **rules)

    def with_rules(self, **rules: Any) -> "GameSystem":
        """A copy of this system with some GM-configurable rules changed."""
        return type(self)(**{**self.rules, **rules})

    def __repr__(self) -> str:
        return f"<GameSystem {self.slug}: {tr(self.title)}>"

    def variables(self, character) -> dict[str, int]:
        """The character's whole-number traits for ``@name`` in dice notation, by trait id and
        by the sheet's names in both languages (``@strength``, ``@Сила``, ``@{Мелкая моторика}``;
        a name two fields share is left out rather than guessed)."""
        values = {}
        for name in character.trait_names():
            if name.startswith("_"):
                continue
            value = getattr(character, name, None)
            if isinstance(value, int) and not isinstance(value, bool):
                values[name] = value
        aliases: dict[str, str | None] = {}
        try:
            fields = list(self.sheet.fields())
        except (AttributeError, TypeError):
            fields = []
        for f in fields:
            if f.name not in values or not isinstance(f.label, Mapping):
                continue
            for text in f.label.values():
                for alias in {text.strip(), text.strip().lower()}:
                    if alias and alias not in values:
                        aliases[alias] = f.name if aliases.get(alias, f.name) == f.name else None
        values.update({alias: values[name] for alias, name in aliases.items() if name is not None})
        return values

    def term(self, key: str, locale: str = DEFAULT_LOCALE) -> str:
        """The book's word for ``key`` (a :data:`DEFAULT_TERMS` key) in ``locale``."""
        text = self.terms.get(key) or DEFAULT_TERMS.get(key)
        if text is None:
            raise KeyError(f"no term {key!r}: known {sorted(DEFAULT_TERMS)}")
        return tr(text, locale)

    # -- data --------------------------------------------------------------------------------
    def data(self, table: str) -> list[dict[str, Any]]:
        """A data table (spec §8) by name: a list of rows with ``en``/``ru`` names (plain copies:
        changing them changes nothing else). Read from :attr:`tables` when the system sets it."""
        if self.tables is None:
            raise KeyError(f"{self.slug}: no data table {table!r}")
        try:
            return thaw(self.tables.rows(table))
        except KeyError:
            raise KeyError(f"{self.slug}: no data table {table!r}; known: {self.data_tables()}") from None

    def data_tables(self) -> list[str]:
        """The names :meth:`data` accepts."""
        return self.tables.names() if self.tables is not None else []

    # -- checks ------------------------------------------------------------------------------
    def checks(self, character) -> list[CheckSpec]:
        raise NotImplementedError

    def start_value(self, option: OptionSpec) -> Any:
        """The value a dice tray starts ``option`` at: the system's usual value for it
        (:attr:`usual_options`) when the option allows it, else the spec's ``default``."""
        if option.name not in self.usual_options:
            return option.default
        value = self.usual_options[option.name]
        if option.choices and value not in [v for v, _label in option.choices]:
            return option.default
        if isinstance(value, int) and not isinstance(value, bool):
            if (option.min is not None and value < option.min) or (option.max is not None and value > option.max):
                return option.default
        return value

    def check(self, character, check_id: str) -> CheckSpec:
        for c in self.checks(character):
            if c.id == check_id:
                return c
        raise RuleError(
            "unknown_check", T(f"{self.slug}: no check named {check_id!r}", f"{self.slug}: нет проверки {check_id!r}")
        )

    def roll_check(self, character, check_id: str, *, rng: random.Random | None = None, **options: Any) -> CheckResult:
        raise NotImplementedError

    def after_roll_options(self, character, result: CheckResult) -> list[OptionSpec]:
        """What a player may still do to ``result`` (a check of ``character`` just rolled, its
        effects applied), as options for :meth:`after_roll` (Life&Death: epic dice spent after
        the roll, L351); empty when nothing is offered. The default offers nothing."""
        return []

    def after_roll(self, character, result: CheckResult, **options: Any) -> CheckResult:
        """``result`` read again with the ``options`` of :meth:`after_roll_options`: a new
        :class:`CheckResult` whose ``effects`` (not yet applied) are what the change spends; a
        :class:`RuleError` for what the rules refuse. Nothing is rolled again. The default
        refuses (see :meth:`checked_after_roll_options`)."""
        self.checked_after_roll_options(character, result, options)
        raise NotImplementedError  # pragma: no cover - a system offering options overrides this

    def checked_after_roll_options(self, character, result: CheckResult, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` checked against :meth:`after_roll_options` (known names, allowed values,
        the defaults filled in); a :class:`RuleError` when nothing may be done to ``result``
        or an option is unknown or out of range."""
        specs = list(self.after_roll_options(character, result))
        if not specs:
            raise RuleError(
                "no_after_roll",
                T(
                    "Nothing more can be done to this roll.",
                    "С этим броском больше ничего сделать нельзя.",
                ),
            )
        owner = AfterRollSpec(result.label, tuple(specs))
        return checked_spec_options(owner, options, f"У броска «{tr(result.label, 'ru')}»")

    def check_distribution(self, character, check_id: str, **options: Any):
        """Exact distribution (``tabletop_widgets.dice.Distribution``) of the check's total,
        with ``p_pass`` set when the check has pass/fail."""
        raise NotImplementedError

    def chance(self, character, check_id: str, **options: Any) -> Fraction:
        """Exact probability that the check succeeds with these options."""
        dist = self.check_distribution(character, check_id, **options)
        if dist.p_pass is None:
            raise RuleError(
                "no_pass_fail",
                T(
                    "this roll gives a result, not a success or a failure",
                    "этот бросок даёт результат, а не успех или провал",
                ),
            )
        return dist.p_pass

    def effect_value(self, character, trait: str, old: Any, delta: int) -> Any:
        """The value ``trait`` takes when an effect adds ``delta`` to ``old`` (``old`` already
        includes earlier effects on the same trait). The default adds; systems override it to
        clamp (Luck never below 0) or to refuse with :class:`RuleError` (not enough Luck). It must
        not change the character: :meth:`apply_effects` calls it for every effect before setting
        anything."""
        return old + delta

    def apply_effects(self, character, effects: Sequence[Effect]) -> dict[str, tuple[Any, Any]]:
        """Apply resource effects by the rules, all or none; returns ``{trait: (old, new)}``.

        Every effect is checked first (:meth:`effect_value`, accumulating several effects on one
        trait); a refused one raises before any trait is set. Then the traits are set; if setting
        one fails (the model refuses the value), the ones already set are put back."""
        planned: dict[str, tuple[Any, Any]] = {}
        for e in effects:
            if e.trait in planned:
                first, current = planned[e.trait]
            else:
                first = current = getattr(character, e.trait)
            planned[e.trait] = (first, self.effect_value(character, e.trait, current, e.delta))
        done: list[str] = []
        try:
            for trait, (_old, new) in planned.items():
                setattr(character, trait, new)
                done.append(trait)
        except BaseException:
            for trait in reversed(done):
                setattr(character, trait, planned[trait][0])
            raise
        return {trait: (old, getattr(character, trait)) for trait, (old, _new) in planned.items()}

    # -- dice words for %roll ---------------------------------------------------------------------
    def dice_words(self) -> list:
        """``tabletop_widgets.dice.DiceWord`` objects this system adds to the notation."""
        return []
