"""What a read view is: its tables, the event classes it handles, the rows it makes of them, its queries.

A view declares; the projections (projections/runner.py, projections/store.py) run it: they read the
log, hand each event to every view that handles its class (dispatch on the event's class, as the
eventsourcing library's projections do), and write the rows a batch made with the batch's tracking
position in one transaction. A view never reads the log itself and never writes: it returns rows
``(statement, *parameters)`` for the statements it declares, so every view rebuilds from zero with
the same rows.

Two kinds:
- ``View``: rows per event (the timeline, dice faces, game events).
- ``CampaignFold``: a campaign's records kept as the events come, and answers folded from them once
  per batch by a pure function of the game's (hero progress, ledgers, standings). The answer is
  written twice when the game hides something: in full, and as the other sides may see it until the
  quest ends, with the side it is secret to (as the timeline keeps ``secret_to``).

A game contributes views from its own package (``Ruleset.views``): nothing in ``api/`` or
``projections/`` names a game's view. Here no I/O: queries run on the store they are given.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, NamedTuple, Protocol


class Table(NamedTuple):
    columns: str  # the CREATE TABLE column list
    key: tuple[str, ...]  # the columns the digest orders rows by
    campaign: str = "campaign_id = %s"  # which rows are one campaign's (a digest of one campaign)


class Reader(Protocol):
    """What a view's queries read through: the view store (projections/store.py)."""

    def query(self, statement: str, params: Any = ()) -> list[dict[str, Any]]: ...


class At:
    """What the runner knows of the event a view is given: where it sits and what it belongs to, and the views'
    folded states, read through the batch (states folded earlier in it are not written yet)."""

    __slots__ = ("session_id", "campaign_id", "quest", "occurred_at", "notification_id", "ruleset_id", "state", "put")

    def __init__(
        self,
        session_id: str,
        campaign_id: str,
        quest: str,
        occurred_at: str,
        notification_id: int,
        ruleset_id: str | None,
        state: Callable[[str, str], Any] = lambda view, key: None,
        put: Callable[[str, str, Any], None] = lambda view, key, value: None,
    ) -> None:
        self.session_id, self.campaign_id, self.quest, self.occurred_at = session_id, campaign_id, quest, occurred_at
        self.notification_id, self.ruleset_id, self.state, self.put = notification_id, ruleset_id, state, put


class View:
    """A read view. Subclasses set the class attributes and ``rows``; statements are named
    ``<view>.<what>`` so two views never share one."""

    name: ClassVar[str] = ""
    version: ClassVar[int] = 1  # bump when the rows written change: the views are then rebuilt from the log
    tables: ClassVar[dict[str, Table]] = {}
    writes: ClassVar[dict[str, str]] = {}  # statement -> SQL with {table} names and %s parameters
    copied: ClassVar[dict[str, str]] = {}  # statements PostgreSQL may take by COPY (rows one notification alone creates)
    creating: ClassVar[tuple[str, ...]] = ()  # statements whose rows later rows of the same batch update
    summed: ClassVar[dict[str, int]] = {}  # statement -> key length: rows (stmt, *key, n) summed per key in a batch
    latest: ClassVar[dict[str, int]] = {}  # statement -> index of the key in the row: the batch's last row per key wins
    handles: ClassVar[tuple[type, ...]] = ()  # the event classes it reads (their subclasses too)
    kind: ClassVar[str | None] = None  # what a game's view answers for its campaigns ("hero-progress", ...)

    def rows(self, event: Any, at: At) -> Iterable[tuple[Any, ...]]:
        return ()

    def finish(self, touched: Mapping[str, Any], put_rows: Callable[[tuple[Any, ...]], None]) -> None:
        """At the end of a batch: rows from the states its events left (``touched``: key -> state; folds answer here)."""

    def stored_state(self, reader: Reader, key: str) -> Any:
        """The folded state the views hold for ``key`` (what ``At.state`` reads when the batch has none)."""
        return None

    def said(self, answer: Any, names: Mapping[str, str], progress: Mapping[str, Any]) -> list[dict[str, Any]] | None:
        """The answer as a player reads it on the campaign page, in the game's words: sections ``{"title", "sentences",
        "tables"}``, a table ``{"caption", "headers", "rows"}`` of plain words and numbers (``progress``: what the last
        quest's end carried over). Pure. None: the page shows the answer as a table of words."""
        return None

    def hero_said(self, sheet: Mapping[str, Any], names: Mapping[str, str]) -> list[str]:
        """A hero-progress view's one hero at a glance, for the hero's card on the campaign page (lines of words)."""
        return []


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


ABANDONED = "abandoned"  # the outcome a SessionEnded records for a session the table stopped without one


class CampaignFold(View):
    """A campaign's records, and the answers a pure function folds from them.

    ``keep(event, at)`` says what of an event to keep (a dict, or None for nothing); the records carry
    the session, its quest and outcome and the event's position, so every figure names its events. An
    undo drops the records it reverted (the log keeps them; the answer must not count them); a session's
    end sets its outcome on its records. ``answer(records, viewer)`` is the game's own fold, run once per
    batch for each campaign the batch touched; when ``secret_sides`` is set, the answer as those sides may
    see it is kept beside the full one."""

    game: ClassVar[str] = ""  # the ruleset id whose campaigns the fold reads
    secret_sides: ClassVar[tuple[str, ...]] = ()  # sides that read a public answer while a secret is in play
    secret_to: ClassVar[str | None] = None  # the side the full answer is secret to, when it differs

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.name:
            return
        table = f"view_{cls.name.replace('-', '_')}"
        cls.tables = {
            table: Table(
                "campaign_id TEXT PRIMARY KEY, records TEXT NOT NULL, answer TEXT NOT NULL, public_answer TEXT NOT NULL, secret_to TEXT",
                ("campaign_id",),
            )
        }
        cls.writes = {
            f"{cls.name}.answer": f"INSERT INTO {{{table}}} AS t (campaign_id, records, answer, public_answer, secret_to) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (campaign_id) DO UPDATE SET records = excluded.records, "
            "answer = excluded.answer, public_answer = excluded.public_answer, secret_to = excluded.secret_to"
        }
        cls.latest = {f"{cls.name}.answer": 1}

    @property
    def table(self) -> str:
        return next(iter(self.tables))

    def keep(self, event: Any, at: At) -> dict[str, Any] | None:
        raise NotImplementedError

    def answer(self, records: list[dict[str, Any]], viewer: str | None) -> Any:
        raise NotImplementedError

    def rows(self, event: Any, at: At) -> Iterable[tuple[Any, ...]]:
        if at.ruleset_id != self.game:
            return ()
        name = type(event).__name__
        if name not in ("ActionUndone", "SessionEnded"):
            kept = self.keep(event, at)
            if kept is not None:
                record = {"session_id": at.session_id, "quest": at.quest, "outcome": None, "position": event.originator_version,
                          "type": name, **kept}
                records = at.state(self.name, at.campaign_id) or []
                records.append(record)  # in place: a batch's states are its own (the batch before is already written out)
                at.put(self.name, at.campaign_id, records)
            return ()
        records = at.state(self.name, at.campaign_id)
        if name == "ActionUndone":
            if records:
                undone = {e["position"] for e in event.reverses["events"]}
                kept = [r for r in records if r["session_id"] != at.session_id or r["position"] not in undone]
                if len(kept) != len(records):
                    at.put(self.name, at.campaign_id, kept)
            return ()
        if records and event.outcome == ABANDONED:  # not played: nothing of it counts for the campaign
            at.put(self.name, at.campaign_id, [r for r in records if r["session_id"] != at.session_id])
        elif records:  # the session ended: its records learn their outcome
            at.put(self.name, at.campaign_id, [{**r, "outcome": event.outcome} if r["session_id"] == at.session_id else r for r in records])
        return ()

    def finish(self, touched: Mapping[str, Any], put_rows: Callable[[tuple[Any, ...]], None]) -> None:
        for campaign_id, records in touched.items():
            full = self.answer(records, None)
            public = self.answer(records, self.secret_sides[0]) if self.secret_sides else full
            hidden = public != full
            put_rows((f"{self.name}.answer", campaign_id, dumps(records), dumps(full), dumps(public) if hidden else dumps(full),
                      self.secret_to if hidden else None))

    def stored_state(self, reader: Reader, campaign_id: str) -> list[dict[str, Any]] | None:
        rows = reader.query(f"SELECT records FROM {{{self.table}}} WHERE campaign_id = %s", (campaign_id,))
        return json.loads(rows[0]["records"]) if rows else None

    def read(self, reader: Reader, campaign_id: str, viewer: str | None = None) -> Any:
        """The answer as ``viewer``'s side may see it (None: everything); the empty answer before any record."""
        rows = reader.query(f"SELECT answer, public_answer, secret_to FROM {{{self.table}}} WHERE campaign_id = %s", (campaign_id,))
        if not rows:
            return self.answer([], viewer)
        row = rows[0]
        shown = viewer is None or row["secret_to"] is None or row["secret_to"] == viewer
        return json.loads(row["answer"] if shown else row["public_answer"])
