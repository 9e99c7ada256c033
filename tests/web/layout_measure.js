// The phone-layout test's measurements (tests/web/test_phone_layout.py): every problem found
// with the boxes of names, tags, labels and cards, as sentences.
(() => {
  const felt = document.querySelector('.felt').getBoundingClientRect();
  const box = (el) => el.getBoundingClientRect();
  const shown = (el) => {
    const r = box(el);
    const style = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && !el.closest('[hidden]');
  };
  const name = (el) => `${el.className.baseVal ?? el.className} "${(el.getAttribute('aria-label') || el.textContent).trim().slice(0, 40)}"`;
  const all = (sel) => [...document.querySelectorAll(sel)].filter(shown);
  const overlap = (a, b) => {
    const r = box(a), s = box(b);
    const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
    const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
    return w > 1 && h > 1;
  };
  const problems = [];
  // Names: one line, never broken inside a word; shortened ones say the full name.
  for (const el of all('.seat-title, .last-trick-name, .score-label, .strip-side')) {
    const range = document.createRange();
    range.selectNodeContents(el);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    if (lines.size > 1) problems.push(`${name(el)} is broken over ${lines.size} lines`);
    if (el.scrollWidth > el.clientWidth + 1) {
      const full = el.getAttribute('title') || '';
      if (!full || !el.textContent.trim().startsWith(full)) problems.push(`${name(el)} is cut with no full name in its title`);
      if (getComputedStyle(el).textOverflow !== 'ellipsis') problems.push(`${name(el)} is cut without an ellipsis`);
    }
  }
  // The last trick's cards and captions side by side, never one over another.
  const plays = all('.last-trick-cards li > *');
  for (let i = 0; i < plays.length; i++) {
    for (let j = i + 1; j < plays.length; j++) {
      if (plays[i].parentElement !== plays[j].parentElement && overlap(plays[i], plays[j])) problems.push(`${name(plays[i])} is over ${name(plays[j])}`);
    }
  }
  // Tags, marks and bubbles: whole, inside the felt and the window.
  const labels = all('.seat-label, .seat-said, .upcard-note, .pile-caption');
  for (const el of all('.tag, .seat-mark, .seat-away, .seat-said, .seat-clock, .seat-label')) {
    const r = box(el);
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) problems.push(`${name(el)} is clipped inside`);
    if (r.left < felt.left - 0.5 || r.right > felt.right + 0.5 || r.left < 0 || r.right > innerWidth + 0.5) {
      problems.push(`${name(el)} is clipped at ${[r.left, r.right].map(Math.round)} (felt ${[felt.left, felt.right].map(Math.round)})`);
    }
  }
  // No label over a card, nor over another seat's label.
  const cards = all('.card-button, .trick-card, .upcard, .kitty .back, .seat-cards .back');
  for (const label of labels) {
    for (const card of cards) {
      if (label.closest('.seat') && card.closest('.seat') === label.closest('.seat') && card.matches('.seat-cards .back')) continue;
      if (overlap(label, card)) problems.push(`${name(label)} is over ${name(card)}`);
    }
  }
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) {
      if (labels[i].contains(labels[j]) || labels[j].contains(labels[i])) continue;
      if (overlap(labels[i], labels[j])) problems.push(`${name(labels[i])} is over ${name(labels[j])}`);
    }
  }
  // Seats' cards (backs) never cover another seat's label or the trick.
  for (const back of all('.seat-cards .back')) {
    for (const card of all('.trick-card')) if (overlap(back, card)) problems.push(`a back is over ${name(card)}`);
  }
  // The hint and the panels do not cover the trick on the felt (the last trick panel is the trick).
  for (const panel of all('.hints-panel')) {
    for (const card of all('.trick-card')) if (overlap(panel, card)) problems.push(`the hint is over ${name(card)}`);
  }
  // Nothing scrolls sideways.
  if (document.documentElement.scrollWidth > innerWidth) problems.push(`the page is ${document.documentElement.scrollWidth}px wide`);
  return problems;
})
