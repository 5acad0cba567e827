// Lessons: /learn/GAME lists a game's lessons, /learn/GAME/ID plays one. The learner points at
// cards on the game's own board (as at a table) or types the move; the server judges it with the
// game's notation and rules (POST /api/lessons/GAME/ID/try). The page's own words are in the
// catalogues (t); the lessons' words (from their data files, with the games' hints and the
// rules' verdicts) stay English for now, each element that holds them marked lang="en".
import { api, arrowFocus, el, t } from "./common.js";

const parts = location.pathname.split("/").filter(Boolean); // ["learn", game, id?]
const game = parts[1];
const lessonId = parts[2] || null;
const root = document.getElementById("learn");
const DONE_KEY = "fanfold.lessons.done";

document.getElementById("all-lessons").href = `/learn/${game}`;
document.getElementById("rules").href = `/how-to-play/${game}`;

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
  const [all, games] = await Promise.all([api("GET", "/api/lessons"), api("GET", "/api/games")]);
  const lessons = all.filter((lesson) => lesson.game === game);
  // the game's title, as the rest of the site names it ("Fan Tan", "Fano330-R-Morris")
  const title = games.find((entry) => entry.name === game)?.title || game;
  document.title = `fanfold: ${t("Learn {game}", { game: title })}`;
  document.getElementById("title").textContent = t("Learn {game}", { game: title });
  const done = doneLessons();
  root.append(
    el("h1", { text: t("Learn {game}, one move at a time", { game: title }) }),
    el("p", {
      class: "muted",
      text: t("Each lesson sets up a worked example of the rules: find the move, ask for a hint if you are stuck, and read why it works."),
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
          el("a", { href: `/learn/${game}/${lesson.id}`, "data-lesson": lesson.id, text: lesson.title, lang: "en" }),
          el(
            "span",
            { class: "muted lesson-source" },
            el("span", { lang: "en" }, lesson.source),
            "; ",
            lesson.steps === 1 ? t("1 move") : t("{count} moves", { count: lesson.steps }),
            finished ? t("; done") : "",
          ),
        ),
      );
    }
    const heading = el("h2", {}, el("span", { translate: "no" }, title), ": ", el("span", { lang: "en" }, variant));
    root.append(el("section", { class: "panel lesson-group" }, heading, list));
  }
}

// ------------------------------------------------------------------ one lesson
// The position is drawn by the game's own table module (static/games/GAME.js, the same board
// as at a table): the learner points at cards there, and the move it would send to a table
// comes here to be judged instead.
let board = null; // the game's module: render(root, message, ui)
let lesson = null; // the lesson's answer from the API
let step = null; // the step on screen
let tries = 0; // moves tried at this step (a fresh board selection after each)
let finished = false;
// What the learner opened or typed at this step, kept when a wrong try redraws the board.
let kept = { hint: false, typed: "", answer: null, advanced: false };
// What the page shows of the game (GET /api/games/web): an example of its notation for the
// typed move's box (the advanced way to play), how to move on its board, its board's module.
let hints = { notation_example: "", board_hint: "", renderer: `/static/games/${game}.js` };

function keepInputs() {
  const typed = document.getElementById("typed");
  const hint = document.getElementById("hint");
  const advanced = document.getElementById("advanced");
  if (typed) kept.typed = typed.value;
  if (hint) kept.hint = !hint.hidden;
  if (advanced) kept.advanced = advanced.open;
}

function seatName(seat) {
  return lesson.seats[seat] || t("Player {number}", { number: seat + 1 });
}

// A verdict: the page's words, then the lesson's or the rules' own (English: lang="en").
function setMessage(kind, text, english = "") {
  const box = document.getElementById("verdict");
  if (!box) return;
  box.className = `verdict ${kind}`;
  box.replaceChildren(text);
  if (english) box.append(text ? " " : "", el("span", { lang: "en" }, english));
  if (text || english) box.scrollIntoView({ block: "nearest" });
}

async function tryMove(text) {
  const action = text.trim();
  const advanced = document.getElementById("advanced");
  if (advanced) kept.advanced = advanced.open; // an opened fold stays open at the next step
  if (!action) {
    setMessage("illegal", t("Type a move first, or point at the cards on the board."));
    return;
  }
  let answer;
  try {
    answer = await api("POST", `/api/lessons/${game}/${lessonId}/try`, { step: step.index, action });
  } catch (error) {
    tries += 1;
    keepInputs();
    draw();
    setMessage("illegal", "", error.message);
    return;
  }
  if (answer.verdict !== "correct") {
    tries += 1;
    keepInputs();
    draw();
    setMessage(answer.verdict, answer.verdict === "illegal" ? t("Not allowed:") : "", answer.message);
    return;
  }
  const explained = { step: step.index, played: answer.label || answer.played, message: answer.message };
  step = answer.next;
  tries = 0;
  kept = { hint: false, typed: "", answer: null, advanced: kept.advanced };
  if (answer.done) {
    finished = true;
    markDone(lessonId);
  }
  draw(explained, answer);
}

// The step as the table module expects a table's state message.
function message() {
  const deciding = !finished && step.legal.length > 0;
  return {
    type: "state",
    table: `lesson:${lessonId}`,
    version: step.index * 1000 + tries,
    game,
    seat: lesson.seat,
    yours: [lesson.seat],
    decider: deciding ? lesson.seat : null,
    thinking: null,
    view: step.view,
    text: step.text,
    legal: deciding ? step.legal : [],
    choices: deciding ? step.choices : [],
    log: step.log,
    outcome: step.outcome,
    seats: lesson.seats.map((name) => ({ name, player: "", bot: false })),
  };
}

function questionPanel(explained, answer) {
  const panel = el("section", { class: "panel question", "aria-label": t("the question") });
  if (explained) {
    panel.append(
      el("div", { class: "verdict correct explanation", id: "explanation", "data-step": String(explained.step), role: "status" },
        el("strong", {}, t("Right:"), " ", el("span", { lang: "en" }, explained.played), ". "),
        el("span", { lang: "en" }, explained.message)),
    );
  }
  if (finished) {
    panel.append(el("h2", { text: t("Lesson complete") }), el("p", { id: "summary", lang: "en", text: answer ? answer.summary : "" }));
    const next = answer ? answer.next_lesson : lesson.next_lesson;
    const links = el("div", { class: "buttons" });
    if (next) {
      links.append(
        el("a", { class: "button primary", id: "next-lesson", href: `/learn/${game}/${next.id}` }, t("Next lesson:"), " ", el("span", { lang: "en" }, next.title)),
      );
    }
    links.append(el("a", { class: "button", href: `/learn/${game}`, text: t("All lessons") }));
    panel.append(links);
    return panel;
  }
  panel.append(
    el("div", { class: "muted", text: t("Move {number} of {count}", { number: step.index + 1, count: lesson.steps }) }),
    el("p", { class: "prompt", id: "prompt", lang: "en", text: step.prompt }),
    el("p", { class: "muted", lang: "en", text: hints.board_hint }),
  );
  const hintBox = el("p", { class: "hint", id: "hint" }, el("strong", { text: t("Hint:") }), " ", el("span", { lang: "en" }, step.hint));
  hintBox.hidden = !kept.hint;
  const typed = el("input", {
    id: "typed",
    type: "text",
    placeholder: t("e.g. {example}", { example: hints.notation_example }),
    autocomplete: "off",
    "aria-label": t("a move in the game's notation"),
  });
  const form = el("form", { class: "typed-move", onsubmit: (event) => { event.preventDefault(); tryMove(typed.value); } },
    typed, el("button", { type: "submit", id: "try", text: t("Try") }));
  typed.value = kept.typed;
  // Typing a move in the game's notation: for those who know it, folded away.
  const advanced = el("details", { class: "advanced", id: "advanced" },
    el("summary", { text: t("Advanced: type the move in notation") }), form);
  advanced.open = kept.advanced || Boolean(kept.typed);
  const answerBox = el("p", { class: "hint", id: "answer", hidden: "" });
  const fillAnswer = (shown) => {
    const moves = (shown.labels || shown.answers).map((move) => el("span", { lang: "en" }, move));
    const listed = moves.flatMap((move, index) => (index ? [` ${t("or")} `, move] : [move]));
    answerBox.replaceChildren(
      el("strong", {}, t("The move:"), " ", ...listed, ". "),
      el("span", { lang: "en" }, shown.explanation),
      " ",
      t("Play it to go on."),
    );
    answerBox.hidden = false;
  };
  if (kept.answer) fillAnswer(kept.answer);
  const showAnswer = async () => {
    let shown;
    try {
      shown = await api("GET", `/api/lessons/${game}/${lessonId}/answer?step=${step.index}`);
    } catch (error) {
      setMessage("illegal", "", error.message);
      return;
    }
    kept.answer = shown;
    fillAnswer(shown);
    typed.value = shown.answers[0];
  };
  panel.append(
    el("div", { class: "buttons" },
      el("button", { type: "button", id: "hint-button", onclick: () => { hintBox.hidden = false; kept.hint = true; }, text: t("Hint") }),
      el("button", { type: "button", id: "answer-button", onclick: showAnswer, text: t("Show the answer") })),
    hintBox,
    answerBox,
    el("p", { class: "verdict", id: "verdict", role: "alert" }),
    advanced,
  );
  return panel;
}

// ------------------------------------------------------------------ keyboard
// As at a table (table.js): the arrow keys move among the board's choices (cards, fans,
// points, buttons), Enter or Space chooses, Escape lets go of a selection. The page is drawn
// anew after every move (and the board after every selection), so the focus goes back where
// it was: to the same thing drawn again, else the board's first choice, at the lesson's end
// the next lesson's link; a typed move's box or a button keeps it too. Never the page's top.
const FOCUSABLE = '[tabindex="0"], button:not([disabled]), a[href], input:not([disabled]), select:not([disabled])';
let boardFocused = false; // the focus is on the board
let boardKey = null; // what on the board has it
let focusedId = null; // the side panel's control that has it (the typed move's box, a button)

function focusKey(node) {
  for (const name of ["data-focus", "data-ref", "data-action", "data-shape", "data-point", "data-pile"]) {
    const value = node.getAttribute?.(name);
    if (value) return `${name}=${value}`;
  }
  return null;
}

function boardChoices() {
  const game = document.getElementById("game");
  return game ? [...game.querySelectorAll(FOCUSABLE)].filter((node) => node.getClientRects().length) : [];
}

function keepFocus() {
  const active = document.activeElement;
  if (active && active !== document.body && document.contains(active)) return; // still somewhere
  const game = document.getElementById("game");
  let next = null;
  if (boardFocused && game) {
    const choices = boardChoices();
    next = (boardKey && choices.find((node) => focusKey(node) === boardKey)) || choices[0] || null;
    if (!next && finished) next = document.getElementById("next-lesson") || root.querySelector(".question a");
    next ||= game;
  } else if (focusedId) {
    next = document.getElementById(focusedId);
  }
  if (!next) return;
  next.focus({ preventScroll: true });
  next.scrollIntoView({ block: "nearest" });
}

root.addEventListener("focusin", (event) => {
  const game = document.getElementById("game");
  boardFocused = Boolean(game?.contains(event.target));
  if (boardFocused && event.target !== game) boardKey = focusKey(event.target);
  focusedId = boardFocused ? null : event.target.id || null;
});

root.addEventListener("keydown", (event) => {
  const game = document.getElementById("game");
  if (!game?.contains(event.target)) return;
  if (event.key === "Escape") {
    if (board?.cancel?.()) {
      event.preventDefault();
      board.render(game, message(), boardUi());
    }
    return;
  }
  arrowFocus(event, boardChoices);
});

new MutationObserver(keepFocus).observe(root, { childList: true, subtree: true });

// The board module's hooks. A lesson's last position is a picture (``replay``): nothing to
// play, and no "No moves left." under it: the panel says the lesson is complete.
function boardUi() {
  return { act: tryMove, seatName, analysis: null, replay: finished };
}

function draw(explained, answer) {
  const layout = el("div", { class: "lesson-layout" });
  const area = el("section", { class: "board lesson-board", id: "board", "aria-label": t("the position") });
  const game_ = el("div", { id: "game", tabindex: "-1" }); // focused when it offers nothing
  area.append(game_);
  const side = el("aside", { class: "side" });
  side.append(questionPanel(explained, answer));
  if (step.log.length) {
    const log = el("ol", { class: "log", id: "log" });
    // in words, as a table's log tells them
    for (const entry of step.log) log.append(el("li", { text: entry.words || `${seatName(entry.seat)}: ${entry.text}` }));
    side.append(el("div", { class: "panel" }, el("h2", { text: t("Moves so far") }), log));
  }
  layout.append(area, side);
  const head = [
    el("h1", { text: lesson.title, lang: "en" }),
    el(
      "p",
      { class: "muted source" },
      el("span", { lang: "en" }, lesson.source),
      ". ",
      lesson.seats.length > 1 ? t("You play {seat}.", { seat: seatName(lesson.seat) }) : "",
    ),
    el("p", { class: "intro", id: "intro", lang: "en", text: lesson.intro }),
  ];
  root.replaceChildren(...head, layout);
  board.render(game_, message(), boardUi());
  if (explained) document.getElementById("explanation")?.scrollIntoView({ block: "nearest" });
}

async function showLesson() {
  let shown;
  [shown, lesson] = await Promise.all([api("GET", "/api/games/web"), api("GET", `/api/lessons/${game}/${lessonId}`)]);
  hints = shown.find((entry) => entry.name === game) || hints;
  board = await import(hints.renderer);
  document.title = `fanfold: ${lesson.title}`;
  const heading = document.getElementById("title");
  heading.replaceChildren(t("Lesson:"), " ", el("span", { lang: "en" }, lesson.title));
  step = lesson.step;
  draw();
}

(lessonId ? showLesson() : showList()).catch((error) => {
  root.replaceChildren(el("p", { class: "error", role: "alert", lang: "en", text: error.message }));
});
