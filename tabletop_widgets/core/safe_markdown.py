"""A small, safe Markdown: what a GM types into a handout, as HTML a page can show.

Everything is HTML-escaped first, so whatever the text holds (``<script>``, ``<img onerror>``,
an ``&`` entity) shows as text; only the tags this module writes itself are HTML. It knows
headings (``#`` to ``###``), paragraphs (a blank line between them; a single line break is kept),
lists (``-`` / ``*`` and ``1.``), quotes (``>``), ``**bold**``, ``*italic*`` / ``_italic_`` and
```code```. Links and images are left as text: a handout's text never loads or opens anything.
"""

from __future__ import annotations

import html
import re

_INLINE = (
    (re.compile(r"`([^`\n]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])"), r"<em>\1</em>"),
    (re.compile(r"(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])"), r"<em>\1</em>"),
)
_HEADING = re.compile(r"^(#{1,3})\s+(.*)$")
_BULLET = re.compile(r"^\s*[-*]\s+(.*)$")
_NUMBER = re.compile(r"^\s*\d{1,4}[.)]\s+(.*)$")
_QUOTE = re.compile(r"^\s*&gt;\s?(.*)$")


def _inline(text: str) -> str:
    for pattern, repl in _INLINE:
        text = pattern.sub(repl, text)
    return text


def markdown_html(text: str) -> str:
    """``text`` (Markdown) as safe HTML (see the module)."""
    out: list[str] = []
    para: list[str] = []
    items: list[str] = []
    list_tag = ""

    def flush() -> None:
        nonlocal list_tag
        if para:
            out.append("<p>" + "<br>".join(_inline(x) for x in para) + "</p>")
            para.clear()
        if items:
            out.append(f"<{list_tag}>" + "".join(f"<li>{_inline(x)}</li>" for x in items) + f"</{list_tag}>")
            items.clear()
            list_tag = ""

    for raw in html.escape(str(text or ""), quote=True).splitlines():
        line = raw.rstrip()
        heading, bullet, number, quote = (p.match(line) for p in (_HEADING, _BULLET, _NUMBER, _QUOTE))
        if not line.strip():
            flush()
        elif heading:
            flush()
            level = len(heading.group(1)) + 2  # h3..h5: a handout sits inside a page
            out.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif bullet or number:
            tag = "ul" if bullet else "ol"
            if para or (items and list_tag != tag):
                flush()
            list_tag = tag
            items.append((bullet or number).group(1))
        elif quote:
            flush()
            out.append(f"<blockquote>{_inline(quote.group(1))}</blockquote>")
        else:
            if items:
                flush()
            para.append(line)
    flush()
    return "\n".join(out)


__all__ = ["markdown_html"]


_PLAIN_INLINE = tuple((pattern, r"\1") for pattern, _html in _INLINE)


def markdown_plain(text: str) -> str:
    """``text`` (Markdown) as one plain line for a log: the marks taken off (``**V.**`` reads
    V.), headings, list marks and quote marks dropped, the lines joined with spaces."""
    lines = []
    for raw in str(text or "").splitlines():
        line = raw.strip()
        for prefix in (_HEADING, _BULLET, _NUMBER):
            m = prefix.match(line)
            if m:
                line = m.group(m.lastindex)
        line = re.sub(r"^>\s?", "", line)
        for pattern, repl in _PLAIN_INLINE:
            line = pattern.sub(repl, line)
        if line:
            lines.append(line)
    return " ".join(lines)
