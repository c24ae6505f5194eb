"""The ``ld`` roll word for ``%roll`` (spec §5.10).

    ld <pool> [dc K] [-Ns|+Ns] [eN] [vs ld <pool> [-Ns|+Ns] [eN]] [dmg W [armour A]] [zone Z] [maxhp H]

``<pool>`` is an integer expression (``4``, ``3+2-1``) or, when a character is bound (``%sheet`` or
the dice tray: ``variables[CHARACTER_KEY]``), sheet keys (``dexterity+alertness``, ``init``), a check
id (``dexterity+stealth``, which brings the untrained rule and the helmet's Alertness dice) or a
skill alone (``ld stealth`` = its parameter + the skill). Without a bound character those forms
raise a DiceError saying a character must be bound.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from tabletop_widgets.core import T
from tabletop_widgets.dice import DiceError, DiceWord, Distribution, check_from, word_result

from tabletop_widgets.dice.words import CHARACTER_KEY
from tabletop_widgets.core.data import DataTables
from tabletop_widgets.core.names import NameIndex
from tabletop_widgets.core.wording import ru_n

from .checks import breakdown, faces_dice, resolve
from .model import PARAM_LABELS, SKILL_KEY_RE
from . import data
from .attacks import ZONE_PENALTY, damage_distribution, resolve_attack
from .dice import net_law, read_faces, roll_faces
from .options import DEFAULT_RULES

MAX_POOL = 100
_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<smod>[+-]\d+s(?![A-Za-z0-9_]))
  | (?P<epic>e\d+(?![A-Za-z0-9_]))
  | (?P<num>\d+)
  | (?P<op>[+-])
  | (?P<name>\{[^{}]{1,80}\}|[A-Za-z_\u0400-\u04FF][\w:]*)
  | (?P<bad>.)
""",
    re.VERBOSE,
)
KEYWORDS = {"ld", "dc", "vs", "dmg", "armour", "armor", "zone", "maxhp"}
SHEET_KEYS = ("might", "dexterity", "alertness", "complexity", "power", "luck", "initiative", "init", "will")
PARAM_KEYS = ("might", "dexterity", "alertness", "complexity", "power", "luck")


@dataclass
class Side:
    pool: int
    penalty: int = 0  # success modifier below 0 (e.g. -1s)
    bonus: int = 0  # +Ns and epic dice
    epic: int = 0  # of which epic dice (to decrement on a bound sheet)
    text: str = ""

    def law(self) -> dict[int, Fraction]:
        return net_law(max(0, self.pool), self.penalty, self.bonus)


@dataclass
class LdExpression:
    text: str
    left: Side
    right: Side | None = None
    dc: int | None = None
    dmg: int | None = None
    armour: int = 0
    zone: str = "torso"
    maxhp: int | None = None
    options: Mapping[str, Any] = field(default_factory=lambda: DEFAULT_RULES)

    def _att_pool(self) -> int:
        return self.left.pool - (ZONE_PENALTY[self.zone] if self.dmg is not None else 0)

    def roll(self, rng):
        n = self._att_pool()
        a = read_faces(roll_faces(n, rng), penalty=self.left.penalty, epic=self.left.bonus, pool=n, difficulty=self.dc)
        dice = faces_dice(a.faces, a.fumble)
        bd = breakdown(a)
        details: dict[str, Any] = {
            "successes": a.net,
            "crits": a.crits,
            "ones": a.ones,
            "fumble": a.fumble,
            "faces": a.faces,
        }
        check = check_from(a.net, ">=", self.dc) if self.dc is not None else None
        total = a.net
        notes = []
        if self.right is not None:
            d = read_faces(
                roll_faces(self.right.pool, rng),
                penalty=self.right.penalty,
                epic=self.right.bonus,
                pool=self.right.pool,
            )
            dice += faces_dice(d.faces, d.fumble)
            bd2 = breakdown(d)
            bd = T(bd["en"] + " vs " + bd2["en"], bd["ru"] + " против " + bd2["ru"])
            details.update(defender_successes=d.net, defender_crits=d.crits, defender_faces=d.faces)
            check = check_from(a.net, ">", d.net)  # ties go to the defender (L37)
            if a.net <= d.net:
                notes.append(T("tie or less: the defender wins", "равенство или меньше: побеждает защитник"))  # L37
            if self.dmg is not None:
                out = resolve_attack(
                    a, d, self.dmg, self.armour, zone=self.zone, target_max_hp=self.maxhp, options=self.options
                )
                total = out.damage
                details.update(
                    hit=out.hit,
                    damage=out.damage,
                    armour_pierced=out.armour_pierced,
                    zone_effect=out.zone_effect.kind if out.zone_effect else None,
                )
                if out.armour_pierced:
                    notes.append(T("more crits: armour ignored", "больше критов: броня не учитывается"))  # L274
                if out.zone_effect:
                    notes.append(out.zone_effect.label)
        elif self.dmg is not None:
            from .dice import PoolResult

            out = resolve_attack(
                a,
                PoolResult.zero(),
                self.dmg,
                self.armour,
                zone=self.zone,
                target_max_hp=self.maxhp,
                options=self.options,
            )
            total = out.damage
            details.update(hit=out.hit, damage=out.damage, armour_pierced=out.armour_pierced)
        return word_result(self.text, "ld", total, dice, bd, check=check, successes=a.net, notes=notes, details=details)

    def distribution(self) -> Distribution:
        la = self.left.law() if self.dmg is None else None
        if self.dmg is not None:
            r = self.right
            return damage_distribution(
                self.left.pool,
                r.pool if r else None,
                self.dmg,
                self.armour,
                zone=self.zone,
                att_epic=self.left.bonus,
                att_penalty=self.left.penalty,
                def_epic=r.bonus if r else 0,
                def_penalty=r.penalty if r else 0,
                options=self.options,
            )
        if self.right is not None:
            lr = self.right.law()
            out: dict[int, Fraction] = {}
            for x, px in la.items():
                for y, py in lr.items():
                    out[x - y] = out.get(x - y, Fraction(0)) + px * py
            p = sum((v for k, v in out.items() if k > 0), Fraction(0))
            return Distribution(out, p_pass=p, expression=self.text, outcome="margin")
        p = None if self.dc is None else sum((v for k, v in la.items() if k >= self.dc), Fraction(0))
        return Distribution(la, p_pass=p, expression=self.text)


def sheet_names(tables: DataTables) -> NameIndex:
    """Parameters and skills by id or by the book's name (any case, «ё» or «е», a name of
    several words in braces: ``{Ловкость}+{скрытность}``), skills from ``tables``."""
    labels = {k: dict(v) for k, v in PARAM_LABELS.items()}
    labels["initiative"] = T("Initiative", "Инициатива")
    labels["will"] = T("Will", "Воля")
    for row in tables.rows("skills"):
        labels.setdefault(row["id"], T(row.get("en") or row["id"], row.get("ru") or row["id"]))
    return NameIndex(labels)


class _Parser:
    def __init__(self, text: str, start: int, end: int, character=None, *, options: Mapping[str, Any]):
        self.text, self.end, self.character, self.options = text, end, character, options
        self.names = sheet_names(character.TABLES if character is not None else data.TABLES)
        self.toks = []
        pos = start
        while pos < end:
            m = _TOKEN.match(text, pos, end)
            kind = m.lastgroup
            if kind == "bad":
                raise DiceError(
                    f"unexpected {m.group()!r} in an ld roll",
                    pos,
                    text,
                    message_ru=f"неожиданный символ {m.group()!r} в броске ld",
                )
            if kind != "ws":
                self.toks.append((kind, m.group(), pos))
            pos = m.end()
        self.i = 0

    def _to_id(self, name: str) -> str:
        return self.names.id_of(name) or name.lower()

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else (None, None, self.end)

    def take(self):
        t = self.peek()
        self.i += 1
        return t

    def expect_word(self, word):
        k, v, p = self.take()
        if k != "name" or v.lower() != word:
            raise DiceError(f"expected {word!r}", p, self.text, message_ru=f"ожидалось {word!r}")

    def number(self, what):
        k, v, p = self.take()
        if k != "num":
            raise DiceError(f"expected a number for {what}", p, self.text, message_ru=f"ожидалось число ({what})")
        return int(v)

    def side(self) -> Side:
        self.expect_word("ld")
        start_pos = self.peek()[2]
        total, penalty = 0, 0
        sign = 1
        first = True
        while True:
            k, v, p = self.peek()
            if k == "op" and not first:
                self.take()
                sign = 1 if v == "+" else -1
                k, v, p = self.peek()
            elif not first:
                break
            if k == "num":
                self.take()
                total += sign * int(v)
            elif k == "name" and v.lower() not in KEYWORDS:
                self.take()
                n, pen = self.sheet_value(v, p, sign)
                total += n
                penalty += pen
            else:
                raise DiceError(
                    "expected a pool size (a number or a sheet key)",
                    p,
                    self.text,
                    message_ru="ожидался размер пула (число или ключ листа)",
                )
            first = False
        if total > MAX_POOL:
            raise DiceError(
                f"at most {MAX_POOL} dice in a pool",
                start_pos,
                self.text,
                message_ru=f"в пуле не больше {ru_n(MAX_POOL, 'кубика', 'кубиков', 'кубиков')}",
            )
        s = Side(total, penalty)
        while True:
            k, v, p = self.peek()
            if k == "smod":
                self.take()
                n = int(v[:-1])
                if n < 0:
                    s.penalty += -n
                else:
                    s.bonus += n
            elif k == "epic":
                self.take()
                n = int(v[1:])
                if self.character is not None and n > self.character.epic_dice:
                    raise DiceError(
                        f"only {self.character.epic_dice} epic dice left",
                        p,
                        self.text,
                        message_ru=f"осталось эпик-дайсов: {self.character.epic_dice}",
                    )
                s.bonus += n
                s.epic += n
            else:
                break
        return s

    def _check(self, check_id, pos):
        try:
            spec = resolve(self.character, check_id, options=self.options)
        except ValueError as e:
            ru = e.text("ru") if hasattr(e, "text") else f"проверка {check_id!r} невозможна: {e}"
            raise DiceError(str(e), pos, self.text, message_ru=ru) from None
        return spec

    def sheet_value(self, name, pos, sign):
        name_l = name.lower()
        if self.character is None:
            raise DiceError(
                f"{name!r} reads a character sheet: bind a character first (%sheet <name> or the "
                f"dice tray), or give a number of dice",
                pos,
                self.text,
                message_ru=f"{name!r} берётся из листа персонажа: сначала привяжите персонажа "
                f"(%sheet <имя> или лоток кубиков) или укажите число кубиков",
            )
        c = self.character
        name_l = self._to_id(name)  # the book's name (Ловкость, {скрытность}) or the id
        # a check id such as dexterity+stealth is written with '+' between tokens: handle pairs
        k2, v2, p2 = self.peek()
        if name_l in PARAM_KEYS and k2 == "op" and v2 == "+":
            k3, v3, p3 = self.toks[self.i + 1] if self.i + 1 < len(self.toks) else (None, None, self.end)
            if k3 == "name" and self._to_id(v3) not in SHEET_KEYS and v3.lower() not in KEYWORDS:
                self.i += 2
                spec = self._check(f"{name_l}+{self._to_id(v3)}", p3)
                return sign * spec.pool, spec.penalty
        if name_l in ("initiative", "init"):
            return sign * c.initiative_pool, 0  # Dex + Alert + 2 Speed - 1 closed helmet (L220, L159)
        if name_l == "alertness":
            return sign * self._check("alertness", pos).pool, 0  # helmet dice (L159-L160)
        if name_l in SHEET_KEYS:
            return sign * getattr(c, name_l), 0
        # a skill alone: its parameter + the skill (untrained rule included)
        key = name_l
        param = c.skill_param(key) if SKILL_KEY_RE.match(key) else None
        if param is None:
            raise DiceError(
                f"unknown sheet key or skill {name!r} (a parameter, init, will, or a skill with a "
                f"known parameter; else write <parameter>+{name})",
                pos,
                self.text,
                message_ru=f"неизвестный ключ или навык {name!r} (параметр, init, will или навык с "
                f"известным параметром; иначе пишите <параметр>+{name})",
            )
        spec = self._check(f"{param}+{key}", pos)
        return sign * spec.pool, spec.penalty

    def parse(self) -> LdExpression:
        left = self.side()
        e = LdExpression(self.text[self.toks[0][2] : self.end].strip() if self.toks else "", left, options=self.options)
        while True:
            k, v, p = self.peek()
            if k is None:
                break
            w = v.lower() if k == "name" else None
            if w == "dc":
                self.take()
                e.dc = self.number("dc")
                if e.dc < 1:
                    raise DiceError("difficulty must be at least 1", p, self.text, message_ru="сложность не меньше 1")
            elif w == "vs":
                self.take()
                if e.right is not None:
                    raise DiceError("only one 'vs'", p, self.text, message_ru="только один 'vs'")
                e.right = self.side()
            elif w == "dmg":
                self.take()
                e.dmg = self.number("dmg")
            elif w in ("armour", "armor"):
                self.take()
                e.armour = self.number("armour")
            elif w == "maxhp":
                self.take()
                e.maxhp = self.number("maxhp")
            elif w == "zone":
                self.take()
                k2, v2, p2 = self.take()
                if k2 != "name" or v2 not in ZONE_PENALTY:
                    raise DiceError(
                        f"zone must be one of {', '.join(ZONE_PENALTY)}",
                        p2,
                        self.text,
                        message_ru=f"зона: одна из {', '.join(ZONE_PENALTY)}",
                    )
                e.zone = v2
            else:
                raise DiceError(
                    "expected dc, vs, dmg, armour, zone or maxhp",
                    p,
                    self.text,
                    message_ru="ожидалось dc, vs, dmg, armour, zone или maxhp",
                )
        if e.dc is not None and e.right is not None:
            raise DiceError(
                "use either dc or vs, not both",
                0 if not self.toks else self.toks[0][2],
                self.text,
                message_ru="либо dc, либо vs",
            )
        return e


def parse_ld(text: str, start: int = 0, end: int | None = None, *, character=None, options) -> LdExpression:
    """Parse an ``ld`` expression under the GM options ``rules``, sheet keys read from ``character``."""
    end = len(text) if end is None else end
    return _Parser(text, start, end, character, options=options).parse()


def parse_word(text: str, start: int, end: int, variables: Mapping[str, Any] | None = None) -> LdExpression:
    """The %roll entry point: the bound character (``%sheet`` / the tray) comes in ``variables``."""
    character = variables.get(CHARACTER_KEY) if variables else None
    if character is not None and not hasattr(character, "skill_param"):
        raise DiceError(
            "the bound character is not a Life&Death character",
            start,
            text,
            message_ru="привязанный персонаж — не из Life&Death",
        )
    # a system built with_rules() gives its characters its options (RULES)
    options = character.RULES if character is not None else DEFAULT_RULES
    return parse_ld(text, start, end, character=character, options=options)


LD_WORD = DiceWord(
    name="ld",
    system="life_and_death",
    pattern=re.compile(r"ld(?![A-Za-z0-9_])"),
    parse=parse_word,
    help=T(
        "Life&Death d10 pool: ld <dice> [dc K] [-1s] [eN] [vs ld <dice>] [dmg W armour A zone Z maxhp H]; "
        "<dice> is a number or, with a bound character, dexterity+stealth, stealth, init, will...; "
        "6+ succeeds, 10 is a crit, 1s with no success are a critical failure",
        "Пул d10 Life&Death: ld <кубики> [dc K] [-1s] [eN] [vs ld <кубики>] [dmg W armour A zone Z maxhp H]; "
        "<кубики> — число или, с привязанным персонажем, названия из листа: Ловкость+Скрытность, "
        "{Скрытность}, Инициатива, Воля...; "
        "успех на 6+, 10 — крит, единицы без успехов — критический провал",
    ),
    examples=(
        "ld 4",
        "ld 4 dc 2",
        "ld 3 -1s dc 1",
        "ld 6 e2 dc 3",
        "ld 5 vs ld 3",
        "ld 6 vs ld 4 dmg 3 armour 2 zone limb maxhp 10",
        "ld dexterity+stealth dc 2",
        "ld stealth dc 2",
        "ld init",
        "ld will vs ld 3",
    ),
)
