// Knowing it is your turn (issue 47): when a state message hands the move to one of this
// screen's seats after it was not, the tab's title says so, a short generated beep plays (Web
// Audio, once the page has had a first click or key, as browsers require) and, with the
// player's permission and while the tab is hidden, a browser notification shows (a click on it
// brings the tab forward). The title goes back once the move is made. The table page's
// "Alerts" panel turns the sound and the notifications on and off, remembered in this browser
// (like the theme, theme.js); notifications are asked for when turned on, and where a browser
// refuses them or has none, the box says so and stays off.
import { t } from "./common.js";

const KEY = "fanfold.alerts";
const DEFAULTS = { sound: true, notify: false };
const MARK = "● " + t("Your move") + " — ";

function load() {
  try {
    const found = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { sound: found.sound !== false, notify: found.notify === true };
  } catch {
    return { ...DEFAULTS }; // storage refused or spoilt: the defaults
  }
}

let settings = load();
let yourTurn = null; // unknown until the first state message
let audio = null; // the AudioContext, made at the first gesture
let gestured = false;
let shown = null; // the notification on screen, closed once the move is made

function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // not remembered: this page still follows the boxes
  }
}

function supported() {
  return typeof window.Notification === "function";
}

function permitted() {
  return supported() && Notification.permission === "granted";
}

// Browsers let a page's sound start only after a gesture on it: the first click or key makes
// (or wakes) the audio context.
function unlock() {
  gestured = true;
  if (!settings.sound) return;
  try {
    audio ??= new AudioContext();
    if (audio.state === "suspended") audio.resume().catch(() => {});
  } catch {
    audio = null; // no Web Audio: no sound
  }
}

function beep() {
  if (!settings.sound || !gestured) return;
  try {
    audio ??= new AudioContext();
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const level = audio.createGain();
    tone.type = "sine";
    tone.frequency.setValueAtTime(660, now);
    tone.frequency.setValueAtTime(880, now + 0.09);
    level.gain.setValueAtTime(0.0001, now);
    level.gain.exponentialRampToValueAtTime(0.18, now + 0.015);
    level.gain.exponentialRampToValueAtTime(0.0001, now + 0.22);
    tone.connect(level).connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.25);
  } catch {
    // no sound here: the title still says it
  }
}

function notify(body, tag) {
  if (!settings.notify || !document.hidden || !permitted()) return;
  try {
    shown?.close();
    const made = new Notification(t("Your move"), { body, tag, renotify: true });
    made.onclick = () => {
      window.focus();
      made.close();
    };
    shown = made;
  } catch {
    shown = null; // a browser that shows them only from a service worker: the title says it
  }
}

// Every state message (m) of a table, its title without the mark (base): the title, and the
// sound and notification when the move has just come to one of this screen's seats.
export function turnAlerts(m, base, table) {
  // hot-seat: every move is this screen's, and the cover says whose it is
  const mine = !m.outcome && !m.options?.hotseat && m.decider !== null && m.decider !== undefined
    && Array.isArray(m.yours) && m.yours.includes(m.decider);
  const came = mine && yourTurn === false;
  yourTurn = mine;
  document.title = mine ? `${MARK}${base}` : base;
  if (!mine) {
    shown?.close();
    shown = null;
  }
  if (came) {
    beep();
    notify(t("{game}: it is your move.", { game: base.replace(/: fanfold$/, "") }), `fanfold-turn-${table}`);
  }
}

// The Alerts panel (#alerts-panel): shown to a seated player only.
export function setUpAlerts(seated) {
  const panel = document.getElementById("alerts-panel");
  if (!panel) return;
  panel.hidden = !seated;
  const sound = document.getElementById("alert-sound");
  const box = document.getElementById("alert-notify");
  const said = document.getElementById("alerts-said");
  const show = () => {
    sound.checked = settings.sound;
    box.checked = settings.notify && permitted();
  };
  show();
  for (const kind of ["pointerdown", "keydown"]) addEventListener(kind, unlock, { capture: true });
  sound.addEventListener("change", () => {
    settings.sound = sound.checked;
    save();
    said.textContent = sound.checked ? t("A short sound plays when it is your move.") : t("No sound.");
    if (sound.checked) {
      unlock();
      beep(); // what it sounds like
    }
  });
  box.addEventListener("change", async () => {
    if (!box.checked) {
      settings.notify = false;
      save();
      said.textContent = t("No notifications.");
      return;
    }
    if (!supported()) {
      box.checked = false;
      said.textContent = t("This browser shows no notifications.");
      return;
    }
    let permission = Notification.permission;
    if (permission === "default") {
      try {
        permission = await Notification.requestPermission();
      } catch {
        permission = "denied";
      }
    }
    settings.notify = permission === "granted";
    save();
    box.checked = settings.notify;
    said.textContent = settings.notify
      ? t("A notification comes when it is your move and this tab is hidden.")
      : t("Notifications are blocked for this site: allow them in the browser's site settings.");
  });
  // another tab changed them: this one follows
  addEventListener("storage", (event) => {
    if (event.key !== KEY && event.key !== null) return;
    settings = load();
    show();
  });
}
