// The table's places and cards as elements, shared by the modules that
// draw on it: each card's element by its code, the foundations' order, the
// slot of a target, and letting go of the card in hand.

import { $, page } from "./model.js";

export const SUIT_ORDER = ["C", "D", "H", "S"];
export const cardEls = new Map();   // card code -> its element, kept so moves animate

// The slot a target names ("fan:3", "foundation:0", "cell:1").
export function targetSlot(key) {
  const [kind, n] = key.split(":");
  const box = kind === "fan" ? $("fans") : kind === "foundation" ? $("foundations") : $("cells");
  return box.children[Number(n)] || null;
}

// Let go of the card in hand: its targets go dark.
export function drop() {
  if (!page.held) return;
  page.held.el.classList.remove("held", "dragging");
  page.held.el.style.transform = "";
  for (const slot of document.querySelectorAll(".slot.target")) slot.classList.remove("target");
  page.held = null;
}
