"""The catalogs: every language complete, the same placeholders and plurals, and no words outside them.

A reader of any shipped language must never meet a missing message, an
English sentence in the middle of their own language, or a number with the
wrong plural. The checks below fail when a catalog lacks a key English has,
when a message drops or renames a placeholder, and when a template, a script
or the server's refusals hold a sentence of their own instead of a key.
"""

from __future__ import annotations

import ast
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
import tree_sitter_javascript
from flask import Flask, render_template
from tree_sitter import Language, Node, Parser

from partyrummy.i18n import DEFAULT_LANGUAGE, Catalogs, default_catalogs
from partyrummy.phones.bots import STRENGTHS
from partyrummy.phones.hand import Phase
from partyrummy.rules.cards import Card
from partyrummy.rules.errors import RummyError
from partyrummy.rules.variants import default_variants
from partyrummy.server.transport import sockets  # noqa: F401  (defines SlowDown, a refusal of its own)

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = sorted((ROOT / "templates").glob("*.html"))
SCRIPTS = sorted((ROOT / "static" / "js").glob("*.js"))
PYTHON = sorted((ROOT / "partyrummy").rglob("*.py"))
SHIPPED = ("en", "pt-BR", "es", "ro")


@pytest.fixture(scope="module")
def catalogs() -> Catalogs:
    return default_catalogs()


def messages(catalogs: Catalogs, tag: str) -> dict[str, str | tuple[str, ...]]:
    catalog = catalogs.languages[tag].catalog
    return {(m.id[0] if m.pluralizable else m.id): m.string for m in catalog if m.id}


def placeholders(text: str | tuple[str, ...]) -> set[str]:
    forms = text if isinstance(text, tuple) else (text,)
    return {name for form in forms for name in re.findall(r"\{(\w+)\}", form)}


# -- The catalogs themselves ------------------------------------------------------


def test_the_four_languages_are_shipped_each_named_in_itself(catalogs: Catalogs) -> None:
    assert dict(catalogs.names()) == {
        "en": "English",
        "es": "Español",
        "pt-BR": "Português (Brasil)",
        "ro": "Română",
    }
    assert next(iter(catalogs.languages)) == DEFAULT_LANGUAGE  # the menus list English first


def catalog_problems(catalogs: Catalogs, tag: str) -> list[str]:
    """What a reader of `tag` would meet that English readers do not: every difference from en.po."""
    english, other = messages(catalogs, "en"), messages(catalogs, tag)
    plurals = catalogs.languages[tag].catalog.num_plurals
    problems = [f"lacks {key}" for key in sorted(set(english) - set(other))]
    problems += [f"has {key}, which English has not" for key in sorted(set(other) - set(english))]
    for key, text in other.items():
        if key not in english:
            continue
        forms = text if isinstance(text, tuple) else (text,)
        if not all(form.strip() for form in forms):
            problems.append(f"{key} is empty")
        if isinstance(text, tuple) != isinstance(english[key], tuple):
            problems.append(f"{key} is plural in one, not the other")
        elif isinstance(text, tuple) and len(text) != plurals:
            problems.append(f"{key} has {len(text)} forms, the language has {plurals}")
        if placeholders(text) != placeholders(english[key]):
            problems.append(f"{key} changes the placeholders")
    problems += [f"{m.id} is fuzzy" for m in catalogs.languages[tag].catalog if m.id and m.fuzzy]
    return problems


@pytest.mark.parametrize("tag", SHIPPED)
def test_every_catalog_has_english_keys_placeholders_and_plural_shapes(catalogs: Catalogs, tag: str) -> None:
    assert catalog_problems(catalogs, tag) == []


def test_a_missing_key_an_empty_message_or_a_changed_placeholder_is_caught(tmp_path: Path) -> None:
    """The check above on a broken catalog: it fails, so it is worth its keep."""
    english = (ROOT / "partyrummy" / "locales" / "en.po").read_text()
    (tmp_path / "en.po").write_text(english)
    broken = (
        english.replace('msgid "call.draw"\nmsgstr "DRAW!"\n', "")
        .replace('"You do not hold {card}"', '"Nope"')
        .replace('msgstr "PAUSED"', 'msgstr ""')
        .replace('msgstr[1] "{n} cards"', 'msgstr[1] "{count} cards"')
    )
    (tmp_path / "es.po").write_text(broken.replace("Language: en", "Language: es"))
    assert catalog_problems(Catalogs(tmp_path), "es") == [
        "lacks call.draw",
        "call.paused is empty",
        "cards changes the placeholders",
        "error.not_held changes the placeholders",
    ]


def test_plural_forms_follow_each_language(catalogs: Catalogs) -> None:
    text = catalogs.text
    assert [text("en", "cards", n=n) for n in (1, 2)] == ["1 card", "2 cards"]
    assert [text("ro", "cards", n=n) for n in (1, 2, 19, 20, 101, 120)] == [
        "1 carte",
        "2 cărți",
        "19 cărți",
        "20 de cărți",  # twenty and up take "de" in Romanian…
        "101 cărți",  # …unless the last two digits are 01-19
        "120 de cărți",
    ]
    # Brazilians count zero in the plural, though CLDR puts 0 with 1: the catalog says so (X-Zero-Plural).
    assert [text("pt-BR", "points", n=n) for n in (0, 1, 2)] == ["0 pontos", "1 ponto", "2 pontos"]
    assert catalogs.page("pt-BR")["zero"] == "other" and catalogs.page("es")["zero"] is None
    assert [text("es", "points", n=n) for n in (0, 1, 2)] == ["0 puntos", "1 punto", "2 puntos"]


def test_a_card_in_a_message_is_named_in_the_readers_language_the_joker_by_its_word(catalogs: Catalogs) -> None:
    # A refusal or a notice naming the joker says "Coringa" to a Brazilian, never the code JK.
    assert "Coringa" in catalogs.text("pt-BR", "error.not_held", card=Card(0))
    assert "JK" not in catalogs.text("en", "error.not_complete", cards=(Card(7, 2), Card(0)))
    assert "7♥ Joker" in catalogs.text("en", "error.not_complete", cards=(Card(7, 2), Card(0)))


def test_the_pages_get_plurals_by_cldr_category_matching_the_servers_forms(catalogs: Catalogs) -> None:
    romanian = catalogs.page("ro")["messages"]["cards"]
    assert romanian == {"one": "{n} carte", "few": "{n} cărți", "other": "{n} de cărți"}
    spanish = catalogs.page("es")["messages"]["cards"]
    assert spanish["one"] == "{n} carta" and spanish["other"] == spanish["many"] == "{n} cartas"
    assert catalogs.page("pt-BR")["messages"]["call.draw"] == "COMPREM!"


def test_a_plural_formula_that_disagrees_with_cldr_is_refused(tmp_path: Path) -> None:
    english = (ROOT / "partyrummy" / "locales" / "en.po").read_text()
    (tmp_path / "en.po").write_text(english.replace("plural=(n != 1)", "plural=(n > 1)"))  # 0 singular: not English
    with pytest.raises(ValueError, match="disagree at n=2"):
        Catalogs(tmp_path)


@pytest.mark.parametrize(
    ("asked", "served"),
    [("pt-BR", "pt-BR"), ("pt-PT", "pt-BR"), ("pt", "pt-BR"), ("es-MX", "es"), ("RO", "ro"), ("ro_RO", "ro")]
    + [("en-GB", "en"), ("de-DE", "en"), ("", "en"), (None, "en"), (42, "en")],
)
def test_a_language_tag_finds_the_nearest_shipped_language(catalogs: Catalogs, asked: object, served: str) -> None:
    assert catalogs.find(asked) == served


def test_of_several_tags_the_first_that_fits_wins(catalogs: Catalogs) -> None:
    assert catalogs.find("fr-FR", "fr", "es-419", "en") == "es"
    assert catalogs.find("de", "it") == catalogs.find() == "en"


def test_english_says_what_variants_toml_says_of_each_shipped_variant(catalogs: Catalogs) -> None:
    for name, variant in default_variants().items():
        assert catalogs.text("en", f"variant.{name}.description") == variant.description
        assert catalogs.text("en", f"variant.{name}.name") == name
        for tag in SHIPPED:
            assert catalogs.text(tag, f"variant.{name}.name")


def test_every_message_the_engine_names_by_family_exists(catalogs: Catalogs) -> None:
    english = messages(catalogs, "en")
    keys = [f"phase.{p.value}" for p in Phase] + [f"bot.{s}" for s in STRENGTHS]
    keys += [f"notice.{code}" for code in ("replaced", "removed", "released", "to_bot")]
    keys += [
        f"call.{who}{last}_turn_{step}"
        for who in ("your", "their")
        for last in ("", "_last")
        for step in ("draw", "discard")
    ]
    keys += [f"status.{s}" for s in ("matched", "picked", "took_pile", "drew", "their_turn", "thinking", "next_hand")]
    keys += [f"health.{h}" for h in ("connected", "open", "bot", "reconnecting", "gone")]
    assert [key for key in keys if key not in english] == []


# -- Keys the code uses -----------------------------------------------------------

KEY = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")


JS = Parser(Language(tree_sitter_javascript.language()))


def js_strings(path: Path) -> list[tuple[str, bool, int]]:
    """Every string of a script, parsed: (its text with each ${…} as {}, whether it is code's own, its line).

    Code's own: a class name (`class: "…"`), or a message for developers (`console.error(…)`, `new Error(…)`).
    """
    tree = JS.parse(path.read_bytes())
    assert not tree.root_node.has_error, f"{path.name} does not parse"
    return [(_text(node), _codes_own(node), node.start_point[0] + 1) for node in _strings(tree.root_node)]


def _strings(node: Node) -> list[Node]:
    """The string and template-string nodes under `node`, in the order of the source."""
    if node.type in ("string", "template_string"):
        return [node]
    return [found for child in node.children for found in _strings(child)]


def _text(node: Node) -> str:
    return "".join(c.text.decode() if c.type != "template_substitution" else "{}" for c in node.children[1:-1])


def js_keys(path: Path) -> set[str]:
    """Every string given to t() or tn() (I18N's): the message keys a script names."""
    tree = JS.parse(path.read_bytes())
    calls, todo = [], [tree.root_node]
    while todo:
        node = todo.pop()
        todo.extend(node.children)
        function = node.child_by_field_name("function") if node.type == "call_expression" else None
        if function is not None and function.text in (b"t", b"tn", b"I18N.t", b"I18N.tn"):
            calls.append(node.child_by_field_name("arguments").named_children[0])
    return {text for call in calls for string in _strings(call) if KEY.match(text := _text(string))}


def _codes_own(node: Node) -> bool:
    parent = node.parent
    if parent.type == "pair":
        return parent.child_by_field_name("key").text == b"class"
    if parent.type == "arguments":
        call = parent.parent
        callee = call.child_by_field_name("function") or call.child_by_field_name("constructor")
        return callee is not None and (callee.text.startswith(b"console.") or callee.text == b"Error")
    return False


def template_keys(path: Path) -> set[str]:
    return set(re.findall(r'data-i18n(?:-[a-z-]+)?="([^"]+)"', path.read_text()))


# The server's calls that take a message key: refusals, and the room's and the catalogs' own.
SPEAKERS = {"text", "notify", "_unseat", "_lobby_only"}


def python_keys(path: Path) -> set[str]:
    kinds = all_refusals() | SPEAKERS
    calls = [n for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Call)]
    named = [c for c in calls if getattr(c.func, "id", getattr(c.func, "attr", None)) in kinds]
    strings = [s for c in named for arg in c.args for s in ast.walk(arg) if isinstance(s, ast.Constant)]
    return {s.value for s in strings if isinstance(s.value, str) and KEY.match(s.value)}


def test_every_key_the_pages_and_the_server_name_is_in_the_english_catalog(catalogs: Catalogs) -> None:
    english = messages(catalogs, "en")
    used: dict[str, str] = {}
    for path in TEMPLATES:
        used |= dict.fromkeys(template_keys(path), path.name)
    for path in SCRIPTS:
        used |= dict.fromkeys(js_keys(path), path.name)
    for path in PYTHON:
        used |= dict.fromkeys(python_keys(path), path.name)
    assert len(used) > 180  # the scan finds the keys: it is not passing on nothing
    assert {key: where for key, where in used.items() if key not in english} == {}


# -- No words outside the catalogs --------------------------------------------------

WORDS = re.compile(r"[^\W\d_]{2,}", re.UNICODE)


def prose(text: str) -> bool:
    """A string a person would read: two words in a row, a capitalised word, or a sentence's punctuation."""
    text = text.strip()
    if not WORDS.search(text) or KEY.match(text):
        return False
    return bool(
        re.search(r"[^\W\d_]{2,}\s+[^\W\d_]{2,}", text)
        or re.match(r"^[A-Z][a-z]+", text)
        or re.search(r"[^\W\d_][!?…](\s|$)", text)
    )


CODE_WORDS = {"Escape", "use strict"}  # a key's name, a directive: code, not words


def literals_in_script(source_path: Path) -> list[str]:
    return [
        f"{source_path.name}:{line}: {text.strip()!r}"
        for text, codes_own, line in js_strings(source_path)
        if prose(text) and text.strip() not in CODE_WORDS and not codes_own
    ]


class _PageText(HTMLParser):
    """The text and the readable attributes of a page as it leaves the server, before i18n.js fills it."""

    READABLE = ("aria-label", "alt", "title", "placeholder", "label")

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.skip += tag in ("script", "style")
        for name, value in attrs:
            if name in self.READABLE and value and WORDS.search(value):
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag: str) -> None:
        self.skip -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self.skip and WORDS.search(data) and not re.fullmatch(r"\s*https?://\S+\s*", data):
            self.found.append(data.strip())  # (an address is the server's, in no language)


def literals_in_page(html: str) -> list[str]:
    parser = _PageText()
    parser.feed(html)
    return parser.found


def rendered(name: str) -> str:
    """A template rendered as the server renders it, with values that hold no letters of their own."""
    app = Flask("check", template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    values = {"code": "1234", "join_url": "http://127.0.0.1:1/join/1234", "qr": "<svg></svg>", "host_token": "0"}
    with app.test_request_context():
        return render_template(name, languages=[], lang="en", **values)


def test_no_template_holds_words_of_its_own() -> None:
    found = {path.name: literals_in_page(rendered(path.name)) for path in TEMPLATES if path.name != "base.html"}
    assert len(found) == 5  # the TV, the phone, the missing room, the night's big screen and its way in
    assert {name: words for name, words in found.items() if words} == {}
    assert sum(len(template_keys(path)) for path in TEMPLATES) > 40  # the words are there, as keys


def test_no_script_holds_words_of_its_own() -> None:
    assert [literal for path in SCRIPTS for literal in literals_in_script(path)] == []


def test_the_literal_checks_catch_words(tmp_path: Path) -> None:
    """The checks above on code that does hold words: they fail on it."""
    script = tmp_path / "bad.js"
    script.write_text(
        'el("button", { text: "Draw from the shoe" });\n'
        "box.textContent = `Hand ${n} scored`;\n"
        'pause.textContent = "Pause";\n'
        "say(`${name} WINS!`);\n"
        'ok(t("call.draw"), "click", "card-button", "2-digit", `${a} · ${b}`);\n'
        "console.error(`no message ${key} in ${lang}`);\n"
        "throw new Error(`no catalog for ${tag}`);\n"
        'el("li", { class: "group is-meld" });\n'
    )
    assert [line.split(": ", 1)[1] for line in literals_in_script(script)] == [
        "'Draw from the shoe'",
        "'Hand {} scored'",
        "'Pause'",
        "'{} WINS!'",
    ]
    assert literals_in_page('<p class="big">Scan to join</p><img alt="A QR code"><b>1234</b>') == [
        "Scan to join",
        "<img alt='A QR code'>",
    ]
    assert literals_in_page('<p data-i18n="tv.scan"></p><b>1234</b><span aria-hidden="true">🌐</span>') == []


def refusals_in(path: Path, kinds: set[str]) -> list[tuple[int, ast.expr | None]]:
    """Each construction of a refusal in a module: (its line, the first argument)."""
    calls = [n for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Call)]
    named = [c for c in calls if getattr(c.func, "id", getattr(c.func, "attr", None)) in kinds]
    return [(c.lineno, c.args[0] if c.args else None) for c in named]


def all_refusals() -> set[str]:
    kinds, todo = set(), [RummyError]
    while todo:
        kind = todo.pop()
        kinds.add(kind.__name__)
        todo.extend(kind.__subclasses__())
    return kinds


def test_every_refusal_the_server_makes_names_a_catalog_key(catalogs: Catalogs) -> None:
    english = messages(catalogs, "en")
    kinds = all_refusals()
    assert {"Refused", "SlowDown", "NotHeld"} <= kinds
    wrong, seen = [], 0
    for path in PYTHON:
        for line, first in refusals_in(path, kinds):
            seen += 1
            if isinstance(first, ast.Constant) and first.value in english:
                continue
            # A family named by a prefix: f"phase.{phase.value}" (every member is checked above).
            if isinstance(first, ast.JoinedStr) and isinstance(first.values[0], ast.Constant):
                prefix = first.values[0].value
                if any(key.startswith(prefix) for key in english):
                    continue
            if path.name == "lobby.py" and isinstance(first, ast.Name) and first.id == "key":
                continue  # _lobby_only(key): its callers pass keys, found by the key scan above
            wrong.append(f"{path.relative_to(ROOT)}:{line}: {ast.unparse(first) if first else '(nothing)'}")
    assert seen > 50
    assert wrong == []


def test_the_literal_check_of_the_server_catches_a_sentence(tmp_path: Path) -> None:
    module = tmp_path / "bad.py"
    module.write_text('def f():\n    raise Refused("That seat is taken")\n')
    [(line, first)] = refusals_in(module, all_refusals())
    assert line == 2 and first.value not in messages(default_catalogs(), "en")


def test_the_served_catalog_is_json_the_pages_can_load(catalogs: Catalogs) -> None:
    for tag in SHIPPED:
        page = json.loads(json.dumps(catalogs.page(tag)))
        assert page["lang"] == tag and page["messages"]["app.name"] == "PartyRummy"


@pytest.mark.parametrize("screen", ["tv", "phone"])
def test_each_screen_is_served_every_word_its_page_and_scripts_name_and_not_the_servers(
    catalogs: Catalogs, screen: str
) -> None:
    english = messages(catalogs, "en")
    served = catalogs.page("en", screen)["messages"]
    pages = [ROOT / "templates" / "base.html", ROOT / "templates" / f"{screen}.html"]
    scripts = [p for p in SCRIPTS if p.name.startswith(screen) or p.name in ("common.js", "i18n.js")]
    named = {key for path in pages for key in template_keys(path)} | {k for path in scripts for k in js_keys(path)}
    # Keys handed around as data (a button's key, a family like `call.${…}`): any string of the scripts that is one.
    strings = [text for path in scripts for text, _, _ in js_strings(path)]
    named |= {text for text in strings if text in english}
    roots = {key.split(".")[0] for key in english}
    families = {text.split("{}")[0] for text in strings if "{}" in text and text.split(".")[0] in roots}
    assert len(named) > 60  # the scan finds them: it is not passing on nothing
    assert sorted(named - served.keys()) == []
    assert sorted(f for f in families if f.endswith(".") and not any(k.startswith(f) for k in served)) == []
    # What stays behind: the server's refusals (they come translated) and the other screen's words.
    assert not any(key.startswith(("error.", "csv.")) for key in served)
    assert not any(key.startswith("tv." if screen == "phone" else "phone.") for key in served)
