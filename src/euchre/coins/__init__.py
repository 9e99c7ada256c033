"""Play coins: the ledger, the coin rules, and coin games against the computer.

Play coins have no cash value and cannot be cashed out.
"""

from .errors import (
    AlreadyPlayingError,
    BadStakeError,
    CoinsError,
    IdempotencyConflictError,
    InsufficientCoinsError,
    NotActiveError,
    TopUpRefusedError,
    UnknownAccountError,
)
from .ledger import Ledger, LedgerEntry
from .pools import Pool, PoolEntry, PoolService
from .pots import Pot, PotService, StakeRefused
from .rules import NO_CASH_VALUE, STAKES, STARTING_BALANCE, leaving_fee, payout
from .service import CoinGame, CoinService

__all__ = [
    "NO_CASH_VALUE",
    "STAKES",
    "STARTING_BALANCE",
    "AlreadyPlayingError",
    "BadStakeError",
    "CoinGame",
    "CoinService",
    "CoinsError",
    "IdempotencyConflictError",
    "InsufficientCoinsError",
    "Ledger",
    "LedgerEntry",
    "NotActiveError",
    "Pool",
    "PoolEntry",
    "PoolService",
    "Pot",
    "PotService",
    "StakeRefused",
    "TopUpRefusedError",
    "UnknownAccountError",
    "leaving_fee",
    "payout",
]
