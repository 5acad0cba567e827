// The colour theme, on every page: the system's choice (prefers-color-scheme) unless the player
// picked light or dark with the switch in the page's header, remembered in this browser.
// Loaded in each page's <head> as a plain (not deferred) script, so the choice is on <html>
// (data-theme) before the page is first painted: no flash of the other theme. The style
// sheets do the rest (fanfold.css: the colours are custom properties, set for each theme).
(function () {
  const KEY = "fanfold.theme";
  const CHOICES = { system: "Match the system", light: "Light", dark: "Dark" };
  const root = document.documentElement;

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
  function addSwitch() {
    const bar = document.querySelector("header.bar");
    if (!bar || bar.querySelector(".theme-switch")) return;
    const label = document.createElement("label");
    label.className = "theme-switch";
    const words = document.createElement("span");
    words.textContent = "Theme";
    const select = document.createElement("select");
    select.id = "theme";
    for (const [value, text] of Object.entries(CHOICES)) select.add(new Option(text, value));
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
      const shown = dark() ? "dark" : "light";
      said.textContent = select.value === "system"
        ? `Theme: the system's, ${shown} now.`
        : `Theme: ${shown}.`;
    });
    label.append(words, select);
    bar.append(label, said);
    // another tab changed it: this one follows
    addEventListener("storage", (event) => {
      if (event.key !== KEY && event.key !== null) return;
      apply(stored());
      select.value = stored();
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", addSwitch);
  else addSwitch();
})();
