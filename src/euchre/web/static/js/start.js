// The start page: one button for a practice table with the defaults, and a form to choose
// the preset, each house rule and the computer players' levels. No account needed.

import { tournamentsList } from "./tournaments.js";
import { createPractice, getPresets } from "./api.js";
import { cardFace } from "./cards.js";
import { myGamesSection } from "./my-games.js";
import { fill, h } from "./dom.js";
import { navigate } from "./nav.js";
import { mountOnlineSection } from "./online.js";
import { speed, speedSelect } from "./prefs.js";
import { HIDDEN_RULES, RULE_LABELS, rulesSummary } from "./rules-words.js";
import { finishedGames, rememberSeat, unfinishedTable } from "./storage.js";

const CHOICES_KEY = "euchre.choices";
const DEFAULT_LEVELS = ["easy", "medium", "hard", "expert"];

/** Presets and rule fields in one shape, whatever detail the server gives. */
export function normalisePresets(data) {
  const raw = data?.presets ?? {};
  const presets = Array.isArray(raw)
    ? raw.map((p) => ({ name: p.name, rules: p.rules ?? {}, description: p.rules_text ?? p.description ?? "" }))
    : Object.entries(raw).map(([name, value]) =>
        value && value.rules ? { name, rules: value.rules, description: value.description ?? "" } : { name, rules: value ?? {}, description: "" },
      );
  let fields = data?.fields ?? data?.rules ?? null;
  if (fields && !Array.isArray(fields)) {
    fields = Object.entries(fields).map(([name, f]) => ({ name, ...f }));
  }
  if (!fields || !fields.length) {
    // Derive the controls from the values the presets use.
    const seen = new Map();
    for (const p of presets) {
      for (const [name, value] of Object.entries(p.rules)) {
        if (!seen.has(name)) seen.set(name, new Set());
        seen.get(name).add(value);
      }
    }
    fields = [...seen].map(([name, values]) => ({ name, choices: [...values] }));
  }
  fields = fields.filter((f) => !HIDDEN_RULES.has(f.name)).map((f) => ({
    name: f.name,
    label: RULE_LABELS[f.name] ?? f.label ?? humanise(f.name),
    description: f.description ?? f.help ?? "",
    choices: f.choices ?? f.allowed ?? f.values ?? null,
    default: f.default,
    type: f.type ?? null,
  }));
  const levels = (data?.levels ?? DEFAULT_LEVELS).map((l) => (typeof l === "string" ? { name: l, label: humanise(l) } : { name: l.name, label: l.label ?? humanise(l.name) }));
  const defaultLevel = data?.default_level ?? "medium";
  return { presets, fields, levels, defaultLevel, defaultPreset: data?.default ?? presets[0]?.name ?? "classic" };
}

function humanise(name) {
  const text = String(name).replaceAll("_", " ").replaceAll("-", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function isBoolean(field) {
  return field.type === "bool" || field.type === "boolean" || (field.choices && field.choices.every((c) => typeof c === "boolean"));
}

function loadChoices() {
  try {
    return JSON.parse(localStorage.getItem(CHOICES_KEY) || "null");
  } catch {
    return null;
  }
}

export function mountStart(main) {
  const errorBox = h("p", { class: "error", role: "alert", hidden: true });
  const practice = h("button", { type: "button", class: "big-button", onclick: () => start({}) }, "Practice");
  const resumeId = unfinishedTable();
  const online = h("section", { id: "online-tables", class: "choose-box online-box" });
  const form = h("form", { class: "choose", "aria-label": "Choose your table" }, h("p", {}, "Loading the house rules…"));
  const hero = h("div", { class: "hero-cards", "aria-hidden": "true" },
    ["JH", "JD", "AS", "KC", "QH"].map((card, i) => h("div", { class: "hero-card", vars: { "--i": i }, html: cardFace(card) })));

  fill(
    main,
    h(
      "div",
      { class: "page start-page" },
      myGamesSection(), // a signed-in person's games in progress, first
      h(
        "section",
        { class: "hero" },
        hero,
        h("h1", {}, "Euchre"),
        h("p", { class: "tagline" }, "Twenty-four cards, two bowers, first side to ten. Sit South with a computer partner across the table."),
        h(
          "div",
          { class: "hero-actions" },
          practice,
          speedSelect(h, "speed"),
          h("a", { class: "button-link lobby-link", href: "/lobby" }, "Play people: the lobby"),
          resumeId ? h("a", { class: "button-link", href: `/table/${encodeURIComponent(resumeId)}` }, "Resume your game") : null,
        ),
        h("p", { class: "hero-note" }, "No account needed. ", h("a", { href: "/rules" }, "How to play and the house rules"), "."),
        errorBox,
        online,
      ),
      h("section", { class: "choose-box" }, h("h2", {}, "Choose your table"), form),
      finishedList(),
      h("section", { class: "choose-box" }, tournamentsList()),
      // The accounts work adds coin tables here.
      h("section", { id: "coin-tables", class: "coin-slot", hidden: true }),
    ),
  );

  let busy = false;
  async function start(options) {
    if (busy) return;
    busy = true;
    errorBox.hidden = true;
    for (const b of main.querySelectorAll("button")) b.disabled = true;
    try {
      const seat = await createPractice({ ...options, speed: speed() });
      rememberSeat(seat.id, seat.token);
      navigate(`/table/${encodeURIComponent(seat.id)}`);
    } catch (error) {
      errorBox.textContent = `Could not start a table: ${error.message}`;
      errorBox.hidden = false;
      for (const b of main.querySelectorAll("button")) b.disabled = false;
      busy = false;
    }
  }

  mountOnlineSection(online);
  getPresets()
    .then((data) => buildForm(form, normalisePresets(data), start))
    .catch((error) => fill(form, h("p", { class: "error" }, `Could not load the presets: ${error.message}`)));
  return () => {};
}

function buildForm(form, { presets, fields, levels, defaultLevel, defaultPreset }, start) {
  const saved = loadChoices() || {};
  const byName = new Map(presets.map((p) => [p.name, p]));
  const presetSelect = h(
    "select",
    { id: "preset", name: "preset" },
    presets.map((p) => h("option", { value: p.name }, humanise(p.name))),
  );
  presetSelect.value = byName.has(saved.preset) ? saved.preset : defaultPreset;
  const presetNote = h("div", { class: "field-help preset-help", id: "preset-help" });
  presetSelect.setAttribute("aria-describedby", "preset-help");

  const inputs = new Map();
  const ruleRows = fields.map((field) => {
    const id = `rule-${field.name}`;
    let input;
    if (isBoolean(field)) {
      input = h("input", { type: "checkbox", id, name: field.name });
    } else {
      const choices = field.choices ?? [];
      input = h("select", { id, name: field.name }, choices.map((c) => h("option", { value: String(c) }, humanise(c))));
    }
    inputs.set(field.name, input);
    const help = field.description ? h("span", { class: "field-help" }, field.description) : null;
    return isBoolean(field)
      ? h("div", { class: "field field-check" }, input, h("label", { for: id }, field.label, help))
      : h("div", { class: "field" }, h("label", { for: id }, field.label, help), input);
  });

  function ruleValue(field) {
    const input = inputs.get(field.name);
    if (input.type === "checkbox") return input.checked;
    const original = (field.choices ?? []).find((c) => String(c) === input.value);
    return original ?? input.value;
  }

  /** The summary of the rules as they stand now: the preset with every change made here. */
  function showSummary() {
    const preset = byName.get(presetSelect.value);
    const rules = { ...(preset?.rules ?? {}) };
    for (const field of fields) rules[field.name] = ruleValue(field);
    fill(presetNote, h("ul", {}, rulesSummary(rules).map((line) => h("li", {}, line))));
  }

  function showPreset(name) {
    const preset = byName.get(name);
    for (const field of fields) {
      const input = inputs.get(field.name);
      const value = preset?.rules?.[field.name] ?? field.default;
      if (input.type === "checkbox") input.checked = Boolean(value);
      else if (value !== undefined) input.value = String(value);
    }
  }

  presetSelect.addEventListener("change", () => {
    showPreset(presetSelect.value);
    showSummary();
  });
  form.addEventListener("change", (event) => {
    if (event.target !== presetSelect) showSummary();
  });
  showPreset(presetSelect.value);
  if (saved.preset === presetSelect.value && saved.rules) {
    for (const [name, value] of Object.entries(saved.rules)) {
      const input = inputs.get(name);
      if (!input) continue;
      if (input.type === "checkbox") input.checked = Boolean(value);
      else input.value = String(value);
    }
  }

  showSummary();

  const seatsWanted = [
    ["partner", "Partner (North)"],
    ["left", "Left opponent (West)"],
    ["right", "Right opponent (East)"],
  ];
  const levelSelects = seatsWanted.map(([name, label]) => {
    const select = h("select", { id: `level-${name}`, name }, levels.map((l) => h("option", { value: l.name }, l.label)));
    const fallback = levels.find((l) => l.name === defaultLevel)?.name ?? levels[0]?.name;
    select.value = levels.some((l) => l.name === saved[name]) ? saved[name] : fallback;
    return [name, select, h("div", { class: "field" }, h("label", { for: `level-${name}` }, label), select)];
  });

  const submit = h("button", { type: "submit", class: "start-button" }, "Start this table");
  fill(
    form,
    h("div", { class: "field" }, h("label", { for: "preset" }, "Preset"), presetSelect, presetNote),
    h("fieldset", { class: "rules-fields" }, h("legend", {}, "House rules"), ruleRows),
    h("fieldset", { class: "level-fields" }, h("legend", {}, "Computer players"), levelSelects.map(([, , row]) => row)),
    submit,
  );

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const preset = byName.get(presetSelect.value);
    const rules = {};
    for (const field of fields) {
      const value = ruleValue(field);
      const base = preset?.rules?.[field.name] ?? field.default;
      if (value !== base) rules[field.name] = value;
    }
    const options = { preset: presetSelect.value, rules };
    for (const [name, select] of levelSelects) options[name] = select.value;
    localStorage.setItem(CHOICES_KEY, JSON.stringify(options));
    start(options);
  });
}

/** Games finished in this browser, each a link to its replay. */
function finishedList() {
  const games = finishedGames();
  if (!games.length) return null;
  return h(
    "section",
    { class: "finished-box" },
    h("h2", {}, "Your finished games"),
    h(
      "ul",
      { class: "game-list" },
      games.slice(0, 8).map((g) => {
        const mine = (g.seat ?? 0) % 2;
        const result = g.winner === mine ? "Won" : "Lost";
        return h(
          "li",
          {},
          h("a", { href: `/replay/${encodeURIComponent(g.id)}` }, `${result} ${g.score[mine]} to ${g.score[1 - mine]}: watch the replay`),
          h("span", { class: "game-date" }, ` ${new Date(g.at).toLocaleString()}`),
        );
      }),
    ),
  );
}
