"""The dice terms of the notation: ``NdX`` with its faces, compare points and modifiers
(keep/drop, explode, reroll, success counting, clamps...), and the checks that refuse a term that
would never stop. :class:`DiceSyntax` is a part of :class:`~.parser.Parser` (which holds the
cursor and ``err``); the rest of the grammar is in ``parser.py``."""

from __future__ import annotations

import re

from . import limits
from .diceast import Compare, Dice, Faces, Mod, Node, Unary
from .errors import DiceLimitError

INT_RE = re.compile(r"\d+")
CMP_RE = re.compile(r"(>=|<=|<>|!=|==|=|>|<)")


class DiceSyntax:
    """The dice-term productions of the parser (a mixin: ``self`` is the parser)."""

    # -- dice ------------------------------------------------------------------------------------
    def parse_dice(self, start: int, count) -> Node:
        self.i += 1  # the 'd'
        faces = self.parse_faces()
        if isinstance(count, int):
            self.count_dice(start, count)
        mods = self.parse_mods(group=False)
        node = Dice(start, self.i, count, faces, mods, self.src[start : self.i])
        check_dice_mods(self, node)
        return node

    def parse_faces(self) -> Faces:
        """The faces after the 'd': ``%``, ``F``/``F.1``/``F.2``, ``{1,2,4}``, ``(expr)`` or a number."""
        c = self.text[self.i : self.i + 1]
        if c == "%":
            self.i += 1
            return Faces(sides=100, text="%")
        if c in ("F", "f") and not self.text[self.i : self.i + 2] == "fl":
            return self.fudge_faces()
        if c == "{":
            return self.listed_faces()
        if c == "(":
            return self.computed_faces()
        if c.isdigit():
            return self.numbered_faces()
        raise self.err(
            "expected the number of faces after 'd' (d6, d%, dF, d{1,2,4})",
            ru="после 'd' ожидалось число граней (d6, d%, dF, d{1,2,4})",
        )

    def fudge_faces(self) -> Faces:
        self.i += 1
        kind = "F"
        if self.text.startswith(".1", self.i) or self.text.startswith(".2", self.i):
            kind = "F" + self.text[self.i : self.i + 2]
            self.i += 2
        # dF / dF.2: -1, 0, +1 equally likely; dF.1 (rpg-dice-roller): one -1, four 0, one +1
        values = (-1, 0, 0, 0, 0, 1) if kind == "F.1" else (-1, 0, 1)
        return Faces(values=values, text=kind)

    def listed_faces(self) -> Faces:
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
        return Faces(values=tuple(vals), text=self.src[fstart : self.i])

    def computed_faces(self) -> Faces:
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
        return Faces(computed=inner, text=self.src[fstart : self.i])

    def numbered_faces(self) -> Faces:
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
        return Faces(sides=sides, text=str(sides))

    def count_dice(self, start: int, count: int) -> None:
        """Refuse a literal count past the per-roll limit, and past it for the whole expression."""
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

    def parse_cp(self, default_op: str | None = "=", required=False) -> Compare | None:
        """A compare point: ``>=5``, ``<3``, ``=6``, ``<>1``, or a bare number (``default_op``)."""
        pos = self.i
        m = CMP_RE.match(self.text, self.i)
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
        while self.i < len(self.text):
            mod = self.parse_mod()
            if mod is None:
                break
            mods.append(mod)
        return mods

    def parse_mod(self) -> Mod | None:
        """The modifier at the cursor, or None when none starts there."""
        t = self.text
        pos = self.i
        c = t[self.i]
        s = t[self.i : self.i + 3]
        nxt = t[self.i + 1 : self.i + 2]
        if c == "!":
            return self.bang_mod(pos, s)
        if s.startswith("min") or s.startswith("mi"):
            return self.clamp_mod(pos, "min", "the minimum face")
        if s.startswith("max") or s.startswith("ma"):
            return self.clamp_mod(pos, "max", "the maximum face")
        if c == "e" and (nxt in ("<", ">", "=", "!") or nxt.isdigit()):
            self.i += 1  # d20: e6, e>5
            cp = self.parse_cp("=", required=True)
            return Mod("explode", "explode", None, cp, pos, t[pos : self.i])
        if c == "x":
            return self.foundry_explode_mod(pos)
        if c == "r":
            return self.reroll_mod(pos, s)
        if c == "u":
            return self.unique_mod(pos)
        if s.startswith("dbl"):
            self.i += 3
            cp = self.parse_cp("=", required=True)
            return Mod("double", cp=cp, pos=pos, text=t[pos : self.i])
        if c == "d" and nxt == "f" and (CMP_RE.match(t, self.i + 2) or t[self.i + 2 : self.i + 3].isdigit()):
            raise self.err(
                f"'{t[self.i : self.i + 2]}' is Foundry's deduct/subtract-failures "
                "modifier: here failures are written f after the success compare "
                "point (10d6>=5f1 counts successes minus ones)",
                ru=f"'{t[self.i : self.i + 2]}' — модификатор Foundry (вычесть провалы): "
                "здесь провалы пишутся f после условия успеха (10d6>=5f1)",
            )
        if c in ("k", "p") or (c == "d" and nxt not in ("%", "F", "{", "(")):
            return self.keep_mod(pos, "k" if c == "k" else "d", nxt)
        if c == "f" and not s.startswith("flo"):
            self.i += 1
            cp = self.parse_cp("=", required=True)
            return Mod("failure", cp=cp, pos=pos, text=t[pos : self.i])
        if s.startswith("cs") or s.startswith("cf"):
            self.i += 2
            cp = self.parse_cp("=")
            return Mod("crit", "cs" if s.startswith("cs") else "cf", None, cp, pos, t[pos : self.i])
        if c == "s" and not nxt.isalpha() or s.startswith("sa") or s.startswith("sd"):
            variant, width = {"sd": ("desc", 2), "sa": ("asc", 2)}.get(s[:2], ("asc", 1))
            self.i += width
            return Mod("sort", variant, pos=pos, text=t[pos : self.i])
        if CMP_RE.match(t, self.i):
            # glued compare point: count successes
            cp = self.parse_cp(None, required=True)
            return Mod("success", cp=cp, pos=pos, text=t[pos : self.i])
        return None

    def bang_mod(self, pos: int, s: str) -> Mod:
        """``!``, ``!!``, ``!p``, ``!!p``: explode, compound, penetrate, both."""
        if s.startswith("!!p"):
            variant, self.i = "compound_penetrate", self.i + 3
        elif s.startswith("!!"):
            variant, self.i = "compound", self.i + 2
        elif s.startswith("!p"):
            variant, self.i = "penetrate", self.i + 2
        else:
            variant, self.i = "explode", self.i + 1
        cp = self.parse_cp("=")
        return Mod("explode", variant, None, cp, pos, self.text[pos : self.i])

    def clamp_mod(self, pos: int, kind: str, what: str) -> Mod:
        """``min3``/``mi3``, ``max5``/``ma5``: the lowest or highest face a die shows."""
        self.i += 3 if self.text.startswith(kind, self.i) else 2
        return Mod(kind, n=self.int_here(what), pos=pos, text=self.text[pos : self.i])

    def foundry_explode_mod(self, pos: int) -> Mod:
        """Foundry: x (on max), xo (once), x5 (on 5), x>=5, x3<5 (at most 3 explosions, on <5)."""
        t = self.text
        self.i += 1
        once = False
        cap = None
        if self.peek("o"):
            once = True
            self.i += 1
        m = INT_RE.match(t, self.i)
        variant = "explode"
        if m and CMP_RE.match(t, m.end()):
            # Foundry's x3<5: at most 3 explosions for the whole term, not per die
            cap = int(m.group()) if len(m.group()) <= limits.MAX_DIGITS else limits.MAX_EXPLOSIONS + 1
            variant = "explode_term"
            self.i = m.end()
            cp = self.parse_cp(None, required=True)
        else:
            cp = self.parse_cp("=")
        if once:
            cap, variant = 1, "explode"  # xo: each die explodes at most once
        return Mod("explode", variant, cap, cp, pos, t[pos : self.i])

    def reroll_mod(self, pos: int, s: str) -> Mod:
        """``r``/``rr`` (until), ``ro`` (once), ``ra`` (add)."""
        variant, width = {"ro": ("once", 2), "ra": ("add", 2), "rr": ("until", 2)}.get(s[:2], ("until", 1))
        self.i += width
        cp = self.parse_cp("=")
        return Mod("reroll", variant, None, cp, pos, self.text[pos : self.i])

    def unique_mod(self, pos: int) -> Mod:
        """``u``/``uo``: reroll duplicates (until unique, or once)."""
        self.i += 1
        variant = "until"
        if self.peek("o"):
            variant = "once"
            self.i += 1
        # rpg-dice-roller: u<=4 rerolls only the duplicates that match (the sum stays a sum)
        cp = self.parse_cp(None)
        return Mod("unique", variant, cp=cp, pos=pos, text=self.text[pos : self.i])

    def keep_mod(self, pos: int, base: str, nxt: str) -> Mod | None:
        """``kh3``/``kl``/``k3`` keep, ``dl``/``dh``/``d1``/``p`` drop, ``k>5``/``d<3`` select."""
        t = self.text
        if nxt in ("h", "l"):
            self.i += 2
            n = self.int_here("how many dice") if t[self.i : self.i + 1].isdigit() else 1
            return Mod("keep", base + nxt, n, None, pos, t[pos : self.i])
        if nxt.isdigit():
            self.i += 1
            n = self.int_here("how many dice")
            return Mod("keep", "kh" if base == "k" else "dl", n, None, pos, t[pos : self.i])
        if CMP_RE.match(t, self.i + 1):
            self.i += 1
            cp = self.parse_cp(None, required=True)
            return Mod("select", "keep" if base == "k" else "drop", None, cp, pos, t[pos : self.i])
        if nxt == "" or not nxt.isalpha():
            self.i += 1
            return Mod("keep", "kh" if base == "k" else "dl", 1, None, pos, t[pos : self.i])
        return None


def check_counting(p: "DiceSyntax", mods: list[Mod]) -> None:
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


def check_dice_mods(p: "DiceSyntax", node: Dice) -> None:
    check_counting(p, node.mods)
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
