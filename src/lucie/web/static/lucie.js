// The page of the browser game.  It knows no rule of the game: it draws the
// position the server sends, lights up the targets the server lists as legal
// for the card in hand, and sends moves in text notation (source ">" target,
// both spelled by the server).  The server checks every move.  This module
// wires the page's controls to the others and starts the game.

import { $, saved, page } from "./model.js";
import { _, format } from "./i18n.js";
import { call, gamePath } from "./api.js";
import { setStatus } from "./status.js";
import { tellVisibility, tick, tellHidden } from "./clock.js";
import { onRender, render, layout } from "./table.js";
import { soundsMade } from "./sound.js";
import { undo, redo, restart, redeal, resign, toggleMerci, toggleAuto, newGame, loadFile } from "./commands.js";
import { sendMove } from "./hold.js";
import { clearHint, hint, redrawArrow, odds } from "./hints.js";
import { openNew, showSummary, submitNew, openRules, maybeShowEnd } from "./dialogs.js";
import { openReview, closeReview } from "./review.js";
import { showStats, hideStats, loadStats, pageGames } from "./stats.js";
import { onPointerDown, onPointerMove, onPointerUp, onPointerCancel } from "./pointer.js";
import { onTableKey, onGlobalKey } from "./keys.js";
import { chooseLanguage, restoreLanguage } from "./language.js";
import { applyLook, wireSettings } from "./settings.js";
import { wirePlayer } from "./account.js";
import { wireDaily, showDaily, hideDaily } from "./daily.js";
import { wireChallenge, showChallenge, hideChallenge, challengeToken } from "./challenge.js";
import { wireDuel, bootDuel, duelToken, duel } from "./duel.js";

function wire() {
  const table = $("table");
  table.addEventListener("pointerdown", onPointerDown);
  table.addEventListener("pointermove", onPointerMove);
  table.addEventListener("pointerup", onPointerUp);
  table.addEventListener("pointercancel", onPointerCancel);
  table.addEventListener("keydown", onTableKey);
  table.addEventListener("dragstart", (e) => e.preventDefault());
  document.addEventListener("keydown", onGlobalKey);
  $("b-new").onclick = openNew;
  $("b-undo").onclick = undo;
  $("b-redo").onclick = redo;
  $("b-redeal").onclick = redeal;
  $("b-merci").onclick = toggleMerci;
  $("b-hint").onclick = hint;
  $("b-auto").onclick = toggleAuto;
  $("b-restart").onclick = restart;
  $("b-resign").onclick = resign;
  $("offer-resign").onclick = resign;
  $("b-review-back").onclick = closeReview;
  $("new-daily").onclick = () => submitNew(null, true);
  $("end-review").onclick = () => {
    $("d-end").close();
    openReview(gamePath("/review"), format(_("Review of deal {deal}"), { deal: page.state.deal ?? _("custom") }), page.state.status);
  };
  $("b-odds").onclick = odds;
  $("b-stats").onclick = () => showStats(true);
  $("b-rules").onclick = openRules;
  $("b-back").onclick = () => hideStats(true);
  $("b-load").onclick = () => $("load-file").click();
  $("load-file").onchange = (e) => { if (e.target.files[0]) loadFile(e.target.files[0]); e.target.value = ""; };
  $("new-form").onsubmit = submitNew;
  $("new-cancel").onclick = () => $("d-new").close();
  $("new-variant").onchange = showSummary;
  $("rules-close").onclick = () => $("d-rules").close();
  $("end-new").onclick = () => { $("d-end").close(); openNew(); };
  $("end-undo").onclick = () => { $("d-end").close(); undo(); };
  $("end-restart").onclick = () => { $("d-end").close(); restart(); };
  $("end-stats").onclick = () => { $("d-end").close(); showStats(true); };
  $("stats-variant").onchange = loadStats;
  $("games-newer").onclick = () => pageGames(-1);
  $("games-older").onclick = () => pageGames(1);
  $("lang").onchange = chooseLanguage;
  wireDaily();
  wireChallenge();
  $("move-form").onsubmit = (e) => {
    e.preventDefault();
    const text = $("move-input").value.trim();
    if (!text) return;
    sendMove(text, null, null).then((d) => { if (d) $("move-input").value = ""; });
  };
  window.addEventListener("resize", () => {
    if (!page.state) return;
    layout();
    redrawArrow();
  });
  window.addEventListener("popstate", () => {
    if (location.pathname === "/daily") { showDaily(false); return; }
    hideDaily(false);
    if (challengeToken()) { showChallenge(challengeToken(), false); return; }
    hideChallenge(false);
    if (location.pathname === "/stats") showStats(false); else hideStats(false);
  });
  setInterval(tick, 1000);
  document.addEventListener("visibilitychange", tellVisibility);
  window.addEventListener("pagehide", () => { if (page.state) tellHidden(); });
  setInterval(() => { if (!document.hidden) tellVisibility(); }, 60000);
}


// The greeting of a player coming back to the page, true of the game found.
function welcomeBack() {
  if (!page.state.finished) return _("Welcome back: your game is where you left it.");
  const how = page.state.status === "won" ? _("Welcome back: you won this game.")
    : page.state.status === "resigned" ? _("Welcome back: this game was resigned.")
      : _("Welcome back: this game ended with no move left.");
  return how + " " + _("New (N) deals another.");
}

async function boot() {
  if (restoreLanguage()) return;
  applyLook();
  wire();
  wireSettings();
  try {
    [page.variants, page.features] = await Promise.all([call("GET", "/api/variants"), call("GET", "/api/features")]);
  } catch (e) { setStatus(e.message, "error"); }
  wirePlayer();
  wireDuel();
  if (duelToken()) {  // a duel's link: its own start (duel.js)
    try { await bootDuel(duelToken()); } catch (e) { setStatus(e.message, "error"); }
    document.body.classList.add("ready");
    return;
  }
  const q = new URLSearchParams(location.search);
  const id = saved.get("lucie.game");
  try {
    if (q.has("variant") || q.has("deal")) {
      await newGame(q.get("variant"), q.get("deal"));
      history.replaceState(null, "", location.pathname);
    } else if (id) {
      try {
        render(await call("GET", `/api/games/${encodeURIComponent(id)}`));
        setStatus(welcomeBack(), "info");
      } catch (e) {
        if (e.status !== 404) throw e;
        await newGame(null, null);
      }
    } else {
      await newGame(null, null);
      setStatus(_("Welcome! Click a top card: with one place to go it goes there; with several, they light up: click one. Or drag it. Rules, keys and settings: ? and Settings."), "info");
    }
  } catch (e) {
    setStatus(e.message, "error");
  }
  if (location.pathname === "/stats") showStats(false);
  if (location.pathname === "/daily") showDaily(false);
  if (challengeToken()) showChallenge(challengeToken(), false);
  document.body.classList.add("ready");
}

// once a state is drawn: the hint it made stale goes, the end of a game is told
onRender((justWon) => {
  clearHint();
  if (page.state.finished && !page.duel) maybeShowEnd(justWon);  // a duel has its own end
});
// what the tests read: the state shown, the sounds made
window.lucie = { get state() { return page.state; }, get sounds() { return soundsMade; },
  get duel() { return page.duel ? duel : null; } };
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
else boot();
