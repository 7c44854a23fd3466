// The statistics page: the numbers, two charts, the deals of the day and
// the recent games, a page at a time.

import { $, page } from "./model.js";
import { _, pgettext, format, percent } from "./i18n.js";
import { timeChart, scoreChart } from "./charts.js";
import { call } from "./api.js";
import { setStatus, decimal, fmtTime } from "./status.js";
import { layout } from "./table.js";
import { fillVariants } from "./dialogs.js";
import { openReview } from "./review.js";

export async function showStats(push) {
  if (!page.features.stats) { setStatus(_("No statistics store is available."), "info"); return; }
  $("game").hidden = true;
  $("tools").hidden = true;
  $("review-page").hidden = true;
  $("stats-page").hidden = false;
  if (push && location.pathname !== "/stats") history.pushState({ stats: true }, "", "/stats");
  const sel = $("stats-variant");
  if (!sel.options.length) fillVariants(sel, page.state ? page.state.variant : "classic", true);
  await loadStats();
}

export function hideStats(push) {
  $("stats-page").hidden = true;
  $("review-page").hidden = true;
  $("game").hidden = false;
  $("tools").hidden = false;
  if (push && location.pathname === "/stats") history.pushState({}, "", "/");
  if (page.state) layout();
}

export async function loadStats() {
  const v = $("stats-variant").value || "classic";
  const q = `variant=${encodeURIComponent(v)}`;
  try {
    const [s, h] = await Promise.all([call("GET", `/api/stats?${q}`), call("GET", `/api/history?${q}&limit=1000`)]);
    const done = h.games.filter((g) => g.status !== "playing").reverse();
    const nums = $("stats-numbers");
    nums.replaceChildren();
    const rows = [
      [_("Games"), s.games], [_("Won"), s.wins], [_("Win rate"), percent(s.win_rate, 1)],
      [_("Average score"), decimal(s.average_score)], [_("Best score"), s.best_score],
      [_("Best streak"), s.best_streak], [_("Current streak"), s.current_streak],
      [_("Time played"), fmtTime(s.total_seconds)],
    ];
    for (const [k, val] of rows) {
      const d = document.createElement("div");
      const dt = document.createElement("dt"); dt.textContent = k;
      const dd = document.createElement("dd"); dd.textContent = String(val);
      d.append(dt, dd);
      nums.appendChild(d);
    }
    $("chart-time").replaceChildren(timeChart(done));
    $("chart-scores").replaceChildren(scoreChart(done));
    gamesFrom = 0;
    await loadGamesPage();
    // the player's own result for each deal of the day
    const daily = $("stats-daily").tBodies[0];
    daily.replaceChildren();
    const days = h.games.filter((g) => g.daily);
    $("stats-daily").hidden = !days.length;
    $("stats-daily-none").hidden = days.length > 0;
    for (const g of days) {
      const tr = document.createElement("tr");
      for (const cell of [g.daily, g.deal, g.status_text, g.score, fmtTime(g.seconds)]) {
        const td = document.createElement("td");
        td.textContent = String(cell);
        tr.appendChild(td);
      }
      tr.className = g.status;
      daily.appendChild(tr);
    }
  } catch (e) {
    $("stats-numbers").textContent = e.message;
  }
}

// -- the recent games, a page at a time (games dealt and never played left out) --

const GAMES_PAGE = 25;
let gamesFrom = 0;

export async function loadGamesPage() {
  const v = $("stats-variant").value || "classic";
  const h = await call("GET", `/api/history?variant=${encodeURIComponent(v)}&played=1&offset=${gamesFrom}&limit=${GAMES_PAGE}`);
  const body = $("stats-games").tBodies[0];
  body.replaceChildren();
  const total = h.total ?? h.games.length;
  $("games-pager").hidden = total <= GAMES_PAGE;
  $("games-newer").disabled = gamesFrom === 0;
  $("games-older").disabled = gamesFrom + GAMES_PAGE >= total;
  $("games-range").textContent = format(_("games {first}–{last} of {total}, newest first"),
    { first: Math.min(total, gamesFrom + 1), last: gamesFrom + h.games.length, total });
  for (const g of h.games) {
    const tr = document.createElement("tr");
    const when = g.finished ? g.finished.replace("T", " ").slice(0, 16) : "—";
    const cells = [g.id, (g.deal ?? _("custom")) + (g.daily ? " ★" : ""), g.status_text, g.score, g.moves,
      fmtTime(g.seconds), when];
    cells.forEach((cell, k) => {
      const td = document.createElement("td");
      td.textContent = String(cell);
      if (k === 4 || k === 6) td.className = "wide";
      tr.appendChild(td);
    });
    const td = document.createElement("td");
    if (g.moves > 0) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "review";
      b.textContent = pgettext("button", "Review");
      b.setAttribute("aria-label", format(_("Review game {n}"), { n: g.id }));
      b.onclick = () => {
        // a review of a game in play is help: the server marks it (fair play)
        if (g.status === "playing" && g.daily && !window.confirm(_("Review this game in play? The review tells the chance to win: if the game counts for the table of the day, it will no longer count."))) return;
        openReview(`/api/history/${g.id}/review`, format(_("Review of game {n} (deal {deal})"), { n: g.id, deal: g.deal ?? _("custom") }), g.status);
      };
      td.appendChild(b);
    }
    tr.appendChild(td);
    tr.className = g.status;
    body.appendChild(tr);
  }
}

export function pageGames(step) {
  gamesFrom = Math.max(0, gamesFrom + step * GAMES_PAGE);
  loadGamesPage().catch((e) => { $("games-range").textContent = e.message; });
}
