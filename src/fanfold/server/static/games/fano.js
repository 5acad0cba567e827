// Fano: the seats around the table (commander, four field slots, draw pile, discards, hand),
// the Fano plane with its seven directed cycles, and every action by pointing. Click cards to
// select them: the cards that complete an action light up, and the actions the selection makes
// are offered as buttons (an attack goes at once when the lit target allows only one). The
// legal actions come from the server as choices (the message's ``choices``): the cards each one
// points at, named by the references the view gives every card, a label in words and details
// (the support an attack needs and whether it is held); this module sends back the text of
// the one chosen and never reads the notation. The plane's cycles and the attacks possible now
// come from the view too: the drawing is this module's, the rules are the server's.
import { botName, cardBack, el, saidText, suitSymbol, t } from "../common.js";

const SVG = "http://www.w3.org/2000/svg";
// Where the plane's points are drawn: 1 on top, 4 and 6 at the bottom corners, 2, 5, 3 the
// middles of the sides, 7 the centre (the view's cycles say which way each line turns). The
// How-to-play page draws the plane from the same numbers (fanfold/server/fano_plane.py:
// POINTS, STRAIGHT, CENTRE, RADIUS; tests/server/test_fano_plane.py keeps them equal).
const POINTS = { 1: [100, 24], 2: [55, 102], 3: [100, 180], 4: [10, 180], 5: [145, 102], 6: [190, 180], 7: [100, 128] };
// The words below are the page's language's, asked for as the board is drawn (t() reads the
// catalogue the page loaded).
const COMMANDERS = () => [t("Jack"), t("Queen"), t("King")];
// their initials on a seat's badge (French: V, D, R)
const COMMANDER_INITIALS = () => [t("J"), t("Q"), t("K")];
const PHASES = () => ({
  "draw-shuffle": t("draw phase: reshuffle"),
  mulligan: t("draw phase: redraw?"),
  main: t("main phase"),
  react: t("counter window"),
  shuffle: t("main phase: reshuffle"),
  end: t("end of turn"),
  over: t("game over"),
});
const SPECIALS = () => ({ reverse: "Reverse Fano", oversum: "Oversum", joker: t("Temporary Joker"), defend: t("Perfect defense") });
const RANKS = { A: "A", T: "10" };

let selection = []; // the references of the selected cards, in the order clicked
let selectionKey = null; // table version and seat the selection belongs to
let drawnBefore = null; // the card references drawn last time, for the entry animation
let drawnKey = null;
const openPiles = new Set(); // discard piles being browsed
let clockTimer = null;

// ------------------------------------------------------------------------------ cards
function isJoker(text) {
  return /^(JK|TJ)\d?$/.test(text);
}

function valueOf(text) {
  const joker = /^(JK|TJ)(\d?)$/.exec(text);
  if (joker) return Number(joker[2] || 0);
  const rank = text.slice(0, -1);
  if (rank === "A") return 1;
  if (rank === "T" || rank === "10") return 10;
  return Number(rank);
}

function pretty(text) {
  const joker = /^(JK|TJ)(\d?)$/.exec(text);
  if (joker && joker[2]) return joker[1] === "TJ" ? t("temporary joker as {value}", { value: joker[2] }) : t("joker as {value}", { value: joker[2] });
  if (joker) return joker[1] === "TJ" ? t("temporary joker") : t("joker");
  const rank = text.slice(0, -1);
  return `${RANKS[rank] || rank}${suitSymbol(text.slice(-1))}`;
}

function cardNode(text, extra = "") {
  const node = document.createElement("div");
  node.dataset.card = text;
  // read as drawn, with the suit's symbol ("10♥"); a card to choose is a button (card())
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", pretty(text));
  // the bottom corner is drawn by the style sheet (data-pip), not text: the card's name holds
  // all the text it shows
  if (isJoker(text)) {
    node.className = `card joker ${extra}`.trim();
    const value = valueOf(text);
    node.setAttribute("aria-label", `${pretty(text)} (${text.startsWith("TJ") ? "T★" : "★"})`);
    node.append(el("span", { text: text.startsWith("TJ") ? "T★" : "★", translate: "no" }), el("span", { class: "pip-bottom", translate: "no", "aria-hidden": "true", "data-pip": value ? String(value) : "" }));
    return node;
  }
  const suit = text.slice(-1);
  node.className = `card ${suit === "H" || suit === "D" ? "red" : ""} ${extra}`.trim();
  const label = pretty(text);
  // a card's rank and suit are notation, not words
  node.append(el("span", { text: label, translate: "no" }), el("span", { class: "pip-bottom", translate: "no", "aria-hidden": "true", "data-pip": label }));
  return node;
}

// Escape: clear the selection; true when there was one.
export function cancel() {
  const had = selection.length > 0;
  selection = [];
  return had;
}

// ---------------------------------------------------------------------------- the end
// Why the others did not win, for the table's end panel: in Trionfey's "All for one" partners
// play their turns together but each wins alone, so a partner's win is not the player's. Who
// won, each other seat's promotions, partners named (one sentence a line).
export function endNotes(m, ui) {
  const view = m.view;
  const outcome = m.outcome;
  if (!outcome || !view?.teams || view.config?.teams !== "all-for-one" || outcome.winners.length !== 1) return [];
  const need = view.config.promotions_to_win;
  const winner = outcome.winners[0];
  const me = view.player ?? null;
  const team = (seat) => view.teams[seat];
  const times = need === 1 ? t("1 time") : t("{count} times", { count: need });
  const lines = [
    winner === me
      ? t("All for one: partners take their turns together, but each player wins alone. You promoted your commander {times} first, and win alone.", { times })
      : t("All for one: partners take their turns together, but each player wins alone. {name} promoted their commander {times} first, and wins alone.", { name: ui.seatName(winner), times }),
  ];
  view.players.forEach((player, seat) => {
    if (seat === winner) return;
    const promotions = t("{level} of {count} promotions", { level: player.level, count: need });
    const partner = team(seat) === team(winner);
    const side = "AB"[team(seat)];
    if (seat === me) {
      lines.push(partner
        ? t("You, {winner}'s partner, do not share the win: {promotions}.", { winner: ui.seatName(winner), promotions })
        : t("You, partnership {side}: {promotions}.", { side, promotions }));
    } else if (partner) {
      lines.push(winner === me
        ? t("{name}, your partner, does not share the win: {promotions}.", { name: ui.seatName(seat), promotions })
        : t("{name}, {winner}'s partner, does not share the win: {promotions}.", { name: ui.seatName(seat), winner: ui.seatName(winner), promotions }));
    } else {
      lines.push(me !== null && team(seat) === team(me)
        ? t("{name}, partnership {side} (your partner): {promotions}.", { name: ui.seatName(seat), side, promotions })
        : t("{name}, partnership {side}: {promotions}.", { name: ui.seatName(seat), side, promotions }));
    }
  });
  return lines;
}

// --------------------------------------------------------------------------- actions
// The legal actions of a state message, from its choices: each with the cards to click for it
// (``keys``: the references the view gives the cards, e.g. "f:SEAT:CARD" in play and
// "h:SEAT:CARD" in hand) or none (a button of its own), a label in words, and details.
export function actionsOf(m) {
  return (m.choices || []).map((c) => ({ text: c.text, kind: c.kind, keys: c.points, label: c.label, details: c.details }));
}

function contains(keys, chosen) {
  return chosen.every((ref) => keys.includes(ref));
}

// ---------------------------------------------------------------------------- the plane
function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// The plane as the rules draw it: six straight lines and the circle, each a directed cycle
// (small arrowheads show which way it turns). Attacks possible now are drawn as bold arrows.
const STRAIGHT = [[1, 2, 4], [1, 5, 6], [4, 3, 6], [1, 7, 3], [2, 7, 6], [5, 7, 4]]; // in the order they lie
const CENTRE = [100, 128];
const RADIUS = 51;

function arcMiddle(a, b) {
  // the middle of the shorter arc from a to b, and the direction of travel there
  const angle = (p) => Math.atan2(POINTS[p][1] - CENTRE[1], POINTS[p][0] - CENTRE[0]);
  const from = angle(a);
  let delta = angle(b) - from;
  while (delta > Math.PI) delta -= 2 * Math.PI;
  while (delta < -Math.PI) delta += 2 * Math.PI;
  const middle = from + delta / 2;
  const sign = Math.sign(delta);
  return { x: CENTRE[0] + RADIUS * Math.cos(middle), y: CENTRE[1] + RADIUS * Math.sin(middle), dx: -Math.sin(middle) * sign, dy: Math.cos(middle) * sign };
}

function head(x, y, dx, dy, size, cls) {
  const length = Math.hypot(dx, dy) || 1;
  const ux = dx / length;
  const uy = dy / length;
  const tip = [x + ux * size, y + uy * size];
  const left = [x - ux * size * 0.6 - uy * size * 0.7, y - uy * size * 0.6 + ux * size * 0.7];
  const right = [x - ux * size * 0.6 + uy * size * 0.7, y - uy * size * 0.6 - ux * size * 0.7];
  return svg("polygon", { points: `${tip.join(",")} ${left.join(",")} ${right.join(",")}`, class: cls });
}

function plane(cycles, arrows, pending) {
  const drawing = svg("svg", { viewBox: "-6 10 212 186", class: "fano-plane", role: "img", "aria-label": t("the Fano plane: its seven directed cycles") });
  for (const [a, , c] of STRAIGHT) {
    drawing.append(svg("line", { x1: POINTS[a][0], y1: POINTS[a][1], x2: POINTS[c][0], y2: POINTS[c][1], class: "plane-line" }));
  }
  drawing.append(svg("circle", { cx: CENTRE[0], cy: CENTRE[1], r: RADIUS, class: "plane-line" }));
  // which way each cycle turns: an arrowhead on each step between neighbours
  for (const cycle of cycles) {
    for (let i = 0; i < 3; i++) {
      const a = cycle[i];
      const b = cycle[(i + 1) % 3];
      const line = STRAIGHT.find((l) => l.includes(a) && l.includes(b));
      if (!line) {
        const arc = arcMiddle(a, b); // the circle 2 -> 3 -> 5
        drawing.append(head(arc.x, arc.y, arc.dx, arc.dy, 4, "plane-turn"));
        continue;
      }
      if (line.indexOf(a) + line.indexOf(b) === 2) continue; // the two ends: the step back round
      const [x1, y1] = POINTS[a];
      const [x2, y2] = POINTS[b];
      drawing.append(head((x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1, 4, "plane-turn"));
    }
  }
  for (const key of [...arrows, ...(pending ? [pending] : [])]) {
    const [a, b] = key.split(">").map(Number);
    const kind = key === pending ? "attack" : "lit";
    const [x1, y1] = POINTS[a];
    const [x2, y2] = POINTS[b];
    const length = Math.hypot(x2 - x1, y2 - y1);
    const ux = (x2 - x1) / length;
    const uy = (y2 - y1) / length;
    const line = STRAIGHT.find((l) => l.includes(a) && l.includes(b));
    const ends = line && line.indexOf(a) + line.indexOf(b) === 2;
    // the step back round a line bends inwards, over the middle point; a step round the
    // circle bends outwards, along it
    const size = ends ? 0.22 * length : line ? 0.06 * length : 0.12 * length;
    const mx = (x1 + x2) / 2;
    const my = (y1 + y2) / 2;
    const inwards = (CENTRE[0] - mx) * -uy + (CENTRE[1] - my) * ux >= 0 ? 1 : -1;
    const bend = size * (line ? inwards : -inwards);
    const cx = mx - uy * bend;
    const cy = my + ux * bend;
    const start = [x1 + ux * 12, y1 + uy * 12];
    const end = [x2 - ux * 15, y2 - uy * 15];
    drawing.append(svg("path", { d: `M${start.join(",")} Q${cx},${cy} ${end.join(",")}`, class: `arrow ${kind}`, "data-arrow": key }));
    // the head points along the curve's last stretch
    drawing.append(head(end[0], end[1], end[0] - cx, end[1] - cy, 6, `arrow-head ${kind}`));
  }
  for (let p = 1; p <= 7; p++) {
    const [x, y] = POINTS[p];
    drawing.append(svg("circle", { cx: x, cy: y, r: 10, class: "plane-point" }));
    const label = svg("text", { x, y: y + 4.5, class: "plane-label", "text-anchor": "middle" });
    label.textContent = String(p);
    drawing.append(label);
  }
  return drawing;
}

// ---------------------------------------------------------------------------- the table
function seatOrder(count, bottom) {
  const others = [];
  for (let step = 1; step < count; step++) others.push((bottom + step) % count);
  const k = others.length;
  if (count >= 5) return { left: [], top: others, right: [] }; // a crowd: every seat along the top
  const sides = k <= 2 ? 0 : k <= 5 ? 1 : 2;
  return { left: others.slice(0, sides), top: others.slice(sides, k - sides), right: others.slice(k - sides) };
}

// A seat's partnership (0 or 1) as the view gives it, or null without partnerships.
function teamOf(view, seat) {
  return view.teams ? view.teams[seat] : null;
}

export function render(root, m, ui) {
  const view = m.view;
  const config = view.config;
  const players = view.players;
  const count = players.length;
  const me = view.player ?? null;
  const bottom = me ?? 0;
  const deciding = (m.choices?.length ?? 0) > 0 && !ui.replay;
  const selectionOwner = `${m.table}:${m.version}:${m.seat}`;
  if (selectionKey !== selectionOwner) {
    selection = [];
    selectionKey = selectionOwner;
  }
  if (clockTimer) clearInterval(clockTimer);
  clockTimer = null;

  // The legal actions, as the server describes them.
  const pending = view.attack;
  const actions = deciding ? actionsOf(m) : [];
  const keyed = actions.filter((a) => a.keys.length);
  const global = actions.filter((a) => !a.keys.length);
  const candidates = keyed.filter((a) => contains(a.keys, selection));
  const ready = selection.length ? candidates.filter((a) => a.keys.length === selection.length) : [];
  const lit = new Set();
  for (const a of candidates) for (const ref of a.keys) if (!selection.includes(ref)) lit.add(ref);
  const usable = new Set(keyed.flatMap((a) => a.keys));

  // Where cards were last time: new ones get a short entry animation.
  const drawn = new Set();
  const owner = `${m.table}:${m.seat}`;
  const animate = drawnKey === owner && drawnBefore !== null;

  function click(ref) {
    if (selection.includes(ref)) selection = selection.filter((r) => r !== ref);
    else if (lit.has(ref)) selection = [...selection, ref];
    else selection = [ref];
    const after = keyed.filter((a) => contains(a.keys, selection));
    const done = after.filter((a) => a.keys.length === selection.length);
    if (after.length === 1 && done.length === 1 && (done[0].kind === "attack" || done[0].kind === "declare")) {
      go(done[0].text);
      return;
    }
    render(root, m, ui);
    // an action the selection makes is ready: its buttons brought on screen (a phone's are
    // below the board)
    if (done.length) root.querySelector(".fano-actions button")?.scrollIntoView({ block: "nearest" });
  }

  function go(text) {
    selection = [];
    ui.act(text);
  }

  function card(text, ref, extra = "") {
    const node = cardNode(text, extra);
    node.dataset.ref = ref;
    // the mark the style sheet draws in the card's middle, in the page's language
    if (extra === "protected") node.dataset.mark = t("def");
    if (extra === "face-down-own") node.dataset.mark = t("down");
    drawn.add(ref);
    if (animate && !drawnBefore.has(ref)) node.classList.add("fresh");
    if (!deciding) return node;
    const chosen = selection.includes(ref);
    if (chosen) node.classList.add("selected");
    if (lit.has(ref)) node.classList.add("target");
    else if (!selection.length && usable.has(ref)) node.classList.add("playable");
    if (chosen || lit.has(ref) || usable.has(ref)) {
      node.tabIndex = 0;
      node.setAttribute("role", "button");
      node.addEventListener("click", () => click(ref));
      node.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          click(ref);
        }
      });
    }
    return node;
  }

  // The support each lit target needs, for the selected attacker.
  function targetBadge(ref) {
    const aimed = candidates.filter((a) => (a.kind === "attack" || a.kind === "declare") && a.keys[1] === ref && selection.length === 1 && a.keys[0] === selection[0]);
    if (!aimed.length) return null;
    const needs = aimed[0].details.needs;
    if (aimed[0].kind === "attack") {
      const supports = [...new Set(aimed.map((a) => pretty(a.details.support)))];
      return el("span", { class: "badge", "aria-hidden": "true", title: aimed.map((a) => a.label).join("\n"), "data-text": `${needs}: ${supports.join("/")}` });
    }
    const first = aimed[0].details;
    return el("span", { class: `badge ${first.bluff ? "bluff" : ""}`.trim(), "aria-hidden": "true", title: aimed[0].label, "data-text": first.bluff ? t("{needs}: bluff", { needs }) : `${needs}: ${pretty(first.held)}` });
  }

  const last = {};
  for (const entry of m.log) last[entry.seat] = saidText(entry.said, entry.words) || entry.text; // in words, as the log

  function seatPanel(seat) {
    const p = players[seat];
    const mine = seat === me;
    const team = teamOf(view, seat);
    const box = el("section", { class: `fano-seat ${mine ? "mine" : "other"}`, "data-seat": String(seat), "aria-label": ui.seatName(seat) });
    if (seat === view.turn_player) box.classList.add("turn");
    if (m.decider === seat) box.classList.add("deciding");
    const head = el("div", { class: "seat-head" });
    // a seat's name is a name (the game's, a player's), not words to translate
    head.append(mine ? el("strong", { text: t("{name} (you)", { name: ui.seatName(seat) }) }) : el("strong", { text: ui.seatName(seat), translate: "no" }));
    const level = p.level;
    const promotions = t("{level} of {count} promotions", { level, count: config.promotions_to_win });
    head.append(
      el("span", { class: "commander", translate: "no", title: `${COMMANDERS()[Math.min(level, 2)]}: ${promotions}`, text: `${COMMANDER_INITIALS()[Math.min(level, 2)]}${level > 2 ? "+" : ""} ${level}/${config.promotions_to_win}` }),
    );
    if (team !== null) {
      const partner = me !== null && seat !== me && teamOf(view, me) === team;
      head.append(el("span", { class: `team team-${team}`, text: partner ? t("{side} · partner", { side: "AB"[team] }) : "AB"[team] }));
      if (seat === view.priority) head.append(el("span", { class: "tag", text: t("priority") }));
    }
    if (seat === view.turn_player && !m.outcome) head.append(el("span", { class: "tag now", text: t("to play") }));
    if (pending && pending.defender === seat) head.append(el("span", { class: "tag defend", text: t("defending") }));
    if (view.target_seat === seat && !pending) head.append(el("span", { class: "tag", text: t("attacked this turn") }));
    const bot = m.seats?.[seat];
    if (bot?.bot) head.append(el("span", { class: "muted small", text: botName(bot.player) }));
    box.append(head);

    // the field: four slots
    const row = el("div", { class: "field", role: "group", "aria-label": t("{name}: field", { name: ui.seatName(seat) }) });
    const cards = p.field.map((text, i) => {
      const extra = p.protected.includes(text) ? "protected" : "";
      const ref = p.field_refs[i];
      const node = card(text, ref, extra);
      if (pending && pending.target === text && pending.defender === seat) node.classList.add("attacked");
      if (pending && pending.attacker === text && view.turn_player === seat) node.classList.add("attacking");
      const badge = lit.has(ref) ? targetBadge(ref) : null;
      if (badge) {
        // the badge is drawn by the style sheet (data-text); its words go into the card's name
        node.append(badge);
        node.setAttribute("aria-label", `${node.getAttribute("aria-label")}: ${badge.title.split("\n").join("; ")}`);
      }
      return node;
    });
    if (mine) view.face_down_in_play.forEach((text, i) => cards.push(card(text, view.face_down_in_play_refs[i], "face-down-own")));
    for (let i = 0; i < p.face_down_in_play && !mine; i++) {
      const back = cardBack();
      back.classList.add("face-down-play");
      back.title = t("a card in play face down (Perfect defense)");
      cards.push(back);
    }
    while (cards.length < 4) cards.push(el("div", { class: "slot" }));
    row.append(...cards);
    box.append(row);

    // hand, piles, counters
    const line = el("div", { class: "seat-line" });
    const hand = el("div", { class: "hand", role: "group", "aria-label": mine ? t("your hand") : t("{name}: hand", { name: ui.seatName(seat) }) });
    if (mine) {
      view.hand_refs.forEach((ref, i) => hand.append(card(view.hand[i], ref, p.known_in_hand.includes(view.hand[i]) ? "known" : "")));
    } else {
      const known = p.known_in_hand;
      known.forEach((text, i) => hand.append(card(text, `k:${seat}:${text}:${i}`, "known")));
      for (let i = known.length; i < p.hand_count; i++) hand.append(cardBack());
    }
    if (!p.hand_count) hand.append(el("span", { class: "muted small", text: t("no cards in hand") }));
    line.append(hand);
    const piles = el("div", { class: "piles" });
    piles.append(el("span", { class: "pile", title: t("draw pile"), text: p.jokers_on_draw_pile ? t("draw {count} ({jokers} joker on top)", { count: p.draw_count, jokers: p.jokers_on_draw_pile }) : t("draw {count}", { count: p.draw_count }) }));
    const up = p.face_up_discards;
    const pileKey = `${m.table}:${seat}`;
    const browse = el("button", { type: "button", class: "pile up", "data-pile": String(seat), "aria-expanded": String(openPiles.has(pileKey)), title: t("face-up discard pile: click to look through it"), text: t("discards ↑{count}", { count: up.length }) });
    browse.addEventListener("click", () => {
      if (openPiles.has(pileKey)) openPiles.delete(pileKey);
      else openPiles.add(pileKey);
      render(root, m, ui);
    });
    piles.append(browse);
    const down = mine ? view.face_down_discards.length : p.face_down_count;
    piles.append(el("span", { class: "pile", title: t("face-down discards"), text: `↓${down}` }));
    if (config.tribute) piles.append(el("span", { class: "pile tribute", title: t("tribute counters"), text: t("tribute {count}", { count: p.tribute }) }));
    const used = p.specials_used.filter(([at]) => at === level).map(([, name]) => SPECIALS()[name] || name);
    if (used.length) piles.append(el("span", { class: "pile", title: t("specials used since the last promotion"), text: t("used: {specials}", { specials: used.join(", ") }) }));
    if (p.temporary_jokers && !config.edition?.startsWith("trionfey")) piles.append(el("span", { class: "pile", text: t("temporary jokers {count}", { count: p.temporary_jokers }) }));
    line.append(piles);
    box.append(line);
    if (openPiles.has(pileKey)) {
      const list = el("div", { class: "discards", role: "group", "aria-label": t("{name}: face-up discards", { name: ui.seatName(seat) }) });
      for (const text of up) list.append(cardNode(text, "mini"));
      if (mine && view.face_down_discards.length) {
        list.append(el("span", { class: "muted small", text: t("face down:") }));
        for (const text of view.face_down_discards) list.append(cardNode(text, "mini dim"));
      }
      if (!list.children.length) list.append(el("span", { class: "muted small", text: t("empty") }));
      box.append(list);
    }
    if (last[seat] && !mine) box.append(el("div", { class: "last", title: t("last action"), text: t("last: {action}", { action: last[seat] }) }));
    return box;
  }

  // --- the page
  root.replaceChildren();
  const wrap = el("div", { class: `fano seats-${count}`, "data-version": String(m.version) });
  const turnName = ui.seatName(view.turn_player);
  const strip = el("div", { class: "fano-strip", role: "group", "aria-label": t("turn") });
  strip.append(el("span", { text: m.outcome
    ? t("Turn {number} · game over", { number: view.turn })
    : t("Turn {number} · {name} · {phase}", { number: view.turn, name: turnName, phase: PHASES()[view.phase] || view.phase }) }));
  const wins = config.promotions_to_win === 1 ? t("1 promotion wins") : t("{count} promotions win", { count: config.promotions_to_win });
  const teams = config.teams === "none" ? "" : config.teams === "one-for-all" ? t("One for all") : t("All for one");
  if (config.edition === "trionfey") strip.append(el("span", { class: "muted", text: ["Trionfey", wins, teams].filter(Boolean).join(" · ") }));
  else strip.append(el("span", { class: "muted", text: count > 2 ? t("{wins} · each attacks the next player", { wins }) : wins }));
  if (view.player === null || view.player === undefined) strip.append(el("span", { class: "tag", text: ui.replay ? t("replay: public view") : t("spectating: hands hidden") }));
  wrap.append(strip);

  const ring = el("div", { class: `fano-ring ${count >= 5 ? "crowd" : ""}`.trim() });
  const order = seatOrder(count, bottom);
  for (const [side, seats] of Object.entries(order)) {
    const column = el("div", { class: `ring-${side}` });
    for (const seat of seats) column.append(seatPanel(seat));
    ring.append(column);
  }

  // the centre: the plane with the attacks possible now, and the attack under way
  const centre = el("div", { class: "ring-centre" });
  const arrows = new Set();
  const attacks = actions.filter((a) => a.kind === "attack" || a.kind === "declare");
  const chosenAttacker = selection.length === 1 && attacks.some((a) => a.keys[0] === selection[0]) ? selection[0] : null;
  for (const a of attacks) {
    if (chosenAttacker && a.keys[0] !== chosenAttacker) continue;
    arrows.add(a.details.arrow.join(">"));
  }
  // Not our decision: the attacks the player to move could make, from what is in play.
  if (!actions.length) for (const arrow of view.plane.arrows) arrows.add(arrow.join(">"));
  const pendingArrow = pending ? pending.arrow.join(">") : null;
  centre.append(plane(view.plane.cycles, arrows, pendingArrow));
  const caption = el("p", { class: "plane-caption muted small" });
  caption.textContent = chosenAttacker
    ? t("Lit: what the selected card can attack. The support is the third card of the line.")
    : t("a → b: a attacks b with the third card of their line in hand. Lit: the attacks possible now.");
  centre.append(caption);
  if (pending) {
    const attack = {
      name: ui.seatName(view.turn_player), attacker: pretty(pending.attacker), target: pretty(pending.target), defender: ui.seatName(pending.defender),
      support: pending.support ? pretty(pending.support) : "",
    };
    const words = pending.support
      ? (pending.reverse ? t("{name}: {attacker} attacks {target} of {defender} (Reverse Fano); the support {support} was shown.", attack) : t("{name}: {attacker} attacks {target} of {defender}; the support {support} was shown.", attack))
      : (pending.reverse ? t("{name}: {attacker} attacks {target} of {defender} (Reverse Fano); the support is shown when the attack resolves.", attack) : t("{name}: {attacker} attacks {target} of {defender}; the support is shown when the attack resolves.", attack));
    centre.append(el("div", { class: "pending", role: "status", text: words }));
  }
  ring.append(centre);

  const mineBox = el("div", { class: "ring-bottom" });
  mineBox.append(seatPanel(bottom));
  const bar = actionBar();
  if (bar.children.length) mineBox.append(bar);
  ring.append(mineBox);
  wrap.append(ring);
  root.append(wrap);
  drawnBefore = drawn;
  drawnKey = owner;

  // --- what to do now
  function actionBar() {
    const bar = el("div", { class: "fano-actions", role: "group", "aria-label": t("your actions") });
    if (!deciding) {
      if (me !== null && !m.outcome && !ui.replay && m.decider !== null) {
        const who = ui.seatName(m.decider);
        const text = pending && m.decider === pending.defender ? t("{name} may counter or allow…", { name: who }) : t("{name} to decide…", { name: who });
        bar.append(el("p", { class: "prompt muted", text }));
        clock(bar);
      }
      return bar;
    }
    const prompt = el("p", { class: "prompt" });
    if (view.phase === "react" && pending) {
      prompt.textContent = pending.support
        ? t("{name} showed the support {support}: your {target} is lost unless you sacrifice a face-down card.", { name: ui.seatName(view.turn_player), support: pretty(pending.support), target: pretty(pending.target) })
        : t("{name} attacks your {target} with {attacker} (it needs a {needs} from hand, maybe a bluff). Counter, or allow?", { name: ui.seatName(view.turn_player), target: pretty(pending.target), attacker: pretty(pending.attacker), needs: pending.needs });
      prompt.classList.add("alert");
    } else if (view.phase === "mulligan") {
      prompt.textContent = config.edition === "trionfey" ? t("You drew 8, 9 and 10: redraw, or keep them?") : t("Your hand is all prestige cards: mulligan, or keep it?");
    } else if (view.phase === "draw-shuffle" || view.phase === "shuffle") {
      prompt.textContent = t("Your draw pile is empty: reshuffle your discard pile.");
    } else if (view.phase === "end") {
      prompt.textContent = t("You promoted: end your turn (play, substitute, discard or pass).");
    } else if (!selection.length) {
      prompt.textContent = config.edition === "trionfey"
        ? t("Your turn. Click a card of yours in play to attack, combine, recruit or defend with it; a card in your hand to play, substitute or discard it.")
        : t("Your turn. Click a card of yours in play to attack or combine with it; a card in your hand to play, substitute or discard it.");
    } else {
      const hints = new Set();
      for (const a of candidates) {
        if (a.keys.length === selection.length) continue;
        hints.add(
          {
            attack: t("Attack: click a lit card of your opponent (its badge shows the support)."),
            declare: t("Declare an attack: click a lit enemy card (its badge shows the support you need, or a bluff)."),
            combine: t("Combine: click another lit card of yours in play."),
            sub: t("Substitute: click the lit card to replace (in play) or to play (in hand)."),
            discard: t("Discard several: click more lit cards in your hand."),
            recruit: t("Recruit: click the lit cards in play that recruit it (two)."),
          }[a.kind] || t("Click a lit card."),
        );
      }
      prompt.textContent = hints.size || ready.length ? [...hints].join(" ") || t("Choose:") : t("Nothing to do with that card: click another.");
    }
    bar.append(prompt);
    clock(bar);
    const buttons = el("div", { class: "legal-buttons" });
    for (const a of ready) buttons.append(actionButton(a, "primary"));
    for (const a of global) buttons.append(actionButton(a, a.kind === "promote" || a.kind === "counter" ? "primary" : ""));
    if (selection.length) buttons.append(el("button", { type: "button", class: "clear", text: t("Clear selection"), onclick: () => { selection = []; render(root, m, ui); } }));
    bar.append(buttons);
    return bar;
  }

  function actionButton(a, kind) {
    return el("button", { type: "button", class: kind, "data-action": a.text, text: a.label, onclick: () => go(a.text) });
  }

  function clock(bar) {
    if (!m.clock) return;
    const started = performance.now();
    const node = el("span", { class: "clock", role: "timer" });
    const tick = () => {
      const left = Math.max(0, m.clock.left - (performance.now() - started) / 1000);
      node.textContent = t("{seconds} s left", { seconds: Math.ceil(left) });
      node.classList.toggle("low", left < 6);
    };
    tick();
    clockTimer = setInterval(tick, 250);
    bar.append(node);
  }
}
