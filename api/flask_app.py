"""The Flask class this service runs: Flask, less a check it repeats on every request.

Flask passes every hook and view through ``ensure_sync`` on every request (18 times for a roll), and each
call asks ``inspect.iscoroutinefunction``: about 4% of a roll request's CPU (bench/RESULTS.md). Whether a
function is a coroutine function does not change, so the answer is kept per function (a bound method's
underlying function, as MethodView binds a new instance each request); a coroutine function still goes
through Flask's own ``ensure_sync``. A plain function (a hook, not a method bound anew each request) is found by
one set membership test, without the look-ups of the table.
"""

from __future__ import annotations

from collections.abc import Callable
from inspect import iscoroutinefunction
from typing import Any

from flask import Flask

KEPT_AT_MOST = 4096  # functions made per request (none today) would otherwise grow the table without end


class TrackerFlask(Flask):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._plain: dict[Any, bool] = {}
        self._plain_functions: set[Any] = set()  # functions (not bound methods) known plain: one membership test

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        if func in self._plain_functions:
            return func
        key = getattr(func, "__func__", func)
        plain = self._plain.get(key)
        if plain is None:
            if len(self._plain) >= KEPT_AT_MOST:
                self._plain.clear()
                self._plain_functions.clear()
            plain = self._plain[key] = not iscoroutinefunction(func)
        if plain and key is func:
            self._plain_functions.add(func)
        return func if plain else super().ensure_sync(func)
