"""gunicorn's gthread worker, its refusals of requests it cannot read written as problem+json.

gunicorn answers a request line over ``limit_request_line``, too many or too large header fields and
other unreadable requests itself, before the application sees them, with a text/html page. Every other
error of this service is application/problem+json with a title a person can act on (api/problems.py);
this worker keeps those refusals the same shape. Errors it does not recognise (the 500s of a broken
application) go to gunicorn's own handler, which logs them with their traceback.
"""

from __future__ import annotations

import json

from gunicorn import util
from gunicorn.http import errors
from gunicorn.workers.gthread import ThreadWorker

from api.problems import PROBLEM

# What gunicorn refuses, as (status, reason phrase, title). The titles say what to change.
_LIMITS: tuple[tuple[type[Exception], int, str, str], ...] = (
    (errors.LimitRequestLine, 414, "URI Too Long",
     "The address is too long; send long values in a JSON body instead of the query string"),
    (errors.LimitRequestHeaders, 431, "Request Header Fields Too Large",
     "The request's headers are too many or too large; send fewer or shorter headers (cookies included)"),
    (errors.UnsupportedTransferCoding, 501, "Not Implemented",
     "That Transfer-Encoding is not supported; send the body with Content-Length or chunked"),
    (errors.ExpectationFailed, 417, "Expectation Failed", "Only 'Expect: 100-continue' is understood; leave the Expect header out"),
    (errors.ForbiddenProxyRequest, 403, "Forbidden", "PROXY protocol lines are accepted only from the configured proxies"),
)
# Everything else a client can get wrong in the bytes of a request: a plain 400.
_UNREADABLE = (
    errors.InvalidRequestLine, errors.InvalidRequestMethod, errors.InvalidHTTPVersion, errors.InvalidHeader,
    errors.InvalidHeaderName, errors.InvalidProxyLine, errors.InvalidProxyHeader, errors.InvalidSchemeHeaders,
    errors.ObsoleteFolding, errors.InvalidChunkSize, errors.ChunkMissingTerminator, errors.InvalidChunkExtension,
)
_UNREADABLE_TITLE = "The request is not valid HTTP/1.1; check the request line and headers your client sends"


def refusal(exc: Exception) -> tuple[int, str, str] | None:
    """(status, reason phrase, title) for a request gunicorn cannot read; None for any other error."""
    if isinstance(exc, (errors.InvalidResponseHeader, errors.InvalidResponseHeaderName)):
        return None  # a header the application tried to send: the server's fault, gunicorn's 500
    for kind, status, reason, title in _LIMITS:
        if isinstance(exc, kind):
            return status, reason, title
    if isinstance(exc, _UNREADABLE):
        return 400, "Bad Request", _UNREADABLE_TITLE
    return None


def problem_bytes(status: int, reason: str, title: str, detail: str) -> bytes:
    """A whole HTTP/1.1 response; the connection closes after it (what is left on it cannot be trusted)."""
    body = json.dumps({"type": "about:blank", "title": title, "status": status, "detail": detail}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: {PROBLEM}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class ProblemThreadWorker(ThreadWorker):
    def handle_error(self, req, client, addr, exc):  # type: ignore[no-untyped-def]
        found = refusal(exc)
        if found is None:
            return super().handle_error(req, client, addr, exc)
        status, reason, title = found
        self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
        try:
            util.write_nonblock(client, problem_bytes(status, reason, title, str(exc)))
        except Exception:
            self.log.debug("Failed to send error message.")
