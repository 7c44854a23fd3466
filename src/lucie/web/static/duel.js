// A duel (lucie serve): two players on the same deal at the same time.
// The page opens one, or joins one by its link (/duel/<token>), plays its
// own game through the game's usual commands, and hears the other side's
// progress over a WebSocket, which reconnects by itself (the server sends
// the duel as it is on each connection). The server keeps the duel's rules
// (hints, undo, the time limit) and says when it is over; the page knows no
// rule of the game. Each news of the duel is numbered (seq: 1, 2, 3...), and
// the duel as read says the number it stands at: a news that is not the next
// one means news was missed, and the duel is read again instead.

import { $, page } from "./model.js";
import { _, ngettext, format, cardName, rankLabel, suitName } from "./i18n.js";
import { call } from "./api.js";
import { render } from "./table.js";
import { setStatus, fmtTime } from "./status.js";
import { fillVariants } from "./dialogs.js";

export const duel = {
  view: null,        // the duel as the server last sent it
  them: null,        // the other side's progress, as last heard
  at: 0,             // when the view came (performance.now())
  loaded: null,      // the game (page id) drawn on the table
  socket: null,
  retry: 500,
  shownOver: false,
  reviews: {},
  seq: null,         // the number of the last news applied (docs/duel.md)
  rereads: 0,        // the times the duel was read again for news missed
};

// The duel's link on this page, if it is a duel's.
export function duelToken() {
  const m = location.pathname.match(/^\/duel\/([A-Za-z0-9_-]+)$/);
  return m ? m[1] : null;
}

function other(side) { return side === "host" ? "guest" : "host"; }

function nameOf(side) {
  const v = duel.view;
  if (side === v.you) return _("You");
  const p = v.players[side];
  if (p && p.deleted) return _("A deleted player");
  return p && p.name ? p.name : _("Your opponent");
}

function progressText(p) {
  return format(_("{home} of {cards} cards home, {moves} moves, redeals used {used} of {redeals}"),
    { home: p.cards_home, cards: p.cards, moves: p.moves, used: p.redeals_used, redeals: p.redeals });
}

function settingsText(s) {
  const parts = [s.hints ? _("hints allowed") : _("no hints"), s.undo ? _("undo allowed") : _("no undo")];
  if (s.time_limit) parts.push(format(_("{minutes} minutes"), { minutes: Math.round(s.time_limit / 60) }));
  return parts.join(", ");
}

function elapsed() {
  const v = duel.view;
  if (!v || v.elapsed === null) return 0;
  return v.elapsed + (v.state === "playing" ? (performance.now() - duel.at) / 1000 : 0);
}

function timeLeft() {
  const v = duel.view;
  if (!v || v.time_left === null) return null;
  return Math.max(0, v.time_left - (v.state === "playing" ? (performance.now() - duel.at) / 1000 : 0));
}

// The bar above the table: the link to send, or the other side's progress.
function drawBar() {
  const v = duel.view;
  $("duel-bar").hidden = false;
  $("duel-join").hidden = !(v.state === "waiting" && v.you === null);
  $("duel-copy").hidden = !(v.state === "waiting" && v.you === "host");
  $("duel-result").hidden = v.state !== "over";
  $("duel-link").textContent = v.state === "waiting" ? location.origin + v.link : "";
  $("duel-rules").textContent = format(_("Duel: {variant}, deal {deal}; {settings}."),
    { variant: v.variant_name, deal: v.settings.deal, settings: settingsText(v.settings) });
  let line;
  if (v.state === "waiting") {
    line = v.you === "host" ? _("Waiting for your opponent: send them this link.")
      : format(_("{name} invites you to a duel."), { name: nameOf("host") });
  } else if (v.you === null) {
    line = _("this duel already has its two players");
  } else {
    const side = other(v.you);
    const p = duel.them || (v.players[side] && v.players[side].progress) || {};
    line = format(_("{name}: {progress}."), { name: nameOf(side), progress: progressText(p) });
    if (p.status && p.status !== "playing") line += " " + p.status_text;
  }
  $("duel-them").textContent = line;
  const side = v.you === null ? null : other(v.you);
  const seen = side && v.state !== "waiting" ? duel.them || (v.players[side] && v.players[side].progress) : null;
  drawBoard(seen && seen.table ? seen.table : null);
  tickDuel();
}

// The other side's table in small, as the server sent it (each fan's cards,
// the free cells', the cards home of each suit): drawn only, no rule.
const GLYPHS = { C: "♣", D: "♦", H: "♥", S: "♠" };

function miniCard(code) {
  const span = document.createElement("span");
  const suit = code.slice(-1);
  span.className = "mini-card" + (suit === "H" || suit === "D" ? " red" : "");
  span.textContent = rankLabel(code) + (GLYPHS[suit] || suit);
  span.title = cardName(code);
  span.dataset.card = code;
  return span;
}

function miniGroup(className, children) {
  const div = document.createElement("div");
  div.className = className;
  div.replaceChildren(...children);
  return div;
}

function drawBoard(table) {
  const box = $("duel-board");
  box.hidden = !table;
  if (!table) return;
  const home = Object.entries(table.foundations).map(([suit, n]) => {
    const span = document.createElement("span");
    span.className = "mini-home" + (suit === "H" || suit === "D" ? " red" : "");
    span.textContent = `${GLYPHS[suit] || suit}${n}`;
    span.title = format(ngettext("{suit}: {n} card home", "{suit}: {n} cards home", n), { suit: suitName(suit), n });
    return span;
  });
  const cells = table.cells.map((c) => (c ? miniCard(c) : miniGroup("mini-card empty", ["·"])));
  const fans = table.fans.map((fan) => miniGroup("mini-fan", fan.length ? fan.map(miniCard) : ["–"]));
  box.replaceChildren(miniGroup("mini-row", [...home, ...cells]), miniGroup("mini-fans", fans));
}

export function tickDuel() {
  const v = duel.view;
  if (!v) return;
  const left = timeLeft();
  let text = v.state === "waiting" ? "" : format(_("Duel time {time}"), { time: fmtTime(elapsed()) });
  if (left !== null && v.state === "playing") text += " · " + format(_("{time} left"), { time: fmtTime(left) });
  $("duel-clock").textContent = text;
  if (left === 0 && v.state === "playing" && !duel.asked) {
    duel.asked = true;  // the server ends it and says so
    call("GET", `/api/duels/${v.token}`).then(show, () => {});
  }
}

// The commands the duel's settings forbid are not offered (the server
// refuses them anyway); a game in a duel is not left for another.
function drawTools() {
  const v = duel.view;
  const running = v.state !== "over";
  for (const id of ["b-new", "b-load", "b-restart"]) $(id).hidden = running;
  for (const id of ["b-hint", "b-odds"]) $(id).hidden = running && !v.settings.hints;
  for (const id of ["b-undo", "b-redo"]) $(id).hidden = running && !v.settings.undo;
}

async function show(view) {
  if (typeof view.seq === "number") {
    if (duel.seq !== null && view.seq < duel.seq) return;  // older than the news heard since
    duel.seq = view.seq;
  }
  const before = duel.view ? duel.view.state : null;
  duel.view = view;
  duel.at = performance.now();
  if (view.you) {
    const theirs = view.players[other(view.you)];
    duel.them = theirs ? theirs.progress : null;
  }
  drawTools();
  drawBar();
  if (view.game && view.state !== "waiting" && duel.loaded !== view.game) {
    duel.loaded = view.game;
    render(await call("GET", `/api/games/${encodeURIComponent(view.game)}`));
    if (before === "waiting") setStatus(_("The duel has started: good luck!"), "info");
  }
  if (view.you && !duel.socket) connect(view.token);  // a player of it: its news
  if (view.state === "over" && !duel.shownOver && view.you) {
    duel.shownOver = true;
    showResult();
  }
}

// A news in its order: the next one is applied; one already in the duel as
// read is left; one after a gap has the duel read again (its whole state).
function inOrder(message) {
  if (typeof message.seq !== "number" || duel.seq === null) return true;
  if (message.seq <= duel.seq) return false;
  if (message.seq !== duel.seq + 1) {
    duel.rereads += 1;
    call("GET", `/api/duels/${encodeURIComponent(duel.view.token)}`).then(show, () => {});
    return false;
  }
  duel.seq = message.seq;
  return true;
}

function hear(message) {
  if (message.type === "duel") { show(message.duel); return; }
  if (!duel.view || !inOrder(message)) return;
  if (message.type !== "progress") return;
  if (message.side !== duel.view.you) {
    duel.them = message.progress;
    drawBar();
  }
}

function connect(token) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/api/duels/${token}/socket`);
  duel.socket = ws;
  ws.onopen = () => { duel.retry = 500; };
  ws.onmessage = (e) => { try { hear(JSON.parse(e.data)); } catch (err) { /* not ours */ } };
  ws.onclose = (e) => {
    if (e.code >= 4400 && e.code < 4500) {  // refused: no use trying again
      setStatus(_("This duel cannot be followed from here."), "error");
      return;
    }
    setTimeout(() => connect(token), duel.retry);  // caught up from the server on return
    duel.retry = Math.min(duel.retry * 2, 5000);
  };
}

// -- the result -----------------------------------------------------------------

function cell(row, text) { const td = document.createElement("td"); td.textContent = text; row.appendChild(td); }

function showResult() {
  const v = duel.view;
  const sides = v.you === "guest" ? ["guest", "host"] : ["host", "guest"];
  const title = v.winner === null ? _("A draw")
    : v.winner === v.you ? _("You won the duel!") : format(_("{name} won the duel."), { name: nameOf(v.winner) });
  $("duel-end-title").textContent = title;
  const loser = sides.find((s) => v.players[s] && v.players[s].progress.status === "resigned");
  $("duel-end-why").textContent = v.end_reason === "time" ? _("The time ran out.")
    : v.end_reason === "resigned" ? format(_("{name} resigned."), { name: nameOf(loser || sides[1]) })
      : _("Both games are over.");
  const head = $("duel-table").tHead.rows[0];
  head.replaceChildren(document.createElement("th"));
  for (const s of sides) { const th = document.createElement("th"); th.textContent = nameOf(s); head.appendChild(th); }
  const rows = [
    [_("Result"), (p) => p.status_text],
    [_("Cards home"), (p) => `${p.cards_home}/${p.cards}`],
    [_("Score"), (p) => String(p.score)],
    [_("Moves"), (p) => String(p.moves)],
    [_("Time"), (p) => fmtTime(p.seconds || 0)],
  ];
  const body = $("duel-table").tBodies[0];
  body.replaceChildren();
  for (const [label, get] of rows) {
    const tr = document.createElement("tr");
    const th = document.createElement("th"); th.textContent = label; tr.appendChild(th);
    for (const s of sides) cell(tr, v.players[s] ? get(v.players[s].progress) : "");
    body.appendChild(tr);
  }
  $("duel-reviews").replaceChildren();
  $("d-duel-end").showModal();
}

function lostText(review, progress) {
  if (progress.status === "won") return _("Won: the chance to win was never lost.");
  if (review.lost_at === null) {
    if (review.start_value && review.start_value.chance === 0) return _("This deal could not be won from the start.");
    return _("The review found no move that lost the chance to win.");
  }
  const m = review.moves[review.lost_at];
  return format(_("The chance to win was lost at move {n}: {move}."), { n: review.lost_at + 1, move: m.move_text });
}

async function loadReviews() {
  const v = duel.view;
  const box = $("duel-reviews");
  box.replaceChildren();
  const sides = v.you === "guest" ? ["guest", "host"] : ["host", "guest"];
  for (const s of sides) {
    const col = document.createElement("section");
    col.className = "duel-review";
    const h = document.createElement("h3"); h.textContent = nameOf(s); col.appendChild(h);
    const p = document.createElement("p"); p.textContent = _("Reviewing…"); col.appendChild(p);
    box.appendChild(col);
    try {
      const review = await call("GET", `/api/duels/${v.token}/review/${s}`);
      p.textContent = lostText(review, v.players[s].progress);
      p.dataset.lostAt = review.lost_at === null ? "" : String(review.lost_at);
      const ol = document.createElement("ol");
      for (const m of review.moves) {
        const li = document.createElement("li");
        li.textContent = m.label_text ? `${m.move_text} (${m.label_text})` : m.move_text;
        if (m.index === review.lost_at) li.className = "lost";
        ol.appendChild(li);
      }
      col.appendChild(ol);
    } catch (e) { p.textContent = e.message; }
  }
}

// -- opening, joining -------------------------------------------------------------

function openDuel() {
  fillVariants($("duel-variant"), page.state ? page.state.variant : null);
  $("duel-error").textContent = "";
  $("d-duel").showModal();
}

async function submitDuel(e) {
  e.preventDefault();
  const body = { variant: $("duel-variant").value, hints: $("duel-hints").checked,
    undo: $("duel-undo").checked, minutes: Number($("duel-minutes").value || 0) };
  const deal = $("duel-deal").value.trim();
  const difficulty = $("duel-difficulty").value;
  if ($("duel-daily").checked) body.daily = true;
  else if (deal) body.deal = deal;
  else if (difficulty !== "any") body.difficulty = difficulty;
  try {
    const v = await call("POST", "/api/duels", body);
    location.assign(v.link);
  } catch (err) { $("duel-error").textContent = err.message; }
}

async function join() {
  try { await show(await call("POST", `/api/duels/${duel.view.token}/join`)); } catch (e) { setStatus(e.message, "error"); }
}

async function copyLink() {
  try { await navigator.clipboard.writeText(location.origin + duel.view.link); setStatus(_("The link is copied."), "info"); }
  catch (e) { setStatus(location.origin + duel.view.link, "info"); }
}

export function wireDuel() {
  $("b-duel").hidden = !(page.features && page.features.players);
  $("b-duel").onclick = openDuel;
  $("duel-form").onsubmit = submitDuel;
  $("duel-cancel").onclick = () => $("d-duel").close();
  $("duel-join").onclick = join;
  $("duel-copy").onclick = copyLink;
  $("duel-result").onclick = () => $("d-duel-end").showModal();
  $("duel-review").onclick = loadReviews;
  $("duel-end-close").onclick = () => $("d-duel-end").close();
}

// The page of a duel's link: the duel, then its news.
export async function bootDuel(token) {
  page.duel = duel;
  setInterval(tickDuel, 1000);
  await show(await call("GET", `/api/duels/${encodeURIComponent(token)}`));
}
