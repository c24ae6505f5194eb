"""The evaluated result tree of a roll, kept apart from the parse tree and from rendering.

Nodes carry their value and, for dice, per-die flags. Rendering lives in ``render.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterator, Sequence, Union

Number = Union[int, Fraction]


class Die:
    """One physical die roll.

    faces       number of faces (``6``), or a label for special dice (``"F"``, ``"{1,2,4}"``)
    value       the face shown (after min/max clamping)
    kept        counts toward the total (False: dropped by keep/drop, or replaced by a reroll)
    dropped     removed by keep/drop/unique
    rerolled    this roll was replaced by a reroll (struck through, not counted)
    exploded    this die triggered an explosion (another die follows it)
    added_by    ``"explode"``, ``"penetrate"``, ``"reroll"`` or None
    success / failure / double   set by success counting
    crit        ``"success"`` / ``"failure"`` marks (display only) or None
    raw         the face before clamping (``min``/``max``) or penetration's -1
    note        e.g. the parts of a compounded die (``"6+6+3"``)
    """

    # defaults live on the class: a die only stores what differs (rolling stays cheap)
    kept = True
    dropped = False
    rerolled = False
    exploded = False
    added_by: str | None = None
    success = False
    failure = False
    double = False
    crit: str | None = None
    raw: int | None = None
    note: str | None = None

    def __init__(self, faces, value: int, *, raw: int | None = None, added_by: str | None = None, **flags):
        self.faces = faces
        self.value = value
        if raw is not None:
            self.raw = raw
        if added_by is not None:
            self.added_by = added_by
        for k, v in flags.items():
            setattr(self, k, v)

    @property
    def counted(self) -> bool:
        return self.kept and not self.dropped and not self.rerolled

    def __repr__(self) -> str:
        flags = [k for k in ("dropped", "rerolled", "exploded", "success", "failure", "double") if getattr(self, k)]
        extra = f" {','.join(flags)}" if flags else ""
        return f"<Die d{self.faces}={self.value}{extra}>"


class Node:
    """Base of result-tree nodes. ``value`` is the node's number; ``label`` an optional tag."""

    __slots__ = ()

    def children(self) -> Sequence["Node"]:
        return ()

    def walk(self) -> Iterator["Node"]:
        stack = [self]
        while stack:
            n = stack.pop()
            yield n
            stack.extend(reversed(n.children()))

    def dice(self) -> list[Die]:
        out: list[Die] = []
        for n in self.walk():
            out.extend(getattr(n, "rolled", ()))
        return out


class LiteralNode(Node):
    __slots__ = ("value", "text", "label")

    def __init__(self, value, text: str = "", label: str | None = None):
        self.value = value
        self.text = text
        self.label = label


class DiceNode(Node):
    """A rolled dice term (``4d6kh3``, ``d%``, ``3dF``, ``d{1,2,4}``) with its modifiers.

    ``rolled`` lists every die in rolling order (including rerolled-away and dropped ones).
    ``successes`` is set when the term counts successes (its value is then the count).
    Plain terms (no modifiers) keep only the faces and build their Die objects when asked.
    """

    __slots__ = ("text", "_rolled", "_faces", "_label_faces", "value", "successes", "failures", "label", "notes")

    def __init__(
        self,
        text: str,
        rolled,
        value,
        successes=None,
        failures=None,
        label=None,
        notes=None,
        faces=None,
        label_faces=None,
    ):
        self.text = text
        self._rolled = rolled
        self._faces = faces
        self._label_faces = label_faces
        self.value = value
        self.successes = successes
        self.failures = failures
        self.label = label
        self.notes = notes if notes is not None else []

    @property
    def rolled(self) -> list[Die]:
        if self._rolled is None:
            self._rolled = [Die(self._label_faces, v) for v in self._faces]
            top = self._label_faces
            if top == 20:
                for d in self._rolled:
                    if d.value == 20:
                        d.crit = "success"
                    elif d.value == 1:
                        d.crit = "failure"
        return self._rolled

    @rolled.setter
    def rolled(self, dice) -> None:
        self._rolled = dice


class GroupNode(Node):
    """A group ``{a, b}`` / ``(a, b)``: members are sub-trees; ``kept[i]`` says whether member i
    counts after keep/drop; ``success[i]`` marks counted members. ``text`` is the modifiers."""

    __slots__ = ("text", "members", "kept", "value", "success", "failure", "successes", "label")

    def __init__(self, text, members, kept, value, success=None, failure=None, successes=None, label=None):
        self.text = text
        self.members = members
        self.kept = kept
        self.value = value
        self.success = success or []
        self.failure = failure or []
        self.successes = successes
        self.label = label

    def children(self):
        return self.members


class UnaryNode(Node):
    __slots__ = ("op", "operand", "value", "label")

    def __init__(self, op, operand, value, label=None):
        self.op = op
        self.operand = operand
        self.value = value
        self.label = label

    def children(self):
        return (self.operand,)


class BinOpNode(Node):
    __slots__ = ("op", "left", "right", "value", "label")

    def __init__(self, op, left, right, value, label=None):
        self.op = op
        self.left = left
        self.right = right
        self.value = value
        self.label = label

    def children(self):
        return (self.left, self.right)


class FuncNode(Node):
    __slots__ = ("name", "args", "value", "label")

    def __init__(self, name, args, value, label=None):
        self.name = name
        self.args = args
        self.value = value
        self.label = label

    def children(self):
        return self.args


class ParenNode(Node):
    __slots__ = ("inner", "value", "label")

    def __init__(self, inner, value, label=None):
        self.inner = inner
        self.value = value
        self.label = label

    def children(self):
        return (self.inner,)


class WordNode(Node):
    """A system word's roll (RET ``L5``...). ``breakdown`` is its own bilingual rendering;
    ``rolled`` its dice for the HTML view."""

    __slots__ = ("word", "text", "rolled", "value", "breakdown", "label", "details")

    def __init__(self, word, text, rolled, value, breakdown=None, label=None, details=None):
        self.word = word
        self.text = text
        self.rolled = rolled
        self.value = value
        self.breakdown = breakdown or {}
        self.label = label
        self.details = details or {}


@dataclass
class Check:
    """A spaced comparison ``expr >= target`` (or ``vs``/``dc``): pass/fail and margin."""

    op: str
    target: int
    passed: bool
    margin: int


class RollResult:
    """What ``roll()`` returns.

    expression  the text rolled
    tree        the evaluated tree (``None`` for repetitions: see ``results``)
    total       the integer total (floored when ``/`` left a fraction; see ``exact``)
    exact       the exact value before flooring (a Fraction when ``/`` was used)
    successes   the success count when the expression counts successes
    check       a :class:`Check` for spaced comparisons, else None
    results     for repetition (``6#4d6kh3``): each repetition's RollResult; ``total`` is their sum
    labels      labels found (``[fire]``) in order; ``comment`` the trailing comment text
    notes       bilingual notes (limits reached, rounding applied, dialect rules fired)
    """

    results: list = ()
    labels: list = ()
    notes: list = ()
    comment: str | None = None
    seed: int | None = None
    successes: int | None = None
    check: Check | None = None
    show_total: bool = True

    def __init__(
        self,
        expression: str,
        tree: Node | None,
        total: int,
        exact: Number = None,
        *,
        successes: int | None = None,
        check: Check | None = None,
        results=None,
        labels=None,
        comment: str | None = None,
        notes=None,
        seed: int | None = None,
        locale: str = "en",
    ):
        self.expression = expression
        self.tree = tree
        self.total = total
        self.exact = total if exact is None else exact
        if successes is not None:
            self.successes = successes
        if check is not None:
            self.check = check
        # fresh lists: callers (system words, the tray) may append notes or labels
        self.results = list(results) if results else []
        self.labels = list(labels) if labels else []
        self.notes = list(notes) if notes else []
        if comment is not None:
            self.comment = comment
        if seed is not None:
            self.seed = seed
        self.locale = locale

    @property
    def dice(self) -> list[Die]:
        """Every die rolled, in order (for repetitions: across all of them)."""
        if self.results:
            return [d for r in self.results for d in r.dice]
        return self.tree.dice() if self.tree is not None else []

    @property
    def passed(self) -> bool | None:
        return self.check.passed if self.check else None

    @property
    def totals(self) -> list[int]:
        return [r.total for r in self.results] if self.results else [self.total]

    def text(self, locale: str | None = None, *, verdict: bool = True) -> str:
        """The breakdown; ``verdict=False`` leaves the check's pass/fail out."""
        from .render import render_text

        return render_text(self, locale or self.locale, verdict=verdict)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<RollResult {self.text()}>"

    def __int__(self) -> int:
        return self.total

    def _repr_html_(self) -> str:
        from .render import render_html

        return render_html(self, self.locale)

    def html(self, locale: str | None = None, *, css: bool = True, live: bool = True) -> str:
        """HTML breakdown; see ``render.render_html`` for ``css`` and ``live``."""
        from .render import render_html

        return render_html(self, locale or self.locale, css=css, live=live)

    def to_json(self) -> dict[str, Any]:
        from .render import result_json

        return result_json(self)

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {
            "text/plain": self.text(),
            "text/html": self._repr_html_(),
            "application/vnd.tabletop.roll+json": self.to_json(),
        }
