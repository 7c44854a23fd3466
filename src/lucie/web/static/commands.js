// The game's commands (undo, redo, redeal, restart, resign, merci mode,
// autoplay, a new game, a loaded game), each sent to the server, whose
// answer is drawn.

import { $, saved, page } from "./model.js";
import { _, ngettext, format, difficultyText } from "./i18n.js";
import { drop } from "./board.js";
import { call, enqueue, gamePath, versioned, said } from "./api.js";
import { setStatus } from "./status.js";
import { renderFacts } from "./facts.js";
import { render, layout, renderFresh } from "./table.js";
import { sound } from "./sound.js";

// The server refused a command made against an older position (another
// tab, or another process of a site, changed the game first): show the
// game as it is now, at once (the answer holds it, else it is read again),
// and say why.
export async function staleAnswer(e) {
  if (!(e.status === 409 && e.data && e.data.stale)) return false;
  let state = e.data.state;
  if (!state) {
    try { state = await call("GET", gamePath("")); } catch (err) { state = null; }
  }
  if (state) render(state);
  setStatus(_("This game has moved on in another tab or window: here it is as it is now."), "error");
  sound("refused");
  return true;
}

export function act(method, tail, body) {
  return enqueue(async () => {
    if (!page.state) return null;
    try {
      const data = await call(method, gamePath(tail), method === "POST" ? versioned(body) : body);
      render(data);
      // what the command did; a message about the position before no longer applies
      setStatus(said(data), "info");
      return data;
    } catch (e) {
      if (await staleAnswer(e)) return null;
      setStatus(e.message, "error");
      if (e.status === 404) await newGame(null, null);
      return null;
    }
  });
}

// -- commands -----------------------------------------------------------------

export function undo() { drop(); return act("POST", "/undo", {}); }
// Every safe card home now (the aces where none is strictly safe).
export function sendHome() { drop(); return act("POST", "/home", {}); }
export function redo() { drop(); return act("POST", "/redo", {}); }
// (autoplay, when on, plays after the player's moves, not on a deal: a
// game dealt and left without a move is not a game played and lost)
export function restart() { drop(); return act("POST", "/restart", {}); }
export function redeal() {
  drop();
  return enqueue(async () => {
    try {
      const data = await call("POST", gamePath("/redeal"), versioned({ autoplay: page.autoplay }));
      render(data);
      setStatus(said(data), "info");
      sound("move");
    } catch (e) { if (!(await staleAnswer(e))) setStatus(e.message, "error"); }
  });
}

// Resign: the game ends and counts as lost (a confirmation first).
export function resign() {
  if (!page.state || page.state.finished) return null;
  if (!window.confirm(_("Resign this game? It counts as lost in the statistics."))) return null;
  drop();
  return act("POST", "/resign", {});
}



export function toggleMerci() {
  if (!page.state || !page.state.merci_moves) {
    setStatus(page.state && page.state.has_merci ? (page.state.merci_used ? _("The merci has been used.") :
      _("The merci comes in the last deal.")) : _("This variant has no merci."), "info");
    return;
  }
  drop();
  page.merciMode = !page.merciMode;
  layout();
  renderFacts();
  setStatus(page.merciMode ? _("Merci: pick a buried card (they are outlined), then the fan to put it on.") : "", "info");
  const first = document.querySelector(".card.liftable");
  if (page.merciMode && first) first.focus();
}

export function toggleAuto() {
  page.autoplay = !page.autoplay;
  $("set-autoplay").checked = page.autoplay;
  saved.set("lucie.autoplay", page.autoplay ? "1" : "0");
  renderFacts();
  if (page.autoplay) {
    act("POST", "/autoplay", {}).then((d) => {
      if (d && d.applied && d.applied.length) setStatus(said(d), "info");
      else setStatus(_("Autoplay on: safe cards go home by themselves."), "info");
    });
  } else setStatus(_("Autoplay off."), "info");
}


// Leaving a game in play that has moves counts it as lost: ask first.
export function mayLeave() {
  if (!page.state || page.state.finished || page.state.practice || !page.state.moves.length) return true;
  return window.confirm(_("Leave this game? It counts as lost in your statistics."));
}

export async function newGame(variant, deal, extra) {
  const body = { abandon: page.state ? page.state.id : null, ...(extra || {}) };
  if (variant) body.variant = variant;
  if (deal) body.deal = deal;
  const data = await call("POST", "/api/games", body);
  renderFresh(data);
  const fields = { date: data.daily, variant: data.variant_title, deal: data.deal, difficulty: difficultyText(body.difficulty, "word") };
  setStatus(data.daily ? format(_("Deal of the day ({date}): {variant}, deal {deal}."), fields) :
    body.difficulty && body.difficulty !== "any" ? format(_("New game: {variant}, deal {deal} (asked for: {difficulty}; told at the end)."), fields) :
      format(_("New game: {variant}, deal {deal}."), fields), "info");
  return data;
}

// -- loading a saved game ------------------------------------------------------

export function loadFile(file) {
  const reader = new FileReader();
  reader.onload = () => enqueue(async () => {
    try {
      const data = await call("POST", "/api/games/load", String(reader.result), true);
      renderFresh(data);
      const fields = { file: file.name, n: data.moves.length };
      setStatus(data.recorded ? format(ngettext("Loaded {file}: {n} move replayed.", "Loaded {file}: {n} moves replayed.", fields.n), fields)
        : format(ngettext("Loaded {file}: {n} move replayed (a loaded game does not count in the statistics).",
          "Loaded {file}: {n} moves replayed (a loaded game does not count in the statistics).", fields.n), fields), "info");
    } catch (e) { setStatus(`${file.name}: ${e.message}`, "error"); }
  });
  reader.readAsText(file);
}
