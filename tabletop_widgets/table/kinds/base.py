"""What one event kind is: :class:`Kind`, its log line :class:`Line`, and what a line is drawn
with (:class:`LineContext`).

A kind is one declaration (a subclass of :class:`Kind` in one of this package's modules): its
name, its typed payload (:class:`~..payload.Payload`), the seat action that may write it (or
``None``: only the table writes it), who sees it (:meth:`Kind.audience`), how it changes the
folded state (:meth:`Kind.reduce`), what the state's log keeps of it (:attr:`Kind.logged`,
:attr:`Kind.log_drop`), the line it makes in the roll log and in the transcript
(:meth:`Kind.line`: one renderer for both, in English and Russian), and, for a kind that rolls
dice, how ``verify`` rolls it again (:meth:`Kind.replay`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping, Sequence

from ...core.i18n import LOCALES, tr
from ..payload import Payload
from ..store import AUDIENCE_ALL, AUDIENCE_GM, SEAT_AUDIENCE_PREFIX, NewEvent

if TYPE_CHECKING:  # pragma: no cover
    from ..state import TableState
    from ..store import Event


def both(text: Any) -> dict[str, str]:
    """A text in every language: a string (the same in each), a ``{"en", "ru"}`` mapping, or a
    ``locale -> str`` callable."""
    if callable(text):
        return {loc: str(text(loc)) for loc in LOCALES}
    if isinstance(text, Mapping):
        return {loc: tr(text, loc) for loc in LOCALES}
    return {loc: "" if text is None else str(text) for loc in LOCALES}


@dataclass
class Line:
    """One event as the roll log and the transcript tell it, in every language.

    style    what kind of line: ``"roll"``, ``"check"``, ``"attack"``, ``"turn"``,
             ``"initiative"``, ``"message"``, ``"note"``, ``"session"``, ``"round"``,
             ``"advance"``, ``"table"`` (the log's and the transcript's look of it)
    who      the seat (or character) it is about, as the reader knows them
    what     its heading (``{"en", "ru"}``): the check's name, "Attack", a chat line's speaker...
    text     its body: the dice as rolled, the sentence, the message
    outcome  the verdict, when there is one ("passed", "hit, 3 damage")
    success  True / False / None (no verdict)
    effects  what it changed ("Luck −1")
    hidden   only some seats saw it (the GM's hidden roll, a whisper)
    details  ``locale -> HTML`` of a big roll's dice, built when the reader asks for them
    html     ``{"en", "ru"}`` HTML of the body for the log (a big roll's summary), or empty
    mode     a chat line's register: ``"ic"`` (in character), ``"ooc"``, ``"whisper"``
    odds     a check's exact chance of success (a ``Fraction``), when the line knows it
    round    a combat round's number (the transcript's headings tell each round once)
    """

    style: str
    who: str = ""
    what: dict[str, str] = field(default_factory=lambda: both(""))
    text: dict[str, str] = field(default_factory=lambda: both(""))
    outcome: dict[str, str] = field(default_factory=lambda: both(""))
    success: bool | None = None
    effects: dict[str, str] = field(default_factory=lambda: both(""))
    hidden: bool = False
    details: Callable[[str], str] | None = None
    html: dict[str, str] = field(default_factory=dict)
    mode: str = ""
    odds: Any = None
    round: int | None = None
    blind: str = ""
    reveal: int | None = None

    def log_item(self) -> dict[str, Any]:
        """The keywords of :meth:`~tabletop_widgets.widgets.log.RollLog.add` for this line (a
        chat line reads as what was said, its register after it: "Pat — Hello (out of
        character)")."""
        if self.style == "message":
            return dict(who=self.who, what=self.text, breakdown=self.what if self.mode != "ic" else both(""))
        item: dict[str, Any] = dict(
            who=self.who,
            what=self.what,
            breakdown=self.text,
            outcome=self.outcome,
            success=self.success,
            effects=self.effects,
        )
        if self.html:
            item["breakdown_html"] = self.html
        if self.details is not None:
            item["details"] = self.details
        if self.blind:
            item["classes"] = ("tt-log-blind", f"tt-log-{self.blind.replace('_', '-')}")
        return item


class LineContext:
    """What a line is drawn with: the reader's folded state (the seats', characters' and
    combatants' names) and the table's system (the sheet's labels; a check's odds)."""

    def __init__(self, state: "TableState", system: Any = None):
        self.state = state
        self.system = system

    def combatant(self, cid: Any) -> str:
        """A combatant as the reader knows it (a hidden one players never learn of is "?")."""
        names = self.state.extra.get("combat_names") or {}
        name = names.get(str(cid))
        if name:
            return str(name)
        if str(cid) in self.state.characters:
            return self.character_name(cid)
        return "?"

    def who(self, actor: str) -> str:
        """A seat as the reader knows it: its name, else its id."""
        info = self.state.seats.get(actor) or {}
        return str(info.get("name") or actor or "")

    def character_name(self, cid: Any) -> str:
        data = self.state.characters.get(str(cid)) or {}
        return str(data.get("name") or cid or "")

    def trait_label(self, trait: Any, loc: str, reason: Any = None) -> str:
        """A trait as the system's sheet names it (never its id when the sheet has it)."""
        try:
            return tr(self.system.sheet.field(str(trait)).label, loc)
        except (KeyError, AttributeError, LookupError, ValueError, TypeError):
            return tr(reason, loc) if isinstance(reason, Mapping) and reason else str(trait)


class Kind:
    """One event kind (see the module). Subclasses set the class attributes and override what
    they do; :data:`~.KINDS` holds one instance of each."""

    #: the kind's name in the log (lowercase words separated by dots)
    name: ClassVar[str]
    #: its payload type
    Payload: ClassVar[type[Payload]]
    #: the seat action (``seats.ACTIONS``) needed to write it; None: only the table writes it
    action: ClassVar[str | None] = None
    #: whether a seat may write it with ``TableSession.record`` (the kinds with no method of their own)
    recordable: ClassVar[bool] = False
    #: whether it carries a fair-dice roll index (``Event.roll``)
    rolls: ClassVar[bool] = False
    #: whether the folded state's log keeps it (then the roll log and the transcript tell it)
    logged: ClassVar[bool] = False
    #: payload fields the state's log leaves out (sheets as rolled: large, and the transcript
    #: reads them from the store)
    log_drop: ClassVar[Sequence[str]] = ()
    #: whether only old logs have it (no one writes it any more; nothing reads it)
    legacy: ClassVar[bool] = False

    def __init__(self) -> None:
        self.Payload.kind = self.name

    def __repr__(self) -> str:
        return f"<kind {self.name}>"

    # -- writing -----------------------------------------------------------------------------
    def check(self, data: Any) -> dict[str, Any]:
        """``data`` checked strictly as this kind's payload (a write); its plain JSON."""
        return self.Payload.check(data)

    def new(self, actor: str, audience: str = AUDIENCE_ALL, *, roll: int | None = None, **values: Any) -> NewEvent:
        """The event to append: ``values`` checked as the payload, ``audience`` who reads it."""
        payload = self.check(self.Payload(**values).to_json())
        if self.rolls and roll is None:
            roll = payload.get("index")
        return NewEvent(self.name, actor, payload, audience, roll=roll if self.rolls else None)

    def new_json(self, actor: str, payload: Mapping[str, Any], audience: str = AUDIENCE_ALL) -> NewEvent:
        """The event to append from a payload already in JSON (checked strictly)."""
        data = self.check(payload)
        return NewEvent(self.name, actor, data, audience, roll=data.get("index") if self.rolls else None)

    # -- reading -----------------------------------------------------------------------------
    def read(self, payload: Any) -> Payload:
        """A stored payload (or a log entry) as the typed payload (leniently: see
        :meth:`~..payload.Payload.read`)."""
        return self.Payload.read(payload)

    def reduce(self, state: "TableState", event: "Event", p: Any) -> None:
        """How the event changes the folded state (besides the log entry)."""

    def logs(self, p: Any) -> bool:
        """Whether the state's log keeps this event (``p``: its typed payload)."""
        return self.logged

    def log_entry(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """What the state's log keeps of the payload."""
        return {k: v for k, v in payload.items() if k not in self.log_drop}

    def line(self, entry: Mapping[str, Any], p: Any, ctx: LineContext) -> Line | None:
        """The line of a log entry (``entry``: its seq, actor, audience...; ``p``: its typed
        payload), or None when the kind tells nothing."""
        return None

    # -- verify ------------------------------------------------------------------------------
    def replay(self, p: Any, rng: Any, ctx: Any) -> Any:
        """A rolling kind: the outcome its roll index's stream gives (normalised JSON), compared
        with the recorded one by ``verify``; ``ctx`` is the verification (the table's system)."""
        raise NotImplementedError(f"{self.name} draws no dice")


# --------------------------------------------------------------------------------------------
# who sees what
# --------------------------------------------------------------------------------------------
def own_audience(role: str, seat: str, hidden: bool) -> str:
    """Who sees what a seat writes: everyone, or (``hidden``) the GM and the seat itself."""
    if not hidden:
        return AUDIENCE_ALL
    return AUDIENCE_GM if role == "gm" else SEAT_AUDIENCE_PREFIX + seat


def sheets_secret(state: "TableState", character_ids: Sequence[Any]) -> bool:
    """Whether an event carrying these characters' sheets (as they are in ``state``) must stay
    hidden: one is GM-only (an NPC), or this view knows values of it that not every seat knows
    (a hidden check's Luck spent): the one rule every kind that carries a sheet follows."""
    for cid in character_ids:
        cid = str(cid)
        if state.character_audience.get(cid, AUDIENCE_ALL) != AUDIENCE_ALL:
            return True
        if cid not in state.characters:
            return True  # a sheet the table does not hold (an NPC of the tracker): the GM's
        public = state.public_characters.get(cid)
        if public is not None and public != state.characters.get(cid):
            return True
    return False


__all__ = ["Kind", "Line", "LineContext", "both", "own_audience", "sheets_secret"]
