"""The bridge (``euchre bot connect``) asks its program once per turn, and again only after
a refusal, whatever else the table's socket says in between (no server here: a scripted
socket replays an order of messages a real table sends)."""

from __future__ import annotations

import asyncio
import io
import json
import subprocess
import sys
from typing import Any

import pytest

from euchre.cli.bot import (
    ANSWER_WITHIN,
    MAX_LINE,
    QUIT_WITHIN,
    UNASKED_LINES,
    BridgeError,
    Program,
    TakenSeat,
    _BridgeTurns,
    _play_socket,
)
from euchre.table.actor.delta import event_changes


class _Socket:
    """Gives the scripted messages; each one after the first waits for the bridge to have
    sent as many messages as the script says, as a table answers what it was sent."""

    def __init__(self, script: list[tuple[int, dict[str, Any]]]) -> None:
        self.script = script
        self.sent: list[dict[str, Any]] = []

    async def send(self, raw: str) -> None:
        self.sent.append(json.loads(raw))

    def __aiter__(self) -> _Socket:
        return self

    async def __anext__(self) -> str:
        if not self.script:
            raise StopAsyncIteration
        after, message = self.script.pop(0)
        assert len(self.sent) >= after, (after, self.sent)
        return json.dumps(message)


class _Program:
    """Answers nonsense to a new turn and the first legal action when told it was refused."""

    def __init__(self) -> None:
        self.asked: list[dict[str, Any]] = []

    async def ask(self, cmd: str, **fields: Any) -> dict[str, Any]:
        self.asked.append(fields)
        action = fields["view"]["legal"][0] if "refused" in fields else "dance a jig"
        return {"ok": True, "action": action}


def _table(version: int, to_act: int | None, moves: int, hand: int = 1) -> dict[str, Any]:
    view = {"history": [[s % 4, "pass"] for s in range(moves)],
            "legal": ["pass", "order"] if to_act == 0 else []}
    return {"id": "t1", "version": version, "to_act": to_act, "hand_number": hand,
            "view": view, "game_over": False, "closed": None}


def _snapshot(version: int, to_act: int | None, moves: int) -> dict[str, Any]:
    return {"type": "snapshot", "version": version, "table": _table(version, to_act, moves)}


def _event(version: int, to_act: int | None, moves: int, kind: str = "action"
           ) -> dict[str, Any]:
    """An event after which the seat's table is ``_table(version, to_act, moves)`` (sent
    as protocol 2 by :func:`_run`: the event and what it changed)."""
    event: dict[str, Any] = {"kind": kind}
    if kind == "action":  # the move that made the last line of the history
        event.update(seat=(moves - 1) % 4, action="pass")
    return {"type": "event", "version": version, "event": event,
            "table": _table(version, to_act, moves)}


def _protocol2(script: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    """The script as the socket sends it: each event with what it changed in the table the
    bridge holds (its ``table`` only says what that should be after it)."""
    held: dict[str, Any] | None = None
    sent = []
    for after, message in script:
        if message["type"] == "snapshot":
            held = message["table"]
        elif message["type"] == "event":
            table = message["table"]
            message = {k: v for k, v in message.items() if k != "table"}
            message["changes"] = event_changes(held, table, [message["event"]])
            held = table
        sent.append((after, message))
    return sent


ILLEGAL = {"type": "error", "code": "illegal", "message": "dance a jig is not a move"}


def _run(script: list[tuple[int, dict[str, Any]]]) -> tuple[_Socket, _Program]:
    socket, program = _Socket(_protocol2(script)), _Program()
    asyncio.run(_play_socket(socket, TakenSeat("t1", 0, "tok"), program,  # type: ignore[arg-type]
                             io.StringIO(), _BridgeTurns()))
    return socket, program


def test_an_event_that_leaves_the_turn_alone_does_not_ask_again() -> None:
    # The order a practice table sent (traced): the snapshot, then the seat's own presence
    # (a new version, the same turn), then the refusal of the first answer.
    _, program = _run([
        (1, _snapshot(4, 0, 3)),
        (2, _event(5, 0, 3, kind="presence")),
        (2, ILLEGAL),
        (3, _event(6, 1, 4)),
    ])
    assert ["refused" in fields for fields in program.asked] == [False, True]


def test_each_refusal_asks_again_and_a_new_turn_is_asked_afresh() -> None:
    socket, program = _run([
        (1, _snapshot(4, 0, 3)),
        (2, ILLEGAL),
        (3, _event(5, 0, 3, kind="spectators")),
        (3, _event(6, 1, 4)),
        (3, _event(7, 0, 5)),
        (4, ILLEGAL),
        (5, _event(8, 1, 6)),
    ])
    assert ["refused" in fields for fields in program.asked] == [False, True, False, True]
    assert [m.get("action") for m in socket.sent[1:]] == [
        "dance a jig", "pass", "dance a jig", "pass"]


def test_a_program_line_over_the_limit_ends_the_bridge_with_one_reason() -> None:
    """Issue 34 item 7: a 2 MB answer (a hostile or broken program) is one clear reason,
    not a hang nor a traceback."""
    huge = ("import sys; sys.stdin.readline(); "
            "sys.stdout.write('x' * 2_000_000 + '\\n'); sys.stdout.flush(); sys.stdin.read()")

    async def scenario() -> str:
        program = await Program.start([sys.executable, "-c", huge])
        try:
            await program.ask("bot", seat=0)
        except BridgeError as e:
            return str(e)
        finally:
            await program.close()
        return "answered"

    assert asyncio.run(scenario()) == f"the program sent a line over {MAX_LINE} bytes: stopping"


FLOOD = ("import sys\n"
         "while True:\n"
         "    sys.stdout.write('{\"ok\": true, \"action\": \"pass\"}\\n'); sys.stdout.flush()")
"""A program that answers before anything is asked, for ever."""


def test_a_program_that_floods_ends_the_bridge_while_nothing_is_asked() -> None:
    """Issue 34 item 7: a program sending lines nobody asked for is stopped with one
    reason, even while the bridge waits (for the start, for the other seats), and none of
    its lines is taken for an answer."""

    async def scenario() -> tuple[str, int]:
        program = await Program.start([sys.executable, "-c", FLOOD])
        try:
            await program.guard(asyncio.Event().wait())  # waiting for ever, asking nothing
        except BridgeError as e:
            return str(e), program.unasked
        finally:
            await program.close()
        return "waited", 0

    reason, unasked = asyncio.run(scenario())
    assert reason == (f"the program sent more than {UNASKED_LINES} lines nobody asked for: "
                      "stopping")
    assert unasked == UNASKED_LINES + 1


def test_a_program_stopped_with_output_left_unread_leaves_nothing_open(tmp_path) -> None:
    """A program whose output the bridge stopped reading (a line over the limit, then more
    than the pipe's buffer) is stopped with its pipes closed: nothing is left for the
    interpreter to complain about after the loop ends (the bridge printed a traceback,
    "Event loop is closed", after its one line)."""
    big = f"import sys, time\nsys.stdout.write('x' * {8 * MAX_LINE}); sys.stdout.flush()\n" \
        "time.sleep(60)"
    script = tmp_path / "stop.py"
    script.write_text(
        "import asyncio, sys\n"
        "from euchre.cli.bot import BridgeError, Program\n"
        "async def main():\n"
        f"    program = await Program.start([sys.executable, '-c', {big!r}])\n"
        "    await program.failed.wait()\n"
        "    while program.proc.stdout._transport._paused is False:\n"
        "        await asyncio.sleep(0.01)\n"
        "    print(await program.close())\n"
        "asyncio.run(main())\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "-9"  # killed: it had failed
    assert done.stderr == ""


def test_a_program_that_stopped_reading_is_not_waited_for_a_whole_answer_time() -> None:
    """Stopping the bridge asks ``quit`` with :data:`QUIT_WITHIN`, not the
    :data:`ANSWER_WITHIN` a turn gets: a program that reads nothing any more is killed then
    (a bridge stopped by SIGTERM took 70 s to end)."""
    deaf = "import time\ntime.sleep(600)"
    asked: list[float] = []

    async def scenario() -> int:
        program = await Program.start([sys.executable, "-c", deaf])
        real_ask = program.ask

        async def ask(cmd: str, *, within: float = ANSWER_WITHIN,
                      **fields: Any) -> dict[str, Any]:
            asked.append(within)
            return await real_ask(cmd, within=within, **fields)

        program.ask = ask  # type: ignore[method-assign]
        return await program.close()

    assert asyncio.run(scenario()) == -9  # killed: it never answered, never ended
    assert asked == [QUIT_WITHIN] and QUIT_WITHIN < ANSWER_WITHIN


def test_a_line_sent_unasked_is_not_taken_for_the_next_answer() -> None:
    """A greeting before the first request is skipped; the answer is the one asked for."""
    polite = ("import json, sys\n"
              "print('hello, I am a bot', flush=True)\n"
              "for line in sys.stdin:\n"
              "    r = json.loads(line)\n"
              "    print(json.dumps({'id': r['id'], 'ok': True, 'action': 'pass'}), flush=True)")

    async def scenario() -> tuple[dict[str, Any], int]:
        program = await Program.start([sys.executable, "-c", polite])
        try:
            while program.unasked == 0:  # the greeting read (and set aside)
                await asyncio.sleep(0.01)
            return await program.ask("bot", seat=0), program.unasked
        finally:
            await program.close()

    answer, unasked = asyncio.run(scenario())
    assert answer == {"id": 1, "ok": True, "action": "pass"} and unasked == 1


class _Stubborn(_Program):
    """Answers nonsense every time, refused or not."""

    async def ask(self, cmd: str, **fields: Any) -> dict[str, Any]:
        self.asked.append(fields)
        return {"ok": True, "action": "dance a jig"}


def test_a_program_refused_three_times_at_one_turn_ends_the_bridge() -> None:
    """Issue 34 item 7: three illegal answers at one turn end the bridge with one reason
    (it waited for ever at a table without a clock)."""
    socket, program = _Socket([(1, _snapshot(4, 0, 3)), (2, ILLEGAL), (3, ILLEGAL),
                               (4, ILLEGAL), (5, _event(5, 0, 3))]), _Stubborn()
    with pytest.raises(BridgeError) as stopped:
        asyncio.run(_play_socket(socket, TakenSeat("t1", 0, "tok"), program,  # type: ignore[arg-type]
                                 io.StringIO(), _BridgeTurns()))
    assert str(stopped.value) == ("the table refused the program's move 3 times at one turn "
                                  "(last: dance a jig is not a move): stopping")
    assert len(program.asked) == 3
