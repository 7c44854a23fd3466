// The page's language menu: the choice goes in a cookie the server reads
// (the next page comes in that language from its first byte) and in
// localStorage.

import { $, saved } from "./model.js";
import { language, languages } from "./i18n.js";

// The menu's choice goes in a cookie the server reads (so the next page
// comes in that language from its first byte) and in localStorage.
export function rememberLanguage(code) {
  document.cookie = `lucie_lang=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
  saved.set("lucie.lang", code);
  return document.cookie.split("; ").includes(`lucie_lang=${code}`);
}

export function chooseLanguage() {
  const code = $("lang").value;
  if (code === language) return;
  rememberLanguage(code);
  location.reload();
}

// A choice kept in localStorage whose cookie is gone (cleared, expired):
// set it again and reload in that language (only if the cookie took).
export function restoreLanguage() {
  const code = saved.get("lucie.lang");
  if (!code || !(code in languages) || code === language) return false;
  if (document.cookie.split("; ").some((c) => c.startsWith("lucie_lang="))) return false;
  if (!rememberLanguage(code)) return false;
  location.reload();
  return true;
}
