// The table: the fans, foundations and cells laid out to fit the window,
// each card an element kept from one state to the next so moves animate.

import { $, saved, page } from "./model.js";
import { _, format, suitName, capitalized } from "./i18n.js";
import { svgEl, useSuit, cardLabel, makeCard } from "./cards.js";
import { SUIT_ORDER, cardEls } from "./board.js";
import { renderFacts } from "./facts.js";

// What other modules do once a state is drawn (the hint cleared, the end
// dialog shown): lucie.js names them, so the table needs none of them.
const watchers = [];
export function onRender(fn) { watchers.push(fn); }

export function cardEl(code) {
  let el = cardEls.get(code);
  if (!el) {
    el = makeCard(code);
    cardEls.set(code, el);
  }
  return el;
}

export function ensureSlots(container, count, make) {
  while (container.children.length > count) container.lastElementChild.remove();
  while (container.children.length < count) container.appendChild(make(container.children.length));
}

export function makeSlot(kind, target) {
  const slot = document.createElement("div");
  slot.className = `slot ${kind}`;
  slot.tabIndex = 0;
  slot.setAttribute("role", "button");
  if (target) slot.dataset.target = target;
  return slot;
}

export function addName(slot, text) {
  const name = document.createElement("span");
  name.className = "fan-name";
  name.textContent = text;
  slot.appendChild(name);
}

export function makeFanSlot(i) {
  const slot = makeSlot("fan");
  addName(slot, "");
  return slot;
}

export function makeFoundationSlot(s) {
  const slot = makeSlot("foundation", `foundation:${s}`);
  const mark = svgEl("svg", { viewBox: "0 0 60 84", class: "mark", "aria-hidden": "true" });
  mark.appendChild(useSuit(SUIT_ORDER[s], 12, 24, 36));
  slot.appendChild(mark);
  return slot;
}

export function makeCellSlot(c) {
  const slot = makeSlot("cell", `cell:${c}`);
  addName(slot, format(_("cell {n}"), { n: c + 1 }));
  return slot;
}

// Smallest card drawn: its corner's rank is still 12 px tall.
const MIN_CARD = 34;
// The part of a card's width its corner label needs ("10" included).
const LABEL = 0.3;

// The fans' lengths, row by row, with ``c`` fans a row.
export function rowsOf(c) {
  const fans = page.state ? page.state.fans.map((f) => f.length) : new Array(18).fill(3);
  const rows = [];
  for (let i = 0; i < fans.length; i += c) rows.push(fans.slice(i, i + c));
  return rows;
}

// The largest card width with ``c`` fans a row: every row of fans (and
// the top row) within the window's height, a fan of three at ease in
// its column, and each card's corner label showing in every row.
export function cardWidthFor(c, width, gap, roomH) {
  const rows = rowsOf(c);
  const avail = width - gap * (c - 1);
  const n = rows.length + 1;
  const byHeight = Math.floor((roomH - n * (gap + 12) + 12) / (n * 1.4));
  const byColumn = Math.floor(avail / c / 1.88);
  const byLabels = Math.min(...rows.map((r) =>
    Math.floor((avail - 2 * c) / (c + LABEL * r.reduce((a, k) => a + Math.max(0, k - 1), 0)))));
  const fit = Math.min(byHeight, byColumn, byLabels);
  // every label showing comes first, then the size (a long fan on a small phone may scroll)
  return { cols: c, fit, labels: byLabels >= MIN_CARD, cardW: Math.max(MIN_CARD, fit), avail };
}

export function geometry() {
  const table = $("table");
  const pad = getComputedStyle(table);
  const width = table.clientWidth - parseFloat(pad.paddingLeft) - parseFloat(pad.paddingRight);
  const nf = page.state ? page.state.fans.length : 18;
  const first = width < 560 ? 3 : width < 900 ? 4 : nf % 4 === 0 && width < 1100 ? 4 : 6;
  const gap = width < 560 ? 6 : 12;
  const top = table.getBoundingClientRect().top + window.scrollY;
  // the fan names under the last row, and the message box at the bottom
  const roomH = window.innerHeight - top - 70;
  // more columns when they give larger cards (a phone held sideways, a short window)
  let best = cardWidthFor(first, width, gap, roomH);
  for (const c of [4, 6, nf % 4 === 0 ? 8 : 9]) {
    if (c <= first || c > nf) continue;
    const g = cardWidthFor(c, width, gap, roomH);
    if (g.labels > best.labels || (g.labels === best.labels && g.fit > best.fit + 1)) best = g;
  }
  page.cols = best.cols;
  const cardW = best.cardW;
  const root = document.documentElement.style;
  root.setProperty("--cols", String(page.cols));
  root.setProperty("--gap", gap + "px");
  root.setProperty("--card-w", cardW + "px");
  root.setProperty("--card-h", Math.round(cardW * 1.4) + "px");
  // the header and the toolbar grow with the cards on a large screen
  root.setProperty("--ui", String(Math.min(1.6, Math.max(1, cardW / 110)).toFixed(2)));
  return { widths: fanWidths(best.avail, cardW), cardW };
}

// The width of each fan's place: equal columns while every fan shows its
// cards' corners in them; else a row's long fans take the room its short
// ones leave.
export function fanWidths(avail, cardW) {
  const widths = [];
  const slotW = Math.floor(avail / page.cols);
  for (const row of rowsOf(page.cols)) {
    const need = row.map((k) => cardW + 2 + Math.max(0, k - 1) * LABEL * cardW);
    if (need.every((w) => w <= slotW)) {
      widths.push(...row.map(() => slotW));
      continue;
    }
    const room = avail - (page.cols - row.length) * slotW;
    const sum = need.reduce((a, w) => a + w, 0);
    widths.push(...need.map((w) => Math.floor(sum <= room ? w + (room - sum) * w / sum : room * w / sum)));
  }
  return widths;
}

export function render(next) {
  // where every card is now (with any drag offset), to animate from there
  const before = new Map();
  for (const [code, el] of cardEls) {
    if (el.isConnected) before.set(code, el.getBoundingClientRect());
  }
  const changed = !page.state || page.state.id !== next.id || page.state.moves.join(" ") !== next.moves.join(" ");
  // won by a move made here (not a won game opened again)
  const justWon = !!page.state && page.state.id === next.id && !page.state.finished && next.status === "won";
  page.state = next;
  page.stateAt = performance.now();
  if (changed) $("odds").hidden = true;
  if (changed || next.finished) $("resign-offer").hidden = true;
  saved.set("lucie.game", page.state.id);
  page.held = null;
  page.press = null;
  if (!page.state.merci_moves) page.merciMode = false;
  for (const el of cardEls.values()) {
    el.style.transform = "";
    el.classList.remove("dragging", "held", "hint", "bad");
  }
  for (const slot of document.querySelectorAll(".slot.target, .slot.bad")) slot.classList.remove("target", "bad");
  layout();
  renderFacts();
  for (const [code, el] of cardEls) {
    const old = before.get(code);
    if (!old || !el.isConnected) continue;
    const now = el.getBoundingClientRect();
    const dx = old.left - now.left, dy = old.top - now.top;
    if (Math.abs(dx) + Math.abs(dy) > 1 && el.animate) {
      el.animate([{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 50 },
        { transform: "translate(0, 0)", zIndex: 50 }],
      { duration: 220, easing: "cubic-bezier(.2,.7,.3,1)" });
    }
  }
  for (const fn of watchers) fn(justWon);
}

export function layout() {
  if (!page.state) return;
  const { widths, cardW } = geometry();
  const placed = new Set();
  for (const el of cardEls.values()) {
    el.classList.remove("liftable", "top");
    el.removeAttribute("tabindex");
  }
  // fans
  const fansBox = $("fans");
  ensureSlots(fansBox, page.state.fans.length, makeFanSlot);
  page.state.fans.forEach((fan, i) => {
    const slot = fansBox.children[i];
    const letter = page.state.fan_names[i];
    slot.dataset.target = `fan:${i}`;
    slot.querySelector(".fan-name").textContent = letter;
    slot.classList.toggle("empty", fan.length === 0);
    slot.style.width = `${widths[i]}px`;
    const room = widths[i] - cardW - 2;
    const step = fan.length > 1 ? Math.min(cardW * 0.44, room / (fan.length - 1)) : 0;
    fan.forEach((code, k) => {
      const el = cardEl(code);
      el.style.left = `${(k * step).toFixed(2)}px`;
      el.style.zIndex = String(k + 1);
      el.dataset.where = `fan:${i}`;
      if (k === fan.length - 1) el.classList.add("top");
      if (el.parentElement !== slot || slot.children[k + 1] !== el) slot.insertBefore(el, slot.children[k + 1] || null);
      placed.add(code);
    });
    const names = fan.map(cardLabel);
    slot.setAttribute("aria-label", fan.length
      ? format(_("Fan {letter}: {cards}; top card {top}"), { letter, cards: names.join(", "), top: names[names.length - 1] })
      : format(_("Fan {letter}: empty"), { letter }));
  });
  // foundations
  const fBox = $("foundations");
  ensureSlots(fBox, 4, makeFoundationSlot);
  for (let s = 0; s < 4; s++) {
    const slot = fBox.children[s];
    const top = page.state.foundation_tops[String(s)];
    for (const el of [...slot.querySelectorAll(".card")]) if (el.dataset.card !== top) el.remove();
    if (top) {
      const el = cardEl(top);
      el.style.left = "0px";
      el.style.zIndex = "1";
      el.dataset.where = `foundation:${s}`;
      if (el.parentElement !== slot) slot.appendChild(el);
      placed.add(top);
    }
    const suit = suitName(SUIT_ORDER[s]);
    slot.setAttribute("aria-label", capitalized(top ? format(_("{suit} foundation: {card} on top"), { suit, card: cardLabel(top) })
      : format(_("{suit} foundation: empty"), { suit })));
  }
  // cells
  const cBox = $("cells");
  ensureSlots(cBox, page.state.cells.length, makeCellSlot);
  cBox.hidden = page.state.cells.length === 0;
  page.state.cells.forEach((code, c) => {
    const slot = cBox.children[c];
    for (const el of [...slot.querySelectorAll(".card")]) if (el.dataset.card !== code) el.remove();
    if (code) {
      const el = cardEl(code);
      el.style.left = "0px";
      el.dataset.where = `cell:${c}`;
      el.classList.add("top");
      if (el.parentElement !== slot) slot.appendChild(el);
      placed.add(code);
    }
    slot.setAttribute("aria-label", code ? format(_("Cell {n}: {card}"), { n: c + 1, card: cardLabel(code) })
      : format(_("Cell {n}: empty"), { n: c + 1 }));
  });
  for (const [code, el] of cardEls) {
    if (!placed.has(code)) { el.remove(); cardEls.delete(code); }
  }
  if (page.merciMode) {
    for (const [code, src] of Object.entries(page.state.sources)) {
      const el = cardEls.get(code);
      if (el && !el.classList.contains("top") && src.where.startsWith("fan:")) {
        el.classList.add("liftable");
        el.tabIndex = 0;
      }
    }
  }
  $("table").classList.toggle("merci-mode", page.merciMode);
}

// Another game: no card element is kept to animate from the last one.
export function renderFresh(data) {
  page.endShownFor = null;
  cardEls.forEach((el) => el.remove());
  cardEls.clear();
  render(data);
}
