// Holding a card: picking it up lights up the targets the server lists as
// legal for it; putting it down sends the move the server spelled.

import { page, prefs } from "./model.js";
import { _, ngettext, format, capitalized } from "./i18n.js";
import { cardLabel } from "./cards.js";
import { cardEls, targetSlot, drop } from "./board.js";
import { call, enqueue, gamePath, versioned, said } from "./api.js";
import { setStatus } from "./status.js";
import { render } from "./table.js";
import { sound } from "./sound.js";
import { staleAnswer, newGame } from "./commands.js";

const DOUBLE_MS = 420;
let oneClickAt = -1e9;       // when a click last played a card (its double's second click is ignored)

// A buried card (a merci) is picked only in merci mode: the player asks for it.
export function buried(code) {
  const el = cardEls.get(code);
  const src = page.state && page.state.sources[code];
  return !!(src && el && src.where.startsWith("fan:") && !el.classList.contains("top"));
}

export function pickable(code) {
  return !!(page.state && page.state.sources[code]) && (page.merciMode || !buried(code));
}

export function pick(code) {
  drop();
  const src = page.state.sources[code];
  const el = cardEls.get(code);
  if (!src || !el) return;
  page.held = { code, el, source: src.source, targets: new Map(), at: performance.now() };
  for (const t of src.targets) page.held.targets.set(t.target, t.move);
  el.classList.add("held");
  for (const key of page.held.targets.keys()) {
    const slot = targetSlot(key);
    if (slot) slot.classList.add("target");
  }
  const n = page.held.targets.size;
  const name = capitalized(cardLabel(code));
  setStatus(n ? format(ngettext("{card}: {n} place to go (lit up)", "{card}: {n} places to go (lit up)", n), { card: name, n }) :
    format(_("{card} has nowhere to go"), { card: name }), "info");
}

export function slideBack(el) {
  const t = el.style.transform;
  el.style.transform = "";
  el.classList.remove("dragging");
  if (t && el.animate) {
    el.animate([{ transform: t, zIndex: 60 }, { transform: "translate(0, 0)", zIndex: 60 }],
      { duration: 260, easing: "ease-out" });
  }
}

export function moveFor(h, key) {
  if (h.targets.has(key)) return h.targets.get(key);
  const dst = page.state.target_notation[key];
  return dst ? `${h.source}>${dst}` : null;
}

export function tryMove(h, key) {
  const move = moveFor(h, key);
  if (!move) { slideBack(h.el); drop(); return Promise.resolve(null); }
  return sendMove(move, h.el, key);
}

export function sendMove(move, el, key) {
  return enqueue(async () => {
    try {
      const data = await call("POST", gamePath("/move"), versioned({ move, autoplay: page.autoplay }));
      render(data);
      setStatus(said(data), "info");
      if (data.status !== "won") sound("move");
      return data;
    } catch (e) {
      if (el) slideBack(el);
      drop();
      if (await staleAnswer(e)) return null;
      sound("refused");
      if (key) {
        const slot = targetSlot(key);
        if (slot && slot.animate) {
          slot.classList.add("bad");
          setTimeout(() => slot.classList.remove("bad"), 700);
        }
      }
      setStatus(e.data && e.data.reason ? format(_("Not allowed: {reason}"), { reason: e.data.reason }) : e.message, "error");
      if (e.status === 404) await newGame(null, null);
      return null;
    }
  });
}

export function toFoundation(h) {
  let key = [...h.targets.keys()].find((k) => k.startsWith("foundation:"));
  if (!key) key = "foundation:0";
  return tryMove(h, key);
}

export function slotKey(node) {
  const slot = node && node.closest ? node.closest("[data-target]") : null;
  return slot ? slot.dataset.target : null;
}

// One-click moves: a click on a card with exactly one place to go (as
// the server lists its legal moves) plays it there.  True if it did.
export function oneClick(code) {
  if (!prefs.oneClick || !page.state || page.merciMode || buried(code)) return false;
  const src = page.state.sources[code];
  if (!src || src.targets.length !== 1) return false;
  oneClickAt = performance.now();
  sendMove(src.targets[0].move, cardEls.get(code), src.targets[0].target);
  return true;
}

// A click (or tap, or Enter) on a card or a slot; ``pointer``: by a
// click or a tap (one-click moves are for those, the keys pick and put).
export function activate(code, key, pointer) {
  const now = performance.now();
  // the second click of a double-click whose first already played the card
  if (pointer && now - oneClickAt < DOUBLE_MS) return null;
  if (page.held) {
    if (code === page.held.code) {
      if (now - page.held.at < DOUBLE_MS) return toFoundation(page.held);
      drop();
      setStatus("", "");
      return null;
    }
    if (key && page.held.targets.has(key)) return tryMove(page.held, key);
    if (code && pickable(code) && !(key && key === slotKeyOfCode(page.held.code))) {
      pick(code);
      return null;
    }
    if (key) return tryMove(page.held, key);
    drop();
    return null;
  }
  if (code && pickable(code)) {
    if (pointer && oneClick(code)) return null;
    pick(code);
    return null;
  }
  if (code && page.merciMode) setStatus(format(_("{card} cannot be lifted"), { card: cardLabel(code) }), "error");
  else if (code && page.state.sources[code] && buried(code)) {
    setStatus(format(_("{card} is buried: press M (or the Merci button) first to lift it with the merci"), { card: cardLabel(code) }), "info");
  }
  return null;
}

export function slotKeyOfCode(code) {
  const el = cardEls.get(code);
  return el ? el.dataset.where : null;
}
