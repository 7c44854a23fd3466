// What the page's modules share: the game as the server last sent it and
// what the player is doing with it, the settings kept in localStorage, and
// a short name for document.getElementById.  No rule of the game lives here.

export const $ = (id) => document.getElementById(id);

// localStorage, which a private window may refuse.
export const saved = {
  get(k) { try { return localStorage.getItem(k); } catch (err) { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch (err) { /* private mode */ } },
};

export const page = {
  state: null,                 // the last state sent by the server
  stateAt: performance.now(),  // when it came (the clock runs on from there)
  held: null,                  // {code, el, source, targets: Map(key -> move), at}
  press: null,                 // pointer press in progress
  merciMode: false,
  // autoplay of safe cards is on unless the player turned it off
  autoplay: saved.get("lucie.autoplay") !== "0",
  features: { stats: false },  // what the server can do (a store or not)
  variants: [],                // the variants the server offers
  endShownFor: null,           // the finished game the end dialog was shown for
  cols: 6,                     // fans a row, as laid out
};

// The settings dialog's choices (remembered in localStorage).
export const prefs = {
  oneClick: saved.get("lucie.oneclick") !== "0",
  sounds: saved.get("lucie.sounds") === "1",
  theme: saved.get("lucie.theme") || "green",
  back: saved.get("lucie.back") || "red",
};
