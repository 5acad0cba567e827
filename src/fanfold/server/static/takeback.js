// Takebacks at a casual table of two people (hub/takebacks.py): ask to take back your last
// move, or accept or decline the other player's request. The server decides; this draws the
// buttons where a request may be made and says what waits.
import { api, el, t } from "./common.js";

// Takebacks each player may ask for in one game (hub/takebacks.py LIMIT).
const LIMIT = 3;

// Whether the table takes takebacks: casual (on the clock or not: no time goes back), two
// people at their own links, no hidden cards, still being played.
function open(m) {
  return !m.outcome && !m.options.rated && !m.hidden_information
    && m.seats.length === 2 && m.yours.length === 1 && !m.seats.some((seat) => seat.bot || seat.open);
}

// The controls for the state message `m` (none where the table takes no takebacks). Each side
// is named by `playerName` (the signed-in player's name, else the seat's).
export function takebackControls(m, { tableId, token, playerName, showError }) {
  if (!open(m)) return [];
  const mine = m.yours[0];
  const waiting = m.options.takeback && m.options.takeback.version === m.version ? m.options.takeback.seat : null;
  const answer = (choice) => api("POST", `/api/tables/${tableId}/takeback`, { token, answer: choice }).catch((error) => showError(error.message));
  if (waiting === mine) {
    return [el("p", { id: "takeback-waiting", class: "takeback", text: t("Takeback asked: waiting for {name}'s answer", { name: playerName(1 - mine) }) })];
  }
  if (waiting !== null) {
    return [
      el("p", { id: "takeback-asked", class: "takeback", text: t("{name} asks to take back their last move", { name: playerName(waiting) }) }),
      el("button", { type: "button", class: "primary", id: "takeback-accept", text: t("Accept takeback"), onclick: () => answer("accept") }),
      el("button", { type: "button", id: "takeback-decline", text: t("Decline takeback"), onclick: () => answer("decline") }),
    ];
  }
  const asked = (m.options.takebacks || {})[String(mine)] || 0;
  const moved = m.log.some((entry) => entry.seat === mine);
  if (!moved || asked >= LIMIT) return [];
  return [el("button", { type: "button", id: "takeback-ask", text: t("Ask to take back my move"), onclick: () => answer("ask") })];
}
