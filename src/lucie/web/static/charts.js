// Small SVG charts drawn by our own code: scores over time, the
// distribution of scores and a reviewed game's winning chance move by move.

import { _, pgettext, ngettext, format, percent } from "./i18n.js";
import { svgEl } from "./cards.js";

function text(svg, x, y, s, cls, anchor) {
  const t = svgEl("text", { x, y, class: cls || "axis", "text-anchor": anchor || "start" });
  t.textContent = s;
  svg.appendChild(t);
}

// A chart's width in its own units: the width it is shown at (down to
// 340), so its 12-unit text is about 12 px on a phone as on a desktop.
function chartWidth() {
  return Math.round(Math.max(340, Math.min(640, document.documentElement.clientWidth - 36)));
}

function frame(width, height) {
  return svgEl("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart-svg" });
}

// games: oldest first, each {score, status, status_text} (the status in
// words, the server's)
// The legend sits above the plot (a band of its own), never over a point.
export function timeChart(games) {
  const W = chartWidth(), H = 236, L = 34, R = 10, T = 30, B = 28;
  const svg = frame(W, H);
  const n = games.length;
  svg.setAttribute("aria-label", format(ngettext("Score of {n} finished game", "Scores of the last {n} finished games, oldest first", n), { n }));
  const x = (i) => L + (n <= 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (n - 1));
  const y = (s) => T + (1 - s / 52) * (H - T - B);
  for (const s of [0, 13, 26, 39, 52]) {
    svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: y(s), y2: y(s), class: "grid" }));
    text(svg, L - 4, y(s) + 4, String(s), "axis", "end");
  }
  text(svg, L, H - 6, _("oldest"), "axis");
  text(svg, W - R, H - 6, _("latest"), "axis", "end");
  if (n === 0) {
    text(svg, W / 2, H / 2, _("No finished game yet"), "empty", "middle");
    return svg;
  }
  // running average of the score
  let sum = 0, d = "";
  games.forEach((g, i) => {
    sum += g.score;
    d += (i ? "L" : "M") + x(i).toFixed(1) + " " + y(sum / (i + 1)).toFixed(1);
  });
  svg.appendChild(svgEl("path", { d, class: "avg" }));
  games.forEach((g, i) => {
    const c = svgEl("circle", { cx: x(i), cy: y(g.score), r: n > 200 ? 2 : 4,
      class: g.status === "won" ? "dot won" : "dot lost" });
    const tip = svgEl("title");
    tip.textContent = format(_("deal {deal}: {status}, score {score}"),
      { deal: g.deal ?? _("custom"), status: g.status_text, score: g.score });
    c.appendChild(tip);
    svg.appendChild(c);
  });
  // from the left, with room for the longer words of other languages
  const lx = L + 6, ly = 9;
  const legend = svgEl("g", { class: "legend-box" });
  legend.appendChild(svgEl("circle", { cx: lx, cy: ly, r: 4, class: "dot won" }));
  text(legend, lx + 8, ly + 4, pgettext("game status", "won"), "legend");
  legend.appendChild(svgEl("circle", { cx: lx + 100, cy: ly, r: 4, class: "dot lost" }));
  text(legend, lx + 108, ly + 4, pgettext("game status", "lost"), "legend");
  legend.appendChild(svgEl("line", { x1: lx + 200, x2: lx + 220, y1: ly, y2: ly, class: "avg" }));
  text(legend, lx + 224, ly + 4, _("average score"), "legend");
  svg.appendChild(legend);
  return svg;
}

export function scoreChart(games) {
  const W = chartWidth(), H = 200, L = 34, R = 10, T = 12, B = 30;
  const svg = frame(W, H);
  const bins = new Array(14).fill(0); // 0-3, 4-7, ... 48-51, 52
  for (const g of games) bins[g.score >= 52 ? 13 : Math.floor(g.score / 4)] += 1;
  const top = Math.max(1, ...bins);
  svg.setAttribute("aria-label", _("How many games ended with each score"));
  const bw = (W - L - R) / bins.length;
  const y = (v) => T + (1 - v / top) * (H - T - B);
  for (const v of [0, Math.round(top / 2), top]) {
    svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    text(svg, L - 4, y(v) + 4, String(v), "axis", "end");
  }
  bins.forEach((v, i) => {
    const label = i === 13 ? "52" : `${i * 4}-${i * 4 + 3}`;
    const bar = svgEl("rect", { x: L + i * bw + 2, y: y(v), width: bw - 4,
      height: Math.max(0, H - B - y(v)), class: i === 13 ? "bar won" : "bar" });
    const tip = svgEl("title");
    tip.textContent = format(ngettext("score {range}: {n} game", "score {range}: {n} games", v), { range: label, n: v });
    bar.appendChild(tip);
    svg.appendChild(bar);
    if (i % 2 === 1 || i === 13) text(svg, L + i * bw + bw / 2, H - 12, label, "axis", "middle");
  });
  if (!games.length) text(svg, W / 2, H / 2, _("No finished game yet"), "empty", "middle");
  return svg;
}

// The winning chance before each move of a reviewed game (and after the
// last): a point per move coloured by its label, a band for the 95%
// interval of an estimate, "≥" over a lower bound, a gap where the value
// is unknown.  onPick(i) is called with the move's index when a point is
// clicked (or chosen with Enter).
export function reviewChart(review, onPick) {
  const W = chartWidth(), H = 230, L = 40, R = 12, T = 14, B = 28;
  const svg = frame(W, H);
  const values = review.moves.map((m) => m.value_before);
  values.push(review.final_value);
  const n = values.length;
  svg.setAttribute("aria-label", format(ngettext("Winning chance before {n} move", "Winning chance before each of the {n} moves", n - 1), { n: n - 1 }));
  const x = (i) => L + (n <= 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (n - 1));
  const y = (p) => T + (1 - p) * (H - T - B);
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: y(p), y2: y(p), class: "grid" }));
    text(svg, L - 4, y(p) + 4, percent(p), "axis", "end");
  }
  text(svg, L, H - 6, format(_("move {n}"), { n: 1 }), "axis");
  text(svg, W - R, H - 6, format(_("after move {n}"), { n: n - 1 }), "axis", "end");
  // the interval band of the estimates, segment by segment
  values.forEach((v, i) => {
    if (i === 0 || v.chance == null || values[i - 1].chance == null) return;
    const a = values[i - 1], b = v;
    if (a.kind !== "estimate" && b.kind !== "estimate") return;
    const d = `M${x(i - 1)} ${y(a.high)} L${x(i)} ${y(b.high)} L${x(i)} ${y(b.low)} L${x(i - 1)} ${y(a.low)} Z`;
    svg.appendChild(svgEl("path", { d, class: "band" }));
  });
  let d = "", pen = false;
  values.forEach((v, i) => {
    if (v.chance == null) { pen = false; return; }
    d += (pen ? "L" : "M") + x(i).toFixed(1) + " " + y(v.chance).toFixed(1);
    pen = true;
  });
  if (d) svg.appendChild(svgEl("path", { d, class: "chance" }));
  const points = [];
  values.forEach((v, i) => {
    if (v.chance == null) return;
    const m = review.moves[i];
    const c = svgEl("circle", { cx: x(i), cy: y(v.chance), r: n > 120 ? 3.5 : 5,
      class: `pt ${m ? m.label || "" : "end"}`, tabindex: 0, role: "button" });
    c.dataset.index = String(i);
    const tip = svgEl("title");
    const fields = { n: i + 1, move: m ? m.move : "", value: fmtValue(v), label: m ? m.label_text : "" };
    tip.textContent = !m ? format(_("after the last move: {value}"), fields)
      : m.label ? format(_("move {n} ({move}): {value} before, {label}"), fields)
        : format(_("move {n} ({move}): {value} before"), fields);
    c.appendChild(tip);
    c.addEventListener("click", () => onPick(i));
    c.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onPick(i); } });
    svg.appendChild(c);
    points.push(c);
    if (v.kind === "bound") text(svg, x(i), y(v.chance) - 8, "≥", "bound", "middle");
  });
  if (n <= 1) text(svg, W / 2, H / 2, _("No move to review"), "empty", "middle");
  return svg;
}

// A value as words: "100%", "23% (15–33%)", "at least 23%", "unknown".
export function fmtValue(v) {
  if (!v || v.chance == null) return _("unknown");
  const pc = (p) => percent(p);
  let t = v.kind === "bound" ? format(_("at least {chance}"), { chance: pc(v.chance) }) : pc(v.chance);
  if (v.kind === "estimate") t += " " + format(_("({level} interval {low}–{high})"), { level: pc(0.95), low: pc(v.low), high: pc(v.high) });
  if (v.kind === "exact" && v.chance > 0 && v.chance < 1) t += " " + _("(exact)");
  if (v.best_score != null && v.best_score < 52) t += ", " + format(_("best score {score}"), { score: v.best_score });
  return t;
}

