"""A page's frame at once, its heavy parts filling in after the notebook has run.

Voila sends a page's end only when its kernel has run every cell, and the browser then builds
every widget model the kernel holds before it draws the first view. A page with a character
sheet, a dice tray and a combat tracker spends most of its load there. :class:`PageParts` lets
such a page show its frame first: each heavy part's cell shows a light frame (the part's
container, saying "Loading…" in the page's language), and the last cell calls
:meth:`PageParts.start`, which builds the parts on the kernel's event loop once the notebook has
run, one part at a time with a short pause between two, each put into its frame once it is
built and the browser has drawn the frame (below). Voila sends the page's end as soon as the cells have run, so the parts are built while the browser loads the
page's scripts (about a second); between two parts the kernel answers the browser (its request
for the widgets' states, a click), so a browser that is quicker than the kernel shows the frame
and its "Loading…" and then the parts as they come. (Waiting for the browser before building
was measured too: the frame showed no sooner and the parts came seconds later; see
docs/deploy.md, section 7.)

Why nothing is lost when the browser connects mid-build (ipywidgets 8 in Voila 0.5): the
browser's widget manager asks the kernel for every widget's state once, and the kernel answers
between two parts with every widget made so far; a widget made later reaches the browser as a
``comm_open``, which it takes at any time. A frame, though, is a widget the browser makes from
that answer, and an update of it that arrives before the browser has made it (the kernel cannot
know when the browser connects) is dropped. So a built part goes into its frame only once the
browser has drawn the frame: each frame holds a marker (:class:`PartShown`, drawing nothing) that
tells the kernel so. A page no browser draws (a script run, a closed tab) gets its parts into
their frames after ``HOLD_LIMIT`` seconds.

A frame carries the CSS classes ``tt-part`` and ``tt-part-<name>``, and ``tt-part-loading``
until its part is in (``bench/pages.py`` counts a page complete when no frame is loading). A
part whose build raises shows a clear error in its frame (class ``tt-part-failed``), in both
languages, and the other parts are still built.

With no event loop running (a script, a test), :meth:`PageParts.start` builds every part at
once.
"""

from __future__ import annotations

import asyncio
import html
import logging
from typing import Any, Callable

import anywidget
import ipywidgets as widgets
import traitlets

from tabletop_widgets.front import asset

from .base import close_tree, valid_locale

log = logging.getLogger(__name__)

#: Seconds between two parts' builds, for the kernel to answer the browser meanwhile.
STEP_PAUSE = 0.02
#: Seconds a built part waits for the browser to draw its frame (a page no browser draws, a
#: script run with a loop): then it goes in anyway.
HOLD_LIMIT = 30.0

#: What a frame says while its part is being built, and when the build failed.
TEXTS = {
    "loading": {"en": "Loading…", "ru": "Загрузка…"},
    "failed": {
        "en": "This part of the page could not be built ({error}). Reload the page to try again.",
        "ru": "Эту часть страницы не удалось построить ({error}). Обновите страницу, чтобы попробовать снова.",
    },
}


def _both(key: str, locale: str | None, **values: str) -> str:
    """A text in the page's language: with ``locale``, that language only; without, both, each
    in its ``tt-lang-xx`` span (the page's language switch shows one)."""
    if locale is not None:
        return html.escape(TEXTS[key][locale].format(**values))
    return " ".join(
        f'<span class="tt-lang-{lang}" lang="{lang}">{html.escape(TEXTS[key][lang].format(**values))}</span>'
        for lang in ("en", "ru")
    )


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running the kernel's cells (IPython's kernel runs them inside it), or
    None when none runs (a plain script, a test)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class PartShown(anywidget.AnyWidget):
    """Held by a frame until its part is in; ``shown`` turns True once the browser has drawn it
    (class ``tt-part-shown``; draws nothing). A forged message may set it early: that only puts
    the parts into their frames early in the forger's own page."""

    _esm = asset("shown.js")
    shown = traitlets.Bool(False, help="Whether the browser has drawn the frame").tag(sync=True)


class PageParts:
    """The heavy parts of one page: a frame for each at once, the part built later.

    ``frame(name, build)`` returns the part's frame (a ``VBox``); ``start()`` builds the
    parts in the order their frames were made. ``part(name)`` is a built part;
    ``on_done(callback)`` runs once every part is built (or failed) and in its frame."""

    def __init__(self, locale: str | None = None):
        self.locale = valid_locale(locale) if locale is not None else None
        self._pending: list[tuple[str, widgets.Box, Callable[[], Any]]] = []
        self._names: set[str] = set()
        self._built: dict[str, Any] = {}
        self.errors: dict[str, BaseException] = {}
        self._done_callbacks: list[Callable[[], None]] = []
        self._started = False
        self._holding = False  # built parts wait for the browser to draw their frames (see the module)
        self._drawn: set[str] = set()  # frames the browser has drawn
        self._held: dict[str, tuple[widgets.Box, Any, bool]] = {}
        self._marker_layout = widgets.Layout(display="none")  # one model for every marker

    # -- the frames ---------------------------------------------------------------------------
    def frame(self, name: str, build: Callable[[], Any], *, css_class: str | None = None) -> widgets.Box:
        """A frame for the part ``build()`` makes (a widget), saying "Loading…" until then."""
        if name in self._names:
            raise ValueError(f"a page part named {name!r} already exists")
        if self._started:
            raise RuntimeError("the page's parts are already being built: make every frame before start()")
        self._names.add(name)
        status = widgets.HTML(_both("loading", self.locale), _dom_classes=("tt-part-status",))
        marker = PartShown(layout=self._marker_layout)
        marker.observe(lambda change, name=name: self._on_drawn(name, change), names="shown")
        classes = ("tt-part", f"tt-part-{name}", "tt-part-loading", *((css_class,) if css_class else ()))
        box = widgets.VBox([status, marker], _dom_classes=classes)
        self._pending.append((name, box, build))
        return box

    # -- building -----------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        """Whether every part has been built (or has failed) and is in its frame."""
        return self._started and not self._pending and not self._held

    def part(self, name: str) -> Any:
        """The part built for ``name`` (KeyError while it is not built, or if it failed)."""
        return self._built[name]

    def on_done(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` once every part is in its frame (at once if that is already so)."""
        if self.done:
            callback()
        else:
            self._done_callbacks.append(callback)

    def start(self) -> None:
        """Build the parts after the running cell, one at a time on the kernel's event loop, each
        going into its frame once the browser has drawn the frame; with no loop running, build
        them all now, straight into their frames."""
        if self._started:
            return
        self._started = True
        loop = running_loop()
        if loop is None:
            self.build_all()
            return
        self._holding = True
        loop.call_later(HOLD_LIMIT, self.release)
        loop.call_soon(self._step, loop)

    def release(self) -> None:
        """Put the parts built so far into their frames, and every later one at once."""
        self._holding = False
        for name in list(self._held):
            self._place(name)
        self._finish()

    def build_all(self) -> None:
        """Build every part still pending, now."""
        self._started = True
        while self.build_next():
            pass

    def build_next(self) -> bool:
        """Build the next pending part (into its frame, or held until the frame is drawn); False
        when none was left."""
        if not self._pending:
            return False
        name, box, build = self._pending.pop(0)
        try:
            part, failed = build(), False
        except Exception as exc:  # noqa: BLE001 - any failure is shown in the part's frame
            log.exception("page part %r failed to build", name)
            self.errors[name] = exc
            part, failed = self._failure(exc), True
        else:
            self._built[name] = part
        self._held[name] = (box, part, failed)
        if not self._holding or name in self._drawn:
            self._place(name)
        self._finish()
        return True

    def _on_drawn(self, name: str, change: dict) -> None:
        if change["new"]:
            self._drawn.add(name)
            if name in self._held:
                self._place(name)
                self._finish()

    def _place(self, name: str) -> None:
        box, part, failed = self._held.pop(name)
        self._fill(box, part, failed=failed)

    def _finish(self) -> None:
        if self.done:
            callbacks, self._done_callbacks = self._done_callbacks, []
            for callback in callbacks:
                callback()

    def _step(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.build_next() and self._pending:
            # not call_soon: a message from the browser takes the kernel a few turns of the loop
            # (read, dispatch, the comm's handler, the reply); a short pause lets them all run
            loop.call_later(STEP_PAUSE, self._step, loop)

    def _failure(self, exc: BaseException) -> widgets.HTML:
        error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        return widgets.HTML(
            f'<div class="tt-part-error" role="alert">{_both("failed", self.locale, error=error)}</div>',
            _dom_classes=("tt-part-failure",),
        )

    @staticmethod
    def _fill(box: widgets.Box, part: Any, *, failed: bool) -> None:
        old = box.children
        with box.hold_sync():  # one message: the part and the frame's classes together
            box.children = (part,)
            box.remove_class("tt-part-loading")
            if failed:
                box.add_class("tt-part-failed")
        for widget in old:
            close_tree(widget)
