"""A table's refusals: each is a TableError with its own code, so the server answers each
with its own status."""

from __future__ import annotations

from euchre.errors import DomainError
from euchre.table.actor.errors import NotStored, SeatReplaced, TableError, TableStopped


def test_every_refusal_is_a_table_error_with_its_code() -> None:
    assert issubclass(TableError, DomainError) and TableError.code == "illegal"
    assert issubclass(NotStored, TableError) and NotStored.code == "not_stored"
    assert NotStored.retry_after == 1  # the caller may try again soon
    assert issubclass(SeatReplaced, TableError) and SeatReplaced.code == "replaced"
    assert issubclass(TableStopped, TableError) and TableStopped.code == "illegal"
    assert str(SeatReplaced("gone")) == "gone"
