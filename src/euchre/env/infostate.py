"""One seat's information state as a tensor: the observation vector and every trick in order.

:func:`information_state_tensor` is the numeric twin of
:func:`euchre.infostate.information_state_text` (OpenSpiel's ``information_state_tensor``):
built from the seat's :class:`~euchre.view.HandView` alone, with perfect recall. It is the
416-value observation (:func:`~euchre.env.observation.encode_view`, fields in
:data:`~euchre.env.observation.FIELDS`) followed by one field:

=====================  ====  ===============================================================
field                  size  meaning
=====================  ====  ===============================================================
``trick_cards``        500   5 x 4 x 25: for each trick of the hand in order (completed ones,
                             then the one in progress), the card each relative seat played
=====================  ====  ===============================================================

With it the order of play is kept (the observation's ``played`` field has each seat's cards,
not which trick they fell in); the order of the bids needs nothing more, since bidding goes
round the table from the dealer's left and the observation says who passed in each round.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..view import HandView
from .observation import FIELDS, REL, SIZE, encode_view, playing_order

INFO_FIELDS: tuple[tuple[str, int], ...] = (*FIELDS, ("trick_cards", 500))
"""The fields of the information-state tensor in order, as (name, size)."""

INFO_SIZE: int = sum(size for _, size in INFO_FIELDS)
"""The length of the information-state tensor (916)."""


def information_state_tensor(view: HandView) -> npt.NDArray[np.int8]:
    """The seat's information state as 0/1 values (the module docstring gives the layout)."""
    out = np.zeros(INFO_SIZE, dtype=np.int8)
    out[:SIZE] = encode_view(view)
    rel = REL[view.seat]
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    for i, (leader, cards) in enumerate(tricks):
        base = SIZE + 100 * i
        for seat, c in zip(playing_order(leader, view.sitting_out, len(cards)), cards,
                           strict=True):
            out[base + 25 * rel[seat] + c] = 1
    return out
