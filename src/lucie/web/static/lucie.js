// The page of the browser game.  It knows no rule of the game: it draws the
// position the server sends, lights up the targets the server lists as legal
// for the card in hand, and sends moves in text notation (source ">" target,
// both spelled by the server).  The server checks every move.
"use strict";

(function () {
  const { makeCard, cardLabel, svgEl, useSuit } = window.LucieCards;
  const { _, ngettext, pgettext, N_, format } = window.LucieI18n;
  const $ = (id) => document.getElementById(id);
  const SUIT_ORDER = ["C", "D", "H", "S"];
  // the suits' names, translated where shown
  const SUIT_WORDS = { C: N_("Clubs"), D: N_("Diamonds"), H: N_("Hearts"), S: N_("Spades") };
  const DIFFICULTY_WORDS = {
    clearable: pgettext("difficulty", "clearable"), easy: pgettext("difficulty", "easy"),
    medium: pgettext("difficulty", "medium"), hard: pgettext("difficulty", "hard"),
  };
  // sentences naming a difficulty, whole (the word agrees with the sentence)
  const ASKED = {
    clearable: N_("You asked for a clearable deal."), easy: N_("You asked for an easy deal."),
    medium: N_("You asked for a medium deal."), hard: N_("You asked for a hard deal."),
  };
  const FINDING = {
    clearable: N_("Finding a clearable deal…"), easy: N_("Finding an easy deal…"),
    medium: N_("Finding a medium deal…"), hard: N_("Finding a hard deal…"),
  };
  const { statusWord, labelWord } = window.LucieCharts;
  const difficultyWord = (s) => DIFFICULTY_WORDS[s] || s;
  const suitWord = (s) => _(SUIT_WORDS[s]);
  const DOUBLE_MS = 420;

  const saved = {
    get(k) { try { return localStorage.getItem(k); } catch (err) { return null; } },
    set(k, v) { try { localStorage.setItem(k, v); } catch (err) { /* private mode */ } },
  };

  let state = null;            // the last state sent by the server
  let stateAt = performance.now();
  const cardEls = new Map();   // card code -> its element, kept so moves animate
  let held = null;             // {code, el, source, targets: Map(key -> move), at}
  let press = null;            // pointer press in progress
  let merciMode = false;
  // autoplay of safe cards is on unless the player turned it off
  let autoplay = saved.get("lucie.autoplay") !== "0";
  // the settings dialog's choices (remembered in localStorage)
  const prefs = {
    oneClick: saved.get("lucie.oneclick") !== "0",
    sounds: saved.get("lucie.sounds") === "1",
    theme: saved.get("lucie.theme") || "green",
    back: saved.get("lucie.back") || "red",
  };
  let oneClickAt = -1e9;       // when a click last played a card (its double's second click is ignored)
  let features = { hint: false, odds: false, stats: false };
  let variants = [];
  let endShownFor = null;
  let cols = 6;
  let queue = Promise.resolve();

  // -- talking to the server ------------------------------------------------

  async function call(method, path, body, raw) {
    const opts = { method, headers: {} };
    // the server takes a POST only as JSON from this page
    if (body === undefined && method === "POST") body = {};
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = raw ? body : JSON.stringify(body);
    }
    let r;
    try {
      r = await fetch(path, opts);
    } catch (err) {
      const e = new Error(_("the server does not answer (is lucie web still running?)"));
      e.status = 0;
      throw e;
    }
    let data;
    try { data = await r.json(); } catch (err) { data = { error: format(_("the server answered {status}"), { status: r.status }) }; }
    if (!r.ok) {
      const e = new Error(data.error || format(_("error {status}"), { status: r.status }));
      e.status = r.status;
      e.data = data;
      throw e;
    }
    return data;
  }

  // Requests run one after the other, in the order the player made them.
  function enqueue(fn) {
    const p = queue.then(fn, fn);
    queue = p.catch(() => {});
    return p;
  }

  function gamePath(tail) { return `/api/games/${encodeURIComponent(state.id)}${tail}`; }

  // A command's body carries the version of the game this page shows: the
  // server refuses it if the game has moved on (another tab played).
  function versioned(body) { return { ...(body || {}), version: state.version }; }

  // The server refused a command made against an older position: show the
  // game as it is now and say so.
  function staleAnswer(e) {
    if (!(e.status === 409 && e.data && e.data.stale && e.data.state)) return false;
    render(e.data.state);
    setStatus(e.message, "error");
    sound("refused");
    return true;
  }

  // What a command did, in one line (an autoplay cascade is one count).
  function said(data) { return data.summary || (data.messages || []).join("; "); }

  function act(method, tail, body) {
    return enqueue(async () => {
      if (!state) return null;
      try {
        const data = await call(method, gamePath(tail), method === "POST" ? versioned(body) : body);
        render(data);
        // what the command did; a message about the position before no longer applies
        setStatus(said(data), "info");
        return data;
      } catch (e) {
        if (staleAnswer(e)) return null;
        setStatus(e.message, "error");
        if (e.status === 404) await newGame(null, null);
        return null;
      }
    });
  }

  // -- status line and facts --------------------------------------------------

  // Messages show in a box fixed at the bottom of the window (seen without
  // scrolling, on a phone as on a desktop); an info fades after a while.
  let statusTimer = 0;
  function setStatus(text, kind) {
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
  function decimal(x) {
    return x.toLocaleString(window.LucieI18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  }

  function fmtTime(s) {
    s = Math.max(0, Math.floor(s));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(sec).padStart(2, "0");
  }

  // The server's clock (the one stored): it runs only while this page shows
  // the game in play, which the page tells it (visibility, below).
  function seconds() {
    if (!state) return 0;
    return state.seconds + (state.finished || !state.clock_running || document.hidden ? 0 : (performance.now() - stateAt) / 1000);
  }

  // Tell the server whether the game is shown (Page Visibility API): its
  // clock counts only then. Said again every minute while shown (the
  // server stops a clock whose page has gone silent).
  function tellVisibility() {
    if (!state) return;
    const visible = !document.hidden;
    fetch(gamePath("/visibility"), {
      method: "POST", keepalive: true, credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ visible }),
    }).then((r) => r.ok ? r.json() : null).then((d) => {
      if (d && state) { state.seconds = d.seconds; state.clock_running = d.running; stateAt = performance.now(); tick(); }
    }).catch(() => {});
  }

  function tick() { $("f-time").textContent = fmtTime(seconds()); }

  function renderFacts() {
    $("title").textContent = state.variant_title;
    document.title = `${state.variant_title} – lucie`;
    const deal = state.deal != null ? String(state.deal) : format(_("custom ({seed})"), { seed: state.seed });
    $("f-deal").textContent = state.daily ? format(_("{deal} (deal of the day, {date})"), { deal, date: state.daily }) : deal;
    $("f-score").textContent = `${state.score}/52`;
    $("f-deals").textContent = String(state.redeals_left);
    $("f-merci-box").hidden = !state.has_merci;
    $("f-merci").textContent = state.merci_used ? pgettext("merci", "used") :
      state.merci_available ? pgettext("merci", "available") : pgettext("merci", "last deal");
    tick();
    $("b-undo").disabled = !state.can_undo;
    $("b-redo").disabled = !state.can_redo;
    $("b-redeal").disabled = !state.can_redeal;
    $("b-redeal").title = format(ngettext("Redeal (D): {n} left", "Redeal (D): {n} left", state.redeals_left), { n: state.redeals_left });
    $("b-redeal").hidden = state.redeals_total === 0;
    $("b-merci").hidden = !state.has_merci;
    $("b-merci").disabled = !state.merci_moves;
    $("b-merci").setAttribute("aria-pressed", String(merciMode));
    $("b-restart").disabled = !state.can_undo;
    $("b-resign").disabled = state.finished;
    $("b-hint").hidden = !features.hint;
    $("b-odds").hidden = !features.odds;
    $("b-stats").hidden = !features.stats;
    $("b-auto").setAttribute("aria-pressed", String(autoplay));
    $("b-auto").textContent = pgettext("button", "Auto") + (autoplay ? " ✓" : "");
    $("b-save").href = gamePath("/save");
    const stock = $("stock");
    stock.hidden = state.redeals_total === 0;
    stock.classList.toggle("empty", state.redeals_left === 0);
    stock.classList.toggle("ready", state.can_redeal);
    $("stock-count").textContent = String(state.redeals_left);
    stock.setAttribute("aria-label", format(ngettext("Redeal pile: {n} redeal left", "Redeal pile: {n} redeals left", state.redeals_left), { n: state.redeals_left }));
  }

  // -- the table --------------------------------------------------------------

  function cardEl(code) {
    let el = cardEls.get(code);
    if (!el) {
      el = makeCard(code);
      cardEls.set(code, el);
    }
    return el;
  }

  function ensureSlots(container, count, make) {
    while (container.children.length > count) container.lastElementChild.remove();
    while (container.children.length < count) container.appendChild(make(container.children.length));
  }

  function makeSlot(kind, target) {
    const slot = document.createElement("div");
    slot.className = `slot ${kind}`;
    slot.tabIndex = 0;
    slot.setAttribute("role", "button");
    if (target) slot.dataset.target = target;
    return slot;
  }

  function addName(slot, text) {
    const name = document.createElement("span");
    name.className = "fan-name";
    name.textContent = text;
    slot.appendChild(name);
  }

  function makeFanSlot(i) {
    const slot = makeSlot("fan");
    addName(slot, "");
    return slot;
  }

  function makeFoundationSlot(s) {
    const slot = makeSlot("foundation", `foundation:${s}`);
    const mark = svgEl("svg", { viewBox: "0 0 60 84", class: "mark", "aria-hidden": "true" });
    mark.appendChild(useSuit(SUIT_ORDER[s], 12, 24, 36));
    slot.appendChild(mark);
    return slot;
  }

  function makeCellSlot(c) {
    const slot = makeSlot("cell", `cell:${c}`);
    addName(slot, format(_("cell {n}"), { n: c + 1 }));
    return slot;
  }

  // Smallest card drawn: its corner's rank is still 12 px tall.
  const MIN_CARD = 34;
  // The part of a card's width its corner label needs ("10" included).
  const LABEL = 0.3;

  // The fans' lengths, row by row, with ``c`` fans a row.
  function rowsOf(c) {
    const fans = state ? state.fans.map((f) => f.length) : new Array(18).fill(3);
    const rows = [];
    for (let i = 0; i < fans.length; i += c) rows.push(fans.slice(i, i + c));
    return rows;
  }

  // The largest card width with ``c`` fans a row: every row of fans (and
  // the top row) within the window's height, a fan of three at ease in
  // its column, and each card's corner label showing in every row.
  function cardWidthFor(c, width, gap, roomH) {
    const rows = rowsOf(c);
    const avail = width - gap * (c - 1);
    const n = rows.length + 1;
    const byHeight = Math.floor((roomH - n * (gap + 12) + 12) / (n * 1.4));
    const byColumn = Math.floor(avail / c / 1.88);
    const byLabels = Math.min(...rows.map((r) =>
      Math.floor((avail - 2 * c) / (c + LABEL * r.reduce((a, k) => a + Math.max(0, k - 1), 0)))));
    const fit = Math.min(byHeight, byColumn, byLabels);
    // every label showing comes first, then the size (a long fan on a small phone may scroll)
    return { cols: c, fit, labels: byLabels >= MIN_CARD, cardW: Math.max(MIN_CARD, fit), avail };
  }

  function geometry() {
    const table = $("table");
    const pad = getComputedStyle(table);
    const width = table.clientWidth - parseFloat(pad.paddingLeft) - parseFloat(pad.paddingRight);
    const nf = state ? state.fans.length : 18;
    const first = width < 560 ? 3 : width < 900 ? 4 : nf % 4 === 0 && width < 1100 ? 4 : 6;
    const gap = width < 560 ? 6 : 12;
    const top = table.getBoundingClientRect().top + window.scrollY;
    // the fan names under the last row, and the message box at the bottom
    const roomH = window.innerHeight - top - 70;
    // more columns when they give larger cards (a phone held sideways, a short window)
    let best = cardWidthFor(first, width, gap, roomH);
    for (const c of [4, 6, nf % 4 === 0 ? 8 : 9]) {
      if (c <= first || c > nf) continue;
      const g = cardWidthFor(c, width, gap, roomH);
      if (g.labels > best.labels || (g.labels === best.labels && g.fit > best.fit + 1)) best = g;
    }
    cols = best.cols;
    const cardW = best.cardW;
    const root = document.documentElement.style;
    root.setProperty("--cols", String(cols));
    root.setProperty("--gap", gap + "px");
    root.setProperty("--card-w", cardW + "px");
    root.setProperty("--card-h", Math.round(cardW * 1.4) + "px");
    // the header and the toolbar grow with the cards on a large screen
    root.setProperty("--ui", String(Math.min(1.6, Math.max(1, cardW / 110)).toFixed(2)));
    return { widths: fanWidths(best.avail, cardW), cardW };
  }

  // The width of each fan's place: equal columns while every fan shows its
  // cards' corners in them; else a row's long fans take the room its short
  // ones leave.
  function fanWidths(avail, cardW) {
    const widths = [];
    const slotW = Math.floor(avail / cols);
    for (const row of rowsOf(cols)) {
      const need = row.map((k) => cardW + 2 + Math.max(0, k - 1) * LABEL * cardW);
      if (need.every((w) => w <= slotW)) {
        widths.push(...row.map(() => slotW));
        continue;
      }
      const room = avail - (cols - row.length) * slotW;
      const sum = need.reduce((a, w) => a + w, 0);
      widths.push(...need.map((w) => Math.floor(sum <= room ? w + (room - sum) * w / sum : room * w / sum)));
    }
    return widths;
  }

  function render(next) {
    // where every card is now (with any drag offset), to animate from there
    const before = new Map();
    for (const [code, el] of cardEls) {
      if (el.isConnected) before.set(code, el.getBoundingClientRect());
    }
    const changed = !state || state.id !== next.id || state.moves.join(" ") !== next.moves.join(" ");
    // won by a move made here (not a won game opened again)
    const justWon = !!state && state.id === next.id && !state.finished && next.status === "won";
    state = next;
    stateAt = performance.now();
    if (changed) $("odds").hidden = true;
    if (changed || next.finished) $("resign-offer").hidden = true;
    saved.set("lucie.game", state.id);
    held = null;
    press = null;
    if (!state.merci_moves) merciMode = false;
    clearHint();
    for (const el of cardEls.values()) {
      el.style.transform = "";
      el.classList.remove("dragging", "held", "hint", "bad");
    }
    for (const slot of document.querySelectorAll(".slot.target, .slot.bad")) slot.classList.remove("target", "bad");
    layout();
    renderFacts();
    for (const [code, el] of cardEls) {
      const old = before.get(code);
      if (!old || !el.isConnected) continue;
      const now = el.getBoundingClientRect();
      const dx = old.left - now.left, dy = old.top - now.top;
      if (Math.abs(dx) + Math.abs(dy) > 1 && el.animate) {
        el.animate([{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 50 },
          { transform: "translate(0, 0)", zIndex: 50 }],
        { duration: 220, easing: "cubic-bezier(.2,.7,.3,1)" });
      }
    }
    if (state.finished) maybeShowEnd(justWon);
  }

  function layout() {
    if (!state) return;
    const { widths, cardW } = geometry();
    const placed = new Set();
    for (const el of cardEls.values()) {
      el.classList.remove("liftable", "top");
      el.removeAttribute("tabindex");
    }
    // fans
    const fansBox = $("fans");
    ensureSlots(fansBox, state.fans.length, makeFanSlot);
    state.fans.forEach((fan, i) => {
      const slot = fansBox.children[i];
      const letter = state.fan_names[i];
      slot.dataset.target = `fan:${i}`;
      slot.querySelector(".fan-name").textContent = letter;
      slot.classList.toggle("empty", fan.length === 0);
      slot.style.width = `${widths[i]}px`;
      const room = widths[i] - cardW - 2;
      const step = fan.length > 1 ? Math.min(cardW * 0.44, room / (fan.length - 1)) : 0;
      fan.forEach((code, k) => {
        const el = cardEl(code);
        el.style.left = `${(k * step).toFixed(2)}px`;
        el.style.zIndex = String(k + 1);
        el.dataset.where = `fan:${i}`;
        if (k === fan.length - 1) el.classList.add("top");
        if (el.parentElement !== slot || slot.children[k + 1] !== el) slot.insertBefore(el, slot.children[k + 1] || null);
        placed.add(code);
      });
      const names = fan.map(cardLabel);
      slot.setAttribute("aria-label", fan.length
        ? format(_("Fan {letter}: {cards}; top card {top}"), { letter, cards: names.join(", "), top: names[names.length - 1] })
        : format(_("Fan {letter}: empty"), { letter }));
    });
    // foundations
    const fBox = $("foundations");
    ensureSlots(fBox, 4, makeFoundationSlot);
    for (let s = 0; s < 4; s++) {
      const slot = fBox.children[s];
      const top = state.foundation_tops[String(s)];
      for (const el of [...slot.querySelectorAll(".card")]) if (el.dataset.card !== top) el.remove();
      if (top) {
        const el = cardEl(top);
        el.style.left = "0px";
        el.style.zIndex = "1";
        el.dataset.where = `foundation:${s}`;
        if (el.parentElement !== slot) slot.appendChild(el);
        placed.add(top);
      }
      const suit = suitWord(SUIT_ORDER[s]);
      slot.setAttribute("aria-label", top ? format(_("{suit} foundation: {card} on top"), { suit, card: cardLabel(top) })
        : format(_("{suit} foundation: empty"), { suit }));
    }
    // cells
    const cBox = $("cells");
    ensureSlots(cBox, state.cells.length, makeCellSlot);
    cBox.hidden = state.cells.length === 0;
    state.cells.forEach((code, c) => {
      const slot = cBox.children[c];
      for (const el of [...slot.querySelectorAll(".card")]) if (el.dataset.card !== code) el.remove();
      if (code) {
        const el = cardEl(code);
        el.style.left = "0px";
        el.dataset.where = `cell:${c}`;
        el.classList.add("top");
        if (el.parentElement !== slot) slot.appendChild(el);
        placed.add(code);
      }
      slot.setAttribute("aria-label", code ? format(_("Cell {n}: {card}"), { n: c + 1, card: cardLabel(code) })
        : format(_("Cell {n}: empty"), { n: c + 1 }));
    });
    for (const [code, el] of cardEls) {
      if (!placed.has(code)) { el.remove(); cardEls.delete(code); }
    }
    if (merciMode) {
      for (const [code, src] of Object.entries(state.sources)) {
        const el = cardEls.get(code);
        if (el && !el.classList.contains("top") && src.where.startsWith("fan:")) {
          el.classList.add("liftable");
          el.tabIndex = 0;
        }
      }
    }
    $("table").classList.toggle("merci-mode", merciMode);
  }

  // -- holding a card -----------------------------------------------------------

  // A buried card (a merci) is picked only in merci mode: the player asks for it.
  function buried(code) {
    const el = cardEls.get(code);
    const src = state && state.sources[code];
    return !!(src && el && src.where.startsWith("fan:") && !el.classList.contains("top"));
  }

  function pickable(code) {
    return !!(state && state.sources[code]) && (merciMode || !buried(code));
  }

  function targetSlot(key) {
    const [kind, n] = key.split(":");
    const box = kind === "fan" ? $("fans") : kind === "foundation" ? $("foundations") : $("cells");
    return box.children[Number(n)] || null;
  }

  function pick(code) {
    drop();
    const src = state.sources[code];
    const el = cardEls.get(code);
    if (!src || !el) return;
    held = { code, el, source: src.source, targets: new Map(), at: performance.now() };
    for (const t of src.targets) held.targets.set(t.target, t.move);
    el.classList.add("held");
    for (const key of held.targets.keys()) {
      const slot = targetSlot(key);
      if (slot) slot.classList.add("target");
    }
    const n = held.targets.size;
    const name = cardLabel(code).replace(/^./, (c) => c.toUpperCase());
    setStatus(n ? format(ngettext("{card}: {n} place to go (lit up)", "{card}: {n} places to go (lit up)", n), { card: name, n }) :
      format(_("{card} has nowhere to go"), { card: name }), "info");
  }

  function drop() {
    if (!held) return;
    held.el.classList.remove("held", "dragging");
    held.el.style.transform = "";
    for (const slot of document.querySelectorAll(".slot.target")) slot.classList.remove("target");
    held = null;
  }

  function slideBack(el) {
    const t = el.style.transform;
    el.style.transform = "";
    el.classList.remove("dragging");
    if (t && el.animate) {
      el.animate([{ transform: t, zIndex: 60 }, { transform: "translate(0, 0)", zIndex: 60 }],
        { duration: 260, easing: "ease-out" });
    }
  }

  function moveFor(h, key) {
    if (h.targets.has(key)) return h.targets.get(key);
    const dst = state.target_notation[key];
    return dst ? `${h.source}>${dst}` : null;
  }

  function tryMove(h, key) {
    const move = moveFor(h, key);
    if (!move) { slideBack(h.el); drop(); return Promise.resolve(null); }
    return sendMove(move, h.el, key);
  }

  function sendMove(move, el, key) {
    return enqueue(async () => {
      try {
        const data = await call("POST", gamePath("/move"), versioned({ move, autoplay }));
        render(data);
        setStatus(said(data), "info");
        if (data.status !== "won") sound("move");
        return data;
      } catch (e) {
        if (el) slideBack(el);
        drop();
        if (staleAnswer(e)) return null;
        sound("refused");
        if (key) {
          const slot = targetSlot(key);
          if (slot && slot.animate) {
            slot.classList.add("bad");
            setTimeout(() => slot.classList.remove("bad"), 700);
          }
        }
        setStatus(e.data && e.data.reason ? format(_("Not allowed: {reason}"), { reason: e.data.reason }) : e.message, "error");
        if (e.status === 404) await newGame(null, null);
        return null;
      }
    });
  }

  function toFoundation(h) {
    let key = [...h.targets.keys()].find((k) => k.startsWith("foundation:"));
    if (!key) key = "foundation:0";
    return tryMove(h, key);
  }

  function slotKey(node) {
    const slot = node && node.closest ? node.closest("[data-target]") : null;
    return slot ? slot.dataset.target : null;
  }

  // One-click moves: a click on a card with exactly one place to go (as
  // the server lists its legal moves) plays it there.  True if it did.
  function oneClick(code) {
    if (!prefs.oneClick || !state || merciMode || buried(code)) return false;
    const src = state.sources[code];
    if (!src || src.targets.length !== 1) return false;
    oneClickAt = performance.now();
    sendMove(src.targets[0].move, cardEls.get(code), src.targets[0].target);
    return true;
  }

  // A click (or tap, or Enter) on a card or a slot; ``pointer``: by a
  // click or a tap (one-click moves are for those, the keys pick and put).
  function activate(code, key, pointer) {
    const now = performance.now();
    // the second click of a double-click whose first already played the card
    if (pointer && now - oneClickAt < DOUBLE_MS) return null;
    if (held) {
      if (code === held.code) {
        if (now - held.at < DOUBLE_MS) return toFoundation(held);
        drop();
        setStatus("", "");
        return null;
      }
      if (key && held.targets.has(key)) return tryMove(held, key);
      if (code && pickable(code) && !(key && key === slotKeyOfCode(held.code))) {
        pick(code);
        return null;
      }
      if (key) return tryMove(held, key);
      drop();
      return null;
    }
    if (code && pickable(code)) {
      if (pointer && oneClick(code)) return null;
      pick(code);
      return null;
    }
    if (code && merciMode) setStatus(format(_("{card} cannot be lifted"), { card: cardLabel(code) }), "error");
    else if (code && state.sources[code] && buried(code)) {
      setStatus(format(_("{card} is buried: press M (or the Merci button) first to lift it with the merci"), { card: cardLabel(code) }), "info");
    }
    return null;
  }

  function slotKeyOfCode(code) {
    const el = cardEls.get(code);
    return el ? el.dataset.where : null;
  }

  // -- pointer: drag, click, double-click (mouse and touch alike) --------------

  function onPointerDown(e) {
    if (!state || (e.pointerType === "mouse" && e.button !== 0)) return;
    const cardNode = e.target.closest(".card");
    const code = cardNode ? cardNode.dataset.card : null;
    const stock = e.target.closest("#stock");
    press = { code, key: slotKey(e.target), stock: !!stock, x0: e.clientX, y0: e.clientY,
      id: e.pointerId, dragging: false, el: cardNode };
    if (code && pickable(code)) {
      e.preventDefault();
      try { cardNode.setPointerCapture(e.pointerId); } catch (err) { /* synthetic */ }
    }
  }

  function onPointerMove(e) {
    if (!press || e.pointerId !== press.id || !press.code || !pickable(press.code)) return;
    const dx = e.clientX - press.x0, dy = e.clientY - press.y0;
    if (!press.dragging) {
      if (Math.hypot(dx, dy) < 6) return;
      press.dragging = true;
      pick(press.code);
      if (!held) return;
      held.el.classList.add("dragging");
    }
    if (held) held.el.style.transform = `translate(${dx}px, ${dy}px)`;
  }

  function onPointerUp(e) {
    if (!press || e.pointerId !== press.id) return;
    const p = press;
    press = null;
    if (p.dragging && held) {
      const h = held;
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

  function onPointerCancel(e) {
    if (!press || e.pointerId !== press.id) return;
    press = null;
    if (held) { slideBack(held.el); drop(); }
  }

  // -- keyboard ----------------------------------------------------------------

  // Of the slots ``among``, the one whose middle is nearest to ``slot``'s, left to right.
  function nearest(slot, among) {
    const mid = (n) => { const r = n.getBoundingClientRect(); return r.left + Math.min(r.width, 2 * r.height) / 2; };
    const x = mid(slot);
    return among.reduce((best, n) => (Math.abs(mid(n) - x) < Math.abs(mid(best) - x) ? n : best));
  }

  // The slots of the top row, left to right: the redeal pile, the foundations, the cells.
  function topRow() {
    const stock = $("stock");
    return [...(stock.hidden ? [] : [stock]), ...$("foundations").children, ...$("cells").children];
  }

  function focusables() {
    return [...$("fans").children, ...$("foundations").children, ...$("cells").children];
  }

  function onTableKey(e) {
    const slot = e.target.closest(".slot");
    if (!slot) return;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      if (slot.id === "stock") { redeal(); return; }
      const cardNode = e.target.closest(".card");
      if (cardNode && cardNode.classList.contains("liftable")) {
        activate(cardNode.dataset.card, null);
        return;
      }
      const key = slot.dataset.target;
      const tops = [...slot.querySelectorAll(".card")];
      const top = tops.length ? tops[tops.length - 1].dataset.card : null;
      if (held) {
        if (top === held.code) { activate(top, key); return; }
        tryMove(held, key);
        return;
      }
      activate(top, key);
      return;
    }
    const arrows = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols };
    if (!(e.key in arrows)) return;
    const fans = [...$("fans").children];
    const top = topRow();
    if (slot.classList.contains("fan")) {
      const i = fans.indexOf(slot) + arrows[e.key];
      if (i >= 0 && i < fans.length) { e.preventDefault(); fans[i].focus(); }
      else if (e.key === "ArrowUp" && top.length) {
        // from the first row of fans up to the top row: the slot above
        e.preventDefault();
        nearest(slot, top).focus();
      }
      return;
    }
    const k = top.indexOf(slot);
    if (k < 0) return;
    e.preventDefault();
    if (e.key === "ArrowLeft" && k > 0) top[k - 1].focus();
    else if (e.key === "ArrowRight" && k < top.length - 1) top[k + 1].focus();
    else if (e.key === "ArrowDown" && fans.length) nearest(slot, fans.slice(0, cols)).focus();
  }

  function onGlobalKey(e) {
    const typing = e.target.matches && e.target.matches("input, select, textarea");
    if (document.querySelector("dialog[open]")) return;
    if (typing) {
      if (e.key === "Escape") e.target.blur();
      return;
    }
    const k = e.key;
    if ($("game").hidden) return; // the statistics or a review are shown: no game key acts unseen
    if ((e.ctrlKey || e.metaKey) && (k === "z" || k === "Z")) { e.preventDefault(); undo(); return; }
    if ((e.ctrlKey || e.metaKey) && (k === "y" || k === "Y")) { e.preventDefault(); redo(); return; }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = {
      u: undo, y: redo, x: sendHome, d: redeal, m: toggleMerci, h: hint, a: toggleAuto, R: restart,
      n: openNew, o: odds, s: () => showStats(true), "?": openRules,
      "/": () => $("move-input").focus(),
      Escape: () => { drop(); merciMode = false; clearHint(); layout(); renderFacts(); setStatus("", ""); },
    };
    const fn = keys[k];
    if (fn) { e.preventDefault(); fn(); }
  }

  // -- commands -----------------------------------------------------------------

  function undo() { drop(); return act("POST", "/undo", {}); }
  // Every safe card home now (the aces where none is strictly safe).
  function sendHome() { drop(); return act("POST", "/home", {}); }
  function redo() { drop(); return act("POST", "/redo", {}); }
  // (autoplay, when on, plays after the player's moves, not on a deal: a
  // game dealt and left without a move is not a game played and lost)
  function restart() { drop(); return act("POST", "/restart", {}); }
  function redeal() {
    drop();
    return enqueue(async () => {
      try {
        const data = await call("POST", gamePath("/redeal"), versioned({ autoplay }));
        render(data);
        setStatus(said(data), "info");
        sound("move");
      } catch (e) { if (!staleAnswer(e)) setStatus(e.message, "error"); }
    });
  }

  // Resign: the game ends and counts as lost (a confirmation first).
  function resign() {
    if (!state || state.finished) return null;
    if (!window.confirm(_("Resign this game? It counts as lost in the statistics."))) return null;
    drop();
    return act("POST", "/resign", {});
  }

  // Offer resigning prominently (the game can no longer be won).
  function offerResign(why) {
    if (!state || state.finished) return;
    $("resign-why").textContent = why;
    $("resign-offer").hidden = false;
  }

  function toggleMerci() {
    if (!state || !state.merci_moves) {
      setStatus(state && state.has_merci ? (state.merci_used ? _("The merci has been used.") :
        _("The merci comes in the last deal.")) : _("This variant has no merci."), "info");
      return;
    }
    drop();
    merciMode = !merciMode;
    layout();
    renderFacts();
    setStatus(merciMode ? _("Merci: pick a buried card (they are outlined), then the fan to put it on.") : "", "info");
    const first = document.querySelector(".card.liftable");
    if (merciMode && first) first.focus();
  }

  function toggleAuto() {
    autoplay = !autoplay;
    $("set-autoplay").checked = autoplay;
    saved.set("lucie.autoplay", autoplay ? "1" : "0");
    renderFacts();
    if (autoplay) {
      act("POST", "/autoplay", {}).then((d) => {
        if (d && d.applied && d.applied.length) setStatus(said(d), "info");
        else setStatus(_("Autoplay on: safe cards go home by themselves."), "info");
      });
    } else setStatus(_("Autoplay off."), "info");
  }

  let arrow = null; // [card element, slot] of the hint shown

  function clearHint() {
    for (const n of document.querySelectorAll(".hint, .hint-target")) n.classList.remove("hint", "hint-target");
    $("overlay").replaceChildren();
    arrow = null;
  }

  // Hints and odds are not queued behind moves (nor moves behind them): the
  // answer is shown only if the game is still where it was when asked.
  function askedAt() { return state ? `${state.id} ${state.moves.join(" ")}` : ""; }

  function hint() {
    if (!features.hint) { setStatus(_("Hints need the solver, which is not installed."), "info"); return; }
    setStatus(_("Thinking…"), "info");
    const asked = askedAt();
    (async () => {
      try {
        const h = await call("GET", gamePath("/hint"));
        if (askedAt() !== asked) { setStatus(_("That hint was for an earlier position."), "info"); return; }
        clearHint();
        setStatus(h.move ? format(_("Hint: {text}"), { text: h.text }) : h.text || _("No hint."), "hint");
        if (h.proved_lost) offerResign(_("The solver has proved this game can no longer be won."));
        if (h.move === "R") $("stock").classList.add("hint");
        if (h.card && h.target) {
          const el = cardEls.get(h.card), slot = targetSlot(h.target);
          if (el) el.classList.add("hint");
          if (slot) slot.classList.add("hint-target");
          if (el && slot) { arrow = [el, slot]; drawArrow(el, arrowEnd(slot)); }
        }
      } catch (e) { setStatus(e.message, "error"); }
    })();
  }

  // Where a hint's arrow ends: on the top card of the place it goes to
  // (the card it goes onto), else on the empty place.
  function arrowEnd(slot) {
    const cards = slot.querySelectorAll(".card");
    return cards.length ? cards[cards.length - 1] : slot;
  }

  function drawArrow(from, to) {
    const box = $("table").getBoundingClientRect();
    const a = from.getBoundingClientRect(), b = to.getBoundingClientRect();
    const x1 = a.left + a.width / 2 - box.left, y1 = a.top + a.height / 2 - box.top;
    const x2 = b.left + Math.min(b.width, 2 * b.height) / 2 - box.left, y2 = b.top + b.height / 2 - box.top;
    const overlay = $("overlay");
    overlay.setAttribute("viewBox", `0 0 ${box.width} ${box.height}`);
    const defs = svgEl("defs");
    const marker = svgEl("marker", { id: "arrowhead", markerWidth: 8, markerHeight: 8, refX: 6, refY: 4, orient: "auto" });
    marker.appendChild(svgEl("path", { d: "M0 0 L8 4 L0 8 Z", class: "arrowhead" }));
    defs.appendChild(marker);
    overlay.replaceChildren(defs, svgEl("line", { x1, y1, x2, y2, class: "arrow", "marker-end": "url(#arrowhead)" }));
  }

  function odds() {
    if (!features.odds) { setStatus(_("The odds need the solver, which is not installed."), "info"); return; }
    const box = $("odds");
    box.hidden = false;
    box.textContent = _("Estimating the odds from this position…");
    const asked = askedAt();
    (async () => {
      try {
        const o = await call("GET", gamePath("/odds"));
        const pc = (x) => `${Math.round(x * 100)}%`;
        const when = askedAt() === asked ? _("Odds from here") : format(_("Odds from move {n}"), { n: o.moves_played });
        // the claims are the server's: "proved" and "exact" only where it says proved
        if (o.win_rate == null) { box.textContent = o.text || _("No odds."); return; }
        if (askedAt() === asked && o.proved && o.win_rate === 0) {
          offerResign(_("The solver has proved this game can no longer be won."));
        }
        const parts = [format(_("{when}: {chance} to win ({level} interval {low}–{high})"),
          { when, chance: pc(o.win_rate), level: "95%", low: pc(o.ci95[0]), high: pc(o.ci95[1]) })];
        if (o.mean_score != null) parts.push(format(_("mean score {score}"), { score: decimal(o.mean_score) }));
        if (o.samples) parts.push(format(ngettext("from {n} play-out", "from {n} play-outs", o.samples), { n: o.samples }));
        else if (o.proved) parts.push(_("exact"));
        box.textContent = parts.join(", ") + "." +
          (o.budget_ran_out ? " " + _("The time budget ran out: the figure is what the time allowed.") : "");
      } catch (e) { box.textContent = e.message; }
    })();
  }

  // Another game: no card element is kept to animate from the last one.
  function renderFresh(data) {
    endShownFor = null;
    cardEls.forEach((el) => el.remove());
    cardEls.clear();
    render(data);
  }

  // Leaving a game in play that has moves counts it as lost: ask first.
  function mayLeave() {
    if (!state || state.finished || state.practice || !state.moves.length) return true;
    return window.confirm(_("Leave this game? It counts as lost in your statistics."));
  }

  async function newGame(variant, deal, extra) {
    const body = { abandon: state ? state.id : null, ...(extra || {}) };
    if (variant) body.variant = variant;
    if (deal) body.deal = deal;
    const data = await call("POST", "/api/games", body);
    renderFresh(data);
    const fields = { date: data.daily, variant: data.variant_title, deal: data.deal, difficulty: difficultyWord(body.difficulty) };
    setStatus(data.daily ? format(_("Deal of the day ({date}): {variant}, deal {deal}."), fields) :
      body.difficulty && body.difficulty !== "any" ? format(_("New game: {variant}, deal {deal} (asked for: {difficulty}; told at the end)."), fields) :
        format(_("New game: {variant}, deal {deal}."), fields), "info");
    return data;
  }

  // -- dialogs ------------------------------------------------------------------

  function fillVariants(select, current, withAll) {
    select.replaceChildren();
    if (withAll) select.appendChild(new Option(_("All variants"), "all"));
    for (const v of variants) select.appendChild(new Option(v.title, v.spec));
    if (current && ![...select.options].some((o) => o.value === current)) {
      select.appendChild(new Option(current, current));
    }
    if (current) select.value = current;
  }

  function openNew() {
    fillVariants($("new-variant"), state ? state.variant : "classic", false);
    showSummary();
    $("new-deal").value = "";
    $("new-error").textContent = "";
    $("new-busy").textContent = "";
    $("new-difficulty-box").hidden = !features.difficulty;
    $("d-new").showModal();
  }

  function showSummary() {
    const v = variants.find((x) => x.spec === $("new-variant").value);
    $("new-variant-summary").textContent = v ? v.summary : "";
  }

  async function submitNew(e, daily) {
    if (e) e.preventDefault();
    const deal = daily ? "" : $("new-deal").value.trim();
    const difficulty = features.difficulty && !deal && !daily ? $("new-difficulty").value : "any";
    const extra = daily ? { daily: true } : difficulty !== "any" ? { difficulty } : {};
    $("new-error").textContent = "";
    if (!mayLeave()) { $("new-error").textContent = _("You stay in this game."); return; }
    $("new-busy").textContent = difficulty !== "any" ? _(FINDING[difficulty] || difficulty) : "";
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

  function openRules() {
    const v = state && variants.find((x) => x.spec === state.variant);
    $("rules-variant").textContent = state ? `${state.variant_title}: ${v ? v.summary : state.variant}` : "";
    $("d-rules").showModal();
  }

  function maybeShowEnd(justWon) {
    const mark = `${state.id}/${state.moves.length}/${state.status}`;
    if (endShownFor === mark) return;
    endShownFor = mark;
    let wait = 260;
    if (justWon) {
      sound("win");
      wait = Math.max(wait, celebrate());
    }
    const won = state.status === "won";
    $("d-end-title").textContent = won ? _("You won!") : state.status === "resigned" ? _("Game resigned") : _("No move left");
    $("d-end-text").textContent = format(ngettext("Score {score}/52 in {time}, {n} move. {variant}, deal {deal}.",
      "Score {score}/52 in {time}, {n} moves. {variant}, deal {deal}.", state.moves.length),
    { score: state.score, time: fmtTime(state.seconds), n: state.moves.length, variant: state.variant_title, deal: state.deal ?? _("custom") });
    $("end-undo").hidden = won || !state.can_undo;
    $("end-stats").hidden = !features.stats;
    $("end-review").hidden = !features.review || !state.moves.length;
    showDifficulty();
    const id = state.id;
    setTimeout(() => {
      $("celebrate").replaceChildren(); // the cascade is over
      if (state && state.id === id && state.finished && !$("d-end").open) $("d-end").showModal();
    }, wait);
  }

  // The deal's difficulty, told once the game is over (never before).
  async function showDifficulty() {
    const box = $("d-end-difficulty");
    const asked = state.difficulty ? _(ASKED[state.difficulty] || state.difficulty) + " " : "";
    box.textContent = asked;
    if (!features.difficulty || state.deal == null) return;
    const id = state.id;
    try {
      const r = await call("GET", gamePath("/difficulty"));
      if (!state || state.id !== id) return;
      // the server's sentence (Rated.text): the rating the deal was picked
      // by, whether its interval settles it, a later exact figure beside it
      if (r.text) box.textContent = asked + r.text;
    } catch (err) { /* the difficulty is a bonus: the dialog stands without it */ }
  }

  // -- game review ---------------------------------------------------------------

  let reviewFrom = "game";   // the view to go back to
  let reviewed = null;       // the review shown

  // ``status``: how the game ended ("resigned": the chance left then was given up).
  async function openReview(path, title, status) {
    reviewFrom = !$("stats-page").hidden ? "stats" : "game";
    $("game").hidden = true;
    $("tools").hidden = true;
    $("stats-page").hidden = true;
    $("review-page").hidden = false;
    $("review-title").textContent = title;
    $("review-summary").textContent = _("Reviewing the game, move by move… (this takes a few seconds)");
    $("chart-review").replaceChildren();
    $("review-mistakes").replaceChildren();
    $("review-move-text").textContent = "";
    $("review-board").replaceChildren();
    try {
      reviewed = await call("GET", path);
    } catch (e) {
      $("review-summary").textContent = e.message;
      return;
    }
    const r = reviewed;
    const pc = (p) => `${Math.round(p * 100)}%`;
    const fmt = window.LucieCharts.fmtValue;
    const summary = [format(ngettext("{n} move. Winning chance at the start: {value}", "{n} moves. Winning chance at the start: {value}", r.moves.length),
      { n: r.moves.length, value: fmt(r.start_value) }),
    format(_("chance lost by the moves: {chance}"), { chance: pc(r.thrown_away) }),
    format(ngettext("{n} mistake", "{n} mistakes", r.mistakes), { n: r.mistakes })];
    // the moves' losses leave out what resigning gave up: the chance left then
    if (status === "resigned" && r.final_value && r.final_value.chance > 0) {
      summary.push(format(_("given up by resigning: {value}"), { value: fmt(r.final_value) }));
    }
    if (r.accuracy != null) summary.push(format(_("accuracy {percent}"), { percent: `${Math.round(r.accuracy)}%` }));
    if (r.unjudged) summary.push(format(ngettext("{n} move not judged (its value is unknown)", "{n} moves not judged (their value is unknown)", r.unjudged), { n: r.unjudged }));
    $("review-summary").textContent = summary.join("; ") + "." +
      (r.budget_ran_out ? " " + _("The time budget ran out: some values are unknown.") : "");
    $("chart-review").replaceChildren(window.LucieCharts.reviewChart(r, pickReviewed));
    const list = $("review-mistakes");
    const bad = r.moves.filter((m) => m.label === "mistake" || m.label === "blunder");
    if (!bad.length) {
      const li = document.createElement("li");
      li.textContent = _("No mistake.");
      li.className = "none";
      list.appendChild(li);
    }
    for (const m of bad) {
      const li = document.createElement("li");
      li.tabIndex = 0;
      li.textContent = format(_("Move {n}, {move}: {label} (lost {loss}); better: {best}"),
        { n: m.index, move: m.move, label: labelWord(m.label), loss: pc(m.loss), best: m.better_move || "?" });
      li.onclick = () => pickReviewed(m.index - 1);
      li.onkeydown = (e) => { if (e.key === "Enter") pickReviewed(m.index - 1); };
      list.appendChild(li);
    }
    const first = bad.length ? bad[0].index - 1 : 0;
    if (r.moves.length) pickReviewed(first);
  }

  // Show move i of the review: the position before it, the move played and the better one.
  function pickReviewed(i) {
    const r = reviewed;
    const m = r && r.moves[i];
    for (const c of document.querySelectorAll("#chart-review .pt")) {
      c.classList.toggle("picked", c.dataset.index === String(i));
    }
    if (!m) {
      $("review-move-text").textContent = format(_("After the last move: {value}."), { value: window.LucieCharts.fmtValue(r.final_value) });
      drawBoard(r.final_board, null, null);
      return;
    }
    const fmt = window.LucieCharts.fmtValue;
    const fields = { n: m.index, move: m.move, label: labelWord(m.label), before: fmt(m.value_before), after: fmt(m.value_after), best: m.best_move };
    let t = format(m.label ? _("Move {n}: {move} ({label}). Winning chance before: {before}; after: {after}.")
      : _("Move {n}: {move}. Winning chance before: {before}; after: {after}."), fields);
    if (!m.label) t += " " + _("Not judged: its value is unknown.");
    // "better" only where the server names a better move (never beside "best")
    if (m.better_move) t += " " + format(_("Better: {best}."), { best: m.better_move }) + " " + m.text;
    else if (m.best_move && m.best_move !== m.move) {
      t += " " + format(_("The solver's move: {best}."), fields) + " " + m.text;
    }
    else if (m.best_move && m.label) t += " " + _("The best move.") + " " + m.text;
    else t += ` ${m.text}`;
    $("review-move-text").textContent = t;
    drawBoard(m.board, m.card, m.best_move !== m.move ? m.best_card : null);
  }

  function drawBoard(board, played, best) {
    const box = $("review-board");
    box.replaceChildren();
    const slot = (label, cards) => {
      const div = document.createElement("div");
      div.className = "rv-slot";
      const step = cards.length > 1 ? Math.min(16, 56 / (cards.length - 1)) : 0;
      cards.forEach((code, k) => {
        const el = makeCard(code);
        el.style.left = `${Math.round(k * step)}px`;
        if (code === played) el.classList.add("played");
        if (code === best) el.classList.add("best");
        div.appendChild(el);
      });
      const name = document.createElement("span");
      name.className = "rv-label";
      name.textContent = label;
      div.appendChild(name);
      box.appendChild(div);
    };
    board.foundations.forEach((top, s) => slot(suitWord(SUIT_ORDER[s]), top ? [top] : []));
    board.cells.forEach((code, c) => slot(format(_("cell {n}"), { n: c + 1 }), code ? [code] : []));
    board.fans.forEach((fan, i) => slot(format(_("fan {letter}"), { letter: "abcdefghijklmnopqrstuvwxyz"[i] }), fan));
  }

  function closeReview() {
    $("review-page").hidden = true;
    if (reviewFrom === "stats") { $("stats-page").hidden = false; return; }
    $("game").hidden = false;
    $("tools").hidden = false;
    if (state) layout();
  }

  // -- statistics page --------------------------------------------------------

  async function showStats(push) {
    if (!features.stats) { setStatus(_("No statistics store is available."), "info"); return; }
    $("game").hidden = true;
    $("tools").hidden = true;
    $("review-page").hidden = true;
    $("stats-page").hidden = false;
    if (push && location.pathname !== "/stats") history.pushState({ stats: true }, "", "/stats");
    const sel = $("stats-variant");
    if (!sel.options.length) fillVariants(sel, state ? state.variant : "classic", true);
    await loadStats();
  }

  function hideStats(push) {
    $("stats-page").hidden = true;
    $("review-page").hidden = true;
    $("game").hidden = false;
    $("tools").hidden = false;
    if (push && location.pathname === "/stats") history.pushState({}, "", "/");
    if (state) layout();
  }

  async function loadStats() {
    const v = $("stats-variant").value || "classic";
    const q = `variant=${encodeURIComponent(v)}`;
    try {
      const [s, h] = await Promise.all([call("GET", `/api/stats?${q}`), call("GET", `/api/history?${q}&limit=1000`)]);
      const done = h.games.filter((g) => g.status !== "playing").reverse();
      const nums = $("stats-numbers");
      nums.replaceChildren();
      const rows = [
        [_("Games"), s.games], [_("Won"), s.wins], [_("Win rate"), `${decimal(s.win_rate * 100)}%`],
        [_("Average score"), decimal(s.average_score)], [_("Best score"), s.best_score],
        [_("Best streak"), s.best_streak], [_("Current streak"), s.current_streak],
        [_("Time played"), fmtTime(s.total_seconds)],
      ];
      for (const [k, val] of rows) {
        const d = document.createElement("div");
        const dt = document.createElement("dt"); dt.textContent = k;
        const dd = document.createElement("dd"); dd.textContent = String(val);
        d.append(dt, dd);
        nums.appendChild(d);
      }
      $("chart-time").replaceChildren(window.LucieCharts.timeChart(done));
      $("chart-scores").replaceChildren(window.LucieCharts.scoreChart(done));
      gamesFrom = 0;
      await loadGamesPage();
      // the player's own result for each deal of the day
      const daily = $("stats-daily").tBodies[0];
      daily.replaceChildren();
      const days = h.games.filter((g) => g.daily);
      $("stats-daily").hidden = !days.length;
      $("stats-daily-none").hidden = days.length > 0;
      for (const g of days) {
        const tr = document.createElement("tr");
        for (const cell of [g.daily, g.deal, statusWord(g.status), g.score, fmtTime(g.seconds)]) {
          const td = document.createElement("td");
          td.textContent = String(cell);
          tr.appendChild(td);
        }
        tr.className = g.status;
        daily.appendChild(tr);
      }
    } catch (e) {
      $("stats-numbers").textContent = e.message;
    }
  }

  // -- the recent games, a page at a time (games dealt and never played left out) --

  const GAMES_PAGE = 25;
  let gamesFrom = 0;

  async function loadGamesPage() {
    const v = $("stats-variant").value || "classic";
    const h = await call("GET", `/api/history?variant=${encodeURIComponent(v)}&played=1&offset=${gamesFrom}&limit=${GAMES_PAGE}`);
    const body = $("stats-games").tBodies[0];
    body.replaceChildren();
    const total = h.total ?? h.games.length;
    $("games-pager").hidden = total <= GAMES_PAGE;
    $("games-newer").disabled = gamesFrom === 0;
    $("games-older").disabled = gamesFrom + GAMES_PAGE >= total;
    $("games-range").textContent = format(_("games {first}–{last} of {total}, newest first"),
      { first: Math.min(total, gamesFrom + 1), last: gamesFrom + h.games.length, total });
    for (const g of h.games) {
      const tr = document.createElement("tr");
      const when = g.finished ? g.finished.replace("T", " ").slice(0, 16) : "—";
      const cells = [g.id, (g.deal ?? _("custom")) + (g.daily ? " ★" : ""), statusWord(g.status), g.score, g.moves,
        fmtTime(g.seconds), when];
      cells.forEach((cell, k) => {
        const td = document.createElement("td");
        td.textContent = String(cell);
        if (k === 4 || k === 6) td.className = "wide";
        tr.appendChild(td);
      });
      const td = document.createElement("td");
      if (features.review && g.moves > 0) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "review";
        b.textContent = pgettext("button", "Review");
        b.setAttribute("aria-label", format(_("Review game {n}"), { n: g.id }));
        b.onclick = () => openReview(`/api/history/${g.id}/review`, format(_("Review of game {n} (deal {deal})"), { n: g.id, deal: g.deal ?? _("custom") }), g.status);
        td.appendChild(b);
      }
      tr.appendChild(td);
      tr.className = g.status;
      body.appendChild(tr);
    }
  }

  function pageGames(step) {
    gamesFrom = Math.max(0, gamesFrom + step * GAMES_PAGE);
    loadGamesPage().catch((e) => { $("games-range").textContent = e.message; });
  }

  // -- loading a saved game ------------------------------------------------------

  function loadFile(file) {
    const reader = new FileReader();
    reader.onload = () => enqueue(async () => {
      try {
        const data = await call("POST", "/api/games/load", String(reader.result), true);
        renderFresh(data);
        const fields = { file: file.name, n: data.moves.length };
        setStatus(data.recorded ? format(ngettext("Loaded {file}: {n} move replayed.", "Loaded {file}: {n} moves replayed.", fields.n), fields)
          : format(ngettext("Loaded {file}: {n} move replayed (a loaded game does not count in the statistics).",
            "Loaded {file}: {n} moves replayed (a loaded game does not count in the statistics).", fields.n), fields), "info");
      } catch (e) { setStatus(`${file.name}: ${e.message}`, "error"); }
    });
    reader.readAsText(file);
  }

  // -- the page's language ---------------------------------------------------------

  // The menu's choice goes in a cookie the server reads (so the next page
  // comes in that language from its first byte) and in localStorage.
  function rememberLanguage(code) {
    document.cookie = `lucie_lang=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
    saved.set("lucie.lang", code);
    return document.cookie.split("; ").includes(`lucie_lang=${code}`);
  }

  function chooseLanguage() {
    const code = $("lang").value;
    if (code === window.LucieI18n.language) return;
    rememberLanguage(code);
    location.reload();
  }

  // A choice kept in localStorage whose cookie is gone (cleared, expired):
  // set it again and reload in that language (only if the cookie took).
  function restoreLanguage() {
    const code = saved.get("lucie.lang");
    if (!code || !(code in window.LucieI18n.languages) || code === window.LucieI18n.language) return false;
    if (document.cookie.split("; ").some((c) => c.startsWith("lucie_lang="))) return false;
    if (!rememberLanguage(code)) return false;
    location.reload();
    return true;
  }

  // -- sounds: made here with the Web Audio API (nothing fetched); off by default --

  let audio = null;
  let soundsMade = 0;

  // ``kind``: "move", "refused" or "win".
  function sound(kind) {
    if (!prefs.sounds) return;
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    try {
      if (!audio) audio = new AC();
      if (audio.state === "suspended") audio.resume();
      const notes = kind === "win" ? [[523, 0, 0.14], [659, 0.12, 0.14], [784, 0.24, 0.14], [1047, 0.36, 0.4]]
        : kind === "refused" ? [[196, 0, 0.18]] : [[740, 0, 0.06]];
      const type = kind === "refused" ? "square" : kind === "win" ? "triangle" : "sine";
      for (const [freq, at, len] of notes) {
        const osc = audio.createOscillator(), gain = audio.createGain();
        osc.type = type;
        osc.frequency.value = freq;
        const t = audio.currentTime + at;
        gain.gain.setValueAtTime(0.0001, t);
        gain.gain.exponentialRampToValueAtTime(kind === "refused" ? 0.05 : 0.12, t + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, t + len);
        osc.connect(gain).connect(audio.destination);
        osc.start(t);
        osc.stop(t + len + 0.02);
      }
      soundsMade += 1;
    } catch (err) { /* no sound: the game goes on */ }
  }

  // -- the win: the cards cascade from the foundations ------------------------------

  function reducedMotion() {
    return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  // Throw the 52 cards off the foundations, kings first, each in an arc to
  // the bottom of the window; nothing under prefers-reduced-motion.  Returns
  // how long it lasts (ms).
  function celebrate() {
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

  // -- settings: one-click moves, autoplay, sounds, the table and the card back ---

  // The table's colours and the card back, as chosen (CSS draws them).
  function applyLook() {
    document.documentElement.dataset.theme = prefs.theme;
    document.documentElement.dataset.back = prefs.back;
  }

  function openSettings() {
    $("set-oneclick").checked = prefs.oneClick;
    $("set-autoplay").checked = autoplay;
    $("set-sounds").checked = prefs.sounds;
    $("set-theme").value = prefs.theme;
    $("set-back").value = prefs.back;
    $("d-settings").showModal();
  }

  function wireSettings() {
    $("b-settings").onclick = openSettings;
    $("settings-close").onclick = () => $("d-settings").close();
    $("set-oneclick").onchange = (e) => {
      prefs.oneClick = e.target.checked;
      saved.set("lucie.oneclick", prefs.oneClick ? "1" : "0");
    };
    $("set-autoplay").onchange = (e) => { if (e.target.checked !== autoplay) toggleAuto(); };
    $("set-sounds").onchange = (e) => {
      prefs.sounds = e.target.checked;
      saved.set("lucie.sounds", prefs.sounds ? "1" : "0");
      sound("move"); // a sample, and the browser lets a page sound after a click
    };
    $("set-theme").onchange = (e) => { prefs.theme = e.target.value; saved.set("lucie.theme", prefs.theme); applyLook(); };
    $("set-back").onchange = (e) => { prefs.back = e.target.value; saved.set("lucie.back", prefs.back); applyLook(); };
  }

  // -- start ---------------------------------------------------------------------

  function wire() {
    const table = $("table");
    table.addEventListener("pointerdown", onPointerDown);
    table.addEventListener("pointermove", onPointerMove);
    table.addEventListener("pointerup", onPointerUp);
    table.addEventListener("pointercancel", onPointerCancel);
    table.addEventListener("keydown", onTableKey);
    table.addEventListener("dragstart", (e) => e.preventDefault());
    document.addEventListener("keydown", onGlobalKey);
    $("b-new").onclick = openNew;
    $("b-undo").onclick = undo;
    $("b-redo").onclick = redo;
    $("b-redeal").onclick = redeal;
    $("b-merci").onclick = toggleMerci;
    $("b-hint").onclick = hint;
    $("b-auto").onclick = toggleAuto;
    $("b-restart").onclick = restart;
    $("b-resign").onclick = resign;
    $("offer-resign").onclick = resign;
    $("b-review-back").onclick = closeReview;
    $("new-daily").onclick = () => submitNew(null, true);
    $("end-review").onclick = () => {
      $("d-end").close();
      openReview(gamePath("/review"), format(_("Review of deal {deal}"), { deal: state.deal ?? _("custom") }), state.status);
    };
    $("b-odds").onclick = odds;
    $("b-stats").onclick = () => showStats(true);
    $("b-rules").onclick = openRules;
    $("b-back").onclick = () => hideStats(true);
    $("b-load").onclick = () => $("load-file").click();
    $("load-file").onchange = (e) => { if (e.target.files[0]) loadFile(e.target.files[0]); e.target.value = ""; };
    $("new-form").onsubmit = submitNew;
    $("new-cancel").onclick = () => $("d-new").close();
    $("new-variant").onchange = showSummary;
    $("rules-close").onclick = () => $("d-rules").close();
    $("end-new").onclick = () => { $("d-end").close(); openNew(); };
    $("end-undo").onclick = () => { $("d-end").close(); undo(); };
    $("end-restart").onclick = () => { $("d-end").close(); restart(); };
    $("end-stats").onclick = () => { $("d-end").close(); showStats(true); };
    $("stats-variant").onchange = loadStats;
    $("games-newer").onclick = () => pageGames(-1);
    $("games-older").onclick = () => pageGames(1);
    $("lang").onchange = chooseLanguage;
    $("move-form").onsubmit = (e) => {
      e.preventDefault();
      const text = $("move-input").value.trim();
      if (!text) return;
      sendMove(text, null, null).then((d) => { if (d) $("move-input").value = ""; });
    };
    window.addEventListener("resize", () => {
      if (!state) return;
      layout();
      if (arrow) drawArrow(arrow[0], arrowEnd(arrow[1]));
    });
    window.addEventListener("popstate", () => {
      if (location.pathname === "/stats") showStats(false); else hideStats(false);
    });
    setInterval(tick, 1000);
    document.addEventListener("visibilitychange", tellVisibility);
    window.addEventListener("pagehide", () => { if (state) tellHidden(); });
    setInterval(() => { if (!document.hidden) tellVisibility(); }, 60000);
  }

  // The page is going away: its game's clock stops now.
  function tellHidden() {
    fetch(gamePath("/visibility"), {
      method: "POST", keepalive: true, credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ visible: false }),
    }).catch(() => {});
  }

  // The greeting of a player coming back to the page, true of the game found.
  function welcomeBack() {
    if (!state.finished) return _("Welcome back: your game is where you left it.");
    const how = state.status === "won" ? _("Welcome back: you won this game.")
      : state.status === "resigned" ? _("Welcome back: this game was resigned.")
        : _("Welcome back: this game ended with no move left.");
    return how + " " + _("New (N) deals another.");
  }

  async function boot() {
    if (restoreLanguage()) return;
    applyLook();
    wire();
    wireSettings();
    try {
      [variants, features] = await Promise.all([call("GET", "/api/variants"), call("GET", "/api/features")]);
    } catch (e) { setStatus(e.message, "error"); }
    const q = new URLSearchParams(location.search);
    const id = saved.get("lucie.game");
    try {
      if (q.has("variant") || q.has("deal")) {
        await newGame(q.get("variant"), q.get("deal"));
        history.replaceState(null, "", location.pathname);
      } else if (id) {
        try {
          render(await call("GET", `/api/games/${encodeURIComponent(id)}`));
          setStatus(welcomeBack(), "info");
        } catch (e) {
          if (e.status !== 404) throw e;
          await newGame(null, null);
        }
      } else {
        await newGame(null, null);
        setStatus(_("Welcome! Click a top card: with one place to go it goes there; with several, they light up: click one. Or drag it. Rules, keys and settings: ? and Settings."), "info");
      }
    } catch (e) {
      setStatus(e.message, "error");
    }
    if (location.pathname === "/stats") showStats(false);
    document.body.classList.add("ready");
  }

  window.lucie = { get state() { return state; }, get sounds() { return soundsMade; } };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
