"""A TCP proxy in front of the test PostgreSQL that a test can cut off and bring back: to
a server behind it, the database is gone (connections reset, new ones refused) and then
back, as when PostgreSQL stops and starts again."""

from __future__ import annotations

import contextlib
import socket
import threading

from sqlalchemy.engine import make_url


class Proxy:
    """Forwards 127.0.0.1:``port`` to ``host``:``target`` until :meth:`cut`."""

    def __init__(self, host: str, target: int) -> None:
        self.host = host
        self.target = target
        self._listener = self._listen(0)
        self.port: int = self._listener.getsockname()[1]
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._serve(self._listener)

    @staticmethod
    def _listen(port: int) -> socket.socket:
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))
        s.listen(64)
        return s

    def _serve(self, listener: socket.socket) -> None:
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection((self.host, self.target))
            except OSError:
                client.close()
                continue
            with self._lock:
                self._open.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()
                with self._lock:
                    self._open.discard(s)

    def cut(self) -> None:
        """The database is gone: no new connections, and the open ones are reset."""
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in accept
        self._listener.close()
        with self._lock:
            open_now = list(self._open)
        for s in open_now:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def restore(self) -> None:
        """The database is back on the same address."""
        self._listener = self._listen(self.port)
        self._serve(self._listener)

    def url(self, db_url: str) -> str:
        """``db_url`` with its host and port replaced by the proxy's."""
        return make_url(db_url).set(host="127.0.0.1", port=self.port) \
            .render_as_string(hide_password=False)

    def close(self) -> None:
        """Stop for good."""
        self.cut()


def proxy_for(db_url: str) -> Proxy:
    """A proxy in front of the server ``db_url`` names."""
    url = make_url(db_url)
    return Proxy(url.host or "127.0.0.1", url.port or 5432)
