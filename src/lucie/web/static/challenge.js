// Challenge a friend: a link to the same deal, after any game; the friend
// plays it whenever they like; both see both results (the server's, read
// from its store) and both reviews side by side.  The page ranks nothing
// and knows no rule: every word is the server's or the catalogue's.

import { $, page } from "./model.js";
import { _, ngettext, format } from "./i18n.js";
import { call, enqueue } from "./api.js";
import { setStatus, fmtTime, pc } from "./status.js";
import { layout, renderFresh } from "./table.js";
import { reviewChart, fmtValue } from "./charts.js";
import { mayLeave } from "./commands.js";

const PREFIX = "/challenge/";
let current = null; // the token of the challenge shown
let played = null; // { token, game }: the challenge game played on this page

export function challengeToken() {
  return location.pathname.startsWith(PREFIX) ? decodeURIComponent(location.pathname.slice(PREFIX.length)) : null;
}

async function makeChallenge() {
  $("challenge-error").textContent = "";
  try {
    const c = await call("POST", "/api/challenges", { game: page.state.id });
    $("challenge-link").value = location.origin + c.path;
    $("challenge-open").dataset.token = c.token;
    $("d-end").close();
    $("d-challenge").showModal();
    $("challenge-link").select();
  } catch (e) { setStatus(e.message, "error"); }
}

async function copyLink() {
  $("challenge-link").select();
  try { await navigator.clipboard.writeText($("challenge-link").value); $("challenge-error").textContent = _("Link copied."); } catch (e) { $("challenge-error").textContent = _("Copy the link above and send it to a friend."); }
}

export async function showChallenge(token, push) {
  for (const id of ["game", "tools", "stats-page", "review-page", "daily-page"]) $(id).hidden = true;
  $("challenge-page").hidden = false;
  if (push) history.pushState({ challenge: token }, "", PREFIX + encodeURIComponent(token));
  current = token;
  await loadChallenge();
}

export function hideChallenge(push) {
  $("challenge-page").hidden = true;
  $("game").hidden = false;
  $("tools").hidden = false;
  if (push && location.pathname.startsWith(PREFIX)) history.pushState({}, "", "/");
  if (page.state) layout();
}

function row(values, cls) {
  const tr = document.createElement("tr");
  if (cls) tr.className = cls;
  for (const v of values) { const td = document.createElement("td"); td.textContent = String(v); tr.appendChild(td); }
  return tr;
}

async function loadChallenge() {
  const token = current;
  let c;
  try { c = await call("GET", `/api/challenges/${encodeURIComponent(token)}`); } catch (e) { $("challenge-deal").textContent = e.message; return; }
  if (token !== current) return;
  $("challenge-deal").textContent = format(_("{variant}, deal {deal}"), { variant: c.variant_name, deal: c.deal ?? _("custom") });
  const body = $("challenge-table").tBodies[0];
  body.replaceChildren();
  for (const e of c.entries) {
    body.appendChild(row([e.player, e.status_text, e.score, e.moves, fmtTime(e.seconds), e.why_not_ranked ?? ""], e.mine ? "mine" : ""));
  }
  $("challenge-play").hidden = !c.can_play;
  $("challenge-wait").hidden = c.reviews_open || c.can_play;
  $("challenge-closed").hidden = c.reviews_open;
  const box = $("challenge-reviews");
  box.replaceChildren();
  if (c.reviews_open) for (const e of c.entries.filter((x) => x.over)) box.appendChild(reviewColumn(token, e));
}

function reviewColumn(token, entry) {
  const col = document.createElement("div");
  col.className = "challenge-review";
  const h = document.createElement("h3");
  h.textContent = entry.player;
  const text = document.createElement("p");
  text.textContent = _("Reviewing the game, move by move… (this takes a few seconds)");
  const chart = document.createElement("div");
  chart.className = "chart";
  const lost = document.createElement("p");
  col.append(h, text, chart, lost);
  call("GET", `/api/challenges/${encodeURIComponent(token)}/review/${entry.index}`).then((r) => {
    const parts = [format(ngettext("{n} move. Winning chance at the start: {value}", "{n} moves. Winning chance at the start: {value}", r.moves.length), { n: r.moves.length, value: fmtValue(r.start_value) }),
      format(_("chance lost by the moves: {chance}"), { chance: pc(r.thrown_away) }),
      format(ngettext("{n} mistake", "{n} mistakes", r.mistakes), { n: r.mistakes })];
    text.textContent = parts.join("; ") + ".";
    chart.replaceChildren(reviewChart(r, () => {}));
    const worst = r.costliest && r.costliest.length ? r.moves[r.costliest[0] - 1] : null;
    lost.textContent = worst ? format(_("Move {n}, {move}: {label} (lost {loss}); better: {best}"),
      { n: worst.index, move: worst.move_text || worst.move, label: worst.label_text, loss: pc(worst.loss), best: worst.better_move ? (worst.best_text || worst.better_move) : "?" }) : _("No mistake.");
  }).catch((e) => { text.textContent = e.message; });
  return col;
}

async function playChallenge() {
  if (!mayLeave()) return;
  const token = current;
  try {
    const state = await enqueue(() => call("POST", `/api/challenges/${encodeURIComponent(token)}/play`, {}));
    played = { token, game: state.id };
    hideChallenge(true);
    renderFresh(state);
    setStatus(format(_("Challenge: {variant}, deal {deal}. Your result is compared once you finish."), { variant: state.variant_title, deal: state.deal ?? _("custom") }), "info");
  } catch (e) { setStatus(e.message, "error"); $("challenge-deal").textContent = e.message; }
}

// the end of a game: "Challenge a friend", and the results of a challenge played here
export function endButtons() {
  $("end-challenge").hidden = !page.features.stats || !page.state.recorded;
  $("end-challenge-results").hidden = !(played && played.game === page.state.id);
}

export function wireChallenge() {
  $("end-challenge").onclick = makeChallenge;
  $("end-challenge-results").onclick = () => { $("d-end").close(); showChallenge(played.token, true); };
  $("challenge-copy").onclick = copyLink;
  $("challenge-open").onclick = () => { $("d-challenge").close(); showChallenge($("challenge-open").dataset.token, true); };
  $("challenge-close").onclick = () => $("d-challenge").close();
  $("challenge-play").onclick = playChallenge;
  $("challenge-back").onclick = () => hideChallenge(true);
}
