"""Domain errors. Each carries the HTTP status the API maps it to and a title a person can act on."""

from __future__ import annotations

from typing import Any


class TrackerError(Exception):
    status = 400

    def __init__(
        self,
        title: str,
        detail: str | None = None,
        errors: dict[str, Any] | None = None,
        *,
        example: dict[str, Any] | None = None,
        unknown: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(title)
        self.title = title
        self.detail = detail
        self.errors = errors
        # A request body that would be accepted instead (an action's: it names its "type"), shown with the problem.
        self.example = example
        # The lost fact that refused it ({"die": id, "count": n} or {"deck": id, "count": n}): an action's hint
        # names the field of its own body that reports it (tracker/core/hints.py).
        self.unknown = unknown


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
