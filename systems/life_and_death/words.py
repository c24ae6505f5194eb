"""The ``ld`` roll word for ``%roll`` (spec §5.10).

    ld <pool> [dc K] [-Ns|+Ns] [eN] [vs ld <pool> [-Ns|+Ns] [eN]] [dmg W [armour A]] [zone Z] [maxhp H]

``<pool>`` is an integer expression (``4``, ``3+2-1``) or, when a character is bound (``%sheet`` or
the dice tray: the word's ``WordContext``), sheet keys (``dexterity+alertness``, ``init``), a check
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

from tabletop_widgets.dice.scan import Scanner
from tabletop_widgets.dice.words import WordContext
from tabletop_widgets.core.data import DataTables
from tabletop_widgets.core.names import NameIndex
from tabletop_widgets.core.wording import ru_n

from .checks import breakdown, faces_dice, resolve
from .model import PARAM_LABELS, SKILL_KEY_RE, Character
from . import data
from .attacks import ZONE_PENALTY, damage_distribution, resolve_attack
from .dice import net_law, read_faces, roll_faces

MAX_POOL = 100
# the pieces of an ld roll (case as written: ``E2`` is a name, ``e2`` epic dice)
_SMOD = re.compile(r"[+-]\d+s(?![A-Za-z0-9_])")
_EPIC = re.compile(r"e\d+(?![A-Za-z0-9_])")
_NUM = re.compile(r"\d+")
_OP = re.compile(r"[+-]")
_NAME = re.compile(r"\{[^{}]{1,80}\}|[A-Za-z_\u0400-\u04FF][\w:]*")
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
    options: Mapping[str, Any] = field(default_factory=lambda: Character.RULES)

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


class LdReader:
    """Reads one ``ld`` roll from ``text[start:end]`` with the core :class:`Scanner` (positions
    absolute, so an error's caret points into the user's text); sheet keys from ``character``."""

    def __init__(self, text: str, start: int, end: int, character=None, *, options: Mapping[str, Any]):
        self.s = Scanner(text, start, end)
        self.text, self.character, self.options = text, character, options
        self.names = sheet_names(character.TABLES if character is not None else data.TABLES)

    def _to_id(self, name: str) -> str:
        return self.names.id_of(name) or name.lower()

    def error(self, en: str, ru: str, pos: int | None = None) -> DiceError:
        return self.s.error(T(en, ru), pos)

    def _word(self) -> tuple[str | None, int]:
        """The next name (not taken) and where it starts: (None, pos) when none comes next."""
        m = self.s.peek(_NAME)
        return (m.group(), m.start()) if m and not self.s.peek(_EPIC) else (None, self.s.pos)

    def _unexpected(self, en: str, ru: str) -> DiceError:
        """``en``/``ru`` here, or "unexpected <char>" when nothing of an ``ld`` roll starts here."""
        pos = self.s.pos
        if pos < self.s.end and not any(self.s.peek(p) for p in (_NAME, _NUM, _OP)):
            ch = self.text[pos]
            return self.error(f"unexpected {ch!r} in an ld roll", f"неожиданный символ {ch!r} в броске ld", pos)
        return self.error(en, ru, pos)

    def number(self, what: str) -> int:
        m = self.s.take(_NUM)
        if m is None:
            raise self.error(f"expected a number for {what}", f"ожидалось число ({what})", self.s.pos)
        return int(m.group())

    def side(self) -> Side:
        word, pos = self._word()
        if word is None or word.lower() != "ld":
            raise self.error("expected 'ld'", "ожидалось 'ld'", pos)
        self.s.take(_NAME)
        self.s.skip_space()
        start_pos = self.s.pos
        total, penalty = self.term(1)
        while not self.s.peek(_SMOD) and (op := self.s.take(_OP)):
            n, pen = self.term(1 if op.group() == "+" else -1)
            total, penalty = total + n, penalty + pen
        if total > MAX_POOL:
            raise self.error(
                f"at most {MAX_POOL} dice in a pool",
                f"в пуле не больше {ru_n(MAX_POOL, 'кубика', 'кубиков', 'кубиков')}",
                start_pos,
            )
        return self.modifiers(Side(total, penalty))

    def term(self, sign: int) -> tuple[int, int]:
        """One term of a pool: a number, or a sheet key / skill / check id (with its penalty)."""
        if m := self.s.take(_NUM):
            return sign * int(m.group()), 0
        word, pos = self._word()
        if word is None or word.lower() in KEYWORDS:
            raise self._unexpected(
                "expected a pool size (a number or a sheet key)", "ожидался размер пула (число или ключ листа)"
            )
        self.s.take(_NAME)
        return self.sheet_value(word, pos, sign)

    def modifiers(self, side: Side) -> Side:
        """``-Ns`` / ``+Ns`` success modifiers and ``eN`` epic dice after a pool."""
        while True:
            if m := self.s.take(_SMOD):
                n = int(m.group()[:-1])
                if n < 0:
                    side.penalty += -n
                else:
                    side.bonus += n
            elif m := self.s.take(_EPIC):
                n = int(m.group()[1:])
                if self.character is not None and n > self.character.epic_dice:
                    raise self.error(
                        f"only {self.character.epic_dice} epic dice left",
                        f"осталось эпик-дайсов: {self.character.epic_dice}",
                        m.start(),
                    )
                side.bonus += n
                side.epic += n
            else:
                return side

    def check(self, check_id: str, pos: int):
        try:
            return resolve(self.character, check_id, options=self.options)
        except ValueError as e:
            ru = e.text("ru") if hasattr(e, "text") else f"проверка {check_id!r} невозможна: {e}"
            raise DiceError(str(e), pos, self.text, message_ru=ru) from None

    def sheet_value(self, name: str, pos: int, sign: int) -> tuple[int, int]:
        if self.character is None:
            raise self.error(
                f"{name!r} reads a character sheet: bind a character first (%sheet <name> or the "
                f"dice tray), or give a number of dice",
                f"{name!r} берётся из листа персонажа: сначала привяжите персонажа "
                f"(%sheet <имя> или лоток кубиков) или укажите число кубиков",
                pos,
            )
        c = self.character
        key = self._to_id(name)  # the book's name (Ловкость, {скрытность}) or the id
        if key in PARAM_KEYS and (pair := self.check_pair(key)):
            return sign * pair.pool, pair.penalty
        if key in ("initiative", "init"):
            return sign * c.initiative_pool, 0  # Dex + Alert + 2 Speed - 1 closed helmet (L220, L159)
        if key == "alertness":
            return sign * self.check("alertness", pos).pool, 0  # helmet dice (L159-L160)
        if key in SHEET_KEYS:
            return sign * getattr(c, key), 0
        # a skill alone: its parameter + the skill (untrained rule included)
        param = c.skill_param(key) if SKILL_KEY_RE.match(key) else None
        if param is None:
            raise self.error(
                f"unknown sheet key or skill {name!r} (a parameter, init, will, or a skill with a "
                f"known parameter; else write <parameter>+{name})",
                f"неизвестный ключ или навык {name!r} (параметр, init, will или навык с "
                f"известным параметром; иначе пишите <параметр>+{name})",
                pos,
            )
        spec = self.check(f"{param}+{key}", pos)
        return sign * spec.pool, spec.penalty

    def check_pair(self, param: str):
        """A check id written ``param+skill`` (``dexterity+stealth``): its pool spec, both names
        taken; None (nothing taken) when a sheet key or a keyword follows the ``+`` instead."""
        here = self.s.pos
        if self.s.peek(_SMOD) or not self.s.take(r"\+"):
            return None
        word, pos = self._word()
        if word is not None and self._to_id(word) not in SHEET_KEYS and word.lower() not in KEYWORDS:
            self.s.take(_NAME)
            return self.check(f"{param}+{self._to_id(word)}", pos)
        self.s.pos = here
        return None

    def parse(self) -> LdExpression:
        s = self.s
        s.skip_space()
        first = s.pos
        left = self.side()
        e = LdExpression(self.text[first : s.end].strip(), left, options=self.options)
        while not s.at_end():
            self.clause(e)
        if e.dc is not None and e.right is not None:
            raise self.error("use either dc or vs, not both", "либо dc, либо vs", first)
        return e

    def clause(self, e: LdExpression) -> None:
        """One clause after the pool: ``dc K``, ``vs ld ...``, ``dmg W``, ``armour A``, ``zone Z``
        or ``maxhp H``."""
        word, pos = self._word()
        w = word.lower() if word else None
        if w not in ("dc", "vs", "dmg", "armour", "armor", "maxhp", "zone"):
            raise self._unexpected(
                "expected dc, vs, dmg, armour, zone or maxhp", "ожидалось dc, vs, dmg, armour, zone или maxhp"
            )
        self.s.take(_NAME)
        if w == "dc":
            e.dc = self.number("dc")
            if e.dc < 1:
                raise self.error("difficulty must be at least 1", "сложность не меньше 1", pos)
        elif w == "vs":
            if e.right is not None:
                raise self.error("only one 'vs'", "только один 'vs'", pos)
            e.right = self.side()
        elif w == "zone":
            zone, zpos = self._word()
            if zone not in ZONE_PENALTY:
                raise self.error(
                    f"zone must be one of {', '.join(ZONE_PENALTY)}", f"зона: одна из {', '.join(ZONE_PENALTY)}", zpos
                )
            self.s.take(_NAME)
            e.zone = zone
        else:
            setattr(e, {"armor": "armour"}.get(w, w), self.number(w if w != "armor" else "armour"))


def parse_ld(text: str, start: int = 0, end: int | None = None, *, character=None, options) -> LdExpression:
    """Parse an ``ld`` expression under the GM ``options``, sheet keys read from ``character``."""
    return LdReader(text, start, len(text) if end is None else end, character, options=options).parse()


def parse_word(text: str, start: int, end: int, context: WordContext) -> LdExpression:
    """The %roll entry point: the bound character (``%sheet`` / the tray) comes in ``context``."""
    character = context.character
    if character is not None and not hasattr(character, "skill_param"):
        raise DiceError(
            "the bound character is not a Life&Death character",
            start,
            text,
            message_ru="привязанный персонаж — не из Life&Death",
        )
    # a system built with_rules() gives its characters its options (RULES)
    options = character.RULES if character is not None else Character.RULES
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
