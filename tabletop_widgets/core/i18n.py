"""Bilingual text (re-exported from the bottom layer :mod:`tabletop_widgets.i18n`, where `dice`
can use it without importing `core`)."""

from ..i18n import (
    DEFAULT_LOCALE,
    LOCALES,
    NOUNS,
    T,
    Text,
    TextLike,
    check_locale,
    count,  # noqa: F401
    plural_en,
    plural_ru,
    tr,
)

__all__ = [
    "DEFAULT_LOCALE",
    "LOCALES",
    "NOUNS",
    "T",
    "Text",
    "TextLike",
    "check_locale",
    "count",
    "plural_en",
    "plural_ru",
    "tr",
]
