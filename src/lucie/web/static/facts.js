// The header's facts (deal, score, redeals, merci, time) and the toolbar's
// buttons, as the server's state says.

import { $, page } from "./model.js";
import { _, pgettext, ngettext, format } from "./i18n.js";
import { gamePath } from "./api.js";
import { tick } from "./clock.js";

export function renderFacts() {
  $("title").textContent = page.state.variant_title;
  document.title = `${page.state.variant_title} – lucie`;
  const deal = page.state.deal != null ? String(page.state.deal) : format(_("custom ({seed})"), { seed: page.state.seed });
  $("f-deal").textContent = page.state.daily ? format(_("{deal} (deal of the day, {date})"), { deal, date: page.state.daily }) : deal;
  renderDaily();
  $("f-score").textContent = `${page.state.score}/52`;
  $("f-deals").textContent = String(page.state.redeals_left);
  $("f-merci-box").hidden = !page.state.has_merci;
  $("f-merci").textContent = page.state.merci_used ? pgettext("merci", "used") :
    page.state.merci_available ? pgettext("merci", "available") : pgettext("merci", "last deal");
  tick();
  $("b-undo").disabled = !page.state.can_undo;
  $("b-redo").disabled = !page.state.can_redo;
  $("b-redeal").disabled = !page.state.can_redeal;
  $("b-redeal").title = format(ngettext("Redeal (D): {n} left", "Redeal (D): {n} left", page.state.redeals_left), { n: page.state.redeals_left });
  $("b-redeal").hidden = page.state.redeals_total === 0;
  $("b-merci").hidden = !page.state.has_merci;
  $("b-merci").disabled = !page.state.merci_moves;
  $("b-merci").setAttribute("aria-pressed", String(page.merciMode));
  $("b-restart").disabled = !page.state.can_undo;
  $("b-resign").disabled = page.state.finished;
  $("b-stats").hidden = !page.features.stats;
  $("b-auto").setAttribute("aria-pressed", String(page.autoplay));
  $("b-auto").textContent = pgettext("button", "Auto") + (page.autoplay ? " ✓" : "");
  $("b-save").href = gamePath("/save");
  const stock = $("stock");
  stock.hidden = page.state.redeals_total === 0;
  stock.classList.toggle("empty", page.state.redeals_left === 0);
  stock.classList.toggle("ready", page.state.can_redeal);
  $("stock-count").textContent = String(page.state.redeals_left);
  stock.setAttribute("aria-label", format(ngettext("Redeal pile: {n} redeal left", "Redeal pile: {n} redeals left", page.state.redeals_left), { n: page.state.redeals_left }));
}

// Whether a game of the deal of the day counts for that day's table: the
// server's word (daily_counts, daily_why), shown as it is.
function renderDaily() {
  const counts = page.state.daily ? page.state.daily_counts : null;
  $("f-daily-box").hidden = counts == null;
  if (counts == null) return;
  $("f-daily").textContent = counts ? pgettext("table of the day", "counts")
    : format(pgettext("table of the day", "does not count ({why})"), { why: page.state.daily_why });
  $("f-daily-box").classList.toggle("not-counted", !counts);
}
