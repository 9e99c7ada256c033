// A lobby socket (/ws/lobby, /ws/online/{id}): the server pushes the state, then each change.
// Reconnects by itself (the first message after a reconnect is the whole state again).

const TOO_MANY = 4429;

/**
 * Open a lobby socket on `path`; `onMessage(message)` gets each message, `onState(state)` is
 * told "open", "closed" or "refused" (too many connections: it stops retrying).
 * Returns a function that closes it for good.
 */
export function openLive(path, onMessage, onState = () => {}) {
  let socket = null;
  let closed = false;
  let retries = 0;
  let timer = null;
  let pinger = null;

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}${path}`);
    socket = ws;
    ws.addEventListener("open", () => {
      retries = 0;
      onState("open");
      clearInterval(pinger);
      pinger = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"type":"ping"}'), 25000);
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type !== "pong") onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      clearInterval(pinger);
      if (socket !== ws || closed) return;
      if (event.code === TOO_MANY) {
        onState("refused", event.reason);
        return;
      }
      onState("closed");
      retries += 1;
      timer = setTimeout(connect, Math.min(10000, 500 * 2 ** Math.min(retries, 5)));
    });
  }

  connect();
  return () => {
    closed = true;
    clearTimeout(timer);
    clearInterval(pinger);
    socket?.close();
  };
}
