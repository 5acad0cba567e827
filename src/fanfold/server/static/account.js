// The account page: who is signed in, sign in, create an account, sign out (everywhere).
import { api, t } from "/static/common.js";

const $ = (id) => document.getElementById(id);

async function show() {
  const me = await api("GET", "/api/account");
  $("signed-in").hidden = !me.signed_in;
  $("signed-out").hidden = me.signed_in;
  $("who").textContent = me.signed_in ? t("Signed in as {name}.", { name: me.name }) : t("You play as a guest.");
  if (me.signed_in) $("profile").href = `/players/${encodeURIComponent(me.name)}`;
}

// A refusal as the site shows its errors: a sentence (its first letter a capital), in red,
// under the form it answers (or under the page's buttons).
function showError(box, error) {
  const text = error ? error.message : "";
  box.textContent = text ? `${text[0].toUpperCase()}${text.slice(1)}` : "";
}

function submitter(form, path, box) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    for (const id of ["error", "sign-in-error", "create-error"]) $(id).textContent = "";
    const data = new FormData(form);
    try {
      await api("POST", path, { name: data.get("name"), password: data.get("password") });
      form.reset();
      await show();
    } catch (error) {
      showError(box, error);
    }
  });
}

async function leave(method, path) {
  $("error").textContent = "";
  try {
    await api(method, path);
    await show();
  } catch (error) {
    showError($("error"), error);
  }
}

submitter($("sign-in-form"), "/api/session", $("sign-in-error"));
submitter($("create-form"), "/api/accounts", $("create-error"));
$("sign-out").addEventListener("click", () => leave("DELETE", "/api/session"));
$("sign-out-all").addEventListener("click", () => leave("DELETE", "/api/sessions"));
show().catch((error) => showError($("error"), error));
