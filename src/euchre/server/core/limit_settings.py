"""How much each of the site's rate limits allows (:class:`LimitSettings`), apart from the
guards that apply them (:mod:`.guards`), so ``euchre serve`` can show the defaults without
loading the site."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class LimitSettings:
    """How much each limit allows (``Settings.limits``)."""

    sign_in_per_user: int = 5
    """Sign-in attempts per username in :attr:`sign_in_window`."""
    sign_in_per_address: int = 20
    """Sign-in attempts per client address in :attr:`sign_in_window`."""
    sign_in_window: float = 300.0
    """Seconds."""
    sign_up_attempts_per_address: int = 40
    """Sign-up attempts per address in :attr:`sign_up_window`, refused ones included (a
    club of 20 may each get a name taken or a password refused once)."""
    sign_ups_per_address: int = 20
    """New accounts per address in :attr:`sign_up_window`: a club's evening at once."""
    sign_up_window: float = 3600.0
    """Seconds."""
    sign_ups_per_address_day: int = 30
    """New accounts per address in :attr:`sign_up_day`: well above a household's or a
    club's, far below what farming wants (each account gets the welcome coins)."""
    sign_up_day: float = 86400.0
    """Seconds."""
    tables_per_address: int = 30
    """New tables (practice, coin, online) per address in :attr:`tables_window`."""
    tables_per_account: int = 20
    """New tables per signed-in account in :attr:`tables_window`."""
    tables_window: float = 600.0
    """Seconds."""
    open_online_per_creator: int = 3
    """Online tables one creator (account, else address) may have waiting for their start."""
    seats_per_address: int = 60
    """``Play now`` and seat claims per address in :attr:`seats_window`."""
    seats_per_account: int = 30
    """``Play now`` and seat claims per signed-in account in :attr:`seats_window`."""
    seats_window: float = 600.0
    """Seconds."""
    seats_held_per_person: int = 2
    """Seats one person (account, else address) may hold at once at waiting tables (not
    counting their own seat at an invite table they opened)."""
    reads_per_address: int = 120
    """Expensive reads (replays, records, statistics) per address (IPv6: per /64) in
    :attr:`reads_window`: two a second on average, a page's worth at once."""
    reads_window: float = 60.0
