"""The names a player types for a system's numbers: ids or the book's words, in any case,
with «ё» or «е», a space or ``_`` between words (``ловкость``, ``{Мелкая моторика}``,
``мелкая_моторика``, ``fine_motor`` are one parameter).

``NameIndex({id: {"en": ..., "ru": ...}})`` answers ``index.id_of(text)`` (the id, or None) and
``index.label(id, locale)``; :func:`name_key` is the comparison key. The systems' roll words
use it so that ``%roll`` and the tray take the Russian names as well as the ids.
"""

from __future__ import annotations

import re
from typing import Iterable, Mapping

#: A multiword name in notation: ``{Мелкая моторика}`` (``@{...}`` reads a sheet number).
BRACED = re.compile(r"\{([^{}]{1,80})\}")


def name_key(text: str) -> str:
    """``"Мелкая  Моторика"``, ``"мелкая_моторика"`` -> ``"мелкая моторика"``; «ё» reads as «е»."""
    text = str(text).strip().strip("{}").strip()
    text = text.casefold().replace("ё", "е").replace("_", " ")
    return re.sub(r"\s+", " ", text)


class NameIndex:
    """Ids and their labels in every language, looked up by :func:`name_key`. A name two ids
    share is left out rather than guessed."""

    def __init__(self, labels: Mapping[str, Mapping[str, str]], extra: Mapping[str, str] | None = None):
        self.labels = {str(k): dict(v) for k, v in labels.items()}
        keys: dict[str, str | None] = {}

        def add(key: str, ident: str) -> None:
            if key:
                keys[key] = ident if keys.get(key, ident) == ident else None

        for ident, label in self.labels.items():
            add(name_key(ident), ident)
            for text in label.values():
                add(name_key(text), ident)
        for text, ident in (extra or {}).items():
            add(name_key(text), ident)
        self._keys = {k: v for k, v in keys.items() if v is not None}

    def id_of(self, text: str) -> str | None:
        return self._keys.get(name_key(text))

    def label(self, ident: str, locale: str = "en") -> str:
        label = self.labels.get(ident) or {}
        return label.get(locale) or label.get("en") or ident

    def names(self) -> Iterable[str]:
        """Every key the index knows (for a word's pattern)."""
        return self._keys.keys()


__all__ = ["BRACED", "NameIndex", "name_key"]
