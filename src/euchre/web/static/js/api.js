// HTTP calls to the server (JSON in, JSON out; errors carry {"error": "..."}).

/** A refused call: the server's message, and the HTTP `status`. */
export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/** Call the API; `headers` are added to the request (e.g. the CSRF token). */
export async function request(method, path, body, headers = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers } };
  // The server takes a request that changes something only as JSON (a form or text post
  // from another site is refused): say so even when there is no body.
  if (body !== undefined || (method !== "GET" && method !== "HEAD")) {
    init.headers["Content-Type"] = "application/json";
  }
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) {
    const message = data && data.error ? data.error : `${response.status} ${response.statusText}`;
    throw new ApiError(message, response.status);
  }
  return data;
}

/** Presets, rule fields and bot levels for the start page. */
export function getPresets() {
  return request("GET", "/api/presets");
}

/** Start a practice table: resolves to {id, seat, token}. */
export function createPractice(options) {
  return request("POST", "/api/tables", { kind: "practice", ...options });
}

/** The seat's snapshot of a table (the same table object the socket sends). */
export function getTable(id, token) {
  return request("GET", `/api/tables/${encodeURIComponent(id)}`, undefined, { "X-Seat-Token": token });
}

/** The frames of a finished game for the replay viewer. */
export function getReplay(gameId) {
  return request("GET", `/api/games/${encodeURIComponent(gameId)}/replay`);
}

/** The URL of a game's record (the hand history) as text. */
export function recordUrl(gameId) {
  return `/api/games/${encodeURIComponent(gameId)}/record`;
}

/** The record text, for downloading. */
export async function getRecordText(gameId) {
  const response = await fetch(recordUrl(gameId));
  if (!response.ok) throw new ApiError(`could not fetch the record (${response.status})`);
  return response.text();
}
