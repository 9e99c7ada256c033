// The bot protocol as pages of the site (/bots and /bots/engine): the project's own documents
// (docs/outside_bots.md, docs/engine_protocol.md, copied under /static/docs/ and kept equal by
// tests/web/test_bot_docs.py), drawn from their Markdown here. A small reader for what those
// documents use: headings, paragraphs, lists, fenced code, tables, `code`, **bold**, *words*
// and links. Everything is built as DOM nodes from text (never as HTML).

import { fill, h } from "./dom.js";

const DOCS = {
  bots: ["/static/docs/outside_bots.md", "Bots: your program at a real table"],
  engine: ["/static/docs/engine_protocol.md", "The engine protocol"],
};

// Links between the documents go to their pages here; other docs/ links to the source.
const PAGES = { "outside_bots.md": "/bots", "engine_protocol.md": "/bots/engine" };

/** Inline Markdown: `code`, **bold**, *emphasis*, [text](link). */
function inline(text) {
  const out = [];
  const pattern = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*|\[[^\]]+\]\([^)\s]+\))/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) out.push(text.slice(last, match.index));
    const token = match[0];
    if (token.startsWith("`")) out.push(h("code", {}, token.slice(1, -1)));
    else if (token.startsWith("**")) out.push(h("strong", {}, inline(token.slice(2, -2))));
    else if (token.startsWith("*")) out.push(h("em", {}, inline(token.slice(1, -1))));
    else {
      const [, words, target] = token.match(/^\[([^\]]+)\]\(([^)\s]+)\)$/);
      const name = target.split("/").pop().split("#")[0];
      const href = PAGES[name] ?? (/^https?:/.test(target) ? target : null);
      out.push(href ? h("a", { href }, inline(words)) : h("span", {}, inline(words)));
    }
    last = match.index + token.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function cells(line) {
  return line.trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
}

/** The document's Markdown as a list of elements. */
export function renderMarkdown(text) {
  const lines = text.split("\n");
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i += 1; continue; }
    const heading = line.match(/^(#{1,4})\s+(.*)$/);
    if (heading) {
      out.push(h(`h${Math.min(heading[1].length, 4)}`, {}, inline(heading[2])));
      i += 1;
    } else if (line.startsWith("```")) {
      const code = [];
      for (i += 1; i < lines.length && !lines[i].startsWith("```"); i += 1) code.push(lines[i]);
      out.push(h("pre", { class: "doc-code" }, h("code", {}, code.join("\n"))));
      i += 1;
    } else if (line.startsWith("|")) {
      const rows = [];
      for (; i < lines.length && lines[i].startsWith("|"); i += 1) rows.push(lines[i]);
      const body = rows.slice(2).map((r) => h("tr", {}, cells(r).map((c) => h("td", {}, inline(c)))));
      out.push(h("div", { class: "doc-table" }, h("table", { class: "account-table" },
        h("thead", {}, h("tr", {}, cells(rows[0]).map((c) => h("th", { scope: "col" }, inline(c))))),
        h("tbody", {}, body))));
    } else if (/^(\s*)([-*]|\d+\.)\s/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items = [];
      while (i < lines.length && lines[i].trim()) {
        const item = lines[i].match(/^\s*(?:[-*]|\d+\.)\s+(.*)$/);
        if (item) items.push(item[1]);
        else items[items.length - 1] += ` ${lines[i].trim()}`; // a wrapped line
        i += 1;
      }
      out.push(h(ordered ? "ol" : "ul", {}, items.map((t) => h("li", {}, inline(t)))));
    } else {
      const words = [];
      for (; i < lines.length && lines[i].trim() && !/^(#|```|\||\s*([-*]|\d+\.)\s)/.test(lines[i]); i += 1) words.push(lines[i].trim());
      out.push(h("p", {}, inline(words.join(" "))));
    }
  }
  return out;
}

/** Mount one of the documents (`which`: "bots" or "engine"). */
export function mountBotDocs(main, which) {
  const [path, title] = DOCS[which] ?? DOCS.bots;
  const body = h("article", { class: "doc-page" }, h("p", { role: "status" }, "Loading…"));
  fill(main, h("div", { class: "page notice" },
    h("nav", { class: "doc-nav", "aria-label": "Bot documents" },
      h("a", { href: "/bots", "aria-current": which === "bots" ? "page" : null }, "Bots at real tables"), " · ",
      h("a", { href: "/bots/engine", "aria-current": which === "engine" ? "page" : null }, "The engine protocol"), " · ",
      h("a", { href: "/account" }, "Your bot tokens")),
    body));
  document.title = `Euchre: ${title}`;
  fetch(path)
    .then((r) => r.text())
    .then((text) => fill(body, renderMarkdown(text)))
    .catch((error) => fill(body, h("p", { class: "error" }, `Could not load the document: ${error.message}`)));
  return () => {};
}
