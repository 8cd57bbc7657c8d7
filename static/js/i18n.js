/* Words in the reader's language. The catalogs are the server's (partyrummy/locales, served as /i18n/TAG.json);
   this only picks one per device, remembers it, fills the page's data-i18n keys and formats messages. */
const root = document.documentElement;
const languages = JSON.parse(root.dataset.languages || "[]"); // [[tag, its own name], …], English first
const storeKey = root.dataset.langStore || "pr.lang"; // the TV and the phone each keep their own choice
const listeners = [];
export let lang = "en"; // the page's language, once its catalog is in
let messages = {};
let plurals = null;
let zero = null; // the plural category a count of 0 takes, where the catalog says speakers differ from CLDR

function remembered(value) {
  try {
    if (value === undefined) return localStorage.getItem(storeKey);
    localStorage.setItem(storeKey, value);
  } catch (e) {
    /* private mode: the choice lasts until the page closes */
  }
  return null;
}

/* A message filled with its parameters: "{name}" takes params.name. */
function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (params && name in params ? String(params[name]) : whole));
}

function missing(key) {
  console.error(`no message ${key} in ${lang}`); // a test's console watch catches it
  return key;
}

export function t(key, params) {
  const text = messages[key];
  return typeof text === "string" ? fill(text, params) : missing(key);
}

/* A plural message: its form for the count n (CLDR categories, as Intl.PluralRules names them). */
export function tn(key, n, params) {
  const forms = messages[key];
  if (!forms || typeof forms !== "object") return missing(key);
  const category = n === 0 && zero ? zero : plurals.select(n); // "0 pontos": the catalog's say (its header)
  return fill(forms[category] ?? forms.other, { n, ...params });
}

/* "Ana, Bob and Cy" in this language. */
export function list(items) {
  if (items.length < 2 || !Intl.ListFormat) return items.join(" & ");
  return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items);
}

/* Every key the page holds: text (data-i18n, with data-i18n-args as JSON), aria-label and alt. */
function apply(scope) {
  for (const node of scope.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.dataset.i18n, node.dataset.i18nArgs ? JSON.parse(node.dataset.i18nArgs) : null);
  }
  for (const node of scope.querySelectorAll("[data-i18n-aria-label]")) node.setAttribute("aria-label", t(node.dataset.i18nAriaLabel));
  for (const node of scope.querySelectorAll("[data-i18n-alt]")) node.setAttribute("alt", t(node.dataset.i18nAlt));
}

async function load(tag) {
  // Only this screen's words (data-screen: "tv" or "phone"); a page without one gets every page word.
  const screen = root.dataset.screen;
  const response = await fetch(`/i18n/${encodeURIComponent(tag)}.json${screen ? `?screen=${screen}` : ""}`);
  if (!response.ok) throw new Error(`no catalog for ${tag}`);
  return response.json();
}

/* Switch the page to another language: its catalog, every static word, then whoever listens re-renders. */
async function use(tag) {
  const catalog = await load(tag);
  lang = catalog.lang;
  messages = catalog.messages;
  plurals = new Intl.PluralRules(lang);
  zero = catalog.zero || null;
  root.lang = lang;
  apply(document);
  for (const menu of document.querySelectorAll("select.lang-menu")) menu.value = lang;
  root.classList.add("i18n-ready");
  for (const listener of listeners) listener(lang);
}

function menus() {
  for (const menu of document.querySelectorAll("select.lang-menu")) {
    for (const [tag, name] of languages) {
      const option = document.createElement("option");
      option.value = tag;
      option.lang = tag;
      option.textContent = name; // each language in its own words, so anyone can find theirs
      menu.append(option);
    }
    menu.addEventListener("change", () => {
      remembered(menu.value);
      use(menu.value);
    });
  }
}

menus();
// The server chose the page's language from the browser's (<html lang>); a choice made on this device wins.
const chosen = remembered();
export const ready = use(languages.some(([tag]) => tag === chosen) ? chosen : root.lang).catch(() => use("en"));

/* Called with the new language each time the reader switches (the pages re-render in it). */
export function onChange(listener) {
  listeners.push(listener);
}
