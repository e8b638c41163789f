"""Is a JSON document (a request body, a line of an imported file) safe to parse and to store?

Three things in well-formed JSON still break the service further in, so they are refused
before anything decodes the document recursively:
- nesting: Python's json (and webargs, which calls it) recurses once per level, so a body of a
  few hundred kilobytes of brackets raises RecursionError; the depth is counted on the raw text,
  with strings taken out, which needs no recursion at all;
- a lone surrogate (``"\\ud800"``): it decodes to a Python string that cannot be encoded as UTF-8,
  so the first write or response that touches it fails;
- NUL (``"\\u0000"``): SQLite keeps it, but PostgreSQL refuses it in text and JSON columns, so an
  event carrying one stops the read views for good.
"""

from __future__ import annotations

import json
import re
import sys
from itertools import accumulate
from typing import Any

MAX_DEPTH = 32  # for request bodies (api/access.py's shape check too): no request document needs more

# A JSON string (the unrolled form does not backtrack), and anything that is not a bracket.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(rb"[^\[\]{}]+")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_SURROGATE = re.compile("[\ud800-\udfff]")
_LONG_DIGITS = re.compile(rb"[0-9]{%d}" % (sys.get_int_max_str_digits() or 10**9))
_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89abAB]|\\u[dD][c-fC-F]")


class UnsafeJson(ValueError):
    """A body the service will not parse; ``title`` says what to change."""

    def __init__(self, title: str) -> None:
        super().__init__(title)
        self.title = title


def depth(raw: bytes) -> int:
    """How deep the document's arrays and objects nest, read without parsing it."""
    brackets = _NOT_BRACKET.sub(b"", _STRING.sub(b"", raw))
    return max(accumulate(_STEP[b] for b in brackets), default=0)


def loads(raw: bytes | str, integral_floats: bool = False) -> Any:
    """The document, or UnsafeJson if it nests too deep or holds text no store can keep.
    Syntax errors stay json.JSONDecodeError (a ValueError), as from json.loads. ``integral_floats``: a number written
    with a fraction or exponent but an integer value (``2.0``, ``1e2``) is read as that integer, as JSON Schema reads
    it (2020-12: "a number with a zero fractional part" is an integer), so a request the document allows is not
    refused for how a client's serializer wrote its numbers (request bodies; never an import, whose bytes are hashed)."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if depth(data) > MAX_DEPTH:
        raise UnsafeJson(f"The JSON is nested more than {MAX_DEPTH} levels deep")
    value = decode(data, _integral if integral_floats else float)
    problem = text_problem(value) if may_hold_unstorable_text(data) or _RAW_SURROGATE in data else None
    if problem:
        raise UnsafeJson(problem)
    return value


# A decoded string can hold a NUL or a lone surrogate only where the bytes have one: an escape (``\\u0000``, ``\\ud800``),
# a NUL byte (UTF-16 and UTF-32 documents have them too, so they are always walked), or a surrogate written raw, whose
# UTF-8-like form starts with 0xED (json.loads decodes bytes with "surrogatepass", and a str here was encoded that way).
# Without any of them the walk over every string of the document finds nothing, and is skipped.
_RAW_SURROGATE = b"\xed"


def may_hold_unstorable_text(raw: bytes) -> bool:
    """Whether a raw line might hold a NUL or a lone surrogate (as an escape or a raw character):
    a fast test, so only such lines are decoded and checked string by string."""
    return b"\\u0000" in raw or b"\x00" in raw or _ESCAPED_SURROGATE.search(raw) is not None


def _integral(text: str) -> float | int:
    number = float(text)
    return int(number) if number.is_integer() and abs(number) < 2**63 else number


def decode(data: bytes | str, parse_float: Any = float) -> Any:
    """json.loads, but a number past Python's 4300-digit limit for int() is UnsafeJson rather than a
    bare ValueError (which nothing expects from a JSON parser: it was a 500)."""
    try:
        return json.loads(data, parse_float=parse_float)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise
    except ValueError:
        raise UnsafeJson(f"A number has more than {sys.get_int_max_str_digits()} digits") from None


def may_hold_a_huge_number(raw: bytes) -> bool:
    """Whether a raw line might hold a number json.loads cannot convert (digits inside strings match too)."""
    return _LONG_DIGITS.search(raw) is not None


def text_problem(value: Any) -> str | None:
    """Why a decoded document's strings (keys included) cannot be stored, or None."""
    if isinstance(value, str):
        return _string_problem(value)
    if isinstance(value, dict):
        for key in value:  # keys first, as they come before the values in the document (``unstorable``, inlined)
            if isinstance(key, str) and ("\x00" in key or (not key.isascii() and _SURROGATE.search(key))):
                return _string_problem(key)
        items: Any = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return None
    for item in items:  # strings are checked here and only containers recursed into: a call saved per key and number
        if isinstance(item, str):
            problem = _string_problem(item) if "\x00" in item or (not item.isascii() and _SURROGATE.search(item)) else None
        elif isinstance(item, (dict, list)):
            problem = text_problem(item)
        else:
            continue
        if problem:
            return problem
    return None


def unstorable(value: str) -> bool:
    """Whether ``value`` holds a NUL or a lone surrogate (``_string_problem`` says which). Text that is all ASCII
    (CPython knows without a scan) holds no surrogate, so the search for one is left out."""
    return "\x00" in value or (not value.isascii() and _SURROGATE.search(value) is not None)


def _string_problem(value: str) -> str | None:
    if "\x00" in value:
        return "A string holds a NUL character (\\u0000); remove it"
    if _SURROGATE.search(value):
        return "A string holds a lone UTF-16 surrogate (such as \\ud800); send whole characters"
    return None
