// The keyboard: arrows and Enter on the table, one key for each command.

import { $, page } from "./model.js";
import { drop } from "./board.js";
import { setStatus } from "./status.js";
import { renderFacts } from "./facts.js";
import { layout } from "./table.js";
import { undo, sendHome, redo, restart, redeal, toggleMerci, toggleAuto } from "./commands.js";
import { tryMove, activate } from "./hold.js";
import { clearHint, hint, odds } from "./hints.js";
import { openNew, openRules } from "./dialogs.js";
import { showStats } from "./stats.js";

// Of the slots ``among``, the one whose middle is nearest to ``slot``'s, left to right.
export function nearest(slot, among) {
  const mid = (n) => { const r = n.getBoundingClientRect(); return r.left + Math.min(r.width, 2 * r.height) / 2; };
  const x = mid(slot);
  return among.reduce((best, n) => (Math.abs(mid(n) - x) < Math.abs(mid(best) - x) ? n : best));
}

// The slots of the top row, left to right: the redeal pile, the foundations, the cells.
export function topRow() {
  const stock = $("stock");
  return [...(stock.hidden ? [] : [stock]), ...$("foundations").children, ...$("cells").children];
}



export function onTableKey(e) {
  const slot = e.target.closest(".slot");
  if (!slot) return;
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    if (slot.id === "stock") { redeal(); return; }
    const cardNode = e.target.closest(".card");
    if (cardNode && cardNode.classList.contains("liftable")) {
      activate(cardNode.dataset.card, null);
      return;
    }
    const key = slot.dataset.target;
    const tops = [...slot.querySelectorAll(".card")];
    const top = tops.length ? tops[tops.length - 1].dataset.card : null;
    if (page.held) {
      if (top === page.held.code) { activate(top, key); return; }
      tryMove(page.held, key);
      return;
    }
    activate(top, key);
    return;
  }
  const arrows = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -page.cols, ArrowDown: page.cols };
  if (!(e.key in arrows)) return;
  const fans = [...$("fans").children];
  const top = topRow();
  if (slot.classList.contains("fan")) {
    const i = fans.indexOf(slot) + arrows[e.key];
    if (i >= 0 && i < fans.length) { e.preventDefault(); fans[i].focus(); }
    else if (e.key === "ArrowUp" && top.length) {
      // from the first row of fans up to the top row: the slot above
      e.preventDefault();
      nearest(slot, top).focus();
    }
    return;
  }
  const k = top.indexOf(slot);
  if (k < 0) return;
  e.preventDefault();
  if (e.key === "ArrowLeft" && k > 0) top[k - 1].focus();
  else if (e.key === "ArrowRight" && k < top.length - 1) top[k + 1].focus();
  else if (e.key === "ArrowDown" && fans.length) nearest(slot, fans.slice(0, page.cols)).focus();
}

export function onGlobalKey(e) {
  const typing = e.target.matches && e.target.matches("input, select, textarea");
  if (document.querySelector("dialog[open]")) return;
  if (typing) {
    if (e.key === "Escape") e.target.blur();
    return;
  }
  const k = e.key;
  if ($("game").hidden) return; // the statistics or a review are shown: no game key acts unseen
  if ((e.ctrlKey || e.metaKey) && (k === "z" || k === "Z")) { e.preventDefault(); undo(); return; }
  if ((e.ctrlKey || e.metaKey) && (k === "y" || k === "Y")) { e.preventDefault(); redo(); return; }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const keys = {
    u: undo, y: redo, x: sendHome, d: redeal, m: toggleMerci, h: hint, a: toggleAuto, R: restart,
    n: openNew, o: odds, s: () => showStats(true), "?": openRules,
    "/": () => $("move-input").focus(),
    Escape: () => { drop(); page.merciMode = false; clearHint(); layout(); renderFacts(); setStatus("", ""); },
  };
  const fn = keys[k];
  if (fn) { e.preventDefault(); fn(); }
}
