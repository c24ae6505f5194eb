"""A preheated table kernel waits here for its page's request.

``make play`` keeps a table page's kernel ready before anyone asks for the page (Voila's
``preheat_kernel``): it has run the notebook's imports and stops in
:meth:`TableSession.from_voila`, because the seat's token comes with the request (its query
string). When a page takes the kernel, Voila sends the request's variables (``QUERY_STRING``...)
over a websocket at ``/voila/query/<kernel id>``; they go into ``os.environ`` and the notebook
goes on.

Voila has this wait as ``voila.utils.wait_for_request``, but importing ``voila.utils`` loads
jupyter_server and jupyterlab_server into the kernel: about 45 MB more for as long as the seat
plays (a table kernel is about 62 MB without). The wait is a websocket read: tornado's client,
which the kernel already has, does it here, reading the same variables Voila sets.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from collections.abc import MutableMapping

log = logging.getLogger(__name__)

#: set in the environment once the request's variables are there
RECEIVED = "TABLETOP_VOILA_REQUEST"
#: seconds to reach the server; the request itself may come much later (a kernel waits in the pool)
CONNECT_TIMEOUT = 5.0


def request_url(environ: MutableMapping[str, str]) -> str:
    """Where Voila hands this kernel its request: the variables Voila sets in a pooled kernel
    (``VOILA_APP_IP`` defaults to 127.0.0.1; ``tabletop-widgets play`` sets it to where it listens)."""
    protocol = environ.get("VOILA_WS_PROTOCOL", "ws")
    ip = environ.get("VOILA_APP_IP", "127.0.0.1")
    port = environ.get("VOILA_APP_PORT", "8866")
    base = environ.get("VOILA_WS_BASE_URL", environ.get("VOILA_SERVER_URL", "/"))
    return f"{protocol}://{ip}:{port}{base}voila/query/{environ.get('VOILA_KERNEL_ID', '')}"


async def _receive(url: str) -> str | None:
    from tornado.websocket import websocket_connect

    conn = await websocket_connect(url, connect_timeout=CONNECT_TIMEOUT)
    try:
        return await conn.read_message()
    finally:
        conn.close()


def wait_for_request(environ: MutableMapping[str, str] | None = None) -> bool:
    """In a preheated kernel (``VOILA_PREHEAT=True``), wait for the page's request and put its
    variables into ``environ`` (``os.environ``); True once they are there. Any other kernel
    returns False at once (it was started for its request and has them already). A server that
    cannot be reached is logged and False is returned: the page then finds no token."""
    environ = os.environ if environ is None else environ
    if environ.get("VOILA_PREHEAT", "False") == "False" or environ.get(RECEIVED) == "1":
        return False
    url = request_url(environ)
    got: dict = {}

    def receive() -> None:  # the kernel's own loop is busy running this cell: a loop of our own
        loop = asyncio.new_event_loop()
        try:
            got["info"] = loop.run_until_complete(_receive(url))
        except Exception as exc:  # noqa: BLE001 - reported below, the page says what is missing
            got["error"] = exc
        finally:
            loop.close()

    waiter = threading.Thread(target=receive, name="tabletop-voila-request", daemon=True)
    waiter.start()
    waiter.join()
    info = got.get("info")
    if not info:
        log.warning("no request reached this preheated kernel from %s: %s", url, got.get("error", "closed"))
        return False
    environ.update({str(k): str(v) for k, v in json.loads(info).items()})
    environ[RECEIVED] = "1"  # a second call (the notebook's next cell) does not wait again
    return True


__all__ = ["RECEIVED", "request_url", "wait_for_request"]
