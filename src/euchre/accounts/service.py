"""Accounts: sign up (with the starting coins), sign in, look up.

Usernames are 3-24 letters, digits, ``_``, ``-`` or ``.``, unique regardless of case.
Passwords are 8-200 characters, stored only as argon2id hashes.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..coins import rules as coin_rules
from ..coins.ledger import in_transaction, post, utcnow
from ..storage.accounts_models import accounts
from ..table.kinds.names import NameRefused, check_display_name
from .errors import (
    BadPasswordError,
    BadUsernameError,
    NotSignedInError,
    UsernameTakenError,
    WrongCredentialsError,
)
from .lookalikes import check_not_lookalike, keep_keys
from .passwords import MAX_PASSWORD, MIN_PASSWORD, Passwords

USERNAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]{2,23}")
"""What a username may look like."""


@dataclass(frozen=True, slots=True)
class Account:
    """A person's account."""

    id: int
    """The account id."""
    username: str
    """The name as chosen."""
    balance: int
    """Coins."""
    created_at: dt.datetime
    """When it was made."""


def check_username(username: object) -> str:
    """The username if allowed, else :class:`BadUsernameError`."""
    if not isinstance(username, str) or not USERNAME_RE.fullmatch(username):
        raise BadUsernameError(
            "a username is 3 to 24 letters, digits, '_', '-' or '.', starting with a letter "
            "or digit"
        )
    try:  # coin tables show the username as the seat's name
        return check_display_name(username)
    except NameRefused as e:
        raise BadUsernameError(str(e)) from None


def check_password(password: object) -> str:
    """The new password if allowed, else :class:`BadPasswordError`."""
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise BadPasswordError(
            f"a password is {MIN_PASSWORD} to {MAX_PASSWORD} characters long"
        )
    return password


class AccountService:
    """Sign up and sign in against the accounts table."""

    def __init__(self, engine: AsyncEngine, passwords: Passwords,
                 now: Callable[[], dt.datetime] = utcnow) -> None:
        """The service on ``engine``, hashing with ``passwords``."""
        self.engine = engine
        """The database."""
        self.passwords = passwords
        """The password hasher."""
        self.now = now
        """The clock."""

    async def create(self, username: object, password: object) -> Account:
        """A new account with the starting coins (entry key ``welcome:{account}``)."""
        name = check_username(username)
        secret = check_password(password)
        async with self.engine.connect() as conn:  # a taken name costs no hash
            if await conn.scalar(select(accounts.c.id)
                                 .where(accounts.c.username_key == name.lower())) is not None:
                raise UsernameTakenError("that username is taken: choose another")
            await check_not_lookalike(conn, name)
        encoded = await self.passwords.hash(secret)

        async def work(conn: AsyncConnection) -> Account:
            now = self.now()
            taken = await conn.scalar(
                select(accounts.c.id).where(accounts.c.username_key == name.lower())
            )
            if taken is not None:
                raise UsernameTakenError("that username is taken: choose another")
            await check_not_lookalike(conn, name)
            result = await conn.execute(
                accounts.insert()
                .values(username=name, username_key=name.lower(), password_hash=encoded,
                        balance=0, created_at=now)
                .returning(accounts.c.id)
            )
            account_id = int(result.scalar_one())
            await keep_keys(conn, account_id, name)
            entry = await post(conn, account_id, coin_rules.STARTING_BALANCE, "welcome",
                               f"welcome:{account_id}", now)
            return Account(account_id, name, entry.balance_after, now)

        try:
            return await in_transaction(self.engine, work)
        except IntegrityError:
            raise UsernameTakenError("that username is taken: choose another") from None

    async def authenticate(self, username: object, password: object) -> Account:
        """The account if the username and password match, else :class:`WrongCredentialsError`."""
        wrong = WrongCredentialsError("wrong username or password")
        if not isinstance(username, str) or not isinstance(password, str):
            raise wrong
        if len(password) > MAX_PASSWORD or len(username) > 64:
            raise wrong
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(accounts).where(accounts.c.username_key == username.lower())
                )
            ).first()
        if row is None:
            await self.passwords.verify_nobody(password)
            raise wrong
        if not await self.passwords.verify(row.password_hash, password):
            raise wrong
        if self.passwords.needs_rehash(row.password_hash):
            encoded = await self.passwords.hash(password)
            async with self.engine.begin() as conn:
                await conn.execute(
                    update(accounts).where(accounts.c.id == row.id).values(password_hash=encoded)
                )
        return Account(row.id, row.username, int(row.balance), row.created_at)

    async def find(self, username: str) -> Account | None:
        """The account with this username (any case), or None."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                select(accounts).where(accounts.c.username_key == username.lower()))).first()
        return None if row is None else Account(row.id, row.username, int(row.balance),
                                                 row.created_at)

    async def get(self, account_id: int) -> Account:
        """The account with this id (:class:`NotSignedInError` if it is gone)."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(accounts).where(accounts.c.id == account_id))).first()
        if row is None:
            raise NotSignedInError("please sign in")
        return Account(row.id, row.username, int(row.balance), row.created_at)
