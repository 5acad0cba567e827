// Fan Tan: the four rows built from the starting rank, the players with their card counts,
// passes and chips, and your hand with the cards you may play lit.
import { cardBack, cardElement, el, keyable, suitSymbol, t } from "../common.js";

// The view's name of the score (fanfold.games.fantan.view), in the page's language.
function scoreKind(kind) {
  const names = { "hands won": t("hands won"), "net chips": t("net chips"), "penalty points": t("penalty points") };
  return names[kind] || kind;
}

export function render(root, m, ui) {
  const view = m.view;
  root.replaceChildren();
  // the pool where chips are played for (or some lie in it); each seat's score is on its line
  const words = { number: view.hand_number + 1, rank: view.start_rank, pool: view.pool };
  const chips = view.score_kind === "net chips" || view.pool > 0;
  const head = el("p", {
    class: "ft-heading",
    text: chips ? t("Hand {number} · rows start at {rank} · pool {pool} chips", words) : t("Hand {number} · rows start at {rank}", words),
  });
  root.append(head);
  // a match's next hand opens with a word on the last: who went out first
  if (view.last_winner !== null && view.last_winner !== undefined) {
    const name = view.last_winner === m.seat ? t("you") : ui.seatName(view.last_winner);
    root.append(el("p", { class: "ft-last-hand", text: t("Previous hand won by {name}.", { name }) }));
  }
  const ranks = view.config.ace_high ? "23456789TJQKA" : "A23456789TJQK";
  const rows = el("div", { class: "ft-rows", role: "group", "aria-label": t("layout") });
  for (const suit of ["C", "D", "H", "S"]) {
    const row = el("div", { class: "ft-row", "data-suit": suit });
    row.append(el("span", { class: "suit", text: suitSymbol(suit) }));
    const played = new Set(view.layout[suit]);
    for (const rank of ranks) {
      const card = `${rank}${suit}`;
      if (played.has(card)) {
        const node = cardElement(card);
        // rank over suit, so that a row's narrow card stays readable on a phone
        node.firstChild.className = "corner";
        node.firstChild.replaceChildren(el("span", { text: rank === "T" ? "10" : rank }), el("span", { text: suitSymbol(suit) }));
        node.dataset.ref = card; // the last move marks the card played by its text
        row.append(node);
      }
      else if (rank === view.start_rank && !played.size) row.append(el("div", { class: "slot", text: rank }));
      else row.append(el("span"));
    }
    rows.append(row);
  }
  root.append(rows);

  const players = el("div", { class: "ft-players", role: "group", "aria-label": t("players") });
  view.hand_counts.forEach((count, seat) => {
    const box = el("div", { class: "ft-player" });
    if (m.decider === seat) box.classList.add("deciding");
    const name = seat === m.seat ? t("{name} (you)", { name: ui.seatName(seat) }) : ui.seatName(seat);
    const passes = view.passes[seat];
    const cards = count === 1 ? t("1 card") : t("{count} cards", { count });
    const passed = passes === 1 ? t("1 pass") : t("{count} passes", { count: passes });
    const line = { name, cards, passes: passed, score: scoreKind(view.score_kind), points: view.scores[seat] };
    box.textContent = seat === view.dealer
      ? t("{name}: {cards} · {passes} · {score} {points} · dealer", line)
      : t("{name}: {cards} · {passes} · {score} {points}", line);
    players.append(box);
  });
  root.append(players);

  if (view.revealed) {
    const shown = el("div", { role: "group", "aria-label": t("revealed hands") });
    view.revealed.forEach((cards, seat) => {
      if (seat === view.player) return; // the player's own hand is shown once, below
      if (!cards.length) {
        shown.append(el("p", { text: t("{name}: no cards left", { name: ui.seatName(seat) }) }));
        return;
      }
      const hand = el("div", { class: "hand" });
      for (const card of cards) hand.append(cardElement(card, "dim"));
      shown.append(el("p", { text: t("{name}:", { name: ui.seatName(seat) }) }), hand);
    });
    root.append(shown);
  }

  if (view.player === null || view.player === undefined) {
    const backs = el("p", { class: "muted", text: t("Spectating: hands are hidden.") });
    root.append(backs);
    return;
  }
  const handBox = el("div", { class: "ft-hand" });
  handBox.append(el("h3", { text: t("Your hand") }));
  const hand = el("div", { class: "hand", role: "group", "aria-label": t("your hand") });
  // The legal actions as the server describes them: a play points at its card in the hand.
  const choices = m.choices || [];
  const plays = new Map(choices.filter((c) => c.kind === "play").map((c) => [c.points[0], c]));
  for (const card of view.hand) {
    const node = cardElement(card);
    const play = plays.get(card);
    if (play) {
      node.classList.add("playable");
      node.title = play.label;
      keyable(node, () => ui.act(play.text), play.label);
    } else if (choices.length) {
      node.classList.add("dim");
    }
    hand.append(node);
  }
  if (!view.hand.length) hand.append(cardBack());
  handBox.append(hand);
  for (const choice of choices.filter((c) => !c.points.length)) {
    handBox.append(
      el("div", { class: "legal-buttons" }, el("button", { type: "button", "data-action": choice.text, text: choice.label, onclick: () => ui.act(choice.text) })),
    );
  }
  root.append(handBox);
}
