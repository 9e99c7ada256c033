"""What a person move's socket traffic costs a server that does nothing else.

``bench_load.py`` measures ``euchre serve``: each person move there is one message in and,
for the table's events, several small messages out (the computers' moves at the table's
pace). This serves the same traffic from a Starlette WebSocket route on the same uvicorn
(uvloop, ``websockets-sansio``, no compression) with no table behind it: each message in is
answered at once with one message of ``--size`` bytes, then ``--later`` more, one each
``--bot-delay`` seconds (a timer each, as a table's computers move), and ``--extra`` extra
messages a move on average (a trick's end, a deal), sent beside the others; the last one
tells the client to move again. Each message out goes through a writer task per socket,
as the server's sessions send. Prints the server's CPU per person move.

    .venv/bin/python scripts/bench/bench_socket_floor.py --tables 200 --duration 20

The figure is the least the server's web stack costs a person move, whatever the tables
do: the table layer, saving and the computers come on top (``docs/scaling.md``, "The floor
under a move").
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import subprocess
import sys
import time
from collections import deque

from bench_load import cpu_seconds, free_port


def serve(port: int, size: int, later: int, extra: float, delay: float) -> None:
    """Run the floor server on ``port`` until killed."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    body = '{"type":"event","version":%d,"event":{"kind":"action","seat":1,"action":"' \
        + "x" * max(0, size - 70) + '"}}'
    last = '{"type":"event","version":%d,"you":{"legal":["play JC"]}}'

    async def socket_route(ws: WebSocket) -> None:
        await ws.accept()
        loop = asyncio.get_running_loop()
        queue: deque[str] = deque()
        ready = asyncio.Event()
        version = 0
        owed = 0.0

        def put(text: str) -> None:
            queue.append(text)
            ready.set()

        async def writer() -> None:
            while True:
                await ready.wait()
                ready.clear()
                while queue:
                    await ws.send_text(queue.popleft())

        task = asyncio.ensure_future(writer())
        try:
            while True:
                msg = await ws.receive_text()
                if not msg.startswith("{"):
                    continue
                owed += extra
                sends = [body] * (later + 1)
                while owed >= 1.0:  # an extra message, sent with the first later one
                    owed -= 1.0
                    sends.insert(1, body)
                sends[-1] = last
                for i, text in enumerate(sends):
                    step = min(i, later)  # the first at once, then one each delay
                    if step == 0:
                        put(text % (version + i))
                    else:
                        loop.call_later(delay * step, put, text % (version + i))
                version += len(sends)
        except WebSocketDisconnect:
            pass
        finally:
            task.cancel()

    app = Starlette(routes=[WebSocketRoute("/ws", socket_route)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio",
                ws_per_message_deflate=False, ws_max_size=65536, loop="uvloop",
                http="httptools")


async def play(url: str, tables: int, duration: float, warmup: float, pid: int) -> None:
    """Play ``tables`` sockets: move, wait for the message that says move again, move."""
    from websockets.asyncio.client import connect

    moves = 0
    counting = False

    async def one() -> None:
        nonlocal moves
        async with connect(url, max_size=2**20) as ws:
            while True:
                await ws.send('{"type":"act","action":"play JC"}')
                while True:
                    text = await ws.recv()
                    if '"you"' in str(text):
                        break
                if counting:
                    moves += 1

    tasks = [asyncio.ensure_future(one()) for _ in range(tables)]
    await asyncio.sleep(warmup)
    counting = True
    cpu0, t0 = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(duration)
    counting = False
    cpu1, t1 = cpu_seconds(pid), time.monotonic()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    cpu = cpu1 - cpu0
    print(f"{tables} sockets, {moves} person moves in {t1 - t0:.1f} s "
          f"({moves / (t1 - t0):.0f}/s); server CPU {cpu:.2f} s "
          f"({cpu / (t1 - t0) * 100:.0f}% of one core), "
          f"{cpu / max(moves, 1) * 1000:.3f} ms per person move")


def main() -> None:
    """Start the floor server, play against it, print the figure."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="sockets, one a table")
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--size", type=int, default=170, help="bytes a message out")
    parser.add_argument("--later", type=int, default=3,
                        help="messages a move sent later, one each --bot-delay")
    parser.add_argument("--extra", type=float, default=0.8,
                        help="more messages a move on average, sent beside the others")
    parser.add_argument("--bot-delay", type=float, default=0.05)
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.size, args.later, args.extra, args.bot_delay)
        return
    port = free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", str(port),
                               "--size", str(args.size), "--later", str(args.later),
                               "--extra", str(args.extra), "--bot-delay", str(args.bot_delay)])
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        asyncio.run(play(f"ws://127.0.0.1:{port}/ws", args.tables, args.duration,
                         args.warmup, server.pid))
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
