// The colour theme, on every page: the system's choice (prefers-color-scheme) unless the player
// picked light or dark with the switch in the page's header, remembered in this browser.
// Loaded in each page's <head> as a plain (not deferred) script, so the choice is on <html>
// (data-theme) before the page is first painted: no flash of the other theme. The style
// sheets do the rest (fanfold.css: the colours are custom properties, set for each theme).
// It also asks, as early as can be, for the page scripts' catalogue of the page's language
// (window.fanfoldMessages, a promise that common.js awaits), and adds the language switch beside
// the theme's on the pages drawn in a language (their head lists the languages).
(function () {
  const KEY = "fanfold.theme";
  const root = document.documentElement;
  const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content || "";
  const source = meta("fanfold-messages");
  window.fanfoldMessages = source
    ? fetch(source).then((answer) => (answer.ok ? answer.json() : {})).catch(() => ({}))
    : Promise.resolve({});
  let messages = {};
  // A message in the page's language (common.js has the same for the module scripts).
  const t = (key, params = {}) => (typeof messages[key] === "string" ? messages[key] : key)
    .replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));

  function stored() {
    try {
      const value = localStorage.getItem(KEY);
      return value === "light" || value === "dark" ? value : "system";
    } catch {
      return "system"; // storage refused: the system's choice
    }
  }

  function apply(choice) {
    if (choice === "light" || choice === "dark") root.dataset.theme = choice;
    else delete root.dataset.theme;
  }

  function dark() {
    const chosen = root.dataset.theme;
    return chosen ? chosen === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  }

  apply(stored());

  // The switch: a labelled list in the header bar (reached with Tab, changed with the arrow
  // keys), and a polite status line that says the theme now shown.
  async function addSwitch() {
    messages = await window.fanfoldMessages;
    const bar = document.querySelector("header.bar");
    if (!bar || bar.querySelector(".theme-switch")) return;
    const label = document.createElement("label");
    label.className = "theme-switch";
    const words = document.createElement("span");
    words.textContent = t("Theme");
    const select = document.createElement("select");
    select.id = "theme";
    const choices = { system: t("Match the system"), light: t("Light"), dark: t("Dark") };
    for (const [value, text] of Object.entries(choices)) select.add(new Option(text, value));
    select.value = stored();
    const said = document.createElement("span");
    said.className = "visually-hidden";
    said.id = "theme-said";
    said.setAttribute("role", "status");
    select.addEventListener("change", () => {
      try {
        if (select.value === "system") localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, select.value);
      } catch {
        // not remembered: this page still changes
      }
      apply(select.value);
      said.textContent = select.value === "system"
        ? (dark() ? t("Theme: the system's, dark now.") : t("Theme: the system's, light now."))
        : (dark() ? t("Theme: dark.") : t("Theme: light."));
    });
    label.append(words, select);
    bar.append(label, said);
    addLanguages(bar);
    // another tab changed it: this one follows
    addEventListener("storage", (event) => {
      if (event.key !== KEY && event.key !== null) return;
      apply(stored());
      select.value = stored();
    });
  }

  // The language switch: the languages the page's head lists, each named in its own words;
  // a pick is kept in the `lang` cookie (the server draws the pages in it) and the page is
  // drawn again.
  function addLanguages(bar) {
    const offered = meta("fanfold-languages").split(" ").filter(Boolean).map((pair) => pair.split(":"));
    if (offered.length < 2) return;
    const label = document.createElement("label");
    label.className = "language-switch";
    const words = document.createElement("span");
    words.className = "visually-hidden"; // the languages' own names say what the list is
    words.textContent = t("Language");
    const select = document.createElement("select");
    select.id = "language";
    for (const [code, name] of offered) {
      const option = new Option(name, code);
      option.lang = code;
      select.add(option);
    }
    select.value = root.lang;
    select.addEventListener("change", () => {
      document.cookie = `lang=${encodeURIComponent(select.value)}; path=/; max-age=31536000; samesite=lax`;
      location.reload();
    });
    label.append(words, select);
    bar.append(label);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", addSwitch);
  else addSwitch();
})();
