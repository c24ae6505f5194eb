"""Issue 14, hole 10: seat tokens never reach the server's log.

Served for real: Voila started as ``make play`` starts it (from the repository root, so its
``voila.json`` applies), asked for pages with seat links, its log read afterwards."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tabletop_widgets.table.weblog import ScrubSecrets, scrub, voila_logging_config

from helpers import wait_until

ROOT = Path(__file__).resolve().parents[2]


def test_scrub():
    line = "404 GET /voila/render/table.ipynb?table=abc&seat=s3cr3T-tok_en (127.0.0.1) 3.1ms"
    assert scrub(line) == "404 GET /voila/render/table.ipynb?table=abc&seat=[secret] (127.0.0.1) 3.1ms"
    assert scrub("uri='/x?seat=A&locale=ru&token=B'") == "uri='/x?seat=[secret]&locale=ru&token=[secret]'"
    assert scrub('"Referer": "http://h/t.ipynb?seat=Q1w2"') == '"Referer": "http://h/t.ipynb?seat=[secret]"'
    assert scrub("no query here: seat=3 of 5") == "no query here: seat=3 of 5"


def test_filter_scrubs_messages_args_and_tracebacks():
    record = logging.LogRecord("tornado.access", logging.WARNING, __file__, 1, "%d %s", (404, "GET /t?seat=ABC"), None)
    assert ScrubSecrets().filter(record) and record.getMessage() == "404 GET /t?seat=[secret]"
    try:
        raise RuntimeError("failed on /t.ipynb?table=x&seat=ZZZ")
    except RuntimeError:
        record = logging.LogRecord("tornado.application", logging.ERROR, __file__, 1, "boom", (), sys.exc_info())
    ScrubSecrets().filter(record)
    text = logging.Formatter().format(record)
    assert "ZZZ" not in text and "seat=[secret]" in text


def test_voila_json_carries_the_scrubbing_config():
    import json

    config = json.loads((ROOT / "voila.json").read_text())
    assert config["Voila"]["logging_config"] == voila_logging_config()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            r.read()
            return r.status, dict(r.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers)


def test_served_pages_keep_seat_tokens_out_of_the_log(tmp_path):
    pytest.importorskip("voila")
    port = _free_port()
    log_path = tmp_path / "voila.log"
    env = {**os.environ, "TABLETOP_DB": str(tmp_path / "table.db"), "PYTHONUNBUFFERED": "1"}
    cmd = [
        sys.executable,
        "-m",
        "voila",
        "notebooks",
        "--no-browser",
        f"--port={port}",
        "--Voila.ip=127.0.0.1",
        "--Voila.port_retries=0",
        "--Voila.log_level=DEBUG",
    ]
    base = f"http://127.0.0.1:{port}"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:

            def serving() -> bool:
                assert proc.poll() is None, log_path.read_text()
                try:
                    return _get(base + "/voila/static/voila.js")[0] == 200
                except OSError:
                    return False

            wait_until(serving, 120, "Voila to serve its static files", interval=0.25)
            secrets = ["Sx1secretA", "Sx1secretB", "Sx1secretC"]
            status, headers = _get(f"{base}/voila/render/table.ipynb?table=abcd&seat={secrets[0]}")
            assert status == 403  # a seat link that is not valid: the server's refusal, no kernel
            assert headers.get("Referrer-Policy") == "no-referrer"  # links out do not carry it
            assert _get(f"{base}/voila/render/missing.ipynb?table=abcd&seat={secrets[1]}")[0] == 404
            assert _get(f"{base}/voila/static/missing.js?seat={secrets[2]}&x=1")[0] == 403
            wait_until(
                lambda: "missing.js" in log_path.read_text(errors="replace"), 60, "the server to log the last request"
            )
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)
    text = log_path.read_text(errors="replace")
    assert "seat=[secret]" in text, text[-3000:]  # the requests were logged...
    for s in secrets:
        assert s not in text, f"{s} leaked into the log:\n{text[-3000:]}"  # ...without the tokens


def test_the_not_trusted_line_is_left_out_of_the_server_s_log():
    """The first evening, item 15: ten "Notebook … is not trusted" lines at ``make play``'s start
    (one per ready kernel), one more per page. Every other line stays."""
    from tabletop_widgets.table.weblog import QuietNoise

    noise = logging.LogRecord("Voila", logging.WARNING, __file__, 1, "Notebook %s is not trusted", ("x.ipynb",), None)
    other = logging.LogRecord("Voila", logging.WARNING, __file__, 1, "Notebook %s is big", ("x.ipynb",), None)
    assert QuietNoise().filter(noise) is False and QuietNoise().filter(other) is True
