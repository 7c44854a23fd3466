// A game's review: the chance before each move (a chart), the mistakes,
// and the position before a move with the move played and the better one.

import { $, page } from "./model.js";
import { _, ngettext, format, suitName, capitalized } from "./i18n.js";
import { makeCard } from "./cards.js";
import { reviewChart, fmtValue } from "./charts.js";
import { SUIT_ORDER } from "./board.js";
import { call } from "./api.js";
import { pc } from "./status.js";
import { layout } from "./table.js";

let reviewFrom = "game";   // the view to go back to
let reviewed = null;       // the review shown

// ``status``: how the game ended ("resigned": the chance left then was given up).
export async function openReview(path, title, status) {
  reviewFrom = !$("stats-page").hidden ? "stats" : "game";
  $("game").hidden = true;
  $("tools").hidden = true;
  $("stats-page").hidden = true;
  $("review-page").hidden = false;
  $("review-title").textContent = title;
  $("review-summary").textContent = _("Reviewing the game, move by move… (this takes a few seconds)");
  $("chart-review").replaceChildren();
  $("review-mistakes").replaceChildren();
  $("review-move-text").textContent = "";
  $("review-board").replaceChildren();
  try {
    reviewed = await call("GET", path);
  } catch (e) {
    $("review-summary").textContent = e.message;
    return;
  }
  const r = reviewed;
  const fmt = fmtValue;
  const summary = [format(ngettext("{n} move. Winning chance at the start: {value}", "{n} moves. Winning chance at the start: {value}", r.moves.length),
    { n: r.moves.length, value: fmt(r.start_value) }),
  format(_("chance lost by the moves: {chance}"), { chance: pc(r.thrown_away) }),
  format(ngettext("{n} mistake", "{n} mistakes", r.mistakes), { n: r.mistakes })];
  // the moves' losses leave out what resigning gave up: the chance left then
  if (status === "resigned" && r.final_value && r.final_value.chance > 0) {
    summary.push(format(_("given up by resigning: {value}"), { value: fmt(r.final_value) }));
  }
  if (r.accuracy != null) summary.push(format(_("accuracy {percent}"), { percent: pc(r.accuracy / 100) }));
  if (r.unjudged) summary.push(format(ngettext("{n} move not judged (its value is unknown)", "{n} moves not judged (their value is unknown)", r.unjudged), { n: r.unjudged }));
  $("review-summary").textContent = summary.join("; ") + "." +
    (r.budget_ran_out ? " " + _("The time budget ran out: some values are unknown.") : "");
  $("chart-review").replaceChildren(reviewChart(r, pickReviewed));
  const list = $("review-mistakes");
  const bad = r.moves.filter((m) => m.label === "mistake" || m.label === "blunder");
  if (!bad.length) {
    const li = document.createElement("li");
    li.textContent = _("No mistake.");
    li.className = "none";
    list.appendChild(li);
  }
  for (const m of bad) {
    const li = document.createElement("li");
    li.tabIndex = 0;
    li.textContent = format(_("Move {n}, {move}: {label} (lost {loss}); better: {best}"),
      { n: m.index, move: m.move_text || m.move, label: m.label_text, loss: pc(m.loss), best: m.better_move ? (m.best_text || m.better_move) : "?" });
    li.onclick = () => pickReviewed(m.index - 1);
    li.onkeydown = (e) => { if (e.key === "Enter") pickReviewed(m.index - 1); };
    list.appendChild(li);
  }
  const first = bad.length ? bad[0].index - 1 : 0;
  if (r.moves.length) pickReviewed(first);
}

// Show move i of the review: the position before it, the move played and the better one.
export function pickReviewed(i) {
  const r = reviewed;
  const m = r && r.moves[i];
  for (const c of document.querySelectorAll("#chart-review .pt")) {
    c.classList.toggle("picked", c.dataset.index === String(i));
  }
  if (!m) {
    $("review-move-text").textContent = format(_("After the last move: {value}."), { value: fmtValue(r.final_value) });
    drawBoard(r.final_board, null, null);
    return;
  }
  const fmt = fmtValue;
  const fields = { n: m.index, move: m.move_text || m.move, label: m.label_text, before: fmt(m.value_before), after: fmt(m.value_after), best: m.text };
  let t = format(m.label ? _("Move {n}: {move} ({label}). Winning chance before: {before}; after: {after}.")
    : _("Move {n}: {move}. Winning chance before: {before}; after: {after}."), fields);
  if (!m.label) t += " " + _("Not judged: its value is unknown.");
  // "better" only where the server names a better move (never beside
  // "best"); the hint's words say the move
  if (m.better_move) t += " " + format(_("Better: {best}."), fields);
  else if (m.best_move && m.best_move !== m.move) {
    t += " " + format(_("The solver's move: {best}."), fields);
  }
  else if (m.best_move && m.label) t += " " + _("The best move.") + " " + m.text;
  else t += ` ${m.text}`;
  $("review-move-text").textContent = t;
  drawBoard(m.board, m.card, m.best_move !== m.move ? m.best_card : null);
}

export function drawBoard(board, played, best) {
  const box = $("review-board");
  box.replaceChildren();
  const slot = (label, cards) => {
    const div = document.createElement("div");
    div.className = "rv-slot";
    const step = cards.length > 1 ? Math.min(16, 56 / (cards.length - 1)) : 0;
    cards.forEach((code, k) => {
      const el = makeCard(code);
      el.style.left = `${Math.round(k * step)}px`;
      if (code === played) el.classList.add("played");
      if (code === best) el.classList.add("best");
      div.appendChild(el);
    });
    const name = document.createElement("span");
    name.className = "rv-label";
    name.textContent = label;
    div.appendChild(name);
    box.appendChild(div);
  };
  board.foundations.forEach((top, s) => slot(capitalized(suitName(SUIT_ORDER[s])), top ? [top] : []));
  board.cells.forEach((code, c) => slot(format(_("cell {n}"), { n: c + 1 }), code ? [code] : []));
  board.fans.forEach((fan, i) => slot(format(_("fan {letter}"), { letter: "abcdefghijklmnopqrstuvwxyz"[i] }), fan));
}

export function closeReview() {
  $("review-page").hidden = true;
  if (reviewFrom === "stats") { $("stats-page").hidden = false; return; }
  $("game").hidden = false;
  $("tools").hidden = false;
  if (page.state) layout();
}
