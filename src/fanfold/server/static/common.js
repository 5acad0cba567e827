// Shared by the lobby and the table pages: the page's words, the JSON API, remembered seats,
// cards.

// The page's words in its language (fanfold.server.i18n): theme.js asked for the scripts'
// catalogue as the page began (the address the server put in the page's head); an English page
// has none, the keys being the English words. A catalogue that cannot be read leaves English.
const MESSAGES = await (window.fanfoldMessages || Promise.resolve({}));

// A message in the page's language: `key` is its English words; each `{name}` in it is
// replaced by `params[name]` as text, once (a name's own braces are never read again). The
// result is text, only ever set as textContent.
export function t(key, params = {}) {
  const text = typeof MESSAGES[key] === "string" ? MESSAGES[key] : key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

// A refusal from the server (`{error, code, params}`, a socket's or an answer's) in the page's
// language: its code's template from the catalogue (fanfold.core.errors.Refusal), each
// parameter put in as text (a word of the catalogue translated, a refusal inside worded the
// same way); the server's English sentence where the catalogue has no such code (an English
// page, a refusal without a code).
export function refusalText(data) {
  if (!data || typeof data.code !== "string" || typeof MESSAGES[data.code] !== "string") {
    return (data && data.error) || "";
  }
  return worded(data);
}

// Why the server closed a socket, in the page's language: the close reason is a refusal's
// code ("close.moved": fanfold.server.hub.basics.MOVED), worded from the catalogue; empty where
// the catalogue has no such code (an English page, a close without a reason).
export function closeText(reason) {
  if (typeof reason !== "string" || typeof MESSAGES[reason] !== "string") return "";
  return worded({ code: reason, params: {} });
}

// Words the server sent as a code and params (a move in words, how a game ended, a seat's
// name: fanfold.core.phrases.Phrase), in the page's language, worded as a refusal is; the
// server's English words where the catalogue has no such code (an English page, words sent
// without a code).
export function saidText(said, english) {
  if (!said || typeof said.code !== "string" || typeof MESSAGES[said.code] !== "string") return english ?? "";
  return worded(said);
}

function worded(refusal) {
  const params = {};
  for (const [name, value] of Object.entries(refusal.params || {})) {
    params[name] = value && typeof value === "object" ? worded(value) : t(String(value));
  }
  // a parameter that starts a sentence inside the template starts with a capital (as the
  // server writes it: fanfold.core.phrases)
  let template = typeof MESSAGES[refusal.code] === "string" ? MESSAGES[refusal.code] : refusal.code;
  if (document.documentElement.lang === "fr") template = contracted(template, params);
  const made = template.replace(/\{(\w+)\}/g, (whole, name, at) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = String(params[name]);
    return /[.!?] $/.test(template.slice(0, at)) ? value.charAt(0).toUpperCase() + value.slice(1) : value;
  });
  // words that start with a capital wherever they stand (fanfold.core.phrases.CAPITALISED),
  // in a language that starts with one what follows a colon ("Result: Won…"); French goes on
  // in lower case after its colon ("Résultat : gagné…")
  const capital = refusal.code === "words.capital" && !LOWER_AFTER_COLON.has(document.documentElement.lang);
  return capital ? made.charAt(0).toUpperCase() + made.slice(1) : made;
}

// The languages that go on in lower case after a colon, even before a whole sentence.
const LOWER_AFTER_COLON = new Set(["fr"]);

// French: "de" and "à" before a seat's name that is "Joueur …" (worded from game.player,
// fano.seat, fantan.seat) contract with the name's article, as French writes it: "le coup du
// Joueur 2", "au Joueur 2", never "de Joueur 2".
const CONTRACTIONS = { de: "du", à: "au" };

function contracted(template, params) {
  let found = template;
  for (const [name, value] of Object.entries(params)) {
    if (!/^Joueur\b/.test(value) || !/^\w+$/.test(name)) continue;
    found = found.replace(new RegExp(`(^|[\\s(])(de|à) \\{${name}\\}`, "g"), (whole, start, word) => `${start}${CONTRACTIONS[word]} {${name}}`);
  }
  return found;
}

export async function api(method, path, body, token, extra = {}) {
  const headers = { Accept: "application/json", ...extra };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Fanfold-Token"] = token;
  const csrf = document.cookie.split("; ").find((part) => part.startsWith("fanfold_csrf="));
  if (csrf && method !== "GET") headers["X-Fanfold-CSRF"] = csrf.slice("fanfold_csrf=".length);
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: text };
  }
  if (!response.ok) {
    const error = new Error(refusalText(data) || `${response.status} ${response.statusText}`);
    error.status = response.status; // a refusal's HTTP status and, where it says one, its wait
    error.retryAfter = response.headers.get("Retry-After");
    throw error;
  }
  return data;
}

// The seconds a refused request asks the page to wait before asking again (429 or 503 with
// `Retry-After`, in seconds or as a date), at least 1 and at most `most`; null for any other
// refusal (asking again would be refused the same).
export function retryWait(error, most = 60) {
  if (!error || (error.status !== 429 && error.status !== 503) || !error.retryAfter) return null;
  let seconds = Number(error.retryAfter);
  if (!Number.isFinite(seconds)) seconds = (Date.parse(error.retryAfter) - Date.now()) / 1000;
  if (!Number.isFinite(seconds)) return null;
  return Math.min(Math.max(Math.ceil(seconds), 1), most);
}

const KEY = "fanfold.tables";

export function myTables() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "[]");
  } catch {
    return [];
  }
}

// Keep a table's token (and, for its creator, the invitations to its seats) in this browser,
// newest first.
export function remember(table, token, invites, label, creator) {
  const others = myTables().filter((entry) => entry.table !== table);
  const old = myTables().find((entry) => entry.table === table) || {};
  const entry = { table, token, invites: invites || old.invites || {}, label: label || old.label || table };
  if (creator || old.creator) entry.creator = true; // issue 31: the creator's controls at the table
  localStorage.setItem(KEY, JSON.stringify([entry, ...others].slice(0, 50)));
  return entry;
}

export function tokenFor(table) {
  return myTables().find((entry) => entry.table === table) || null;
}

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANKS = { T: "10" };

// A card element from its text ("7H", "TC"); red suits in red.
export function cardElement(text, extra = "") {
  const el = document.createElement("div");
  const rank = text.slice(0, -1);
  const suit = text.slice(-1);
  el.className = `card ${suit === "H" || suit === "D" ? "red" : ""} ${extra}`.trim();
  el.dataset.card = text;
  const label = `${RANKS[rank] || rank}${SUITS[suit] || suit}`;
  // a card is read by its rank and suit symbol, as it is drawn ("10♥")
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  const face = document.createElement("span");
  face.textContent = label;
  face.setAttribute("translate", "no"); // a card's rank and suit are notation, not words
  const pip = document.createElement("span");
  pip.className = "pip-bottom";
  pip.setAttribute("translate", "no");
  pip.setAttribute("aria-hidden", "true");
  pip.dataset.pip = label; // drawn by the style sheet: not part of the card's text
  el.append(face, pip);
  return el;
}

// The arrow keys move the focus among a board's choices (``choices()``: them in order), around
// from the last to the first; any other key, or one typed into a field, is left alone.
export function arrowFocus(event, choices) {
  const steps = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  if (!(event.key in steps) || event.altKey || event.ctrlKey || event.metaKey) return;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName)) return;
  const found = choices();
  if (!found.length) return;
  event.preventDefault();
  const at = found.indexOf(event.target);
  const next = at < 0 ? 0 : (at + steps[event.key] + found.length) % found.length;
  found[next].focus();
}

// Make a drawn thing (a card, a fan, a point of a drawing) a button for the keyboard too:
// reached with Tab (or the arrow keys, arrowFocus), chosen with Enter or Space, read by its label.
export function keyable(node, onChoose, label) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  if (label) node.setAttribute("aria-label", label);
  node.addEventListener("click", onChoose);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      onChoose(event);
    }
  });
  return node;
}

export function cardBack() {
  const el = document.createElement("div");
  el.className = "card back";
  return el;
}

// Each agent as a player reads it (fanfold.agents' registry names them for developers): its
// name, and one sentence on how it plays (the lobby's list of other agents).
const BOT_NAMES = {
  easy: t("Easy bot"),
  medium: t("Medium bot"),
  hard: t("Hard bot"),
  random: t("Random bot"),
  greedy: t("Greedy bot"),
  heuristic: t("Quick bot"),
  "heuristic-v1": t("Veteran bot"),
  planner: t("Planner bot"),
  ladder: t("Style bot"),
  exploit: t("Exploiter bot"),
  mcts: t("Explorer bot"),
  "mcts-strong": t("Deep explorer bot"),
  pimc: t("Sampler bot"),
  perfect: t("Perfect bot"),
  solver: t("Solver bot"),
};
const BOT_SENTENCES = {
  random: t("Plays any legal move, at random."),
  greedy: t("Takes what each move gives at once, without looking further ahead."),
  heuristic: t("Plays its first idea at once, without searching."),
  "heuristic-v1": t("An older medium bot, kept unchanged to compare against."),
  planner: t("Plans its whole turn on a few guesses at the hidden cards."),
  ladder: t("Plans its whole turn and keeps to one style: rushing, defending, bluffing and more."),
  exploit: t("Plays on the weaknesses of another bot it knows."),
  mcts: t("Tries many continuations before each move."),
  "mcts-strong": t("The explorer bot, with five times as many tries."),
  pimc: t("Tries each move on several guesses at the hidden cards."),
  perfect: t("Knows the value of every position: it never makes a mistake."),
  solver: t("Wins every deal that can be won."),
};

// A seat's bot by name ("Hard bot", "Perfect bot"), its settings left out ("perfect(mistakes=0.1)").
export function botName(player) {
  const name = String(player).split("(")[0];
  return BOT_NAMES[name] || t("Bot ({name})", { name });
}

// The sentence on how a bot plays, in the page's language ("" for one not known here).
export function botSentence(name) {
  return BOT_SENTENCES[String(name).split("(")[0]] || "";
}

// A variant's name in words, as a player reads it: "trionfey-all-for-one" is "Trionfey all for
// one", "geometric" stays "geometric".
// Variants whose name is not what a player reads: a table opened from a record file.
const VARIANT_WORDS = { "loaded record": t("record loaded from a file") };

export function variantWords(name) {
  const words = String(name ?? "").replaceAll("-", " ").trim();
  if (VARIANT_WORDS[words]) return VARIANT_WORDS[words];
  return words.startsWith("trionfey") ? `T${words.slice(1)}` : words;
}

export function suitSymbol(suit) {
  return SUITS[suit] || suit;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}
