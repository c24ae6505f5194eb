"""The GameSystem contract: what a rules system gives the generic widgets, magics and table.

Systems subclass :class:`GameSystem` in ``systems/<slug>/system.py`` and expose an instance as
``SYSTEM`` (named by the entry point; ``systems/README.md`` is the template). Everything here is plain data and pure functions:
no ipywidgets, no I/O. Bilingual text is ``{"en": ..., "ru": ...}``.
"""

from __future__ import annotations

import copy
import random
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Iterator, Mapping, Sequence

from .data import DataTables, thaw
from .i18n import DEFAULT_LOCALE, T, tr
from .options import GmOptions
from .phases import DEFAULT_PHASE, already_in_play, blocks_play, refusal
from .problems import Problem, RuleError
from .sheet import Sheet


# --------------------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------------------
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


@dataclass(frozen=True)
class CheckSpec:
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

    def option(self, name: str) -> OptionSpec:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def option_problem(spec: OptionSpec, value: Any, *, text_limit: int | None = None) -> dict[str, str] | None:
    """Why ``value`` is not allowed for option ``spec``, or None: a whole number within
    ``min``/``max``, yes or no, one of the ``choices``, or text of at most ``text_limit``
    characters. The message names the option, in English and Russian, for a player."""
    label_en, label_ru = tr(spec.label, "en"), tr(spec.label, "ru")
    if spec.kind == "int":
        if value is None and spec.default is None:
            return None
        if not _is_int(value):
            return T(f"{label_en}: a whole number is needed.", f"{label_ru}: нужно целое число.")
        if spec.min is not None and value < spec.min:
            return T(
                f"{label_en}: {value} is below the lowest allowed value, {spec.min}.",
                f"{label_ru}: {value} меньше наименьшего допустимого значения {spec.min}.",
            )
        if spec.max is not None and value > spec.max:
            return T(
                f"{label_en}: {value} is above the highest allowed value, {spec.max}.",
                f"{label_ru}: {value} больше наибольшего допустимого значения {spec.max}.",
            )
        return None
    if spec.kind == "bool":
        if not isinstance(value, bool):
            return T(f"{label_en}: yes or no is needed.", f"{label_ru}: нужно «да» или «нет».")
        return None
    if spec.kind == "choice":
        allowed = [v for v, _label in spec.choices]
        if value not in allowed or (
            isinstance(value, bool) != any(isinstance(v, bool) and v == value for v in allowed)
        ):
            return T(
                f"{label_en}: that is not one of the choices offered.",
                f"{label_ru}: такого варианта нет среди предложенных.",
            )
        return None
    if spec.kind == "text":
        if not isinstance(value, str):
            return T(f"{label_en}: text is needed.", f"{label_ru}: нужен текст.")
        if text_limit is not None and len(value) > text_limit:
            return T(
                f"{label_en}: the text is too long (at most {text_limit} characters).",
                f"{label_ru}: текст слишком длинный (не больше {text_limit} символов).",
            )
        return None
    return None  # a kind this module does not know: the system validates it


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
class AfterRollSpec:
    """What may still be done to a rolled check (``GameSystem.after_roll_options``), in the
    shape :func:`checked_spec_options` reads: the roll's label and its options."""

    label: Mapping[str, str]
    options: Sequence[OptionSpec]

    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}


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
# Combat
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ConditionSpec:
    """An entry of the system's conditions catalogue.

    duration   default duration in ``unit`` (None: until removed)
    unit       ``"rounds"``, ``"turns"`` (of the bearer), ``"scene"``, ``"until_removed"``
    ticks_at   ``"start"`` or ``"end"`` of the bearer's turn: when a round/turn duration counts down
    stacks     whether several instances add up (Seasons: -3 each)
    effect     bilingual short description of the mechanical effect
    """

    id: str
    label: Mapping[str, str]
    effect: Mapping[str, str]
    duration: int | None = None
    unit: str = "until_removed"
    ticks_at: str = "end"
    stacks: bool = False
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class InitiativeRoll:
    """One combatant's initiative as rolled: ``key`` sorts descending (a tuple: the system's
    tie-break chain, e.g. ``(successes, dexterity, d10 roll-off)``); ``text`` shows it.

    skip_rounds  rounds this combatant sits out from the start (RET: a critical fail on the
                 initiative roll loses the first round)
    effects      resource changes the roll causes (Luck spent, Sanity...), applied by the tracker
                 through ``GameSystem.apply_effects``
    """

    combatant_id: str
    key: tuple
    text: Mapping[str, str]
    roll: Any = None
    skip_rounds: int = 0
    effects: Sequence["Effect"] = ()


@dataclass(frozen=True)
class InitiativeOrder:
    """The result of ``GameSystem.roll_initiative``: ids in turn order, the rolls, and the
    tie-breaks that decided neighbours with equal primary scores (bilingual notes)."""

    order: Sequence[str]
    rolls: Mapping[str, InitiativeRoll]
    tiebreaks: Sequence[Mapping[str, str]] = ()


@dataclass
class DamageOutcome:
    """What applying damage or healing did: trait changes ``{trait: (old, new)}``, notes for the
    log, and the state the target is now in."""

    changes: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    notes: list[Mapping[str, str]] = field(default_factory=list)
    defeated: bool = False
    state: Mapping[str, str] | None = None  # e.g. {"en": "unconscious", "ru": "без сознания"}
    details: dict[str, Any] = field(default_factory=dict)


@contextmanager
def record_changes(character, traits: Iterable[str], outcome: DamageOutcome | None = None) -> Iterator[DamageOutcome]:
    """Record what a block does to ``character``'s ``traits``: the one way systems fill
    :attr:`DamageOutcome.changes`.

    Snapshots the named traits (deep copies, so a list changed in place counts), yields a
    :class:`DamageOutcome` (``outcome`` when given) and, when the block ends without an error, sets
    ``changes[trait] = (old, new)`` for every named trait whose value changed::

        with record_changes(character, ("health", "wounds")) as out:
            character.health -= 3
            out.notes.append(T("Ouch", "Ай"))
        out.changes  # {"health": (10, 7)}
    """
    names = tuple(traits)
    before = {name: copy.deepcopy(getattr(character, name)) for name in names}
    out = outcome if outcome is not None else DamageOutcome()
    yield out
    for name in names:
        now = getattr(character, name)
        if now != before[name]:
            out.changes[name] = (before[name], now)


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


class GameSystem:
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

    # -- creation and advancement ---------------------------------------------------------------
    def validate(self, character) -> list[Problem]:
        """The character's problems by its ``phase``: in ``"creation"`` the creation rules
        (budgets, starting values, required picks) and what always holds; in ``"play"`` only
        what always holds (ranges, the system's invariants)."""
        raise NotImplementedError

    def creation_problems(self, character) -> list[Problem]:
        """What keeps ``character`` (in creation) from play: the problems of :meth:`validate`
        that block it (``core.phases.blocks_play``: errors, and warnings the system marks)."""
        return [p for p in self.validate(character) if blocks_play(p)]

    def play_changes(self, character) -> Mapping[str, Any]:
        """What else changes when ``character`` enters play (trait -> new value), besides its
        phase: e.g. Threads' creation XP left over becomes free XP. The default: nothing."""
        return {}

    def start_play(self, character) -> dict[str, tuple[Any, Any]]:
        """Move ``character`` from creation to play: refused with a :class:`RuleError` listing
        the creation problems (``data["problems"]``) while any remain, and for a character
        already in play; the phase stays unchanged then. Returns ``{trait: (old, new)}``."""
        if getattr(character, "phase", DEFAULT_PHASE) != "creation":
            raise already_in_play()
        problems = self.creation_problems(character)
        if problems:
            raise refusal(problems)
        values = {**dict(self.play_changes(character)), "phase": "play"}
        before = {name: copy.deepcopy(getattr(character, name)) for name in values}
        character.update(**values)
        return {
            name: (old, getattr(character, name)) for name, old in before.items() if old != getattr(character, name)
        }

    def creation_wizard(self, character) -> list:
        """The creation steps in the book's order (``core.wizard.WizardStep``: a title, a sentence
        or two on what the step decides, the sheet fields it sets, the budgets it shows). The
        default: one step per sheet section with fields a player sets."""
        from .wizard import default_steps

        return default_steps(self)

    def creation_budgets(self, character) -> Mapping[str, Any]:
        """The creation budgets as they stand (``{key: core.wizard.Budget}``, e.g. parameter
        points spent of the book's total); wizard steps name the keys they show. Default: none."""
        return {}

    # -- advancement (see ``core/advancement.py``) ------------------------------------------------
    def advancement_resources(self) -> Sequence[Any]:
        """What advancement spends and the GM awards (``core.advancement.Resource``: a whole-number
        trait such as development points or experience). Default: none."""
        return ()

    def advancements(self, character) -> list:
        """What ``character`` (in play) can buy now (``core.advancement.AdvanceSpec``, each with its
        price at the default options, or ``blocked`` with the reason). Default: nothing."""
        return []

    def advance_spec(self, character, advance_id: str, options: Mapping[str, Any] | None = None):
        """``(AdvanceSpec, options with defaults)`` for ``advance_id``, refusing (``RuleError``) an
        advance not offered now and options it does not declare or allow."""
        from .advancement import checked_advance_options, find_advance

        spec = find_advance(self.advancements(character), advance_id)
        return spec, checked_advance_options(spec, options or {})

    def plan_advance(self, character, advance_id: str, **options: Any):
        """What ``advance_id`` with ``options`` would do (``core.advancement.AdvancePlan``: the
        price, every other trait it changes, a line of text), without changing ``character``;
        a ``RuleError`` when the rules forbid it. Systems with advancements override it."""
        raise RuleError(
            "no_advancement",
            T("This game has no advancement to buy.", "В этой игре нечего покупать для развития."),
        )

    def advance(self, character, advance_id: str, **options: Any):
        """Buy ``advance_id`` for ``character`` (in play): the plan paid for and applied, all or
        nothing (``core.advancement.AdvanceOutcome``); a ``RuleError`` says why when refused and
        the character is unchanged."""
        from .advancement import perform

        return perform(self, character, advance_id, options)

    def advance_waits_for_session_end(self) -> Mapping[str, str] | None:
        """Why advancement waits until a game session is over (``{"en", "ru"}``: RET spends
        development points before or after a game, not during one), or None when the rules let
        a character advance during a session. A shared table refuses an advance while a session
        is open with this message. The default: None."""
        return None

    def award_changes(self, character, resource: str, amount: int) -> Mapping[str, Any] | None:
        """What awarding ``amount`` of ``resource`` changes (``{trait: new value}``), when more
        than the resource itself (a running total earned); None: just add it."""
        return None

    def award(self, character, resource: str, amount: int):
        """The GM gives ``amount`` (1 to ``core.advancement.MAX_AWARD``) of ``resource`` (one of
        :meth:`advancement_resources`) to ``character``: an ``AdvanceOutcome``."""
        from .advancement import perform_award

        return perform_award(self, character, resource, amount)

    def validate_party(self, characters: Mapping[str, Any]) -> list[Problem]:
        """Rules that look at a whole party ``{id: character}`` (two sheets that must agree);
        problems name the character by its id. The default finds none."""
        return []

    # -- dice words for %roll ---------------------------------------------------------------------
    def dice_words(self) -> list:
        """``tabletop_widgets.dice.DiceWord`` objects this system adds to the notation."""
        return []

    # -- combat -----------------------------------------------------------------------------------
    def health(self, character) -> tuple[int, int]:
        """(current, max) of the resource the tracker shows as the combatant's health."""
        raise NotImplementedError

    def is_defeated(self, character) -> bool:
        current, _ = self.health(character)
        return current <= 0

    def conditions(self) -> list[ConditionSpec]:
        return []

    def roll_initiative(
        self, combatants: Mapping[str, Any], *, rng: random.Random | None = None, **options: Any
    ) -> InitiativeOrder:
        """Roll initiative for ``{combatant_id: character}`` by the system's rules, breaking
        ties by its own chain (reported in ``tiebreaks``); deterministic given the rng."""
        raise NotImplementedError

    def damage_options(self, character) -> list[OptionSpec]:
        """Options the tracker offers when applying damage (hit zone, damage kind, piercing...)."""
        return []

    def apply_damage(self, character, amount: int, **options: Any) -> DamageOutcome:
        raise NotImplementedError

    def apply_healing(self, character, amount: int, **options: Any) -> DamageOutcome:
        raise NotImplementedError

    def healing_options(self, character) -> list[OptionSpec]:
        """Options the tracker offers when healing (which resource, first aid, a healing pool...)."""
        return []

    def on_turn(
        self, character, when: str, *, rng: random.Random | None = None, conditions: Sequence[Mapping[str, Any]] = ()
    ) -> DamageOutcome | None:
        """Ongoing effects at the ``"start"`` or ``"end"`` of this character's turn (bleeding,
        regeneration, a state that deals damage each turn). ``conditions`` are the combatant's
        active conditions as the tracker holds them (``{"id", "duration", "data"}``). Return
        what happened (the tracker records it as an event; replay never calls this again), or
        None when nothing does."""
        return None

    # -- attacks (see ``core/attacks.py``) ------------------------------------------------------
    def attacks(self, attacker, target) -> list:
        """The attacks (``core.attacks.AttackSpec``) ``attacker`` can make on ``target`` now: each
        weapon x attack kind the rules allow, with its options. Every system offers at least one
        between two freshly made characters (unarmed, or its basic attack)."""
        return []

    def attack_spec(self, attacker, target, attack_id: str, options: Mapping[str, Any] | None = None):
        """``(AttackSpec, options with defaults)`` for ``attack_id``, refusing (``RuleError``) an
        attack not offered now and options it does not declare or whose values it does not allow
        (what a forged widget message could send)."""
        from .attacks import checked_options, find_attack

        spec = find_attack(self.attacks(attacker, target), attack_id)
        return spec, checked_options(spec, options or {})

    def attack_odds(self, attacker, target, attack_id: str, **options: Any):
        """The exact odds (``core.attacks.AttackOdds``) of ``attack_id`` with ``options``:
        ``p_hit`` and the distribution of the damage ``target`` takes (0 on a miss)."""
        raise NotImplementedError

    def resolve_attack(self, attacker, target, attack_id: str, *, rng: random.Random, **options: Any):
        """Roll ``attack_id`` once with ``rng`` (``core.attacks.AttackOutcome``); changes neither
        character (:meth:`apply_attack` does)."""
        raise NotImplementedError

    def apply_attack(self, attacker, target, outcome) -> tuple[DamageOutcome, DamageOutcome]:
        """Apply ``outcome`` by the rules: the attacker's and the target's effects (all or none,
        :meth:`apply_effects`), then the damage through :meth:`apply_damage` with the outcome's
        ``damage_options``. Returns (attacker's, target's) outcome notes and state. Systems
        override it when an attack changes more than effects and damage say."""
        mine = DamageOutcome(changes=self.apply_effects(attacker, outcome.attacker_effects))
        theirs = DamageOutcome(changes=self.apply_effects(target, outcome.target_effects))
        if outcome.damage > 0:
            hurt = self.apply_damage(target, int(outcome.damage), **dict(outcome.damage_options))
            theirs.changes.update(hurt.changes)
            theirs.notes.extend(hurt.notes)
            theirs.state = hurt.state
            theirs.defeated = hurt.defeated
        return mine, theirs

    def session_started(self, character, *, choices: Mapping[str, Any] | None = None) -> DamageOutcome | None:
        """The start of a game session of a campaign (the table's ``start_session``): what the
        rules do to ``character`` then (a resource refilled, counters reset; changes applied to
        ``character``), and notes for the GM (something owed this session). Return what
        happened (the table records it as events; replay never calls this again), or None when
        the rules do nothing. ``choices``: what the GM chose for this session, if anything (the
        system's GM options are ``self.rules``)."""
        return None

    def condition_changed(self, character, condition_id: str, active: bool, **data: Any) -> DamageOutcome | None:
        """The tracker added (``active``) or removed a condition from the system's catalogue:
        reflect it on the character when the rules say so (e.g. RET "unconscious" makes the
        character defeated). Return the trait changes, or None when the character is unchanged."""
        return None
