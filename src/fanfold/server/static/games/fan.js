// Fan patience: eighteen fans and four foundations. Click a card (or drag it) and then where
// it goes; a card with only one place to go goes there on a double click.
import { cardElement, el, suitSymbol } from "../common.js";

const SUITS = ["C", "D", "H", "S"];
const RANK_TEXT = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
let selected = null; // {fan, count}

function movesFrom(legal, fan, count) {
  return legal.filter((text) => {
    const [from, rest] = text.split("-");
    if (Number(from) !== fan) return false;
    const n = rest.includes(":") ? Number(rest.split(":")[1]) : 1;
    return n === count;
  });
}

function target(text) {
  return text.split("-")[1].split(":")[0];
}

export function render(root, m, ui) {
  const view = m.view;
  const legal = m.legal;
  root.replaceChildren();
  const top = el("div", { class: "fan-top" });
  top.append(el("span", { class: "grow", text: `Deal ${view.deal}` }));
  const foundations = el("div", { class: "fan-top", "aria-label": "foundations" });
  for (const suit of SUITS) {
    const rank = view.foundations[suit];
    const slot = rank ? cardElement(`${RANK_TEXT[rank]}${suit}`) : el("div", { class: "slot", text: suitSymbol(suit) });
    slot.dataset.foundation = suit;
    foundations.append(slot);
  }
  const sourceMoves = selected ? movesFrom(legal, selected.fan, selected.count) : [];
  if (sourceMoves.some((t) => target(t) === "F")) {
    for (const slot of foundations.children) {
      slot.classList.add("target");
      slot.addEventListener("click", () => go(`${selected.fan}-F`));
    }
  }
  root.append(top, foundations);

  const fans = el("div", { class: "fans", "aria-label": "fans" });
  function go(text) {
    selected = null;
    ui.act(text);
  }
  view.fans.forEach((cards, index) => {
    const number = index + 1;
    const fan = el("div", { class: "fan", "data-fan": String(number) });
    const wrap = el("div", {}, el("div", { class: "fan-label", text: `fan ${number}` }), fan);
    const moveHere = sourceMoves.find((t) => target(t) === String(number));
    if (moveHere) {
      fan.classList.add("target");
      fan.addEventListener("click", (event) => {
        event.stopPropagation();
        go(moveHere);
      });
    }
    if (!cards.length) fan.append(el("div", { class: "slot", text: "" }));
    cards.forEach((card, depth) => {
      const count = cards.length - depth;
      const node = cardElement(card);
      const moves = movesFrom(legal, number, count);
      if (moves.length && !ui.replay) {
        node.classList.add("playable");
        node.draggable = true;
        node.addEventListener("dragstart", (event) => {
          selected = { fan: number, count };
          event.dataTransfer.setData("text/plain", `${number}:${count}`);
        });
        node.addEventListener("click", (event) => {
          if (moveHere) return;
          event.stopPropagation();
          const same = selected && selected.fan === number && selected.count === count;
          selected = same ? null : { fan: number, count };
          render(root, m, ui);
        });
        node.addEventListener("dblclick", (event) => {
          event.stopPropagation();
          const home = moves.find((t) => target(t) === "F") || (moves.length === 1 ? moves[0] : null);
          if (home) go(home);
        });
      }
      if (selected && selected.fan === number && count <= selected.count) node.classList.add("selected");
      fan.append(node);
    });
    fan.addEventListener("dragover", (event) => {
      if (selected && movesFrom(legal, selected.fan, selected.count).some((t) => target(t) === String(number))) event.preventDefault();
    });
    fan.addEventListener("drop", (event) => {
      event.preventDefault();
      const move = selected && movesFrom(legal, selected.fan, selected.count).find((t) => target(t) === String(number));
      if (move) go(move);
    });
    fans.append(wrap);
  });
  for (const slot of foundations.children) {
    slot.addEventListener("dragover", (event) => {
      if (selected && movesFrom(legal, selected.fan, selected.count).some((t) => target(t) === "F")) event.preventDefault();
    });
    slot.addEventListener("drop", (event) => {
      event.preventDefault();
      if (selected) go(`${selected.fan}-F`);
    });
  }
  root.append(fans);
  if (!ui.replay && !m.outcome && legal.length === 0) root.append(el("p", { text: "No moves left." }));
  if (selected) root.append(el("p", { class: "muted", text: "Now click where the card goes (highlighted), or the card again to let go." }));
}
