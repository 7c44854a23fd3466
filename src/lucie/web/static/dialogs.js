// The dialogs: a new game, the rules, the end of a game.

import { $, page } from "./model.js";
import { _, ngettext, format, difficultyText } from "./i18n.js";
import { call, enqueue, gamePath } from "./api.js";
import { fmtTime } from "./status.js";
import { sound } from "./sound.js";
import { celebrate } from "./celebrate.js";
import { mayLeave, newGame } from "./commands.js";
import { endButtons } from "./challenge.js";

export function fillVariants(select, current, withAll) {
  select.replaceChildren();
  if (withAll) select.appendChild(new Option(_("All variants"), "all"));
  for (const v of page.variants) select.appendChild(new Option(v.title, v.spec));
  if (current && ![...select.options].some((o) => o.value === current)) {
    select.appendChild(new Option(current, current));
  }
  if (current) select.value = current;
}

export function openNew() {
  fillVariants($("new-variant"), page.state ? page.state.variant : "classic", false);
  showSummary();
  $("new-deal").value = "";
  $("new-error").textContent = "";
  $("new-busy").textContent = "";
  $("d-new").showModal();
}

export function showSummary() {
  const v = page.variants.find((x) => x.spec === $("new-variant").value);
  $("new-variant-summary").textContent = v ? v.summary : "";
}

export async function submitNew(e, daily) {
  if (e) e.preventDefault();
  const deal = daily ? "" : $("new-deal").value.trim();
  const difficulty = !deal && !daily ? $("new-difficulty").value : "any";
  const extra = daily ? { daily: true } : difficulty !== "any" ? { difficulty } : {};
  $("new-error").textContent = "";
  if (!mayLeave()) { $("new-error").textContent = _("You stay in this game."); return; }
  $("new-busy").textContent = difficulty !== "any" ? difficultyText(difficulty, "finding") : "";
  for (const b of ["new-ok", "new-daily"]) $(b).disabled = true;
  try {
    await enqueue(() => newGame($("new-variant").value, deal || null, extra));
    $("d-new").close();
  } catch (err) {
    $("new-error").textContent = err.message;
  } finally {
    $("new-busy").textContent = "";
    for (const b of ["new-ok", "new-daily"]) $(b).disabled = false;
  }
}

export function openRules() {
  const v = page.state && page.variants.find((x) => x.spec === page.state.variant);
  $("rules-variant").textContent = page.state ? `${page.state.variant_title}: ${v ? v.summary : page.state.variant}` : "";
  $("d-rules").showModal();
}

export function maybeShowEnd(justWon) {
  const mark = `${page.state.id}/${page.state.moves.length}/${page.state.status}`;
  if (page.endShownFor === mark) return;
  page.endShownFor = mark;
  let wait = 260;
  if (justWon) {
    sound("win");
    wait = Math.max(wait, celebrate());
  }
  const won = page.state.status === "won";
  $("d-end-title").textContent = won ? _("You won!") : page.state.status === "resigned" ? _("Game resigned") : _("No move left");
  $("d-end-text").textContent = format(ngettext("Score {score}/52 in {time}, {n} move. {variant}, deal {deal}.",
    "Score {score}/52 in {time}, {n} moves. {variant}, deal {deal}.", page.state.moves.length),
  { score: page.state.score, time: fmtTime(page.state.seconds), n: page.state.moves.length, variant: page.state.variant_title, deal: page.state.deal ?? _("custom") });
  $("end-undo").hidden = won || !page.state.can_undo;
  $("end-stats").hidden = !page.features.stats;
  $("end-daily").hidden = !page.features.stats || !page.state.daily;
  endButtons();
  $("end-review").hidden = !page.state.moves.length;
  showDifficulty();
  const id = page.state.id;
  setTimeout(() => {
    $("celebrate").replaceChildren(); // the cascade is over
    if (page.state && page.state.id === id && page.state.finished && !$("d-end").open) $("d-end").showModal();
  }, wait);
}

// The deal's difficulty, told once the game is over (never before).
export async function showDifficulty() {
  const box = $("d-end-difficulty");
  const asked = page.state.difficulty ? difficultyText(page.state.difficulty, "asked") + " " : "";
  box.textContent = asked;
  if (page.state.deal == null) return;
  const id = page.state.id;
  try {
    const r = await call("GET", gamePath("/difficulty"));
    if (!page.state || page.state.id !== id) return;
    // the server's sentence (Rated.text): the rating the deal was picked
    // by, whether its interval settles it, a later exact figure beside it
    if (r.text) box.textContent = asked + r.text;
  } catch (err) { /* the difficulty is a bonus: the dialog stands without it */ }
}
