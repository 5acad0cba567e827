// The lobby's "Your move" badge: the signed-in player's unfinished games waiting for their
// move (GET /api/me/waiting; a guest gets none and sees no badge), a link in the header to the
// list of them under "Your move". Asked again every 45 s while the page is shown, whenever the
// lobby's live feed brings news (open-tables.js sends "lobby-feed"), and when the page is
// shown again. Each line links to its table; a daily game says the time its move has left.
import { api, el, saidText, t } from "/static/common.js";

const EVERY_MS = 45000;
// The live feed may bring news every few seconds: the badge asks at most this often for it.
const FEED_GAP_MS = 10000;
let lastAsked = 0;
const badge = document.getElementById("waiting-badge");
const section = document.getElementById("waiting");
const list = document.getElementById("waiting-list");
let asking = null;

function duration(seconds) {
  const s = Math.max(0, seconds);
  if (s < 60) return t("{count} s", { count: Math.floor(s) });
  if (s < 3600) return t("{count} min", { count: Math.floor(s / 60) });
  if (s < 2 * 86400) return t("{count} h", { count: Math.floor(s / 3600) });
  return t("{count} days", { count: Math.floor(s / 86400) });
}

function show(games) {
  const count = games.length;
  badge.hidden = count === 0;
  section.hidden = count === 0;
  badge.textContent = count === 1 ? t("1 game waits for your move") : t("{count} games wait for your move", { count });
  const now = Date.now() / 1000;
  list.replaceChildren(...games.map((game) => {
    // a guest and the bot levels in the page's words; the accounts' names as they are
    const named = game.opponents.map((name, i) => saidText(game.opponents_said?.[i], name));
    const others = named.length ? named.join(", ") : t("nobody else");
    const words = [t("waiting {time}", { time: duration(now - game.since) })];
    if (game.daily && game.left !== undefined) words.push(t("daily: {time} left", { time: duration(game.left) }));
    return el("li", {},
      el("a", { href: game.page, class: "waiting-game", text: t("{game} against {others}", { game: game.game, others }) }),
      `: ${words.join(", ")}`);
  }));
}

export async function refreshWaiting() {
  if (asking) return asking;
  lastAsked = Date.now();
  asking = api("GET", "/api/me/waiting")
    .then(show)
    .catch(() => {}) // the badge stays as it was; the next refresh tries again
    .finally(() => { asking = null; });
  return asking;
}

refreshWaiting();
setInterval(() => { if (!document.hidden) refreshWaiting(); }, EVERY_MS);
document.addEventListener("visibilitychange", () => { if (!document.hidden) refreshWaiting(); });
document.addEventListener("lobby-feed", () => {
  if (Date.now() - lastAsked >= FEED_GAP_MS) refreshWaiting();
});
