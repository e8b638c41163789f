"""An aggregate's id as text, as ``str(uuid)`` writes it, worked out once per process for each id.

``str(UUID)`` is Python code (a hex format of the 128-bit integer and five slices), some 7 thousand instructions; a
command names its session's id as text three times (its hash chain's stream, its dice's memo key, its answer's
event id), and every command on a session names the same id.
"""

from __future__ import annotations

from uuid import UUID

KEPT = 4096
_TEXTS: dict[int, str] = {}  # by the id's integer (``UUID.int``): a UUID's own hash is Python code, an int's is not


def id_text(aggregate_id: UUID) -> str:
    text = _TEXTS.get(aggregate_id.int)
    if text is None:
        if len(_TEXTS) >= KEPT:  # bounded: forgotten all at once, then worked out again as used
            _TEXTS.clear()
        text = _TEXTS[aggregate_id.int] = str(aggregate_id)
    return text
