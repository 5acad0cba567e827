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

function submitter(form, path) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $("error").textContent = "";
    const data = new FormData(form);
    try {
      await api("POST", path, { name: data.get("name"), password: data.get("password") });
      form.reset();
      await show();
    } catch (error) {
      $("error").textContent = error.message;
    }
  });
}

async function leave(method, path) {
  $("error").textContent = "";
  try {
    await api(method, path);
    await show();
  } catch (error) {
    $("error").textContent = error.message;
  }
}

submitter($("sign-in-form"), "/api/session");
submitter($("create-form"), "/api/accounts");
$("sign-out").addEventListener("click", () => leave("DELETE", "/api/session"));
$("sign-out-all").addEventListener("click", () => leave("DELETE", "/api/sessions"));
show().catch((error) => { $("error").textContent = error.message; });
