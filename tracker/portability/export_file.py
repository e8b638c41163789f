"""An export file being imported, read line by line from disk instead of held as one text.

An import reads the file twice (the whole-file check, then the events it writes), so the lines
are read afresh from the file each time they are iterated; the file's bytes, its text and the
list of its lines are never all in memory at once. Each line is refused before json.loads sees
it if it nests deeper than any export does (json.loads recurses once per level) or holds text no
event store can keep (a NUL stops PostgreSQL's views; a lone surrogate cannot be encoded).
"""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from typing import IO, Any

import msgspec

from tracker.core import safe_json
from tracker.core.errors import Unprocessable

MAX_LINE_DEPTH = 64  # an exported event nests about ten levels (an undo's restored decks the deepest)
SPOOLED_IN_MEMORY = 1024 * 1024


class ExportLines:
    def __init__(self, file: IO[bytes]) -> None:
        self.file = file  # seekable

    @classmethod
    def spooled(cls, stream: IO[bytes]) -> ExportLines:
        """Copy a stream (a request body) into a temporary file: in memory up to 1 MB, on disk beyond."""
        file = tempfile.SpooledTemporaryFile(max_size=SPOOLED_IN_MEMORY)
        shutil.copyfileobj(stream, file, 64 * 1024)
        return cls(file)

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> ExportLines:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[str]:
        self.file.seek(0)
        for number, raw in enumerate(self.file, start=1):
            _check_line(raw, number)
            # As the whole text was decoded before: bytes that are not UTF-8 become U+FFFD, and the
            # hash check names the line.
            yield raw.decode("utf-8", "replace")


_LINE = msgspec.json.Decoder()


def lean_loads(line: str) -> Any:
    """One line's JSON, as json.loads reads it, in about a third of the memory: msgspec shares the keys that
    every line repeats. What msgspec does not read (NaN, Infinity, a lone surrogate) json reads, as before."""
    try:
        return _LINE.decode(line)
    except msgspec.DecodeError:
        return json.loads(line)


def _check_line(raw: bytes, number: int) -> None:
    if safe_json.depth(raw) > MAX_LINE_DEPTH:
        raise Unprocessable(f"Line {number} nests deeper than an export does; nothing was imported", detail=f"At most {MAX_LINE_DEPTH} levels.")
    if safe_json.may_hold_unstorable_text(raw) or safe_json.may_hold_a_huge_number(raw):
        try:
            problem = safe_json.text_problem(safe_json.decode(raw))
        except safe_json.UnsafeJson as error:
            problem = error.title
        except ValueError:
            return  # not JSON: the file's check names the line
        if problem:
            raise Unprocessable(f"Line {number} cannot be stored; nothing was imported", detail=f"{problem}.")
