// Card faces drawn as SVG by our own code: rank and suit in the top-left
// corner (the part that shows when cards overlap), a large suit in the middle,
// the rank again at the bottom right.  Red for hearts and diamonds.
// No rule of the game lives here.

import { cardName, rankLabel } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

export function svgEl(name, attrs) {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  return el;
}

export function useSuit(suit, x, y, size) {
  const u = svgEl("use", { x, y, width: size, height: size });
  u.setAttribute("href", "#suit-" + suit);
  return u;
}

// The card's name in words in the page's language ("king of hearts",
// "roi de cœur", "Herzkönig"), as the server named it (lucie.cards.card_name).
export function cardLabel(code) {
  return cardName(code);
}

// The rank in the card's corner, in the page's language (V♥ is the jack of hearts in French).
function rankText(code) {
  return rankLabel(code);
}

// A card element: <div class="card"> holding the SVG face.
export function makeCard(code) {
  const suit = code.slice(-1);
  const red = suit === "H" || suit === "D";
  const div = document.createElement("div");
  div.className = "card " + (red ? "red" : "black");
  div.dataset.card = code;
  div.setAttribute("role", "img");
  div.setAttribute("aria-label", cardLabel(code));
  const svg = svgEl("svg", { viewBox: "0 0 60 84", "aria-hidden": "true" });
  svg.appendChild(svgEl("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 5, class: "face" }));
  const r = rankText(code);
  const corner = svgEl("text", { x: r.length > 1 ? 1.5 : 2.5, y: 19, class: "rank" });
  // the widest ranks a little narrower, so a corner is at most 17 units
  // wide (the part of a card a long fan shows)
  const wide = { 10: "15.5", Q: "13.5", K: "13.5", A: "13.5" }[r];
  if (wide) corner.setAttribute("textLength", wide), corner.setAttribute("lengthAdjust", "spacingAndGlyphs");
  corner.textContent = r;
  svg.appendChild(corner);
  svg.appendChild(useSuit(suit, 3, 22, 14));
  const face = "JQK".includes(code.slice(0, -1));
  if (face) {
    svg.appendChild(svgEl("rect", { x: 21, y: 12, width: 34, height: 60, rx: 3, class: "court" }));
    const big = svgEl("text", { x: 38, y: 44, class: "court-letter", "text-anchor": "middle" });
    big.textContent = r;
    svg.appendChild(big);
    svg.appendChild(useSuit(suit, 29, 50, 18));
  } else {
    svg.appendChild(useSuit(suit, 22, 26, 32));
  }
  const foot = svgEl("text", { x: 56, y: 79, class: "rank small", "text-anchor": "end" });
  foot.textContent = r;
  svg.appendChild(foot);
  div.appendChild(svg);
  return div;
}
