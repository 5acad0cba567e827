// The moderators' page (/moderation): open reports with their context, reported chat lines
// with the lines around them, the fair-play flags,
// the appeals and the recent log; an account looked up, closed (its opponents refunded) or
// reopened with a note. The same file serves /appeal, where a closed account's owner sends an
// appeal with the account's name and password.
import { api, el } from "/static/common.js";

const $ = (id) => document.getElementById(id);

function when(seconds) {
  return new Date(seconds * 1000).toLocaleString();
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
  const link = el("a", { href: `/players/${encodeURIComponent(who.name)}`, text: who.name });
  return who.closed ? el("span", {}, link, " (closed)") : link;
}

function tableLink(table) {
  return el("a", { href: `/table/${encodeURIComponent(table)}`, text: table });
}

function choose(name) {
  $("account-name").value = name;
  $("note").focus();
  lookUp().catch(complain);
}

function chooser(name) {
  return el("button", { type: "button", text: `Choose ${name}`, onclick: () => choose(name) });
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

// A reported line with the lines around it, each as text (a player's words are never markup).
function chatLines(report) {
  const list = el("ol", { class: "chat-context" });
  for (const line of report.lines) {
    const seat = line.seat === null ? "spectator" : `seat ${line.seat + 1}`;
    const item = el("li", { text: `${line.name} (${seat}, ${line.room}): ${line.text}` });
    if (line.id === report.message) item.className = "reported";
    list.append(item);
  }
  return list;
}

async function settle(report) {
  const note = $("note").value.trim();
  if (!note) throw new Error("write a note for the log first (the note box above)");
  await api("POST", `/api/moderation/reports/${report.id}/resolve`, { note });
  tell(`Report ${report.id} settled.`);
  await load();
}

async function settleChat(report) {
  const note = $("note").value.trim();
  if (!note) throw new Error("write a note for the log first (the note box above)");
  await api("POST", `/api/moderation/chat-reports/${report.id}/settle`, { note });
  tell(`Chat report ${report.id} settled.`);
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
        cell(person(report.reported), ` (seat ${report.seat})`),
        cell(report.reason),
        cell(report.note),
        cell(tableLink(report.table), ` ${report.game}${report.rated ? ", rated" : ""}, ${report.moves} moves`),
        cell(person(report.reporter)),
        cell(
          el("span", { class: "buttons" },
            chooser(report.reported.name),
            el("button", { type: "button", text: "Settle", onclick: () => settle(report).catch(complain) }),
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
        cell(report.reporter),
        cell(report.note),
        cell(chatLines(report)),
        cell(el("button", { type: "button", text: "Settle", onclick: () => settleChat(report).catch(complain) })),
      ),
    ),
    "no-chat-reports",
  );
  fill(
    "flags",
    flags.flags.map((flag) =>
      el("tr", {}, cell(when(flag.at)), cell(flag.kind), cell(person(flag.first), " and ", person(flag.second)), cell(tableLink(flag.table))),
    ),
    "no-flags",
  );
  fill(
    "appeals",
    appeals.appeals.map((appeal) =>
      el("tr", {}, cell(when(appeal.at)), cell(person(appeal.account)), cell(appeal.note), cell(chooser(appeal.account.name))),
    ),
    "no-appeals",
  );
  fill(
    "log",
    log.log.map((entry) =>
      el("tr", {}, cell(when(entry.at)), cell(entry.moderator), cell(entry.action), cell(entry.account || ""), cell(entry.note), cell(entry.detail)),
    ),
    "no-log",
  );
}

async function lookUp() {
  const name = $("account-name").value.trim();
  if (!name) throw new Error("give an account's name");
  const found = await api("GET", `/api/moderation/accounts/${encodeURIComponent(name)}`);
  $("account-summary").textContent =
    `${found.name}: ${found.role}, ${found.closed ? "closed" : "open"}; ` +
    `${found.open_reports} open report(s), ${found.flags} flag(s), ${found.appeals} appeal(s)` +
    (found.refunded ? `; ${found.refunded.toFixed(1)} points refunded to its opponents` : "");
}

async function act(action) {
  const name = $("account-name").value.trim();
  const note = $("note").value.trim();
  if (!name) throw new Error("give an account's name");
  if (!note) throw new Error("write a note for the log: why");
  const done = await api("POST", `/api/moderation/accounts/${encodeURIComponent(name)}/${action}`, { note });
  if (action === "close") {
    tell(
      `${done.account} is closed: ${done.sessions_ended} session(s) ended, ${done.reports_settled} report(s) settled, ` +
      `${done.refunded.toFixed(1)} point(s) given back to its opponents (${done.refunds.length} game(s)).`,
    );
  } else {
    tell(`${done.account} is open again (refunds stay given).`);
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
  document.title = "Appeal · fanfold";
  $("appeal").hidden = false;
  const form = $("appeal-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    try {
      await api("POST", "/api/appeals", { name: data.get("name"), password: data.get("password"), note: data.get("note") });
      form.reset();
      tell("Your appeal is sent; the moderators will read it.");
    } catch (error) {
      complain(error);
    }
  });
}

if (window.location.pathname.startsWith("/appeal")) appeal();
else moderate();
