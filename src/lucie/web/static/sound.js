// Sounds, made here with the Web Audio API (nothing fetched); off by default.

import { prefs } from "./model.js";

let audio = null;
export let soundsMade = 0;

// ``kind``: "move", "refused" or "win".
export function sound(kind) {
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
