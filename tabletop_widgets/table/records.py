"""What the table recorded, as the views show it: rolls and checks rebuilt from stored events.

The tray, the log and the dice animation show what the table rolled (the event's outcome), not
a roll of their own: :class:`StoredRoll` and :class:`StoredCheck` give them the same reading
interface as a fresh ``RollResult`` / ``CheckResult`` without rolling again.

Big rolls (issue 21): a roll may have 10,000 dice, and one die as JSON (``{"faces": 10, "value":
7, "counted": true, ...}``) is about 150 bytes, so a ``10000d10`` would not fit in an event. A
roll of more than :data:`BIG_ROLL_DICE` dice is stored *packed* (:func:`pack_result`): each
``dice`` list becomes ``{"packed": ...}`` with the faces run-length encoded and the values and
per-die flags as zlib-compressed, base64 byte arrays (about 5 KB for ``10000d10``), and its
``text`` becomes a bounded summary (:func:`summary_text`: total, counts per face, kept and
dropped). :func:`unpack_result` gives back every die exactly as ``RollResult.to_json()`` had it,
so ``verify`` still compares every die with the seed, and the hash chain covers the packed bytes.
"""

from __future__ import annotations

import base64
import binascii
import html
import zlib
from collections import Counter
from types import SimpleNamespace
from typing import Any, Iterable, Mapping

from ..core.i18n import T, count as count_noun, tr
from ..dice.limits import MAX_DICE
from ..dice.render import OP_SYMBOL
from ..dice.results import Die

#: A roll with more dice than this is stored packed and shown as a summary.
BIG_ROLL_DICE = 100
#: The packed format's name (a reader refuses any other).
PACK_FORMAT = "tt-dice/1"
#: Per-die flags as bits of one byte, in this order.
_FLAG_BITS = ("counted", "dropped", "rerolled", "exploded", "success", "failure")
_CRIT_BITS = {"success": 64, "failure": 128}
#: A summary lists the count of every face when a kind of die shows at most this many values.
SUMMARY_FACES = 20


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def dice_from_json(data: Mapping[str, Any]) -> list[Die]:
    if data.get("results"):
        return [d for sub in data["results"] for d in dice_from_json(sub)]
    out = []
    dice = data.get("dice") or ()
    for d in unpack_dice(dice) if isinstance(dice, Mapping) else dice:
        flags = {k: d[k] for k in ("dropped", "rerolled", "exploded", "success", "failure", "crit") if k in d and d[k]}
        if not d.get("counted", True) and not (flags.get("dropped") or flags.get("rerolled")):
            flags["kept"] = False
        out.append(Die(d.get("faces"), d.get("value"), **flags))
    return out


# --------------------------------------------------------------------------------------------
# big rolls: packed dice, bounded text
# --------------------------------------------------------------------------------------------
class PackError(ValueError):
    """Stored dice that cannot be read back (damaged or edited)."""


def count_dice(data: Mapping[str, Any]) -> int:
    """How many dice a roll's JSON holds (``dice`` lists, packed or not, repetitions included)."""
    total = 0
    for sub in data.get("results") or ():
        if isinstance(sub, Mapping):
            total += count_dice(sub)
    dice = data.get("dice")
    if isinstance(dice, Mapping):
        n = dice.get("count")
        total += n if isinstance(n, int) and not isinstance(n, bool) else 0
    elif isinstance(dice, list):
        total += len(dice)
    return total


def is_big(data: Mapping[str, Any]) -> bool:
    """Whether a roll's JSON is a big roll (stored packed, shown as a summary)."""
    return count_dice(data) > BIG_ROLL_DICE


def is_packed(data: Any) -> bool:
    """Whether a stored roll's JSON (or any of its repetitions) holds packed dice."""
    if not isinstance(data, Mapping):
        return False
    if isinstance(data.get("dice"), Mapping):
        return True
    return any(is_packed(sub) for sub in data.get("results") or ())


def _die_code(d: Mapping[str, Any]) -> int:
    g = d.get
    return (
        (1 if g("counted") else 0)
        | (2 if g("dropped") else 0)
        | (4 if g("rerolled") else 0)
        | (8 if g("exploded") else 0)
        | (16 if g("success") else 0)
        | (32 if g("failure") else 0)
        | _CRIT_BITS.get(g("crit"), 0)
    )


def _die_from_code(faces: Any, value: int, code: int) -> dict[str, Any]:
    return {
        "faces": faces,
        "value": value,
        "counted": bool(code & 1),
        "dropped": bool(code & 2),
        "rerolled": bool(code & 4),
        "exploded": bool(code & 8),
        "success": bool(code & 16),
        "failure": bool(code & 32),
        "crit": "success" if code & 64 else "failure" if code & 128 else None,
    }


def _squeeze(raw: bytes) -> str:
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def _unsqueeze(text: Any, size: int, what: str) -> bytes:
    if not isinstance(text, str):
        raise PackError(f"packed {what} must be text")
    try:
        packed = base64.b64decode(text.encode("ascii"), validate=True)
        inflate = zlib.decompressobj()
        raw = inflate.decompress(packed, size + 1)  # never more than the dice need (no zip bomb)
    except (binascii.Error, zlib.error, UnicodeEncodeError) as exc:
        raise PackError(f"packed {what} cannot be decoded: {exc}") from None
    if len(raw) != size or not inflate.eof:
        raise PackError(f"packed {what} hold {len(raw)} bytes, expected {size}")
    return raw


def pack_dice(dice: list[Mapping[str, Any]]) -> dict[str, Any] | None:
    """One ``dice`` list as its packed form, or ``None`` when it cannot be packed (a value that
    is not a whole number, or a key the format does not know)."""
    known = {"faces", "value", *_FLAG_BITS, "crit"}
    values = []
    faces_runs: list[list[Any]] = []
    codes = bytearray()
    for d in dice:
        v = d.get("value") if type(d) is dict else None
        if type(v) is not int or not known.issuperset(d) or d.get("crit") not in (None, "success", "failure"):
            return None
        values.append(v)
        f = d.get("faces")
        if faces_runs and faces_runs[-1][0] == f and type(faces_runs[-1][0]) is type(f):
            faces_runs[-1][1] += 1
        else:
            faces_runs.append([f, 1])
        codes.append(_die_code(d))
    if not values:
        return None
    base = min(values)
    span = max(values) - base
    width = next((w for w in (1, 2, 4, 8) if span < 256**w), None)
    if width is None:
        return None
    raw = b"".join((v - base).to_bytes(width, "little") for v in values)
    return {
        "format": PACK_FORMAT,
        "count": len(values),
        "faces": faces_runs,
        "base": base,
        "width": width,
        "values": _squeeze(raw),
        "flags": _squeeze(bytes(codes)),
    }


def unpack_dice(packed: Any) -> list[dict[str, Any]]:
    """The per-die list a packed ``dice`` stands for. Raises :class:`PackError`."""
    if not isinstance(packed, Mapping) or packed.get("format") != PACK_FORMAT:
        raise PackError(f"the stored dice are not in the {PACK_FORMAT} format")
    n, base, width = packed.get("count"), packed.get("base"), packed.get("width")
    for name, v in (("count", n), ("base", base), ("width", width)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise PackError(f"packed dice: {name} must be a whole number")
    if not 0 < n <= MAX_DICE or width not in (1, 2, 4, 8):
        raise PackError(f"packed dice: {n} dice of {width} bytes is not a roll")
    runs = packed.get("faces")
    if not isinstance(runs, list) or not all(
        isinstance(r, list) and len(r) == 2 and isinstance(r[1], int) and r[1] > 0 for r in runs
    ):
        raise PackError("packed dice: the faces are not [faces, count] runs")
    if sum(r[1] for r in runs) != n:
        raise PackError("packed dice: the faces do not cover every die")
    raw = _unsqueeze(packed.get("values"), n * width, "values")
    codes = _unsqueeze(packed.get("flags"), n, "flags")
    out = []
    i = 0
    for faces, run in runs:
        for _ in range(run):
            value = base + int.from_bytes(raw[i * width : (i + 1) * width], "little")
            out.append(_die_from_code(faces, value, codes[i]))
            i += 1
    return out


def pack_result(data: Mapping[str, Any]) -> dict[str, Any]:
    """How the table stores a roll's JSON (``RollResult.to_json()``): as it is for a roll of at
    most :data:`BIG_ROLL_DICE` dice; else with every ``dice`` list packed and the ``text`` (of
    the roll and of each repetition) replaced by the bounded :func:`summary_text`."""
    out = dict(data)
    if not is_big(out):
        return out
    return _pack_big(out)


def _pack_big(data: dict[str, Any]) -> dict[str, Any]:
    out = dict(data)
    out["text"] = summary_text(data, "en")  # from the dice as they are (cheaper than unpacking)
    if out.get("results"):
        out["results"] = [_pack_big(dict(sub)) if isinstance(sub, Mapping) else sub for sub in out["results"]]
    dice = out.get("dice")
    if isinstance(dice, list) and dice:
        packed = pack_dice(dice)
        if packed is not None:
            out["dice"] = packed
    return out


def unpack_result(data: Any) -> Any:
    """A stored roll's JSON with every packed ``dice`` list given back die by die (the text stays
    the summary). Anything else is returned as it is. Raises :class:`PackError`."""
    if not isinstance(data, Mapping) or not is_packed(data):
        return data
    out = dict(data)
    if isinstance(out.get("results"), list):
        out["results"] = [unpack_result(sub) for sub in out["results"]]
    if isinstance(out.get("dice"), Mapping):
        out["dice"] = unpack_dice(out["dice"])
    return out


def stored_form(data: Mapping[str, Any], like: Any = None) -> Any:
    """What ``verify`` compares a stored roll with: ``data`` (a fresh ``RollResult.to_json()``)
    as the table stores it, die by die. ``like``: the stored JSON (a roll stored before packing
    existed, never packed, keeps its full text)."""
    if like is not None and not is_packed(like):
        return dict(data)
    return unpack_result(pack_result(data))


def _num(n: int, locale: str) -> str:
    text = f"{n:,}"
    return text.replace(",", "\u00a0") if locale == "ru" else text


def _dice_of(data: Mapping[str, Any]) -> Iterable[Mapping[str, Any]]:
    for sub in data.get("results") or ():
        if isinstance(sub, Mapping):
            yield from _dice_of(sub)
    dice = data.get("dice")
    if isinstance(dice, Mapping):
        yield from unpack_dice(dice)
    elif isinstance(dice, list):
        yield from (d for d in dice if type(d) is dict)


def roll_summary(data: Mapping[str, Any]) -> dict[str, Any]:
    """What a big roll's summary shows: ``{"dice": n, "kept": k, "dropped": d, "faces":
    {faces label: Counter(value -> count)}}`` (``dropped`` counts dice dropped, rerolled away or
    otherwise not counted)."""
    faces: dict[str, Counter] = {}
    by_kind: dict[Any, Counter] = {}
    n = kept = 0
    for d in _dice_of(data):
        n += 1
        if d.get("counted", True):
            kept += 1
        f = d.get("faces")
        key = (type(f), f)
        counter = by_kind.get(key)
        if counter is None:
            label = str(f if f is not None else "?")
            label = label if label.startswith("d") else "d" + label
            counter = by_kind[key] = faces.setdefault(label, Counter())
        counter[d.get("value")] += 1
    return {"dice": n, "kept": kept, "dropped": n - kept, "faces": faces}


SUMMARY_WORDS = {
    "kept": T("{n} kept", "оставлено {n}"),
    "dropped": T("{n} dropped", "отброшено {n}"),
    "range": T("lowest {lo}, highest {hi}", "меньшее {lo}, большее {hi}"),
    "pass": T("pass", "успех"),
    "fail": T("fail", "провал"),
    "total": T("total", "итого"),
}


def _w(key: str, locale: str, **fmt: Any) -> str:
    return tr(SUMMARY_WORDS[key], locale).format(**fmt)


def summary_text(data: Mapping[str, Any], locale: str = "en") -> str:
    """A big roll in one bounded line: ``10000d10: 10,000 dice (d10: 1×1012, 2×987, …) = 55123``.
    The count of every face when a kind of die shows at most :data:`SUMMARY_FACES` values, else
    the lowest and highest; kept and dropped counts when some dice were not counted; the
    verdict of a check. A repetition gives one such line per repetition and the total."""
    results = [r for r in data.get("results") or () if isinstance(r, Mapping)]
    if results:
        lines = [f"{i + 1}: {summary_text(sub, locale)}" for i, sub in enumerate(results)]
        lines.append(f"{_w('total', locale)}: {data.get('total')}")
        return "\n".join(lines)
    s = roll_summary(data)
    parts = []
    for label, counts in s["faces"].items():
        values = sorted(counts, key=lambda v: (not isinstance(v, int), v if isinstance(v, int) else 0, str(v)))
        if len(values) <= SUMMARY_FACES:
            shown = ", ".join(f"{v}×{_num(counts[v], locale)}" for v in values)
        else:
            ints = [v for v in values if isinstance(v, int)]
            shown = _w("range", locale, lo=_num(min(ints), locale), hi=_num(max(ints), locale)) if ints else ""
        parts.append(f"{label}: {shown}")
    head = count_noun(s["dice"], "die", locale).replace(str(s["dice"]), _num(s["dice"], locale), 1)
    if s["dropped"]:
        head += (
            f", {_w('kept', locale, n=_num(s['kept'], locale))}, {_w('dropped', locale, n=_num(s['dropped'], locale))}"
        )
    total = data.get("total")
    successes = data.get("successes")
    check = data.get("check") if isinstance(data.get("check"), Mapping) else None
    if successes is not None and check is None and isinstance(total, int):
        shown_total = count_noun(total, "success", locale)
    else:
        shown_total = str(total)
    line = f"{data.get('expression', '')}: {head} ({'; '.join(parts)}) = {shown_total}"
    if check is not None:
        verdict = _w("pass" if check.get("passed") else "fail", locale)
        op = OP_SYMBOL.get(check.get("op"), check.get("op", ""))
        line += f" {op} {check.get('target', '')} → {verdict}"
    return line


def summary_html(data: Mapping[str, Any], locale: str = "en") -> str:
    """A big roll's summary as HTML (class ``tt-big-roll``): the same facts as
    :func:`summary_text`, the count of each face as a chip; bounded whatever the number of dice."""
    results = [r for r in data.get("results") or () if isinstance(r, Mapping)]
    if results:
        rows = "".join(f"<li>{summary_html(sub, locale)}</li>" for sub in results)
        return (
            f'<div class="tt-roll tt-big-roll tt-roll-repeat"><ol>{rows}</ol>'
            f'<div>{_esc(_w("total", locale))}: <span class="tt-total">{_esc(data.get("total"))}</span></div></div>'
        )
    text = summary_text(data, locale)
    s = roll_summary(data)
    chips = []
    for label, counts in s["faces"].items():
        values = sorted((v for v in counts if isinstance(v, int)), key=int)
        if len(counts) <= SUMMARY_FACES:
            inner = "".join(
                f'<span class="tt-face-count"><b>{_esc(v)}</b>×{_esc(_num(counts[v], locale))}</span>' for v in values
            )
        else:
            inner = _esc(_w("range", locale, lo=_num(min(values), locale), hi=_num(max(values), locale)))
        chips.append(f'<span class="tt-face-group"><span class="tt-face-kind">{_esc(label)}</span>{inner}</span>')
    head = _esc(count_noun(s["dice"], "die", locale).replace(str(s["dice"]), _num(s["dice"], locale), 1))
    if s["dropped"]:
        head += _esc(
            f", {_w('kept', locale, n=_num(s['kept'], locale))}, {_w('dropped', locale, n=_num(s['dropped'], locale))}"
        )
    total = text.rsplit(" = ", 1)[-1]
    return (
        f'<div class="tt-roll tt-big-roll" aria-label="{_esc(text)}">'
        f'<span class="tt-term">{_esc(data.get("expression", ""))}:</span> '
        f'<span class="tt-big-count">{head}</span> {"".join(chips)} = <span class="tt-total">{_esc(total)}</span></div>'
    )


def dice_html(data: Mapping[str, Any], locale: str = "en") -> str:
    """Every die of a roll, compactly (class ``tt-big-dice``): the values in rolling order,
    separated by spaces, a die that does not count struck through. What a big roll's log entry
    shows when the reader opens it (built then, never sent up front)."""
    results = [r for r in data.get("results") or () if isinstance(r, Mapping)]
    if results:
        rows = "".join(f"<li>{dice_html(sub, locale)}</li>" for sub in results)
        return f'<ol class="tt-big-dice tt-roll-repeat">{rows}</ol>'
    groups: list[str] = []
    faces = object()
    cur: list[str] = []
    for d in _dice_of(data):
        f = d.get("faces")
        if f != faces and cur:
            groups.append(_group_html(faces, cur))
            cur = []
        faces = f
        v = _esc(d.get("value"))
        cur.append(v if d.get("counted", True) else f"<s>{v}</s>")
    if cur:
        groups.append(_group_html(faces, cur))
    return f'<div class="tt-big-dice">{"".join(groups)}</div>'


def _group_html(faces: Any, values: list[str]) -> str:
    label = f"d{faces}" if isinstance(faces, int) else str(faces)
    return f'<p><span class="tt-face-kind">{_esc(label)}</span> {" ".join(values)}</p>'


class FaceDownRoll:
    """A blind roll as its roller's tray shows it (:mod:`.kinds.blind`): what was rolled, face
    down: no total, no dice (the roller's page never holds them)."""

    blind = True
    total = None
    passed = None
    dice: list = []
    big = False

    def __init__(self, expression: str, seq: int | None = None, gm: Mapping[str, str] | None = None):
        self.expression = str(expression or "")
        self.seq = seq
        self.gm = dict(gm or {"en": "GM", "ru": "ведущий"})

    def text(self, locale: str | None = None) -> str:
        loc = locale if locale in ("en", "ru") else "en"
        words = T(
            f"{self.expression} rolled blind: face down, only the {self.gm.get('en', 'GM')} sees the result",
            f"Бросок {self.expression} вслепую: кубик лицом вниз, результат видит только {self.gm.get('ru', 'ведущий')}",
        )
        return tr(words, loc)

    def html(self, locale: str | None = None, *, css: bool = True, live: bool = True) -> str:
        return f'<div class="tt-roll tt-facedown"><span class="tt-facedown-die" aria-hidden="true">?</span> {_esc(self.text(locale))}</div>'


class StoredRoll:
    """A roll as the table recorded it (``RollResult.to_json()`` plus its texts): what the tray,
    the log and the dice animation need, without rolling again."""

    def __init__(self, data: Mapping[str, Any], texts: Mapping[str, str] | None = None):
        self.data = dict(data or {})
        self.expression = str(self.data.get("expression", ""))
        self.total = self.data.get("total")
        check = self.data.get("check")
        self.passed = check.get("passed") if isinstance(check, Mapping) else None
        self._texts = {k: v for k, v in (texts or {}).items() if v}
        self._texts.setdefault("en", str(self.data.get("text", "")))

    @property
    def dice(self) -> list[Die]:
        return dice_from_json(self.data)

    @property
    def big(self) -> bool:
        """A big roll: shown as a summary (:func:`summary_html`), its dice on demand."""
        return is_big(self.data)

    def text(self, locale: str | None = None) -> str:
        if locale and locale not in self._texts and self.big:
            return summary_text(self.data, locale)
        return self._texts.get(locale or "en") or self._texts["en"]

    def html(self, locale: str | None = None, *, css: bool = True, live: bool = True) -> str:
        if self.big:
            return summary_html(self.data, locale or "en")
        dice = "".join(
            f'<span class="tt-die{"" if d.counted else " tt-dropped"}'
            f'{" tt-success" if d.success else ""}{" tt-failure" if d.failure else ""}">{_esc(d.value)}</span>'
            for d in self.dice
        )
        total = f' = <span class="tt-total">{_esc(self.total)}</span>' if self.total is not None else ""
        return (
            f'<div class="tt-roll" aria-label="{_esc(self.text(locale))}">'
            f'<span class="tt-term">{_esc(self.expression)}</span>: {dice}{total}</div>'
        )


class StoredCheck:
    """A named check as the table recorded it (``check_json`` of the session)."""

    def __init__(self, payload: Mapping[str, Any]):
        r = payload["result"]
        self.check_id = r.get("check_id")
        self.label = r.get("label") or {}
        self.success = r.get("success")
        self.total = r.get("total")
        self.outcome = r.get("outcome") or {}
        self.critical = r.get("critical")
        self.margin = r.get("margin")
        self.degree = r.get("degree")
        self.degree_label = r.get("degree_label")
        self.details = r.get("details") or {}
        self.options = payload.get("options") or {}
        roll = r.get("roll")
        texts = payload.get("texts") if isinstance(payload.get("texts"), Mapping) else None
        self.roll = StoredRoll(roll, texts) if isinstance(roll, Mapping) else None
        self.effects = [
            SimpleNamespace(trait=e.get("trait"), delta=e.get("delta"), reason=e.get("reason"))
            for e in r.get("effects") or ()
        ]
        self.character_id = payload.get("character_id")
        self.character = payload.get("character") or {}


def check_changes(check: StoredCheck, after: Mapping[str, Any]) -> dict[str, tuple[Any, Any]]:
    """``{trait: (before, after)}`` for the traits the check's effects changed: ``before`` from
    the sheet it was rolled with, ``after`` from the character as the table holds it now."""
    return {
        e.trait: (check.character.get(e.trait), after.get(e.trait))
        for e in check.effects
        if check.character.get(e.trait) != after.get(e.trait)
    }


__all__ = [
    "BIG_ROLL_DICE",
    "PackError",
    "StoredCheck",
    "StoredRoll",
    "check_changes",
    "count_dice",
    "dice_from_json",
    "dice_html",
    "is_big",
    "is_packed",
    "pack_dice",
    "pack_result",
    "roll_summary",
    "stored_form",
    "summary_html",
    "summary_text",
    "unpack_dice",
    "unpack_result",
]
