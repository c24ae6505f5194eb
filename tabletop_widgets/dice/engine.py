"""The roller: evaluates a parse tree with an injected ``random.Random`` into a result tree.

Modifiers of a dice term apply in the fixed order of NOTATION.md whatever the written order:
min/max clamp, explode, reroll, unique, keep/drop, success counting, crit marks and sort.
Values are exact (``int`` or ``Fraction`` after ``/``); the total is floored at the end.
"""

from __future__ import annotations

import math
import os
import random
from fractions import Fraction

from . import limits
from .diceast import ARITH
from .diceast import MOD_ORDER, BinOp, left_spine, Compare, Dice, Expression, Func, Group, Node, Num, Paren, Unary, Var
from .die_mods import Roller, all_faces, auto_crits, explode, kept_indexes, reroll, select_dice, tally, unique
from .die_mods import term_clamps
from .errors import DiceError, DiceLimitError, variable_value
from .errors import fractional_exponent, power_overflows, too_large, zero_to_negative_power
from .fast import Fallback, ReplayRNG, compile_expression, compile_text
from .parser import parse
from .render import render_text
from .results import BinOpNode, DiceNode, FuncNode, GroupNode, LiteralNode, ParenNode, RollResult, UnaryNode


class Context:
    __slots__ = ("rng", "dice", "notes", "variables", "text")

    def __init__(self, rng: random.Random, variables, text: str):
        self.rng = rng
        self.dice = 0
        self.notes: list[dict] = []
        self.variables = variables
        self.text = text

    def note(self, en: str, ru: str) -> None:
        n = {"en": en, "ru": ru}
        if n not in self.notes:
            self.notes.append(n)

    def err(self, msg: str, pos, ru: str | None = None, cls=DiceError):
        return cls(msg, pos, self.text, message_ru=ru)

    def count_dice(self, n: int, pos: int) -> None:
        self.dice += n
        if self.dice > limits.MAX_DICE:
            raise self.err(
                f"too many dice: this roll needs more than {limits.MAX_DICE:,} (explosions and rerolls included)",
                pos,
                ru=f"слишком много кубиков: бросок требует больше {limits.MAX_DICE:,} (с учётом взрывов и перебросов)",
                cls=DiceLimitError,
            )


def _check_size(ctx: Context, v, pos: int):
    if abs(v) > limits.MAX_ABS:
        raise too_large(ctx.err, pos)
    return v


def norm_number(v):
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v.numerator)
    return v


def round_half_away(v) -> int:
    f = Fraction(v)
    n = math.floor(abs(f) + Fraction(1, 2))
    return n if f >= 0 else -n


# --------------------------------------------------------------------------------------------
# expressions
# --------------------------------------------------------------------------------------------
def evaluate(node: Node, ctx: Context):
    return _DISPATCH[type(node)](node, ctx)


def _eval_num(node: Num, ctx: Context):
    return LiteralNode(node.value, str(node.value), node.label)


def _eval_unary(node: Unary, ctx: Context):
    inner = evaluate(node.operand, ctx)
    v = -inner.value if node.op == "-" else inner.value
    return UnaryNode(node.op, inner, v, node.label)


def _eval_paren(node: Paren, ctx: Context):
    inner = evaluate(node.inner, ctx)
    return ParenNode(inner, inner.value, node.label)


def eval_var(node: Var, ctx: Context):
    v = variable_value(node.name, ctx.variables, node.pos, ctx.err)
    _check_size(ctx, v, node.pos)
    return LiteralNode(v, f"@{node.name}", node.label)


def eval_binop(node: BinOp, ctx: Context):
    n, spine = left_spine(node)
    acc = evaluate(n, ctx) if type(n) is not BinOp else eval_power(n, ctx)
    for b in spine:
        right = evaluate(b.right, ctx)
        acc = BinOpNode(b.op, acc, right, _arith(ctx, b.op, acc.value, right.value, b.pos), b.label)
    return acc


def eval_power(node: BinOp, ctx: Context):
    base = evaluate(node.left, ctx)
    exp = evaluate(node.right, ctx)
    return BinOpNode("^", base, exp, _arith(ctx, "^", base.value, exp.value, node.pos), node.label)


def _arith(ctx: Context, op: str, a, b, pos: int):
    ring = ARITH.get(op)
    if ring is not None:
        v = ring(a, b)
    elif op in ("/", "//", "%"):
        if b == 0:
            raise ctx.err("division by zero", pos, ru="деление на ноль")
        if op == "/":
            v = Fraction(a) / Fraction(b)
        elif op == "//":
            v = math.floor(Fraction(a) / Fraction(b))
        else:
            v = Fraction(a) - Fraction(b) * math.floor(Fraction(a) / Fraction(b))
    elif op == "^":
        if isinstance(b, Fraction) and b.denominator != 1:
            raise fractional_exponent(ctx.err, pos)
        b = int(b)
        if a == 0 and b < 0:
            raise zero_to_negative_power(ctx.err, pos)
        if power_overflows(a, b):
            raise too_large(ctx.err, pos, power=True)
        v = Fraction(a) ** b if b < 0 or isinstance(a, Fraction) else a**b
    else:  # pragma: no cover
        raise ctx.err(f"unknown operator {op}", pos)
    return _check_size(ctx, norm_number(v), pos)


def eval_func(node: Func, ctx: Context):
    args = [evaluate(a, ctx) for a in node.args]
    vals = [a.value for a in args]
    name = node.name
    if name == "floor":
        v = math.floor(vals[0])
    elif name == "ceil":
        v = math.ceil(vals[0])
    elif name == "round":
        v = round_half_away(vals[0])
    elif name == "abs":
        v = abs(vals[0])
    elif name == "min":
        v = min(vals)
    else:
        v = max(vals)
    return FuncNode(name, args, norm_number(v), node.label)


def _int_value(ctx: Context, node: Node, what: str, lo: int, hi: int, cls=DiceError):
    res = evaluate(node, ctx)
    v = res.value
    if isinstance(v, Fraction):
        raise ctx.err(
            f"{what} must be a whole number, got {v}", node.pos, ru=f"{what}: нужно целое число, получено {v}"
        )
    if v < lo:
        raise ctx.err(
            f"{what} must be at least {lo}, got {v}", node.pos, ru=f"{what}: нужно не меньше {lo}, получено {v}"
        )
    if v > hi:
        raise ctx.err(
            f"{what} must be at most {hi:,}, got {v:,}",
            node.pos,
            ru=f"{what}: нужно не больше {hi:,}, получено {v:,}",
            cls=DiceLimitError,
        )
    return v, res


def _cp_value(ctx: Context, cp: Compare | None) -> Compare | None:
    if cp is None or isinstance(cp.value, int):
        return cp
    res = evaluate(cp.value, ctx)
    return Compare(cp.op, math.floor(res.value), cp.pos)


# --------------------------------------------------------------------------------------------
# dice
# --------------------------------------------------------------------------------------------
def eval_dice(node: Dice, ctx: Context) -> DiceNode:
    count, sides = _dice_size(node, ctx)
    ctx.dice += count
    if ctx.dice > limits.MAX_DICE:
        ctx.count_dice(0, node.pos)
    if not node.mods:
        # the common case: no per-die flags, so keep only the faces (Die objects come lazily)
        randrange = ctx.rng.randrange
        faces = node.faces
        if faces.values is None:
            vals = [randrange(sides) + 1 for _ in range(count)]
            return DiceNode(node.text, None, sum(vals), label=node.label, faces=vals, label_faces=sides)
        fv = faces.values
        n = len(fv)
        vals = [fv[randrange(n)] for _ in range(count)]
        return DiceNode(node.text, None, sum(vals), label=node.label, faces=vals, label_faces=faces.text)
    return _modified_dice(node, ctx, count, sides)


def _dice_size(node: Dice, ctx: Context) -> tuple[int, int | None]:
    """How many dice and how many faces (computed ones evaluated, in that order)."""
    if isinstance(node.count, int):
        count = node.count
    else:
        count, _ = _int_value(ctx, node.count, "the number of dice", 0, limits.MAX_DICE, DiceLimitError)
    sides = node.faces.sides
    if node.faces.computed is not None:
        sides, _ = _int_value(ctx, node.faces.computed, "the number of faces", 1, limits.MAX_FACES)
    return count, sides


def _refuse_endless(ctx: Context, roller: Roller, m, default: str) -> None:
    """Computed faces: refuse an explosion (``default="hi"``) or a reroll until (``"lo"``) that
    every face triggers."""
    if all_faces(roller, _cp_value(ctx, m.cp), default=default):
        if default == "hi":
            raise ctx.err(
                f"'{m.text}' explodes on every face: it would never stop",
                m.pos,
                ru=f"'{m.text}' взрывается на каждой грани: взрывы не закончатся",
            )
        raise ctx.err(
            f"'{m.text}' rerolls every face: it would never stop",
            m.pos,
            ru=f"'{m.text}' перебрасывает каждую грань: переброс не закончится",
        )


def _modified_dice(node: Dice, ctx: Context, count: int, sides: int | None) -> DiceNode:
    """Dice with modifiers, applied stage by stage (``MOD_ORDER``; written order within a stage)."""
    faces = node.faces
    roller = Roller(ctx.rng, faces, sides, *term_clamps(node.mods))
    dice = [roller.die() for _ in range(count)]
    staged = sorted(node.mods, key=lambda m: MOD_ORDER[m.kind])  # stable: written order within a stage
    stage5 = [m for m in staged if m.kind in ("keep", "select")]
    success = failure = double = None
    crit_marks = []
    for m in staged:
        k = m.kind
        if k == "explode":
            if faces.computed is not None and m.n is None:
                _refuse_endless(ctx, roller, m, "hi")
            dice = explode(ctx, roller, dice, m, node, _cp_value(ctx, m.cp))
        elif k == "reroll":
            if faces.computed is not None and m.variant == "until":
                _refuse_endless(ctx, roller, m, "lo")
            dice = reroll(ctx, roller, dice, m, node, _cp_value(ctx, m.cp))
        elif k == "unique":
            dice = unique(ctx, roller, dice, m, node, _cp_value(ctx, m.cp))
        elif k in ("keep", "select"):
            if m is stage5[0]:
                select_dice(dice, stage5, [_cp_value(ctx, m.cp) for m in stage5])
        elif k == "success":
            success = _cp_value(ctx, m.cp)
        elif k == "failure":
            failure = _cp_value(ctx, m.cp)
        elif k == "double":
            double = _cp_value(ctx, m.cp)
        elif k == "crit":
            crit_marks.append(m)
        elif k == "sort":
            dice = sorted(dice, key=lambda d: d.value, reverse=(m.variant == "desc"))
    value, succ, fails = tally(dice, success, failure, double)
    if crit_marks:
        _mark_crits(ctx, roller, dice, crit_marks, count)
    elif sides == 20 and faces.values is None:
        auto_crits(dice, 20)
    return DiceNode(node.text, dice, value, successes=succ, failures=fails, label=node.label, notes=[])


def _mark_crits(ctx: Context, roller: Roller, dice: list, crit_marks: list, count: int) -> None:
    """Mark the dice that ``cs``/``cf`` name (default: the highest or lowest face)."""
    if count > 1 and any(m.variant == "cs" and m.cp is not None for m in crit_marks):
        # Foundry's cs>=5 counts successes; here cs only marks critical successes
        ctx.note(
            "cs marks critical successes only (Roll20); to count successes write the compare point alone: 10d6>=5",
            "cs только отмечает критические успехи (как в Roll20); чтобы считать "
            "успехи, пишите условие без cs: 10d6>=5",
        )
    for m in crit_marks:
        cp = _cp_value(ctx, m.cp) or Compare("=", roller.hi if m.variant == "cs" else roller.lo)
        for d in dice:
            if d.counted and cp.test(d.value):
                d.crit = "success" if m.variant == "cs" else "failure"


# --------------------------------------------------------------------------------------------
# groups
# --------------------------------------------------------------------------------------------
def eval_group(node: Group, ctx: Context) -> GroupNode:
    members = [evaluate(m, ctx) for m in node.members]
    inner = members[0] if len(members) == 1 and node.mods else None
    while isinstance(inner, ParenNode):
        inner = inner.inner
    if isinstance(inner, DiceNode):
        # a one-member group of one dice term: its modifiers act on the dice ({4d6}kh3);
        # any other member ({1d20+5}>15, Roll20's sheet idiom) is one total, like a member of
        # a larger group
        return _group_of_dice(node, ctx, members, inner)
    return _group_of_totals(node, ctx, members)


def _group_mods(ctx: Context, mods, sort, crit) -> tuple[Compare | None, Compare | None]:
    """Go through a group's modifiers but keep/select in stage order: ``sort(m)`` and
    ``crit(m)`` act on what the group holds; returns the success and failure compare points."""
    success = failure = None
    for m in sorted(mods, key=lambda m: MOD_ORDER[m.kind]):
        if m.kind in ("keep", "select"):
            continue
        elif m.kind == "success":
            success = _cp_value(ctx, m.cp)
        elif m.kind == "failure":
            failure = _cp_value(ctx, m.cp)
        elif m.kind == "sort":
            sort(m)
        elif m.kind == "crit":
            crit(m)
    return success, failure


def _group_of_dice(node: Group, ctx: Context, members: list, inner: DiceNode) -> GroupNode:
    """``{4d6}kh3``: the group's modifiers act on the member's dice."""
    mods = node.mods
    gstage5 = [m for m in mods if m.kind in ("keep", "select")]
    if gstage5:
        select_dice(inner.rolled, gstage5, [_cp_value(ctx, m.cp) for m in gstage5])

    def sort(m) -> None:
        inner.rolled = sorted(inner.rolled, key=lambda d: d.value, reverse=m.variant == "desc")

    def crit(m) -> None:
        cp = _cp_value(ctx, m.cp)
        for d in inner.rolled:
            if d.counted and cp is not None and cp.test(d.value):
                d.crit = "success" if m.variant == "cs" else "failure"

    success, failure = _group_mods(ctx, mods, sort, crit)
    if success is not None and inner.successes is not None:
        raise ctx.err("the member already counts successes", node.pos, ru="элемент уже считает успехи")
    value, succ, fails = tally(inner.rolled, success, failure, None)
    if success is None and inner.successes is not None:
        value, succ, fails = inner.value, inner.successes, inner.failures
    inner.value = value
    inner.successes = succ
    inner.failures = fails
    return GroupNode(_suffix(node), members, [True], value, successes=succ, label=node.label)


def _group_of_totals(node: Group, ctx: Context, members: list) -> GroupNode:
    """``{4d6, 3d8}kh1``: each member is one total; the modifiers keep, count and sort them."""
    values = [m.value for m in members]
    kept = [True] * len(members)
    order = list(range(len(members)))
    gstage5 = [m for m in node.mods if m.kind in ("keep", "select")]
    if gstage5:
        chosen = kept_indexes(values, gstage5, [_cp_value(ctx, m.cp) for m in gstage5])
        kept = [i in chosen for i in range(len(members))]

    def sort(m) -> None:
        order[:] = sorted(order, key=lambda i: values[i], reverse=m.variant == "desc")

    def crit(m) -> None:
        pass  # crit marks on groups are display-only and have no die to mark

    success, failure = _group_mods(ctx, node.mods, sort, crit)
    succ_flags = [False] * len(members)
    fail_flags = [False] * len(members)
    if success is None:
        value = sum((values[i] for i in range(len(members)) if kept[i]), 0)
        succ = None
    else:
        succ = fails = 0
        for i in range(len(members)):
            if not kept[i]:
                continue
            if success.test(values[i]):
                succ_flags[i] = True
                succ += 1
            if failure is not None and failure.test(values[i]):
                fail_flags[i] = True
                fails += 1
        value = succ - fails
    if order != list(range(len(members))):
        members = [members[i] for i in order]
        kept = [kept[i] for i in order]
        succ_flags = [succ_flags[i] for i in order]
        fail_flags = [fail_flags[i] for i in order]
    return GroupNode(
        _suffix(node),
        members,
        kept,
        norm_number(value),
        success=succ_flags,
        failure=fail_flags,
        successes=succ,
        label=node.label,
    )


_DISPATCH = {
    Num: _eval_num,
    Dice: None,
    BinOp: None,
    Unary: _eval_unary,
    Paren: _eval_paren,
    Group: None,
    Func: None,
    Var: None,
}


def _suffix(node: Group) -> str:
    return "".join(m.text for m in node.mods)


# --------------------------------------------------------------------------------------------
# the public entry point
# --------------------------------------------------------------------------------------------
class LazyRollResult(RollResult):
    """A result from the fast path: the tree is rebuilt on first access by replaying the
    recorded faces through the ordinary evaluator (see ``fast.py``)."""

    def __init__(self, expr: Expression, total, rec, successes, check, locale):
        self.expression = expr.text
        self.total = total
        self.exact = total
        self._expr = expr
        self._rec = rec
        if successes is not None:
            self.successes = successes
        if check is not None:
            self.check = check
        self.labels = list(expr.labels)
        self.notes = []
        self.results = []
        if expr.comment is not None:
            self.comment = expr.comment
        self.locale = locale

    @property
    def tree(self):
        tree = self.__dict__.get("_tree")
        if tree is None:
            ctx = Context(ReplayRNG(self._rec), None, self.expression)
            tree = evaluate(self._expr.root, ctx)
            if tree.value != self.total:  # pragma: no cover - guarded by a property test
                raise AssertionError(f"fast path disagrees for {self.expression!r}")
            if self.check is not None and self._expr.check_target is not None:
                self.check.target_tree = evaluate(self._expr.check_target, ctx)
            self.__dict__["_tree"] = tree
        return tree

    @tree.setter
    def tree(self, value):
        self.__dict__["_tree"] = value

    def text(self, locale: str | None = None, *, verdict: bool = True) -> str:
        """The breakdown written straight from the recorded faces (no tree is built; once the
        tree exists, someone may have changed it, so it is rendered instead)."""
        d = self.__dict__
        if "_tree" in d or not verdict:
            return super().text(locale, verdict=verdict)
        parts = d.get("_texts")
        if parts is None:
            expr = self._expr
            texters = expr.__dict__.get("_texters")
            if texters is None:
                texters = expr.__dict__["_texters"] = compile_text(expr)
            it = iter(self._rec)
            body, value = texters[0](it)
            target = None
            if texters[1] is not None:
                rest = list(it)  # the target's faces: it shows them if it has any
                ttext, _ = texters[1](iter(rest))
                target = f"{ttext} = {self.check.target}" if rest else str(self.check.target)
            if value != self.total:  # pragma: no cover - guarded by a property test
                raise AssertionError(f"fast text disagrees for {self.expression!r}")
            parts = d["_texts"] = (body, target)
        return render_text(self, locale or self.locale, parts[0], parts[1])


def roll_expression(expr: Expression, rng: random.Random, variables=None, locale="en") -> RollResult:
    fast = expr.__dict__.get("_fast")
    if fast is None:
        plan = compile_expression(expr)
        fast = expr.__dict__["_fast"] = (plan, plan is not None and _counts_successes(expr.root))
    plan = fast[0]
    if plan is not None:
        rec: list = []
        try:
            randrange = rng.randrange
            total = plan[0](randrange, rec)
            target = plan[1](randrange, rec) if plan[1] is not None else None
            if len(rec) > limits.MAX_DICE:
                raise Fallback
        except Fallback:
            ctx = Context(ReplayRNG(rec, rng), variables, expr.text)
            return _roll_once(expr, ctx, locale, ctx.notes)
        check = None
        if target is not None:
            from .words import check_from

            check = check_from(total, expr.check_op, target)
        return LazyRollResult(expr, total, rec, total if fast[1] else None, check, locale)
    ctx = Context(rng, variables, expr.text)
    if expr.repeat == 1 and expr.word is None:
        return _roll_once(expr, ctx, locale, ctx.notes)
    results = []
    for _ in range(expr.repeat):
        if expr.word is not None:
            r = expr.word.roll(rng)
            r.expression = expr.text
            r.comment = expr.comment
            r.locale = locale
            results.append(r)
            continue
        before = len(ctx.notes)
        r = _roll_once(expr, ctx, locale, None)
        r.notes = list(ctx.notes[before:]) + list(r.notes)
        results.append(r)
    if expr.repeat == 1:
        return results[0]
    return RollResult(
        expr.text,
        None,
        sum(r.total for r in results),
        results=results,
        labels=list(expr.labels),
        comment=expr.comment,
        locale=locale,
    )


def _roll_once(expr: Expression, ctx: Context, locale: str, notes) -> RollResult:
    tree = evaluate(expr.root, ctx)
    exact = tree.value
    if type(exact) is int:
        total = exact
    else:
        total = math.floor(exact)
        notes = list(notes or ()) + [
            {
                "en": f"exact value {exact} rounded down to {total}",
                "ru": f"точное значение {exact} округлено вниз до {total}",
            }
        ]
    counts = expr.__dict__.get("_counts")
    if counts is None:
        counts = expr.__dict__["_counts"] = _counts_successes(expr.root)
    successes = _successes(tree) if counts else None
    check = None
    if expr.check_op is not None:
        target_node = evaluate(expr.check_target, ctx)
        from .words import check_from

        check = check_from(total, expr.check_op, math.floor(target_node.value))
        check.target_tree = target_node  # type: ignore[attr-defined]
    return RollResult(
        expr.text,
        tree,
        total,
        exact,
        successes=successes,
        check=check,
        labels=list(expr.labels) if expr.labels else None,
        comment=expr.comment,
        notes=notes,
        locale=locale,
    )


def _counts_successes(node) -> bool:
    """Whether the expression's value is a success count (a counting term or a +/- of them)."""
    while isinstance(node, Paren):
        node = node.inner
    if isinstance(node, (Dice, Group)):
        return any(m.kind == "success" for m in node.mods)
    if isinstance(node, BinOp) and node.op in "+-":
        return _counts_successes(node.left) and _counts_successes(node.right)
    return False


def _successes(tree) -> int | None:
    """The success count when the whole expression is a counting term (or a sum of them)."""
    if isinstance(tree, (DiceNode, GroupNode)):
        return tree.successes
    if isinstance(tree, ParenNode):
        return _successes(tree.inner)
    if isinstance(tree, BinOpNode) and tree.op in "+-":
        a, b = _successes(tree.left), _successes(tree.right)
        if a is not None and b is not None:
            return a + b if tree.op == "+" else a - b
    return None


#: The generator of ``roll(expr)`` without ``seed`` or ``rng``: one per process, seeded from the OS,
#: and seeded afresh in a forked child (so two forked kernels never roll the same dice).
_DEFAULT_RNG = random.Random()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_DEFAULT_RNG.seed)


def roll(expr: str, *, seed=None, rng=None, variables=None, locale: str = "en") -> RollResult:
    if rng is None and seed is None and (locale == "en" or locale == "ru"):
        # the default path (what %roll and the tray use): one private generator, no checks to do
        return roll_expression(parse(expr, variables), _DEFAULT_RNG, variables, locale)
    if seed is not None and rng is not None:
        raise DiceError(
            "give either seed or rng, not both",
            None,
            expr if isinstance(expr, str) else None,
            message_ru="укажите либо seed, либо rng, но не оба",
        )
    if locale not in ("en", "ru"):
        raise DiceError(f"unknown locale {locale!r}: expected 'en' or 'ru'")
    if rng is None:
        rng = random.Random(seed) if seed is not None else _DEFAULT_RNG
    elif not hasattr(rng, "randrange"):
        raise DiceError(f"rng must be a random.Random, got {type(rng).__name__}")
    parsed = parse(expr, variables)
    result = roll_expression(parsed, rng, variables, locale)
    if seed is not None:
        result.seed = seed
    return result


_DISPATCH.update({Dice: eval_dice, BinOp: eval_binop, Group: eval_group, Func: eval_func, Var: eval_var})
