"""How an event's state becomes the bytes the event store keeps: the library's JSONTranscoder, its encode done by
msgspec wherever that writes the very bytes the library's json would.

The library encodes with ``json.JSONEncoder(default=..., separators=(",", ":"), ensure_ascii=False)``: for a roll's one
event about 80 thousand instructions (its C encoder calls back into Python for every string, and its ``default`` for the
timestamp), the largest single cost of a command's CPU. msgspec writes the same text for the same JSON values: an
object's keys in their order, strings escaped as ``ensure_ascii=False`` escapes them (``"``, ``\\``, and the control
characters, nothing else), integers in decimal, true, false and null. It writes other values differently (a float's
exponent as 1e16 where json writes 1e+16, NaN and Infinity as null, a datetime or UUID inside the state as a plain
string, a tuple as json does but decoded back as a list), so each state msgspec encodes is decoded again (floats
refused) and compared with what was encoded: only when the two are equal are msgspec's bytes kept; any other state is
encoded by the library's json, as before. Equality proves the bytes alike for every value but one: a dict subclass
whose ``items()`` order differs from its insertion order (an OrderedDict after ``move_to_end``), which no event holds.
tests/test_stored_json.py compares both encoders over every stored fixture and freshly played events of every game.

The decoded state is kept beside the bytes (``encoded``), so the hash chain, which hashes each event's state as the
store keeps it, need not decode it a second time (tracker/integrity/hash_chain.py).
"""

from __future__ import annotations

from typing import Any

import msgspec
from eventsourcing.persistence import JSONTranscoder, Transcoding


class _Float(Exception):
    """The encoded state holds a number with a fraction or an exponent."""


def _refuse_float(text: str) -> Any:
    raise _Float(text)


_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(float_hook=_refuse_float)
# What json encodes itself, never through ``default`` (a transcoding registered for one of these is never called).
_JSON_NATIVE = (str, int, float, list, tuple, dict, type(None))


class StoredJSON(JSONTranscoder):
    """The library's JSONTranscoder (its transcodings, its decode), its encode by msgspec where the bytes are alike."""

    def __init__(self) -> None:
        super().__init__()
        self._by_default: dict[type, Transcoding] = {}  # the transcodings json reaches through ``default``

    def register(self, transcoding: Transcoding) -> None:
        super().register(transcoding)
        if not issubclass(transcoding.type, _JSON_NATIVE):
            self._by_default[transcoding.type] = transcoding

    def encode(self, obj: Any) -> bytes:
        return self.encoded(obj)[0]

    def encoded(self, obj: Any) -> tuple[bytes, Any]:
        """The bytes the library's encode writes for ``obj``, and the JSON value they decode to (None when the library's
        json wrote them: then nothing was decoded)."""
        if type(obj) is not dict:
            return super().encode(obj), None
        plain = obj
        by_default = self._by_default
        for key, value in obj.items():  # what json hands to ``default`` at the top (an event's timestamp): as it would
            transcoding = by_default.get(type(value))
            if transcoding is not None:
                if plain is obj:
                    plain = dict(obj)
                plain[key] = {"_type_": transcoding.name, "_data_": transcoding.encode(value)}
        try:
            data = _ENCODER.encode(plain)
            decoded = _DECODER.decode(data)
        except (_Float, TypeError, ValueError, OverflowError, msgspec.MsgspecError):
            return super().encode(obj), None
        if decoded != plain:  # a float, a tuple, a value of another type nested in it: json writes those
            return super().encode(obj), None
        return data, decoded
