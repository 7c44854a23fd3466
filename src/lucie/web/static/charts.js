// Two small SVG charts drawn by our own code: scores over time and the
// distribution of scores.
"use strict";

(function () {
  const { svgEl } = window.LucieCards;

  function text(svg, x, y, s, cls, anchor) {
    const t = svgEl("text", { x, y, class: cls || "axis", "text-anchor": anchor || "start" });
    t.textContent = s;
    svg.appendChild(t);
  }

  function frame(width, height) {
    return svgEl("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart-svg" });
  }

  // games: oldest first, each {score, status}
  function timeChart(games) {
    const W = 640, H = 220, L = 34, R = 10, T = 12, B = 28;
    const svg = frame(W, H);
    const n = games.length;
    svg.setAttribute("aria-label", `Scores of the last ${n} finished games, oldest first`);
    const x = (i) => L + (n <= 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (n - 1));
    const y = (s) => T + (1 - s / 52) * (H - T - B);
    for (const s of [0, 13, 26, 39, 52]) {
      svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: y(s), y2: y(s), class: "grid" }));
      text(svg, L - 4, y(s) + 4, String(s), "axis", "end");
    }
    text(svg, L, H - 6, "oldest", "axis");
    text(svg, W - R, H - 6, "latest", "axis", "end");
    if (n === 0) {
      text(svg, W / 2, H / 2, "No finished game yet", "empty", "middle");
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
      tip.textContent = `deal ${g.deal ?? "custom"}: ${g.status}, score ${g.score}`;
      c.appendChild(tip);
      svg.appendChild(c);
    });
    const lx = W - R - 190;
    svg.appendChild(svgEl("circle", { cx: lx, cy: T + 6, r: 4, class: "dot won" }));
    text(svg, lx + 8, T + 10, "won", "legend");
    svg.appendChild(svgEl("circle", { cx: lx + 50, cy: T + 6, r: 4, class: "dot lost" }));
    text(svg, lx + 58, T + 10, "lost", "legend");
    svg.appendChild(svgEl("line", { x1: lx + 96, x2: lx + 116, y1: T + 6, y2: T + 6, class: "avg" }));
    text(svg, lx + 120, T + 10, "average score", "legend");
    return svg;
  }

  function scoreChart(games) {
    const W = 640, H = 200, L = 34, R = 10, T = 12, B = 30;
    const svg = frame(W, H);
    const bins = new Array(14).fill(0); // 0-3, 4-7, ... 48-51, 52
    for (const g of games) bins[g.score >= 52 ? 13 : Math.floor(g.score / 4)] += 1;
    const top = Math.max(1, ...bins);
    svg.setAttribute("aria-label", "How many games ended with each score");
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
      tip.textContent = `score ${label}: ${v} game${v === 1 ? "" : "s"}`;
      bar.appendChild(tip);
      svg.appendChild(bar);
      if (i % 2 === 1 || i === 13) text(svg, L + i * bw + bw / 2, H - 12, label, "axis", "middle");
    });
    if (!games.length) text(svg, W / 2, H / 2, "No finished game yet", "empty", "middle");
    return svg;
  }

  window.LucieCharts = { timeChart, scoreChart };
})();
