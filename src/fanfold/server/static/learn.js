// Lessons: /learn/GAME lists a game's lessons, /learn/GAME/ID plays one. The learner picks a move
// by clicking cards (the moves that use every picked card are offered) or types it; the server
// judges it with the game's notation and rules (POST /api/lessons/GAME/ID/try).
import { api, cardElement, cardBack, el, suitSymbol } from "./common.js";

const parts = location.pathname.split("/").filter(Boolean); // ["learn", game, id?]
const game = parts[1];
const lessonId = parts[2] || null;
const root = document.getElementById("learn");
const DONE_KEY = "fanfold.lessons.done";
const CARD = /(?<![A-Za-z0-9])(?:JK[1-7]?|TJ[1-7]?|[A2-9T][CDHS])(?![A-Za-z0-9])/g;
const COMMANDERS = ["Jack", "Queen", "King"];

document.getElementById("all-lessons").href = `/learn/${game}`;
document.getElementById("rules").href = `/rules/${game}`;

function doneLessons() {
  try {
    return new Set(JSON.parse(localStorage.getItem(DONE_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function markDone(id) {
  const done = doneLessons();
  done.add(`${game}/${id}`);
  localStorage.setItem(DONE_KEY, JSON.stringify([...done]));
}

// ------------------------------------------------------------------ the list
async function showList() {
  const lessons = (await api("GET", "/api/lessons")).filter((lesson) => lesson.game === game);
  const title = game.charAt(0).toUpperCase() + game.slice(1);
  document.title = `fanfold: learn ${title}`;
  document.getElementById("title").textContent = `Learn ${title}`;
  const done = doneLessons();
  root.append(
    el("h1", { text: `Learn ${title}, one move at a time` }),
    el("p", {
      class: "muted",
      text: "Each lesson sets up a worked example of the rules: find the move, ask for a hint if you are stuck, and read why it works.",
    }),
  );
  const groups = new Map();
  for (const lesson of lessons) {
    if (!groups.has(lesson.variant)) groups.set(lesson.variant, []);
    groups.get(lesson.variant).push(lesson);
  }
  for (const [variant, members] of groups) {
    const list = el("ol", { class: "lesson-list" });
    for (const lesson of members) {
      const finished = done.has(`${game}/${lesson.id}`);
      list.append(
        el(
          "li",
          { class: finished ? "done" : "" },
          el("a", { href: `/learn/${game}/${lesson.id}`, "data-lesson": lesson.id, text: lesson.title }),
          el("span", { class: "muted lesson-source", text: `${lesson.source}; ${lesson.steps} move${lesson.steps === 1 ? "" : "s"}${finished ? "; done" : ""}` }),
        ),
      );
    }
    root.append(el("section", { class: "panel lesson-group" }, el("h2", { text: `Fano ${variant}` }), list));
  }
}

// ---------------------------------------------------------------- describing moves
function cardWords(text) {
  if (!text) return "";
  const rank = text.slice(0, -1);
  const suit = text.slice(-1);
  if (text.startsWith("JK") || text.startsWith("TJ")) return `joker${text.length > 2 ? ` as ${text.slice(2)}` : ""}`;
  return `${rank === "A" ? "A" : rank === "T" ? "10" : rank}${suitSymbol(suit)}`;
}

// The move in words, for the buttons ("attack 6♣ with 4♥, support 3♥").
export function describe(text) {
  let m;
  const cards = (s) => s.split(/\s+/).filter(Boolean).map(cardWords).join(" ");
  if ((m = text.match(/^counter (\S+)\+(\S+)=(\S+)(?: recruit (\S+) with (\S+) (\S+))?(?: return (\S+))?$/))) {
    const recruit = m[4] ? `recruit ${cardWords(m[4])}, then ` : "";
    return `${recruit}counter: ${cardWords(m[1])} + ${cardWords(m[2])} → ${cardWords(m[3])}${m[7] ? `, take ${cardWords(m[7])} back` : ""}`;
  }
  if ((m = text.match(/^(\S+)>(\S+?)(?::(\S+))?(?:@(\d+))?( reverse)?$/))) {
    const support = m[3] ? `, support ${cardWords(m[3])}` : "";
    return `${m[5] ? "reversed " : ""}attack ${cardWords(m[2])} with ${cardWords(m[1])}${support}`;
  }
  if ((m = text.match(/^(\S+)\+(\S+)=(\S+)( oversum)?(?: return (\S+))?$/))) {
    return `${m[4] ? "oversum" : "combine"} ${cardWords(m[1])} + ${cardWords(m[2])} → ${cardWords(m[3])}${m[5] ? `, take ${cardWords(m[5])} back` : ""}`;
  }
  if ((m = text.match(/^recruit (\S+) with (\S+) (\S+)$/))) return `recruit ${cardWords(m[1])} with ${cardWords(m[2])} and ${cardWords(m[3])}`;
  if ((m = text.match(/^promote (.+)$/))) return `promote with ${cards(m[1])}`;
  if ((m = text.match(/^play (\S+)( down)?$/))) return `end the turn: play ${cardWords(m[1])}${m[2] ? " face down" : ""}`;
  if ((m = text.match(/^sub (\S+) (\S+)( down)?$/))) return `end the turn: ${cardWords(m[1])} out, ${cardWords(m[2])} in${m[3] ? " face down" : ""}`;
  if ((m = text.match(/^discard (.+)$/))) return `end the turn: discard ${cards(m[1])} face down`;
  if (text === "pass") return "end the turn";
  if (text === "allow") return "no counter: let the attack go on";
  return text;
}

function cardsOf(text) {
  return text.match(CARD) || [];
}

// ------------------------------------------------------------------ the plane
const SVG = "http://www.w3.org/2000/svg";
// The numbers where fanfold's text drawing puts them: 1 on top, 7 in the middle, 2-3-5 the circle.
const AT = { 1: [100, 14], 2: [57, 88], 5: [143, 88], 7: [100, 113], 4: [14, 162], 3: [100, 162], 6: [186, 162] };
const CYCLES = [[1, 2, 4], [2, 3, 5], [3, 4, 6], [4, 5, 7], [5, 6, 1], [6, 7, 2], [7, 1, 3]];

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

function arrowHead(x1, y1, x2, y2, lit) {
  // A small arrowhead half way from (x1, y1) to (x2, y2), pointing at (x2, y2).
  const mx = (x1 + x2) / 2;
  const my = (y1 + y2) / 2;
  const angle = Math.atan2(y2 - y1, x2 - x1);
  const size = 6;
  const point = (a, r) => `${mx + Math.cos(a) * r},${my + Math.sin(a) * r}`;
  return svg("polygon", { points: `${point(angle, size)} ${point(angle + 2.5, size)} ${point(angle - 2.5, size)}`, class: lit ? "arrow lit" : "arrow" });
}

// The Fano plane with the direction of every attack; the values of the picked cards are lit.
function plane(litValues) {
  const drawing = svg("svg", { viewBox: "0 0 200 180", class: "plane", role: "img", "aria-label": "the Fano plane: on each line, each number beats the next one in the arrows' direction" });
  const centre = AT[7];
  const radius = Math.hypot(AT[3][0] - centre[0], AT[3][1] - centre[1]);
  for (const cycle of CYCLES) {
    const lit = litValues.size >= 2 && [...litValues].every((value) => cycle.includes(value));
    if (cycle.join() === "2,3,5") {
      drawing.append(svg("circle", { cx: centre[0], cy: centre[1], r: radius, class: lit ? "line lit" : "line" }));
      for (let i = 0; i < 3; i += 1) {
        // a -> b along the arc that misses c. The arc's middle (opposite c) is where a line
        // through 7 crosses the circle, so the arrowhead sits a little further on, towards b.
        const [a, b, c] = [cycle[i], cycle[(i + 1) % 3], cycle[(i + 2) % 3]];
        const away = Math.atan2(AT[c][1] - centre[1], AT[c][0] - centre[0]) + Math.PI;
        const [ux, uy] = [Math.cos(away), Math.sin(away)];
        const turn = Math.sign(ux * (AT[b][1] - AT[a][1]) - uy * (AT[b][0] - AT[a][0])) || 1;
        const angle = away + turn * 0.4;
        const x = centre[0] + Math.cos(angle) * radius;
        const y = centre[1] + Math.sin(angle) * radius;
        const dx = -Math.sin(angle) * turn * 4;
        const dy = Math.cos(angle) * turn * 4;
        drawing.append(arrowHead(x - dx, y - dy, x + dx, y + dy, lit));
      }
      continue;
    }
    // A straight line: its ends are the two numbers farthest apart.
    const pairs = [[0, 1], [1, 2], [2, 0]].map(([i, j]) => [cycle[i], cycle[j]]);
    const length = ([a, b]) => Math.hypot(AT[a][0] - AT[b][0], AT[a][1] - AT[b][1]);
    const longest = pairs.reduce((best, pair) => (length(pair) > length(best) ? pair : best));
    drawing.append(svg("line", { x1: AT[longest[0]][0], y1: AT[longest[0]][1], x2: AT[longest[1]][0], y2: AT[longest[1]][1], class: lit ? "line lit" : "line" }));
    for (const [a, b] of pairs) {
      if (a === longest[0] && b === longest[1]) continue; // the wrap-around arrow runs the whole line back
      drawing.append(arrowHead(AT[a][0], AT[a][1], AT[b][0], AT[b][1], lit));
    }
  }
  for (const [value, [x, y]] of Object.entries(AT)) {
    const lit = litValues.has(Number(value));
    drawing.append(svg("circle", { cx: x, cy: y, r: 10, class: lit ? "node lit" : "node" }));
    drawing.append(svg("text", { x, y: y + 4, "text-anchor": "middle", class: "value" }, value));
  }
  return drawing;
}

function valueOf(card) {
  const rank = card.startsWith("JK") || card.startsWith("TJ") ? card.slice(2) : card.slice(0, -1);
  return { A: 1, T: 10 }[rank] || Number(rank);
}

// ------------------------------------------------------------------ one lesson
let lesson = null; // the lesson's answer from the API
let step = null; // the step on screen
let picked = []; // the cards clicked, in order
let finished = false;

function seatName(seat) {
  return lesson.seats[seat] || `Player ${seat + 1}`;
}

function zone(label, cards, { slots = 0, backs = 0, small = false } = {}) {
  const row = el("div", { class: `zone${small ? " small" : ""}` });
  for (const card of cards) {
    const node = cardElement(card, picked.includes(card) ? "selected" : "");
    if (!finished && step.legal.length) {
      node.classList.add("pickable");
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      node.addEventListener("click", () => pick(card));
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          pick(card);
        }
      });
    }
    row.append(node);
  }
  for (let i = 0; i < backs; i += 1) row.append(cardBack());
  for (let i = cards.length + backs; i < slots; i += 1) row.append(el("div", { class: "slot" }));
  return el("div", { class: "zone-box" }, el("div", { class: "zone-label", text: label }), row);
}

function seatPanel(view, seat) {
  const publicPart = view.players[seat];
  const mine = seat === view.player;
  const config = view.config;
  const promotions = config.promotions_to_win;
  const level = publicPart.level;
  const facts = [`${level < COMMANDERS.length ? COMMANDERS[level] : "King"} (${level}/${promotions} promotions)`];
  if (config.tribute) facts.push(`${publicPart.tribute} tribute counter${publicPart.tribute === 1 ? "" : "s"}`);
  facts.push(`draw pile ${publicPart.draw_count}`);
  const box = el(
    "div",
    { class: `seat-panel${mine ? " mine" : ""}${view.turn_player === seat ? " to-move" : ""}`, "data-seat": String(seat) },
    el("div", { class: "seat-name" }, el("strong", { text: mine ? `${seatName(seat)}: you` : seatName(seat) }), el("span", { class: "facts", text: ` ${facts.join(" · ")}` })),
  );
  const field = [...publicPart.field];
  box.append(zone("in play", field, { slots: 4, backs: mine ? 0 : publicPart.face_down_in_play }));
  if (mine) box.append(zone("your hand", view.hand));
  else box.append(zone("hand", publicPart.known_in_hand, { backs: publicPart.hand_count - publicPart.known_in_hand.length }));
  if (publicPart.face_up_discards.length) box.append(zone("discard pile (face up)", publicPart.face_up_discards, { small: true }));
  return box;
}

function board() {
  const view = step.view;
  const seats = view.players.map((_, seat) => seat).filter((seat) => seat !== view.player);
  const area = el("section", { class: "board lesson-board", id: "board", "aria-label": "the position" });
  for (const seat of seats) area.append(seatPanel(view, seat));
  if (view.attack) {
    const attack = view.attack;
    area.append(el("p", { class: "attack-note", text: `${seatName(view.turn_player)} attacks ${cardWords(attack.target)} with ${cardWords(attack.attacker)}${attack.reverse ? " (reversed)" : ""}: ${attack.defender === view.player ? "you may counter or allow it" : "the defender may counter"}.` }));
  }
  area.append(seatPanel(view, view.player));
  return area;
}

function candidates() {
  if (!picked.length) return step.legal.filter((text) => cardsOf(text).length === 0);
  return step.legal.filter((text) => {
    const used = cardsOf(text);
    return picked.every((card) => used.includes(card));
  });
}

function pick(card) {
  picked = picked.includes(card) ? picked.filter((c) => c !== card) : [...picked, card];
  setMessage("", "");
  draw();
}

function setMessage(kind, text) {
  const box = document.getElementById("verdict");
  if (!box) return;
  box.className = `verdict ${kind}`;
  box.textContent = text;
}

async function tryMove(text) {
  const action = text.trim();
  if (!action) {
    setMessage("illegal", "Type a move first, or pick cards.");
    return;
  }
  let answer;
  try {
    answer = await api("POST", `/api/lessons/${game}/${lessonId}/try`, { step: step.index, action });
  } catch (error) {
    setMessage("illegal", `${error.message}`);
    return;
  }
  if (answer.verdict !== "correct") {
    picked = [];
    draw();
    setMessage(answer.verdict, answer.verdict === "illegal" ? `Not allowed: ${answer.message}` : answer.message);
    return;
  }
  const explained = { played: answer.played, message: answer.message };
  step = answer.next;
  picked = [];
  if (answer.done) {
    finished = true;
    markDone(lessonId);
  }
  draw(explained, answer);
}

function questionPanel(explained, answer) {
  const total = lesson.steps;
  const panel = el("section", { class: "panel question", "aria-label": "the question" });
  if (explained) {
    panel.append(
      el("div", { class: "verdict correct explanation", id: "explanation", role: "status" },
        el("strong", { text: `Right: ${explained.played}. ` }),
        document.createTextNode(explained.message)),
    );
  }
  if (finished) {
    panel.append(el("h2", { text: "Lesson complete" }), el("p", { id: "summary", text: answer ? answer.summary : "" }));
    const next = answer ? answer.next_lesson : lesson.next_lesson;
    const links = el("div", { class: "buttons" });
    if (next) links.append(el("a", { class: "button primary", id: "next-lesson", href: `/learn/${game}/${next.id}`, text: `Next lesson: ${next.title}` }));
    links.append(el("a", { class: "button", href: `/learn/${game}`, text: "All lessons" }));
    panel.append(links);
    if (step.outcome) panel.append(el("p", { class: "outcome", text: step.outcome.reason || "The game is over." }));
    return panel;
  }
  panel.append(
    el("div", { class: "muted", text: `Move ${step.index + 1} of ${total}` }),
    el("p", { class: "prompt", id: "prompt", text: step.prompt }),
  );
  const hintBox = el("p", { class: "hint", id: "hint", hidden: "" }, el("strong", { text: "Hint: " }), document.createTextNode(step.hint));
  const options = candidates();
  const choices = el("div", { class: "choices", id: "choices", "aria-label": "moves with the picked cards" });
  if (picked.length && !options.length) choices.append(el("p", { class: "muted", text: "No legal move uses all the cards you picked: click one again to drop it." }));
  for (const text of options) {
    choices.append(
      el("button", { type: "button", "data-action": text, onclick: () => tryMove(text) },
        el("span", { text: describe(text) }), el("code", { text })),
    );
  }
  const typed = el("input", { id: "typed", type: "text", placeholder: "or type a move, e.g. 4H>6C:3H", autocomplete: "off", "aria-label": "a move in notation" });
  const form = el("form", { class: "typed-move", onsubmit: (event) => { event.preventDefault(); tryMove(typed.value); } },
    typed, el("button", { type: "submit", id: "try", text: "Try" }));
  panel.append(
    el("p", { class: "muted pick-help", text: picked.length ? `Picked: ${picked.map(cardWords).join(", ")}` : "Click the cards your move uses (yours and your opponent's); the moves they make appear below." }),
    choices,
    form,
    el("div", { class: "buttons" },
      el("button", { type: "button", id: "hint-button", onclick: () => { hintBox.hidden = false; } , text: "Hint" }),
      el("button", { type: "button", id: "clear", onclick: () => { picked = []; setMessage("", ""); draw(); }, text: "Clear" })),
    hintBox,
    el("p", { class: "verdict", id: "verdict", role: "alert" }),
  );
  return panel;
}

function draw(explained, answer) {
  const values = new Set(picked.map(valueOf).filter((v) => v >= 1 && v <= 7));
  const layout = el("div", { class: "lesson-layout" });
  const side = el("aside", { class: "side" });
  side.append(questionPanel(explained, answer));
  const planeBox = el("div", { class: "panel plane-box" }, el("h2", { text: "The Fano plane" }), plane(values),
    el("p", { class: "muted", text: "On each of the seven lines (the circle is one) the three numbers beat each other in a circle: each beats the next one the arrows point to, and the last beats the first. To attack, hold the line's third number." }));
  side.append(planeBox);
  if (step.log.length) {
    const log = el("ol", { class: "log", id: "log" });
    for (const entry of step.log) log.append(el("li", { text: `${seatName(entry.seat)}: ${entry.text}` }));
    side.append(el("div", { class: "panel" }, el("h2", { text: "Moves so far" }), log));
  }
  layout.append(board(), side);
  const head = [
    el("h1", { text: lesson.title }),
    el("p", { class: "muted source", text: `${lesson.source}. You play ${seatName(lesson.seat)}.` }),
    el("p", { class: "intro", id: "intro", text: lesson.intro }),
  ];
  root.replaceChildren(...head, layout);
  if (explained) document.getElementById("explanation")?.scrollIntoView({ block: "nearest" });
}

async function showLesson() {
  lesson = await api("GET", `/api/lessons/${game}/${lessonId}`);
  document.title = `fanfold: ${lesson.title}`;
  document.getElementById("title").textContent = `Lesson: ${lesson.title}`;
  step = lesson.step;
  draw();
}

(lessonId ? showLesson() : showList()).catch((error) => {
  root.replaceChildren(el("p", { class: "error", role: "alert", text: error.message }));
});
