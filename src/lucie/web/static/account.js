// The player's own panel on a site (lucie serve): their name, their
// recovery code, going on as another device's player, deleting it all.
// The server knows the player by an HttpOnly cookie; the page never sees it.

import { $, page } from "./model.js";
import { _ } from "./i18n.js";
import { call } from "./api.js";
import { setStatus } from "./status.js";

function show(me) {
  $("player-name").value = me.name;
  $("player-code").textContent = me.recovery_code;  // text, never HTML
}

async function act(fn) {
  try { await fn(); } catch (e) { setStatus(e.message, "error"); }
}

export async function openPlayer() {
  await act(async () => {
    show(await call("GET", "/api/me"));
    $("d-player").showModal();
  });
}

export function wirePlayer() {
  $("b-player").hidden = !(page.features && page.features.players);
  $("b-player").addEventListener("click", openPlayer);
  $("player-close").addEventListener("click", () => $("d-player").close());
  $("player-rename").addEventListener("click", () => act(async () => {
    show(await call("POST", "/api/me/name", { name: $("player-name").value }));
    setStatus(_("Your name is changed."), "info");
  }));
  $("player-recover").addEventListener("click", () => act(async () => {
    await call("POST", "/api/me/recover", { code: $("player-recover-code").value });
    location.reload();
  }));
  $("player-delete").addEventListener("click", () => act(async () => {
    if (!confirm(_("Delete your player and all your games, for good?"))) return;
    await call("POST", "/api/me/delete");
    location.reload();
  }));
}
