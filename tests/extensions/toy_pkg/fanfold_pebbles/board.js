// Pebbles' board: the pile, and a button for each number of pebbles the player may take.
import { el } from "../common.js";

export function render(root, m, ui) {
  root.replaceChildren();
  const left = m.view.left;
  root.append(el("p", { class: "pile", "aria-label": `${left} pebbles left`, text: "●".repeat(left) || "(empty)" }));
  if (m.choices.length) {
    const box = el("div", { class: "legal-buttons", "aria-label": "legal moves" });
    for (const choice of m.choices) box.append(el("button", { type: "button", "data-action": choice.text, text: choice.label, onclick: () => ui.act(choice.text) }));
    root.append(box);
  }
}
