"""A readable transcript of one game session (issue 18): Markdown, or a self-contained HTML page.

``session_transcript(seat, n, fmt="md" | "html", locale=...)`` tells what session ``n`` of the
campaign was, as the reader's seat knows it: when it started and ended and its dice commitment
(and its key, once revealed), every roll with its dice, every check with its odds (the exact
chance of success the system gives for the sheet and options it was rolled with), the combat
rounds, the chat, and (for the GM) the GM's notes. Nothing the seat may not see goes in: the
events come from the seat's own query and pass the one audience projection
(:func:`.audience.visible_events`) again, and the combat rounds are read from the players'
projection of the tracker (hidden combatants are not in it).
"""

from __future__ import annotations

import datetime
import html
from fractions import Fraction
from typing import Any, Mapping

from ..core.i18n import T, tr
from .advancement import advancement_line
from .audience import visible_events
from .store import AUDIENCE_ALL

WORDS = {
    "title": T("{title}: session {n}", "{title}: сессия {n}"),
    "campaign": T("Campaign", "Кампания"),
    "started": T("Started", "Начало"),
    "ended": T("Ended", "Конец"),
    "open": T("still open", "ещё идёт"),
    "commitment": T("Dice commitment", "Печать кубиков"),
    "seed": T("Dice key (revealed)", "Ключ кубиков (раскрыт)"),
    "reader": T("As seen by {who}", "Глазами: {who}"),
    "roll": T("rolls", "бросает"),
    "check": T("checks", "проверка"),
    "odds": T("chance {p}", "шанс {p}"),
    "hidden": T("hidden", "скрыто"),
    "round": T("Round {n}", "Раунд {n}"),
    "says": T("says", "говорит"),
    "note": T("GM note", "Заметка ведущего"),
    "initiative": T("Initiative", "Инициатива"),
    "failed": T("roll failed (its dice are spent)", "бросок не удался (кубики потрачены)"),
    "changed_after": T("changed after the roll", "изменено после броска"),
    "nothing": T("Nothing happened in this session.", "В эту сессию ничего не произошло."),
    "after": T("After the session", "После сессии"),
}


def _w(key: str, loc: str, **fmt: Any) -> str:
    return tr(WORDS[key], loc).format(**fmt)


def _when(stamp: Any) -> str:
    if not isinstance(stamp, (int, float)) or isinstance(stamp, bool) or stamp <= 0:
        return ""
    return datetime.datetime.fromtimestamp(stamp, tz=datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _percent(p: Fraction, loc: str) -> str:
    text = f"{float(p) * 100:.1f}%"
    return text.replace(".", ",") if loc == "ru" else text


def _entries(seat, n: int, loc: str) -> tuple[dict[str, Any], list[tuple[str, str, str]]]:
    """The session's facts and its lines ``(kind, who, text)`` as the seat knows them."""
    from .campaign import sessions

    known = {s.n: s for s in sessions(seat.state)}
    if n not in known:
        raise ValueError(f"this campaign has no session {n} (sessions 1 to {max(known)})")
    info = known[n]
    facts = {
        "title": seat.state.title or seat.table_id,
        "n": n,
        "started": _when(info.started),
        "ended": _when(info.ended) if info.ended else _w("open", loc),
        "commitment": info.seed_hash,
        "seed": info.seed or "",
        "reader": seat.name or seat.seat,
    }
    return facts, _session_lines(seat, n, loc)


def _session_lines(seat, n: int, loc: str) -> list[tuple[str, str, str]]:
    """The lines of session ``n``, then (after a heading) the advancement told between it and
    the next session."""
    events = visible_events(seat.events(), seat.reader)  # the seat's query, projected again
    names = {sid: (d.get("name") or sid) for sid, d in seat.state.seats.items()}
    current = 1
    ended = 0  # the session that ended last: what happens before the next one is told after it
    lines: list[tuple[str, str, str]] = []
    rounds: list[int] = []  # the combat rounds told so far
    after_heading = False
    for e in events:
        if e.kind == "session.started":
            current = e.payload["session"]
            continue
        inside = current == n
        if e.kind in ("session.ended",):
            if inside:
                current = -1
            number = e.payload.get("session")
            ended = number if isinstance(number, int) else ended
            continue
        between = current == -1 and ended == n
        if (not inside or current == -1) and not between:
            continue
        who = names.get(e.actor, e.actor)
        advanced = advancement_line(e.payload, loc) if e.kind == "character.update" else None
        if advanced is not None:
            if between and not after_heading:
                after_heading = True
                lines.append(("round", "", _w("after", loc)))
            lines.append(("advance", who, _advance_text(seat, e.payload, advanced)))
        elif not between:  # between sessions only advancement is told (awards after, advances before the next)
            line = _event_line(seat, e, who, loc, rounds)
            if line is not None:
                lines.append(line)
    return lines


def _event_line(seat, e, who: str, loc: str, rounds: list[int]) -> tuple[str, str, str] | None:
    """An event of the session as one line, or None (nothing the transcript tells)."""
    if e.kind == "combat.state":
        return _round_line(e, loc, rounds)
    if e.kind == "note" and not seat.reader.sees(e.audience):
        return None
    line = _LINES.get(e.kind)
    return line(seat, e.payload, who, loc) if line is not None else None


def _hidden_mark(p: Mapping[str, Any], loc: str) -> str:
    return f" ({_w('hidden', loc)})" if p.get("hidden") else ""


def _roll_line(seat, p: Mapping[str, Any], who: str, loc: str) -> tuple[str, str, str]:
    texts = p.get("texts") or {}
    text = texts.get(loc) or p.get("text", "")
    label = p.get("label")
    expr = p.get("expr", "")
    return ("roll", who, (f"{label} ({expr})" if label else expr) + f": {text}{_hidden_mark(p, loc)}")


def _check_line(seat, p: Mapping[str, Any], who: str, loc: str) -> tuple[str, str, str]:
    r = p.get("result") or {}
    label = tr(r.get("label") or {}, loc) or p.get("check_id", "")
    texts = p.get("texts") or {}
    outcome = tr(r.get("outcome") or {}, loc)
    odds = _odds(seat, p)
    character = (p.get("character") or {}).get("name") or p.get("character_id", "")
    text = f"{label} · {character}: {texts.get(loc) or p.get('text', '')}"
    if outcome:
        text += f" — {outcome}"
    if odds is not None:
        text += f" [{_w('odds', loc, p=_percent(odds, loc))}]"
    return ("check", who, text + _hidden_mark(p, loc))


def _check_after_line(seat, p: Mapping[str, Any], who: str, loc: str) -> tuple[str, str, str]:
    """The latest check read again (epic dice after the roll)."""
    r = p.get("result") or {}
    label = tr(r.get("label") or {}, loc) or p.get("check_id", "")
    texts = p.get("texts") or {}
    text = f"{label}, {_w('changed_after', loc)}: {texts.get(loc) or p.get('text', '')}"
    outcome = tr(r.get("outcome") or {}, loc)
    return ("check", who, text + (f" — {outcome}" if outcome else "") + _hidden_mark(p, loc))


def _failed_line(seat, p: Mapping[str, Any], who: str, loc: str) -> tuple[str, str, str]:
    return ("roll", who, f"{p.get('expr') or p.get('check_id') or ''}: {_w('failed', loc)}")


def _note_line(seat, p: Mapping[str, Any], who: str, loc: str) -> tuple[str, str, str]:
    title = p.get("title")
    return ("note", who, (f"{title}: " if title else "") + p.get("text", ""))


#: event kind -> its line (``combat.state`` and advancement are told apart)
_LINES = {
    "roll": _roll_line,
    "check": _check_line,
    "check.after": _check_after_line,
    "roll.failed": _failed_line,
    "initiative": lambda seat, p, who, loc: ("initiative", who, p.get("text", "")),
    "message": lambda seat, p, who, loc: ("message", who, p.get("text", "")),
    "note": _note_line,
}


def _round_line(e, loc: str, rounds: list[int]) -> tuple[str, str, str] | None:
    """A new combat round as the players' tracker shows it (no hidden combatants), once."""
    if e.audience != AUDIENCE_ALL:
        return None
    st = (e.payload.get("state") or {}).get("state") or {}
    rnd = st.get("round")
    if not isinstance(rnd, int) or rnd < 1 or (rounds and rounds[-1] == rnd):
        return None
    rounds.append(rnd)
    combatants = st.get("combatants") or {}
    shown = [
        combatants.get(c, {}).get("name", "") for c in st.get("order") or [] if not combatants.get(c, {}).get("hidden")
    ]
    return ("round", "", _w("round", loc, n=rnd) + (": " + ", ".join(shown) if shown else ""))


def _advance_text(seat, payload: Mapping[str, Any], line: str) -> str:
    """An advance or award as a player reads it: whose character, then what it was."""
    cid = payload.get("character_id")
    name = (seat.state.characters.get(cid) or {}).get("name") or cid
    return line if line.startswith(str(name)) else f"{name}: {line}"


def _odds(seat, payload: Mapping[str, Any]) -> Fraction | None:
    """The exact chance of success of a recorded check (its sheet and options as rolled)."""
    try:
        system = seat.system
        model = system.Character.from_dict(payload["character"])
        return system.chance(model, payload["check_id"], **(payload.get("options") or {}))
    except Exception:  # a check without pass/fail, or one a newer system reads differently
        return None


def session_transcript(seat, n: int | None = None, *, fmt: str = "md", locale: str = "en") -> str:
    """Session ``n`` (default: the current one) as ``seat`` (a :class:`TableSession`) may read
    it: Markdown (``fmt="md"``) or a self-contained HTML page (``fmt="html"``), in ``locale``."""
    if fmt not in ("md", "html"):
        raise ValueError(f"fmt must be 'md' or 'html', not {fmt!r}")
    loc = locale if locale in ("en", "ru") else "en"
    facts, lines = _entries(seat, seat.state.session if n is None else int(n), loc)
    head = [
        (_w("started", loc), facts["started"]),
        (_w("ended", loc), facts["ended"]),
        (_w("commitment", loc), facts["commitment"]),
    ]
    if facts["seed"]:
        head.append((_w("seed", loc), facts["seed"]))
    title = _w("title", loc, title=facts["title"], n=facts["n"])
    reader = _w("reader", loc, who=facts["reader"])
    if fmt == "md":
        out = [f"# {title}", "", f"*{reader}*", ""]
        out += [
            f"- **{k}:** `{v}`" if k in (_w("commitment", loc), _w("seed", loc)) else f"- **{k}:** {v}" for k, v in head
        ]
        out.append("")
        if not lines:
            out.append(_w("nothing", loc))
        for kind, who, text in lines:
            if kind == "round":
                out += ["", f"## {text}", ""]
            elif kind == "note":
                out.append(f"> **{_w('note', loc)}** ({who}): {text}")
            elif kind == "message":
                out.append(f"- **{who}** {_w('says', loc)}: {text}")
            else:
                out.append(f"- **{who}**: {text}")
        return "\n".join(out) + "\n"
    esc = html.escape
    items = []
    for kind, who, text in lines:
        if kind == "round":
            items.append(f'<h2 class="round">{esc(text)}</h2>')
        else:
            label = {"note": _w("note", loc), "message": _w("says", loc)}.get(kind, "")
            items.append(
                f'<p class="{kind}"><b>{esc(who)}</b>'
                + (f" <i>{esc(label)}</i>" if label else "")
                + f": <span>{esc(text)}</span></p>"
            )
    body = "".join(items) or f"<p>{esc(_w('nothing', loc))}</p>"
    facts_html = "".join(f"<dt>{esc(k)}</dt><dd><code>{esc(v)}</code></dd>" for k, v in head)
    return (
        f'<!DOCTYPE html><html lang="{loc}"><head><meta charset="utf-8"><title>{esc(title)}</title>'
        "<style>body{font-family:'DejaVu Sans',system-ui,sans-serif;max-width:760px;margin:24px auto;"
        "padding:0 16px;color:#24243a;line-height:1.45}dt{font-weight:700;margin-top:6px}dd{margin:0}"
        "code{font-family:'DejaVu Sans Mono',monospace;font-size:.85em;word-break:break-all}"
        "h2.round{font-size:1.05em;border-top:1px solid #d3d3df;padding-top:8px}"
        ".note{background:#fff7e0;padding:4px 8px}.message span{font-style:italic}</style></head>"
        f"<body><h1>{esc(title)}</h1><p><i>{esc(reader)}</i></p><dl>{facts_html}</dl>{body}</body></html>"
    )


__all__ = ["session_transcript"]
