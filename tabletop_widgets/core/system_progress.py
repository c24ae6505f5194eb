"""The creation and advancement part of the :class:`~tabletop_widgets.core.system.GameSystem`
contract (:class:`CreationAndAdvancement`, a base class of it): validation by phase, entering
play, the creation wizard's steps and budgets, what a character can buy and the GM can award
(the operations are in :mod:`.advancement`, the wizard in :mod:`.wizard`)."""

from __future__ import annotations

import copy
from typing import Any, Mapping, Sequence

from .i18n import T
from .phases import DEFAULT_PHASE, already_in_play, blocks_play, refusal
from .problems import Problem, RuleError


class CreationAndAdvancement:
    """The creation and advancement hooks of a :class:`~tabletop_widgets.core.system.GameSystem`:
    a system overrides ``validate`` and, when its book has them, the wizard's steps and budgets
    and the advancements."""

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
