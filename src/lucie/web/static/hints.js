// Hints (a card and where it goes, with an arrow) and the odds, both the
// solver's on the server, shown only if the game is still where it was.

import { $, page } from "./model.js";
import { _, ngettext, format } from "./i18n.js";
import { svgEl } from "./cards.js";
import { cardEls, targetSlot } from "./board.js";
import { call, gamePath } from "./api.js";
import { setStatus, decimal, pc } from "./status.js";
import { renderFacts } from "./facts.js";

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

// Whether the game in play counts for the table of the day now, as the
// server says (the page knows no rule of fair play: it only reads
// daily_counts, and asks before the help the server would mark).
function counted() {
  const s = page.state;
  return Boolean(s && s.daily && s.daily_counts === true && !s.finished && !s.practice);
}

// Help asked in a game that counts for the table of the day: ask first.
function mayAskHelp(question, declined) {
  if (!counted() || window.confirm(question)) return true;
  setStatus(declined, "info");
  return false;
}

// The server's word, after help was asked, on whether the game still
// counts (its answer, else the game read again); true if it just stopped.
async function recount(answer, id) {
  const was = counted();
  if (!was) return false;
  let fresh = answer;
  if (!fresh || !("daily_counts" in fresh)) {
    try { fresh = await call("GET", gamePath("")); } catch (e) { return false; }
  }
  if (!page.state || page.state.id !== id) return false;
  page.state.daily_counts = fresh.daily_counts;
  page.state.daily_why = fresh.daily_why;
  renderFacts();
  return was && !counted();
}

const NO_LONGER = () => _("This game no longer counts for the table of the day.");

export function hint() {
  if (!mayAskHelp(_("Ask for a hint? This game will then no longer count for the table of the day."),
    _("No hint asked: this game still counts for the table of the day."))) return;
  setStatus(_("Thinking…"), "info");
  const asked = askedAt(), id = page.state ? page.state.id : null;
  (async () => {
    let h = null;
    try {
      h = await call("GET", gamePath("/hint"));
    } catch (e) {
      const stopped = await recount(null, id);
      setStatus(stopped ? `${e.message} ${NO_LONGER()}` : e.message, "error");
      return;
    }
    const stopped = await recount(h, id);
    const after = stopped ? " " + NO_LONGER() : "";
    try {
      if (askedAt() !== asked) { setStatus(_("That hint was for an earlier position.") + after, "info"); return; }
      clearHint();
      setStatus((h.move ? format(_("Hint: {text}"), { text: h.text }) : h.text || _("No hint.")) + after, "hint");
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
  if (!mayAskHelp(_("Show the odds? This game will then no longer count for the table of the day."),
    _("No odds asked: this game still counts for the table of the day."))) return;
  const box = $("odds");
  box.hidden = false;
  box.textContent = _("Estimating the odds from this position…");
  const asked = askedAt(), id = page.state ? page.state.id : null;
  (async () => {
    let o = null;
    try { o = await call("GET", gamePath("/odds")); } catch (e) {
      if (await recount(null, id)) setStatus(NO_LONGER(), "info");
      box.textContent = e.message;
      return;
    }
    if (await recount(o, id)) setStatus(NO_LONGER(), "info");
    try {
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
