"""Practice tables over HTTP: the ``practice`` kind of ``POST /api/tables``.

An extension (see :mod:`euchre.server.app`): the person sits South, computer players of
the chosen levels elsewhere; no account, no coins, no clock; hints allowed.
"""

from __future__ import annotations

from starlette.requests import Request

from ...table.actor.kind import PRACTICE, PRACTICE_KIND
from ...table.kinds.practice import PracticeOptions, practice_start, practice_table
from ..core.people import seat_person
from ..core.registry import Extension, TableKindApi
from ..core.site import CoreSite
from ..wire.tables import PracticeTableRequest, TableCreated
from .api import manager_of


async def open_practice(request: Request, body: PracticeTableRequest) -> TableCreated:
    """Open a practice table: the person South, computers elsewhere."""
    options = PracticeOptions(body.preset, dict(body.rules or {}), partner=body.partner,
                              left=body.left, right=body.right, name=body.name,
                              speed=body.speed, example=body.example)
    config, token = practice_table(options)
    config = await seat_person(request, config, 0)  # a signed-in person's games count for them
    await manager_of(request).open(config, **practice_start(config))
    return TableCreated(id=config.id, seat=0, token=token, url=f"/table/{config.id}",
                        ws=f"/ws/tables/{config.id}")


async def startup(site: CoreSite) -> None:
    """Run practice tables with hints and no clock."""
    site.manager.register(PRACTICE_KIND)


def practice_extension() -> Extension[CoreSite]:
    """The practice kind."""
    return Extension(
        "practice",
        table_kinds=[TableKindApi(PRACTICE, PracticeTableRequest, TableCreated, open_practice)],
        startup=startup,
    )
