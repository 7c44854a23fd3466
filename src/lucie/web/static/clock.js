// The game's clock, the server's: shown here, counted there while the page
// shows the game (Page Visibility API).

import { $, page } from "./model.js";
import { gamePath } from "./api.js";
import { fmtTime } from "./status.js";

// The server's clock (the one stored): it runs only while this page shows
// the game in play, which the page tells it (visibility, below).
export function seconds() {
  if (!page.state) return 0;
  return page.state.seconds + (page.state.finished || !page.state.clock_running || document.hidden ? 0 : (performance.now() - page.stateAt) / 1000);
}

// Tell the server whether the game is shown (Page Visibility API): its
// clock counts only then. Said again every minute while shown (the
// server stops a clock whose page has gone silent).
export function tellVisibility() {
  if (!page.state) return;
  const visible = !document.hidden;
  fetch(gamePath("/visibility"), {
    method: "POST", keepalive: true, credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify({ visible }),
  }).then((r) => r.ok ? r.json() : null).then((d) => {
    if (d && page.state) { page.state.seconds = d.seconds; page.state.clock_running = d.running; page.stateAt = performance.now(); tick(); }
  }).catch(() => {});
}

export function tick() { $("f-time").textContent = fmtTime(seconds()); }

// The page is going away: its game's clock stops now.
export function tellHidden() {
  fetch(gamePath("/visibility"), {
    method: "POST", keepalive: true, credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify({ visible: false }),
  }).catch(() => {});
}
