"""Domain errors. Each carries the HTTP status the API maps it to and a title a person can act on."""

from __future__ import annotations

from typing import Any


class TrackerError(Exception):
    status = 400

    def __init__(self, title: str, detail: str | None = None, errors: dict[str, Any] | None = None) -> None:
        super().__init__(title)
        self.title = title
        self.detail = detail
        self.errors = errors


class NotFound(TrackerError):
    status = 404


class Unprocessable(TrackerError):
    """The request is well formed but the rules (or the state of play) do not allow it."""

    status = 422


class Conflict(TrackerError):
    status = 409


class PreconditionFailed(TrackerError):
    status = 412


class Forbidden(TrackerError):
    """The token may not do this (its role, its heroes or its side)."""

    status = 403
