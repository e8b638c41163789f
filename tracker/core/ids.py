"""An aggregate's id as text, as ``str(uuid)`` writes it, worked out once per process for each id.

``str(UUID)`` is Python code (a hex format of the 128-bit integer and five slices), some 7 thousand instructions; a
command names its session's id as text three times (its hash chain's stream, its dice's memo key, its answer's
event id), and every command on a session names the same id.
"""

from __future__ import annotations

from functools import lru_cache
from uuid import UUID


@lru_cache(maxsize=4096)
def id_text(aggregate_id: UUID) -> str:
    return str(aggregate_id)
