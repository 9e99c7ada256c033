// Settings this browser keeps: the computer players' speed at practice tables, and sound.

const SPEED_KEY = "euchre.speed";
const SOUND_KEY = "euchre.sound";

/** The practice-table speeds, with their labels. */
export const SPEEDS = [
  ["slow", "Slow"],
  ["normal", "Normal"],
  ["fast", "Fast"],
];

/** How each speed scales the table's pauses (the server's factors, for the trick's sweep). */
export const SPEED_FACTORS = { slow: 1.6, normal: 1, fast: 0.35 };

/**
 * How long a hand's result holds the table at each speed (ms), unless the person continues
 * sooner: the server's RESULT_HOLD (table/actor/pacing.py), never under 1.5 s. At a table with
 * one person the server waits as long (or for the page's "continue"); elsewhere only the
 * page's display waits, and the moves made meanwhile are shown, in order, after it.
 */
export const RESULT_HOLD_MS = { slow: 6000, normal: 4000, fast: 2000 };

/** The result's hold at `name` (unknown: normal), never under 1.5 s. */
export function resultHoldMs(name) {
  return Math.max(1500, RESULT_HOLD_MS[name] ?? RESULT_HOLD_MS.normal);
}

/** The chosen speed for new practice tables ("normal" unless changed). */
export function speed() {
  const saved = localStorage.getItem(SPEED_KEY);
  return SPEEDS.some(([name]) => name === saved) ? saved : "normal";
}

export function setSpeed(name) {
  localStorage.setItem(SPEED_KEY, name);
}

/** Whether sound effects are on (off until switched on). */
export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
}

/** A labelled speed menu that remembers the choice. */
export function speedSelect(h, id = "speed") {
  const select = h(
    "select",
    { id, name: "speed", onchange: (event) => setSpeed(event.target.value) },
    SPEEDS.map(([name, label]) => h("option", { value: name }, label)),
  );
  select.value = speed();
  return h("div", { class: "field speed-field" }, h("label", { for: id }, "Computer speed"), select);
}
