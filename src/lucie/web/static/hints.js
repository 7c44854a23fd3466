// Hints (a card and where it goes, with an arrow) and the odds, both the
// solver's on the server, shown only if the game is still where it was.

import { $, page } from "./model.js";
import { _, ngettext, format } from "./i18n.js";
import { svgEl } from "./cards.js";
import { cardEls, targetSlot } from "./board.js";
import { call, gamePath } from "./api.js";
import { setStatus, decimal, pc } from "./status.js";

// Offer resigning prominently (the game can no longer be won).
export function offerResign(why) {
  if (!page.state || page.state.finished) return;
  $("resign-why").textContent = why;
  $("resign-offer").hidden = false;
}


let arrow = null; // [card element, slot] of the hint shown

export function clearHint() {
  for (const n of document.querySelectorAll(".hint, .hint-target")) n.classList.remove("hint", "hint-target");
  $("overlay").replaceChildren();
  arrow = null;
}

// Hints and odds are not queued behind moves (nor moves behind them): the
// answer is shown only if the game is still where it was when asked.
export function askedAt() { return page.state ? `${page.state.id} ${page.state.moves.join(" ")}` : ""; }

export function hint() {
  setStatus(_("Thinking…"), "info");
  const asked = askedAt();
  (async () => {
    try {
      const h = await call("GET", gamePath("/hint"));
      if (askedAt() !== asked) { setStatus(_("That hint was for an earlier position."), "info"); return; }
      clearHint();
      setStatus(h.move ? format(_("Hint: {text}"), { text: h.text }) : h.text || _("No hint."), "hint");
      if (h.proved_lost) offerResign(_("The solver has proved this game can no longer be won."));
      if (h.move === "R") $("stock").classList.add("hint");
      if (h.card && h.target) {
        const el = cardEls.get(h.card), slot = targetSlot(h.target);
        if (el) el.classList.add("hint");
        if (slot) slot.classList.add("hint-target");
        if (el && slot) { arrow = [el, slot]; drawArrow(el, arrowEnd(slot)); }
      }
    } catch (e) { setStatus(e.message, "error"); }
  })();
}

// Where a hint's arrow ends: on the top card of the place it goes to
// (the card it goes onto), else on the empty place.
export function arrowEnd(slot) {
  const cards = slot.querySelectorAll(".card");
  return cards.length ? cards[cards.length - 1] : slot;
}

// The hint's arrow drawn again (the window changed size).
export function redrawArrow() {
  if (arrow) drawArrow(arrow[0], arrowEnd(arrow[1]));
}

export function drawArrow(from, to) {
  const box = $("table").getBoundingClientRect();
  const a = from.getBoundingClientRect(), b = to.getBoundingClientRect();
  const x1 = a.left + a.width / 2 - box.left, y1 = a.top + a.height / 2 - box.top;
  const x2 = b.left + Math.min(b.width, 2 * b.height) / 2 - box.left, y2 = b.top + b.height / 2 - box.top;
  const overlay = $("overlay");
  overlay.setAttribute("viewBox", `0 0 ${box.width} ${box.height}`);
  const defs = svgEl("defs");
  const marker = svgEl("marker", { id: "arrowhead", markerWidth: 8, markerHeight: 8, refX: 6, refY: 4, orient: "auto" });
  marker.appendChild(svgEl("path", { d: "M0 0 L8 4 L0 8 Z", class: "arrowhead" }));
  defs.appendChild(marker);
  overlay.replaceChildren(defs, svgEl("line", { x1, y1, x2, y2, class: "arrow", "marker-end": "url(#arrowhead)" }));
}

export function odds() {
  const box = $("odds");
  box.hidden = false;
  box.textContent = _("Estimating the odds from this position…");
  const asked = askedAt();
  (async () => {
    try {
      const o = await call("GET", gamePath("/odds"));
      const when = askedAt() === asked ? _("Odds from here") : format(_("Odds from move {n}"), { n: o.moves_played });
      // the claims are the server's: "proved" and "exact" only where it says proved
      if (o.win_rate == null) { box.textContent = o.text || _("No odds."); return; }
      if (askedAt() === asked && o.proved && o.win_rate === 0) {
        offerResign(_("The solver has proved this game can no longer be won."));
      }
      const parts = [format(_("{when}: {chance} to win ({level} interval {low}–{high})"),
        { when, chance: pc(o.win_rate), level: pc(0.95), low: pc(o.ci95[0]), high: pc(o.ci95[1]) })];
      if (o.mean_score != null) parts.push(format(_("mean score {score}"), { score: decimal(o.mean_score) }));
      if (o.samples) parts.push(format(ngettext("from {n} play-out", "from {n} play-outs", o.samples), { n: o.samples }));
      else if (o.proved) parts.push(_("exact"));
      box.textContent = parts.join(", ") + "." +
        (o.budget_ran_out ? " " + _("The time budget ran out: the figure is what the time allowed.") : "");
    } catch (e) { box.textContent = e.message; }
  })();
}
