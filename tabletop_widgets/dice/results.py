"""The evaluated result tree of a roll, kept apart from the parse tree and from rendering.

Nodes carry their value and, for dice, per-die flags. Rendering lives in ``render.py``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterator, Mapping, Sequence, Union

Number = Union[int, Fraction]


@dataclass
class Die:
    """One physical die roll.

    faces       number of faces (``6``), or a label for special dice (``"F"``, ``"{1,2,4}"``)
    value       the face shown (after min/max clamping)
    kept        counts toward the total (False: dropped by keep/drop, or replaced by a reroll)
    dropped     removed by keep/drop/unique
    rerolled    this roll was replaced by a reroll (struck through, not counted)
    exploded    this die triggered an explosion (another die follows it)
    added_by    ``"explode"``, ``"compound"``, ``"penetrate"``, ``"reroll"`` (``ra``) or None
    success / failure / double   set by success counting
    crit        ``"success"`` / ``"failure"`` marks (display only) or None
    raw         the face before clamping (``min``/``max``) or penetration's -1
    """

    faces: Any
    value: int
    kept: bool = True
    dropped: bool = False
    rerolled: bool = False
    exploded: bool = False
    added_by: str | None = None
    success: bool = False
    failure: bool = False
    double: bool = False
    crit: str | None = None
    raw: int | None = None
    note: str | None = None

    @property
    def counted(self) -> bool:
        return self.kept and not self.dropped and not self.rerolled


class Node:
    """Base of result-tree nodes. ``value`` is the node's number; ``label`` an optional tag."""

    value: Number
    label: str | None = None

    def children(self) -> Sequence["Node"]:
        return ()

    def walk(self) -> Iterator["Node"]:
        yield self
        for c in self.children():
            yield from c.walk()

    def dice(self) -> list[Die]:
        out: list[Die] = []
        for n in self.walk():
            out.extend(getattr(n, "rolled", ()))
        return out


@dataclass
class LiteralNode(Node):
    value: Number
    text: str = ""
    label: str | None = None


@dataclass
class DiceNode(Node):
    """A rolled dice term (``4d6kh3``, ``d%``, ``3dF``, ``d{1,2,4}``) with its modifiers.

    ``rolled`` lists every die in rolling order (including rerolled-away and dropped ones).
    ``successes`` is set when the term counts successes (its value is then the count).
    """

    text: str
    rolled: list[Die]
    value: Number
    successes: int | None = None
    failures: int | None = None
    label: str | None = None
    notes: list[str] = field(default_factory=list)


@dataclass
class GroupNode(Node):
    """A group ``{a, b}`` / ``(a, b)``: members are sub-trees; ``kept[i]`` says whether member i
    counts after keep/drop; ``success[i]`` marks counted members."""

    text: str
    members: list[Node]
    kept: list[bool]
    value: Number
    success: list[bool] = field(default_factory=list)
    failure: list[bool] = field(default_factory=list)
    successes: int | None = None
    label: str | None = None

    def children(self):
        return self.members


@dataclass
class UnaryNode(Node):
    op: str
    operand: Node
    value: Number
    label: str | None = None

    def children(self):
        return (self.operand,)


@dataclass
class BinOpNode(Node):
    op: str
    left: Node
    right: Node
    value: Number
    label: str | None = None

    def children(self):
        return (self.left, self.right)


@dataclass
class FuncNode(Node):
    name: str
    args: list[Node]
    value: Number
    label: str | None = None

    def children(self):
        return self.args


@dataclass
class ParenNode(Node):
    inner: Node
    value: Number
    label: str | None = None

    def children(self):
        return (self.inner,)


@dataclass
class WordNode(Node):
    """A system word's roll (RET ``L5``...). ``breakdown`` is its own bilingual rendering;
    ``rolled`` its dice for the HTML view."""

    word: str
    text: str
    rolled: list[Die]
    value: Number
    breakdown: Mapping[str, str] = field(default_factory=dict)
    label: str | None = None
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class Check:
    """A spaced comparison ``expr >= target`` (or ``vs``/``dc``): pass/fail and margin."""

    op: str
    target: int
    passed: bool
    margin: int


@dataclass
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

    expression: str
    tree: Node | None
    total: int
    exact: Number = 0
    successes: int | None = None
    check: Check | None = None
    results: list["RollResult"] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    comment: str | None = None
    notes: list[Mapping[str, str]] = field(default_factory=list)
    seed: int | None = None
    locale: str = "en"

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

    def text(self, locale: str | None = None) -> str:
        from .render import render_text
        return render_text(self, locale or self.locale)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"<RollResult {self.text()}>"

    def __int__(self) -> int:
        return self.total

    def _repr_html_(self) -> str:
        from .render import render_html
        return render_html(self, self.locale)

    def html(self, locale: str | None = None) -> str:
        from .render import render_html
        return render_html(self, locale or self.locale)

    def to_json(self) -> dict[str, Any]:
        from .render import result_json
        return result_json(self)

    def _repr_mimebundle_(self, include=None, exclude=None):
        return {"application/vnd.tabletop.roll+json": self.to_json()}
