"""A readable transcript of one game session (issue 18): Markdown, or a self-contained HTML page.

``session_transcript(seat, n, fmt="md" | "html", locale=...)`` tells what session ``n`` of the
campaign was, as the reader's seat knows it: when it started and ended and its dice commitment
(and its key, once revealed), then every line the seat's roll log told, in the same words (each
kind's one renderer, :meth:`.kinds.base.Kind.line`): every roll with its dice, every check with its
odds (the exact chance of success the system gives for the sheet and options it was rolled with),
the fight (each attack, turn and effect as the seat's copy of the tracker told it, under a heading
per round), the chat with its registers and whispers, and (for the GM) the GM's notes. Nothing the
seat may not see goes in: the events come from the seat's own query and pass the one audience
projection (:func:`.audience.visible_events`) again.

Text from the table (a chat line, a name) is written so that it cannot be read as the
transcript's own: in Markdown each line is one line (newlines folded) with Markdown's marks
escaped, so nobody's chat line makes a heading, a note or a roll of its own; in HTML it is escaped.
"""

from __future__ import annotations

import datetime
import html
import re
from fractions import Fraction
from typing import Any

from ..core.i18n import T, tr
from .audience import visible_events
from .kinds import KINDS, SESSION_ENDED, SESSION_STARTED, Line, LineContext, is_kind
from .state import TableState

WORDS = {
    "title": T("{title}: session {n}", "{title}: сессия {n}"),
    "started": T("Started", "Начало"),
    "ended": T("Ended", "Конец"),
    "open": T("still open", "ещё идёт"),
    "commitment": T("Dice commitment", "Печать кубиков"),
    "seed": T("Dice key (revealed)", "Ключ кубиков (раскрыт)"),
    "reader": T("As seen by {who}", "Глазами: {who}"),
    "odds": T("chance {p}", "шанс {p}"),
    "nothing": T("Nothing happened in this session.", "В эту сессию ничего не произошло."),
    "after": T("After the session", "После сессии"),
}

#: the line styles told between two sessions (what the GM awards after a session, what a
#: player buys before the next, a blind roll the GM reveals after its session ended, a player's
#: luck report shared)
BETWEEN = ("advance", "reveal", "luck")


def _w(key: str, loc: str, **fmt: Any) -> str:
    return tr(WORDS[key], loc).format(**fmt)


def _when(stamp: Any) -> str:
    if not isinstance(stamp, (int, float)) or isinstance(stamp, bool) or stamp <= 0:
        return ""
    return datetime.datetime.fromtimestamp(stamp, tz=datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _percent(p: Fraction, loc: str) -> str:
    text = f"{float(p) * 100:.1f}%"
    return text.replace(".", ",") if loc == "ru" else text


_MD_MARKS = re.compile(r"([\\`*_\[\]|<>~])")


def md(text: Any) -> str:
    """Table text as one Markdown line that reads as itself: whitespace (newlines too) folded to
    single spaces (no line of its own: no heading, list item or quote can start in it), and the
    marks of emphasis, code, links, tables and HTML escaped."""
    return _MD_MARKS.sub(r"\\\1", " ".join(str(text or "").split()))


def session_lines(seat, n: int) -> list[tuple[str, Line, dict]]:
    """Session ``n``'s lines as the seat's log tells them, ``(where, line, entry)``: ``where`` is
    ``"in"`` (during the session) or ``"after"`` (between it and the next session: advances and
    awards only)."""
    events = visible_events(seat.events(), seat.reader)  # the seat's query, projected again
    state = TableState(seat.table_id, view=seat.view, full_log=True)
    ctx = LineContext(state, seat.system)
    out: list[tuple[str, Line, dict]] = []
    current, ended, logged = 1, 0, 0
    for e in events:
        state.apply(e)
        new_entries, logged = state.log[logged:], len(state.log)
        if is_kind(e, SESSION_STARTED):
            current = e.payload.get("session")
        if is_kind(e, SESSION_ENDED):
            if current == n:
                current = -1
            number = e.payload.get("session")
            ended = number if isinstance(number, int) else ended
        between = current == -1 and ended == n
        for entry in new_entries:
            kind = KINDS.get(entry.get("kind"))
            if kind is None or kind in (SESSION_STARTED, SESSION_ENDED):
                continue
            if current != n and not between:
                continue
            line = kind.line(entry, kind.read(entry), ctx)
            if line is None or (between and line.style not in BETWEEN):
                continue
            out.append(("after" if between else "in", line, entry))
    return out


def _facts(seat, n: int, loc: str) -> dict[str, Any]:
    from .campaign import sessions

    known = {s.n: s for s in sessions(seat.state)}
    if n not in known:
        raise ValueError(f"this campaign has no session {n} (sessions 1 to {max(known)})")
    info = known[n]
    return {
        "title": seat.state.title or seat.table_id,
        "n": n,
        "started": _when(info.started),
        "ended": _when(info.ended) if info.ended else _w("open", loc),
        "commitment": info.seed_hash,
        "seed": info.seed or "",
        "reader": seat.name or seat.seat,
    }


def _parts(line: Line, loc: str) -> dict[str, str]:
    """A line's words in ``loc``: who, what, the body, the verdict, the effects, the odds."""
    odds = _w("odds", loc, p=_percent(line.odds, loc)) if line.odds is not None else ""
    return {
        "who": line.who,
        "what": tr(line.what, loc),
        "text": tr(line.text, loc),
        "outcome": tr(line.outcome, loc),
        "effects": tr(line.effects, loc),
        "odds": odds,
    }


def _md_line(line: Line, loc: str) -> str:
    p = {k: md(v) for k, v in _parts(line, loc).items()}
    if line.style == "note":
        return f"> **{p['what']}** ({p['who']}): {p['text']}"
    if line.style == "message":
        return f"- **{p['who']}** {p['what']}: {p['text']}"
    body = f"{p['what']}: {p['text']}" if p["what"] and p["text"] else p["what"] or p["text"]
    tail = "".join(
        [f" → {p['outcome']}" if p["outcome"] else "", f" ({p['effects']})" if p["effects"] else ""]
        + ([f" \\[{p['odds']}\\]"] if p["odds"] else [])
    )
    who = f"**{p['who']}**: " if p["who"] else ""
    return f"- {who}{body}{tail}"


def _html_line(line: Line, loc: str) -> str:
    p = {k: html.escape(v) for k, v in _parts(line, loc).items()}
    bits = [
        f'<b class="who">{p["who"]}</b>' if p["who"] else "",
        f'<i class="what">{p["what"]}</i>' if p["what"] else "",
    ]
    body = f'<span class="text">{p["text"]}</span>' if p["text"] else ""
    tail = "".join(
        [
            f' → <span class="outcome">{p["outcome"]}</span>' if p["outcome"] else "",
            f' <span class="effects">({p["effects"]})</span>' if p["effects"] else "",
            f' <span class="odds">[{p["odds"]}]</span>' if p["odds"] else "",
        ]
    )
    head = " ".join(b for b in bits if b)
    return f'<p class="{html.escape(line.style)} {html.escape(line.mode)}">{head}{": " if head and body else ""}{body}{tail}</p>'


def _headed(lines: list[tuple[str, Line, dict]], loc: str) -> list[tuple[str, Any]]:
    """The lines with the transcript's headings: a round's when the fight reaches it (each once),
    "After the session" before the lines told between two sessions."""
    out: list[tuple[str, Any]] = []
    rnd, after = None, False
    for where, line, _entry in lines:
        if where == "after" and not after:
            after = True
            out.append(("heading", _w("after", loc)))
        if line.round is not None and line.round != rnd and line.round > 0:
            rnd = line.round
            from .kinds.combat import WORDS as FIGHT_WORDS

            out.append(("heading", tr(FIGHT_WORDS["round"], loc).format(n=rnd)))
        if line.style != "round":  # a round line is its heading only
            out.append(("line", line))
    return out


def session_transcript(seat, n: int | None = None, *, fmt: str = "md", locale: str = "en") -> str:
    """Session ``n`` (default: the current one) as ``seat`` (a :class:`TableSession`) may read
    it: Markdown (``fmt="md"``) or a self-contained HTML page (``fmt="html"``), in ``locale``."""
    if fmt not in ("md", "html"):
        raise ValueError(f"fmt must be 'md' or 'html', not {fmt!r}")
    loc = locale if locale in ("en", "ru") else "en"
    number = seat.state.session if n is None else int(n)
    facts = _facts(seat, number, loc)
    items = _headed(session_lines(seat, number), loc)
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
        out = [f"# {md(title)}", "", f"*{md(reader)}*", ""]
        codes = (_w("commitment", loc), _w("seed", loc))
        out += [f"- **{k}:** `{v}`" if k in codes else f"- **{k}:** {md(v)}" for k, v in head]
        out.append("")
        if not items:
            out.append(_w("nothing", loc))
        for what, item in items:
            out += ["", f"## {md(item)}", ""] if what == "heading" else [_md_line(item, loc)]
        return "\n".join(out) + "\n"
    esc = html.escape
    body = (
        "".join(
            f'<h2 class="round">{esc(item)}</h2>' if what == "heading" else _html_line(item, loc)
            for what, item in items
        )
        or f"<p>{esc(_w('nothing', loc))}</p>"
    )
    facts_html = "".join(f"<dt>{esc(k)}</dt><dd><code>{esc(v)}</code></dd>" for k, v in head)
    return (
        f'<!DOCTYPE html><html lang="{loc}"><head><meta charset="utf-8"><title>{esc(title)}</title>'
        "<style>body{font-family:'DejaVu Sans',system-ui,sans-serif;max-width:760px;margin:24px auto;"
        "padding:0 16px;color:#24243a;line-height:1.45}dt{font-weight:700;margin-top:6px}dd{margin:0}"
        "code{font-family:'DejaVu Sans Mono',monospace;font-size:.85em;word-break:break-all}"
        "h2.round{font-size:1.05em;border-top:1px solid #d3d3df;padding-top:8px}"
        ".note{background:#fff7e0;padding:4px 8px}.message .text{font-style:italic}"
        ".whisper{color:#5a4a7a}.what{color:#55556a}</style></head>"
        f"<body><h1>{esc(title)}</h1><p><i>{esc(reader)}</i></p><dl>{facts_html}</dl>{body}</body></html>"
    )


__all__ = ["md", "session_lines", "session_transcript"]
