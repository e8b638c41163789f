"""Bodies sent without a Content-Length (Transfer-Encoding: chunked) held to the same limits as others.

werkzeug reads such a body up to the limit and then stops without a word, so a JSON document
over 1 MB arrived cut short and was answered 400 "not valid JSON", and an import saw a file cut
short. This middleware reads the body before the application does, into a spooled file (in memory
up to 1 MB, on disk beyond), and answers 413 as soon as it passes its limit; under the limit the
application sees an ordinary body with a Content-Length.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterable
from typing import Any

from werkzeug.wsgi import ClosingIterator

SPOOLED_IN_MEMORY = 1024 * 1024
# After refusing, read (and drop) this much more, so a client that sends the whole body before
# reading gets the 413 rather than a reset connection; the connection is closed afterwards.
DRAINED_AFTER_REFUSAL = 8 * 1024 * 1024
CHUNK = 64 * 1024


class ChunkedBodies:
    def __init__(self, app: Callable[..., Iterable[bytes]], limit_for: Callable[[dict[str, Any]], int]) -> None:
        self.app = app
        self.limit_for = limit_for  # the largest body the request's route takes

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("CONTENT_LENGTH") or "chunked" not in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            return self.app(environ, start_response)
        limit = self.limit_for(environ)
        body = tempfile.SpooledTemporaryFile(max_size=SPOOLED_IN_MEMORY)
        size = _copy(environ["wsgi.input"], body.write, limit + 1)
        if size > limit:
            body.close()
            _copy(environ["wsgi.input"], None, DRAINED_AFTER_REFUSAL)
            return _too_large(limit, start_response)
        body.seek(0)
        environ["wsgi.input"] = body
        environ["CONTENT_LENGTH"] = str(size)
        return ClosingIterator(self.app(environ, start_response), body.close)


def _copy(source: Any, write: Callable[[bytes], Any] | None, most: int) -> int:
    """Read up to ``most`` bytes from ``source`` (into ``write``, if given); returns how many."""
    copied = 0
    while copied < most:
        data = source.read(min(CHUNK, most - copied))
        if not data:
            break
        if write is not None:
            write(data)
        copied += len(data)
    return copied


def _too_large(limit: int, start_response: Callable[..., Any]) -> list[bytes]:
    megabytes = f"{limit / (1024 * 1024):g} MB"
    body = json.dumps({
        "type": "about:blank",
        "title": "The request body is too large",
        "status": 413,
        "detail": f"This request may send at most {megabytes}; nothing was recorded. Send less data per request.",
    }).encode()
    start_response("413 Request Entity Too Large", [
        ("Content-Type", "application/problem+json"), ("Content-Length", str(len(body))), ("Connection", "close"),
    ])
    return [body]
