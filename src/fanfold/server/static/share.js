// Links to share a game (its replay) or a position (the replay opening at a move:
// `/table/ID?replay=1&move=N`), copied with the clipboard where the browser allows it, and
// otherwise shown in a text field, selected, to copy by hand.
import { el, t } from "./common.js";

export function gameLink(tableId) {
  return `${location.origin}/table/${encodeURIComponent(tableId)}?replay=1`;
}

export function positionLink(tableId, move) {
  return `${gameLink(tableId)}&move=${move}`;
}

// The move a replay link opens at (`move=N`, at most `steps`), 0 without one; `error` says
// why a link's move was not used.
export function startMove(params, steps) {
  const asked = params.get("move");
  if (asked === null) return { move: 0, error: "" };
  if (!/^[0-9]{1,6}$/.test(asked)) {
    return { move: 0, error: t("The link's move \"{move}\" is not a move number: the replay opens at the start.", { move: asked.slice(0, 20) }) };
  }
  const move = Number(asked);
  if (move > steps) return { move: steps, error: t("The game has {steps} moves: the replay opens at the last.", { steps }) };
  return { move, error: "" };
}

// A button that copies the link `link()` gives when pressed, and the field it falls back to.
export function copyButton(id, label, link) {
  const field = el("input", { type: "text", readonly: "", id: `${id}-text`, class: "share-text", "aria-label": t("{label}: the link", { label }), hidden: "" });
  const said = el("span", { class: "share-said", role: "status", id: `${id}-said` });
  const copy = async () => {
    const url = link();
    field.value = url;
    try {
      if (!navigator.clipboard?.writeText) throw new Error("no clipboard here");
      await navigator.clipboard.writeText(url);
      field.hidden = true;
      said.textContent = t("Link copied");
    } catch {
      field.hidden = false;
      field.focus();
      field.select();
      said.textContent = t("Copy the link from the field");
    }
  };
  const button = el("button", { type: "button", id, text: label, onclick: copy });
  return el("span", { class: "share" }, button, field, said);
}
