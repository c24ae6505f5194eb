"""The parse tree of dice notation (what the text says, before anything is rolled).

Every node keeps ``pos``/``end`` (0-based, into the original text) so errors found while rolling
point at the right place. Modifiers are kept in written order; the roller applies them in the
fixed order of NOTATION.md (``MOD_ORDER``).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Union

#: stage of each modifier kind: min/max, explode, reroll, unique, keep/drop/select (and the
#: group separator), count, crit marks, sort. Both engines apply a term's modifiers in this order
#: (stable: in written order within a stage).
MOD_ORDER = {
    "min": 1,
    "max": 1,
    "explode": 2,
    "reroll": 3,
    "unique": 4,
    "keep": 5,
    "select": 5,
    "sep": 5,
    "success": 6,
    "failure": 6,
    "double": 6,
    "crit": 7,
    "sort": 8,
}

#: the operators that are the same on whole numbers and fractions (both engines and the fast path)
ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}

#: ``v op t`` for every compare operator the notation writes (``==`` and ``<>`` as spelled)
OPS = {
    ">=": lambda v, t: v >= t,
    ">": lambda v, t: v > t,
    "<=": lambda v, t: v <= t,
    "<": lambda v, t: v < t,
    "=": lambda v, t: v == t,
    "==": lambda v, t: v == t,
    "!=": lambda v, t: v != t,
    "<>": lambda v, t: v != t,
}


def compare_fn(op: str, t):
    """A one-argument test ``v op t`` for a compare point's operator (``<>`` stored as ``!=``)."""
    if op == "=":
        return lambda v: v == t
    if op == "!=":
        return lambda v: v != t
    if op == ">":
        return lambda v: v > t
    if op == ">=":
        return lambda v: v >= t
    if op == "<":
        return lambda v: v < t
    return lambda v: v <= t


@dataclass
class Compare:
    """A compare point: ``op`` in ``= != < > <= >=`` (``<>`` is stored as ``!=``) and an integer
    value or a sub-expression (``cs<=(10+5)``), evaluated once per roll."""

    op: str
    value: Union[int, "Node"]
    pos: int = 0

    def test(self, v, target=None) -> bool:
        return OPS[self.op](v, self.value if target is None else target)

    def __str__(self):
        v = self.value if isinstance(self.value, int) else "(…)"
        return f"{self.op}{v}"


@dataclass
class Mod:
    """One dice/group modifier.

    kind      min | max | explode | reroll | unique | keep | select | success | failure | double
              | crit | sort
    variant   explode: "explode" | "compound" | "penetrate" | "compound_penetrate" |
              "explode_term" (Foundry's x3<5: ``n`` explosions for the whole term);
              reroll: "until" | "once" | "add"; unique: "until" | "once";
              keep: "kh" | "kl" | "dh" | "dl"; select: "keep" | "drop"; crit: "cs" | "cf";
              sort: "asc" | "desc"
    n         min/max value, keep/drop count, explosion cap (None: up to the per-die limit)
    cp        the compare point (None: the default for the kind, e.g. the highest face)
    text      as written, for rendering
    """

    kind: str
    variant: str = ""
    n: int | None = None
    cp: Compare | None = None
    pos: int = 0
    text: str = ""


@dataclass
class Node:
    pos: int
    end: int

    label: str | None = field(default=None, init=False)


@dataclass
class Num(Node):
    value: int


@dataclass
class Var(Node):
    name: str


@dataclass
class Faces:
    """The faces of a die: ``sides`` for ``dN`` (1..N), or an explicit list (``dF``, ``d{...}``)."""

    sides: int | None = None
    values: tuple[int, ...] | None = None
    computed: "Node | None" = None  # d(expr)
    text: str = ""

    def face_list(self) -> tuple[int, ...]:
        if self.values is not None:
            return self.values
        return tuple(range(1, self.sides + 1))

    @property
    def lo(self) -> int:
        return min(self.values) if self.values is not None else 1

    @property
    def hi(self) -> int:
        return max(self.values) if self.values is not None else self.sides


@dataclass
class Dice(Node):
    count: Union[int, Node]  # literal count or a computed one
    faces: Faces
    mods: list[Mod]
    text: str  # the term as written, e.g. "4d6kh3"


@dataclass
class Group(Node):
    members: list[Node]
    mods: list[Mod]
    text: str
    brace: str = "{"


@dataclass
class Unary(Node):
    op: str
    operand: Node


@dataclass
class BinOp(Node):
    op: str  # + - * / // % ^
    left: Node
    right: Node


def left_spine(node: Node) -> tuple[Node, list[BinOp]]:
    """A left-deep chain of binary operations (``^`` excepted) as (its leftmost operand, the
    operations from the innermost out): long sums are evaluated by iterating, never by recursing
    once per term."""
    spine = []
    n = node
    while type(n) is BinOp and n.op != "^":
        spine.append(n)
        n = n.left
    spine.reverse()
    return n, spine


@dataclass
class Func(Node):
    name: str
    args: list[Node]


@dataclass
class Paren(Node):
    inner: Node


@dataclass
class Expression:
    """A whole parsed line (one repetition of it)."""

    text: str
    root: Node
    check_op: str | None = None  # spaced comparison / vs / dc
    check_target: Node | None = None
    check_pos: int | None = None
    adv: str | None = None  # "adv" | "dis"
    repeat: int = 1
    comment: str | None = None
    labels: list[str] = field(default_factory=list)
    word: object | None = None  # a system word's parsed expression (root unused then)


def walk(node: Node):
    """Yield ``node`` and every node below it (iteratively: trees can be deep)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (Unary,)):
            stack.append(n.operand)
        elif isinstance(n, BinOp):
            stack.extend((n.right, n.left))
        elif isinstance(n, Func):
            stack.extend(reversed(n.args))
        elif isinstance(n, Paren):
            stack.append(n.inner)
        elif isinstance(n, Group):
            stack.extend(reversed(n.members))
        elif isinstance(n, Dice):
            if isinstance(n.count, Node):
                stack.append(n.count)
            if n.faces.computed is not None:
                stack.append(n.faces.computed)
            for m in reversed(n.mods):
                if m.cp is not None and isinstance(m.cp.value, Node):
                    stack.append(m.cp.value)
