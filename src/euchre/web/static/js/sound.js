// Sound effects made in the browser with Web Audio (no files to download): deal, play,
// trick won, your turn, clock low. Off unless the player switches them on.

import { soundOn } from "./prefs.js";

let context = null;

function audio() {
  if (!soundOn()) return null;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  context ??= new Context();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** A short tone: frequency (Hz), start offset and length (s), loudness, wave shape. */
function tone(ctx, freq, at, length, gain = 0.12, type = "sine") {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  const start = ctx.currentTime + at;
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/** A soft card-on-felt noise burst. */
function swish(ctx, at, length = 0.08, gain = 0.18) {
  const frames = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i += 1) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const source = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const amp = ctx.createGain();
  filter.type = "bandpass";
  filter.frequency.value = 2400;
  amp.gain.value = gain;
  source.buffer = buffer;
  source.connect(filter).connect(amp).connect(ctx.destination);
  source.start(ctx.currentTime + at);
}

const SOUNDS = {
  deal: (ctx) => [0, 0.07, 0.14, 0.21, 0.28].forEach((at) => swish(ctx, at, 0.06, 0.12)),
  play: (ctx) => swish(ctx, 0, 0.09, 0.22),
  trick: (ctx) => {
    tone(ctx, 660, 0, 0.18, 0.08, "triangle");
    tone(ctx, 880, 0.09, 0.25, 0.08, "triangle");
  },
  turn: (ctx) => tone(ctx, 988, 0, 0.22, 0.1),
  low: (ctx) => tone(ctx, 440, 0, 0.12, 0.1, "square"),
};

/** Play one of: deal, play, trick, turn, low (nothing when sound is off). */
export function playSound(name) {
  const ctx = audio();
  if (!ctx || !SOUNDS[name]) return;
  try {
    SOUNDS[name](ctx);
  } catch {
    // Sound is a nicety: never let it break the table.
  }
}

/** Show the Sound button's state in its words and in aria-pressed ("Sound: on" / "Sound: off"). */
export function showSoundState(button, on) {
  button.textContent = on ? "Sound: on" : "Sound: off";
  button.setAttribute("aria-pressed", String(on));
}
