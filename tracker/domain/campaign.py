"""The campaign: which rules it follows (pinned), its party, and where it stands in the quest chain."""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from tracker.domain.events import TrackerAggregate, TrackerCreated, TrackerEvent
from tracker.core.supplements import supplement

WINS = ("victory", "heroic-victory")


class Campaign(TrackerAggregate):
    class CampaignCreated(TrackerCreated):
        class_version = 2
        name: str
        ruleset: dict[str, str]
        chain: list[str]
        party: list[str]
        components: dict[str, Any]
        components_hash: str
        options: dict[str, Any]

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["options"] = {}  # campaigns created before options had none

    class TokenMinted(TrackerEvent):
        token_id: str
        grant_id: str
        role: str
        heroes: list[str]
        side: str | None
        label: str | None

    class TokenRevoked(TrackerEvent):
        token_id: str

    class ComponentsSupplied(TrackerEvent):
        """Facts the rules lost, supplied after the campaign was created; sessions started later use them."""

        class_version = 1
        components: dict[str, Any]
        components_hash: str

    class QuestStarted(TrackerEvent):
        session_id: str
        quest: str

    class QuestEnded(TrackerEvent):
        class_version = 3
        session_id: str
        quest: str
        outcome: str
        progress: dict[str, Any] | None
        ruling: str | None  # the table's reason when it overruled what the rules decided

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["progress"] = None  # nothing carried over: progress stays as it was

        @staticmethod
        def upcast_v2_v3(state: dict[str, Any]) -> None:
            state["ruling"] = None  # quests ended before rulings existed ended on the typed outcome

    class QuestAbandoned(TrackerEvent):
        """The table stopped a session without an outcome: not played, so the chain and progress stay as they
        were. Saved with the session's end, like QuestEnded, and it records the session's last hash too."""

        session_id: str
        quest: str
        reason: str

    @classmethod
    def created_event(cls) -> type[Any]:
        return cls.CampaignCreated

    @event(CampaignCreated)
    def __init__(
        self,
        name: str,
        ruleset: dict[str, str],
        chain: list[str],
        party: list[str],
        components: dict[str, Any],
        components_hash: str,
        options: dict[str, Any],
        meta: dict[str, Any],
    ) -> None:
        self.name = name
        self.options = options
        self.progress: dict[str, Any] = {}
        self.ruleset = ruleset
        self.chain = chain
        self.party = party
        self.components = components
        self.components_hash = components_hash
        self.sessions: list[dict[str, Any]] = []
        self.tokens: dict[str, dict[str, Any]] = {}
        self.next_quest: str | None = chain[0] if chain else None

    @event(TokenMinted)
    def mint_token(
        self, token_id: str, grant_id: str, role: str, heroes: list[str], side: str | None, label: str | None, meta: dict[str, Any]
    ) -> None:
        self.tokens[token_id] = {
            "id": token_id, "grant_id": grant_id, "role": role, "heroes": heroes, "side": side, "label": label, "revoked": False,
        }

    @event(TokenRevoked)
    def revoke_token(self, token_id: str, meta: dict[str, Any]) -> None:
        self.tokens[token_id] = {**self.tokens[token_id], "revoked": True}

    @event(ComponentsSupplied)
    def supply_components(self, components: dict[str, Any], components_hash: str, meta: dict[str, Any]) -> None:
        self.components = supplement(self.components, components)
        self.components_hash = components_hash

    @event(QuestStarted)
    def start_quest(self, session_id: str, quest: str, meta: dict[str, Any]) -> None:
        self.sessions.append({"id": session_id, "quest": quest, "outcome": None})
        self.__dict__.setdefault("session_components", {})[session_id] = self.components

    def components_for(self, session_id: str) -> dict[str, Any]:
        """The component data in force when the session started (later supplements are for later sessions)."""
        return self.__dict__.get("session_components", {}).get(session_id, self.components)

    @event(QuestEnded)
    def end_quest(self, session_id: str, quest: str, outcome: str, progress: dict[str, Any] | None, ruling: str | None, meta: dict[str, Any]) -> None:
        if progress is not None:
            self.progress = progress
        for session in self.sessions:
            if session["id"] == session_id:
                session["outcome"] = outcome
                if ruling is not None:
                    session["ruling"] = ruling
        if outcome in WINS and quest in self.chain:
            position = self.chain.index(quest)
            self.next_quest = self.chain[position + 1] if position + 1 < len(self.chain) else None
        elif quest in self.chain:
            self.next_quest = quest  # a lost quest is played again
        if progress is not None and "next_quest" in progress:
            self.next_quest = progress["next_quest"]  # the ruleset steers the chain (e.g. a lost story restarts)

    @event(QuestAbandoned)
    def abandon_quest(self, session_id: str, quest: str, reason: str, meta: dict[str, Any]) -> None:
        for session in self.sessions:
            if session["id"] == session_id:
                session["abandoned"] = {"reason": reason}

    def in_play(self) -> list[dict[str, Any]]:
        """The sessions neither ended nor abandoned."""
        return [s for s in self.sessions if s["outcome"] is None and "abandoned" not in s]

    @property
    def completed(self) -> bool:
        return bool(self.chain) and self.next_quest is None

    def state(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "ruleset": dict(self.ruleset),
            "components_hash": self.components_hash,
            "options": dict(self.options),
            "progress": self.progress,
            "party": list(self.party),
            "chain": list(self.chain),
            "next_quest": self.next_quest,
            "completed": self.completed,
            "sessions": [dict(s) for s in self.sessions],
            "version": self.version,
        }

