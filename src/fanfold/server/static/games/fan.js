// Fan patience: eighteen fans and four foundations. Click a card (or drag it) and then where
// it goes; a card with only one place to go goes there on a double click. The moves come as the
// message's choices: each points at the fan it takes cards from, then where they go (the
// view's fan references, or the foundations'), and says how many cards move together.
import { cardElement, el, keyable, suitSymbol, t } from "../common.js";

const SUITS = ["C", "D", "H", "S"];
const RANK_TEXT = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
let selected = null; // {fan, count}

function movesFrom(choices, fan, count) {
  return choices.filter((c) => c.points[0] === fan && c.details.count === count);
}

function target(choice) {
  return choice.points[1];
}

// A card under others shows its rank above its suit in the strip left uncovered ("10" over
// "♥"), so every card of a fan can be read.
function bury(node, card) {
  node.classList.add("buried");
  const rank = card[0] === "T" ? "10" : card.slice(0, -1);
  const label = node.firstChild;
  label.className = "corner";
  label.replaceChildren(el("span", { text: rank }), el("span", { text: suitSymbol(card.slice(-1)) }));
}

// Escape: let go of the chosen cards; true when there were some.
export function cancel() {
  const had = selected !== null;
  selected = null;
  return had;
}

export function render(root, m, ui) {
  const view = m.view;
  const legal = m.choices || [];
  const home = view.foundation_ref;
  root.replaceChildren();
  const top = el("div", { class: "fan-top" });
  top.append(el("span", { class: "grow", text: view.deal === null || view.deal === undefined ? "" : t("Deal {number}", { number: view.deal }) }));
  const foundations = el("div", { class: "fan-top", role: "group", "aria-label": t("foundations"), "data-ref": home });
  for (const suit of SUITS) {
    const rank = view.foundations[suit];
    const slot = rank ? cardElement(`${RANK_TEXT[rank]}${suit}`) : el("div", { class: "slot", text: suitSymbol(suit) });
    slot.dataset.foundation = suit;
    foundations.append(slot);
  }
  const sourceMoves = selected ? movesFrom(legal, selected.fan, selected.count) : [];
  const toFoundation = sourceMoves.find((c) => target(c) === home);
  if (toFoundation) {
    foundations.classList.add("target");
    keyable(foundations, () => go(toFoundation.text), `${toFoundation.label}`);
    for (const slot of foundations.children) slot.classList.add("target");
  }
  root.append(top, foundations);

  const fans = el("div", { class: "fans", role: "group", "aria-label": t("fans") });
  function go(text) {
    // text: a choice's text, as the server gave it
    selected = null;
    ui.act(text);
  }
  view.fans.forEach((cards, index) => {
    const number = index + 1;
    const ref = view.fan_refs[index];
    const fan = el("div", { class: "fan", "data-fan": String(number), "data-ref": ref });
    const wrap = el("div", {}, el("div", { class: "fan-label board-label", text: t("fan {number}", { number }) }), fan);
    const moveHere = sourceMoves.find((c) => target(c) === ref);
    if (moveHere) {
      fan.classList.add("target");
      fan.title = moveHere.label;
      keyable(fan, (event) => {
        event.stopPropagation();
        go(moveHere.text);
      }, moveHere.label);
    }
    if (!cards.length) fan.append(el("div", { class: "slot", text: "" }));
    cards.forEach((card, depth) => {
      const count = cards.length - depth;
      const node = cardElement(card);
      if (count > 1) bury(node, card);
      const moves = movesFrom(legal, ref, count);
      if (moves.length && !ui.replay) {
        node.classList.add("playable");
        node.draggable = true;
        node.addEventListener("dragstart", (event) => {
          selected = { fan: ref, count };
          event.dataTransfer.setData("text/plain", `${number}:${count}`);
        });
        const card = node.getAttribute("aria-label");
        const what = count > 1 ? t("{count} cards from {card}", { count, card }) : card;
        const same = selected && selected.fan === ref && selected.count === count;
        keyable(node, (event) => {
          if (moveHere) return;
          event.stopPropagation();
          selected = same ? null : { fan: ref, count };
          render(root, m, ui);
        }, same ? t("Let go of {what}, fan {number}", { what, number }) : t("Move {what}, fan {number}", { what, number }));
        node.dataset.focus = `${ref}:${count}`;
        node.addEventListener("dblclick", (event) => {
          event.stopPropagation();
          const only = moves.find((c) => target(c) === home) || (moves.length === 1 ? moves[0] : null);
          if (only) go(only.text);
        });
      }
      if (selected && selected.fan === ref && count <= selected.count) node.classList.add("selected");
      fan.append(node);
    });
    fan.addEventListener("dragover", (event) => {
      if (selected && movesFrom(legal, selected.fan, selected.count).some((c) => target(c) === ref)) event.preventDefault();
    });
    fan.addEventListener("drop", (event) => {
      event.preventDefault();
      const move = selected && movesFrom(legal, selected.fan, selected.count).find((c) => target(c) === ref);
      if (move) go(move.text);
    });
    fans.append(wrap);
  });
  for (const slot of foundations.children) {
    slot.addEventListener("dragover", (event) => {
      if (selected && movesFrom(legal, selected.fan, selected.count).some((c) => target(c) === home)) event.preventDefault();
    });
    slot.addEventListener("drop", (event) => {
      event.preventDefault();
      const move = selected && movesFrom(legal, selected.fan, selected.count).find((c) => target(c) === home);
      if (move) go(move.text);
    });
  }
  root.append(fans);
  if (!ui.replay && !m.outcome && legal.length === 0) root.append(el("p", { text: t("No moves left.") }));
  if (selected) root.append(el("p", { class: "muted", text: t("Now click where the card goes (highlighted), or the card again to let go.") }));
}
