// The engines' review of a finished game, beside its replay (/table/ID/review): the
// evaluation graph, the summary and the moves with their marks, pushed on the review's socket
// (/ws/reviews/ID) while it fills in, each message only the moves it adds; where no socket can
// be kept, polled from GET /api/tables/ID/review every second (each poll only what is new).
// Choosing a move (or a point of the graph) shows the position after it on the replay. Fano
// and Fan Tan: the graph has a line per reviewed seat (its own expected result after each of
// its decisions), and the moves of seats not reviewed (bots) or with one legal move say so.
// Every sentence the server words (a move, a seat's name, the summary) comes with its code and
// params (`said`, `seat_said`, `best_said`, `summary_said`) and is worded from the catalogue
// (saidText).
import { api, el, refusalText, saidText, t } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
// The marks' and the values' words in the page's language (asked for as the panel is drawn).
const MARKS = () => ({
  worse_result: t("worse result"),
  slower_win: t("slower win"),
  faster_loss: t("faster loss"),
  lost_deal: t("lost the deal"),
  inaccuracy: t("inaccuracy"),
  mistake: t("mistake"),
  blunder: t("blunder"),
});
const NOT_JUDGED = () => ({
  bot: t("not reviewed: a bot's seat"),
  forced: t("one legal move"),
});
const RESULTS = () => ({ win: t("win"), loss: t("loss"), draw: t("draw") });
const WIDTH = 300;
const HEIGHT = 120;

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  return node;
}

function valueWords(value) {
  if (!value) return t("not known");
  if (typeof value.expected === "number") return t("{percent}% expected", { percent: Math.round(value.expected * 100) });
  const result = RESULTS()[value.result] || value.result;
  if (value.distance === null || value.distance === undefined) return result;
  return t("{result} in {distance}", { result, distance: value.distance });
}

// The graph: the value for the first seat after each move, from -1 (lost) to 1 (won); the
// marked moves as dots that can be chosen.
function graph(review, show) {
  const points = review.graph;
  const steps = Math.max(review.total, 1);
  const x = (move) => 8 + (move / steps) * (WIDTH - 16);
  const y = (value) => HEIGHT / 2 - value * (HEIGHT / 2 - 8);
  const seatName = (entry) => saidText(entry?.seat_said, entry?.seat_name);
  const first = seatName(review.moves[0]) || t("the first seat");
  const bySeat = points.some((point) => point.seat !== undefined);
  const root = svg("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "review-graph",
    role: "img",
    "aria-labelledby": "review-graph-title",
  });
  const title = svg("title", { id: "review-graph-title" });
  if (bySeat) {
    const names = [...new Set(points.map((point) => seatName(review.moves.find((entry) => entry.seat === point.seat))))];
    title.textContent = t("The expected result of {names} after each of their decisions, one line a seat: up is a likely win, down a likely loss; {count} marked moves.", { names: names.join(t(" and ")) || t("the reviewed seats"), count: review.marks.length });
  } else {
    title.textContent = t("The evaluation for {name} after each move: up is good for {name}, down bad; {count} marked moves.", { name: first, count: review.marks.length });
  }
  root.append(title);
  root.append(svg("line", { x1: 0, x2: WIDTH, y1: y(0), y2: y(0), class: "review-axis" }));
  const seats = bySeat ? [...new Set(points.map((point) => point.seat))] : [undefined];
  seats.forEach((seat, order) => {
    let path = "";
    let pen = false;
    for (const point of points) {
      if (point.seat !== seat) continue;
      if (point.value === null) {
        pen = false;
        continue;
      }
      path += `${pen ? "L" : "M"}${x(point.move).toFixed(1)},${y(point.value).toFixed(1)}`;
      pen = true;
    }
    if (path) root.append(svg("path", { d: path, class: `review-line${order ? ` review-line-${order % 4}` : ""}` }));
  });
  for (const mark of review.marks) {
    const point = points.find((entry) => entry.move === mark.move);
    if (!point || point.value === null) continue;
    const dot = svg("circle", { cx: x(point.move), cy: y(point.value), r: 4, class: `review-dot mark-${mark.mark}` });
    dot.addEventListener("click", () => show(mark.move));
    root.append(dot);
  }
  return root;
}

function moveItem(entry, show, chosen) {
  const mark = entry.mark ? MARKS()[entry.mark] || entry.mark : "";
  const label = `${entry.number}. ${saidText(entry.said, entry.words)}`;
  const button = el("button", {
    type: "button",
    class: `review-move${entry.mark ? ` mark-${entry.mark}` : ""}`,
    "data-move": String(entry.number),
    "aria-current": chosen === entry.number ? "true" : "false",
    onclick: () => show(entry.number),
  });
  button.append(el("span", { class: "review-move-text", text: label }));
  let value = `${valueWords(entry.before)} → ${valueWords(entry.after)}`;
  if (entry.judged) {
    // Fano, Fan Tan: the move's expected result, and the best move's where it was better.
    const words = { value: valueWords(entry.after), best: valueWords(entry.before) };
    const judged = entry.best ? t("{value}; best {best}", words) : t("{value}, the best found", words);
    value = NOT_JUDGED()[entry.judged] || judged;
  }
  button.append(el("span", { class: "review-value", text: value }));
  // The better move in words, else in notation (a move no spectator is told, such as a hand
  // kept, has no words for one).
  const better = saidText(entry.best_said, entry.best_words) || entry.best;
  if (mark) button.append(el("span", { class: "review-mark", text: better ? t("{mark}; better: {move}", { mark, move: better }) : mark }));
  return el("li", {}, button);
}

// Draw the review into `box` and keep it up to date until it is done; `show(step)` shows the
// replay after `step` moves.
export async function setUpReview(tableId, box, show) {
  box.hidden = false;
  let chosen = null;
  let last = null;
  const choose = (move) => {
    chosen = move;
    show(move);
    for (const button of box.querySelectorAll(".review-move")) {
      button.setAttribute("aria-current", String(Number(button.dataset.move) === move));
    }
  };
  function draw(review) {
    last = review;
    const focused = document.activeElement?.dataset?.move;
    box.replaceChildren(el("h2", { id: "review-title", text: t("Engine review") }));
    const states = {
      pending: t("The review is waiting for the engines…"),
      running: t("Reviewing: {judged} of {total} moves so far…", { judged: review.judged, total: review.total }),
      done: t("Reviewed: {total} moves, {marked} marked.", { total: review.total, marked: review.marks.length }),
      failed: t("The review failed: {error}", { error: refusalText({ ...review.error_said, error: review.error }) }),
    };
    // `held`: the review waits for the tables in play, before a step or paused inside one (a
    // code of the catalogue; English pages have no catalogue: its own words, the same).
    const held = review.held && t("Reviewing: {judged} of {total} moves so far, waiting for the tables in play…", review.held.params || {});
    const state = review.held ? saidText(review.held, held) : states[review.state];
    box.append(el("p", { class: "review-state", id: "review-state", role: "status", text: state }));
    box.append(graph(review, choose));
    // The summary, less the sentences on a marked move (their codes start "review.move.": the
    // list below says them beside each move).
    review.summary.forEach((line, index) => {
      const said = (review.summary_said || [])[index];
      if (said && String(said.code).startsWith("review.move.")) return;
      box.append(el("p", { class: "review-summary", text: saidText(said, line) }));
    });
    const list = el("ol", { class: "review-moves", "aria-label": t("moves reviewed") });
    for (const entry of review.moves) list.append(moveItem(entry, choose, chosen));
    box.append(list);
    if (focused) box.querySelector(`.review-move[data-move="${focused}"]`)?.focus();
  }
  // The page says how many judged moves it has (`seen`): each answer, pushed or polled, carries
  // only the moves after those, and the marks and graph points they add, to put after the
  // page's own. Whether the review ended.
  let moves = [];
  let marks = [];
  let points = [];
  function take(answer) {
    const seen = answer.seen ?? 0;
    moves = moves.slice(0, seen).concat(answer.moves);
    marks = marks.filter((mark) => mark.move <= seen).concat(answer.marks);
    points = (seen > 0 ? points.filter((point) => point.move <= seen) : []).concat(answer.graph);
    const review = { ...answer, moves, marks, graph: points };
    const changed = !last || last.judged !== review.judged || last.state !== review.state;
    if (changed || Boolean(last.held) !== Boolean(review.held)) draw(review);
    return review.state === "done" || review.state === "failed";
  }
  function failed(text) {
    box.replaceChildren(el("h2", { id: "review-title", text: t("Engine review") }), el("p", { class: "error", role: "alert", text }));
  }
  if (await watched(tableId, () => moves.length, take, failed)) return;
  for (;;) {
    try {
      if (take(await api("GET", `/api/tables/${tableId}/review?seen=${moves.length}`))) return;
    } catch (error) {
      failed(error.message);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

// The review on its socket until it ends: true once it ended (or said why it has no review),
// false where the socket could not be opened or closed first (the page then polls).
function watched(tableId, seen, take, failed) {
  return new Promise((resolve) => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    let socket;
    try {
      socket = new WebSocket(`${scheme}://${location.host}/ws/reviews/${encodeURIComponent(tableId)}?seen=${seen()}`);
    } catch {
      resolve(false);
      return;
    }
    let over = false;
    socket.addEventListener("message", (event) => {
      if (over) return;
      const data = JSON.parse(event.data);
      if (data.type === "error") failed(refusalText(data));
      if (data.type === "error" || (data.type === "review" && take(data))) {
        over = true;
        resolve(true);
      }
    });
    socket.addEventListener("close", () => {
      if (!over) resolve(false);
    });
  });
}
