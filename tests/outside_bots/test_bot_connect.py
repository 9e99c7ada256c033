"""``euchre bot connect`` as a real subprocess against a live server: the example bot plays a
whole practice game, and a whole online game with a person who plays over the table socket;
a revoked token is refused before anything happens; a program that answers nonsense is asked
again with the refusal, and the table's answers are the same a person's would be."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from bot_helpers import bot_app
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from live_server import live_server

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "outside_bot.py"
STUBBORN = Path(__file__).with_name("stubborn_bot.py")
CARD = re.compile(r"\b(?:[9TJQKA][CDHS]|JK)\b")


def _bridge(url: str, token: str, *options: str, program: list[str] | None = None
            ) -> subprocess.Popen[str]:
    command = program or [sys.executable, str(EXAMPLE), "--seed", "3"]
    return subprocess.Popen(
        [sys.executable, "-m", "euchre.cli", "bot", "connect", url, token, *options, "--",
         *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})


def _owner_token(base: str, name: str = "annbot", owner: str = "ann") -> tuple[Any, str, int]:
    http = httpx.Client(base_url=base, timeout=30)
    r = http.post("/api/accounts", json={"username": owner, "password": "correct horse"})
    assert r.status_code == 201, r.text
    csrf = r.json()["csrf"]
    http.headers["X-CSRF-Token"] = csrf
    r = http.post("/api/me/bots", json={"name": name})
    assert r.status_code == 201, r.text
    return http, r.json()["token"], r.json()["id"]


def _person_plays(base: str, table_id: str, token: str, seat: int,
                  seen: list[dict[str, Any]]) -> None:
    """A person at ``seat`` over the table socket, playing the first legal action, keeping
    every message; until the game is over. A socket closed with 1012 (the table stopped in
    that process) is opened again with ``since``, as the protocol asks of every client."""
    acted_at = None
    for _ in range(5):
        since = seen[-1]["table"]["version"] if seen and "table" in seen[-1] else None
        try:
            with connect(base.replace("http", "ws") + f"/ws/tables/{table_id}") as ws:
                ws.send(json.dumps({"type": "join", "protocol": 2, "token": token, "since": since}))
                while True:
                    message = json.loads(ws.recv(timeout=120))
                    table = message.get("table")
                    if not table or message.get("version") != table["version"]:
                        continue
                    seen.append(message)
                    if table["game_over"]:
                        return
                    legal = (table.get("view") or {}).get("legal") or []
                    if table["to_act"] == seat and legal and acted_at != table["version"]:
                        acted_at = table["version"]
                        ws.send(json.dumps({"type": "action", "action": legal[0]}))
        except ConnectionClosed as e:
            if e.rcvd is None or e.rcvd.code != 1012:
                raise


def _db(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path}/bots.db"


def test_the_example_bot_plays_a_whole_practice_game(tmp_path: Path) -> None:
    with live_server(bot_app(_db(tmp_path))) as base:
        http, token, _ = _owner_token(base)
        bridge = _bridge(base, token, "--practice", "--preset", "short")
        out, err = bridge.communicate(timeout=240)
        assert bridge.returncode == 0, (out, err)
        assert "signed in as the bot annbot" in out
        assert "game over: the bot's side" in out
        # The finished game is the bot's: its record is there, its seat under its name.
        table_id = out.split("at table ")[1].split()[0]
        record = http.get(f"/api/games/{table_id}/record?format=json")
        assert record.status_code == 200 and record.json()["final"] is not None
        south = http.get(f"/api/games/{table_id}/stats").json()["seats"][0]
        assert (south["name"], south["bot"], south["signed_in"]) == ("annbot", True, True)


def test_the_example_bot_joins_an_online_table_and_plays_with_a_person(tmp_path: Path
                                                                         ) -> None:
    with live_server(bot_app(_db(tmp_path))) as base:
        _, token, _ = _owner_token(base)
        person = httpx.Client(base_url=base, timeout=30)
        made = person.post("/api/tables", json={"kind": "online", "name": "Bob",
                                                "preset": "short"}).json()
        bridge = _bridge(f"{base}/online/{made['id']}", token, "--seat", "2")
        # Wait (on the table itself, not the clock) until the bot has its seat.
        for line in bridge.stdout or []:
            if line.startswith("seat 2 at table"):
                break
        seats = person.get(f"/api/online/{made['id']}").json()["seats"]
        assert (seats[2]["name"], seats[2].get("bot")) == ("annbot", True)
        r = person.post(f"/api/tables/{made['id']}/start", json={"token": made["token"]})
        assert r.status_code == 200, r.text
        seen: list[dict[str, Any]] = []
        player = threading.Thread(target=_person_plays,
                                  args=(base, made["id"], made["token"], 0, seen))
        player.start()
        out, err = bridge.communicate(timeout=240)
        player.join(timeout=60)
        assert bridge.returncode == 0, (out, err)
        assert "game over" in out
        last = seen[-1]["table"]
        assert last["game_over"] and last["seats"][2]["outside_bot"] is True
        assert last["seats"][2]["name"] == "annbot"
        # The bot moved: North's plays are in the record, made by the program.
        record = person.get(f"/api/games/{made['id']}/record?format=json").json()
        north = [a for hand in record["hands"] for a in hand["actions"] if a[0] == 2]
        assert north


def test_a_revoked_token_is_refused_before_anything(tmp_path: Path) -> None:
    with live_server(bot_app(_db(tmp_path))) as base:
        http, token, token_id = _owner_token(base)
        assert http.delete(f"/api/me/bots/{token_id}",
                           headers={"Content-Type": "application/json"}).status_code == 200
        bridge = _bridge(base, token, "--practice")
        out, err = bridge.communicate(timeout=60)
        assert bridge.returncode == 1
        assert "this bot token is unknown or was revoked" in err
        assert "signed in" not in out


def test_a_program_that_cannot_start_takes_no_seat(tmp_path: Path) -> None:
    with live_server(bot_app(_db(tmp_path))) as base:
        http, token, _ = _owner_token(base)
        made = http.post("/api/tables", json={"kind": "online"}).json()
        bridge = _bridge(f"{base}/online/{made['id']}", token,
                         program=[str(tmp_path / "no-such-bot")])
        out, err = bridge.communicate(timeout=60)
        assert bridge.returncode == 1 and "could not start" in err, (out, err)
        assert "seat" not in out  # nothing taken: the table's seats are as they were
        seats = http.get(f"/api/online/{made['id']}").json()["seats"]
        assert [s["taken"] for s in seats] == [True, False, False, False]


def test_a_refused_move_is_asked_again_and_the_program_sees_only_its_seat(tmp_path: Path
                                                                         ) -> None:
    log = tmp_path / "requests.jsonl"
    with live_server(bot_app(_db(tmp_path))) as base:
        http, token, _ = _owner_token(base)
        bridge = _bridge(base, token, "--practice", "--preset", "short",
                         program=[sys.executable, str(STUBBORN), str(log)])
        out, err = bridge.communicate(timeout=240)
        assert bridge.returncode == 0, (out, err)
        table_id = out.split("at table ")[1].split()[0]
        record = http.get(f"/api/games/{table_id}/record?format=json").json()
    requests = [json.loads(line) for line in log.read_text().splitlines()]
    turns = [r for r in requests if r["cmd"] == "bot"]
    assert requests[-1]["cmd"] == "quit" and turns
    # Every nonsense move was refused with the words a person gets, then asked again.
    refused = [r["refused"] for r in turns if "refused" in r]
    assert len(refused) == len(turns) / 2
    assert {r["code"] for r in refused} == {"illegal"}
    assert all("dance" in r["message"] for r in refused)
    # Hidden cards stay hidden: each view names only the seat's own cards, the upcard and
    # the cards played in that hand (from the finished game's record).
    for turn in turns:
        assert set(turn) <= {"id", "cmd", "seat", "view", "table", "refused"}
        hand = record["hands"][turn["table"]["hand_number"] - 1]
        seat = turn["seat"]
        allowed = set(hand["hands"][seat]) | {hand["kitty"][0]} | {
            a.split()[1] for _, a in hand["actions"] if a.startswith("play ")}
        # (the refusal's words are left out: they give examples of the notation)
        named = set(CARD.findall(json.dumps({k: v for k, v in turn.items()
                                             if k != "refused"})))
        assert named <= allowed, (named - allowed, turn["view"])
        assert set(turn["view"]["hand"]) <= set(hand["hands"][seat]) | {hand["kitty"][0]}


def test_a_second_bridge_at_the_quick_table_the_bot_waits_at_stops_with_a_reason(
        tmp_path: Path) -> None:
    with live_server(bot_app(_db(tmp_path))) as base:
        _, token, _ = _owner_token(base)
        first = _bridge(base, token, "--quick")  # waits at a quick table for players
        try:
            for line in first.stdout or ():  # until it has its seat
                if line.startswith("seat "):
                    break
            second = _bridge(base, token, "--quick")
            out, err = second.communicate(timeout=60)
            assert second.returncode == 1, (out, err)
            assert "already wait" in err  # the server's refusal (409), passed on
        finally:
            first.kill()
            first.communicate(timeout=30)


def test_the_help_reads_as_plain_text() -> None:
    """Issue 34 item 7: ``--help`` shows no reST markup (it showed ````euchre bot connect````)."""
    exe = str(Path(sys.executable).parent / "euchre")
    shown = subprocess.run([exe, "bot", "connect", "--help"], capture_output=True, text=True,
                           timeout=60)
    assert shown.returncode == 0 and "``" not in shown.stdout and ":class:" not in shown.stdout
    assert "Play a seat at a real table with a program" in shown.stdout


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_bridge_stopped_while_it_waits_gives_its_seat_back(tmp_path: Path, stop: int
                                                              ) -> None:
    """Issue 34 item 7: Ctrl-C (SIGINT) or SIGTERM while ``--quick`` waits for the start:
    the bridge says which seat it held and gives it up, and the bot may play now again
    (it was refused 409 for up to an hour, holding a seat it could not see)."""
    with live_server(bot_app(_db(tmp_path))) as base:
        _, token, _ = _owner_token(base)
        bridge = _bridge(base, token, "--quick")
        held = ""
        for line in bridge.stdout or []:
            if line.startswith("seat "):
                held = line.strip()
                break
        assert held.startswith("seat ") and " at table " in held
        table_id = held.rsplit(" ", 1)[1]
        bridge.send_signal(stop)
        out, err = bridge.communicate(timeout=120)
        assert bridge.returncode == 130, (out, err)
        assert f"stopped: gave up {held}" in out
        assert err.strip().splitlines()[-1] == "euchre bot: stopped"
        listed = httpx.get(f"{base}/api/online/{table_id}")
        assert listed.status_code == 404 or all(not s["taken"] for s in listed.json()["seats"])
        again = httpx.post(f"{base}/api/online/quick", json={},
                           headers={"Authorization": f"Bearer {token}"})
        assert again.status_code == 201, again.text


THINKER = """
import json, sys
for line in sys.stdin:
    if json.loads(line).get("cmd") == "quit":
        break
"""
"""A program that thinks forever about every move and ends when told to quit."""


def test_a_bridge_stopped_at_practice_closes_the_table(tmp_path: Path) -> None:
    """Issue 34 item 7: stopped with Ctrl-C while its program thinks at a practice table,
    the bridge closes the bot's table with its bot token (it was left open for the hour)."""
    with live_server(bot_app(_db(tmp_path))) as base:
        _, token, _ = _owner_token(base)
        # A program that never answers a move: the bridge is stopped while it waits for one.
        # It does end when told to quit (as the example bot does), so the bridge's exit is
        # not its 70 s wait for a program that has stopped listening (60 s for an answer to
        # ``quit``, then 10 s before it kills it).
        bridge = _bridge(base, token, "--practice", program=[sys.executable, "-c", THINKER])
        held = ""
        for line in bridge.stdout or []:
            if line.startswith("seat "):
                held = line.strip()
                break
        table_id = held.rsplit(" ", 1)[1]
        bot = {"Authorization": f"Bearer {token}"}
        assert [g["id"] for g in httpx.get(f"{base}/api/me/live", headers=bot)
                .json()["games"]] == [table_id]
        bridge.send_signal(signal.SIGINT)
        out, err = bridge.communicate(timeout=120)
        assert bridge.returncode == 130, (out, err)
        assert f"stopped: closed the practice table ({held})" in out
        assert httpx.get(f"{base}/api/me/live", headers=bot).json()["games"] == []


def test_a_program_that_floods_while_the_bridge_waits_ends_it_and_frees_the_seat(
        tmp_path: Path) -> None:
    """Issue 34 item 7: a program sending lines nobody asked for (here from its first
    moment, while ``--quick`` waits for players) ends the bridge with one line and exit 1,
    and the seat is given up (it hung with no message)."""
    from test_bridge_turns import FLOOD

    from euchre.cli.bot import UNASKED_LINES

    with live_server(bot_app(_db(tmp_path))) as base:
        _, token, _ = _owner_token(base)
        bridge = _bridge(base, token, "--quick", program=[sys.executable, "-c", FLOOD])
        out, err = bridge.communicate(timeout=120)
        assert bridge.returncode == 1, (out, err)
        assert err.strip().splitlines() == [
            f"euchre bot: the program sent more than {UNASKED_LINES} lines nobody asked "
            "for: stopping"]
        held = next(line for line in out.splitlines() if line.startswith("seat "))
        assert f"stopped: gave up {held}" in out
        table_id = held.rsplit(" ", 1)[1]
        listed = httpx.get(f"{base}/api/online/{table_id}")
        assert listed.status_code == 404 or all(not s["taken"] for s in listed.json()["seats"])
