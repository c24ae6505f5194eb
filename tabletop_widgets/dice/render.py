"""Rendering of roll results and distributions: plain text, HTML and JSON (en and ru).

Text marks: ``~~1~~`` dropped or rerolled away, ``6!`` exploded, ``7✓`` success (``✓✓`` double),
``1✗`` failure, ``20↑`` / ``1↓`` critical success / failure marks.
"""

from __future__ import annotations

import html
from fractions import Fraction

from ..i18n import count as count_noun
from .results import (
    BinOpNode,
    DiceNode,
    Die,
    FuncNode,
    GroupNode,
    LiteralNode,
    ParenNode,
    RollResult,
    UnaryNode,
    WordNode,
)

OP_SYMBOL = {">=": "≥", "<=": "≤", "!=": "≠", "=": "=", ">": ">", "<": "<"}
WORDS = {
    "pass": {"en": "pass", "ru": "успех"},
    "fail": {"en": "fail", "ru": "провал"},
    "margin": {"en": "margin", "ru": "разница"},
    "short": {"en": "short by", "ru": "не хватило"},
    "equal_needs_more": {"en": "exactly {target}: needs more", "ru": "ровно {target}, а нужно больше"},
    "needs": {"en": "needs {n}", "ru": "нужно {n}"},
    "total": {"en": "total", "ru": "итого"},
    "dropped": {"en": "dropped", "ru": "отброшен"},
    "rerolled": {"en": "rerolled", "ru": "переброшен"},
    "exploded": {"en": "exploded", "ru": "взорвался"},
    "success": {"en": "success", "ru": "успех"},
    "failure": {"en": "failure", "ru": "провал"},
    "crit_success": {"en": "critical success", "ru": "критический успех"},
    "crit_failure": {"en": "critical failure", "ru": "критический провал"},
    "value": {"en": "value", "ru": "значение"},
    "mean": {"en": "mean", "ru": "среднее"},
    "chance": {"en": "chance", "ru": "шанс"},
    "cut": {"en": "cut off (unbounded tail)", "ru": "отсечено (бесконечный хвост)"},
}


def w(key: str, locale: str) -> str:
    return WORDS[key].get(locale, WORDS[key]["en"])


def fmt_num(v) -> str:
    if isinstance(v, Fraction):
        return f"{v.numerator}/{v.denominator}"
    return str(v)


# --------------------------------------------------------------------------------------------
# text
# --------------------------------------------------------------------------------------------
def die_text(d: Die) -> str:
    s = str(d.value)
    if d.note:
        s = f"{s}({d.note})"
    if d.added_by == "penetrate":
        s += "p"
    if d.exploded:
        s += "!"
    if d.success:
        s += "✓✓" if d.double else "✓"
    if d.failure:
        s += "✗"
    if d.crit == "success":
        s += "↑"
    elif d.crit == "failure":
        s += "↓"
    if not d.counted:
        s = f"~~{s}~~"
    return s


def _spine(node):
    """A left-deep chain of binary operations as (leftmost operand, operations in order): long
    sums are rendered by iterating, never by recursing once per term."""
    parts = []
    n = node
    while type(n) is BinOpNode and n.op != "^" and (n is node or n.label is None):
        parts.append(n)
        n = n.left
    parts.reverse()
    return n, parts


def operation_text(node, locale: str, render, escape) -> str:
    """A binary operation, a sign or parentheses around what ``render`` makes of the operands
    (:func:`node_text` or :func:`node_html`; ``escape`` the operator for it)."""
    t = type(node)
    if t is UnaryNode:
        return f"{escape(node.op)}{render(node.operand, locale)}"
    if t is ParenNode:
        return f"({render(node.inner, locale)})"
    if node.op == "^":
        return f"{render(node.left, locale)} ^ {render(node.right, locale)}"
    base, parts = _spine(node)
    s = render(base, locale)
    for b in parts:
        s = f"{s} {escape(b.op)} {render(b.right, locale)}"
    return s


def node_text(node, locale: str) -> str:
    t = type(node)
    if t is LiteralNode:
        s = f"{node.text}={fmt_num(node.value)}" if node.text.startswith("@") else (node.text or fmt_num(node.value))
    elif t is DiceNode:
        s = f"{node.text} [{', '.join(die_text(d) for d in node.rolled)}]"
    elif t is BinOpNode or t is UnaryNode or t is ParenNode:
        s = operation_text(node, locale, node_text, str)
    elif t is FuncNode:
        s = f"{node.name}({', '.join(node_text(a, locale) for a in node.args)}) → {fmt_num(node.value)}"
    elif t is GroupNode:
        items = []
        for i, m in enumerate(node.members):
            item = (
                f"{node_text(m, locale)} = {fmt_num(m.value)}"
                if not isinstance(m, LiteralNode)
                else node_text(m, locale)
            )
            if node.success and i < len(node.success) and node.success[i]:
                item += " ✓"
            if node.failure and i < len(node.failure) and node.failure[i]:
                item += " ✗"
            if i < len(node.kept) and not node.kept[i]:
                item = f"~~{item}~~"
            items.append(item)
        s = "{" + ", ".join(items) + "}" + node.text
    elif t is WordNode:
        s = node.breakdown.get(locale) or node.breakdown.get("en") or node.text
    else:  # pragma: no cover
        s = str(getattr(node, "value", node))
    if node.label:
        s += f" [{node.label}]"
    return s


def verdict_text(check, locale: str, with_margin: bool = True) -> str:
    """ "pass (margin +2)" / "fail (short by 1)"; the margin only for >= and > checks (for a
    contest or an equality it means nothing to a player). A strict ``>`` that a total equal to
    its target misses says so ("fail (exactly 10: needs more)"), and a ``>`` miss counts what
    was short up to the smallest passing total (``8 > 10``: short by 3)."""
    word = w("pass" if check.passed else "fail", locale)
    if not with_margin or check.op not in (">=", ">"):
        return word
    if check.passed:
        return f"{word} ({w('margin', locale)} {check.margin:+d})"
    if check.op == ">":
        if check.margin == 0:
            return f"{word} ({w('equal_needs_more', locale).format(target=fmt_num(check.target))})"
        return f"{word} ({w('short', locale)} {abs(check.margin) + 1})"
    return f"{word} ({w('short', locale)} {abs(check.margin)})"


def pool_verdict(r: RollResult, locale: str) -> str | None:
    """A pool's verdict the way the books say it, after a breakdown that already counts the
    successes («→ 3 успеха»): nothing more when one success is all it needs and it has one;
    «→ провал» when it has none; «(нужно 2) → успех» against a higher difficulty. None when
    ``r`` is not a success count checked against a plain number."""
    check = r.check
    if r.successes is None or check is None or check.op != ">=" or r.total != r.successes:
        return None
    details = getattr(r.tree, "details", None) or {}
    if _target_tree(r) is not None or "opponent_successes" in details or "defender_successes" in details:
        return None  # a contest: both sides' counts and the winner say it
    word = w("pass" if check.passed else "fail", locale)
    if not check.passed and any(getattr(d, "crit", None) == "failure" for d in r.dice):
        return ""  # the breakdown ends with «критический провал»: a failure, said once
    if check.target == 1:
        return "" if check.passed else f" → {word}"
    return f" ({w('needs', locale).format(n=fmt_num(check.target))}) → {word}"


def _target_tree(r: RollResult):
    """The check target's own tree when it rolled dice (``1d20+5 vs 1d20+3``), else None."""
    if r.tree is None:  # builds a lazy result's trees, the target's included
        return None
    tt = getattr(r.check, "target_tree", None)
    if tt is None or not any(True for _ in tt.dice()):
        return None
    return tt


def _target_text(r: RollResult, locale: str) -> str:
    tt = _target_tree(r)
    return str(r.check.target) if tt is None else f"{node_text(tt, locale)} = {r.check.target}"


def render_text(
    r: RollResult, locale: str = "en", body: str | None = None, target: str | None = None, *, verdict: bool = True
) -> str:
    """The one-line breakdown. ``body`` and ``target`` (the texts of the expression and of the
    check's target) are given by a fast-path result that writes them without building a tree.
    ``verdict=False`` leaves out the check's pass/fail (a named check's outcome says it)."""
    if r.results:
        lines = [f"{i + 1}: {render_text(sub, locale)}" for i, sub in enumerate(r.results)]
        if len(r.results) > 1:
            lines.append(f"{w('total', locale)}: {r.total}")
        return "\n".join(lines)
    word = False
    if body is None:
        tree = r.tree
        body = node_text(tree, locale) if tree is not None else r.expression
        word = isinstance(tree, WordNode)
    pool = pool_verdict(r, locale) if word and r.show_total else None
    if pool is not None and not verdict:
        pool = ""
    if not r.show_total:
        s = body
    elif pool is not None:
        s = body.rstrip() + pool  # the word's breakdown counts the successes itself
    elif word and r.successes is not None and r.check is None and r.total == r.successes:
        s = body.rstrip()
    elif word and body.rstrip().endswith((f"= {r.total}", f"→ {r.total}")):
        s = body.rstrip()  # the word's own breakdown already ends with its total
    elif word and r.successes is None:
        s = f"{body} = {r.total}"
    elif r.successes is not None and r.check is None:
        s = f"{body} = {count_noun(r.total, 'success', locale)}"
    else:
        s = f"{body} = {r.total}"
    if pool is not None:
        pass
    elif r.check is not None and not verdict:
        if r.show_total and not s.rstrip().endswith((f"= {r.total}", f"→ {r.total}")) and r.successes is None:
            s += f" = {r.total}"
    elif r.check is not None and r.show_total:
        tt = _target_text(r, locale) if target is None else target
        s += f" {OP_SYMBOL.get(r.check.op, r.check.op)} {tt} → {verdict_text(r.check, locale)}"
    elif r.check is not None:
        s += f" → {verdict_text(r.check, locale, with_margin=False)}"
    if r.notes:
        s += " (" + "; ".join(n.get(locale, n.get("en", "")) for n in r.notes) + ")"
    if r.comment:
        s += f"  # {r.comment}"
    return s


# --------------------------------------------------------------------------------------------
# HTML
# --------------------------------------------------------------------------------------------
ROLL_CSS = (
    "<style>.tt-roll{font-family:system-ui,sans-serif;line-height:1.7}"
    # colours: var(--tt-ROLE, light) -- the roles are set only in a dark theme (front/theme.css)
    ".tt-die{display:inline-block;min-width:1.6em;padding:0 .3em;margin:0 .1em;"
    "border:1px solid var(--tt-die-line,#8a8a8a);border-radius:4px;text-align:center;"
    "background:var(--tt-die-bg,#fafafa);font-variant-numeric:tabular-nums}"
    ".tt-die.tt-dropped{opacity:.5;text-decoration:line-through}"
    ".tt-die.tt-crit-success{font-weight:700;color:var(--tt-ok,#1b6e1b);border-width:2px}"
    ".tt-die.tt-crit-failure{font-weight:700;color:var(--tt-bad,#a01d1d);border-width:2px}"
    ".tt-die.tt-success{background:#e3f4e3;border-color:#3a8a3a;color:#14501a}"
    ".tt-die.tt-failure{background:#fbe4e4;border-color:#b03030;color:#7a1414}"
    ".tt-die.tt-exploded::after{content:'!';color:var(--tt-warn,#b35c00)}"
    ".tt-total{font-size:1.25em;font-weight:700;padding:0 .2em}"
    ".tt-pass{color:var(--tt-ok,#1b6e1b);font-weight:600}.tt-fail{color:var(--tt-bad,#a01d1d);font-weight:600}"
    ".tt-term{color:var(--tt-ink-2,#555)}.tt-label{color:var(--tt-effect,#6a4c93);font-style:italic}"
    ".tt-note{color:var(--tt-ink-3,#707070);font-size:.9em}"
    # the dark theme's roles, for a %roll output outside any widget (the widgets' <style> has them too)
    'body[data-jp-theme-light="false"]{--tt-die-bg:#2c2c33;--tt-die-line:#9a9aa8;--tt-ok:#8fd69a;'
    "--tt-bad:#ff9c94;--tt-warn:#f2c46b;--tt-ink-2:#c9c9d4;--tt-ink-3:#a9a9b6;--tt-effect:#d3b4f5}"
    "</style>"
)


def die_html(d: Die, locale: str) -> str:
    classes = ["tt-die"]
    titles = []
    if not d.counted:
        classes.append("tt-dropped")
        titles.append(w("rerolled" if d.rerolled else "dropped", locale))
    if d.exploded:
        classes.append("tt-exploded")
        titles.append(w("exploded", locale))
    if d.success:
        classes.append("tt-success")
        titles.append(w("success", locale))
    if d.failure:
        classes.append("tt-failure")
        titles.append(w("failure", locale))
    if d.crit:
        classes.append(f"tt-crit-{d.crit}")
        titles.append(w(f"crit_{d.crit}", locale))
    text = html.escape(str(d.value) + (f" ({d.note})" if d.note else "") + ("✓" if d.double else ""))
    if not d.counted:
        text = f"<s>{text}</s>"
    title = f' title="{html.escape(", ".join(titles))}"' if titles else ""
    return f'<span class="{" ".join(classes)}"{title}>{text}</span>'


def node_html(node, locale: str) -> str:
    t = type(node)
    if t is DiceNode:
        s = f'<span class="tt-term">{html.escape(node.text)}</span> ' + "".join(
            die_html(d, locale) for d in node.rolled
        )
    elif t is LiteralNode:
        s = html.escape(node_text(node, locale))
    elif t is BinOpNode or t is UnaryNode or t is ParenNode:
        s = operation_text(node, locale, node_html, html.escape)
    elif t is FuncNode:
        s = f"{node.name}({', '.join(node_html(a, locale) for a in node.args)})"
    elif t is GroupNode:
        items = []
        for i, m in enumerate(node.members):
            item = node_html(m, locale)
            if not isinstance(m, LiteralNode):
                item += f" = {fmt_num(m.value)}"
            if i < len(node.kept) and not node.kept[i]:
                item = f'<s class="tt-dropped">{item}</s>'
            items.append(item)
        s = "{" + ", ".join(items) + "}" + html.escape(node.text)
    elif t is WordNode:
        s = (
            html.escape(node.breakdown.get(locale) or node.breakdown.get("en") or node.text)
            + " "
            + "".join(die_html(d, locale) for d in node.rolled)
        )
    else:  # pragma: no cover
        s = html.escape(str(getattr(node, "value", "")))
    if node.label:
        s += f' <span class="tt-label">[{html.escape(node.label)}]</span>'
    return s


_CSS = ROLL_CSS  # old private name


def render_html(r: RollResult, locale: str = "en", css: bool = True, live: bool = True) -> str:
    """The breakdown as HTML. ``css=False`` leaves out the <style> block (include ``ROLL_CSS``
    once yourself); ``live=False`` leaves out ``role="status"`` for pages that announce results
    through their own live region."""
    head = ROLL_CSS if css else ""
    if r.results:
        rows = "".join(f"<li>{render_html(sub, locale, css=False, live=False)}</li>" for sub in r.results)
        return (
            f'{head}<div class="tt-roll tt-roll-repeat"><ol>{rows}</ol>'
            f'<div>{w("total", locale)}: <span class="tt-total">{r.total}</span></div></div>'
        )
    body = node_html(r.tree, locale) if r.tree is not None else html.escape(r.expression)
    if not r.show_total:
        total = ""
    elif r.successes is not None and r.check is None:
        total = f'<span class="tt-total">{html.escape(count_noun(r.total, "success", locale))}</span>'
    else:
        total = f'<span class="tt-total">{r.total}</span>'
    verdict = ""
    if r.check is not None:
        cls = "tt-pass" if r.check.passed else "tt-fail"
        shown = r.show_total
        tt = _target_tree(r) if shown else None
        shown_target = f"{node_html(tt, locale)} = {r.check.target}" if tt is not None else str(r.check.target)
        target = f" {html.escape(OP_SYMBOL.get(r.check.op, r.check.op))} {shown_target}" if shown else ""
        verdict = (
            f'{target} → <span class="{cls}">{html.escape(verdict_text(r.check, locale, with_margin=shown))}</span>'
        )
    notes = "".join(f'<div class="tt-note">{html.escape(n.get(locale, n.get("en", "")))}</div>' for n in r.notes)
    comment = f' <span class="tt-label"># {html.escape(r.comment)}</span>' if r.comment else ""
    role = ' role="status"' if live else ""
    return (
        f'{head}<div class="tt-roll"{role} aria-label="{html.escape(render_text(r, locale))}">'
        f"{body}{' = ' + total if total else ''}{verdict}{comment}{notes}</div>"
    )


# --------------------------------------------------------------------------------------------
# JSON
# --------------------------------------------------------------------------------------------
def result_json(r: RollResult) -> dict:
    out = {
        "expression": r.expression,
        "total": r.total,
        "successes": r.successes,
        "labels": r.labels,
        "comment": r.comment,
        "notes": r.notes,
        "text": render_text(r, "en"),
    }
    if r.check is not None:
        out["check"] = {"op": r.check.op, "target": r.check.target, "passed": r.check.passed, "margin": r.check.margin}
    if r.results:
        out["results"] = [result_json(x) for x in r.results]
    else:
        out["dice"] = [
            {
                "faces": d.faces,
                "value": d.value,
                "counted": d.counted,
                "dropped": d.dropped,
                "rerolled": d.rerolled,
                "exploded": d.exploded,
                "success": d.success,
                "failure": d.failure,
                "crit": d.crit,
            }
            for d in r.dice
        ]
    if r.seed is not None:
        out["seed"] = r.seed
    return out


# --------------------------------------------------------------------------------------------
# distributions
# --------------------------------------------------------------------------------------------
def pct(p: Fraction) -> str:
    v = float(p) * 100
    if v == 0:
        return "0%"
    if v < 0.01:
        return "<0.01%"
    if v >= 99.995 and p != 1:
        return ">99.99%"
    return f"{v:.2f}%"


def distribution_html(dist, locale: str = "en", highlight=None, max_rows: int = 60) -> str:
    """A compact table (value, P(=), P(≥)) with inline bars; the mean and, for checks, the
    chance to pass highlighted. Long supports are shown around the bulk of the mass."""
    rows = dist.table()
    peak = max((p for _, p, _ in rows), default=Fraction(1))
    if len(rows) > max_rows:
        # keep the rows with the most mass, in value order
        keep = sorted(sorted(rows, key=lambda r: -r[1])[:max_rows], key=lambda r: r[0])
        rows = keep
    try:
        mean = dist.mean if len(dist) else Fraction(0)
    except Exception:  # only special outcomes (e.g. a certain fail): no mean to show
        mean = None
    hl_values = set()
    if highlight is not None:
        op, target = highlight
        from .distribution import OPS

        hl_values = {v for v, _, _ in rows if OPS[op](v, target)}
    lines = []
    for v, p, ge in rows:
        width = 0 if peak == 0 else float(p / peak) * 100
        cls = ' class="tt-hl"' if v in hl_values else ""
        shown = html.escape(dist.label(v, locale)) if hasattr(dist, "label") else v
        lines.append(
            f"<tr{cls}><td>{shown}</td><td>{pct(p)}</td><td>{pct(ge)}</td>"
            f'<td class="tt-bar-cell"><div class="tt-bar" style="width:{width:.1f}%"></div></td></tr>'
        )
    extra = []
    if mean is not None:
        extra.append(f'<span class="tt-mean">{w("mean", locale)}: <b>{float(mean):.3f}</b></span>')
    if dist.p_pass is not None:
        extra.append(
            f'<span class="tt-pchance">{w("chance", locale)} ({w("pass", locale)}): <b>{pct(dist.p_pass)}</b></span>'
        )
    if dist.truncated_mass:
        extra.append(f'<span class="tt-note">{w("cut", locale)}: {pct(dist.truncated_mass)}</span>')
    css = (
        "<style>.tt-dist table{border-collapse:collapse;font-family:system-ui,sans-serif;font-size:.9em}"
        ".tt-dist td,.tt-dist th{padding:1px 8px;text-align:right}"
        ".tt-dist .tt-bar-cell{width:240px;text-align:left}"
        ".tt-dist .tt-bar{height:.9em;background:#5b7fb5;border-radius:2px}"
        ".tt-dist tr.tt-hl .tt-bar{background:#3a8a3a}.tt-dist tr.tt-hl td{font-weight:600}"
        ".tt-dist .tt-summary span{margin-right:1.5em}</style>"
    )
    head = f"<tr><th>{w('value', locale)}</th><th>P(=)</th><th>P(≥)</th><th></th></tr>"
    title = html.escape(dist.expression) if dist.expression else ""
    return (
        f'{css}<div class="tt-dist"><div class="tt-summary"><b>{title}</b> {" ".join(extra)}</div>'
        f"<table>{head}{''.join(lines)}</table></div>"
    )
