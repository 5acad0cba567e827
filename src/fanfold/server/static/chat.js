// Chat at the table (fanfold.server.chat): the room this page reads (the players' for a seat,
// the spectators' for a spectator), its last lines on (re)connecting, new lines as they come,
// the preset phrases where only they may be said, muting a person (remembered in this
// browser), reporting a line (neither offered on this page's own lines: its seats', or a
// signed-in spectator's), and a switch that turns chat off (nothing shown). Every line is
// put in with textContent: a player's words are text, never markup.
import { api, el, t } from "./common.js";
import { phraseWords } from "./phrases.js";

const MUTED = "fanfold.chat.muted";
const OFF = "fanfold.chat.off";
const MAX_TEXT = 300;

function mutedNames() {
  try {
    const names = JSON.parse(localStorage.getItem(MUTED) || "[]");
    return new Set(Array.isArray(names) ? names.filter((name) => typeof name === "string") : []);
  } catch {
    return new Set();
  }
}

function saveMuted(names) {
  localStorage.setItem(MUTED, JSON.stringify([...names].sort()));
}

// options: tableId, send(message), token() (the seat's token, or null), yours() (the seats
// this page holds).
export function setUpChat(options) {
  const $ = (id) => document.getElementById(id);
  const panel = $("chat");
  const body = $("chat-body");
  const log = $("chat-log");
  const logBox = $("chat-log-box");
  const form = $("chat-form");
  const input = $("chat-input");
  const phrases = $("chat-phrases");
  const note = $("chat-note");
  const said = $("chat-said");
  const mutedBox = $("chat-muted");
  const toggle = $("chat-on");
  const count = $("chat-count");
  const send = $("chat-send");

  // A line is at most MAX_TEXT characters (the server's limit): nothing typed or pasted is cut
  // off; near the limit a counter says how many are left, and past it a sentence says so and
  // Send waits until the line is short enough.
  function countCharacters() {
    const length = [...input.value.trim()].length;
    const tooLong = length > MAX_TEXT;
    count.classList.toggle("error", tooLong);
    send.disabled = tooLong;
    if (tooLong) {
      count.textContent = t("A message holds at most {limit} characters: this one has {count}.", { limit: MAX_TEXT, count: length });
    } else if (length > MAX_TEXT - 50) {
      count.textContent = t("{count} of {limit} characters", { count: length, limit: MAX_TEXT });
    } else {
      count.textContent = "";
    }
  }
  input.addEventListener("input", countCharacters);

  let room = null; // the last chat_room message
  let over = false; // the game ended: free text again at any table
  let lines = []; // the room's lines, oldest first (kept while chat is off, not shown)
  let muted = mutedNames();
  let seats = null; // how many seats the table has (its state's): alone at a table, no players' room
  let me = null; // the signed-in account's name: a spectator's own lines are said under it
  api("GET", "/api/account")
    .then((account) => {
      me = account.signed_in ? account.name : null;
      if (me !== null) render();
    })
    .catch(() => {}); // not known: every spectator's line keeps its buttons

  function on() {
    return toggle.checked;
  }

  function presetsOnly() {
    return Boolean(room?.presets_only) && !over;
  }

  function lineItem(line) {
    const item = el("li", { class: "chat-line" });
    item.dataset.id = String(line.id);
    const who = el("span", { class: "chat-name", text: line.name, translate: "no" });
    // a player's words are data; a preset phrase is said in the reader's language
    const text = line.phrase
      ? el("span", { class: "chat-text chat-phrase", text: phraseWords(line.phrase, line.text) })
      : el("span", { class: "chat-text", text: line.text, translate: "no" });
    item.append(who, ": ", text);
    const actions = el("span", { class: "chat-actions" });
    const mine =
      line.seat === null ? me !== null && line.name === me : options.yours().includes(line.seat);
    if (!mine) {
      actions.append(
        el("button", { type: "button", class: "link-button", "aria-label": t("Mute {name}", { name: line.name }), onclick: () => mute(line.name) }, t("Mute")),
        " ",
        el("button", { type: "button", class: "link-button", "aria-label": t("Report {name}'s line", { name: line.name }), onclick: () => report(line) }, t("Report")),
      );
    }
    if (actions.childElementCount) item.append(" ", actions);
    return item;
  }

  function render() {
    body.hidden = !on();
    if (!on()) {
      log.replaceChildren();
      return;
    }
    log.replaceChildren(...lines.filter((line) => !muted.has(line.name)).map(lineItem));
    logBox.scrollTop = logBox.scrollHeight;
    mutedBox.replaceChildren();
    if (muted.size) {
      mutedBox.append(t("Muted: "));
      for (const name of muted) {
        mutedBox.append(
          el("button", { type: "button", class: "link-button", "aria-label": t("Unmute {name}", { name }), onclick: () => unmute(name), translate: "no" }, name),
          " ",
        );
      }
    }
    mutedBox.hidden = muted.size === 0;
    drawInput();
  }

  function drawInput() {
    if (!room) return;
    const writable = room.writable;
    form.hidden = !writable || presetsOnly();
    phrases.hidden = !writable || !presetsOnly();
    if (writable && presetsOnly() && !phrases.childElementCount) {
      // the English words are what is said (any server takes them); the button words them
      room.phrases.forEach((phrase, index) => {
        const key = (room.phrase_keys || [])[index];
        phrases.append(el("button", { type: "button", onclick: () => say(phrase) }, phraseWords(key, phrase)));
      });
    }
    let words;
    if (room.room === "players") {
      words = t("Everyone at the table reads this room.");
      if (presetsOnly()) words += t(" At a rated table of three or more, only these phrases until the game ends.");
    } else {
      words = t("The spectators' room: the players do not see it.");
      if (!writable) words += t(" Sign in to write here.");
    }
    note.textContent = words;
  }

  function say(text) {
    if (!room) return;
    said.textContent = "";
    options.send({ type: "chat", room: room.room, text });
  }

  function mute(name) {
    muted.add(name);
    saveMuted(muted);
    said.textContent = t("{name} is muted: their lines are hidden.", { name });
    render();
  }

  function unmute(name) {
    muted.delete(name);
    saveMuted(muted);
    said.textContent = t("{name} is no longer muted.", { name });
    render();
  }

  async function report(line) {
    try {
      await api("POST", `/api/tables/${options.tableId}/chat/${line.id}/report`, { note: "" }, options.token());
      said.textContent = t("Reported {name}'s line; the moderators will read it.", { name: line.name });
    } catch (error) {
      said.textContent = error.message;
    }
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || [...text].length > MAX_TEXT) return;
    say(text);
    input.value = "";
    countCharacters();
  });

  toggle.checked = localStorage.getItem(OFF) !== "1";
  toggle.addEventListener("change", () => {
    localStorage.setItem(OFF, on() ? "0" : "1");
    render();
  });
  addEventListener("storage", (event) => {
    if (event.key === MUTED) {
      muted = mutedNames();
      render();
    }
  });

  // The panel shows once a room is known, but not the players' room of a table of one seat:
  // nobody else sits there to read it (a spectator's room shows as before).
  function showPanel() {
    panel.hidden = !room || (room.room === "players" && seats === 1);
  }

  return {
    // A chat or chat_room message from the socket.
    receive(data) {
      if (data.type === "chat_room") {
        room = data;
        lines = data.lines.slice();
        phrases.replaceChildren();
        showPanel();
        render();
      } else if (data.type === "chat" && room && data.room === room.room) {
        if (lines.some((line) => line.id === data.line.id)) return;
        lines.push(data.line);
        lines = lines.slice(-200);
        if (!on() || muted.has(data.line.name)) return;
        log.append(lineItem(data.line));
        logBox.scrollTop = logBox.scrollHeight;
      }
    },
    // A refusal of a line (shown beside the chat, not as the table's error).
    refused(text) {
      said.textContent = text;
    },
    // The table's state: the game's end brings free text back.
    onState(state) {
      seats = Array.isArray(state.seats) ? state.seats.length : null;
      showPanel();
      const ended = state.outcome !== null && state.outcome !== undefined;
      if (ended !== over) {
        over = ended;
        if (on()) drawInput();
      }
    },
  };
}
