// The deal of the day's table: every player's result on the deal, as the
// server ranks it (the page ranks nothing and knows no rule: each word it
// shows is the server's or the catalogue's).

import { $, page } from "./model.js";
import { _, format } from "./i18n.js";
import { call, enqueue } from "./api.js";
import { setStatus, fmtTime } from "./status.js";
import { layout } from "./table.js";
import { fillVariants } from "./dialogs.js";
import { mayLeave, newGame } from "./commands.js";

let shown = null; // the table on the page (the server's answer)

export async function showDaily(push, variant) {
  if (!page.features.stats) { setStatus(_("No statistics store is available."), "info"); return; }
  for (const id of ["game", "tools", "stats-page", "review-page"]) $(id).hidden = true;
  $("daily-page").hidden = false;
  if (push && location.pathname !== "/daily") history.pushState({ daily: true }, "", "/daily");
  const sel = $("daily-variant");
  if (!sel.options.length || variant) fillVariants(sel, variant || (page.state ? page.state.variant : "classic"), false);
  await loadDaily();
}

export function hideDaily(push) {
  $("daily-page").hidden = true;
  $("game").hidden = false;
  $("tools").hidden = false;
  if (push && location.pathname === "/daily") history.pushState({}, "", "/");
  if (page.state) layout();
}

function cell(tr, text) {
  const td = document.createElement("td");
  td.textContent = String(text);
  tr.appendChild(td);
}

function mineText(t) {
  if (!t.mine) return _("You have no result on this deal yet.");
  if (t.mine.rank == null) return format(_("Your game is not ranked: {why}."), { why: t.mine.why_not_ranked });
  return format(_("Your rank: {rank} of {count}."), { rank: t.mine.rank, count: t.ranked });
}

export async function loadDaily() {
  const q = new URLSearchParams({ variant: $("daily-variant").value || "classic" });
  if ($("daily-date").value) q.set("date", $("daily-date").value);
  let t;
  try { t = await call("GET", `/api/daily?${q}`); } catch (e) { setStatus(e.message, "error"); $("daily-deal").textContent = e.message; return; }
  shown = t;
  $("daily-date").value = t.date;
  $("daily-deal").textContent = format(_("{variant}, deal {deal}, {date} (UTC)"), { variant: t.variant_name, deal: t.deal, date: t.date });
  $("daily-mine").textContent = mineText(t);
  const body = $("daily-table").tBodies[0];
  body.replaceChildren();
  for (const e of t.entries) {
    const tr = document.createElement("tr");
    if (e.mine) tr.className = "mine";
    else if (e.status === "won") tr.className = "won";
    for (const v of [e.rank ?? "–", e.player, e.status_text, e.score, e.moves, fmtTime(e.seconds), e.why_not_ranked ?? ""]) cell(tr, v);
    body.appendChild(tr);
  }
  $("daily-none").hidden = t.entries.length > 0;
  $("daily-play").hidden = t.over;
  await showOdds(t, q);
}

async function showOdds(t, q) {
  const box = $("daily-odds");
  if (!t.over) { box.textContent = _("The deal's odds are shown once the day is over (UTC)."); return; }
  if (t.odds) { box.textContent = format(_("Odds of this deal: {odds}"), { odds: t.odds.text }); return; }
  box.textContent = _("Working out the deal's odds…");
  try {
    const odds = await call("GET", `/api/daily/odds?${q}`);
    if (shown === t) box.textContent = format(_("Odds of this deal: {odds}"), { odds: odds.text });
  } catch (e) { if (shown === t) box.textContent = e.message; }
}

async function playDaily() {
  if (!mayLeave()) return;
  const variant = $("daily-variant").value;
  hideDaily(true);
  await enqueue(() => newGame(variant, null, { daily: true })).catch((e) => setStatus(e.message, "error"));
}

export function wireDaily() {
  $("b-daily").onclick = () => showDaily(true);
  $("daily-back").onclick = () => hideDaily(true);
  $("daily-variant").onchange = loadDaily;
  $("daily-date").onchange = loadDaily;
  $("daily-play").onclick = playDaily;
  $("end-daily").onclick = () => { $("d-end").close(); showDaily(true, page.state.variant); };
}
