// The lobby's "Seats to take": listed tables with open seats, asked for again every few
// seconds, each with a Join button that takes the seat and opens the table.
import { api, remember } from "/static/common.js";

const box = document.getElementById("open-seats");
const errors = document.getElementById("join-error");
const EVERY_MS = 4000;

async function join(line) {
  errors.textContent = "";
  try {
    const taken = await api("POST", `/api/tables/${line.table}/join`);
    remember(taken.table, taken.token, {}, `${line.game} (${line.variant || ""}), open seat`);
    location.href = `/table/${taken.table}#token=${taken.token}`;
  } catch (error) {
    errors.textContent = error.message;
    await refresh();
  }
}

async function refresh() {
  try {
    const lines = await api("GET", "/api/open-tables?limit=20");
    box.replaceChildren();
    for (const line of lines) {
      const li = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = "Join";
      button.addEventListener("click", () => join(line));
      const what = `${line.game}${line.variant ? ` (${line.variant})` : ""}, ${line.players} players, `
        + `${line.free} seat${line.free === 1 ? "" : "s"} free${line.rated ? ", rated" : ""} `;
      li.append(what, button);
      li.dataset.table = line.table;
      box.append(li);
    }
    if (!lines.length) box.innerHTML = '<li class="muted">No seat waits for a player now.</li>';
  } catch (error) {
    box.textContent = error.message;
  }
}

refresh();
setInterval(refresh, EVERY_MS);
