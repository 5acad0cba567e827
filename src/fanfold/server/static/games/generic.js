// Any game: the text drawing of the view and a button per legal move.
import { el, t } from "../common.js";

export function render(root, m, ui) {
  root.replaceChildren();
  root.append(el("pre", { class: "render", text: m.text || JSON.stringify(m.view, null, 1) }));
  if (m.legal.length) {
    const box = el("div", { class: "legal-buttons", "aria-label": t("legal moves") });
    for (const text of m.legal) box.append(el("button", { type: "button", "data-action": text, text, onclick: () => ui.act(text) }));
    root.append(box);
  }
}
