"""The page a table link without a valid seat gets (the table notebook shows it instead of a
:class:`~.table_view.TableView`): it loads nothing of the table, nor the rules (only ipywidgets
and the bottom layer's i18n), so a bad link is answered at once."""

from __future__ import annotations

import html

import ipywidgets as widgets

from tabletop_widgets.i18n import LOCALES, T, tr


def seat_error_page(error, locale: str = "en") -> widgets.HTML:
    """The page a link without a valid seat token gets: what is wrong and what to do, in both
    languages; nothing of the table is loaded (``TableSession.join`` refused before reading)."""
    message = getattr(error, "message", None) or {"en": str(error), "ru": str(error)}
    first, second = (locale, "ru" if locale == "en" else "en") if locale in LOCALES else ("en", "ru")
    head = T("No seat at this table", "Нет места за этим столом")
    body = (
        f'<div class="tt-seat-error" role="alert" style="max-width:640px;margin:40px auto;padding:18px 24px;'
        f"border:1px solid #f0b8b8;border-radius:12px;background:#fff4f4;color:#6b1414;"
        f"font-family:'DejaVu Sans',system-ui,sans-serif\">"
        f'<h2 style="margin:0 0 8px">{html.escape(tr(head, first))}</h2>'
        f'<p style="font-size:1.1em">{html.escape(str(message.get(first) or message.get("en", "")))}</p>'
        f'<p lang="{second}" style="color:#8a4a4a">{html.escape(str(message.get(second) or ""))}</p></div>'
    )
    page = widgets.HTML(body)
    page.add_class("tt-seat-error-page")
    return page


__all__ = ["seat_error_page"]
