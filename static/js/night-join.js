/* A guest's one way into a night of several tables: the night says where they sit (their key kept on this phone),
   or seats them by the name they type at the emptiest table; then the phone goes to that table's page, its seat's
   token kept as any seat's is. */
import { postJson, store } from "./common.js";
import { lang, ready, t } from "./i18n.js";

const night = document.body.dataset.night;
const guestKey = `pr.night.${night}`;
const $ = (id) => document.getElementById(id);

function notice(message) {
  $("notice").textContent = message;
  $("notice").hidden = false;
}

async function ask(path, body) {
  return (await postJson(`/n/${night}/${path}?lang=${lang}`, body)) || { ok: false, error: { message: t("night.busy") } };
}

/* To the table: its page, with the seat's token where that page keeps it (or as a newcomer to its audience). */
function go(answer) {
  if (answer.token) store(`pr.token.${answer.room}`, answer.token);
  if (answer.guest) store(guestKey, answer.guest);
  $("finding").hidden = false;
  $("finding").textContent = t("night.your_table", { n: answer.table });
  location.replace(`/join/${answer.room}`);
}

async function start() {
  await ready;
  const guest = store(guestKey);
  if (guest) {
    const answer = await ask("where", { guest });
    if (answer.ok) return go(answer);
    store(guestKey, null); // a night that no longer knows this phone: it joins again by name
  }
  $("join-form").hidden = false;
  $("name").value = store("pr.name") || "";
  $("join-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = $("name").value.trim();
    if (!name) return;
    store("pr.name", name);
    const answer = await ask("seat", { name });
    if (answer.ok) go(answer);
    else notice(answer.error.message);
  });
}

start();
