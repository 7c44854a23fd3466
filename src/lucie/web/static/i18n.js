// The page's texts in the page's language.  The server puts in the page
// (#lucie-i18n, JSON) the translations of the texts the page's modules mark
// with _("..."), ngettext("...", "...", n) and pgettext("context", "..."),
// as the build took them from the gettext catalogue Babel
// extracted them into (scripts/page_catalogues.py), each counted text's
// plural forms, and every card's name in words.  A text with no translation
// is shown in English.  No dictionary lives here, and no rule of the game.

let data = {};
try {
  data = JSON.parse(document.getElementById("lucie-i18n").textContent);
} catch (err) { /* no catalogue: English */ }
const messages = data.messages || {};
const plurals = data.plurals || {};
const cards = data.cards || {};

// The page's language, and its plural rule: the browser's Intl.PluralRules
// names a count's category (CLDR: "one", "many", "other"...), which the
// catalogue maps to the index of its form (plural_index: the build checked
// it against the catalogue's gettext rule).
export const language = data.language || document.documentElement.lang || "en";
const pluralIndex = data.plural_index || { one: 0, other: 1 };
const pluralRules = new Intl.PluralRules(language);

// The index of the plural form for the count n, as gettext's rule gives it.
export function pluralForm(n) {
  const k = pluralIndex[pluralRules.select(Math.abs(Math.trunc(n)))];
  return k === undefined ? (pluralIndex.other ?? 1) : k;
}

export function _(text) { return messages[text] || text; }

export function pgettext(context, text) { return messages[context + "\u0004" + text] || text; }

export function ngettext(singular, pluralText, n) {
  const forms = plurals[singular];
  if (forms) {
    const k = pluralForm(n);
    if (k >= 0 && k < forms.length) return forms[k];
  }
  return n === 1 ? singular : pluralText;
}

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

// A suit's name in words, by its letter, as it names a foundation in a
// sentence ("spades", "pique", "schoppen", "Pik": lucie.cards.suit_name).
const suits = data.suits || {};
export function suitName(letter) { return suits[letter] || letter; }

// A text with its first letter a capital, to start a label ("Clubs foundation: empty").
export function capitalized(text) { return text.replace(/^./, (c) => c.toUpperCase()); }

// The rank a card's corner shows in the page's language, by the card's code:
// "10", and the face letters the server gives (lucie.cards.rank_label: V D R in French).
const ranks = data.ranks || {};
export function rankLabel(code) {
  const rank = code.slice(0, -1);
  return ranks[rank] || (rank === "T" ? "10" : rank);
}

// A difficulty's words, as the server wrote them on its option in the new
// game dialog: "word" (the difficulty), "finding" and "asked" (whole
// sentences: the word agrees with the sentence).  The code itself if none.
export function difficultyText(code, kind) {
  const option = [...document.getElementById("new-difficulty").options].find((o) => o.value === code);
  return (option && option.dataset[kind]) || code;
}

// Numbers as the page's language writes them: 12,5 and 9,8 % in French.
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
  _, ngettext, pgettext, format, cardName, rankLabel, number, percent, pluralForm,
  language, languages,
};
