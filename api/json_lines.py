"""The JSON line of a log record, as python-json-logger's JsonFormatter writes it, in one pass.

The library's format() rebuilds its field list, asks each of a record's ~27 attributes three questions, formats the
time anew and makes a new encoder for every line: about 100,000 instructions for a request's line (issue 35). Here
the same dict is built in the same order (its required fields, renamed, then the record's own extras in the order
they were set), the time string is kept for the second it names, and one encoder, made with json.dumps's arguments,
encodes it: the same characters. Whatever the fast path does not know (an exception, a stack, a dict message, a
formatter configured otherwise) goes through the library's own format().
"""

from __future__ import annotations

import logging
from json import dumps
from typing import Any

from pythonjsonlogger.json import JsonFormatter


class OnePassJsonFormatter(JsonFormatter):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._second: tuple[int, Any, str] | None = None
        # One pass knows exactly this configuration: the required fields and renames, nothing else added.
        self._one_pass = (self.json_serializer is dumps and self.json_default is None and self.json_indent is None
                          and not self.defaults and not self.static_fields and not self.timestamp
                          and not self.rename_fields_keep_missing and not self.prefix
                          and isinstance(self._style, logging.PercentStyle) and "asctime" in self._required_fields)
        self._encoder = self.json_encoder(skipkeys=False, ensure_ascii=self.json_ensure_ascii, check_circular=True,
                                          allow_nan=True, indent=None, separators=None, default=None, sort_keys=False)
        rename = self.rename_fields
        self._required = tuple((field, rename.get(field, field)) for field in self._required_fields)

    def format(self, record: logging.LogRecord) -> str:
        if not self._one_pass or record.exc_info or record.exc_text or record.stack_info or isinstance(record.msg, dict):
            return super().format(record)
        record.message = record.getMessage()
        record.asctime = self._time(record)
        attributes = record.__dict__
        line = {renamed: attributes.get(field) for field, renamed in self._required}
        skip, rename = self._skip_fields, self.rename_fields
        for key, value in attributes.items():  # core.merge_record_extra's loop
            if key not in skip and not (hasattr(key, "startswith") and key.startswith("_")):
                line[rename.get(key, key)] = value
        return self._encoder.encode(line)

    def _time(self, record: logging.LogRecord) -> str:
        """formatTime's string, made once a second: converter and datefmt name the whole second, never its fraction
        (a datefmt with none of logging's own millisecond part; without a datefmt the library's own formatTime)."""
        if self.datefmt is None:
            return self.formatTime(record, None)
        second, converter = int(record.created), self.converter
        kept = self._second
        if kept is not None and kept[0] == second and kept[1] is converter:
            return kept[2]
        made = self.formatTime(record, self.datefmt)
        self._second = (second, converter, made)  # one tuple, swapped whole: a thread reads an old one or the new
        return made
