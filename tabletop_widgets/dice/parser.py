"""Recursive-descent parser for the dice notation of NOTATION.md. No ``eval``.

Nesting is bounded (``MAX_DEPTH``) so deep input raises ``DiceError``, never ``RecursionError``.
Whitespace matters in one place: a compare point *glued* to a dice or group term counts
successes (``6d10>=6``); a spaced one (``2d6+3 >= 8``) is a check.
"""

from __future__ import annotations

import re
from collections import OrderedDict

from . import limits
from .dice_syntax import CMP_RE, INT_RE, DiceSyntax, check_counting
from .diceast import BinOp, Dice, Expression, Func, Group, Mod, Node, Num, Paren, Unary, Var
from .errors import DiceError, DiceLimitError, unknown_variable

FUNCTIONS = {"floor": (1, 1), "ceil": (1, 1), "round": (1, 1), "abs": (1, 1), "min": (1, None), "max": (1, None)}

_WS = re.compile(r"\s*")
_IDENT = re.compile(r"[A-Za-z_\u0400-\u04FF][A-Za-z0-9_\u0400-\u04FF]*")
_REPEAT = re.compile(r"\s*(\d+)#(?=\s*\S)")
_FLAG_WORDS = ("adv", "dis")


def _mask_comments(text: str) -> tuple[str, str | None]:
    """Blank out ``/* ... */`` and a trailing ``# ...`` (same length, so positions hold).
    Returns the masked text and the comment text. ``#`` right after a leading integer is
    repetition, not a comment; ``#`` inside ``[labels]`` is text."""
    out = list(text)
    comments: list[str] = []
    i, n = 0, len(text)
    rep = _REPEAT.match(text)
    in_label = False
    while i < n:
        c = text[i]
        if in_label:
            if c == "]":
                in_label = False
            i += 1
            continue
        if c == "[":
            in_label = True
            i += 1
            continue
        if c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                raise DiceError(
                    "unclosed comment: expected '*/'", i, text, message_ru="комментарий не закрыт: ожидалось '*/'"
                )
            comments.append(text[i + 2 : j].strip())
            for k in range(i, j + 2):
                out[k] = " "
            i = j + 2
            continue
        if c == "#" and not (rep and i == rep.end(1)):
            comments.append(text[i + 1 :].strip())
            for k in range(i, n):
                out[k] = " "
            break
        i += 1
    comment = " ".join(c for c in comments if c) or None
    return "".join(out), comment


#: What ``Parser.int_here`` expected, in Russian (every caller's ``what``).
_WHAT_RU = {
    "a number": "число",
    "the number of faces": "число граней",
    "a number to compare with": "число для сравнения",
    "the minimum face": "наименьшее значение грани",
    "the maximum face": "наибольшее значение грани",
    "how many dice": "число кубиков",
}


class Parser(DiceSyntax):
    def __init__(self, text: str, variables=None):
        self.src = text
        self.text, self.comment = _mask_comments(text)
        self.i = 0
        self.depth = 0
        self.variables = variables
        self.labels: list[str] = []
        self.dice_literal = 0

    # -- helpers ---------------------------------------------------------------------------------
    def err(self, msg: str, pos: int | None = None, ru: str | None = None, cls=DiceError):
        return cls(msg, self.i if pos is None else pos, self.src, message_ru=ru)

    def ws(self) -> None:
        self.i = _WS.match(self.text, self.i).end()

    def peek(self, s: str) -> bool:
        return self.text.startswith(s, self.i)

    def at_end(self) -> bool:
        return self.i >= len(self.text)

    def describe_here(self) -> str:
        if self.at_end():
            return "the end of the input"
        return repr(self.text[self.i])

    def enter(self, pos: int | None = None):
        self.depth += 1
        if self.depth > limits.MAX_DEPTH:
            raise self.err(
                pos=pos,
                msg=f"nested too deeply (more than {limits.MAX_DEPTH} levels)",
                ru=f"слишком глубокая вложенность (больше {limits.MAX_DEPTH} уровней)",
                cls=DiceLimitError,
            )

    def leave(self):
        self.depth -= 1

    def int_here(self, what: str) -> int:
        """The whole number at the cursor; ``what`` names it (a key of ``_WHAT_RU``)."""
        m = INT_RE.match(self.text, self.i)
        if not m:
            raise self.err(
                f"expected {what} (a whole number), found {self.describe_here()}",
                ru=f"ожидалось {_WHAT_RU.get(what, 'целое число')}: целое число",
            )
        if len(m.group()) > limits.MAX_DIGITS:
            raise self.err(
                f"number too large (more than {limits.MAX_DIGITS} digits)",
                ru=f"слишком большое число (больше {limits.MAX_DIGITS} цифр)",
                cls=DiceLimitError,
            )
        self.i = m.end()
        if self.text.startswith(".", self.i) and INT_RE.match(self.text, self.i + 1):
            raise self.err(
                "decimal numbers are not supported: use whole numbers (and / or // to divide)",
                ru="дробные числа не поддерживаются: используйте целые (и / или // для деления)",
            )
        return int(m.group())

    # -- top level -------------------------------------------------------------------------------
    def parse_line(self) -> Expression:
        if len(self.src) > limits.MAX_LENGTH:
            raise DiceLimitError(
                f"expression too long ({len(self.src)} characters; the limit is {limits.MAX_LENGTH})",
                limits.MAX_LENGTH,
                self.src,
                message_ru=f"слишком длинное выражение ({len(self.src)} символов; предел {limits.MAX_LENGTH})",
            )
        repeat = 1
        m = _REPEAT.match(self.text)
        if m:
            if len(m.group(1)) > limits.MAX_DIGITS:
                raise self.err("repetition count too large", m.start(1), cls=DiceLimitError)
            repeat = int(m.group(1))
            if not 1 <= repeat <= limits.MAX_REPEAT:
                raise self.err(
                    f"repetition count must be 1..{limits.MAX_REPEAT}, got {repeat}",
                    m.start(1),
                    ru=f"число повторов должно быть 1..{limits.MAX_REPEAT}",
                    cls=DiceLimitError,
                )
            self.i = m.end()
        self.ws()
        if self.at_end():
            raise self.err(
                "empty expression: expected dice such as 1d20 or 4d6kh3",
                ru="пустое выражение: ожидались кубики, например 1d20 или 4d6kh3",
            )
        start = self.i
        try:
            return self.parse_generic(repeat)
        except DiceError as generic_error:
            # generic notation first: system words only for text it does not read (a word never
            # changes what plain notation means, and plain notation never loads a system)
            from .words import match_word, parse_word

            word = match_word(self.text, start, self.variables)
            if word is None:
                raise generic_error
            end = len(self.text.rstrip())
            parsed = parse_word(word, self.src, start, end, self.variables)
            return Expression(text=self.src, root=Num(start, end, 0), repeat=repeat, comment=self.comment, word=parsed)

    def parse_generic(self, repeat: int) -> Expression:
        expr = Expression(text=self.src, root=None, repeat=repeat, comment=self.comment)  # type: ignore[arg-type]
        self.parse_flags(expr)
        expr.root = self.parse_sum()
        self.ws()
        self.parse_flags(expr)
        m = CMP_RE.match(self.text, self.i)
        word_cmp = self.keyword(("vs", "dc"))
        if m or word_cmp:
            expr.check_pos = self.i
            if m:
                op = m.group(1)
                op = {"==": "=", "<>": "!="}.get(op, op)
                self.i = m.end()
            else:
                op = ">="
                self.i += 2
            self.ws()
            if self.at_end():
                raise self.err(
                    "expected a target after the comparison (e.g. >= 8)",
                    ru="после сравнения ожидалась цель (например >= 8)",
                )
            expr.check_op = op
            expr.check_target = self.parse_sum()
            self.ws()
            self.parse_flags(expr)
        if not self.at_end():
            c = self.text[self.i]
            if c in ")}":
                raise self.err(
                    f"unbalanced {c!r}: no matching opening bracket", ru=f"лишняя скобка {c!r}: нет открывающей"
                )
            if c == ",":
                raise self.err(
                    "unexpected ',': lists go inside {...} or (...)",
                    ru="неожиданная ',': списки пишутся в {...} или (...)",
                )
            if c.isalpha() and self.text[self.i - 1 : self.i].isspace():
                rest = self.src[self.i :].strip()
                head = self.src[: self.i].rstrip()
                raise self.err(
                    f"text after a complete roll: to label the roll, put it after '#' ({head} # {rest})",
                    ru=f"текст после броска: чтобы подписать бросок, напишите его после '#' ({head} # {rest})",
                )
            raise self.err(
                f"unexpected {self.describe_here()}: expected an operator (+ - * / // % ^), "
                "a comparison (>=, vs, dc), adv/dis, or the end",
                ru=f"неожиданный символ {self.describe_here()}: ожидался оператор, "
                "сравнение (>=, vs, dc), adv/dis или конец",
            )
        expr.labels = self.labels
        if expr.adv is not None:
            _apply_advantage(expr, self)
        return expr

    def keyword(self, words) -> str | None:
        m = _IDENT.match(self.text, self.i)
        if m and m.group() in words:
            return m.group()
        return None

    def parse_flags(self, expr: Expression) -> None:
        while True:
            self.ws()
            w = self.keyword(_FLAG_WORDS)
            if not w:
                return
            if expr.adv is not None and expr.adv != w:
                raise self.err(
                    "adv and dis cancel out: write neither", ru="adv и dis взаимно отменяются: не пишите ни одного"
                )
            expr.adv = w
            self.i += len(w)

    # -- arithmetic ------------------------------------------------------------------------------
    def parse_sum(self) -> Node:
        start = self.i
        left = self.parse_product()
        while True:
            self.ws()
            c = self.text[self.i : self.i + 1]
            if c in ("+", "-"):
                op_pos = self.i
                self.i += 1
                self.ws()
                right = self.parse_product()
                left = BinOp(start, self.i, c, left, right)
                left.pos = op_pos
            else:
                break
        return left

    def parse_product(self) -> Node:
        left = self.parse_unary()
        while True:
            self.ws()
            if self.peek("//"):
                op = "//"
            elif self.peek("**"):
                break  # handled by power
            elif self.text[self.i : self.i + 1] in ("*", "/", "%") and not self.peek("/*"):
                op = self.text[self.i]
            else:
                break
            op_pos = self.i
            self.i += len(op)
            self.ws()
            right = self.parse_unary()
            left = BinOp(op_pos, self.i, op, left, right)
        return left

    def parse_unary(self) -> Node:
        self.ws()
        c = self.text[self.i : self.i + 1]
        if c in ("-", "+"):
            pos = self.i
            self.i += 1
            self.enter(pos)
            operand = self.parse_unary()
            self.leave()
            return Unary(pos, self.i, c, operand)
        return self.parse_power()

    def parse_power(self) -> Node:
        base = self.parse_postfix()
        self.ws()
        if self.peek("**") or self.peek("^"):
            op_pos = self.i
            self.i += 2 if self.peek("**") else 1
            self.ws()
            self.enter()
            exponent = self.parse_unary()  # right-associative; 2^-1 allowed
            self.leave()
            return BinOp(op_pos, self.i, "^", base, exponent)
        return base

    def parse_postfix(self) -> Node:
        node = self.parse_atom()
        # a label may follow any term, glued or spaced: 2d6[fire], +5 [attack]
        save = self.i
        self.ws()
        if self.peek("["):
            j = self.text.find("]", self.i + 1)
            if j < 0:
                raise self.err("unclosed label: expected ']'", ru="метка не закрыта: ожидалась ']'")
            label = self.src[self.i + 1 : j].strip()
            node.label = label
            self.labels.append(label)
            self.i = j + 1
        else:
            self.i = save
        return node

    # -- atoms -----------------------------------------------------------------------------------
    def parse_atom(self) -> Node:
        self.ws()
        if self.at_end():
            raise self.err(
                "unexpected end: expected a number, dice (like 2d6), '(' or a function",
                ru="неожиданный конец: ожидалось число, кубики (например 2d6), '(' или функция",
            )
        c = self.text[self.i]
        start = self.i
        if c.isdigit():
            n = self.int_here("a number")
            if self.text[self.i : self.i + 1] in ("d", "D") and self._dice_follows():
                return self.parse_dice(start, n)
            return Num(start, self.i, n)
        if c in ("d", "D") and self._dice_follows():
            return self.parse_dice(start, 1)
        if c == "(":
            return self.parse_paren_or_set()
        if c == "{":
            return self.parse_group("{", "}")
        if c == "@":
            return self.parse_var()
        m = _IDENT.match(self.text, self.i)
        if m:
            name = m.group()
            if name in FUNCTIONS:
                return self.parse_func(name)
            if name in ("vs", "dc", "adv", "dis"):
                raise self.err(
                    f"'{name}' must follow an expression (e.g. 1d20+5 {name} 15)"
                    if name in ("vs", "dc")
                    else f"'{name}' must stand apart from the dice (e.g. 1d20+5 {name})",
                    ru=f"'{name}' должно идти после выражения",
                )
            raise self.err(
                f"unknown word {name!r}: expected dice (2d6), a number, a function "
                f"({', '.join(FUNCTIONS)}) or a system word",
                ru=f"неизвестное слово {name!r}: ожидались кубики (2d6), число, функция или слово системы",
            )
        if c in ")}]":
            raise self.err(
                f"unexpected {c!r}: expected a number, dice or '('",
                ru=f"неожиданный {c!r}: ожидалось число, кубики или '('",
            )
        raise self.err(
            f"unexpected {self.describe_here()}: expected a number, dice (like 2d6), '(' or a function",
            ru=f"неожиданный символ {self.describe_here()}: ожидалось число, кубики, '(' или функция",
        )

    def _dice_follows(self) -> bool:
        nxt = self.text[self.i + 1 : self.i + 2]
        return nxt.isdigit() or nxt in ("%", "F", "f", "{", "(") or nxt == ""

    def parse_var(self) -> Node:
        start = self.i
        self.i += 1
        if self.peek("{"):
            j = self.text.find("}", self.i)
            if j < 0:
                raise self.err("unclosed variable: expected '}'", ru="переменная не закрыта: ожидалась '}'")
            name = self.src[self.i + 1 : j].strip()
            self.i = j + 1
        else:
            m = _IDENT.match(self.text, self.i)
            if not m:
                raise self.err(
                    "expected a variable name after '@' (e.g. @attention or @{Внимание})",
                    ru="после '@' ожидалось имя переменной (например @attention или @{Внимание})",
                )
            name = m.group()
            self.i = m.end()
        if not name:
            raise self.err("empty variable name", start, ru="пустое имя переменной")
        node = Var(start, self.i, name)
        if self.variables is not None and name not in self.variables:
            en, ru = unknown_variable(name, self.variables)
            raise self.err(en, start, ru=ru)
        if self.text[self.i : self.i + 1] in ("d", "D") and self._dice_follows():
            return self.parse_dice(start, node)
        return node

    def parse_func(self, name: str) -> Node:
        start = self.i
        self.i += len(name)
        self.ws()
        if not self.peek("("):
            raise self.err(f"expected '(' after {name}", ru=f"после {name} ожидалась '('")
        self.i += 1
        self.enter()
        args = self.parse_args(")")
        self.leave()
        lo, hi = FUNCTIONS[name]
        if len(args) < lo or (hi is not None and len(args) > hi):
            want = f"{lo}" if lo == hi else f"at least {lo}"
            raise self.err(
                f"{name}() takes {want} argument(s), got {len(args)}",
                start,
                ru=f"{name}() принимает {want} аргумент(а), получено {len(args)}",
            )
        return Func(start, self.i, name, args)

    def parse_args(self, close: str) -> list[Node]:
        args: list[Node] = []
        self.ws()
        if self.peek(close):
            self.i += 1
            return args
        while True:
            args.append(self.parse_sum())
            self.ws()
            if self.peek(","):
                self.i += 1
                self.ws()
                if self.peek(close):  # trailing comma
                    self.i += 1
                    return args
                continue
            if self.peek(close):
                self.i += 1
                return args
            if self.at_end():
                raise self.err(
                    f"missing {close!r}: the bracket is never closed", ru=f"не хватает {close!r}: скобка не закрыта"
                )
            raise self.err(
                f"unexpected {self.describe_here()}: expected ',' or {close!r}",
                ru=f"неожиданный символ {self.describe_here()}: ожидалась ',' или {close!r}",
            )

    def parse_paren_or_set(self) -> Node:
        start = self.i
        self.i += 1
        self.enter(start)
        self.ws()
        if self.peek(")"):
            raise self.err(
                "empty parentheses: expected an expression inside", ru="пустые скобки: внутри ожидалось выражение"
            )
        first = self.parse_sum()
        self.ws()
        if self.peek(","):
            # a d20-style set: (a, b, c) or (a,)
            self.i += 1
            self.ws()
            members = [first]
            if not self.peek(")"):
                members += self.parse_args(")")
            else:
                self.i += 1
            self.leave()
            return self.finish_group(start, members, "(")
        if not self.peek(")"):
            if self.at_end():
                raise self.err(
                    "missing ')': the bracket opened here is never closed",
                    start,
                    ru="не хватает ')': скобка не закрыта",
                )
            raise self.err(
                f"unexpected {self.describe_here()}: expected ')'",
                ru=f"неожиданный символ {self.describe_here()}: ожидалась ')'",
            )
        self.i += 1
        self.leave()
        node: Node = Paren(start, self.i, first)
        if self.text[self.i : self.i + 1] in ("d", "D") and self._dice_follows():
            return self.parse_dice(start, node)
        return node

    def parse_group(self, open_: str, close: str) -> Node:
        start = self.i
        self.i += 1
        self.enter(start)
        self.ws()
        if self.peek(close):
            raise self.err(
                "empty group: expected expressions inside {...}", ru="пустая группа: внутри {...} ожидались выражения"
            )
        members = self.parse_args(close)
        self.leave()
        return self.finish_group(start, members, open_)

    def finish_group(self, start: int, members: list[Node], brace: str) -> Node:
        mods = self.parse_mods(group=True)
        g = Group(start, self.i, members, mods, self.src[start : self.i], brace)
        for m in mods:
            if m.kind in ("explode", "reroll", "unique", "min", "max", "double"):
                raise self.err(
                    f"'{m.text}' works on dice, not on groups",
                    m.pos,
                    ru=f"'{m.text}' применяется к кубикам, а не к группам",
                )
        check_counting(self, mods)
        return g


def _apply_advantage(expr: Expression, p: Parser) -> None:
    """``adv``/``dis``: the leftmost single d20 becomes 2d20kh1 / 2d20kl1."""
    from .diceast import walk

    target = None
    for n in walk(expr.root):
        if isinstance(n, Dice) and n.faces.sides == 20 and n.faces.values is None and n.count == 1:
            if target is None or n.pos < target.pos:
                target = n
    if target is None:
        raise DiceError(
            f"'{expr.adv}' needs a single d20 to turn into 2d20 (e.g. 1d20+5 {expr.adv})",
            None,
            p.src,
            message_ru=f"для '{expr.adv}' нужен один d20 (например 1d20+5 {expr.adv})",
        )
    target.count = 2
    variant = "kh" if expr.adv == "adv" else "kl"
    target.mods = target.mods + [Mod("keep", variant, 1, None, target.end, f"{variant}1")]
    target.text = f"2d20{''.join(m.text for m in target.mods)}"


_CACHE: "OrderedDict[tuple, Expression]" = OrderedDict()
_CACHE_SIZE = 512


def clear_cache() -> None:
    """Forget the cached parses (system words changed what text means; benchmarks start cold)."""
    _CACHE.clear()


def parse(text: str, variables=None) -> Expression:
    """Parse one line of notation. Cached by text when it has no variables (the tree is never
    mutated after parsing)."""
    if not isinstance(text, str):
        raise DiceError(
            f"expected the expression as text, got {type(text).__name__}",
            None,
            None,
            message_ru="выражение должно быть строкой",
        )
    cacheable = variables is None and "@" not in text
    if cacheable:
        hit = _CACHE.get(text)
        if hit is not None:
            _CACHE.move_to_end(text)
            return hit
    expr = Parser(text, variables).parse_line()
    if cacheable:
        _CACHE[text] = expr
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return expr
