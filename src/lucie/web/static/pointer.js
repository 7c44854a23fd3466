// The pointer: drag, click, double-click (mouse and touch alike).

import { page } from "./model.js";
import { drop } from "./board.js";
import { setStatus } from "./status.js";
import { redeal } from "./commands.js";
import { pickable, pick, slideBack, tryMove, slotKey, activate } from "./hold.js";

export function onPointerDown(e) {
  if (!page.state || (e.pointerType === "mouse" && e.button !== 0)) return;
  const cardNode = e.target.closest(".card");
  const code = cardNode ? cardNode.dataset.card : null;
  const stock = e.target.closest("#stock");
  page.press = { code, key: slotKey(e.target), stock: !!stock, x0: e.clientX, y0: e.clientY,
    id: e.pointerId, dragging: false, el: cardNode };
  if (code && pickable(code)) {
    e.preventDefault();
    try { cardNode.setPointerCapture(e.pointerId); } catch (err) { /* synthetic */ }
  }
}

export function onPointerMove(e) {
  if (!page.press || e.pointerId !== page.press.id || !page.press.code || !pickable(page.press.code)) return;
  const dx = e.clientX - page.press.x0, dy = e.clientY - page.press.y0;
  if (!page.press.dragging) {
    if (Math.hypot(dx, dy) < 6) return;
    page.press.dragging = true;
    pick(page.press.code);
    if (!page.held) return;
    page.held.el.classList.add("dragging");
  }
  if (page.held) page.held.el.style.transform = `translate(${dx}px, ${dy}px)`;
}

export function onPointerUp(e) {
  if (!page.press || e.pointerId !== page.press.id) return;
  const p = page.press;
  page.press = null;
  if (p.dragging && page.held) {
    const h = page.held;
    const under = document.elementsFromPoint(e.clientX, e.clientY)
      .find((n) => n !== h.el && !h.el.contains(n) && n.closest && n.closest("[data-target]"));
    const key = under ? slotKey(under) : null;
    // its own fan is a place to go only for a buried card (the merci)
    if (!key || (key === h.el.dataset.where && !h.targets.has(key))) {
      slideBack(h.el);
      drop();
      setStatus("", "");
      return;
    }
    h.el.classList.remove("dragging");
    tryMove(h, key);
    return;
  }
  if (p.stock) {
    redeal();
    return;
  }
  activate(p.code, p.key, true);
}

export function onPointerCancel(e) {
  if (!page.press || e.pointerId !== page.press.id) return;
  page.press = null;
  if (page.held) { slideBack(page.held.el); drop(); }
}
