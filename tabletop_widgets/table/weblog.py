"""Keep seat links out of the server's logs.

A seat link is ``…?table=<id>&seat=<token>``: whoever reads the token can take the seat. Voila's
server logs request URLs (tornado's access log for every failed request, its warnings for a 404
or 403, tracebacks with the request), and jupyter_server's own scrubbing (``token``, ``auth``,
``key``...; ``extra_log_scrub_param_keys``) runs only in its ``log_request`` function, which
standalone Voila does not use. So this is a logging filter, applied to the handlers that write
the server's log: every record's text has the value of each query parameter whose name contains
one of :data:`SECRET_PARAMS` replaced by ``[secret]``, as jupyter_server does for ``token``.

``voila.json`` (used by ``make play``: Voila reads it from the directory it starts in) wires it
through Voila's ``logging_config``::

    "Voila": {"logging_config": {
        "filters": {"tabletop_scrub": {"()": "tabletop_widgets.table.weblog.ScrubSecrets"}},
        "handlers": {"console": {"filters": ["tabletop_scrub"]},
                     "tabletop_tornado": {"class": "logging.StreamHandler", "level": "WARNING",
                                          "filters": ["tabletop_scrub"]}},
        "loggers": {"tornado": {"handlers": ["tabletop_tornado"], "propagate": false}}}}
"""

from __future__ import annotations

import logging
import re

#: query parameters whose values never reach a log (any parameter whose name contains one)
SECRET_PARAMS = ("seat", "token", "auth", "key", "xsrf")

_PARAM_RE = re.compile(
    r"(?P<name>[A-Za-z0-9_.\-]*(?:%s)[A-Za-z0-9_.\-]*)=(?P<value>[^&\s'\"#<>]*)"
    % "|".join(re.escape(p) for p in SECRET_PARAMS),
    re.IGNORECASE,
)
_QUERY_RE = re.compile(r"\?[^\s'\"<>]*")


def scrub(text: str) -> str:
    """``text`` with the secret query parameters of every URL in it replaced by ``[secret]``."""
    if "=" not in text:
        return text

    def one_query(m: re.Match) -> str:
        return _PARAM_RE.sub(lambda p: f"{p.group('name')}=[secret]", m.group(0))

    return _QUERY_RE.sub(one_query, text)


def voila_logging_config() -> dict:
    """Voila's ``logging_config`` that applies :class:`ScrubSecrets` to Voila's own log and to
    tornado's, and :class:`QuietNoise` to Voila's (the same as in the repository's ``voila.json``;
    for a launcher that starts Voila elsewhere: ``--Voila.logging_config=<this as JSON>`` or
    ``Voila(logging_config=...)``)."""
    return {
        "filters": {
            "tabletop_scrub": {"()": f"{__name__}.ScrubSecrets"},
            "tabletop_quiet": {"()": f"{__name__}.QuietNoise"},
        },
        "handlers": {
            "console": {"filters": ["tabletop_scrub", "tabletop_quiet"]},
            "tabletop_tornado": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "level": "WARNING",
                "filters": ["tabletop_scrub"],
            },
        },
        "loggers": {"tornado": {"handlers": ["tabletop_tornado"], "propagate": False}},
    }


class ScrubSecrets(logging.Filter):
    """A logging filter that scrubs seat tokens (and other secrets) from query strings in a
    record's message and traceback text. It never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: leave it to the handler to report
            return True
        clean = scrub(message)
        if clean != message:
            record.msg, record.args = clean, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = scrub(record.exc_text)
        return True


class QuietNoise(logging.Filter):
    """Drops the server's log lines that say nothing to whoever runs a table: jupyter_server's
    "Notebook %s is not trusted", logged each time Voila reads a page's notebook (ten at
    ``make play``'s start, one more per page). Trust decides whether a notebook's *stored*
    outputs are shown; Voila shows only the outputs it makes by running the notebook, and the
    pages are committed without outputs, so for them the line is noise."""

    NOISE = frozenset({"Notebook %s is not trusted"})

    def filter(self, record: logging.LogRecord) -> bool:
        return record.msg not in self.NOISE
