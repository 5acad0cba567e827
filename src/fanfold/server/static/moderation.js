// The moderators' page (/moderation): open reports with their context, reported chat lines
// with the lines around them, the fair-play flags,
// the appeals and the recent log; an account looked up, closed (its opponents refunded) or
// reopened with a note. The same file serves /appeal, where a closed account's owner sends an
// appeal with the account's name and password.
import { api, el, t } from "/static/common.js";
import { phraseWords } from "/static/phrases.js";

const $ = (id) => document.getElementById(id);

// A moment in the page's language's way (a date is data: translate="no").
function when(seconds) {
  const moment = new Date(seconds * 1000);
  const shown = moment.toLocaleString(document.documentElement.lang || undefined);
  return el("time", { datetime: moment.toISOString(), translate: "no" }, shown);
}

function tell(sentence) {
  $("error").textContent = "";
  $("done").textContent = sentence;
}

function complain(error) {
  $("done").textContent = "";
  $("error").textContent = error.message;
}

function person(who) {
  const link = el("a", { href: `/players/${encodeURIComponent(who.name)}`, text: who.name, translate: "no" });
  return who.closed ? el("span", {}, link, " ", t("(closed)")) : link;
}

function tableLink(table) {
  return el("a", { href: `/table/${encodeURIComponent(table)}`, text: table, translate: "no" });
}

function choose(name) {
  $("account-name").value = name;
  $("note").focus();
  lookUp().catch(complain);
}

function chooser(name) {
  return el("button", { type: "button", text: t("Choose {name}", { name }), onclick: () => choose(name) });
}

function fill(id, rows, empty) {
  const body = $(id).querySelector("tbody");
  body.replaceChildren(...rows);
  $(id).hidden = rows.length === 0;
  $(empty).hidden = rows.length > 0;
}

function cell(...children) {
  return el("td", {}, ...children);
}

// A reported line with the lines around it, each as text (a player's words are never markup;
// a preset phrase is worded in the page's language).
function chatLines(report) {
  const list = el("ol", { class: "chat-context" });
  for (const line of report.lines) {
    const seat = line.seat === null ? t("spectator") : t("seat {number}", { number: line.seat + 1 });
    const room = line.room === "players" ? t("players' room") : t("spectators' room");
    const said = line.phrase
      ? el("span", {}, phraseWords(line.phrase, line.text))
      : el("span", { translate: "no" }, line.text);
    const item = el("li", {}, el("span", { translate: "no" }, line.name), ` (${seat}, ${room}): `, said);
    if (line.id === report.message) item.className = "reported";
    list.append(item);
  }
  return list;
}

async function settle(report) {
  const note = $("note").value.trim();
  if (!note) throw new Error(t("Write a note for the log first (the note box above)."));
  await api("POST", `/api/moderation/reports/${report.id}/resolve`, { note });
  tell(t("Report {number} settled.", { number: report.id }));
  await load();
}

async function settleChat(report) {
  const note = $("note").value.trim();
  if (!note) throw new Error(t("Write a note for the log first (the note box above)."));
  await api("POST", `/api/moderation/chat-reports/${report.id}/settle`, { note });
  tell(t("Chat report {number} settled.", { number: report.id }));
  await load();
}

async function load() {
  const [reports, flags, appeals, log, chat] = await Promise.all([
    api("GET", "/api/moderation/reports"),
    api("GET", "/api/moderation/flags"),
    api("GET", "/api/moderation/appeals"),
    api("GET", "/api/moderation/log"),
    api("GET", "/api/moderation/chat-reports"),
  ]);
  fill(
    "reports",
    reports.reports.map((report) =>
      el(
        "tr",
        {},
        cell(when(report.at)),
        cell(person(report.reported), " ", t("(seat {number})", { number: report.seat })),
        cell(el("span", { translate: "no" }, report.reason)),
        cell(el("span", { translate: "no" }, report.note)),
        cell(
          tableLink(report.table),
          " ",
          el("span", { translate: "no" }, report.game),
          report.moves === 1
            ? (report.rated ? t(", rated, 1 move") : t(", 1 move"))
            : (report.rated ? t(", rated, {moves} moves", { moves: report.moves }) : t(", {moves} moves", { moves: report.moves })),
        ),
        cell(person(report.reporter)),
        cell(
          el("span", { class: "buttons" },
            chooser(report.reported.name),
            el("button", { type: "button", text: t("Settle"), onclick: () => settle(report).catch(complain) }),
          ),
        ),
      ),
    ),
    "no-reports",
  );
  fill(
    "chat-reports",
    chat.reports.map((report) =>
      el(
        "tr",
        {},
        cell(when(report.at)),
        cell(tableLink(report.table)),
        cell(el("span", { translate: "no" }, report.reporter)),
        cell(el("span", { translate: "no" }, report.note)),
        cell(chatLines(report)),
        cell(el("button", { type: "button", text: t("Settle"), onclick: () => settleChat(report).catch(complain) })),
      ),
    ),
    "no-chat-reports",
  );
  fill(
    "flags",
    flags.flags.map((flag) =>
      el(
        "tr",
        {},
        cell(when(flag.at)),
        cell(el("span", { translate: "no" }, flag.kind)),
        cell(person(flag.first), " ", t("and"), " ", person(flag.second)),
        cell(tableLink(flag.table)),
      ),
    ),
    "no-flags",
  );
  fill(
    "appeals",
    appeals.appeals.map((appeal) =>
      el("tr", {}, cell(when(appeal.at)), cell(person(appeal.account)), cell(el("span", { translate: "no" }, appeal.note)), cell(chooser(appeal.account.name))),
    ),
    "no-appeals",
  );
  fill(
    "log",
    log.log.map((entry) =>
      el(
        "tr",
        { translate: "no" }, // the log's own record: names, the action's code, notes
        cell(when(entry.at)),
        cell(entry.moderator),
        cell(entry.action),
        cell(entry.account || ""),
        cell(entry.note),
        cell(entry.detail),
      ),
    ),
    "no-log",
  );
}

// An account's summary's values (its role is a code: data, as the log's actions are).
function words(found) {
  return { name: found.name, role: found.role, reports: found.open_reports, flags: found.flags, appeals: found.appeals };
}

async function lookUp() {
  const name = $("account-name").value.trim();
  if (!name) throw new Error(t("Give an account's name."));
  const found = await api("GET", `/api/moderation/accounts/${encodeURIComponent(name)}`);
  const summary = found.closed
    ? t("{name}: {role}, closed; open reports: {reports}, flags: {flags}, appeals: {appeals}", words(found))
    : t("{name}: {role}, open; open reports: {reports}, flags: {flags}, appeals: {appeals}", words(found));
  $("account-summary").textContent = found.refunded
    ? `${summary}${t("; {points} points refunded to its opponents", { points: found.refunded.toFixed(1) })}`
    : summary;
}

async function act(action) {
  const name = $("account-name").value.trim();
  const note = $("note").value.trim();
  if (!name) throw new Error(t("Give an account's name."));
  if (!note) throw new Error(t("Write a note for the log: why."));
  const done = await api("POST", `/api/moderation/accounts/${encodeURIComponent(name)}/${action}`, { note });
  if (action === "close") {
    tell(
      t(
        "{name} is closed. Sessions ended: {sessions}; reports settled: {reports}; points given back to its opponents: {points} (games: {games}).",
        {
          name: done.account,
          sessions: done.sessions_ended,
          reports: done.reports_settled,
          points: done.refunded.toFixed(1),
          games: done.refunds.length,
        },
      ),
    );
  } else {
    tell(t("{name} is open again (refunds stay given).", { name: done.account }));
  }
  $("note").value = "";
  await lookUp();
  await load();
}

function moderate() {
  $("moderation").hidden = false;
  $("look-up").addEventListener("click", () => lookUp().catch(complain));
  $("close-account").addEventListener("click", () => act("close").catch(complain));
  $("reopen-account").addEventListener("click", () => act("reopen").catch(complain));
  $("account-form").addEventListener("submit", (event) => {
    event.preventDefault();
    lookUp().catch(complain);
  });
  load().catch(complain);
}

function appeal() {
  document.title = `${t("Appeal")} · fanfold`;
  $("appeal").hidden = false;
  const form = $("appeal-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    try {
      await api("POST", "/api/appeals", { name: data.get("name"), password: data.get("password"), note: data.get("note") });
      form.reset();
      tell(t("Your appeal is sent; the moderators will read it."));
    } catch (error) {
      complain(error);
    }
  });
}

if (window.location.pathname.startsWith("/appeal")) appeal();
else moderate();
