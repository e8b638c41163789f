"""An id as text (tracker/core/ids.py) is str(uuid), kept by the id's integer and bounded."""

from __future__ import annotations

from uuid import UUID, uuid4

from tracker.core import ids


def test_an_ids_text_is_str_of_it_whatever_object_carries_it():
    raw = uuid4()
    assert ids.id_text(raw) == str(raw)
    assert ids.id_text(UUID(str(raw).upper())) == str(raw)  # an equal id, another object: the same text


def test_the_texts_kept_are_bounded():
    for _ in range(ids.KEPT + 10):
        some = uuid4()
        assert ids.id_text(some) == str(some)
    assert len(ids._TEXTS) <= ids.KEPT
