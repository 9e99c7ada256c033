"""Who sits where: a seat opens with its own token (kept only as its hash) or with the
signed-in account sitting there; an outside bot's seat only with the bot's token; a table's
settings survive storage and a stored table needs four seats."""

from __future__ import annotations

import hashlib
import json

import pytest

from euchre.rules import Rules
from euchre.table.actor.seats import (
    BOT,
    HUMAN,
    AccountKey,
    Seat,
    TableConfig,
    hash_token,
    new_table_id,
    new_token,
    seat_name,
)

ANN = AccountKey(7, "ann")


def _config(*seats: Seat) -> TableConfig:
    rest = [Seat(BOT, f"bot {i}", "easy", i) for i in range(4 - len(seats))]
    four = (*seats, *rest)
    return TableConfig("t1", "practice", Rules.preset("classic"),
                       (four[0], four[1], four[2], four[3]), extra={"speed": "fast"})


def test_tokens_and_ids_are_fresh_and_only_a_tokens_hash_is_kept() -> None:
    tokens = {new_token() for _ in range(50)}
    ids = {new_table_id() for _ in range(50)}
    assert len(tokens) == len(ids) == 50
    assert all(len(t) >= 32 and t.replace("-", "").replace("_", "").isalnum() for t in tokens)
    assert all(i.replace("-", "").replace("_", "").isalnum() for i in ids)
    assert hash_token("abc") == hashlib.sha256(b"abc").hexdigest() == hash_token("abc")
    assert hash_token("abc") != hash_token("abd")


def test_a_persons_seat_opens_with_its_token_only() -> None:
    token = new_token()
    seat = Seat(HUMAN, "Ann", token_hash=hash_token(token))
    assert seat.accepts(token)
    assert not seat.accepts(token + "x") and not seat.accepts("")
    assert not seat.accepts(ANN)  # no account sits here
    assert not Seat(HUMAN, "nobody").accepts("")  # a seat without a token never opens
    assert not Seat(BOT, "West (easy)", "easy", 1).accepts(token)


def test_a_signed_in_person_opens_their_seat_by_account_from_any_browser() -> None:
    by_id = Seat(HUMAN, "Ann", token_hash=hash_token("t"), account_id=7)
    assert by_id.accepts(ANN) and by_id.belongs_to(ANN)
    assert not by_id.accepts(AccountKey(8, "ann"))  # an id, not a name, at these tables
    coin = Seat(HUMAN, "ann", token_hash=hash_token("t"), account="ann")
    assert coin.accepts(AccountKey(99, "ann")) and not coin.accepts(AccountKey(7, "bo"))
    bot_seat = Seat(HUMAN, "Zed", token_hash=hash_token("z"), account_id=7, bot_token=3)
    assert bot_seat.is_outside_bot() and not bot_seat.is_bot()
    assert not bot_seat.accepts(ANN) and bot_seat.accepts("z")  # the bot's token only
    assert not Seat(BOT, "b", "easy", 1, account_id=7).accepts(ANN)


def test_everyone_sees_a_seats_name_kind_and_level_never_its_token() -> None:
    token = new_token()
    seat = Seat(HUMAN, "Ann", token_hash=hash_token(token), account="ann", account_id=7)
    shown = seat.public_json(2)
    assert shown == {"seat": 2, "name": "Ann", "kind": HUMAN, "level": None}
    assert token not in json.dumps(shown) and hash_token(token) not in json.dumps(shown)
    bot = Seat(HUMAN, "Zed", token_hash="h", bot_token=4).public_json(1)
    assert bot["outside_bot"] is True


def test_a_seat_is_stored_with_its_tokens_hash_and_read_back_whole() -> None:
    token = new_token()
    for seat in (Seat(HUMAN, "Ann", token_hash=hash_token(token), account="ann",
                      account_id=7),
                 Seat(HUMAN, "Zed", token_hash=hash_token(token), bot_token=9),
                 Seat(BOT, "North (hard)", "hard", 12345)):
        stored = seat.to_json()
        assert token not in json.dumps(stored)
        assert Seat.from_json(json.loads(json.dumps(stored))) == seat
    assert "account_id" not in Seat(BOT, "b").to_json()
    assert "bot_token" not in Seat(BOT, "b").to_json()


def test_a_tables_settings_survive_storage() -> None:
    config = _config(Seat(HUMAN, "Ann", token_hash=hash_token("t")))
    again = TableConfig.from_json(json.loads(json.dumps(config.to_json())))
    assert again == config and again.rules == config.rules
    assert again.extra == {"speed": "fast"}
    old = {k: v for k, v in config.to_json().items()
           if k not in ("preset", "created_at", "first_dealer", "first_draw", "extra")}
    read = TableConfig.from_json(old)  # written before these settings existed
    assert (read.preset, read.first_dealer, read.first_draw, read.extra) == \
        ("classic", 0, (), {})


def test_a_stored_table_without_four_seats_is_refused() -> None:
    data = _config().to_json()
    data["seats"] = data["seats"][:3]
    with pytest.raises(ValueError, match="four seats"):
        TableConfig.from_json(data)


def test_the_seat_of_a_token_or_an_account() -> None:
    config = _config(Seat(HUMAN, "Ann", token_hash=hash_token("a"), account_id=7),
                     Seat(HUMAN, "Guest", token_hash=hash_token("g")),
                     Seat(HUMAN, "Zed", token_hash=hash_token("z"), bot_token=2))
    assert [config.seat_of(t) for t in ("a", "g", "z", "nope")] == [0, 1, 2, None]
    assert config.seat_of(ANN) == 0
    assert config.seat_of(AccountKey(8, "bo")) is None


def test_a_guest_seat_claimed_at_sign_in_opens_with_the_account() -> None:
    config = _config(Seat(HUMAN, "Guest", token_hash=hash_token("g")),
                     Seat(HUMAN, "Cy", token_hash=hash_token("c"), account_id=3),
                     Seat(HUMAN, "Zed", token_hash=hash_token("z"), bot_token=2))
    assert config.seat_of(AccountKey(8, "bo", claimed=(0,))) == 0
    # never someone else's signed-in seat, an outside bot's, a computer's or no seat at all
    for claimed in ((1,), (2,), (3,), (4,), (-1,)):
        assert config.seat_of(AccountKey(8, "bo", claimed=claimed)) is None


def test_seat_names_go_round_from_south() -> None:
    assert [seat_name(s) for s in range(4)] == ["South", "West", "North", "East"]
