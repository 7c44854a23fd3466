// The page's texts in the page's language.  The server puts in the page
// (#lucie-i18n, JSON) the translations of the texts this JavaScript marks
// with _("..."), ngettext("...", "...", n) and pgettext("context", "..."),
// taken from the gettext catalogue that Babel extracted them into, the
// catalogue's plural rule (a C expression of n, from its Plural-Forms
// header) and every card's name in words.  A text with no translation is
// shown in English.  No dictionary lives here, and no rule of the game.

let data = {};
try {
  data = JSON.parse(document.getElementById("lucie-i18n").textContent);
} catch (err) { /* no catalogue: English */ }
const messages = data.messages || {};
const plurals = data.plurals || {};
const cards = data.cards || {};

// The plural rule, parsed once into a function of n.  The page's
// Content-Security-Policy forbids eval, and a catalogue's expression is
// C: ?:, ||, &&, comparisons, + - * / %, !, parentheses, n and numbers.
export function compilePlural(source) {
  const tokens = String(source).match(/\d+|n|&&|\|\||[=!<>]=|[-+*/%()?:<>!]/g) || [];
  let i = 0;
  const peek = () => tokens[i];
  const take = (t) => { if (tokens[i] !== t) throw new Error(`plural rule: ${t} expected`); i += 1; };
  function primary() {
    const t = tokens[i++];
    if (t === "(") { const e = ternary(); take(")"); return e; }
    if (t === "!") { const e = primary(); return (n) => (e(n) ? 0 : 1); }
    if (t === "-") { const e = primary(); return (n) => -e(n); }
    if (t === "n") return (n) => n;
    if (/^\d+$/.test(t || "")) { const v = Number(t); return () => v; }
    throw new Error(`plural rule: unexpected ${t}`);
  }
  const levels = [
    ["*", "/", "%"], ["+", "-"], ["<", ">", "<=", ">="], ["==", "!="], ["&&"], ["||"],
  ];
  const ops = {
    "*": (a, b) => a * b, "/": (a, b) => Math.trunc(a / b), "%": (a, b) => a % b,
    "+": (a, b) => a + b, "-": (a, b) => a - b,
    "<": (a, b) => +(a < b), ">": (a, b) => +(a > b), "<=": (a, b) => +(a <= b), ">=": (a, b) => +(a >= b),
    "==": (a, b) => +(a === b), "!=": (a, b) => +(a !== b),
    "&&": (a, b) => +(a && b), "||": (a, b) => +(a || b),
  };
  function binary(level) {
    if (level < 0) return primary();
    let left = binary(level - 1);
    while (levels[level].includes(peek())) {
      const op = ops[tokens[i++]], l = left, r = binary(level - 1);
      left = (n) => op(l(n), r(n));
    }
    return left;
  }
  function ternary() {
    const test = binary(levels.length - 1);
    if (peek() !== "?") return test;
    take("?");
    const yes = ternary();
    take(":");
    const no = ternary();
    return (n) => (test(n) ? yes(n) : no(n));
  }
  const rule = ternary();
  if (i !== tokens.length) throw new Error("plural rule: trailing text");
  return (n) => Number(rule(Math.abs(Math.trunc(n))));
}

let plural = (n) => (n !== 1 ? 1 : 0);
try { if (data.plural) plural = compilePlural(data.plural); } catch (err) { /* English rule */ }

export function _(text) { return messages[text] || text; }

export function pgettext(context, text) { return messages[context + "\u0004" + text] || text; }

export function ngettext(singular, pluralText, n) {
  const forms = plurals[singular];
  if (forms) {
    const k = plural(n);
    if (k >= 0 && k < forms.length) return forms[k];
  }
  return n === 1 ? singular : pluralText;
}

// Marks a text for extraction where it is defined; _() it where it is shown.
export function N_(text) { return text; }

// "{name}" fields filled from an object, as Python's str.format does ("{{" and "}}" stay braces).
export function format(text, fields) {
  return text.replace(/\{\{|\}\}|\{(\w+)\}/g, (m, key) => {
    if (m === "{{") return "{";
    if (m === "}}") return "}";
    return key in fields ? String(fields[key]) : m;
  });
}

// A card's name in words ("king of hearts", "roi de cœur", "Herzkönig"), by its code.
export function cardName(code) { return cards[code] || code; }

// The rank a card's corner shows in the page's language, by the card's code:
// "10", and the face letters the server gives (lucie.cards.rank_label: V D R in French).
const ranks = data.ranks || {};
export function rankLabel(code) {
  const rank = code.slice(0, -1);
  return ranks[rank] || (rank === "T" ? "10" : rank);
}

// Numbers as the page's language writes them: 12,5 and 9,8 % in French.
export const language = data.language || document.documentElement.lang || "en";
export function number(x, digits) {
  return Number(x).toLocaleString(language, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
export function percent(fraction, digits) {
  const d = digits || 0;
  return Number(fraction).toLocaleString(language, { style: "percent", minimumFractionDigits: d, maximumFractionDigits: d });
}

// The languages of the page's menu, by code.
export const languages = data.languages || {};

// for the tests and the browser's console
window.LucieI18n = {
  _, ngettext, pgettext, N_, format, cardName, rankLabel, number, percent, compilePlural,
  language, languages,
};
