// A table page: one WebSocket to the server, the board drawn by the game's own module, the
// side panel (status, seats, moves, undo, analyses, record) drawn here.
import { api, arrowFocus, botName, closeText, refusalText, remember, retryWait, saidText, t, tokenFor, el, variantWords } from "./common.js";
import { setUpAlerts, turnAlerts } from "./alerts.js";
import { setUpChat } from "./chat.js";
import { copyButton, gameLink, positionLink, startMove } from "./share.js";
import { takebackControls } from "./takeback.js";

const tableId = location.pathname.split("/").filter(Boolean).pop();
const params = new URLSearchParams(location.search);
const replayMode = params.has("replay");
const reviewMode = replayMode && params.has("review");
const fragment = new URLSearchParams(location.hash.slice(1));
// A link's token is kept in the lobby's "Your tables" once the table answers it with a seat
// (keepLinkToken): a mistyped or forged one is never listed.
const linkToken = fragment.get("token");
let token = linkToken || tokenFor(tableId)?.token || null;
let watching = false; // the token held no seat here: this page watches the table

function keepLinkToken(yours) {
  if (linkToken && Array.isArray(yours) && yours.length > 0 && tokenFor(tableId)?.token !== linkToken) {
    remember(tableId, linkToken);
  }
}

const $ = (id) => document.getElementById(id);
let socket = null;
let message = null; // the last state message
let shownSeat = null; // the seat whose view is on screen (hot-seat switches it)
let coverConfirmed = null; // the seat the last "pass the device" screen was confirmed for
let renderer = null;
let analysisData = null; // {version, data} of the last analysis with data
let analysisPending = false;
let analysisMode = false; // re-run the data analysis at every position (Morris "Analysis")
let retry = 500;
let moving = 100;
// The table's chat (chat.js); its refusals are shown beside it, not as the table's errors.
const CHAT_REFUSALS = new Set(["ChatError", "ChatFloodError"]);
const chat = setUpChat({
  tableId,
  send: (data) => send(data),
  token: () => token,
  yours: () => message?.yours ?? [],
});

// The game's board module, where the server says it is (GET /api/games/web: fanfold's own in
// static/games, or one a game from another package ships); the text board without one.
async function loadRenderer(name) {
  try {
    const found = (await api("GET", "/api/games/web")).find((entry) => entry.name === name);
    return await import(found ? found.renderer : "/static/games/generic.js");
  } catch {
    return await import("/static/games/generic.js");
  }
}

function seatName(n) {
  return message?.seats?.[n]?.name ?? t("Player {number}", { number: n + 1 });
}

// A seat's player by name: the signed-in account's name, else the seat's ("White").
function playerName(n) {
  return accountNames[n] ?? seatName(n);
}

function showError(text) {
  $("error").textContent = text || "";
}

// ------------------------------------------------------------------ socket
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}`);
  socket.addEventListener("open", () => {
    retry = 500;
    const hello = { type: "hello", chat: true };
    if (token) hello.token = token;
    if (shownSeat !== null) hello.seat = shownSeat;
    socket.send(JSON.stringify(hello));
  });
  socket.addEventListener("message", (event) => {
    const data = JSON.parse(event.data);
    if (data.type === "state") {
      moving = 100; // served: a later move between processes starts again at 0.1 s
      onState(data);
    }
    else if (data.type === "chat" || data.type === "chat_room") chat.receive(data);
    else if (data.type === "error" && data.code === "server.no_seat_held" && message === null && token) {
      // a token that holds no seat here now (its player left the game, a stale link): the
      // table as a spectator sees it, and said so
      token = null;
      watching = true;
      socket.send(JSON.stringify({ type: "hello", chat: true }));
    }
    else if (data.type === "error" && CHAT_REFUSALS.has(data.kind)) chat.refused(data.error);
    else if (data.type === "error") showError(refusalText(data));
    else if (data.type === "ok") showError("");
    else if (data.type === "restarting") showRestart(data.message);
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4404) {
      $("status").textContent = t("There is no such table.");
      return;
    }
    // why the server closed it (a code the catalogue words: the table moved to another process,
    // the process restarts), else that the connection is lost
    $("status").textContent = closeText(event.reason) || t("Connection lost; reconnecting…");
    // 1012: the server process restarts and has handed the table on: reconnect at once.
    if (event.code === 1012) {
      showRestart("");
      return setTimeout(connect, 0);
    }
    // 4503: the table was moving between processes as the socket opened: ask again soon
    // (0.1 s, then twice as long each time it is still moving).
    if (event.code === 4503) {
      setTimeout(connect, moving);
      moving = Math.min(moving * 2, 8000);
      return;
    }
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

// A restart's notice (fanfold restart) as a banner, until the table's socket is moved (1012).
function showRestart(text) {
  $("restart-notice").textContent = text;
  $("restart-notice").hidden = !text;
}

function send(data) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(data));
  else showError(t("Not connected; reconnecting…"));
}

function act(text) {
  showError("");
  send({ type: "act", version: message.version, action: text, seat: message.seat });
}

// ------------------------------------------------------------------- state
// The server's words in a state in the page's language: the seats' names (the game's names:
// "Player 2", "White") and the legal moves' labels (their buttons, their names for the keyboard).
function wordSeats(m) {
  for (const seat of m?.seats || []) seat.name = saidText(seat.said, seat.name);
  for (const choice of m?.choices || []) choice.label = saidText(choice.said, choice.label);
  return m;
}

function onState(data) {
  const first = message === null;
  message = wordSeats(data);
  shownSeat = data.seat;
  if (first) setUpPage();
  if (first && watching) showError(t("This link holds no seat at this table now: you are watching it."));
  chat.onState(data);
  turnAlerts(data, `${data.game.title}: fanfold`, tableId); // issue 47: the title, a sound, a notification
  // Hot-seat: the decider is another of this screen's seats.
  const decider = data.decider;
  if (decider !== null && data.yours.includes(decider) && decider !== data.seat) {
    if (data.hidden_information) {
      cover(decider);
      return;
    }
    send({ type: "view", seat: decider });
    return;
  }
  if (data.hidden_information && data.options.hotseat && data.seat !== null && coverConfirmed !== data.seat) {
    cover(data.seat);
    return;
  }
  draw();
}

function cover(seat) {
  $("cover-text").textContent = t("Pass the device to {name}. Everyone else, look away.", { name: seatName(seat) });
  $("cover").hidden = false;
  // The status speaks of the covered screen, not of the last player's turn.
  $("status").textContent = t("Passing the device to {name}…", { name: seatName(seat) });
  $("status").classList.remove("your-turn");
  $("game").replaceChildren();
  $("log").replaceChildren(); // the last player's own announcements may name their cards
  $("cover-ok").onclick = () => {
    $("cover").hidden = true;
    coverConfirmed = seat;
    if (message.seat !== seat) send({ type: "view", seat });
    else draw();
  };
}

function setUpPage() {
  document.title = `${message.game.title}: fanfold`;
  $("title").textContent = `${message.game.title} · ${variantWords(message.options.variant)}`;
  $("title").translate = false; // the game's title and its variant's name: data
  $("rules").href = `/how-to-play/${message.game.name}`;
  keepLinkToken(message.yours);
  // a table reached by its link is listed in the lobby's "your tables" by its game, not its id
  const mine = tokenFor(tableId);
  if (mine && mine.label === tableId) {
    remember(tableId, mine.token, mine.invites, `${message.game.title} (${variantWords(message.options.variant)})`);
  }
  setUpAlerts(message.yours.length > 0);
  drawNotes();
}

// The table's notes. A deal the creator chose is not a fair game, unless it is today's deal
// (the lobby's "Today's deal", the same for everyone today: GET /api/daily says which).
async function drawNotes() {
  const notes = [];
  if (message.options.chosen_deal) notes.push(await isTodaysDeal()
    ? t("Today's deal: the same deal for everyone who plays it today.")
    : t("The deal was chosen by the table's creator: not a fair game."));
  if (message.options.practice) notes.push(t("A practice table: moves can be taken back; not a fair game."));
  if (message.options.rated) notes.push(t("A rated game: its end moves the players' ratings."));
  $("notes").textContent = notes.join(" ");
  $("notes").hidden = !notes.length;
}

async function isTodaysDeal() {
  const deal = message.view?.deal;
  if (deal === undefined || deal === null) return false;
  const daily = await api("GET", "/api/daily").catch(() => null);
  return Boolean(daily) && daily.game === message.game.name && String(daily.deal) === String(deal)
    && (!daily.variant || daily.variant === message.options.variant);
}

// The creator's links for friends' seats: the invitation while a seat waits for its player,
// and a new link for a seat whose link went astray or whose player left.
function drawInvites() {
  const entry = tokenFor(tableId);
  const invites = entry?.invites || {};
  const friendSeats = message.seats.filter((seat) => !seat.bot && !seat.yours);
  const box = $("invite");
  if (!Object.keys(invites).length || message.outcome) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.replaceChildren(el("h2", { text: t("Invite") }));
  for (const seat of friendSeats) {
    const code = invites[seat.seat];
    if (seat.open && code) {
      const link = `${location.origin}/table/${tableId}#invite=${code}`;
      const input = el("input", { readonly: "", value: link, "aria-label": t("join link for {name}", { name: seat.name }) });
      input.addEventListener("focus", () => input.select());
      box.append(el("p", { text: t("Send this link to the player of {name} (it seats one person, once):", { name: seat.name }) }), input);
    } else {
      const said = seat.open ? t("{name} waits for a player.", { name: seat.name })
        : seat.present ? t("{name} has joined.", { name: seat.name }) : t("{name} has joined (away now).", { name: seat.name });
      box.append(el("p", { text: said }));
    }
    if (seat.open || !seat.present) {
      box.append(
        el("button", {
          type: "button",
          text: t("New link for {name}", { name: seat.name }),
          "data-seat": seat.seat,
          onclick: () => reinvite(seat.seat),
        }),
      );
    }
  }
}

// issue 31: the creator gives a lobby seat nobody took to a bot level. The server allows it
// once the seat has waited a minute and says how long is left before then.
const LEVELS = ["easy", "medium", "hard"];

function drawGiveSeats() {
  const box = $("give-seats");
  const open = Array.isArray(message.options.open) ? message.options.open : [];
  if (!tokenFor(tableId)?.creator || !open.length || message.outcome) {
    box.hidden = true;
    box.dataset.seats = "";
    return;
  }
  box.hidden = false;
  if (box.dataset.seats === open.join(",")) return; // keep a chosen level across state messages
  box.dataset.seats = open.join(",");
  box.replaceChildren(el("h2", { text: t("Seats nobody took") }),
    el("p", { class: "muted", text: t("A seat that has waited a minute for a player can go to a bot.") }));
  for (const seat of open) {
    const name = message.seats[seat]?.name || t("Seat {number}", { number: seat + 1 });
    const select = el("select", { "aria-label": t("bot level for {name}", { name }) });
    for (const level of LEVELS) select.append(new Option(botName(level), level));
    select.value = "medium";
    box.append(el("p", {},
      select,
      el("button", {
        type: "button",
        text: t("Give {name} to the bot", { name }),
        "data-seat": seat,
        onclick: () => giveSeat(seat, select.value),
      })));
  }
}

async function giveSeat(seat, level) {
  try {
    await api("POST", `/api/tables/${tableId}/bot`, { token, seat, level });
    showError("");
  } catch (error) {
    showError(error.message);
  }
}

async function reinvite(seat) {
  try {
    const made = await api("POST", `/api/tables/${tableId}/invite`, { token, seat });
    const entry = tokenFor(tableId);
    remember(tableId, entry.token, { ...(entry.invites || {}), [seat]: made.invite });
    showError("");
    drawInvites();
  } catch (error) {
    showError(error.message);
  }
}

// Someone opened an invitation link: say which seat it opens, and take it on a click (a link
// previewer that opens the page takes nothing).
async function join(invite) {
  const box = $("join");
  box.hidden = false;
  let info;
  try {
    info = await api("GET", `/api/tables/${tableId}/invitation`, undefined, undefined, { "X-Fanfold-Invite": invite });
  } catch (error) {
    $("join-text").textContent = error.message;
    return null;
  }
  $("join-title").textContent = t("{game}: you are invited", { game: info.game });
  $("join-text").textContent = t("You are invited to play {name} at this {game} table ({variant}).", { name: info.name, game: info.game, variant: variantWords(info.variant) });
  const notes = [];
  if (info.chosen_deal) notes.push(t("The deal was chosen by the table's creator, so this game is not counted as a fair one."));
  if (info.practice) notes.push(t("It is a practice table: moves can be taken back."));
  $("join-notes").textContent = notes.join(" ");
  const button = $("join-take");
  button.hidden = false;
  button.focus();
  return await new Promise((resolve) => {
    button.onclick = async () => {
      try {
        const claimed = await api("POST", `/api/tables/${tableId}/claim`, { invite });
        remember(tableId, claimed.token);
        history.replaceState(null, "", `${location.pathname}${location.search}#token=${claimed.token}`);
        box.hidden = true;
        resolve(claimed.token);
      } catch (error) {
        $("join-text").textContent = error.message;
        button.hidden = true;
      }
    };
  });
}

function statusText() {
  const m = message;
  if (m.outcome) return ""; // the end panel tells how it ended
  if (m.decider === null) return "";
  if (m.thinking !== null && m.thinking !== undefined) return t("{name} is thinking…", { name: seatName(m.thinking) });
  if (m.decider === m.seat) return m.seats.length > 1 ? t("Your move, {name}.", { name: seatName(m.seat) }) : t("Your move.");
  const who = m.seats[m.decider];
  return who.bot ? t("{name} ({bot}) to play…", { name: seatName(m.decider), bot: botName(who.player) }) : t("Waiting for {name}…", { name: seatName(m.decider) });
}

function draw() {
  const m = message;
  const status = $("status");
  status.textContent = statusText();
  status.classList.toggle("your-turn", m.decider !== null && m.decider === m.seat);
  drawSeats();
  drawInvites();
  drawGiveSeats();
  drawLog(m.log);
  drawControls();
  if (m.outcome) $("analysis").hidden = true;
  drawEnd(m);
  const analysis = analysisData && analysisData.version === m.version ? analysisData.data : null;
  renderer.render($("game"), m, { act, seatName, analysis, replay: false });
  markLastMove(m.log);
  markHint(analysis);
  if (analysisMode && !analysis && !analysisPending && m.decider !== null && m.yours.includes(m.decider)) {
    runAnalysis("values", true);
  }
}

// ---------------------------------------------------------------- keyboard
// Every game is played by keyboard alone: what can be chosen on the board is focusable (Tab,
// or the arrow keys among the board's choices), Enter or Space chooses it, Escape lets go of a
// selection. The board is drawn anew at every change, so the focus moves to the same thing
// drawn again (or to the board's first choice, when it was played), never to the page's top.
let boardFocused = false; // the focus is on the board
let boardKey = null; // what on the board has it

const FOCUSABLE = '[tabindex="0"], button:not([disabled]), a[href], input:not([disabled]), select:not([disabled])';

function focusKey(node) {
  for (const name of ["data-focus", "data-ref", "data-action", "data-shape", "data-point", "data-pile"]) {
    const value = node.getAttribute?.(name);
    if (value) return `${name}=${value}`;
  }
  return null;
}

function boardChoices() {
  return [...$("game").querySelectorAll(FOCUSABLE)].filter((node) => node.getClientRects().length);
}

// After the board is drawn again: the focus back where it was, if it was on the board. When
// the game has just ended, nothing is left to play there: the focus goes once to the end
// panel's title (it says who won; Tab goes on to its Rematch button), never to the board drawn
// as a whole.
let endFocused = false;
function keepBoardFocus() {
  const game = $("game");
  if (!boardFocused || game.contains(document.activeElement) && document.activeElement !== game) return;
  if (message?.outcome && !$("outcome").hidden && !endFocused) {
    endFocused = true;
    boardFocused = false;
    $("end-title").focus();
    return;
  }
  const choices = boardChoices();
  const again = boardKey ? choices.find((node) => focusKey(node) === boardKey) : null;
  const next = again || choices[0];
  if (next) next.focus({ preventScroll: true });
  else if (document.activeElement !== game) game.focus({ preventScroll: true });
}

function onBoardKey(event) {
  if (event.key === "Escape") {
    if (renderer?.cancel?.() && message) {
      event.preventDefault();
      draw();
    }
    return;
  }
  arrowFocus(event, boardChoices);
}

// The signed-in players' names by seat (GET /api/tables/ID/players): read when the page
// opens, and again when a person's seat not asked about yet is first held by a connection (a
// seat taken from the lobby or by an invitation); a seat whose invitation is made again is
// asked about again. So a page asks a few times at most, however often players come and go.
let accountNames = {};
let namesAsked = null;
function readNames() {
  const people = message.seats.filter((s) => !s.bot);
  for (const seat of people.filter((s) => s.open)) {
    namesAsked?.delete(seat.seat);
    delete accountNames[seat.seat];
  }
  const fresh = namesAsked === null
    ? people.filter((s) => !s.open)
    : people.filter((s) => !s.open && s.present && !namesAsked.has(s.seat));
  if (namesAsked !== null && !fresh.length) return;
  namesAsked ??= new Set();
  for (const seat of fresh) namesAsked.add(seat.seat);
  api("GET", `/api/tables/${tableId}/players`)
    .then((found) => {
      accountNames = Object.fromEntries(found.seats.map((s) => [s.seat, s.name]));
      // a seat nobody held yet: ask again once a connection holds it
      for (const seat of fresh) if (!seat.present && !(seat.seat in accountNames)) namesAsked.delete(seat.seat);
      drawSeats();
      // a takeback's words name the players: said again with their names
      if ($("takeback-asked") || $("takeback-waiting")) drawControls();
    })
    .catch(() => { for (const seat of fresh) namesAsked.delete(seat.seat); });
}

function drawSeats() {
  const list = $("seats");
  list.replaceChildren();
  // a narrow screen's copy of the clocks above the board (the Seats panel is far below it)
  const strip = $("board-clocks");
  strip.replaceChildren();
  readNames();
  message.seats.forEach((seat) => {
    const person = accountNames[seat.seat] ?? t("player");
    const who = seat.bot ? botName(seat.player) : seat.yours ? t("you") : seat.open ? t("invited, not here yet") : person;
    const li = el("li", { text: t("{seat}: {who}", { seat: seat.name, who }) });
    if (message.decider === seat.seat) li.classList.add("deciding");
    const left = message.clocks?.left?.[seat.seat];
    if (left !== null && left !== undefined) {
      const shown = el("span", { class: "seat-clock", "data-seat": String(seat.seat), text: clockText(left) });
      if (message.clocks.running === seat.seat && !message.outcome) shown.classList.add("running");
      li.append(" ", shown);
      const copy = el("span", { class: "board-clock", "data-seat": String(seat.seat) },
        `${seat.name} `, el("span", { class: "board-clock-time", text: clockText(left) }));
      if (shown.classList.contains("running")) copy.classList.add("running");
      strip.append(copy);
    }
    list.append(li);
  });
  tickClocks();
}

// Chess clocks: the running one counts down here between the server's messages.
let clockTimer = null;
function clockText(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  if (whole >= 86400) return t("{days} d {hours} h", { days: Math.floor(whole / 86400), hours: Math.floor((whole % 86400) / 3600) });
  if (whole >= 3600) return `${Math.floor(whole / 3600)}:${String(Math.floor((whole % 3600) / 60)).padStart(2, "0")}:${String(whole % 60).padStart(2, "0")}`;
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}
function tickClocks() {
  clearInterval(clockTimer);
  const clocks = message?.clocks;
  if (!clocks || clocks.running === null || message.outcome) return;
  const started = Date.now();
  const from = clocks.left[clocks.running];
  const shown = message;
  clockTimer = setInterval(() => {
    if (message !== shown) { clearInterval(clockTimer); return; }
    const text = clockText(from - (Date.now() - started) / 1000);
    const node = document.querySelector(`.seat-clock[data-seat="${clocks.running}"]`);
    if (node) node.textContent = text;
    const copy = document.querySelector(`.board-clock[data-seat="${clocks.running}"] .board-clock-time`);
    if (copy) copy.textContent = text;
  }, 250);
}

// Each move in words, as the server wrote it for this watcher (the notation in a tooltip); the
// last one stands out, and is said aloud to screen readers.
function drawLog(log) {
  const box = $("log");
  box.replaceChildren();
  for (const entry of log) {
    const item = el("li", { text: saidText(entry.said, entry.words) || `${seatName(entry.seat)}: ${entry.text}`, title: entry.text });
    box.append(item);
  }
  box.lastElementChild?.classList.add("last");
  box.style.setProperty("--digits", String(String(log.length).length)); // room for "113."
  box.scrollTop = box.scrollHeight;
  const last = log[log.length - 1];
  $("last-move").textContent = last ? saidText(last.said, last.words) || last.text : "";
  $("last-move").hidden = Boolean(message?.outcome) && !replayMode; // the end panel says it
}

// The last move on the board: every drawn thing whose reference it names (lichess's last-move
// squares).
function markLastMove(log) {
  const last = log.length ? log[log.length - 1] : null;
  for (const ref of last?.highlight || []) {
    for (const node of $("game").querySelectorAll("[data-ref]")) {
      if (node.getAttribute("data-ref") === ref) node.classList.add("last-move");
    }
  }
}

// A hint on the board: the places its move names (Fan: the fan it leaves, where it goes).
function markHint(analysis) {
  for (const ref of analysis?.points || []) {
    for (const node of $("game").querySelectorAll("[data-ref]")) {
      if (node.getAttribute("data-ref") !== ref) continue;
      node.classList.add("hinted");
      // the word the style sheet draws: after the place's label where it has one ("fan 8
      // hint"), so that neither covers the other; else above the place
      const label = node.previousElementSibling;
      if (label?.classList.contains("board-label")) label.dataset.hint = t("hint");
      else node.dataset.hint = t("hint");
    }
  }
}

// How a game ended, words for each termination the games give (outcome.termination).
const ENDINGS = {
  promotions: () => t("a commander promoted the times the variant needs"),
  turn_limit: () => t("the turn limit was reached"),
  went_out: () => t("a player went out"),
  hands_played: () => t("the match's last hand was played"),
  target_reached: () => t("a score reached the match's target"),
  line_of_three: () => t("three of one colour or one shape on a line"),
  repetition: () => t("a position repeated"),
  no_move: () => t("no legal move was left"),
  all_on_foundations: () => t("every card is on the foundations"),
  cut_short: () => t("the game was stopped at its length limit"),
};

// One sentence for how the game ended: the game's own reason (it names who and how), or the
// termination's words when a record gives none; a patience deal's "won: "/"lost: " is left to
// the panel's title, which says it already.
function endSentence(o, alone) {
  const patience = alone && ["words.won", "words.lost"].includes(o.said?.code);
  const said = patience ? o.said.params.why : o.said;
  let text = (saidText(said, o.reason) || ENDINGS[o.termination]?.() || "").trim();
  if (alone) text = text.replace(/^(won|lost): /, "");
  if (!text) return "";
  text = `${text[0].toUpperCase()}${text.slice(1)}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

// The end panel, from the watcher's side: won, lost or drawn and why, each seat's result, and
// what to do next.
function drawEnd(m) {
  const box = $("outcome");
  box.hidden = !m.outcome;
  if (!m.outcome) return;
  const o = m.outcome;
  const mine = m.seat !== null && m.seat !== undefined ? m.seat : null;
  let title;
  const winners = o.winners.map(seatName).join(t(" and "));
  if (m.seats.length === 1) title = o.winners.length ? t("You won!") : t("Not this time");
  else if (!o.winners.length) title = t("A draw");
  else if (mine !== null && o.winners.includes(mine)) title = t("You won!");
  else if (mine !== null) title = t("You lost: {winners} won", { winners });
  else title = t("{winners} won", { winners });
  const hadFocus = document.activeElement?.id === "end-title"; // drawn again: it keeps it
  box.replaceChildren(el("h2", { id: "end-title", tabindex: "-1", text: title }));
  if (hadFocus) $("end-title").focus({ preventScroll: true });
  box.append(el("p", { id: "end-reason", text: endSentence(o, m.seats.length === 1) }));
  // the game's own words on why the others did not win (Fano's "All for one": partners named)
  const [why, ...others] = renderer?.endNotes?.(m, { seatName }) || [];
  if (why) box.append(el("p", { class: "end-why", id: "end-why", text: why }));
  if (others.length) box.append(el("ul", { class: "end-why", "aria-label": t("the others") }, ...others.map((line) => el("li", { text: line }))));
  if (m.seats.length > 1) {
    const list = el("ul", { class: "end-scores", "aria-label": t("results") });
    o.returns.forEach((value, seat) => {
      const won = o.winners.includes(seat) ? t(" · winner") : "";
      const who = seat === mine ? t("{name} (you)", { name: seatName(seat) }) : seatName(seat);
      list.append(el("li", { text: `${who}: ${value > 0 ? "+" : ""}${value}${won}` }));
    });
    box.append(list);
  }
  drawRatings(m, box);
  const buttons = el("div", { class: "buttons" });
  // A rematch: the same people one seat on (two players swap colours), or at the same seats,
  // a new deal (for patience: the next deal).
  const alone = m.seats.length === 1;
  const again = alone ? t("Next deal") : t("Rematch");
  if (m.rematch && (m.rematch.seats.length || !m.yours.length)) {
    const where = m.rematch.seats.length
      ? (alone ? t("Next deal: take your seat") : t("Rematch: take your seat"))
      : (alone ? t("Watch the next deal") : t("Watch the rematch"));
    buttons.append(el("a", { class: "button primary", id: "rematch", href: rematchLink(m.rematch.table), text: where }));
  } else if (m.yours.length && m.seats.length === 1) {
    buttons.append(el("button", { type: "button", class: "primary", id: "rematch", text: again, onclick: () => rematch("swapped") }));
  } else if (m.yours.length) {
    const moved = m.seats.length === 2 ? t("Rematch, sides swapped") : t("Rematch, everyone one seat on");
    buttons.append(
      el("button", { type: "button", class: "primary", id: "rematch", text: moved, onclick: () => rematch("swapped") }),
      el("button", { type: "button", id: "rematch-same", text: t("Rematch, same seats"), onclick: () => rematch("same") }),
    );
  }
  buttons.append(el("a", { class: "button", href: `/table/${tableId}?replay=1`, text: t("Replay") }));
  // The engines review every game: Morris and Fan exactly, Fano and Fan Tan from each human
  // seat's view (a variant they do not cover says so on the review).
  buttons.append(el("a", { class: "button", id: "review-link", href: `/table/${tableId}/review`, text: t("Review") }));
  buttons.append(el("a", { class: "button", href: "/", text: t("New game") }));
  box.append(buttons);
}

// A rated game's rating changes, read once the game is over (the end and the ratings are
// stored together) and drawn in the end panel each time it is drawn again.
let endRatings = null;
function drawRatings(m, box) {
  if (!m.options.rated) return;
  if (endRatings === null) {
    endRatings = "asking";
    api("GET", `/api/tables/${tableId}/ratings`)
      .then((found) => {
        endRatings = found;
        if (message?.outcome) drawEnd(message);
      })
      .catch(() => { endRatings = null; });
    return;
  }
  if (endRatings === "asking" || !endRatings.changes.length) return;
  const list = el("ul", { class: "end-ratings", "aria-label": t("rating changes") });
  for (const change of endRatings.changes) {
    const moved = change.after - change.before;
    const item = el("li", {});
    const you = change.seat === m.seat ? t(" (you)") : "";
    item.append(
      el("a", { href: change.page, text: change.name }),
      `${you}: ${change.before} → ${change.after} `
        + `(${moved >= 0 ? "+" : ""}${moved}), ± ${change.uncertainty}`,
    );
    list.append(item);
  }
  box.append(el("h3", { text: t("Ratings") }), list);
}

// The rematch's page, with this browser's own link (its token holds its seat there too).
function rematchLink(table) {
  if (!token) return `/table/${table}`;
  remember(table, token);
  return `/table/${table}#token=${token}`;
}

async function rematch(seats) {
  try {
    const made = await api("POST", `/api/tables/${tableId}/rematch`, { token, seats });
    location.assign(rematchLink(made.table));
  } catch (error) {
    showError(error.message);
  }
}

// Whether the table offers undo at all (hub/opening.py): every person's seat is this page's
// (solo against bots, hot-seat), no card is hidden unless the table is for practice, and the
// game is not rated. Elsewhere the button could never serve, so it is not drawn; where it is
// drawn, the state's can_undo says whether there is a move of a person's to take back now.
function undoOffered(m) {
  return !m.options.rated && (!m.hidden_information || Boolean(m.options.practice))
    && m.seats.every((seat) => seat.bot || seat.yours);
}

function drawControls() {
  const box = $("controls");
  box.replaceChildren();
  const m = message;
  if (m.yours.length && !m.outcome && undoOffered(m)) {
    box.append(
      el("button", { type: "button", id: "undo", text: t("Undo"), onclick: () => send({ type: "undo", version: m.version }) }),
    );
    $("undo").disabled = !m.can_undo;
  }
  box.append(...takebackControls(m, { tableId, token, playerName, showError }));
  for (const ending of m.endings || []) box.append(endingButton(m, ending));
  if (m.claim && m.claim.left > 0 && !m.outcome) box.append(claimCountdown(m));
  for (const analysis of m.outcome ? [] : m.analyses) {
    box.append(
      el("button", { type: "button", "data-analysis": analysis.name, title: analysis.help, text: label(analysis.name), onclick: () => runAnalysis(analysis.name) }),
    );
  }
  // A rated game's record waits for its end (no analysis elsewhere of a game in play).
  const recordReady = m.outcome || (!m.hidden_information && !m.options.rated);
  if (recordReady) {
    box.append(el("a", { href: `/api/tables/${tableId}/record`, download: "", id: "download", text: t("Download record") }));
  }
  if (m.outcome) box.append(el("a", { href: `/table/${tableId}?replay=1`, id: "replay-link", text: t("Replay") }));
  if (m.outcome && !m.hidden_information) box.append(el("a", { href: `/table/${tableId}/review`, id: "review-panel-link", text: t("Review") }));
  drawShare(m, box);
}

// Share links: a finished game's replay; a position (the replay at this move) where everyone
// may see it now: a game without hidden cards that is over, or not rated.
function drawShare(m, box) {
  if (m.outcome) box.append(copyButton("share-game", t("Copy link to the game"), () => gameLink(tableId)));
  if (!m.hidden_information && (m.outcome || !m.options.rated)) {
    const moves = m.log.length;
    box.append(copyButton("share-position", t("Copy link to this position"), () => positionLink(tableId, moves)));
  }
}

// Resign, draw and abort: resign and abort ask once more before they end the game.
function endingButton(m, ending) {
  const offer = m.options.draw_offer;
  const mine = typeof offer === "number" && m.yours.includes(offer);
  const words = {
    claim: t("Claim victory"),
    leave: t("Leave the game"),
    resign: t("Resign"),
    abort: t("Abort game"),
    draw: typeof offer === "number" && !mine ? t("Accept {name}'s draw offer", { name: seatName(offer) }) : t("Offer a draw"),
  }[ending];
  const button = el("button", { type: "button", id: `end-${ending}`, text: words });
  if (ending === "draw" && mine) {
    button.textContent = t("Draw offered");
    button.disabled = true;
    return button;
  }
  button.onclick = () => {
    if (ending !== "draw" && button.dataset.sure !== "1") {
      button.dataset.sure = "1";
      button.textContent = { resign: t("Really resign?"), abort: t("Really abort?"), claim: t("Really claim?"), leave: t("Really leave? A bot plays on") }[ending];
      return;
    }
    showError("");
    send({ type: "end", ending, version: m.version, seat: m.seat });
  };
  return button;
}

// The other side left: a countdown, then the win may be claimed (the server checks it).
let claimTimer = null;
function claimCountdown(m) {
  const line = el("p", { id: "claim-countdown", role: "status" });
  const until = Date.now() + m.claim.left * 1000;
  clearInterval(claimTimer);
  const tick = () => {
    const left = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    if (message !== m) { clearInterval(claimTimer); return; }
    if (left > 0) {
      line.textContent = t("The other side left the table: you may claim the win in {seconds} s.", { seconds: left });
      return;
    }
    clearInterval(claimTimer);
    line.replaceWith(endingButton(m, "claim"));
  };
  tick();
  claimTimer = setInterval(tick, 1000);
  return line;
}

function label(name) {
  return { hint: t("Hint"), winnable: t("Still winnable?"), values: t("Analysis") }[name] || name;
}

async function runAnalysis(name, again = false) {
  const out = $("analysis");
  if (name === "values" && !again) {
    analysisMode = !analysisMode;
    if (!analysisMode) {
      analysisData = null;
      out.hidden = true;
      draw();
      return;
    }
  }
  out.hidden = false;
  out.textContent = t("Thinking…");
  analysisPending = true;
  try {
    const result = await api("GET", `/api/tables/${tableId}/analysis/${name}`, undefined, token);
    // a hint's move in words, as the board's buttons say it (the text adds its notation)
    out.textContent = result.data?.label ? t("Try {move}.", { move: saidText(result.data.said, result.data.label) }) : result.data ? result.text.split("\n")[0] : result.text;
    if (result.data) {
      analysisData = { version: result.version, data: result.data };
      if (result.version === message.version) draw();
    }
  } catch (error) {
    out.textContent = error.message;
  } finally {
    analysisPending = false;
  }
}

// ------------------------------------------------------------------ replay
async function replay() {
  $("replay-bar").hidden = false;
  const spectator = await api("GET", `/api/tables/${tableId}`).catch(() => null);
  // Beside a review (which judges a seat from its view), the seat this browser's token held: the
  // replay is drawn from its side (its own cards), and says so; a plain replay, and everyone
  // else, show the public view.
  // The seats this browser held are "you" in the seat list, as they were at the live table.
  const mine = token ? await api("GET", `/api/tables/${tableId}`, undefined, token).catch(() => null) : null;
  keepLinkToken(mine?.yours);
  const held = reviewMode ? mine : null;
  const seat = Number.isInteger(held?.seat) && held.yours?.includes(held.seat) ? held.seat : null;
  const side = seat === null ? "" : `&seat=${seat}`;
  const first = await api("GET", `/api/tables/${tableId}/replay?step=0${side}`);
  message = wordSeats(spectator) || { seats: [], game: { title: t("Replay"), name: "" }, options: {} };
  if (spectator) {
    setUpPage();
    // who sat where, without the live table's turn or clocks (the replay is at another move)
    message.decider = null;
    message.clocks = null;
    const yours = Array.isArray(mine?.yours) ? mine.yours : [];
    message.seats = message.seats.map((one) => ({ ...one, yours: yours.includes(one.seat) }));
    drawSeats();
  }
  if (seat !== null) $("replay-bar").append(el("span", { id: "replay-seat", text: t("You played as {name}.", { name: seatName(seat) }) }));
  const slider = $("replay-step");
  slider.max = String(first.steps);
  async function show(step) {
    step = Math.max(0, Math.min(first.steps, step));
    slider.value = String(step);
    const frame = await api("GET", `/api/tables/${tableId}/replay?step=${step}${side}`);
    $("replay-label").textContent = t("move {step} of {steps}", { step, steps: frame.steps });
    $("status").textContent = step === frame.steps && frame.outcome ? saidText(frame.outcome.said, frame.outcome.reason) : t("Replay: after move {step}", { step });
    drawLog(frame.log);
    // the log up to this move: a board that tells each seat's last action reads it from here
    const fake = { ...message, view: frame.view, text: frame.text, log: frame.log, legal: [], choices: [], decider: null, seat, outcome: null };
    renderer.render($("game"), fake, { act: () => {}, seatName, analysis: null, replay: true });
    markLastMove(frame.log);
  }
  $("replay-first").onclick = () => show(0);
  $("replay-prev").onclick = () => show(Number(slider.value) - 1);
  $("replay-next").onclick = () => show(Number(slider.value) + 1);
  $("replay-last").onclick = () => show(first.steps);
  slider.oninput = () => show(Number(slider.value));
  const start = startMove(params, first.steps);
  if (start.error) showError(start.error);
  await show(start.move);
  const over = Boolean(spectator?.outcome);
  if (over) $("replay-bar").append(copyButton("share-game", t("Copy link to the game"), () => gameLink(tableId)));
  $("replay-bar").append(copyButton("share-position", t("Copy link to this move"), () => positionLink(tableId, Number(slider.value))));
  if (reviewMode) {
    const { setUpReview } = await import("./review.js");
    await setUpReview(tableId, $("review"), show);
  } else if (spectator) {
    $("replay-bar").append(el("a", { href: `/table/${tableId}/review`, id: "replay-review-link", text: t("Review") }));
  }
}

async function main() {
  let name = "generic";
  $("game").setAttribute("tabindex", "-1");
  $("game").addEventListener("keydown", onBoardKey);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !$("game").contains(event.target)) onBoardKey(event);
  });
  document.addEventListener("focusin", (event) => {
    boardFocused = $("game").contains(event.target);
    if (boardFocused && event.target !== $("game")) boardKey = focusKey(event.target);
  });
  new MutationObserver(keepBoardFocus).observe($("game"), { childList: true, subtree: true });
  if (replayMode) {
    try {
      name = (await api("GET", `/api/tables/${tableId}/replay?step=0`)).game;
    } catch (error) {
      $("status").textContent = error.message;
      return;
    }
    renderer = await loadRenderer(name);
    replay().catch((error) => showError(error.message));
    return;
  }
  const invite = fragment.get("invite");
  if (invite) {
    const claimed = await join(invite);
    if (!claimed) return;
    token = claimed;
  }
  try {
    const state = await loadTable();
    name = state.game.name;
  } catch (error) {
    $("status").textContent = error.message;
    return;
  }
  renderer = await loadRenderer(name);
  connect();
}

// The table's first load. A refusal that says when to ask again (the server busy, or this
// address over its requests a minute: 429 or 503 with Retry-After) is shown with a countdown,
// then the page asks again, at most LOAD_TRIES times in all; any other refusal stops it.
const LOAD_TRIES = 4;

async function loadTable() {
  for (let tries = 1; ; tries += 1) {
    try {
      return await api("GET", `/api/tables/${tableId}`, undefined, token);
    } catch (error) {
      const wait = retryWait(error);
      if (wait === null || tries >= LOAD_TRIES) throw error;
      for (let left = wait; left > 0; left -= 1) {
        $("status").textContent = t("{refusal}: asking again in {seconds} s…", { refusal: error.message, seconds: left });
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      $("status").textContent = t("Asking again…");
    }
  }
}

main();
