// Fano330-R-Morris on the Fano plane: click a shape then a point to place, a piece then a
// point to move. The analysis mode writes every move's value from the solved table beside it.
// The moves come as the message's choices: a placement points at its point (and names its
// shape), a move at the point it leaves and the one it goes to, by the view's point references.
import { el, keyable, t } from "../common.js";

const SVG = "http://www.w3.org/2000/svg";
const POINTS = {
  1: [200, 325], 2: [115, 177.5], 3: [200, 30], 4: [285, 177.5], 5: [30, 325], 6: [370, 325], 7: [200, 226.7],
};
const LINES = [[5, 2, 3], [3, 4, 6], [6, 1, 5], [2, 7, 6], [4, 7, 5], [1, 7, 3]];
let shape = null; // "C" or "T" while placing
let from = null; // a point's reference while moving

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

function piece(letter, x, y, size) {
  const white = letter === letter.toUpperCase();
  const fill = white ? "#fdfdf8" : "#1b1b1b";
  const stroke = white ? "#1b1b1b" : "#f0f0f0";
  if (letter.toUpperCase() === "C") return svg("circle", { cx: x, cy: y, r: size, fill, stroke, "stroke-width": 2, class: "piece" });
  const h = size * 1.15;
  return svg("polygon", { points: `${x},${y - h} ${x - h},${y + h * 0.75} ${x + h},${y + h * 0.75}`, fill, stroke, "stroke-width": 2, class: "piece" });
}

function valueOf(analysis, action) {
  if (!analysis) return null;
  return analysis.moves.find((move) => move.action === action) || null;
}

function short(value) {
  if (value.value.result === "draw") return "=";
  return `${value.value.result === "win" ? "W" : "L"}${value.value.distance}`;
}

function pieceName(letter) {
  const white = letter === letter.toUpperCase();
  if (letter.toUpperCase() === "C") return white ? t("white circle") : t("black circle");
  return white ? t("white triangle") : t("black triangle");
}

// Escape: let go of the chosen shape or piece; true when there was one.
export function cancel() {
  const had = shape !== null || from !== null;
  shape = null;
  from = null;
  return had;
}

export function render(root, m, ui) {
  const view = m.view;
  const legal = m.choices || [];
  const placing = view.placement;
  const mover = view.to_move === "w" ? t("White") : t("Black");
  root.replaceChildren();
  const box = el("div", { class: "morris" });
  const drawing = svg("svg", { viewBox: "-10 0 425 382", role: "img", "aria-label": t("the Fano plane") });
  for (const line of LINES) {
    const [a, , c] = line;
    drawing.append(svg("line", { x1: POINTS[a][0], y1: POINTS[a][1], x2: POINTS[c][0], y2: POINTS[c][1], class: "line" }));
  }
  drawing.append(svg("circle", { cx: 200, cy: 226.7, r: 98.3, class: "line" }));

  if (legal.length === 0) {
    shape = null;
    from = null;
  }
  if (placing && shape === null) {
    const shapes = new Set(legal.map((c) => c.details.shape));
    if (shapes.size === 1) shape = [...shapes][0];
  }
  const targets = new Map(); // point reference -> choice
  const sources = new Set();
  for (const choice of legal) {
    if (choice.kind === "place") {
      if (choice.details.shape === shape) targets.set(choice.points[0], choice);
    } else {
      const [a, b] = choice.points;
      sources.add(a);
      if (a === from) targets.set(b, choice);
    }
  }
  for (let p = 1; p <= 7; p++) {
    const [x, y] = POINTS[p];
    const ref = view.points[p - 1];
    const spot = svg("circle", { cx: x, cy: y, r: 26, class: "point", "data-point": String(p), "data-ref": ref });
    if (targets.has(ref)) spot.classList.add("target");
    else if (!placing && sources.has(ref) && !ui.replay) spot.classList.add("source");
    if (from === ref) spot.classList.add("selected");
    const choose = () => {
      if (targets.has(ref)) {
        const choice = targets.get(ref);
        shape = null;
        from = null;
        ui.act(choice.text);
      } else if (!placing && sources.has(ref)) {
        from = from === ref ? null : ref;
        render(root, m, ui);
      }
    };
    const stack = view.board[p - 1];
    const pieces = stack.length === 2
      ? t("{lower} under {upper}", { lower: pieceName(stack[0]), upper: pieceName(stack[1]) })
      : stack.length ? pieceName(stack[0]) : t("empty");
    const words = from === ref
      ? t("Let go of the piece on point {point}: {pieces}", { point: p, pieces })
      : t("Move the piece on point {point}: {pieces}", { point: p, pieces });
    if (targets.has(ref)) keyable(spot, choose, targets.get(ref).label);
    else if (!placing && sources.has(ref) && !ui.replay) keyable(spot, choose, words);
    else spot.addEventListener("click", choose);
    drawing.append(spot);
    if (stack.length === 2) {
      // the lower piece beside the upper one, both whole (readable on a phone too)
      drawing.append(piece(stack[0], x - 13, y + 11, 10));
      drawing.append(piece(stack[1], x + 8, y - 7, 13));
    } else if (stack.length === 1) {
      drawing.append(piece(stack[0], x, y, 15));
    }
    for (const node of drawing.querySelectorAll(".piece")) node.style.pointerEvents = "none";
    const number = svg("text", { x: x + 27, y: y - 18, class: "label" });
    number.textContent = String(p);
    drawing.append(number);
    const value = targets.has(ref) ? valueOf(ui.analysis, targets.get(ref).text) : null;
    if (value) {
      const text = svg("text", { x: x - 12, y: y + 44, class: `value ${value.value.result}` });
      text.textContent = short(value);
      drawing.append(text);
    }
  }
  box.append(drawing);

  const hands = el("p", {
    text: t("In hand: White {white} · Black {black}", {
      white: "●".repeat(view.in_hand.w.C) + "▲".repeat(view.in_hand.w.T),
      black: "●".repeat(view.in_hand.b.C) + "▲".repeat(view.in_hand.b.T),
    }),
  });
  box.append(hands);
  if (legal.length && placing) {
    const pick = el("div", { class: "hand-pick", role: "group", "aria-label": t("shape to place") });
    for (const [letter, name] of [["C", t("Place a circle")], ["T", t("Place a triangle")]]) {
      const has = legal.some((c) => c.kind === "place" && c.details.shape === letter);
      const button = el("button", { type: "button", "data-shape": letter, text: name, onclick: () => { shape = letter; render(root, m, ui); } });
      button.disabled = !has;
      if (shape === letter) button.classList.add("chosen");
      pick.append(button);
    }
    box.append(pick);
    const hint = !shape ? t("{side}: choose a shape to place.", { side: mover })
      : shape === "C" ? t("{side}: click a lit point to place your circle.", { side: mover })
        : t("{side}: click a lit point to place your triangle.", { side: mover });
    box.append(el("p", { class: "muted", text: hint }));
  } else if (legal.length) {
    box.append(el("p", { class: "muted", text: from ? t("Click a lit point to move there (or the piece again to let go).") : t("{side}: click one of your top pieces (blue) to move it.", { side: mover }) }));
  }
  if (ui.analysis && ui.analysis.moves.length) {
    const list = el("ul", { class: "values-list", "aria-label": t("move values") });
    // each move in words (its choice's label, as the buttons and the log say it), never notation
    const words = new Map(legal.map((c) => [c.text, c.label]));
    for (const move of ui.analysis.moves) list.append(el("li", { class: move.value.result, "data-action": move.action, text: `${words.get(move.action) || move.action}: ${move.text}` }));
    box.append(el("h3", { text: t("Every move, from the solved table") }), list);
  }
  root.append(box);
}
