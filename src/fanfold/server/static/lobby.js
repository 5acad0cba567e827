// The lobby: pick a game, a variant and the seats, then open the table.
import { api, botName, botSentence, el, remember, myTables, t, variantWords } from "./common.js";

const gamesBox = document.getElementById("games");
const form = document.getElementById("setup");
const variantSelect = document.getElementById("variant");
const playersSelect = document.getElementById("players");
const seatsBox = document.getElementById("seats");
const errorBox = document.getElementById("setup-error");
const seedInput = document.getElementById("seed");
const dailyButton = document.getElementById("daily");
let games = [];
let chosen = null;
// What the lobby shows of each game besides the catalogue, by name (GET /api/games/web: the
// games' own words for players, their order, lessons, the seed box, the daily deal).
let web = new Map();

// The games' seed boxes' labels (the plugins' data) in the page's language; another plugin's
// label as it is.
const seedLabels = () => ({ Seed: t("Seed"), "Deal number (PySolFC)": t("Deal number (PySolFC)") });

function hints(game) {
  return web.get(game.name) || { blurb: game.summary, dealt: true, seed_label: t("Seed"), daily: false, lessons: false };
}

// The game's words for players, in the page's language (a built-in game's are in the
// catalogues: i18n_catalogues._games); the developers' summary where the plugin gives none.
function blurb(game) {
  const words = hints(game).blurb;
  return words ? t(words) : game.summary;
}

const SEAT_KINDS = [
  ["you", t("You")],
  ["hotseat", t("Someone at this screen")],
  ["friend", t("A friend (join link)")],
  ["open", t("Anyone from the lobby (open seat)")], // issue 31: listed under "Seats to take"
];

function preset() {
  return chosen.presets.find((p) => p.name === variantSelect.value);
}

// A bot as a player reads it: a level by its name ("Hard bot"), another agent by its name and
// how it plays ("Perfect bot: knows …"); the developers' description, settings and all, is
// the option's title.
function botLabel(bot) {
  const sentence = bot.level ? "" : botSentence(bot.name);
  return sentence ? t("{bot} — {about}", { bot: botName(bot.name), about: sentence }) : botName(bot.name);
}

// The levels first (what most players want), then every other agent by name.
function addBots(select) {
  const levels = document.createElement("optgroup");
  levels.label = t("Bots");
  const others = document.createElement("optgroup");
  others.label = t("Other agents");
  for (const bot of chosen.bots) {
    const option = new Option(botLabel(bot), bot.name);
    option.title = bot.level ? `${bot.description} (${bot.agent})` : bot.description;
    (bot.level ? levels : others).append(option);
  }
  select.append(levels, others);
}

// issue 31: each level's rating in the chosen game and variant ("Hard bot, about 1650"):
// the one rated games gave it, or the strength measured by arena runs before any.
let ratingsAsked = 0;
async function rateBots() {
  const asked = ++ratingsAsked;
  const query = new URLSearchParams({ game: chosen.name, variant: variantSelect.value, players: playersSelect.value });
  let found;
  try {
    found = await api("GET", `/api/bot-ratings?${query}`);
  } catch {
    return; // the plain labels stay
  }
  if (asked !== ratingsAsked) return; // another game or variant was chosen meanwhile
  const about = new Map(found.levels.filter((l) => l.measured).map((l) => [l.level, l.rating]));
  for (const option of seatsBox.querySelectorAll("option")) {
    const bot = chosen.bots.find((b) => b.level && b.name === option.value);
    if (bot && about.has(bot.name)) option.textContent = t("{bot}, about {rating}", { bot: botLabel(bot), rating: about.get(bot.name) });
  }
}

function drawSeats() {
  const count = Number(playersSelect.value);
  seatsBox.replaceChildren();
  const level = chosen.bots.find((bot) => bot.name === "medium");
  const fallback = level || chosen.bots[chosen.bots.length - 1];
  for (let seat = 0; seat < count; seat++) {
    const row = document.createElement("div");
    row.className = "seat-row";
    const label = document.createElement("label");
    label.textContent = count === 1 ? t("Player") : t("Seat {number}", { number: seat + 1 });
    label.htmlFor = `seat-${seat}`;
    const select = document.createElement("select");
    select.id = `seat-${seat}`;
    select.name = `seat-${seat}`;
    for (const [value, text] of SEAT_KINDS) {
      if (count === 1 && value !== "you") continue;
      if (seat === 0 && value === "hotseat") continue;
      select.add(new Option(text, value));
    }
    if (count > 1) {
      addBots(select);
      select.value = seat === 0 ? "you" : fallback.name;
    }
    row.append(label, select);
    seatsBox.append(row);
  }
  if (count > 1) rateBots();
}

function drawPlayers() {
  const p = preset();
  playersSelect.replaceChildren();
  for (const n of p.players) playersSelect.add(new Option(String(n), String(n)));
  playersSelect.value = String(p.default_players);
  playersSelect.disabled = p.players.length < 2;
  document.getElementById("variant-description").textContent = p.description ? `${p.description[0].toUpperCase()}${p.description.slice(1)}.` : "";
  drawSeats();
}

function choose(game) {
  chosen = game;
  for (const card of gamesBox.children) {
    card.classList.toggle("selected", card.dataset.game === game.name);
    card.querySelector(".game-pick").setAttribute("aria-pressed", String(card.dataset.game === game.name));
  }
  form.hidden = false;
  document.getElementById("setup-title").textContent = t("New table: {game}", { game: game.title });
  document.getElementById("setup-summary").textContent = blurb(game);
  document.getElementById("rules-link").href = `/how-to-play/${game.name}`;
  variantSelect.replaceChildren();
  for (const p of game.presets) variantSelect.add(new Option(variantWords(p.name), p.name));
  const dealt = hints(game).dealt;
  document.getElementById("deal-row").hidden = !dealt;
  const label = hints(game).seed_label;
  document.getElementById("seed-words").textContent = seedLabels()[label] ?? label;
  dailyButton.hidden = !hints(game).daily;
  document.getElementById("time-row").hidden = !game.time_limit;
  document.getElementById("practice-row").hidden = !game.hidden_information;
  document.getElementById("practice").checked = false;
  document.getElementById("seed-help").hidden = !dealt;
  document.getElementById("daily-help").hidden = true;
  document.getElementById("time-help").hidden = !game.time_limit;
  document.getElementById("time-limit").value = "";
  const options = document.getElementById("options");
  options.value = "";
  // an option this game takes in every variant (its plugin's), or no example at all
  const example = hints(game).options_example;
  options.placeholder = example ? t("e.g. {example}", { example }) : "";
  seedInput.value = "";
  errorBox.textContent = "";
  syncRated();
  drawPlayers();
  form.scrollIntoView({ block: "nearest" });
}

// A rated game is never a practice table, and its deal is the server's to draw: while Rated is
// ticked, Practice, the deal number and Today's deal are off (and Rated is, while Practice is).
function syncRated() {
  const rated = document.getElementById("rated");
  const practice = document.getElementById("practice");
  if (rated.checked) {
    practice.checked = false;
    seedInput.value = "";
    seedInput.dispatchEvent(new Event("input")); // not today's deal any more
  }
  practice.disabled = rated.checked;
  seedInput.disabled = rated.checked;
  dailyButton.disabled = rated.checked;
  rated.disabled = practice.checked;
}

async function start(event) {
  event.preventDefault();
  errorBox.textContent = "";
  const seats = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
  const body = { game: chosen.name, variant: variantSelect.value, players: Number(playersSelect.value), seats };
  const seed = seedInput.value.trim();
  if (seed !== "") {
    if (!/^[0-9]+$/.test(seed)) {
      errorBox.textContent = t("A seed or deal number is written in digits only.");
      return;
    }
    body.seed = seed; // a string: seeds have more digits than a JavaScript number keeps
  }
  if (chosen.hidden_information && document.getElementById("practice").checked) body.practice = true;
  if (document.getElementById("public").checked) body.public = true;
  if (document.getElementById("rated").checked) body.rated = true; // issue 31: rated tables
  if ((body.seats || []).includes("open")) body.public = true; // an open seat is listed
  const limit = document.getElementById("time-limit").value;
  if (chosen.time_limit && limit) body.time_limit = Number(limit);
  const options = document.getElementById("options").value.trim();
  if (options) {
    body.options = {};
    for (const word of options.split(/\s+/)) {
      const [name, ...rest] = word.split("=");
      if (!name || !rest.length) {
        errorBox.textContent = t("Options are written name=value ({word} is not).", { word });
        return;
      }
      body.options[name] = rest.join("=");
    }
  }
  try {
    const created = await api("POST", "/api/tables", body);
    remember(created.table, created.token, created.invites, `${chosen.title} (${variantWords(variantSelect.value)})`, true);
    location.href = `/table/${created.table}#token=${created.token}`;
  } catch (error) {
    errorBox.textContent = error.message;
  }
}

// issue 31: quick match: a seat at the open table of the chosen game, variant, players, rated
// box and time limit that has waited longest (the server says so when none waits).
async function quickMatch() {
  errorBox.textContent = "";
  const body = {
    game: chosen.name,
    variant: variantSelect.value,
    players: Number(playersSelect.value),
    rated: document.getElementById("rated").checked,
  };
  const limit = document.getElementById("time-limit").value;
  if (chosen.time_limit && limit) body.time_limit = Number(limit); // the same time limit too
  try {
    const taken = await api("POST", "/api/quick-match", body);
    remember(taken.table, taken.token, {}, t("{game} ({variant}), quick match", { game: chosen.title, variant: variantWords(variantSelect.value) }));
    location.href = `/table/${taken.table}#token=${taken.token}`;
  } catch (error) {
    errorBox.textContent = error.message;
  }
}

function listMine() {
  const box = document.getElementById("mine");
  const mine = myTables();
  if (!mine.length) return;
  box.replaceChildren();
  for (const entry of mine.slice(0, 15)) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/table/${entry.table}#token=${entry.token}`;
    a.textContent = entry.label || entry.table;
    li.append(a);
    box.append(li);
  }
}

async function listRecent() {
  const box = document.getElementById("recent");
  try {
    const rows = await api("GET", "/api/tables?limit=12");
    box.replaceChildren();
    for (const row of rows) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = row.over ? `/table/${row.table}?replay=1` : `/table/${row.table}`;
      const title = games.find((g) => g.name === row.game)?.title || row.game;
      // players' words: "a player" for a person, a bot by its level ("Hard bot"), never its settings
      const players = row.players.map((p) => (p === "human" ? t("a player") : botName(p))).join(t(" v "));
      a.textContent = t("{game}: {players}", { game: title, players });
      const state = row.over ? t("over (replay)") : t("watch");
      const moves = row.moves === 1 ? t("1 move") : t("{count} moves", { count: row.moves });
      li.append(a, " · " + moves + " · " + state);
      box.append(li);
    }
    if (!rows.length) box.replaceChildren(el("li", { class: "muted", text: t("No open tables now.") }));
  } catch (error) {
    box.textContent = error.message;
  }
}

async function loadRecord(event) {
  const file = event.target.files[0];
  const errors = document.getElementById("record-error");
  errors.textContent = "";
  if (!file) return;
  try {
    // The text as it is: JSON.parse would round a seed written as a long number.
    const created = await api("POST", "/api/records", { text: await file.text() });
    remember(created.table, created.token, {}, t("Loaded: {file}", { file: file.name }));
    location.href = `/table/${created.table}#token=${created.token}`;
  } catch (error) {
    errors.textContent = error.message;
  }
}

async function main() {
  // A record needs nothing of the games' list: a file chosen while the list loads is loaded.
  document.getElementById("record-file").addEventListener("change", loadRecord);
  const [catalogue, shown] = await Promise.all([api("GET", "/api/games"), api("GET", "/api/games/web")]);
  web = new Map(shown.map((entry) => [entry.name, entry]));
  const order = shown.map((entry) => entry.name); // the lobby's order, from the games' plugins
  const place = (game) => (order.includes(game.name) ? order.indexOf(game.name) : order.length);
  games = catalogue.sort((a, b) => place(a) - place(b));
  for (const game of games) {
    const card = el("div", { class: "game-card", "data-game": game.name },
      el("button", { type: "button", class: "game-pick", "aria-pressed": "false", onclick: () => choose(game) },
        el("h3", { text: game.title, translate: "no" }),
        el("p", { class: "muted", text: blurb(game) })),
      el("p", { class: "game-links" },
        el("a", { href: `/how-to-play/${game.name}`, class: "how-to-play", text: t("How to play") }),
        ...(hints(game).lessons ? [el("a", { href: `/learn/${game.name}`, class: "lessons", text: t("Lessons") })] : [])));
    card.addEventListener("click", (event) => {
      if (!event.target.closest("a, button")) choose(game); // the card's margins pick it too
    });
    gamesBox.append(card);
  }
  variantSelect.addEventListener("change", drawPlayers);
  playersSelect.addEventListener("change", drawSeats);
  form.addEventListener("submit", start);
  document.getElementById("quick-match").addEventListener("click", quickMatch);
  // Today's deal is the same for everyone, and a fair game: the note on chosen deals is not
  // for it, until the deal number is changed by hand.
  function dailyDeal(daily) {
    const help = document.getElementById("daily-help");
    if (!daily && help.hidden) return; // not today's deal already: the seed's note stays as it is
    help.hidden = !daily;
    document.getElementById("seed-help").hidden = daily;
  }
  seedInput.addEventListener("input", () => dailyDeal(false));
  document.getElementById("rated").addEventListener("change", syncRated);
  document.getElementById("practice").addEventListener("change", syncRated);
  variantSelect.addEventListener("change", () => dailyDeal(false));
  dailyButton.addEventListener("click", async () => {
    errorBox.textContent = "";
    try {
      const daily = await api("GET", "/api/daily");
      if (daily.variant && chosen.presets.some((p) => p.name === daily.variant) && variantSelect.value !== daily.variant) {
        variantSelect.value = daily.variant; // the deal is proved winnable under these rules
        drawPlayers();
      }
      seedInput.value = String(daily.deal);
      dailyDeal(true);
    } catch (error) {
      errorBox.textContent = error.message;
    }
  });
  listMine();
  listRecent();
  const wanted = new URLSearchParams(location.search).get("game");
  const game = games.find((g) => g.name === wanted);
  if (game) choose(game);
  else if (wanted !== null) {
    // a link to a game this site does not have: said, above the games to pick from
    document.getElementById("games-error").textContent = t("There is no game called “{name}” here: pick one of these.", { name: wanted });
  }
}

main();
