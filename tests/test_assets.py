"""The scripts and styles as sent (partyrummy/server/pages/assets.py): minified into the same program, compressed
only for a browser that accepts gzip, answered 304 while a copy holds, and a changed file new after a restart."""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import rcssmin
import rjsmin
import tree_sitter_javascript
from flask import Flask
from tree_sitter import Language, Node, Parser

from partyrummy.server.app import create_app
from partyrummy.server.pages import assets as assets_module
from partyrummy.server.pages.assets import prepare, register_assets

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "static"
SCRIPTS = sorted((STATIC / "js").glob("*.js"))
STYLES = sorted((STATIC / "css").glob("*.css"))
JS = Parser(Language(tree_sitter_javascript.language()))


def program(source: bytes) -> list[tuple[str, bytes | str]]:
    """The syntax tree of a module, comments aside, as a list: each node opened and closed, each token's text.
    Two sources with the same list are the same program, whatever whitespace and comments they differ by."""
    out: list[tuple[str, bytes | str]] = []

    def walk(node: Node) -> None:
        if node.type == "comment":
            return
        assert not (node.is_error or node.is_missing), (node.type, node.start_point, source[:200])
        if node.child_count == 0 or node.type == "string_fragment":
            out.append((node.type, source[node.start_byte : node.end_byte]))
            return
        out.append(("(", node.type))
        for child in node.children:
            walk(child)
        out.append((")", node.type))

    walk(JS.parse(source).root_node)
    return out


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_every_script_minified_is_the_same_program_without_its_comments(path: Path) -> None:
    sent = prepare(path)
    # If not: rjsmin changed the program (see the test of a backtick inside a template's ${…} below).
    assert program(sent.body) == program(path.read_bytes()), path.name
    assert len(sent.body) < sent.raw and b"/*" not in sent.body


def test_the_scripts_use_every_syntax_the_minifier_must_keep() -> None:
    """The checks above cover these: static and dynamic imports, template literals with substitutions, regular
    expressions (a slash that is not a division), optional chaining."""
    sources = b"".join(path.read_bytes() for path in SCRIPTS)
    for needed in (rb'import \{[^}]*\} from "\./', rb'import\("\./', rb"`[^`]*\$\{", rb"\.replace\(/", rb"\?\."):
        assert re.search(needed, sources), needed


CASES = {
    "imports": 'import { a, b as c } from "./x.js";\nimport * as ns from "./y.js";\nimport "./z.js";\n',
    "dynamic import": 'const MODES = { phones: () => import("./tv-phones.js"), real: () => import("./r.js") };\n',
    "template": "const a = `x  ${b /* kept */ + 1}  // not a comment\n  ${c}`;\nconst d = `?q=${`${e}`}`;\n",
    "regex": 'const r = /ab+c\\/ d/g.test(s) ? s.replace(/[/]x/g, "") : q / 2 / y;\nif (x) /a b/.test(s);\n',
    "asi": "let z = a\n++b\nfunction f() {\n  return\n  1;\n}\n",
    "modern": "class A {\n  #x = 1;\n  get x() { return this.#x ?? a?.b?.[c]; }\n}\nconst n = 1_000;\n",
}


@pytest.mark.parametrize("source", CASES.values(), ids=CASES.keys())
def test_rjsmin_keeps_the_syntax_of_es_modules(source: str) -> None:
    assert program(rjsmin.jsmin(source).encode()) == program(source.encode())


def test_rjsmin_mangles_a_backtick_inside_a_templates_substitution() -> None:
    """rjsmin 1.3 does not follow a template literal into its `${…}`: at a backtick there (a template nested in it,
    or a backtick in a string, a regular expression or a comment there) it takes the outer template as ended, and
    strips the spaces of the text that follows (the nested template's, or the outer's) as if it were code. None of
    our scripts has such a backtick before spaces it would strip (the test of every script above would fail if one
    came): this shows what to avoid, and says so when rjsmin no longer does it."""
    for inner in ("`in  ${c}  ner`", '"`"', "/`/.source", "x /* ` */"):
        source = f"const a = `${{{inner}}}  two spaces`;\n"
        minified = rjsmin.jsmin(source)
        assert program(minified.encode()) != program(source.encode()), minified


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_every_minified_script_is_a_module_node_accepts(tmp_path: Path) -> None:
    for path in SCRIPTS:
        (tmp_path / f"{path.stem}.mjs").write_bytes(prepare(path).body)
    for path in sorted(tmp_path.glob("*.mjs")):
        done = subprocess.run(["node", "--check", str(path)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (path.name, done.stderr)


@pytest.mark.parametrize("path", STYLES, ids=lambda p: p.name)
def test_every_style_minified_keeps_its_rules(path: Path) -> None:
    source = path.read_text()
    sent = prepare(path).body.decode()
    assert len(sent) < len(source) and "/*" not in sent
    bare = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    assert (sent.count("{"), sent.count("}")) == (bare.count("{"), bare.count("}"))
    # A selector's descendant space before a pseudo-class, and calc()'s spaces, carry meaning.
    for kept in re.findall(r"[\w)\]] :(?:is|has|not)\(", bare):
        assert kept in sent, kept
    assert rcssmin.cssmin("a :is(.b, .c) > :hover { x: calc(1px + 2%); }") == "a :is(.b,.c)>:hover{x:calc(1px + 2%)}"


def test_the_vendored_client_is_sent_as_it_is_but_compressed() -> None:
    path = STATIC / "vendor" / "socket.io.esm.min.js"
    sent = prepare(path)
    assert sent.body == path.read_bytes()
    assert sent.gzipped is not None and gzip.decompress(sent.gzipped) == sent.body
    assert len(sent.gzipped) < len(sent.body) / 2


def served(folder: Path) -> Flask:
    """A bare app serving `folder` as the server serves static/: a new one is the server restarted."""
    app = Flask("assets", static_folder=None)
    register_assets(app, folder)
    return app


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "js").mkdir()
    script = '/* Why: a reason. */\nimport { b } from "./b.js";\n\nexport const a = b;\n'
    (tmp_path / "js" / "a.js").write_text(script * 20)
    (tmp_path / "tiny.css").write_text("a{b:c}")
    return tmp_path


def test_gzip_only_when_the_browser_accepts_it(folder: Path) -> None:
    client = served(folder).test_client()
    plain = prepare(folder / "js" / "a.js").body
    for accepted in (None, "identity", "gzip;q=0, deflate", "br"):
        response = client.get("/static/js/a.js", headers={"Accept-Encoding": accepted} if accepted else {})
        assert response.status_code == 200 and "Content-Encoding" not in response.headers, accepted
        assert response.data == plain and response.headers["Vary"] == "Accept-Encoding"
        assert response.headers["Content-Type"] == "text/javascript; charset=utf-8"
    for accepted in ("gzip", "gzip, deflate, br", "br;q=1.0, gzip;q=0.8, *;q=0.1", "*"):
        response = client.get("/static/js/a.js", headers={"Accept-Encoding": accepted})
        assert response.headers["Content-Encoding"] == "gzip", accepted
        assert gzip.decompress(response.data) == plain and len(response.data) < len(plain) / 4
        assert response.headers["Vary"] == "Accept-Encoding"
    assert b"Why" not in plain and b"export const a=b;" in plain
    # A file gzip would not make smaller goes as it is, to every browser.
    response = client.get("/static/tiny.css", headers={"Accept-Encoding": "gzip"})
    assert response.data == b"a{b:c}" and "Content-Encoding" not in response.headers


def test_a_copy_the_browser_holds_is_answered_304_with_no_body(folder: Path) -> None:
    client = served(folder).test_client()
    for accepted in ("gzip", "identity"):
        first = client.get("/static/js/a.js", headers={"Accept-Encoding": accepted})
        etag = first.headers["ETag"]
        assert etag.startswith('"') and not etag.startswith("W/")  # strong
        assert first.headers["Cache-Control"] == "no-cache"  # kept, and asked about before each use
        again = client.get("/static/js/a.js", headers={"Accept-Encoding": accepted, "If-None-Match": etag})
        assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
        assert again.headers["Vary"] == "Accept-Encoding" and "Content-Encoding" not in again.headers
        other = client.get("/static/js/a.js", headers={"Accept-Encoding": accepted, "If-None-Match": '"stale"'})
        assert other.status_code == 200 and other.data == first.data
    # The two forms carry two ETags: a copy of one is never taken for the other.
    packed = client.get("/static/js/a.js", headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    assert client.get("/static/js/a.js", headers={"If-None-Match": packed}).status_code == 200


def test_a_changed_file_gets_a_new_etag_after_a_restart(folder: Path) -> None:
    before = served(folder).test_client()
    old = before.get("/static/js/a.js").headers["ETag"]
    (folder / "js" / "a.js").write_text('import { b } from "./b.js";\nexport const a = b + 1;\n')
    # The running server keeps what it read: the same file, the same ETag.
    assert before.get("/static/js/a.js", headers={"If-None-Match": old}).status_code == 304
    after = served(folder).test_client()
    response = after.get("/static/js/a.js", headers={"If-None-Match": old})
    assert response.status_code == 200 and response.headers["ETag"] != old
    assert response.data == b'import{b}from"./b.js";export const a=b+1;'
    # Only the content makes the ETag: the same bytes written again keep it.
    (folder / "tiny.css").write_text("a{b:c}")
    kept = before.get("/static/tiny.css").headers["ETag"]
    assert served(folder).test_client().get("/static/tiny.css").headers["ETag"] == kept


def test_each_file_is_prepared_once_whatever_the_requests(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prepared: list[Path] = []

    def counted(path: Path):
        prepared.append(path)
        return prepare(path)

    monkeypatch.setattr(assets_module, "prepare", counted)
    client = served(folder).test_client()
    for name in ("js/a.js", "js//a.js", "js/./a.js", "js/../js/a.js", "js/a.js", "tiny.css", "tiny.css"):
        for accepted in ("gzip", "identity"):
            assert client.get(f"/static/{name}", headers={"Accept-Encoding": accepted}).status_code == 200, name
    assert [path.name for path in prepared] == ["a.js", "tiny.css"]
    for missing in ("../secret", "js", "js/nothing.js", "%2e%2e/secret"):
        assert client.get(f"/static/{missing}").status_code == 404, missing
    assert len(prepared) == 2


def test_the_server_sends_its_scripts_styles_and_icon_this_way(tmp_path: Path) -> None:
    app, _ = create_app({"DATA": tmp_path / "rooms.sqlite3"})
    client = app.test_client()
    for name in ("js/tv.js", "js/phone.js", "css/tv.css", "vendor/socket.io.esm.min.js", "favicon.svg"):
        response = client.get(f"/static/{name}", headers={"Accept-Encoding": "gzip"})
        assert response.headers["Content-Encoding"] == "gzip", name
        assert gzip.decompress(response.data) == prepare(STATIC / name).body
        assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["Content-Type"] == "image/svg+xml"
    with app.test_request_context():
        from flask import url_for

        assert url_for("static", filename="js/tv.js") == "/static/js/tv.js"
