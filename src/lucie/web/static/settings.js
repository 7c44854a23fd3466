// Settings: one-click moves, autoplay, sounds, the table and the card back.

import { $, saved, page, prefs } from "./model.js";
import { sound } from "./sound.js";
import { toggleAuto } from "./commands.js";

// The table's colours and the card back, as chosen (CSS draws them).
export function applyLook() {
  document.documentElement.dataset.theme = prefs.theme;
  document.documentElement.dataset.back = prefs.back;
}

export function openSettings() {
  $("set-oneclick").checked = prefs.oneClick;
  $("set-autoplay").checked = page.autoplay;
  $("set-sounds").checked = prefs.sounds;
  $("set-theme").value = prefs.theme;
  $("set-back").value = prefs.back;
  $("d-settings").showModal();
}

export function wireSettings() {
  $("b-settings").onclick = openSettings;
  $("settings-close").onclick = () => $("d-settings").close();
  $("set-oneclick").onchange = (e) => {
    prefs.oneClick = e.target.checked;
    saved.set("lucie.oneclick", prefs.oneClick ? "1" : "0");
  };
  $("set-autoplay").onchange = (e) => { if (e.target.checked !== page.autoplay) toggleAuto(); };
  $("set-sounds").onchange = (e) => {
    prefs.sounds = e.target.checked;
    saved.set("lucie.sounds", prefs.sounds ? "1" : "0");
    sound("move"); // a sample, and the browser lets a page sound after a click
  };
  $("set-theme").onchange = (e) => { prefs.theme = e.target.value; saved.set("lucie.theme", prefs.theme); applyLook(); };
  $("set-back").onchange = (e) => { prefs.back = e.target.value; saved.set("lucie.back", prefs.back); applyLook(); };
}
