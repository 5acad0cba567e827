// The lobby's "Seats to take": listed tables with open seats, each with a Join button that
// takes the seat and opens the table. The server pushes the list on the WebSocket /ws/lobby
// whenever it changes; while that socket is down the page asks for the list every few
// seconds, and it reconnects, waiting longer each time (up to 8 s; a minute when the server
// said it holds enough lobby sockets). The list's `data-feed` says which: "push" or "poll".
// The server closes a lobby socket after a while (4000): a page that is shown connects again
// at once; a hidden page neither polls nor connects until it is shown again.
import { api, el, remember, t, tokenFor, variantWords } from "/static/common.js";

const box = document.getElementById("open-seats");
const errors = document.getElementById("join-error");
const EVERY_MS = 4000;
const MAX_WAIT_MS = 8000;
// Close codes: too many lobby sockets from this client or on the server, and renewal.
const REFUSED = new Set([1008, 1013]);
const REFUSED_WAIT_MS = 60000;
const RENEW = 4000;

let polling = null;
// Each game's title by its name (GET /api/games, read once): a line says "Fano330-R-Morris
// (geometric)", never the game's name in code. The lines shown before it came are shown again.
let titles = new Map();
let shown = [];
api("GET", "/api/games")
  .then((games) => {
    titles = new Map(games.map((game) => [game.name, game.title]));
    show(shown);
  })
  .catch(() => {});

function gameWords(line) {
  const title = titles.get(line.game) ?? line.game;
  return line.variant ? `${title} (${variantWords(line.variant)})` : title;
}
let wait = 500;
let asleep = false; // closed while hidden: connect again once shown

async function join(line) {
  errors.textContent = "";
  try {
    const taken = await api("POST", `/api/tables/${line.table}/join`);
    remember(taken.table, taken.token, {}, t("{game}, open seat", { game: gameWords(line) }));
    location.href = `/table/${taken.table}#token=${taken.token}`;
  } catch (error) {
    errors.textContent = error.message;
    await refresh();
  }
}

function show(lines) {
  shown = lines;
  box.replaceChildren();
  for (const line of lines) {
    const li = document.createElement("li");
    // a table this browser holds a seat at: its link, not a Join that could only be refused
    const mine = tokenFor(line.table);
    let button;
    if (mine) {
      button = el("a", { href: `/table/${line.table}#token=${mine.token}`, text: t("your table: open it") });
    } else {
      button = document.createElement("button");
      button.type = "button";
      button.textContent = t("Join");
      button.addEventListener("click", () => join(line));
    }
    const what = t("{game}, {players} players, ", { game: gameWords(line), players: line.players })
      + (line.free === 1 ? t("1 seat free") : t("{count} seats free", { count: line.free }))
      + (line.rated ? t(", rated") : "")
      + (line.time_limit ? t(", {seconds} s a decision", { seconds: line.time_limit }) : "") + " ";
    li.append(what, button);
    li.dataset.table = line.table;
    box.append(li);
  }
  if (!lines.length) box.replaceChildren(el("li", { class: "muted", text: t("No seat waits for a player now.") }));
}

async function refresh() {
  try {
    show(await api("GET", "/api/open-tables?limit=20"));
  } catch (error) {
    box.textContent = error.message;
  }
}

function poll() {
  box.dataset.feed = "poll";
  if (polling === null) polling = setInterval(refresh, EVERY_MS);
}

function connect() {
  let socket;
  try {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  } catch {
    poll();
    return;
  }
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type !== "open_tables") return;
    stopPolling();
    box.dataset.feed = "push";
    wait = 500;
    show(message.tables);
    document.dispatchEvent(new Event("lobby-feed")); // the "Your move" badge asks again
  });
  socket.addEventListener("close", (event) => {
    if (document.hidden) {
      stopPolling();
      asleep = true;
      return;
    }
    if (event.code === RENEW) {
      connect();
      return;
    }
    poll();
    refresh();
    setTimeout(connect, REFUSED.has(event.code) ? REFUSED_WAIT_MS : wait);
    wait = Math.min(wait * 2, MAX_WAIT_MS);
  });
}

function stopPolling() {
  if (polling !== null) {
    clearInterval(polling);
    polling = null;
  }
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && asleep) {
    asleep = false;
    refresh();
    connect();
  }
});

refresh();
connect();
