"""What the processes of one site share, as seen from ``GET /readyz``: the site extension.

With a Redis URL every process serves: each table runs in the one process holding its
lease (:mod:`euchre.table.hosting.owners`; the manager takes a table's lease to open or load it,
and stops its actor when the lease is lost), a socket that reaches another process is
relayed to the owner (:mod:`.tables.relay`), and every process sweeps for tables whose
owner died every half lease and resumes them from the database. Writes that are not an
actor's (retiring an abandoned table, closing a left coin game) take the table's lease for
the write (:class:`~euchre.table.hosting.owners.LeasedStore`). Without a Redis URL nothing of this
happens: one process, fence 0. The composition root (:mod:`.root`) builds all of it, in
order; this extension adds the site's checks to ``GET /readyz``.
"""

from __future__ import annotations

from .core.registry import Extension
from .core.site import Site
from .root import process_name
from .tables.relay import RelayHost

__all__ = ["TABLE_OWNERSHIP", "process_name", "readiness", "site_extension"]

TABLE_OWNERSHIP = True
"""Whether tables run under leases of their own with sockets relayed to their owner, so
any number of processes serve one site (``euchre serve --workers N`` needs it)."""


async def readiness(site: Site) -> dict[str, str]:
    """The site's ``/readyz`` checks: Redis (if used) answers, and this process listens
    for relayed sockets."""
    checks: dict[str, str] = {}
    if not site.site_wide:
        checks["redis"] = "not used"
        return checks
    try:
        await site.broker.ping()
        checks["redis"] = "ok"
    except Exception as e:
        checks["redis"] = f"unavailable: {type(e).__name__}"
    host = site.get(RelayHost)
    checks["relays"] = "ok" if host is not None and host.ready.is_set() else "not listening"
    return checks


def site_extension() -> Extension:
    """The site's checks in ``/readyz`` (its broker, leases, table ownership, relays and
    orphan sweeper are the composition root's)."""
    return Extension("site", ready=readiness)
