"""Recursive-descent parser for the dice notation of NOTATION.md. No ``eval``.

Nesting is bounded (``MAX_DEPTH``) so deep input raises ``DiceError``, never ``RecursionError``.
Whitespace matters in one place: a compare point *glued* to a dice or group term counts
successes (``6d10>=6``); a spaced one (``2d6+3 >= 8``) is a check.
"""

from __future__ import annotations

import re
from collections import OrderedDict

from . import limits
from .diceast import BinOp, Compare, Dice, Expression, Faces, Func, Group, Mod, Node, Num, Paren, Unary, Var
from .errors import DiceError, DiceLimitError, unknown_variable

FUNCTIONS = {"floor": (1, 1), "ceil": (1, 1), "round": (1, 1), "abs": (1, 1), "min": (1, None), "max": (1, None)}

_INT = re.compile(r"\d+")
_WS = re.compile(r"\s*")
_IDENT = re.compile(r"[A-Za-z_\u0400-\u04FF][A-Za-z0-9_\u0400-\u04FF]*")
_CMP = re.compile(r"(>=|<=|<>|!=|==|=|>|<)")
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


class Parser:
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
        m = _INT.match(self.text, self.i)
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
        if self.text.startswith(".", self.i) and _INT.match(self.text, self.i + 1):
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
        m = _CMP.match(self.text, self.i)
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
        _check_counting(self, mods)
        return g

    # -- dice ------------------------------------------------------------------------------------
    def parse_dice(self, start: int, count) -> Node:
        self.i += 1  # the 'd'
        faces: Faces
        c = self.text[self.i : self.i + 1]
        if c == "%":
            self.i += 1
            faces = Faces(sides=100, text="%")
        elif c in ("F", "f") and not self.text[self.i : self.i + 2] == "fl":
            self.i += 1
            kind = "F"
            if self.text.startswith(".1", self.i) or self.text.startswith(".2", self.i):
                kind = "F" + self.text[self.i : self.i + 2]
                self.i += 2
            # dF / dF.2: -1, 0, +1 equally likely; dF.1 (rpg-dice-roller): one -1, four 0, one +1
            values = (-1, 0, 0, 0, 0, 1) if kind == "F.1" else (-1, 0, 1)
            faces = Faces(values=values, text=kind)
        elif c == "{":
            fstart = self.i
            j = self.text.find("}", self.i)
            if j < 0:
                raise self.err("unclosed face list: expected '}'", ru="список граней не закрыт: ожидалась '}'")
            body = self.text[self.i + 1 : j]
            vals = []
            pos = self.i + 1
            for part in body.split(","):
                p = part.strip()
                if not re.fullmatch(r"-?\d+", p):
                    raise self.err(
                        f"custom faces must be whole numbers separated by commas, got {p!r}",
                        pos + (len(part) - len(part.lstrip())),
                        ru=f"грани должны быть целыми числами через запятую, получено {p!r}",
                    )
                if len(p.lstrip("-")) > limits.MAX_DIGITS:
                    raise self.err("face value too large", pos, cls=DiceLimitError)
                vals.append(int(p))
                pos += len(part) + 1
            if len(vals) > limits.MAX_FACES:
                raise self.err(f"too many faces (limit {limits.MAX_FACES})", fstart, cls=DiceLimitError)
            self.i = j + 1
            faces = Faces(values=tuple(vals), text=self.src[fstart : self.i])
        elif c == "(":
            fstart = self.i
            self.i += 1
            self.enter()
            inner = self.parse_sum()
            self.ws()
            if not self.peek(")"):
                raise self.err(
                    "missing ')' after the computed number of faces",
                    ru="не хватает ')' после вычисляемого числа граней",
                )
            self.i += 1
            self.leave()
            faces = Faces(computed=inner, text=self.src[fstart : self.i])
        elif c.isdigit():
            fpos = self.i
            sides = self.int_here("the number of faces")
            if sides < 1:
                raise self.err(
                    "a die needs at least one face (d0 is not a die)",
                    fpos,
                    ru="у кубика должна быть хотя бы одна грань (d0 — не кубик)",
                )
            if sides > limits.MAX_FACES:
                raise self.err(
                    f"too many faces: d{sides} (the limit is {limits.MAX_FACES:,})",
                    fpos,
                    ru=f"слишком много граней: d{sides} (предел {limits.MAX_FACES:,})",
                    cls=DiceLimitError,
                )
            faces = Faces(sides=sides, text=str(sides))
        else:
            raise self.err(
                "expected the number of faces after 'd' (d6, d%, dF, d{1,2,4})",
                ru="после 'd' ожидалось число граней (d6, d%, dF, d{1,2,4})",
            )
        if isinstance(count, int):
            if count > limits.MAX_DICE:
                raise self.err(
                    f"too many dice: {count} (the limit is {limits.MAX_DICE:,} per roll)",
                    start,
                    ru=f"слишком много кубиков: {count} (предел {limits.MAX_DICE:,} за бросок)",
                    cls=DiceLimitError,
                )
            self.dice_literal += count
            if self.dice_literal > limits.MAX_DICE:
                raise self.err(
                    f"too many dice in one expression (the limit is {limits.MAX_DICE:,})",
                    start,
                    cls=DiceLimitError,
                    ru=f"слишком много кубиков в одном выражении (предел {limits.MAX_DICE:,})",
                )
        mods = self.parse_mods(group=False)
        node = Dice(start, self.i, count, faces, mods, self.src[start : self.i])
        _check_dice_mods(self, node)
        return node

    def parse_cp(self, default_op: str | None = "=", required=False) -> Compare | None:
        """A compare point: ``>=5``, ``<3``, ``=6``, ``<>1``, or a bare number (``default_op``)."""
        pos = self.i
        m = _CMP.match(self.text, self.i)
        if m:
            op = {"==": "=", "<>": "!="}.get(m.group(1), m.group(1))
            self.i = m.end()
        elif self.text[self.i : self.i + 1].isdigit() and default_op:
            op = default_op
        else:
            if required:
                raise self.err(
                    "expected a compare point such as >=5, <3 or =6", ru="ожидалось условие вида >=5, <3 или =6"
                )
            return None
        neg = False
        if self.peek("-"):
            neg = True
            self.i += 1
        if self.peek("("):
            self.i += 1
            self.enter()
            inner = self.parse_sum()
            self.ws()
            if not self.peek(")"):
                raise self.err("missing ')' in the compare point", ru="не хватает ')' в условии")
            self.i += 1
            self.leave()
            value = Unary(pos, self.i, "-", inner) if neg else inner
            return Compare(op, value, pos)
        n = self.int_here("a number to compare with")
        return Compare(op, -n if neg else n, pos)

    def parse_mods(self, group: bool) -> list[Mod]:
        mods: list[Mod] = []
        t = self.text
        while self.i < len(t):
            pos = self.i
            c = t[self.i]
            s = t[self.i : self.i + 3]
            if c == "!":
                if s.startswith("!!p"):
                    variant, self.i = "compound_penetrate", self.i + 3
                elif s.startswith("!!"):
                    variant, self.i = "compound", self.i + 2
                elif s.startswith("!p"):
                    variant, self.i = "penetrate", self.i + 2
                else:
                    variant, self.i = "explode", self.i + 1
                cp = self.parse_cp("=")
                mods.append(Mod("explode", variant, None, cp, pos, t[pos : self.i]))
            elif s.startswith("min") or s.startswith("mi"):
                self.i += 3 if s.startswith("min") else 2
                mods.append(Mod("min", n=self.int_here("the minimum face"), pos=pos, text=t[pos : self.i]))
            elif s.startswith("max") or s.startswith("ma"):
                self.i += 3 if s.startswith("max") else 2
                mods.append(Mod("max", n=self.int_here("the maximum face"), pos=pos, text=t[pos : self.i]))
            elif (
                c == "e"
                and t[self.i + 1 : self.i + 2] in ("<", ">", "=", "!")
                or (c == "e" and t[self.i + 1 : self.i + 2].isdigit())
            ):
                self.i += 1  # d20: e6, e>5
                cp = self.parse_cp("=", required=True)
                mods.append(Mod("explode", "explode", None, cp, pos, t[pos : self.i]))
            elif c == "x":
                # Foundry: x (on max), xo (once), x5 (on 5), x>=5, x3<5 (at most 3 explosions, on <5)
                self.i += 1
                once = False
                cap = None
                if self.peek("o"):
                    once = True
                    self.i += 1
                m = _INT.match(t, self.i)
                cp = None
                variant = "explode"
                if m and _CMP.match(t, m.end()):
                    # Foundry's x3<5: at most 3 explosions for the whole term, not per die
                    cap = int(m.group()) if len(m.group()) <= limits.MAX_DIGITS else limits.MAX_EXPLOSIONS + 1
                    variant = "explode_term"
                    self.i = m.end()
                    cp = self.parse_cp(None, required=True)
                else:
                    cp = self.parse_cp("=")
                if once:
                    cap, variant = 1, "explode"  # xo: each die explodes at most once
                mods.append(Mod("explode", variant, cap, cp, pos, t[pos : self.i]))
            elif c == "r":
                if s.startswith("ro"):
                    variant, self.i = "once", self.i + 2
                elif s.startswith("ra"):
                    variant, self.i = "add", self.i + 2
                elif s.startswith("rr"):
                    variant, self.i = "until", self.i + 2
                else:
                    variant, self.i = "until", self.i + 1
                cp = self.parse_cp("=")
                mods.append(Mod("reroll", variant, None, cp, pos, t[pos : self.i]))
            elif c == "u":
                self.i += 1
                variant = "until"
                if self.peek("o"):
                    variant = "once"
                    self.i += 1
                # rpg-dice-roller: u<=4 rerolls only the duplicates that match (the sum stays a sum)
                cp = self.parse_cp(None)
                mods.append(Mod("unique", variant, cp=cp, pos=pos, text=t[pos : self.i]))
            elif s.startswith("dbl"):
                self.i += 3
                cp = self.parse_cp("=", required=True)
                mods.append(Mod("double", cp=cp, pos=pos, text=t[pos : self.i]))
            elif (
                c == "d"
                and t[self.i + 1 : self.i + 2] == "f"
                and (_CMP.match(t, self.i + 2) or t[self.i + 2 : self.i + 3].isdigit())
            ):
                raise self.err(
                    f"'{t[self.i : self.i + 2]}' is Foundry's deduct/subtract-failures "
                    "modifier: here failures are written f after the success compare "
                    "point (10d6>=5f1 counts successes minus ones)",
                    ru=f"'{t[self.i : self.i + 2]}' — модификатор Foundry (вычесть провалы): "
                    "здесь провалы пишутся f после условия успеха (10d6>=5f1)",
                )
            elif c in ("k", "p") or (c == "d" and t[self.i + 1 : self.i + 2] not in ("%", "F", "{", "(")):
                nxt = t[self.i + 1 : self.i + 2]
                if c == "k":
                    base = "k"
                else:
                    base = "d"
                if nxt in ("h", "l"):
                    self.i += 2
                    n = self.int_here("how many dice") if t[self.i : self.i + 1].isdigit() else 1
                    variant = base + nxt
                    mods.append(Mod("keep", variant, n, None, pos, t[pos : self.i]))
                elif nxt.isdigit():
                    self.i += 1
                    n = self.int_here("how many dice")
                    variant = "kh" if base == "k" else "dl"
                    mods.append(Mod("keep", variant, n, None, pos, t[pos : self.i]))
                elif _CMP.match(t, self.i + 1):
                    self.i += 1
                    cp = self.parse_cp(None, required=True)
                    mods.append(Mod("select", "keep" if base == "k" else "drop", None, cp, pos, t[pos : self.i]))
                elif nxt == "" or not nxt.isalpha():
                    self.i += 1
                    variant = "kh" if base == "k" else "dl"
                    mods.append(Mod("keep", variant, 1, None, pos, t[pos : self.i]))
                else:
                    break
            elif c == "f" and not s.startswith("flo"):
                self.i += 1
                cp = self.parse_cp("=", required=True)
                mods.append(Mod("failure", cp=cp, pos=pos, text=t[pos : self.i]))
            elif s.startswith("cs") or s.startswith("cf"):
                self.i += 2
                cp = self.parse_cp("=")
                mods.append(Mod("crit", "cs" if s.startswith("cs") else "cf", None, cp, pos, t[pos : self.i]))
            elif c == "s" and not t[self.i + 1 : self.i + 2].isalpha() or s.startswith("sa") or s.startswith("sd"):
                if s.startswith("sd"):
                    variant, self.i = "desc", self.i + 2
                elif s.startswith("sa"):
                    variant, self.i = "asc", self.i + 2
                else:
                    variant, self.i = "asc", self.i + 1
                mods.append(Mod("sort", variant, pos=pos, text=t[pos : self.i]))
            elif _CMP.match(t, self.i):
                # glued compare point: count successes
                cp = self.parse_cp(None, required=True)
                mods.append(Mod("success", cp=cp, pos=pos, text=t[pos : self.i]))
            else:
                break
        return mods


def _check_counting(p: Parser, mods: list[Mod]) -> None:
    kinds = [m.kind for m in mods]
    for m in mods:
        if m.kind in ("failure", "double") and "success" not in kinds:
            raise p.err(
                f"'{m.text}' needs a success compare point too (e.g. 10d10>=6{m.text})",
                m.pos,
                ru=f"для '{m.text}' нужно и условие успеха (например 10d10>=6{m.text})",
            )
    for kind in ("success", "failure", "double"):
        if kinds.count(kind) > 1:
            dup = [m for m in mods if m.kind == kind][1]
            raise p.err(
                f"'{dup.text}': only one {kind} compare point per term",
                dup.pos,
                ru=f"'{dup.text}': только одно такое условие на терм",
            )


def _covers_all(cp: Compare | None, faces: Faces, default_high: bool) -> bool:
    """Whether every face satisfies the compare point (an explosion or reroll on it never ends)."""
    if cp is None:
        return faces.values is not None and len(set(faces.values)) == 1 or faces.sides == 1
    if not isinstance(cp.value, int):
        return False
    if faces.values is not None:
        return all(cp.test(v) for v in faces.values)
    if faces.sides is None:
        return False
    lo, hi = 1, faces.sides
    op, t = cp.op, cp.value
    if op == "=":
        return lo == hi == t
    if op == "!=":
        return not lo <= t <= hi
    if op == ">":
        return lo > t
    if op == ">=":
        return lo >= t
    if op == "<":
        return hi < t
    return hi <= t


def _clamped(node: Dice) -> Faces:
    """The faces a die can show after its min/max clamps (``3d6min6`` always shows 6), so that
    an explosion or reroll that would never stop is refused for clamped dice too."""
    lo = max((m.n for m in node.mods if m.kind == "min"), default=None)
    hi = min((m.n for m in node.mods if m.kind == "max"), default=None)
    faces = node.faces
    if lo is None and hi is None:
        return faces
    if faces.values is None and faces.sides > 100_000:
        return faces  # too many to list; the engine's per-die limit still bounds the roll

    def clamp(v):
        if lo is not None and v < lo:
            v = lo
        if hi is not None and v > hi:
            v = hi
        return v

    return Faces(values=tuple(sorted({clamp(v) for v in faces.face_list()})), text=faces.text)


def _check_dice_mods(p: Parser, node: Dice) -> None:
    _check_counting(p, node.mods)
    explodes = [m for m in node.mods if m.kind == "explode"]
    if len(explodes) > 1:
        raise p.err(
            f"only one explosion per term ('{explodes[1].text}' repeats it)",
            explodes[1].pos,
            ru="только один взрыв на терм",
        )
    static = node.faces.computed is None
    faces = _clamped(node) if static else node.faces
    for m in node.mods:
        if m.kind == "explode" and static and m.n is None and _covers_all(m.cp, faces, True):
            raise p.err(
                f"'{m.text}' explodes on every face of d{node.faces.text}: it would never stop "
                "(use xo to explode once, or a narrower condition)",
                m.pos,
                ru=f"'{m.text}' взрывается на каждой грани d{node.faces.text}: взрывы не "
                "закончатся (используйте xo или более узкое условие)",
            )
        if m.kind == "reroll" and m.variant == "until" and static and _covers_all(m.cp, faces, False):
            raise p.err(
                f"'{m.text}' rerolls every face of d{node.faces.text}: it would never stop (use ro to reroll once)",
                m.pos,
                ru=f"'{m.text}' перебрасывает каждую грань d{node.faces.text}: переброс не закончится (используйте ro)",
            )
        if m.kind in ("min", "max") and m.n is not None and m.n > 10**limits.MAX_DIGITS:
            raise p.err("clamp value too large", m.pos, cls=DiceLimitError)


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
