// The win: the cards cascade from the foundations.

import { $ } from "./model.js";
import { makeCard } from "./cards.js";
import { SUIT_ORDER, cardEls } from "./board.js";

export function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

// Throw the 52 cards off the foundations, kings first, each in an arc to
// the bottom of the window; nothing under prefers-reduced-motion.  Returns
// how long it lasts (ms).
export function celebrate() {
  if (reducedMotion()) return 0;
  const layer = $("celebrate");
  layer.replaceChildren();
  const slots = [...$("foundations").children];
  const H = window.innerHeight, W = window.innerWidth;
  const w = cardEls.size ? [...cardEls.values()][0].getBoundingClientRect().width : 60;
  let k = 0, last = 0;
  for (let r = 12; r >= 0; r--) {
    slots.forEach((slot, s) => {
      const from = slot.getBoundingClientRect();
      const el = makeCard("A23456789TJQK"[r] + SUIT_ORDER[s]);
      el.classList.add("flying");
      el.style.left = `${from.left}px`;
      el.style.top = `${from.top}px`;
      el.style.width = `${w}px`;
      el.style.height = `${Math.round(w * 1.4)}px`;
      layer.appendChild(el);
      const side = (k % 2 ? 1 : -1) * (0.25 + ((k * 7) % 10) / 14);
      const dx = side * W * 0.55, fall = H - from.top + 20, up = 60 + ((k * 13) % 5) * 25;
      const delay = k * 28, time = 1100;
      const frames = [];
      for (let i = 0; i <= 8; i++) {
        const t = i / 8;
        frames.push({ transform: `translate(${dx * t}px, ${fall * t * t - up * 4 * t * (1 - t)}px) rotate(${side * 240 * t}deg)`,
          opacity: t < 0.85 ? 1 : 1 - (t - 0.85) / 0.15 });
      }
      const anim = el.animate(frames, { duration: time, delay, easing: "linear", fill: "both" });
      anim.onfinish = () => el.remove();
      last = Math.max(last, delay + time);
      k += 1;
    });
  }
  return last;
}
