// The status line, and numbers and times as the page writes them.

import { $ } from "./model.js";
import { number, percent } from "./i18n.js";

// Messages show in a box fixed at the bottom of the window (seen without
// scrolling, on a phone as on a desktop); an info fades after a while.
let statusTimer = 0;
export function setStatus(text, kind) {
  const el = $("status");
  el.textContent = text || "";
  el.className = kind || "";
  clearTimeout(statusTimer);
  $("messages").classList.remove("faded");
  if (text && (kind || "info") === "info") {
    statusTimer = setTimeout(() => $("messages").classList.add("faded"), 9000);
  }
}

// A number with one decimal, written as the page's language writes it ("12.5", "12,5").
export function decimal(x) { return number(x, 1); }
// A fraction as a percentage in the page's language ("9%", "9 %" in French).
export const pc = (x) => percent(x);

export function fmtTime(s) {
  s = Math.max(0, Math.floor(s));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? h + ":" : "") + mm + ":" + String(sec).padStart(2, "0");
}

